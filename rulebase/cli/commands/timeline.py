"""Commands about the rules across time: compare, diff, changes, history."""

from __future__ import annotations

from typing import Annotated

import typer

from rulebase.cli import common as state
from rulebase.cli.program import (
    AsOfOpt,
    JsonOpt,
    answer,
    app,
    command,
    day_asked,
    funnel,
    note_outside,
    ready_library,
)
from rulebase.cli.usage import CompareCommand


@command(app, cls=CompareCommand, examples=[
    ('rulebase compare "mana burn"', "a curated topic"),
    ("rulebase compare legends --editions 4e,10e", "only two columns"),
    ('rulebase compare "damage timing" --as-of 2005', "editions in force in 2005"),
    ('rulebase compare "first strike"', "not curated: search results")])
@funnel
def compare(
    topic: Annotated[list[str], typer.Argument(
        metavar="TOPIC", help='A topic: "damage timing", "mana burn", "legends", or any words (several words are one topic).')],
    editions: Annotated[str | None, typer.Option(
        "--editions", help="Columns to show, e.g. 4e,10e,cr2003,cr2026 (Comprehensive Rules eras are crYYYY).")] = None,
    as_of: AsOfOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """How the editions treat a topic, side by side, with verbatim quotes (search results if not curated).

    A curated topic has a column for every stretch of days its text was in force, from the first
    rulebook to today (the Comprehensive Rules releases of 1999-2026 included), each with those
    days (read from the archive) and the rules it no longer has. --as-of DATE keeps the columns
    whose rules had taken effect by that day, the last the one in force then."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.sources import game_editions
    from rulebase.rules import compare as comparing

    known = game_editions(state.current().library().sources)
    asked = {v.strip().lower() for v in (editions or "").split(",")}
    known |= {v for v in asked if comparing.STRETCH_LABEL.match(v)}  # (a topic's own columns: checked by compare)
    comparing.parse_editions(editions, known)  # a bad --editions is a usage error before any index work
    when = day_asked(as_of)
    library = ready_library(json_out)
    note_outside(library, when)
    result = comparing.compare(library, " ".join(topic), editions, when=when)
    answer(json_out, lambda: comparing.comparison_json(result), "render_changes.render_compare", result)
    if not result.curated and not any(stance.citations for stance in result.editions):
        raise typer.Exit(1)  # no edition says anything about it: not found, as `search`


@command(app, examples=[
    ("rulebase diff ck2008:306.5 cr2008:306.5", "two records, word by word"),
    ("rulebase diff --term trample", "a term, edition by edition"),
    ('rulebase diff --term "mana burn" --json', "as JSON")])
@funnel
def diff(
    a: Annotated[str | None, typer.Argument(
        metavar="A", help="Record id (ck2008:306.5) or rule number (its rule in force now, else the official text).")]
    = None,
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
    library = ready_library(json_out)
    if term is not None:
        found = changing.term_diffs(library.store, term)
        answer(json_out, lambda: changing.term_diff_json(found), "render_changes.render_term_diff", found)
        return
    result = changing.diff_refs(library.store, a, b)
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import say_notes

    say_notes(result.notes)
    answer(json_out, lambda: changing.record_diff_json(result), "render_changes.render_diff", result)


@command(app, examples=[
    ("rulebase changes", "Crystal Keep's (+) list"),
    ("rulebase changes --from 2009-05-01 --to 2009-07-11", "Magic 2010's changes"),
    ("rulebase changes --from 2020 --kind glossary", "glossary since 2020"),
    ("rulebase changes -s ipg --from 2024-01 --to 2024-12", "the IPG's 2024 changes")])
@funnel
def changes(
    start: Annotated[str | None, typer.Option(
        "--from", metavar="DATE", help="Compare the rules in force this day (YYYY or YYYY-MM: its first)...")]
    = None,
    end: Annotated[str | None, typer.Option(
        "--to", metavar="DATE", help="...with those in force this day (YYYY or YYYY-MM: its last; default today).")] = None,
    kind: Annotated[list[str] | None, typer.Option("--kind", "-k", help="rule (default), chapter, glossary, example.")]
    = None,
    source: Annotated[str | None, typer.Option(
        "--source", "-s", help="A dated document: cr (default), mtr, ipg, jar, dmtr, dipg.")] = None,
    full: Annotated[bool, typer.Option(
        "--full", help="A tournament document's changed sections whole, as a word diff (default: the changed sentences).")]
    = False,
    summary: Annotated[bool, typer.Option("--summary", help="One line per changed section or rule.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """What changed in the rules between two dates (--from/--to: added, removed, changed and
    renumbered rules between the Comprehensive Rules releases in force those days, or with
    --source the sections of a tournament document); without dates, Crystal Keep 2008's changed
    (+) entries beside the official 2008 text."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules import changes as changing

    if start is not None or end is not None:
        _changes_between(start, end, tuple(kind or []), json_out, source or "cr", full, summary)
        return
    if source is not None:
        # lazy: only this rarer path needs it
        from rulebase.core.errors import UsageError

        raise UsageError("--source needs --from", hint="e.g. rulebase changes --source ipg --from 2024-01-01 --to 2024-12-31")
    library = ready_library(json_out)
    groups = changing.changes(library.store)
    answer(json_out, lambda: changing.changes_json(groups), "render_changes.render_changes", groups)


def _changes_between(start: str | None, end: str | None, kinds: tuple[str, ...], json_out: bool,
                     source: str = "cr", full: bool = False, summary: bool = False) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.views.shapes import changes_between_json
    from rulebase.core.eras import day, show, today
    from rulebase.core.errors import UsageError
    from rulebase.rules import history as histories

    kinds = tuple(k.lower() for k in kinds)  # as search reads --kind ('Rule' is rule)
    bad = [k for k in kinds if k not in ("rule", "chapter", "glossary", "example", "section", "note")]
    if bad:
        raise UsageError(f"unknown kind {bad[0]!r} for --from/--to",
                         hint="choose from rule, chapter, glossary, example, section, note")
    if start is None:
        raise UsageError("--to needs --from", hint="e.g. rulebase changes --from 2009-05-01 --to 2009-07-11")
    library = ready_library(json_out)
    note_outside(library, day(start), histories.as_of_day(end) if end else None)
    found = histories.changes_between(library.store, start, end or show(today()), source,
                                      kinds or histories.default_kinds(library.store, source))
    if not json_out and (summary or (source != "cr" and not full)):
        answer(False, dict, "views.plain_changes.render_reader", found, summary)
        return
    answer(json_out, lambda: changes_between_json(found, sentences=source != "cr"),
           "render_changes.render_changes_between", found)


@command(app, examples=[
    ("rulebase history 702.83a", "every version of a rule, by date"),
    ("rulebase history 702.17 --as-of 2010", "the 2010 rule first (trample)"),
    ('rulebase history "IPG 2.1"', "an IPG section, every release"),
    ("rulebase history cr2008:502.83a --json", "as JSON")])
@funnel
def history(ref: Annotated[list[str], typer.Argument(
                metavar="REF", help="A rule number (702.83a, rule 502.83a) or a record id.")],
            as_of: AsOfOpt = None, json_out: JsonOpt = False) -> None:
    """Every change of a rule across the Comprehensive Rules releases since 2003 (or of a section
    across a tournament document's releases since 2013): dated versions, word diffs, renumberings,
    and the same text in Crystal Keep and the bundled 2008 release.

    A number that meant different rules in different eras lists each; the one in force now (or
    --as-of a date) comes first."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules import history as histories

    when = day_asked(as_of)
    library = ready_library(json_out)
    note_outside(library, when)
    found = histories.history(library.store, " ".join(ref), when, spell_out=library.spelled_out)
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.views import shapes as views

    answer(json_out, lambda: views.history_json(found), "render_changes.render_history", found)
