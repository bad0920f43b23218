"""The console-script entry point, with a fast path for the two commands scripts call most.

`rulebase lookup REF`, `rulebase search QUERY` and `rulebase card NAME` are served here without importing typer and
click, which cost more than the whole lookup; piped or with --json (scripts, editors) rich is not
imported either. Their output is produced by the same functions the typer commands use (views/plain.py,
views/shapes.py, render.py), so the two paths print the same bytes. Anything else goes to the typer app
in cli/app.py.
"""

from __future__ import annotations

import gc
import os
import sys

_VALUE_OPTS = {"--limit": "limit", "-n": "limit", "--edition": "edition", "-e": "edition", "--kind": "kind",
               "-k": "kind", "--lang": "lang", "--source": "source", "-s": "source"}


def parse(argv: list[str]) -> dict | None:
    """The request if it is a simple lookup/search this path serves, else None (typer then parses
    it, and words any usage error). `--index DIR` (or `--index=DIR`) may come before or after the
    command, as in app.py; the last one wins."""
    opts: dict = {"index": None, "json": False, "full": False, "limit": 10, "args": [],
                  "edition": [], "kind": [], "lang": [], "source": []}
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--" and "command" in opts:
            opts["args"] += args
            break
        if arg == "--index" or arg.startswith("--index="):
            value = arg.partition("=")[2] if "=" in arg else (args.pop(0) if args else "")
            if not value or value.startswith("-"):
                return None  # missing, or a value that looks like an option: as click decides
            opts["index"] = value
        elif "command" not in opts:
            if arg not in ("lookup", "search", "card"):
                return None
            opts["command"] = arg
        elif arg == "--json":
            opts["json"] = True
        elif arg == "--full" and opts["command"] == "lookup":
            opts["full"] = True
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
    if "command" not in opts or not opts["args"]:
        return None
    opts["args"] = [" ".join(opts["args"])]  # several words are one query or reference, as in the typer path
    return opts


_PATH_COMMANDS = {"add", "glossary"}  # their arguments are file names, which need not be UTF-8
_PATH_OPTS = {"--index", "--out"}


