"""`rulebase mcp`: the rules as Model Context Protocol tools over stdio, so that AI assistants and
editors look a rule up instead of quoting it from memory.

Built on the official SDK's MCPServer (the `mcp` extra), imported only by this command. Each tool
answers with the same JSON as the command of its name with --json (views/shapes.py, views/card.py,
views/citation.py: the shapes docs/reference.md documents), plus "records": the ids the answer
quotes, each with the day its text took effect ("release") and whether it is in force now, so an
assistant can cite a text verbatim and say how current it is. A failure (a number that names
nothing, a bad date) is a tool error carrying the command line's one-line message and hint.

The tools are coroutines: they run on the server's one thread, where the record store's SQLite
connection was opened (the SDK would run plain functions on worker threads).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from rulebase.core.eras import show, today
from rulebase.core.errors import RulebaseError

INSTRUCTIONS = (
    "Magic: The Gathering's rules documents from 1993 to 2026 with their history, offline: the "
    "Comprehensive Rules (every release since 1999), the tournament documents (MTR, IPG, JAR), "
    "the cards' Oracle text and the older rulebooks. Look a rule up before citing it, quote its "
    "text verbatim with its record id, and say whether it is in force now. Dates are YYYY-MM-DD, "
    "YYYY-MM or YYYY.")


def records_of(store, ids: list[str]) -> list[dict]:
    """Each record id once, with the day it took effect and whether it is in force today."""
    ids = [i for i in dict.fromkeys(ids) if i]
    days = store.windows(ids)
    now = today()
    return [{"id": i, "release": show(days[i][0]) if i in days and days[i][0] else None,
             "in_force_now": bool(i in days and days[i][0] <= now <= days[i][1])} for i in ids]


def _ids(data: Any, keys: tuple[str, ...]) -> list[str]:
    """The record ids an answer names at these keys (nested dicts and lists walked)."""
    out: list[str] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key in keys and isinstance(value, str) and ":" in value:
                out.append(value)
            elif isinstance(value, dict | list):
                out += _ids(value, keys)
    elif isinstance(data, list):
        for item in data:
            out += _ids(item, keys)
    return out


def build(library) -> Any:
    """The server with its tools, answering from `library` (its index made ready by the caller)."""
    # lazy: the SDK (pydantic, anyio, starlette: ~0.5 s) only for this command
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    from rulebase.cli.common import failure, package_version

    # (log_level: the SDK logs each failed call at INFO on stderr, where a client shows it as noise)
    server = MCPServer("rulebase", version=package_version(), instructions=INSTRUCTIONS, log_level="WARNING")
    store = library.store

    def answer(make: Callable[[], dict], keys: tuple[str, ...] = ("id",)) -> dict:
        try:
            data = make()
        except RulebaseError as exc:  # the command line's lines: the message, the nearest candidates
            raise ToolError("; ".join(line.removeprefix("error: ") for line in failure(exc)[0])) from None
        data["records"] = records_of(store, _ids(data, keys))
        return data

    def when(as_of: str | None) -> int | None:
        # lazy: each tool loads only what it answers with
        from rulebase.rules.history import as_of_day

        return as_of_day(as_of) if as_of else None

    @server.tool()
    async def lookup(ref: str, as_of: str | None = None, full: bool = False) -> dict[str, Any]:
        """A rule (702.19b, CR 702.19b), a record id (cr2008:502.83a), a tournament section
        (IPG 2.1, 'ipg missed trigger', 'IPG HCE'), a tournament document's contents (IPG, MTR 4)
        or a rulebook page (4e p17): the text in force now (or on as_of) first, then what the
        number meant in other eras and documents; an IPG infraction with its penalty, upgrades,
        remedy and the JAR's fix at Regular REL, as `rulebase lookup --json` gives them."""
        # lazy: each tool loads only what it answers with
        from rulebase.cli.views.desk import desk_json
        from rulebase.cli.views.shapes import lookup_json
        from rulebase.rules import desk

        def looked() -> dict:
            result = desk.lookup(store, ref, when(as_of), full=full, spell_out=library.spelled_out)
            return desk_json(result, lookup_json(result))

        return answer(looked)

    @server.tool()
    async def search(query: str, edition: list[str] | None = None, kind: list[str] | None = None,
                     lang: list[str] | None = None, source: list[str] | None = None, limit: int = 10,
                     as_of: str | None = None) -> dict[str, Any]:
        """Ranked full-text search of the rules documents, one hit per rule, today's rules first.
        Filters: edition (alpha, 4e, 5e, 6e, 10e, crYYYY), kind (rule, glossary, section...),
        lang (en, hu), source (a document id: cr, mtr, ipg...); as_of: the rules of that day."""
        # lazy: each tool loads only what it answers with
        from rulebase.cli.common import check_filters
        from rulebase.cli.views.shapes import search_json
        from rulebase.search.request import run_search

        def run() -> dict:
            filters = check_filters(library, {"edition": edition or [], "kind": kind or [], "lang": lang or [],
                                              "source": source or []})
            found = run_search(library, query, filters, max(1, min(limit, 500)), when(as_of))
            return dict(search_json(found), notes=list(found.notes))
        return answer(run)

    @server.tool()
    async def card(name: str, as_of: str | None = None) -> dict[str, Any]:
        """A card's Oracle text and the rules its text uses (numbered as on as_of)."""
        # lazy: each tool loads only what it answers with
        from rulebase.cli.views.card import found_json
        from rulebase.rules.cards import find

        return answer(lambda: found_json(find(store, name, when(as_of))))

    @server.tool()
    async def define(term: str, as_of: str | None = None) -> dict[str, Any]:
        """Every era's definition of a glossary term, the one in force now (or on as_of) first."""
        # lazy: each tool loads only what it answers with
        from rulebase.cli.views.shapes import define_json
        from rulebase.rules.definitions import curated_names
        from rulebase.rules.definitions import define as define_term

        return answer(lambda: define_json(define_term(store, term, when(as_of),
                                                      curated_names(library.corpus_dir, term))))

    @server.tool()
    async def history(ref: str, as_of: str | None = None) -> dict[str, Any]:
        """Every version of a rule (or a tournament section) across the releases, dated, with
        word diffs and renumberings."""
        # lazy: each tool loads only what it answers with
        from rulebase.cli.views.shapes import history_json
        from rulebase.rules.history import history as histories

        return answer(lambda: history_json(histories(store, ref, when(as_of), spell_out=library.spelled_out)))

    @server.tool()
    async def changes(from_date: str, to_date: str | None = None, source: str = "cr",
                      kind: list[str] | None = None) -> dict[str, Any]:
        """What changed between the releases in force on two dates (to_date: default today):
        rules (or with source mtr, ipg... sections) added, removed, changed and renumbered."""
        # lazy: each tool loads only what it answers with
        from rulebase.cli.views.shapes import changes_between_json
        from rulebase.rules.history import changes_between, default_kinds

        kinds = tuple(k.lower() for k in kind or []) or default_kinds(store, source)
        return answer(lambda: changes_between_json(changes_between(store, from_date, to_date or show(today()),
                                                                   source, kinds)), ("old", "new"))

    @server.tool()
    async def cite(number: str, as_of: str | None = None) -> dict[str, Any]:
        """What a cited rule number (702.17, CR 502.83a, [704.3], MTR 2.3) meant on as_of (the day
        it was written; default today) and what it is now: the same rule, renumbered (to what,
        when), removed, or never a rule that day (state 'unknown')."""
        # lazy: each tool loads only what it answers with
        from rulebase.cli.views.citation import cite_json
        from rulebase.rules.citation import cite as resolve

        return answer(lambda: cite_json(resolve(store, number, when(as_of))))

    @server.tool()
    async def check(text: str, as_of: str | None = None) -> dict[str, Any]:
        """Every rule citation in a text ('rule 702.17', 'CR 502.83a', 'MTR 2.3'...), checked
        against the rules of as_of (the day it was written; default today): those that no longer
        hold, with line numbers and what they are now."""
        # lazy: each tool loads only what it answers with
        from rulebase.cli.views.citation import check_json
        from rulebase.rules.check import Checker, Report, check_text

        def run() -> dict:
            checker = Checker(store, when(as_of))
            report = Report(checker.day)
            check_text(checker, text, "<text>", report)
            checker.settle(report.problems)
            return check_json(report)
        return answer(run, ("then", "now"))

    return server


def serve(library) -> None:
    """Serve over stdio until the client closes the connection."""
    server = build(library)
    with contextlib.suppress(KeyboardInterrupt):  # (the client, or ^C, ends it)
        asyncio.run(server.run_stdio_async())
