"""What users see on a terminal of records, search hits, definitions, sources and the index;
render_changes.py draws the rules' history and console.py the terminal itself. These three
are the modules that import rich.

Each renderer takes a Console, so tests render into a string Console. On a terminal the output
is panels and tables sized to the width; piped (or NO_COLOR) it is the same content as plain text.
"""

from __future__ import annotations

import re

from rich import box
from rich.console import Console, Group
from rich.padding import Padding
from rich.panel import Panel
from rich.text import Text

from rulebase.cli.console import Hanging, cell, marked, print_line, print_lines, styled
from rulebase.cli.views.plain import (
    also_text,
    cards_line,
    cards_named_lines,
    child_name,
    citation_line,
    entry_lines,
    era_head,
    era_line,
    era_note,
    label,
    lookup_lines,
    meta_line,
    printable,
    ref_lines,
    results_header,
    rulings_lines,
    search_lines,
    show_fields,
    shown_text,
    snip,
    subrules_note,
    tail_lines,
)
from rulebase.core.records import Record
from rulebase.index.generation import built_from
from rulebase.rules.lookup import Entry, Lookup
from rulebase.search.hits import Results


def _record_body(record: Record, days: tuple[int, int] | None = None, since: int | None = None) -> Group:
    parts: list = [cell(meta_line(record, days, since), style="dim")]
    if record.section:
        parts.append(cell(" › ".join(record.section), style="dim"))
    parts.append(cell(shown_text(record)))
    for cite in record.citations:
        parts.append(cell(citation_line(cite), style="cyan"))
    for flag in record.flags:
        parts.append(cell(f"⚠ {flag}", style="yellow"))
    return Group(*parts)


def render_entry(console: Console, entry: Entry) -> None:
    record = entry.record
    if not styled(console):
        print_lines(console, entry_lines(entry))
        return
    if entry.compact:
        console.print(_compact_panel(entry))
        return
    parts: list = [_record_body(record, entry.days, entry.since)]
    for child in entry.children:
        parts.append(Panel(_record_body(child), title=cell(label(child)), title_align="left", box=box.SIMPLE))
    refs = list(ref_lines(entry))
    if refs:
        parts.append(cell("\n".join(refs), style="magenta"))
    if entry.cards:
        parts.append(cell(cards_line(entry), style="green"))
    console.print(Panel(Group(*parts), title=cell(label(record), style="bold"), title_align="left"))


