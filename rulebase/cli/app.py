"""The command line: parse, call the library, render, exit code. Nothing else lives here.

Exit codes: 0 found, 1 not found, 2 usage or input error, 3 internal error.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from rulebase.cli import state
from rulebase.cli.usage import (
    INDEX_HELP,
    TRACEBACK_HELP,
    Command,
    CompareCommand,
    Group,
    SubGroup,
    examples_section,
)
from rulebase.core.errors import NotFound, RulebaseError

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    cls=Group, no_args_is_help=True, add_completion=False, rich_markup_mode=None, context_settings=HELP_OPTIONS,
    help="Search and look up Magic: The Gathering rules documents, 1993 to 2026, and their history.\n\n"
         "--index and --traceback may also follow the command.",
    epilog=examples_section(("rulebase lookup 502.83a", "a rule, its subrules and rulings"),
                            ('rulebase search "damage prevention"', "ranked full-text search"),
                            ('rulebase compare "mana burn"', "how the editions treat a topic"),
                            ("rulebase lookup -h", "a command's options and examples")))
index_app = typer.Typer(
    cls=SubGroup, no_args_is_help=True, context_settings=HELP_OPTIONS, help="Build or inspect the search index.",
    epilog=examples_section(("rulebase index status", "where it is, whether it is current"),
                            ("rulebase index build", "rebuild the index now")))
app.add_typer(index_app, name="index")
glossary_app = typer.Typer(
    cls=SubGroup, no_args_is_help=True, context_settings=HELP_OPTIONS,
    help="Publish the glossary as a static site or Markdown.",
    epilog=examples_section(("rulebase glossary build site", "static HTML site in ./site"),
                            ("rulebase glossary build md-out --format md", "Markdown pages in ./md-out")))
app.add_typer(glossary_app, name="glossary")


def command(typer_app: typer.Typer, name: str | None = None, *, examples: list[tuple[str, str]],
            cls: type[Command] = Command):
    """Register a command, with an Examples section of (command line, comment) pairs for its help."""
    return typer_app.command(name, cls=cls, epilog=examples_section(*examples))


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON only (no colour, no progress).")]
AsOfOpt = Annotated[str | None, typer.Option(
    "--as-of", metavar="DATE", help="The rules in force that day: YYYY-MM-DD, YYYY-MM or YYYY (its last day).")]


def _when(as_of: str | None) -> int | None:
    if as_of is None:  # (history imports difflib: not for every command)
        return None
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules.history import as_of_day

    return as_of_day(as_of)


def _note_outside(library, *days: int | None) -> None:
    """A note on stderr for each date given that lies past the newest release or before the
    oldest document (so --json stdout stays JSON): the answer is the newest rules, or none."""
    from rulebase.cli.common import say_notes
    from rulebase.rules.history import outside_note

    say_notes([note for when in dict.fromkeys(days) if when is not None
               if (note := outside_note(library.store, when))])




def _err(message: str) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.plain import printable

    typer.echo(printable(f"error: {message}"), err=True)


def _echo_failure(exc: BaseException) -> None:
    """Print what common.failure makes of an exception and exit with its code."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import failure
    from rulebase.cli.plain import printable

    lines, code = failure(exc)
    for line in lines:
        typer.echo(printable(line), err=True)
    raise typer.Exit(code) from None


