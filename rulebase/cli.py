"""The command line: parse, call the library, render, exit code. Nothing else lives here.

Exit codes: 0 found, 1 not found, 2 usage or input error, 3 internal error.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from rulebase.errors import NotFound, RulebaseError

app = typer.Typer(no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  help="Search and look up Magic: The Gathering rules documents, 1995 to 2026, and their history.")
index_app = typer.Typer(no_args_is_help=True, help="Build or inspect the search index.")
app.add_typer(index_app, name="index")
glossary_app = typer.Typer(no_args_is_help=True, help="Publish the glossary as a static site or Markdown.")
app.add_typer(glossary_app, name="glossary")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON only (no colour, no progress).")]
AsOfOpt = Annotated[str | None, typer.Option(
    "--as-of", metavar="DATE", help="The rules in force that day: YYYY-MM-DD, YYYY-MM or YYYY (its last day).")]


def _when(as_of: str | None) -> int | None:
    from rulebase.history import as_of_day

    return as_of_day(as_of)


class State:
    def __init__(self, index: Path | None, traceback: bool):
        self.index = index
        self.traceback = traceback
        self._library = None

    def library(self):
        if self._library is None:
            from rulebase.library import Library

            self._library = Library(self.index)
        return self._library


_STATE = State(None, False)  # replaced by the root callback on every invocation


def _state() -> State:
    return _STATE


def _err(message: str) -> None:
    from rulebase.plain import printable

    typer.echo(printable(f"error: {message}"), err=True)


def funnel(fn):
    """The one place errors become messages and exit codes."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        state = _state()
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except NotFound as exc:
            if state.traceback:
                raise
            _err(exc.message)
            if exc.suggestions:
                from rulebase.plain import printable

                typer.echo(printable("did you mean: " + ", ".join(exc.suggestions)), err=True)
            raise typer.Exit(1) from None
        except RulebaseError as exc:
            if state.traceback:
                raise
            _err(exc.message)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        except BrokenPipeError:  # the reader went away (`rulebase changes | head -1`): not an error
            from rulebase.fastpath import silence_output

            silence_output()
            raise typer.Exit(0) from None
        except Exception as exc:
            if state.traceback:
                raise
            _err(f"internal error: {type(exc).__name__}: {exc} (run with --traceback for details)")
            raise typer.Exit(3) from None

    return wrapper


@app.callback()
def root(
    ctx: typer.Context,
    index: Annotated[Path | None, typer.Option("--index", envvar="RULEBASE_INDEX",
                                               help="Index directory (default: ./index in a checkout).")] = None,
    traceback: Annotated[bool, typer.Option("--traceback", help="Show Python tracebacks (for developers).")] = False,
) -> None:
    global _STATE
    _STATE = State(index, traceback)
    ctx.obj = _STATE


def _console():
    from rulebase.render import make_console

    return make_console()


def _library(json_mode: bool = False):
    """The library with an index ready, showing a progress bar while it builds on a terminal."""
    from rulebase.render import build_progress

    library = _state().library()
    with build_progress(enabled=not json_mode) as progress:
        library.notify = lambda message: typer.echo(f"warning: {message}", err=True)
        library.ensure(progress)
    if library.stale_reason:  # stderr, so --json output stays pure JSON
        from rulebase.plain import printable

        typer.echo(printable(f"warning: {library.stale_reason}"), err=True)
    return library


def _print_json(data) -> None:
    from rulebase.views import dumps

    typer.echo(dumps(data))


@app.command()
@funnel
def lookup(ref: Annotated[str, typer.Argument(help="Rule number (502.83a), record id, or page ('4e p17').")],
           as_of: AsOfOpt = None, json_out: JsonOpt = False) -> None:
    """Show a rule, record or page with its children and references.

    A rule number shows its meaning now (or --as-of a date) first, then what the number meant in
    other eras and in other documents."""
    from rulebase import lookup as lookups

    when = _when(as_of)
    library = _library(json_out)
    result = lookups.lookup(library.store, ref, when)
    if json_out:
        from rulebase.views import lookup_json

        _print_json(lookup_json(result))
        return
    from rulebase.render import paged, render_lookup

    with paged(_console()) as console:
        render_lookup(console, result)


