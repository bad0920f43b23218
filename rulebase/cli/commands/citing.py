"""Commands about citations: cite (one number, then and now), check (the citations in files),
mcp (the rules as tools for AI assistants and editors)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from rulebase.cli.program import (
    JsonOpt,
    answer,
    app,
    command,
    day_asked,
    funnel,
    note_outside,
    ready_library,
)

WrittenOpt = Annotated[str | None, typer.Option(
    "--as-of", metavar="DATE",
    help="The day it was written: YYYY-MM-DD, YYYY-MM or YYYY (its last day); default today.")]


@command(app, examples=[
    ("rulebase cite 702.17 --as-of 2010-06-01", "trample in 2010: now 702.19"),
    ('rulebase cite "CR 502.83a" --as-of 2008-10-01', "exalted in 2008: now 702.83a"),
    ('rulebase cite "[704.3]"', "cited in brackets"),
    ('rulebase cite "IPG 2.1" --as-of 2015 --json', "a tournament section, as JSON")])
@funnel
def cite(ref: Annotated[list[str], typer.Argument(
             metavar="NUMBER", help="A rule number as cited (702.19b, CR 702.19b, rule 702.19b, [702.19b], "
                                    "§702.19b) or a section (MTR 2.3, IPG 2.1).")],
         as_of: WrittenOpt = None, json_out: JsonOpt = False) -> None:
    """What a rule number meant on a day, and what it is now.

    The same rule under the same number (same text, or a word diff of what changed); renumbered
    (to what, on which days), with its text the same or changed; removed (when, and its last
    text); or never a rule that day (exit 1, with when it was one)."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.views import citation as citation_view
    from rulebase.rules.citation import cite as resolve

    when = day_asked(as_of)
    library = ready_library(json_out)
    note_outside(library, when)
    found = resolve(library.store, " ".join(ref), when)
    answer(json_out, lambda: citation_view.cite_json(found), "render_changes.render_cite", found)
    if found.status.state == "unknown":
        raise typer.Exit(1)


@command(app, examples=[
    ("rulebase check docs/ README.md", "the citations in a project's text"),
    ("rulebase check README.md --as-of 2009", "written in 2009: which still hold"),
    ("rulebase check tests/ --json", "a source tree, as JSON, for tools")])
@funnel
def check(paths: Annotated[list[str], typer.Argument(
              metavar="PATH", help="Files or folders (recursively; what git ignores, binaries and links are skipped).")],
          as_of: WrittenOpt = None, json_out: JsonOpt = False) -> None:
    """Find the rule citations in files and report each that no longer holds.

    Comprehensive Rules numbers ('rule 702.17', 'CR 502.83a', '[704.3]', '§702.19b', any
    702.19b-shaped number) and tournament sections ('MTR 2.3', 'IPG 2.1') are checked against
    the rules in force the day they were written (--as-of, default today): each renumbered,
    removed or unknown one is reported as FILE:LINE, then a summary line. Exit 0 when every
    citation holds, 1 when any does not."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.views import citation as citation_view
    from rulebase.rules.check import check_paths, require

    when = day_asked(as_of)
    require(paths)  # a missing path is a usage error before any index work
    library = ready_library(json_out)
    note_outside(library, when)
    report = check_paths(library.store, paths, when)
    if json_out or sys.stdout.isatty():
        answer(json_out, lambda: citation_view.check_json(report), "render_changes.render_check", report)
    else:  # piped (a tool, a CI log): the lines written at once, not one console print each (10 s of 100,000)
        # lazy: only the output form asked for
        from rulebase.cli.views.plain import printable

        sys.stdout.write(printable("\n".join(citation_view.check_lines(report))) + "\n")
        sys.stdout.flush()
    if report.problems:
        raise typer.Exit(1)


@command(app, examples=[
    ("rulebase mcp", "serve over stdio (a client starts it)"),
    ("rulebase mcp --index ~/rules-index", "answering from another index")])
@funnel
def mcp() -> None:
    """Serve the rules to AI assistants and editors: the Model Context Protocol over stdio.

    Tools: lookup, search, card, define, history, changes, cite and check, each answering with
    record ids, release dates and whether a text is in force now. Needs the mcp extra
    (pip install 'rulebase[mcp]'); a client starts it (docs/reference.md shows the configuration)."""
    # lazy: the MCP SDK only for this command (cold start of the others)
    from rulebase.cli.mcp_server import serve

    serve(ready_library(json_mode=True))