def funnel(fn):
    """The one place errors become messages and exit codes."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        invocation = state.current()
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except RulebaseError as exc:
            if invocation.traceback:
                raise
            _echo_failure(exc)
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        except BrokenPipeError:  # the reader went away (`rulebase changes | head -1`): not an error
            # lazy: each command loads only what it runs (cold start)
            from rulebase.cli.common import silence_output

            silence_output()
            raise typer.Exit(0) from None
        except Exception as exc:
            if invocation.traceback:
                raise
            _echo_failure(exc)

    return wrapper


def _print_version(value: bool) -> None:
    if value:
        # lazy: each command loads only what it runs (cold start)
        from rulebase.cli.common import version_line

        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    index: Annotated[Path | None, typer.Option("--index", envvar="RULEBASE_INDEX", metavar="DIR",
                                               help=INDEX_HELP)] = None,
    traceback: Annotated[bool, typer.Option("--traceback", help=TRACEBACK_HELP)] = False,
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version,
                                          help="Print the version and exit.")] = False,
) -> None:
    ctx.obj = state.start(index, traceback)


def _console():
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import make_console

    return make_console()


def _library(json_mode: bool = False):
    """The library with an index ready, showing a progress bar while it builds on a terminal."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress

    library = state.current().library()
    with build_progress(enabled=not json_mode) as progress:
        library.notify = lambda message: typer.echo(f"warning: {message}", err=True)
        library.ensure(progress)
    if library.stale_reason:  # stderr, so --json output stays pure JSON
        # lazy: only the output form asked for
        from rulebase.cli.plain import printable

        typer.echo(printable(f"warning: {library.stale_reason}"), err=True)
    return library


def _answer(json_out: bool, data: Callable[[], object], renderer: str, *args) -> None:
    """A read command's answer: with --json the data (built only then) as JSON; else the
    function `renderer` ("module.function" in rulebase.cli) draws `args` into a paged console.
    By name, so that --json never imports the renderers and rich."""
    if json_out:
        _print_json(data())
        return
    # lazy: each command loads only what it runs (cold start)
    import importlib

    from rulebase.cli.console import paged

    module, function = renderer.rsplit(".", 1)
    with paged(_console()) as console:
        getattr(importlib.import_module(f"rulebase.cli.{module}"), function)(console, *args)


def _print_json(data) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.views import dumps

    typer.echo(dumps(data))


@command(app, examples=[
    ("rulebase lookup 502.83a", "the rule, subrules, rulings, copies"),
    ("rulebase lookup 702.83a --as-of 2010", "what the number meant in 2010"),
    ('rulebase lookup "4e p17"', "page 17 of the 4th Edition rulebook"),
    ("rulebase lookup 502.83a --full --json", "everything, as JSON")])
