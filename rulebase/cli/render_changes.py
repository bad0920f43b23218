"""How the rules changed, on a terminal: editions side by side (compare), word diffs (diff),
one rule's history and what changed between two dates (changes). Piped, the same content as
views/plain.py's lines.
"""

from __future__ import annotations

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from rulebase.cli.console import Hanging, cell, print_line, print_lines, styled
from rulebase.cli.views.plain import printable

COLUMN_MIN = 30  # narrower than this per edition column and compare prints one panel per edition
DELETED = "bold red strike"
INSERTED = "bold green underline"


def _stance_body(stance, curated: bool) -> Group:
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import NOT_FOUND_IN_EDITION, pages_note, period_note, removed_lines

    parts: list = [Text(period_note(stance), style="green" if stance.period.now else "dim")] \
        if stance.period else []
    if stance.summary:
        style = "yellow" if stance.summary.startswith("Not covered") else "bold"
        parts.append(cell(stance.summary, style=style))
    elif not curated:
        parts.append(Text("search results" if stance.citations else NOT_FOUND_IN_EDITION, style="italic dim"))
    parts += [cell(line, style="yellow") for line in removed_lines(stance)]
    for quote in stance.citations:
        parts.append(Text(""))
        parts.append(cell(f"\u201c{quote.quote}\u201d"))
        parts.append(Text(f"\u2014 {quote.id}{pages_note(quote.pages)}", style="cyan"))
    return Group(*parts)


def render_compare(console: Console, comparison) -> None:
    """A table with one column per edition; one panel per edition when the terminal is narrow."""
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import compare_lines, compare_title

    if not styled(console):
        print_lines(console, compare_lines(comparison))
        return
    title = compare_title(comparison)
    stances = comparison.editions
    if console.width < COLUMN_MIN * max(1, len(stances)):
        console.print(cell(title, style="bold"))
        for stance in stances:
            console.print(Panel(_stance_body(stance, comparison.curated), title=Text(stance.edition, style="bold"),
                                title_align="left"))
        return
    # lazy: rich (~40 ms) only for a terminal
    from rich.table import Table

    table = Table(title=cell(title), box=box.SIMPLE_HEAD, expand=True, show_lines=False)
    for stance in stances:
        table.add_column(stance.edition, ratio=1, vertical="top")
    table.add_row(*[_stance_body(s, comparison.curated) for s in stances])
    console.print(table)


def diff_markup(ops) -> Text:
    """Deleted words struck through in red, inserted words underlined in green."""
    out = Text()
    for op in ops:
        if op.op == "equal":
            out.append(printable(op.a))
            continue
        if op.a:
            out.append(printable(op.a.rstrip()), style=DELETED)
            out.append(" " if op.b else op.a[len(op.a.rstrip()):])
        if op.b:
            out.append(printable(op.b.rstrip()), style=INSERTED)
            out.append(op.b[len(op.b.rstrip()):])
    return out


def render_diff(console: Console, result) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import diff_header, diff_lines

    if not styled(console):
        print_lines(console, diff_lines(result))
        return
    body = diff_markup(result.ops) if result.changed else cell("".join(op.b for op in result.ops))  # (the text diffed)
    legend = Text.assemble(("deleted", DELETED), " / ", ("inserted", INSERTED), style="dim")
    console.print(Panel(Group(Text(diff_header(result), style="dim"), body, legend),
                        title=Text(f"{result.a.id} \u2192 {result.b.id}", style="bold"), title_align="left"))


def render_term_diff(console: Console, result) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import definition_line, term_diff_lines

    if not styled(console):
        print_lines(console, term_diff_lines(result))
        return
    console.print(Text(f"{result.term}: {len(result.definitions)} definition(s), in edition order", style="bold"))
    for record in result.definitions:
        print_line(console, definition_line(result, record))
    for diff in result.diffs:
        render_diff(console, diff)
    for a, b, why in result.skipped:
        print_line(console, f"{a} \u2192 {b}: not diffed, {why}", style="yellow")


def render_changes(console: Console, groups) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import change_note, changes_lines

    if not styled(console):
        print_lines(console, changes_lines(groups))
        return
    total = sum(len(g.changes) for g in groups)
    console.print(Text(f"{total} entries marked changed (+) in Crystal Keep's 2008/10/20 summary", style="bold"))
    for group in groups:
        chapter = group.chapter
        parts: list = []
        for change in group.changes:
            parts.append(Text(f"+ {change.record.id}", style="bold"))
            parts.append(Text(change.record.text))
            parts.append(Text(change_note(change), style="cyan" if change.counterpart else "dim"))
            if change.diff is not None:
                parts.append(diff_markup(change.diff.ops))
            parts.append(Text(""))
        title = " ".join(p for p in (chapter.number, chapter.title) if p) or chapter.id
        console.print(Panel(Group(*parts[:-1]), title=Text(title, style="bold"), title_align="left"))