class _Outline:
    """One-line subrules, runs of short ones packed into as many columns as the width holds
    (down, then across, like ls); a long one on a line of its own, cut at the edge with '…'."""

    def __init__(self, lines: list[Text]):
        self.lines = lines

    def __rich_console__(self, console: Console, options):
        width = options.max_width
        run: list[Text] = []
        for line in self.lines:
            if line.cell_len * 2 + 2 <= width:
                run.append(line)
                continue
            yield from self._packed(run, width)
            run = []
            yield line
        yield from self._packed(run, width)

    @staticmethod
    def _packed(lines: list[Text], width: int):
        """Like ls: the most columns (each as wide as its widest line, two spaces apart) that fit."""
        if not lines:
            return
        cells = [line.cell_len for line in lines]
        for across in range(len(lines), 0, -1):
            down = -(-len(lines) // across)
            widths = [max(cells[n:n + down]) for n in range(0, len(lines), down)]
            if across == 1 or sum(widths) + 2 * (len(widths) - 1) <= width:
                break
        starts = [sum(widths[:col]) + 2 * col for col in range(len(widths))]
        for row in range(down):
            out = Text(no_wrap=True, overflow="ellipsis", end="\n")
            for n in range(row, len(lines), down):
                out.pad_right(starts[n // down] - out.cell_len)
                out.append_text(lines[n])
            yield out

    def __rich_measure__(self, console: Console, options):
        # lazy: rich (~40 ms) only for a terminal
        from rich.measure import Measurement

        widest = max(line.cell_len for line in self.lines)
        return Measurement(min(widest, options.max_width), options.max_width)


def _compact_child(entry: Entry, child: Record):
    """A subrule of a compact entry: its number in bold and its text (plain.child_lines' content)."""
    line = Text.assemble((printable(child_name(child)), "bold"), "  ")
    note = subrules_note(entry, child)
    if entry.outline:  # one line on the screen too: cut at the edge, marked '…'
        line.append(printable(entry.leads[child.id]))
        if note:
            line.append(f"  {note}", style="dim")
        line.no_wrap, line.overflow = True, "ellipsis"
        return line
    if child.id in entry.copies:
        line.append(printable(f"= same text as {entry.copies[child.id]}"), style="magenta")
        return line
    first, *paras = shown_text(child).split("\n\n")
    line.append(printable(first))
    parts: list = [line, *(cell(para) for para in paras)]
    parts += [cell(citation_line(c), style="cyan") for c in child.citations]
    parts += [cell(f"⚠ {flag}", style="yellow") for flag in child.flags]
    if note:
        parts.append(Text(note, style="dim"))
    return Padding(Group(*parts), (0, 0, 0, 2))


def _compact_panel(entry: Entry) -> Panel:
    parts: list = [_record_body(entry.record, entry.days, entry.since)]
    children = [_compact_child(entry, child) for child in entry.children]
    parts += [_Outline(children)] if entry.outline and children else children
    refs = list(ref_lines(entry))
    if refs:
        parts.append(cell("\n".join(refs), style="magenta"))
    if entry.cards:
        parts.append(cell(cards_line(entry), style="green"))
    return Panel(Group(*parts), title=cell(label(entry.record), style="bold"), title_align="left")


def render_lookup(console: Console, result: Lookup) -> None:
    # lazy: the desk's views only for a lookup
    from rulebase.cli.views.desk import desk_lines

    if not styled(console) or getattr(result, "contents", None) or getattr(result, "infraction", None):
        print_lines(console, desk_lines(result) if hasattr(result, "fresh") else lookup_lines(result))
        return
    if result.kind == "page":
        _render_list(console, f"{result.ref}: {len(result.entries)} records", [e.record for e in result.entries])
        return
    for n, entry in enumerate(result.entries):
        if not entry.era:
            render_entry(console, entry)
            continue
        if not (n and result.entries[n - 1].era):
            console.print(cell(era_head(entry), style="bold"))
        console.print(cell(era_line(entry)), no_wrap=True, overflow="ellipsis")
    for line in tail_lines(result):
        console.print(Hanging(cell(line, style="dim")))
    cited = getattr(result, "cited", [])
    if cited:
        console.print(Hanging(cell("cited as written: " + "; ".join(c.line() for c in cited)), 2, 4))
    for fresh in getattr(result, "fresh", []):
        console.print(Hanging(cell(f"note: {fresh.line()}", style="yellow")))


def _render_list(console: Console, title: str, records: list[Record]) -> None:
    from rich.table import Table  # only where a table is drawn: not on a lookup's path

    table = Table(title=cell(title), box=box.SIMPLE_HEAD, expand=True)
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("kind")
    table.add_column("text", ratio=1)
    for r in records:
        table.add_row(cell(r.id), cell(r.kind), cell(snip(r.text, 160)))
    console.print(table)


# Narrower than this, a table of hits left the snippet a column of 24 cells at 80 columns (8-11 lines
# a hit): each hit is then a few full-width lines instead, as the plain layout reads.
SEARCH_TABLE_WIDTH = 120


def render_search(console: Console, results: Results) -> None:
    if not styled(console) or not results.hits:
        print_lines(console, search_lines(results))
        return
    named = cards_named_lines(results)
    for n, line in enumerate(named):
        print_line(console, line, "bold" if line and not line.startswith(" ") and n else "")
    if results.suggestion:
        console.print(f"Did you mean: {results.suggestion}", markup=False, style="yellow")
    if console.width < SEARCH_TABLE_WIDTH:
        _search_list(console, results)
        return
    # lazy: rich (~40 ms) only for a terminal
    from rich.table import Table

    header = results_header(results)
    table = Table(title=cell(header), box=box.SIMPLE_HEAD, expand=True, show_lines=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("where", style="bold", max_width=36, overflow="fold")  # an id is never cut
    table.add_column("ed.", no_wrap=True)
    table.add_column("snippet", ratio=1)
    for n, hit in enumerate(results.hits, 1):
        record = results.records[hit.id]
        where = cell(label(record))
        where.append(printable(f"\n{hit.id}"), style="dim")
        if hit.also:
            where.append(printable(f"\n= {also_text(hit.also)}"), style="dim")
        era = hit_era(hit.id, results)
        table.add_row(str(n), where, era, marked(" ".join(hit.snippet.split())))
    console.print(table)
    print_lines(console, rulings_lines(results))


def _search_list(console: Console, results: Results) -> None:
    """The hits as a list for a narrow terminal: number, name and era on one line, the id (and the
    records printing the same text) under it, then the snippet across the width, each wrapped at
    word boundaries; an id is never cut (a long one starts further left; only one wider than the
    terminal folds)."""
    console.print(cell(results_header(results), style="bold"))
    for n, hit in enumerate(results.hits, 1):
        record = results.records[hit.id]
        now = hit.id in results.now
        head = Text.assemble((f"{n:>2}. ", "dim"), (printable(label(record)), "bold"), "  ",
                             (printable(era_note(hit.id, results)), "green" if now else "dim"))
        console.print(Hanging(head, 0, 4))
        ids = Text(printable(hit.id), style="dim")
        indent = min(4, max(0, console.width - ids.cell_len))  # a long id moves left rather than fold
        if hit.also:
            ids.append(printable(f"  = {also_text(hit.also)}"), style="dim")
        console.print(Hanging(ids, indent, 2))
        console.print(Hanging(marked(" ".join(hit.snippet.split())), 4))
    print_lines(console, rulings_lines(results))


def hit_era(hit_id: str, results: Results) -> Text:
    """Whether a hit is in force now and since when its text is, or its era and 'history'
    (plain.era_note's words, on two lines)."""
    first, _, second = era_note(hit_id, results).replace(" · ", ", ").partition(", ")
    now = hit_id in results.now
    return Text.assemble((printable(first), "green" if now else ""), "\n", (printable(second), "dim"))


def render_definitions(console: Console, found) -> None:
    """Each era's definition under a line saying whether it is in force, its era and its days."""
    # lazy: only the output form asked for
    from rulebase.cli.views.plain import defined_note, definitions_head

    term, hungarian, referrers = found.term, found.hungarian, found.referrers
    if styled(console):
        console.print(Text.assemble(cell(term, style="bold"), definitions_head(found)[len(term):]))
    else:
        console.print(definitions_head(found), markup=False, soft_wrap=True)
    said = None
    for entry in found.entries:
        note = defined_note(entry, found.when)
        if note != said:  # (a titled paragraph's continuations share its line)
            console.print(cell(note, style="green" if entry.now else "dim") if styled(console) else note,
                          markup=False, soft_wrap=True)
        said = note
        render_entry(console, Entry(entry.record, refs_out=found.refs_out(entry.record), days=entry.window,
                                    since=entry.since))
    if hungarian:
        console.print("Hungarian: " + ", ".join(f"{h.title} ({h.id})" for h in hungarian), markup=False)
    if referrers:
        console.print("Referenced by:", markup=False)
        for rec in referrers:
            console.print(f"  {label(rec)} ({rec.id})", markup=False, soft_wrap=True)


def render_show(console: Console, record: Record) -> None:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.records import to_dict

    fields = show_fields(to_dict(record))
    if not styled(console):
        for key, value in fields:
            head, *rest = value.split("\n")
            if rest and key != "raw":  # (a list of references: each on its own line)
                rest, head = [head, *rest], ""
            print_lines(console, [f"{key}: {head}".rstrip()] + [f"  {line}" for line in rest])
        return
    # lazy: rich (~40 ms) only for a terminal
    from rich.table import Table

    table = Table(title=cell(record.id), box=box.SIMPLE_HEAD, show_header=False, expand=True)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", ratio=1)
    for key, value in fields:
        table.add_row(key, cell(value))
    console.print(table)


def release_fields(s: dict) -> list[tuple[str, str]]:
    """What an archive holds, as (label, text): how many releases from which files, first and
    last, its known gaps, and (unlabelled) that a release it lacks can be added."""
    releases = (s.get("meta") or {}).get("releases")
    if not releases:
        return []
    files = sum(1 + len(r.get("printings", [])) for r in releases)
    fields = [("releases", f"{len(releases)} ({files} files in {', '.join(s.get('files') or [s['file']])}), "
                           f"{releases[0]['date']} to {releases[-1]['date']}, each dated by its own text")]
    ahead = [r["date"] for r in releases if upcoming_date(r["date"])]
    if ahead:
        fields.append(("upcoming", f"{', '.join(ahead)}: not in force until {'its' if len(ahead) == 1 else 'their'} "
                                   "day; the rules in force now are the release before"))
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules.desk import aged

    newest = aged(s["id"], releases[-1]["date"])
    if newest.stale:
        fields.append(("newest", f"{newest.newest}, {newest.age()}"))
    if s.get("gaps"):
        fields.append(("gaps", s["gaps"]))
    fields.append(("", "a release it lacks can be added: rulebase add FILE"))
    return fields


def release_lines(s: dict) -> list[str]:
    """release_fields as the plain lines: 'releases: ...', 'gaps: ...'."""
    return [f"{key}: {value}" if key else value for key, value in release_fields(s)]


def _joined(s: dict) -> str | None:
    """Where a release that joined an archive's timeline has its records (they are that archive's
    versions: its own count is 0), or None."""
    joined = (s.get("meta") or {}).get("joined")
    if not joined or s["records"]:
        return None
    ahead = f" (upcoming: in force from {s['date']})" if upcoming_date(s["date"]) else ""
    return f"in {joined}'s timeline{ahead}: its rules are {joined}:NUMBER@{s['date']} versions, counted under {joined}"


def upcoming_date(date: str) -> bool:
    """Whether a document's or release's date (YYYY-MM-DD) is after today (eras.today)."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.eras import day, upcoming

    return len(date) == 10 and date[:4].isdigit() and upcoming(day(date))


def _counts(s: dict) -> list[tuple[str, str]]:
    joined = _joined(s)
    if joined:
        return [("records", joined)]
    kinds = ", ".join(f"{k} {v}" for k, v in s["kinds"].items())
    return [("records", f"{s['records']}: {kinds}"),
            ("references", f"{s['refs'] - s['unresolved']} resolved, {s['unresolved']} unresolved")]


def _source_fields(s: dict) -> list[tuple[str, str]]:
    """One document's facts for the terminal, label and text, in the plain output's order."""
    return [("edition", f"{s['edition']} · {s['date']} · {s['lang']}"), *_counts(s),
            ("credit", s["credit"]), *release_fields(s)]


def render_sources(console: Console, sources: list[dict]) -> None:
    """Piped: a few lines per document. On a terminal: the document's id and title, then its
    facts as label and text, the text wrapped at word boundaries beside its label (a table of
    seven columns squeezed titles and credits to a few letters a line at 80 columns)."""
    if not styled(console):
        for s in sources:
            console.print(f"{s['id']} [{s['edition']}, {s['date']}, {s['lang']}] {s['title']}", markup=False,
                          soft_wrap=True)
            joined = _joined(s)
            if joined:
                console.print(f"  records: {joined}", markup=False, soft_wrap=True)
            else:
                kinds = ", ".join(f"{k} {v}" for k, v in s["kinds"].items())
                console.print(f"  {s['records']} records: {kinds}", markup=False, soft_wrap=True)
                console.print(f"  references: {s['refs'] - s['unresolved']} resolved, {s['unresolved']} unresolved",
                              markup=False)
            console.print(f"  credit: {s['credit']}", markup=False, soft_wrap=True)
            for line in release_lines(s):
                console.print(f"  {line}", markup=False, soft_wrap=True)
        return
    console.print(Text(f"{len(sources)} documents", style="bold"))
    for s in sources:
        console.print()
        head = Text.assemble((printable(s["id"]), "bold cyan"), "  ", (printable(s["title"]), "bold"))
        console.print(Hanging(head, 0, 2))
        fields = _source_fields(s)
        width = max(len(key) for key, _ in fields) + 2
        for key, value in fields:
            console.print(Hanging(Text.assemble((key.ljust(width), "dim"), printable(value)), 2, width))


def render_ingest_report(console: Console, report: dict, verbose: bool = False) -> None:
    """Per source: records by kind, pages, chrome set aside, flags, unresolved refs."""
    for s in report["sources"]:
        print_line(console, f"{s['id']} ({s['file']}, {s['format']}, {s['encoding']}): {s['records']} records")
        print_line(console, "  kinds: " + ", ".join(f"{k} {v}" for k, v in s["kinds"].items()))
        if s["pages"]:
            print_line(console, f"  pages: {s['pages'][0]}-{s['pages'][-1]} ({len(s['pages'])} pages)", soft_wrap=False)
        if s["set_aside"]:
            print_line(console, "  set aside: " + ", ".join(f"{k} {v}" for k, v in s["set_aside"].items()))
        for line in s["repairs"] + s["notes"][: None if verbose else 6]:
            print_line(console, f"  note: {line}")
        if len(s["notes"]) > 6 and not verbose:
            print_line(console, f"  … {len(s['notes']) - 6} more notes (--verbose)", soft_wrap=False)
        print_line(console, f"  flags: {s['flags']}; references: {s['refs']} ({s['unresolved']} unresolved)", soft_wrap=False)
        for warning in s["warnings"][: None if verbose else 10]:
            print_line(console, f"  warning: {warning}")
    links = report["links"]
    print_line(console, f"links: {links['resolved']} references resolved, {links['joined']} same-rule joins, "
                  f"{len(links['unresolved'])} unresolved, {len(links['differences'])} text differences", soft_wrap=False)
    for rid, lab, reason in links["unresolved"][: None if verbose else 20]:
        print_line(console, f"  unresolved: {rid}: {lab!r}: {reason}")
    for ck, official in links["differences"]:
        print_line(console, f"  differs: {ck} vs {official}", soft_wrap=False)


def render_status(console: Console, status) -> None:
    gen = status.generation
    print_line(console, f"index: {status.index_dir}", soft_wrap=False)
    if gen is None:
        print_line(console, "state: not built (it builds itself on first use)", soft_wrap=False)
        return
    print_line(console, f"generation: {gen.name}", soft_wrap=False)
    print_line(console, f"built: {gen.meta.get('built_at')} in {gen.meta.get('build_seconds')} s, "
                  f"{gen.meta.get('records')} records", soft_wrap=False)
    print_line(console, "sources: " + ", ".join(f"{s['id']} ({s['file']})" for s in built_from(gen)))
    problem = getattr(status, "problem", None)
    state = ("current" if status.current else f"damaged ({problem}); rebuilds on next use" if problem
             else "stale (corpus or code changed; rebuilds on next use)")
    print_line(console, f"state: {state}", soft_wrap=False)
    if not status.writable:
        print_line(console, "note: the index directory is read-only", soft_wrap=False)


def render_added(console: Console, added, generation) -> None:
    """What `rulebase add` did: the document, how it was read, and how to use it."""
    s = added.source
    print_line(console, f"added {s.id}: {s.title} [{s.edition}, {s.date}, {s.format}]")
    print_line(console, f"  read as {added.encoding}" + (f"; {'; '.join(added.repairs)}" if added.repairs else ""))
    if added.detected.evidence:
        print_line(console, "  detected from: " + ", ".join(added.detected.evidence))
    if s.edition_note:
        print_line(console, f"  edition {s.edition}: {s.edition_note}")
    kinds = ", ".join(f"{n} {k}" for k, n in added.kinds.items())
    print_line(console, f"  {added.records} records ({kinds})")
    print_line(console, f"  stored as {s.path}")
    if generation is not None:  # several files: one rebuild, said once after the last
        print_line(console, f"index rebuilt: {generation.meta['records']} records -> {generation.path}")


def render_removed(console: Console, source, generation) -> None:
    print_line(console, f"removed {source.id}: {source.title}")
    print_line(console, f"index rebuilt: {generation.meta['records']} records -> {generation.path}")


def render_found(console: Console, found) -> None:
    """On a terminal: the same lines, the name bold and the rules' numbers cyan."""
    # lazy: only this command needs it
    from rulebase.cli.views.card import found_lines

    lines = found_lines(found)
    for n, line in enumerate(lines):
        style = "bold" if n == 0 and not found.several else ""
        if styled(console) and line.startswith("  ") and re.match(r"^  \d{3}", line):
            style = "cyan"
        print_line(console, line, style)