@funnel
def lookup(ref: Annotated[str, typer.Argument(help="Rule number (502.83a), record id, or page ('4e p17').")],
           as_of: AsOfOpt = None,
           full: Annotated[bool, typer.Option(
               "--full", help="Show everything: every era, all subrules and linked copies in full.")] = False,
           json_out: JsonOpt = False) -> None:
    """Show a rule, record or page with its children and references.

    A rule number shows its meaning now (or --as-of a date) first, then what the number meant in
    other eras and in other documents."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules import lookup as lookups

    when = _when(as_of)
    library = _library(json_out)
    _note_outside(library, when)
    result = lookups.lookup(library.store, ref, when, full=full)
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli import views

    _answer(json_out, lambda: views.lookup_json(result), "render.render_lookup", result)


@command(app, examples=[
    ('rulebase search "damage prevention"', "ranked hits, highlighted"),
    ("rulebase search trample -e 4e -n 3", "top 3 hits in the 4e rulebook"),
    ('rulebase search "mana burn" --as-of 2009-06', "in the rules of June 2009"),
    ("rulebase search sebzés --lang hu --json", "Hungarian guide, as JSON")])
@funnel
def search(
    query: Annotated[str, typer.Argument(help='Free text, "quoted phrases", rule numbers.')],
    edition: Annotated[list[str] | None, typer.Option(
        "--edition", "-e", help="Only this edition: 4e, 5e, 6e, 10e or a Comprehensive Rules era crYYYY; repeatable.")]
    = None,
    kind: Annotated[list[str] | None, typer.Option(
        "--kind", "-k", help="Only this kind: rule, ruling, glossary, example...; repeatable.")] = None,
    lang: Annotated[list[str] | None, typer.Option("--lang", help="Only this language: en or hu; repeatable.")] = None,
    source: Annotated[list[str] | None, typer.Option(
        "--source", "-s", help="Only this document id (see 'rulebase sources'); repeatable.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=500, help="Show at most this many hits.")] = 10,
    as_of: AsOfOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Ranked full-text search with highlights; exit 1 when nothing matches.

    One hit per rule: its versions across Comprehensive Rules releases (and identical copies in
    other documents) show once, with the newest matching text; 'rulebase history ID' shows them all."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.search.request import run_search

    when = _when(as_of)
    library = _library(json_out)
    _note_outside(library, when)
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import check_filters

    filters = check_filters(library, {"edition": edition or [], "kind": kind or [], "lang": lang or [],
                                      "source": source or []})
    results = run_search(library, query, filters, limit, when)
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import say_notes

    say_notes(results.notes)
    from rulebase.cli import views

    _answer(json_out, lambda: views.search_json(results), "render.render_search", results)
    if not results.hits:
        raise typer.Exit(1)


@command(app, examples=[
    ("rulebase define trample", "every edition's definition"),
    ('rulebase define "mana burn" --as-of 2005', "as the rules of 2005 defined it"),
    ("rulebase define library --json", "as JSON")])
@funnel
def define(term: Annotated[str, typer.Argument(help="A glossary term, English or Hungarian.")],
           as_of: AsOfOpt = None, json_out: JsonOpt = False) -> None:
    """Every era's definition of a term: the rules in force now first (the Comprehensive Rules
    glossary entry and the rule it cites), then the history newest to oldest, each with its era
    and days in force; its Hungarian name and referrers. --as-of DATE: in force that day first,
    nothing newer."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules.definitions import curated_names
    from rulebase.rules.definitions import define as define_term

    when = _when(as_of)
    library = _library(json_out)
    _note_outside(library, when)
    found = define_term(library.store, term, when, curated_names(library.corpus_dir, term))
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli import views

    _answer(json_out, lambda: views.define_json(found), "render.render_definitions", found)


@command(app, examples=[
    ("rulebase show cr2008:502.83a", "a record, all fields"),
    ("rulebase show rb4e:glossary.damage-prevention --json", "as JSON")])
@funnel
def show(record_id: Annotated[str, typer.Argument(metavar="ID", help="A record id, e.g. cr2008:502.83a.")],
         json_out: JsonOpt = False) -> None:
    """One record in full: every field, raw and clean text."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules import lookup as lookups

    library = _library(json_out)
    record = library.store.get(record_id)
    if record is None:
        raise NotFound(f"no record with id {record_id!r}", lookups.suggest(library.store, record_id))
    if json_out:
        # lazy: only the output form asked for
        from rulebase.cli.views import entry_json

        _print_json(entry_json(lookups.expand(library.store, record)))
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_show

    render_show(_console(), record)


@command(app, examples=[
    ("rulebase sources", "a table of the documents"),
    ("rulebase sources --json", "with counts by kind, as JSON")])
@funnel
def sources(json_out: JsonOpt = False) -> None:
    """The documents in the corpus: edition, date, records by kind, references, credit."""
    library = _library(json_out)
    meta = library.ensure().meta
    if json_out:
        _print_json(meta["sources"])
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_sources

    render_sources(_console(), meta["sources"])


@command(app, examples=[
    ("rulebase ingest", "rebuild, then summarise what was parsed"),
    ("rulebase ingest --verbose", "with every note and warning")])
@funnel
def ingest(verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Every note and warning.")] = False,
           json_out: JsonOpt = False) -> None:
    """Parse every source again, rebuild the index and print the ingest report."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress
    from rulebase.cli.render import render_ingest_report

    library = state.current().library()
    with build_progress(enabled=not json_out) as progress:
        generation = library.build(progress, force=True)
    if json_out:
        _print_json({"sources": generation.meta["sources"], "links": generation.meta["links"]})
        return
    render_ingest_report(_console(), generation.meta, verbose)