@app.command()
@funnel
def search(
    query: Annotated[str, typer.Argument(help='Free text, "quoted phrases", rule numbers.')],
    edition: Annotated[list[str] | None, typer.Option("--edition", "-e", help="4e, 5e, 6e or 10e.")] = None,
    kind: Annotated[list[str] | None, typer.Option("--kind", "-k", help="rule, ruling, glossary...")] = None,
    lang: Annotated[list[str] | None, typer.Option("--lang", help="en or hu.")] = None,
    source: Annotated[list[str] | None, typer.Option("--source", "-s", help="Source id (see 'sources').")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=500)] = 10,
    as_of: AsOfOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Ranked full-text search with highlights; exit 1 when nothing matches.

    One hit per rule: its versions across Comprehensive Rules releases (and identical copies in
    other documents) show once, with the newest matching text; 'rulebase history ID' shows them all."""
    from rulebase.query import run_search

    when = _when(as_of)
    library = _library(json_out)
    from rulebase.fastpath import check_filters

    filters = check_filters(library, {"edition": edition or [], "kind": kind or [], "lang": lang or [],
                                      "source": source or []})
    results = run_search(library, query, filters, limit, when)
    records = {r.id: r for r in library.store.get_many([h.id for h in results.hits])}
    if json_out:
        from rulebase.views import search_json

        _print_json(search_json(results, records))
    else:
        from rulebase.render import paged, render_search

        with paged(_console()) as console:
            render_search(console, results, records)
    if not results.hits:
        raise typer.Exit(1)


@app.command()
@funnel
def define(term: Annotated[str, typer.Argument(help="A glossary term, English or Hungarian.")],
           as_of: AsOfOpt = None, json_out: JsonOpt = False) -> None:
    """Every glossary definition of a term across editions, with its Hungarian name and referrers
    (the newest Comprehensive Rules definition, or with --as-of only those in force that day)."""
    from rulebase import lookup as lookups

    when = _when(as_of)
    library = _library(json_out)
    found = lookups.define(library.store, term, when)
    if json_out:
        from rulebase.views import define_json

        _print_json(define_json(found))
        return
    from rulebase.render import paged, render_definitions

    with paged(_console()) as console:
        render_definitions(console, found.term, found.definitions, found.hungarian, found.referrers)


@app.command()
@funnel
def show(record_id: Annotated[str, typer.Argument(metavar="ID", help="A record id, e.g. cr2008:502.83a.")],
         json_out: JsonOpt = False) -> None:
    """One record in full: every field, raw and clean text."""
    from rulebase import lookup as lookups

    library = _library(json_out)
    record = library.store.get(record_id)
    if record is None:
        raise NotFound(f"no record with id {record_id!r}", lookups.suggest(library.store, record_id))
    if json_out:
        from rulebase.views import entry_json

        _print_json(entry_json(lookups.expand(library.store, record)))
        return
    from rulebase.render import render_show

    render_show(_console(), record)


@app.command()
@funnel
def sources(json_out: JsonOpt = False) -> None:
    """The documents in the corpus: edition, date, records by kind, references, credit."""
    library = _library(json_out)
    meta = library.ensure().meta
    if json_out:
        _print_json(meta["sources"])
        return
    from rulebase.render import render_sources

    render_sources(_console(), meta["sources"])


@app.command()
@funnel
def ingest(verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Every note and warning.")] = False,
           json_out: JsonOpt = False) -> None:
    """Parse every source again, rebuild the index and print the ingest report."""
    from rulebase.render import build_progress, render_ingest_report

    library = _state().library()
    with build_progress(enabled=not json_out) as progress:
        generation = library.build(progress, force=True)
    if json_out:
        _print_json({"sources": generation.meta["sources"], "links": generation.meta["links"]})
        return
    render_ingest_report(_console(), generation.meta, verbose)


@app.command()
@funnel
def export() -> None:
    """Every record as JSON Lines on stdout, in a deterministic order."""
    from rulebase.records import to_dict

    library = _library(True)
    out = sys.stdout
    for record in library.store.all():
        out.write(json.dumps(to_dict(record), ensure_ascii=False) + "\n")
    out.flush()


@index_app.command("build")
@funnel
def index_build(json_out: JsonOpt = False) -> None:
    """Rebuild the index now (beside the old one, switched atomically)."""
    from rulebase.render import build_progress

    library = _state().library()
    with build_progress(enabled=not json_out) as progress:
        generation = library.build(progress, force=True)
    if json_out:
        _print_json({"index": str(library.index_dir), "generation": generation.path.name,
                     "records": generation.meta["records"], "seconds": generation.meta["build_seconds"]})
        return
    typer.echo(f"built {generation.meta['records']} records in {generation.meta['build_seconds']} s "
               f"-> {generation.path}")


@index_app.command("status")
@funnel
def index_status(json_out: JsonOpt = False) -> None:
    """Where the index is, what it was built from, and whether it is current."""
    status = _state().library().status()
    if json_out:
        gen = status.generation
        _print_json({"index": str(status.index_dir), "current": status.current, "writable": status.writable,
                     "problem": getattr(status, "problem", None),
                     "generation": gen.path.name if gen else None,
                     "built_at": gen.meta.get("built_at") if gen else None,
                     "fingerprint": gen.fingerprint if gen else None, "expected": status.expected,
                     "sources": [s["id"] for s in gen.meta.get("sources", [])] if gen else []})
        return
    from rulebase.render import render_status

    render_status(_console(), status)


def _rebuild_after(library, json_out: bool, what: str):
    """Rebuild the index after the user corpus changed; the change stays if the build fails."""
    from rulebase.errors import IndexError_
    from rulebase.render import build_progress

    library.reload()
    try:
        with build_progress(enabled=not json_out) as progress:
            return library.build(progress, force=False)
    except RulebaseError as exc:
        raise IndexError_(f"{what}, but the index was not rebuilt: {exc.message}",
                          hint="it rebuilds on next use of a writable --index") from None


@app.command()
@funnel
def add(
    files: Annotated[list[Path], typer.Argument(
        metavar="FILE...", help="Rules text files: Comprehensive Rules, Crystal Keep summary...")],
    fmt: Annotated[str | None, typer.Option("--format",
                                            help="Force the format of every file (default: detected).")] = None,
    edition: Annotated[str | None, typer.Option("--edition",
                                                help="4e, 5e, 6e, 10e or crYYYY, for every file.")] = None,
    doc_id: Annotated[str | None, typer.Option(
        "--id", help="Document id, one file only (default: from format and date).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Add your own rules documents to the per-user corpus, then rebuild the index once.

    Every file is checked before any is stored: one bad file and nothing is added."""
    from rulebase import usercorpus

    library = _state().library()
    added = usercorpus.add_documents(files, library.sources, fmt, edition, doc_id)
    generation = _rebuild_after(library, json_out, "added " + ", ".join(a.source.id for a in added))
    if json_out:
        items = [{"id": a.source.id, "title": a.source.title, "edition": a.source.edition, "date": a.source.date,
                  "format": a.source.format, "file": str(a.source.path), "encoding": a.encoding,
                  "repairs": a.repairs, "records": a.records, "kinds": a.kinds, "evidence": a.detected.evidence}
                 for a in added]
        _print_json(items[0] if len(files) == 1 else items)  # one file: one object, as before
        return
    from rulebase.render import render_added

    console = _console()
    for n, one in enumerate(added, 1):
        render_added(console, one, generation if n == len(added) else None)