_DIFF_STYLES = {"delete": DELETED, "insert": INSERTED}


def diff_marked(ops) -> Text:
    """plain.diff_text's line (whitespace runs made one space), its [-deleted-] and {+inserted+}
    runs coloured too: a marker is part of the word it touches, so wrapping never parts them."""
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import diff_pieces

    out = Text()
    gap = False
    for kind, piece in diff_pieces(ops):
        words = piece.split()
        if not words:
            gap = gap or bool(piece)
            continue
        if out.plain and (gap or piece[0].isspace()):
            out.append(" ")
        out.append(printable(" ".join(words)), style=_DIFF_STYLES.get(kind, ""))
        gap = piece[-1].isspace()
    return out


_STEP_STYLES = {"added": "green", "returns": "green", "changed": "yellow", "renumbered+changed": "yellow",
                "typography": "dim", "references": "dim", "lost": "dim"}


def render_history(console: Console, found) -> None:
    """plain.history_lines on a terminal: each line wrapped at word boundaries to the width."""
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import (
        history_lines,
        lineage_title,
        linked_line,
        step_parts,
        step_text,
    )

    if not styled(console):
        print_lines(console, history_lines(found))
        return
    out: list = []  # printed at once: rich's cost is per print call
    for n, lineage in enumerate(found.lineages):
        if not lineage.steps:
            continue
        out.append(Hanging(cell(lineage_title(lineage, n), style="bold"), 0, 4))
        for step in lineage.steps:
            span, number, what = step_parts(step)
            head = Text.assemble((printable(span), "bold"), "  ", printable(number), "  ",
                                 (printable(what), _STEP_STYLES.get(step.change, "")), "  ",
                                 (printable(f"({step.record.id})"), "dim"))
            out.append(Hanging(head, 2, 4))
            if step.change != "lost" and step.diff:
                out.append(Hanging(diff_marked(step.diff), 4))
            elif (text := step_text(step)) is not None:
                out.append(Hanging(cell(text), 4))
        for record in lineage.linked:
            out.append(Hanging(cell(linked_line(record), style="magenta"), 2, 4))
        out.append(Text(""))
    console.print(Group(*out))


_SIGN_STYLES = {"+": "bold green", "-": "bold red", "~": "bold yellow"}


def render_changes_between(console: Console, found) -> None:
    """plain.changes_between_lines on a terminal: each change wrapped at word boundaries, its
    text under its name."""
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import between_title, change_parts, changes_between_lines

    if not styled(console):
        print_lines(console, changes_between_lines(found))
        return
    out: list = [Hanging(cell(between_title(found), style="bold"), 0, 4)]  # one print: rich's cost is per call
    for change in found.changes:
        sign, name, what, rid = change_parts(change)
        head = Text.assemble((sign, _SIGN_STYLES[sign]), " ", (printable(name), "bold"), "  ", printable(what),
                             "  ", (printable(f"({rid})"), "dim"))
        out.append(Hanging(head, 0, 2))
        if sign == "~" and change.diff:
            out.append(Hanging(diff_marked(change.diff), 4))
    console.print(Group(*out))


_STATE_STYLES = {"current": "green", "renumbered": "yellow", "removed": "red", "unknown": "red"}


def render_cite(console: Console, citation) -> None:
    """citation_view.cite_lines on a terminal: the headline coloured by what became of the rule,
    each version's line dim, a changed text as a coloured word diff."""
    # lazy: only the output form asked for
    from rulebase.cli.views.citation import cite_lines, headline
    from rulebase.cli.views.plain_changes import diff_text

    if not styled(console):
        print_lines(console, cite_lines(citation))
        return
    lines = cite_lines(citation)
    diffed = "    " + diff_text(citation.diff) if citation.diff else None
    out: list = [Hanging(cell(headline(citation), style="bold " + _STATE_STYLES[citation.status.state]), 0, 4)]
    for line in lines[1:]:
        if line == diffed:
            out.append(Hanging(diff_marked(citation.diff), 4))
        elif line.startswith("    "):
            out.append(Hanging(cell(line.strip()), 4))
        else:
            out.append(Hanging(cell(line.strip(), style="dim"), 2, 4))
    console.print(Group(*out))


def render_check(console: Console, report) -> None:
    """citation_view.check_lines on a terminal: each place in bold, what became of the citation
    coloured, the summary last."""
    # lazy: only the output form asked for
    from rulebase.cli.views.citation import check_lines, problem_text, summary_line

    if not styled(console):
        print_lines(console, check_lines(report))
        return
    out: list = []
    for problem in report.problems:
        out.append(Hanging(Text.assemble((printable(f"{problem.path}:{problem.found.line}:"), "bold"), " ",
                                         (printable(problem_text(problem)), _STATE_STYLES[problem.status.state])), 0, 4))
    out.append(cell(summary_line(report), style="bold green" if not report.problems else "bold"))
    console.print(Group(*out))