@command(app, examples=[
    ("rulebase export > records.jsonl", "every record, one JSON object a line"),
    ("rulebase export | head -3", "the first three")])
@funnel
def export() -> None:
    """Every record as JSON Lines on stdout, in a deterministic order."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.views import escape_raw
    from rulebase.core.records import to_dict

    library = _library(True)
    out = sys.stdout
    for record in library.store.all():  # control and bidi characters as \uXXXX, as --json writes them
        out.write(escape_raw(json.dumps(to_dict(record), ensure_ascii=False)) + "\n")
    out.flush()


@command(index_app, "build", examples=[
    ("rulebase index build", "rebuild the index now"),
    ("rulebase index build --index /tmp/rb-index --json", "another index, as JSON")])
@funnel
def index_build(json_out: JsonOpt = False) -> None:
    """Rebuild the index now (beside the old one, switched atomically)."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress

    library = state.current().library()
    with build_progress(enabled=not json_out) as progress:
        generation = library.build(progress, force=True)
    if json_out:
        _print_json({"index": str(library.index_dir), "generation": generation.path.name,
                     "records": generation.meta["records"], "seconds": generation.meta["build_seconds"]})
        return
    typer.echo(f"built {generation.meta['records']} records in {generation.meta['build_seconds']} s "
               f"-> {generation.path}")


@command(index_app, "status", examples=[
    ("rulebase index status", "where it is, whether it is current"),
    ("rulebase index status --json", "as JSON")])
@funnel
def index_status(json_out: JsonOpt = False) -> None:
    """Where the index is, what it was built from, and whether it is current."""
    status = state.current().library().status()
    if json_out:
        gen = status.generation
        _print_json({"index": str(status.index_dir), "current": status.current, "writable": status.writable,
                     "problem": getattr(status, "problem", None),
                     "generation": gen.path.name if gen else None,
                     "built_at": gen.meta.get("built_at") if gen else None,
                     "fingerprint": gen.fingerprint if gen else None, "expected": status.expected,
                     "sources": [s["id"] for s in gen.meta.get("sources", [])] if gen else []})
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_status

    render_status(_console(), status)


def _rebuild_after(library, json_out: bool, what: str):
    """Rebuild the index after the user corpus changed; the change stays if the build fails."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress
    from rulebase.core.errors import IndexError_

    library.reload()
    try:
        with build_progress(enabled=not json_out) as progress:
            return library.build(progress, force=False)
    except RulebaseError as exc:
        raise IndexError_(f"{what}, but the index was not rebuilt: {exc.message}",
                          hint="it rebuilds on next use of a writable --index") from None


@command(app, examples=[
    ("rulebase add MagicCompRules-20251114.txt", "a Comprehensive Rules file"),
    ("rulebase add cr.txt --edition cr2025 --id mine", "set its edition and id"),
    ("rulebase add a.txt b.txt --json", "two files, one rebuild")])
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
    # lazy: each command loads only what it runs (cold start)
    from rulebase import usercorpus

    library = state.current().library()
    added = usercorpus.add_documents(files, library.sources, fmt, edition, doc_id)
    generation = _rebuild_after(library, json_out, "added " + ", ".join(a.source.id for a in added))
    if json_out:
        items = [{"id": a.source.id, "title": a.source.title, "edition": a.source.edition, "date": a.source.date,
                  "format": a.source.format, "file": str(a.source.path), "encoding": a.encoding,
                  "repairs": a.repairs, "records": a.records, "kinds": a.kinds, "evidence": a.detected.evidence}
                 for a in added]
        _print_json(items[0] if len(files) == 1 else items)  # one file: one object, as before
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_added

    console = _console()
    for n, one in enumerate(added, 1):
        render_added(console, one, generation if n == len(added) else None)


@command(app, examples=[
    ("rulebase remove cr2025", "what 'rulebase add' stored as cr2025"),
    ("rulebase remove mine --json", "report as JSON")])
@funnel
def remove(doc_id: Annotated[str, typer.Argument(metavar="ID", help="Id of a document you added.")],
           json_out: JsonOpt = False) -> None:
    """Remove a document added with 'rulebase add' (bundled documents stay) and rebuild the index."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase import usercorpus

    library = state.current().library()
    gone = usercorpus.remove_document(doc_id, library.sources)
    generation = _rebuild_after(library, json_out, f"removed {gone.id}")
    if json_out:
        _print_json({"removed": gone.id, "records": generation.meta["records"]})
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_removed

    render_removed(_console(), gone, generation)


