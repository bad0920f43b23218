"""The console-script entry point, with a fast path for the two commands scripts call most.

`rulebase lookup REF` and `rulebase search QUERY` with plain or --json output (piped, as in
scripts and editors) are served here without importing typer, click or rich, which together
cost more than the whole lookup. Their output is produced by the same functions the typer
commands use (plain.py, views.py), so the two paths print the same bytes. Anything else,
including a terminal that deserves rich output, goes to the typer app in cli.py.
"""

from __future__ import annotations

import gc
import json
import sys
from pathlib import Path

_VALUE_OPTS = {"--limit": "limit", "-n": "limit", "--edition": "edition", "-e": "edition", "--kind": "kind",
               "-k": "kind", "--lang": "lang", "--source": "source", "-s": "source"}


def parse(argv: list[str]) -> dict | None:
    """The request if it is a simple lookup/search this path serves, else None."""
    opts: dict = {"index": None, "json": False, "limit": 10, "args": [],
                  "edition": [], "kind": [], "lang": [], "source": []}
    args = list(argv)
    while args and args[0].startswith("--index"):
        flag = args.pop(0)
        if "=" in flag:
            opts["index"] = flag.split("=", 1)[1]
        elif args:
            opts["index"] = args.pop(0)
        else:
            return None
    if not args or args[0] not in ("lookup", "search"):
        return None
    opts["command"] = args.pop(0)
    while args:
        arg = args.pop(0)
        if arg == "--json":
            opts["json"] = True
        elif arg == "--":
            opts["args"] += args
            break
        elif arg in _VALUE_OPTS and args and opts["command"] == "search":
            key, value = _VALUE_OPTS[arg], args.pop(0)
            if key == "limit":
                if not value.isdigit() or not 1 <= int(value) <= 500:
                    return None  # let typer word the usage error
                opts["limit"] = int(value)
            else:
                opts[key].append(value)
        elif arg.startswith("-") and len(arg) > 1:
            return None
        else:
            opts["args"].append(arg)
    return opts if len(opts["args"]) == 1 else None


def serve(opts: dict) -> int:
    from rulebase.errors import NotFound, RulebaseError
    from rulebase.library import Library

    try:
        library = Library(Path(opts["index"]) if opts["index"] else None)
        library.ensure()
        if library.stale_reason:
            print(f"warning: {library.stale_reason}", file=sys.stderr)
        if opts["command"] == "lookup":
            return _lookup(library, opts)
        return _search(library, opts)
    except NotFound as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        if exc.suggestions:
            print("did you mean: " + ", ".join(exc.suggestions), file=sys.stderr)
        return 1
    except RulebaseError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - same funnel as cli.py: one line, exit 3
        print(f"error: internal error: {type(exc).__name__}: {exc} (run with --traceback for details)",
              file=sys.stderr)
        return 3


def _lookup(library, opts: dict) -> int:
    from rulebase.lookup import lookup

    result = lookup(library.store, opts["args"][0])
    if opts["json"]:
        from rulebase.views import lookup_json

        _dump(lookup_json(result))
    else:
        from rulebase.plain import lookup_lines

        print("\n".join(lookup_lines(result)))
    return 0


def _search(library, opts: dict) -> int:
    from rulebase.query import run_search

    filters = {k: opts[k] for k in ("edition", "kind", "lang", "source")}
    results = run_search(library, opts["args"][0], filters, opts["limit"])
    records = {r.id: r for r in library.store.get_many([h.id for h in results.hits])}
    if opts["json"]:
        from rulebase.views import search_json

        _dump(search_json(results, records))
    else:
        from rulebase.plain import search_lines

        print("\n".join(search_lines(results, records)))
    return 0 if results.hits else 1


def _dump(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def main() -> None:
    # One command is a short-lived process. Python's cyclic collector would walk every object the
    # imports create several times over, and once more at exit: 40 ms of a cold search. Collect
    # rarely (an index build still collects: its parse trees are cyclic), and keep what lives
    # until exit out of the final pass. Every file is closed before the command returns (the
    # index is written inside `with` blocks and explicit commits), so nothing is left to flush.
    gc.set_threshold(50_000, 20, 100)
    try:
        opts = parse(sys.argv[1:])
        if opts is not None and (opts["json"] or not sys.stdout.isatty()):
            sys.exit(serve(opts))
        from rulebase.cli import main as cli_main

        cli_main()
    finally:
        gc.freeze()