@app.command()
@funnel
def remove(doc_id: Annotated[str, typer.Argument(metavar="ID", help="Id of a document you added.")],
           json_out: JsonOpt = False) -> None:
    """Remove a document added with 'rulebase add' (bundled documents stay) and rebuild the index."""
    from rulebase import usercorpus

    library = _state().library()
    gone = usercorpus.remove_document(doc_id, library.sources)
    generation = _rebuild_after(library, json_out, f"removed {gone.id}")
    if json_out:
        _print_json({"removed": gone.id, "records": generation.meta["records"]})
        return
    from rulebase.render import render_removed

    render_removed(_console(), gone, generation)


@app.command()
@funnel
def compare(
    topic: Annotated[str, typer.Argument(help='A topic: "damage timing", "mana burn", "legends", or any words.')],
    editions: Annotated[str | None, typer.Option(
        "--editions", help="Columns to show, e.g. 4e,10e,cr2003,cr2026 (Comprehensive Rules eras are crYYYY).")] = None,
    as_of: AsOfOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """How the editions treat a topic, side by side, with verbatim quotes (search results if not curated).

    --as-of DATE keeps the columns of the editions whose rules had taken effect by that day."""
    from rulebase import compare as comparing
    from rulebase.eras import labels_between

    known = set()
    for s in _state().library().sources:
        known |= set(labels_between(*s.date.split("/", 1))) if "/" in s.date else {s.edition}
    comparing.parse_editions(editions, known)  # a bad --editions is a usage error before any index work
    when = _when(as_of)
    library = _library(json_out)
    result = comparing.compare(library, topic, editions, when=when)
    if json_out:
        _print_json(comparing.comparison_json(result))
        return
    from rulebase.render import paged, render_compare

    with paged(_console()) as console:
        render_compare(console, result)


@app.command()
@funnel
def diff(
    a: Annotated[str | None, typer.Argument(metavar="A", help="Record id or rule number (e.g. ck2008:306.5).")] = None,
    b: Annotated[str | None, typer.Argument(metavar="B", help="Record id or rule number (e.g. cr2008:306.5).")] = None,
    term: Annotated[str | None, typer.Option("--term", help="Diff a glossary term's definitions across editions.")]
    = None,
    json_out: JsonOpt = False,
) -> None:
    """Word-level diff of two records, or of a glossary term's definitions edition by edition."""
    from rulebase import changes as changing
    from rulebase.errors import UsageError

    if term is not None and (a or b):
        raise UsageError("give either two records or --term, not both")
    if term is None and not (a and b):
        raise UsageError("give two records to diff, or --term", hint="e.g. rulebase diff ck2008:306.5 cr2008:306.5")
    library = _library(json_out)
    if term is not None:
        found = changing.term_diffs(library.store, term)
        if json_out:
            _print_json(changing.term_diff_json(found))
            return
        from rulebase.render import paged, render_term_diff

        with paged(_console()) as console:
            render_term_diff(console, found)
        return
    result = changing.diff_refs(library.store, a, b)
    if json_out:
        _print_json(changing.record_diff_json(result))
        return
    from rulebase.render import paged, render_diff

    with paged(_console()) as console:
        render_diff(console, result)


@app.command()
@funnel
def changes(
    start: Annotated[str | None, typer.Option("--from", metavar="DATE", help="Compare the rules in force this day...")]
    = None,
    end: Annotated[str | None, typer.Option("--to", metavar="DATE", help="...with those in force this day.")] = None,
    kind: Annotated[list[str] | None, typer.Option("--kind", "-k", help="rule (default), chapter, glossary, example.")]
    = None,
    json_out: JsonOpt = False,
) -> None:
    """What changed in the rules between two dates (--from/--to: added, removed, changed and
    renumbered rules between the Comprehensive Rules releases in force those days); without
    dates, Crystal Keep 2008's changed (+) entries beside the official 2008 text."""
    from rulebase import changes as changing

    if start is not None or end is not None:
        _changes_between(start, end, tuple(kind or ["rule"]), json_out)
        return
    library = _library(json_out)
    groups = changing.changes(library.store)
    if json_out:
        _print_json(changing.changes_json(groups))
        return
    from rulebase.render import paged, render_changes

    with paged(_console()) as console:
        render_changes(console, groups)


def _changes_between(start: str | None, end: str | None, kinds: tuple[str, ...], json_out: bool) -> None:
    from datetime import date

    from rulebase import history as histories
    from rulebase.errors import UsageError
    from rulebase.views import changes_between_json

    bad = [k for k in kinds if k not in ("rule", "chapter", "glossary", "example", "section", "note")]
    if bad:
        raise UsageError(f"unknown kind {bad[0]!r} for --from/--to",
                         hint="choose from rule, chapter, glossary, example, section, note")
    if start is None:
        raise UsageError("--to needs --from", hint="e.g. rulebase changes --from 2009-05-01 --to 2009-07-11")
    library = _library(json_out)
    found = histories.changes_between(library.store, start, end or date.today().isoformat(), kinds=kinds)
    if json_out:
        _print_json(changes_between_json(found))
        return
    from rulebase.render import paged, render_changes_between

    with paged(_console()) as console:
        render_changes_between(console, found)


@app.command()
@funnel
def history(ref: Annotated[str, typer.Argument(help="A rule number (702.83a, 502.83a) or a record id.")],
            as_of: AsOfOpt = None, json_out: JsonOpt = False) -> None:
    """Every change of a rule across the Comprehensive Rules releases since 2003: dated versions,
    word diffs, renumberings, and the same text in Crystal Keep and the bundled 2008 release.

    A number that meant different rules in different eras lists each; the one in force now (or
    --as-of a date) comes first."""
    from rulebase import history as histories

    when = _when(as_of)
    library = _library(json_out)
    found = histories.history(library.store, ref, when)
    if json_out:
        from rulebase.views import history_json

        _print_json(history_json(found))
        return
    from rulebase.render import paged, render_history

    with paged(_console()) as console:
        render_history(console, found)


@glossary_app.command("build")
@funnel
def glossary_build(
    out: Annotated[Path, typer.Argument(help="Output directory (created if missing).")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="html (a static site) or md (Markdown).")] = "html",
    editions: Annotated[str | None, typer.Option("--editions", help="Comma-separated, e.g. 4e,10e.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Write into a non-empty directory we did not create.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """One page per glossary term across editions, rule pages, an A-Z index with search, credits."""
    from rulebase.glossary import build_from_library
    from rulebase.render import build_progress

    library = _library(json_out)
    chosen = [e.strip() for e in editions.split(",") if e.strip()] if editions else None
    with build_progress(enabled=not json_out) as progress:
        summary = build_from_library(library, out, fmt=fmt, editions=chosen, force=force, progress=progress)
    if json_out:
        _print_json({"out": str(summary.out), "format": summary.format, "pages": summary.pages,
                     "terms": summary.terms, "rule_pages": summary.rule_pages, "files": summary.files})
        return
    typer.echo(f"wrote {summary.pages} pages ({summary.terms} terms, {summary.rule_pages} rule pages, "
               f"{summary.files} files) as {summary.format} to {summary.out}")


def main() -> None:
    app(prog_name="rulebase")