@command(app, cls=CompareCommand, examples=[
    ('rulebase compare "mana burn"', "a curated topic"),
    ("rulebase compare legends --editions 4e,10e", "only two columns"),
    ('rulebase compare "damage timing" --as-of 2005', "editions in force in 2005"),
    ('rulebase compare "first strike"', "not curated: search results")])
@funnel
def compare(
    topic: Annotated[str, typer.Argument(help='A topic: "damage timing", "mana burn", "legends", or any words.')],
    editions: Annotated[str | None, typer.Option(
        "--editions", help="Columns to show, e.g. 4e,10e,cr2003,cr2026 (Comprehensive Rules eras are crYYYY).")] = None,
    as_of: AsOfOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """How the editions treat a topic, side by side, with verbatim quotes (search results if not curated).

    A curated topic has a column per edition and per Comprehensive Rules era where its rule
    changed, up to today, each with the days it was in force (read from the archive) and the rules
    it no longer has. --as-of DATE keeps the columns whose rules had taken effect by that day."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.eras import labels_between
    from rulebase.rules import compare as comparing

    known = set()
    for s in state.current().library().sources:
        known |= set(labels_between(*s.date.split("/", 1))) if "/" in s.date else {s.edition}
    comparing.parse_editions(editions, known)  # a bad --editions is a usage error before any index work
    when = _when(as_of)
    library = _library(json_out)
    _note_outside(library, when)
    result = comparing.compare(library, topic, editions, when=when)
    _answer(json_out, lambda: comparing.comparison_json(result), "render_changes.render_compare", result)
    if not result.curated and not any(stance.citations for stance in result.editions):
        raise typer.Exit(1)  # no edition says anything about it: not found, as `search`


@command(app, examples=[
    ("rulebase diff ck2008:306.5 cr2008:306.5", "two records, word by word"),
    ("rulebase diff --term trample", "a term, edition by edition"),
    ('rulebase diff --term "mana burn" --json', "as JSON")])
@funnel
def diff(
    a: Annotated[str | None, typer.Argument(metavar="A", help="Record id or rule number (e.g. ck2008:306.5).")] = None,
    b: Annotated[str | None, typer.Argument(metavar="B", help="Record id or rule number (e.g. cr2008:306.5).")] = None,
    term: Annotated[str | None, typer.Option("--term", help="Diff a glossary term's definitions across editions.")]
    = None,
    json_out: JsonOpt = False,
) -> None:
    """Word-level diff of two records, or of a glossary term's definitions edition by edition."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.errors import UsageError
    from rulebase.rules import changes as changing

    if term is not None and (a or b):
        raise UsageError("give either two records or --term, not both")
    if term is None and not (a and b):
        raise UsageError("give two records to diff, or --term", hint="e.g. rulebase diff ck2008:306.5 cr2008:306.5")
    library = _library(json_out)
    if term is not None:
        found = changing.term_diffs(library.store, term)
        _answer(json_out, lambda: changing.term_diff_json(found), "render_changes.render_term_diff", found)
        return
    result = changing.diff_refs(library.store, a, b)
    _answer(json_out, lambda: changing.record_diff_json(result), "render_changes.render_diff", result)


@command(app, examples=[
    ("rulebase changes", "Crystal Keep's (+) list"),
    ("rulebase changes --from 2009-05-01 --to 2009-07-11", "Magic 2010's changes"),
    ("rulebase changes --from 2020 --kind glossary", "glossary since 2020")])
@funnel
def changes(
    start: Annotated[str | None, typer.Option(
        "--from", metavar="DATE", help="Compare the rules in force this day (YYYY or YYYY-MM: its first)...")]
    = None,
    end: Annotated[str | None, typer.Option(
        "--to", metavar="DATE", help="...with those in force this day (YYYY or YYYY-MM: its last; default today).")] = None,
    kind: Annotated[list[str] | None, typer.Option("--kind", "-k", help="rule (default), chapter, glossary, example.")]
    = None,
    json_out: JsonOpt = False,
) -> None:
    """What changed in the rules between two dates (--from/--to: added, removed, changed and
    renumbered rules between the Comprehensive Rules releases in force those days); without
    dates, Crystal Keep 2008's changed (+) entries beside the official 2008 text."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules import changes as changing

    if start is not None or end is not None:
        _changes_between(start, end, tuple(kind or ["rule"]), json_out)
        return
    library = _library(json_out)
    groups = changing.changes(library.store)
    _answer(json_out, lambda: changing.changes_json(groups), "render_changes.render_changes", groups)


def _changes_between(start: str | None, end: str | None, kinds: tuple[str, ...], json_out: bool) -> None:
    # lazy: only this rarer path needs it
    from datetime import date

    # lazy: only the output form asked for
    from rulebase.cli.views import changes_between_json
    from rulebase.core.eras import day
    from rulebase.core.errors import UsageError
    from rulebase.rules import history as histories

    bad = [k for k in kinds if k not in ("rule", "chapter", "glossary", "example", "section", "note")]
    if bad:
        raise UsageError(f"unknown kind {bad[0]!r} for --from/--to",
                         hint="choose from rule, chapter, glossary, example, section, note")
    if start is None:
        raise UsageError("--to needs --from", hint="e.g. rulebase changes --from 2009-05-01 --to 2009-07-11")
    library = _library(json_out)
    _note_outside(library, day(start), histories.as_of_day(end) if end else None)
    found = histories.changes_between(library.store, start, end or date.today().isoformat(), kinds=kinds)
    _answer(json_out, lambda: changes_between_json(found), "render_changes.render_changes_between", found)


@command(app, examples=[
    ("rulebase history 702.83a", "every version of a rule, by date"),
    ("rulebase history 702.17 --as-of 2010", "the 2010 rule first (trample)"),
    ("rulebase history cr2008:502.83a --json", "as JSON")])
@funnel
def history(ref: Annotated[str, typer.Argument(help="A rule number (702.83a, 502.83a) or a record id.")],
            as_of: AsOfOpt = None, json_out: JsonOpt = False) -> None:
    """Every change of a rule across the Comprehensive Rules releases since 2003: dated versions,
    word diffs, renumberings, and the same text in Crystal Keep and the bundled 2008 release.

    A number that meant different rules in different eras lists each; the one in force now (or
    --as-of a date) comes first."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules import history as histories

    when = _when(as_of)
    library = _library(json_out)
    _note_outside(library, when)
    found = histories.history(library.store, ref, when)
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli import views

    _answer(json_out, lambda: views.history_json(found), "render_changes.render_history", found)


@command(glossary_app, "build", examples=[
    ("rulebase glossary build site", "static HTML site in ./site"),
    ("rulebase glossary build md-out --format md", "Markdown pages in ./md-out"),
    ("rulebase glossary build site --editions 4e,10e", "4e and 10e only")])
@funnel
def glossary_build(
    out: Annotated[Path, typer.Argument(help="Output directory (created if missing).")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="html (a static site) or md (Markdown).")] = "html",
    editions: Annotated[str | None, typer.Option("--editions", help="Comma-separated, e.g. 4e,10e.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Write into a non-empty directory we did not create.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """One page per glossary term of every era, a page with its history for every rule in force
    now, the older documents' rule pages, an A-Z index with search, credits."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress
    from rulebase.glossary.plan import build_from_library

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
