"""Commands that read one answer: lookup, search, define, show."""

from __future__ import annotations

from typing import Annotated

import typer

from rulebase.cli.program import (
    AsOfOpt,
    JsonOpt,
    answer,
    app,
    command,
    day_asked,
    funnel,
    note_outside,
    print_json,
    ready_library,
    terminal,
)
from rulebase.core.errors import NotFound


@command(app, examples=[
    ("rulebase lookup 502.83a", "the rule, subrules, rulings, copies"),
    ("rulebase lookup 702.83a --as-of 2010", "what the number meant in 2010"),
    ('rulebase lookup "4e p17"', "page 17 of the 4th Edition rulebook"),
    ('rulebase lookup "IPG 2.1"', "a section of a tournament document")])
@funnel
def lookup(ref: Annotated[list[str], typer.Argument(
               metavar="REF", help="Rule number (502.83a), record id, or page (4e p17: several words are one reference).")],
           as_of: AsOfOpt = None,
           full: Annotated[bool, typer.Option(
               "--full", help="Show everything: every era, all subrules and linked copies in full.")] = False,
           json_out: JsonOpt = False) -> None:
    """Show a rule, record or page with its children and references.

    A rule number shows its meaning now (or --as-of a date) first, then what the number meant in
    other eras and in other documents."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules import desk

    when = day_asked(as_of)
    library = ready_library(json_out)
    note_outside(library, when)
    result = desk.lookup(library.store, " ".join(ref), when, full=full, spell_out=library.spelled_out)
    moved = _moved(library.store, " ".join(ref), when)
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.views import shapes as views
    from rulebase.cli.views.desk import desk_json

    answer(json_out, lambda: dict(desk_json(result, views.lookup_json(result)), **({"citation": moved} if moved else {})),
           "render.render_lookup", result)


def _moved(store, ref: str, when: int | None) -> str | None:
    """For a number looked up --as-of a day, where its rule of that day is now when it was
    renumbered or removed since ('702.17 (2010-06-01) is now 702.19: renumbered 2011-06-17 and
    2013-07-13; same text'), said in a note on stderr as `cite` says it; else None."""
    if when is None:
        return None
    # lazy: only a lookup --as-of needs it
    from rulebase.cli.common import say_notes
    from rulebase.cli.views.citation import headline
    from rulebase.core.errors import UsageError
    from rulebase.rules.citation import cite

    try:
        found = cite(store, ref, when)
    except UsageError:  # a record id, a page, a section's title: no number to follow
        return None
    if found.status.state not in ("renumbered", "removed"):
        return None
    line = headline(found)
    say_notes([line])
    return line


@command(app, examples=[
    ("rulebase search damage prevention", "two words, no quotes needed"),
    ("rulebase search trample -e 4e -n 3", "top 3 hits in the 4e rulebook"),
    ('rulebase search "mana burn" --as-of 2009-06', "in the rules of June 2009"),
    ("rulebase search sebzés --lang hu --json", "Hungarian guide, as JSON")])
@funnel
def search(
    query: Annotated[list[str], typer.Argument(
        metavar="QUERY", help='Free text (several words are one query), "quoted phrases", rule numbers.')],
    edition: Annotated[list[str] | None, typer.Option(
        "--edition", "-e",
        help="Only this edition: alpha, 4e, 5e, 6e, 10e or a Comprehensive Rules era crYYYY; repeatable.")]
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

    when = day_asked(as_of)
    library = ready_library(json_out)
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import check_filters

    filters = check_filters(library, {"edition": edition or [], "kind": kind or [], "lang": lang or [],
                                      "source": source or []})
    note_outside(library, when, sources=filters["source"])
    results = run_search(library, " ".join(query), filters, limit, when)
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import say_notes

    say_notes(results.notes)
    from rulebase.cli.views import shapes as views

    answer(json_out, lambda: views.search_json(results), "render.render_search", results)
    if not results.hits:
        raise typer.Exit(1)


@command(app, examples=[
    ("rulebase define trample", "every edition's definition"),
    ('rulebase define "mana burn" --as-of 2005', "as the rules of 2005 defined it"),
    ("rulebase define library --json", "as JSON")])
@funnel
def define(term: Annotated[list[str], typer.Argument(
               metavar="TERM", help="A glossary term, English or Hungarian (several words are one term).")],
           as_of: AsOfOpt = None, json_out: JsonOpt = False) -> None:
    """Every era's definition of a term: the rules in force now first (the Comprehensive Rules
    glossary entry and the rule it cites), then the history newest to oldest, each with its era
    and days in force; its Hungarian name and referrers. --as-of DATE: in force that day first,
    nothing newer."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules.definitions import curated_names
    from rulebase.rules.definitions import define as define_term

    when = day_asked(as_of)
    library = ready_library(json_out)
    note_outside(library, when)
    term_text = " ".join(term)
    found = define_term(library.store, term_text, when, curated_names(library.corpus_dir, term_text))
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.views import shapes as views

    answer(json_out, lambda: views.define_json(found), "render.render_definitions", found)


@command(app, examples=[
    ("rulebase show cr2008:502.83a", "a record, all fields"),
    ("rulebase show 702.21a", "the rule in force now"),
    ("rulebase show rb4e:glossary.damage-prevention --json", "as JSON")])
@funnel
def show(record_id: Annotated[str, typer.Argument(
             metavar="ID", help="A record id (cr2008:502.83a), or a rule number: its rule in force now.")],
         json_out: JsonOpt = False) -> None:
    """One record in full: every field, raw and clean text.

    A rule number shows the record `lookup` shows first: the rule in force now, else the official
    text (a note on stderr says which, when the number names others too)."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import say_notes
    from rulebase.rules import lookup as lookups
    from rulebase.rules.diff import record_named

    library = ready_library(json_out)
    named = record_named(library.store, record_id)
    if named is None:
        what = f"no record with id {record_id!r}" if ":" in record_id else f"no record or rule numbered {record_id!r}"
        raise NotFound(what, [s for s in lookups.suggest(library.store, record_id) if s != record_id.strip()])
    say_notes([named.note] if named.note else [])
    record = named.record
    if json_out:
        # lazy: only the output form asked for
        from rulebase.cli.views.shapes import entry_json

        print_json(entry_json(lookups.expand(library.store, record)))
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_show

    render_show(terminal(), record)