def undecodable(argv: list[str]) -> str | None:
    """The first text argument that is not valid UTF-8 (Python hands such bytes over as lone
    surrogates, which failed deep inside a command as an internal error), shown as its bytes;
    None when all are text. File and folder names (`add FILE`, `--index DIR`) may be any bytes."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in _PATH_COMMANDS:
            return None
        if arg in _PATH_OPTS:
            skip = True
            continue
        if arg.partition("=")[0] in _PATH_OPTS:
            continue
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return repr(os.fsencode(arg))[1:]
    return None


def serve(opts: dict) -> int:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import failure, failure_json, silence_output
    from rulebase.cli.views.plain import printable
    from rulebase.library import Library

    try:
        try:
            typed = opts["index"] or os.environ.get("RULEBASE_INDEX")  # (a folder the user named)
            library = Library(opts["index"] or None, typed=bool(typed))
            library.notify = lambda message: print(f"warning: {message}", file=sys.stderr)
            library.announce = lambda message: print(printable(f"note: {message}"), file=sys.stderr)
            if _terminal(opts):  # a build shows its progress bar, as in the typer path
                # lazy: rich (~40 ms) only for a terminal
                from rulebase.cli.console import build_progress

                with build_progress() as progress:
                    library.ensure(progress, beside=True)
            else:
                library.ensure(beside=True)
            if library.stale_reason:
                print(printable(f"warning: {library.stale_reason}"), file=sys.stderr)
            if opts["command"] == "lookup":
                return _lookup(library, opts)
            if opts["command"] == "card":
                return _card(library, opts)
            return _search(library, opts)
        except BrokenPipeError:
            raise
        except Exception as exc:  # noqa: BLE001 - the one funnel (common.failure): lines and exit code
            lines, code = failure(exc)
            for line in lines:
                print(printable(line), file=sys.stderr)
            if opts["json"]:  # --json answers in JSON, errors included
                _dump(failure_json(exc))
            return code
    except BrokenPipeError:  # the reader went away (`| head -1`), even while an error was reported
        silence_output()
        return 0


def _lookup(library, opts: dict) -> int:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules.desk import lookup

    result = lookup(library.store, opts["args"][0], None, full=opts["full"], spell_out=library.spelled_out)
    if opts["json"]:
        # lazy: only the output form asked for
        from rulebase.cli.views.desk import desk_json
        from rulebase.cli.views.shapes import lookup_json

        _dump(desk_json(result, lookup_json(result)))
    elif _terminal(opts):
        # lazy: rich (~40 ms) only for a terminal
        from rulebase.cli.console import make_console, paged
        from rulebase.cli.render import render_lookup

        with paged(make_console()) as console:
            render_lookup(console, result)
    else:
        # lazy: only the output form asked for
        from rulebase.cli.views.desk import desk_lines

        _emit(desk_lines(result))
    return 0


def _card(library, opts: dict) -> int:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.views import card as card_view
    from rulebase.rules.cards import find

    found = find(library.store, opts["args"][0])
    if opts["json"]:
        _dump(card_view.found_json(found))
    elif _terminal(opts):
        # lazy: rich (~40 ms) only for a terminal
        from rulebase.cli.console import make_console, paged
        from rulebase.cli.render import render_found

        with paged(make_console()) as console:
            render_found(console, found)
    else:
        _emit(card_view.found_lines(found))
    return 0


def _search(library, opts: dict) -> int:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import check_filters
    from rulebase.search.request import run_search

    filters = check_filters(library, {k: opts[k] for k in ("edition", "kind", "lang", "source")})
    results = run_search(library, opts["args"][0], filters, opts["limit"])
    from rulebase.cli.common import say_notes

    say_notes(results.notes)
    if opts["json"]:
        # lazy: only the output form asked for
        from rulebase.cli.views.shapes import search_json

        _dump(search_json(results))
    elif _terminal(opts):
        # lazy: rich (~40 ms) only for a terminal
        from rulebase.cli.console import make_console, paged
        from rulebase.cli.render import render_search

        with paged(make_console()) as console:
            render_search(console, results)
    else:
        # lazy: only the output form asked for
        from rulebase.cli.views.plain import search_lines

        _emit(search_lines(results))
    return 0 if results.hits else 1


def _terminal(opts: dict) -> bool:
    """Rich output (the same renderers as app.py), without typer and click: 50 ms of a terminal
    answer."""
    return not opts["json"] and sys.stdout.isatty()


def _emit(lines: list[str]) -> None:
    """Plain lines, made safe for a terminal, flushed here: a reader that goes away surfaces as
    BrokenPipeError inside serve(), not at interpreter exit."""
    # lazy: only the output form asked for
    from rulebase.cli.views.plain import printable

    sys.stdout.write(printable("\n".join(lines)) + "\n")
    sys.stdout.flush()


def _dump(data) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.views.shapes import dumps

    sys.stdout.write(dumps(data) + "\n")
    sys.stdout.flush()


def main() -> None:
    # One command is a short-lived process. Python's cyclic collector would walk every object the
    # imports create several times over, and once more at exit: 40 ms of a cold search. Collect
    # rarely (an index build still collects: its parse trees are cyclic), and keep what lives
    # until exit out of the final pass. Every file is closed before the command returns (the
    # index is written inside `with` blocks and explicit commits), so nothing is left to flush.
    gc.set_threshold(50_000, 20, 100)
    try:
        # lazy: each command loads only what it runs (cold start)
        from rulebase.cli.common import standard_streams

        closed = standard_streams()
        if closed is not None:
            print(closed, file=sys.stderr)
            sys.exit(2)
        if sys.argv[1:] == ["--version"]:  # no typer needed to say this
            # lazy: each command loads only what it runs (cold start)
            from rulebase.cli.common import version_line

            print(version_line())
            sys.exit(0)
        bad = undecodable(sys.argv[1:])
        if bad is not None:
            from rulebase.cli.views.plain import printable

            print(printable(f"error: argument {bad} is not valid UTF-8 text - write rule numbers, ids, terms and "
                            "queries in UTF-8 (check the terminal's encoding)"), file=sys.stderr)
            sys.exit(2)
        opts = parse(sys.argv[1:])
        if opts is not None:
            sys.exit(serve(opts))
        # lazy: each command loads only what it runs (cold start)
        from rulebase.cli.app import main as cli_main

        cli_main()
    except OSError as exc:  # --version, -h or a usage message to a full stdout: not a traceback
        # lazy: only this rarer path needs it
        from rulebase.cli.common import failure, output_failed

        if not output_failed(exc):
            raise
        lines, code = failure(exc)
        print("\n".join(lines), file=sys.stderr)
        sys.exit(code)
    finally:
        gc.freeze()
