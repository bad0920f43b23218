"""Everything users see on a terminal. The only module that imports rich.

Each renderer takes a Console, so tests render into a string Console. On a terminal the output
is panels and tables sized to the width; piped (or NO_COLOR) it is the same content as plain text.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

from rich import box
from rich.console import Console, Group
from rich.padding import Padding
from rich.pager import Pager
from rich.panel import Panel
from rich.segment import Segment
from rich.text import Text

from rulebase.cli.plain import (
    CONTROL,
    also_text,
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
    search_lines,
    snip,
    subrules_note,
    tail_lines,
)
from rulebase.core.records import Record
from rulebase.rules.lookup import Entry, Lookup
from rulebase.search.hits import MARK_CLOSE, MARK_OPEN, Results

HIGHLIGHT = "bold black on yellow"


class SafeConsole(Console):
    """A Console that lets no control character from the data reach the terminal.

    Strings printed are made `printable` before rich sees them (rich would drop BEL but pass ESC),
    so plain output matches the fast path byte for byte; every text segment of what is printed or
    captured (from a Text, table or panel) is checked again, so only rich's own colour codes reach
    a terminal. A reader that goes away raises BrokenPipeError for the CLI's funnel (exit 0)
    instead of rich's exit 1."""

    def print(self, *objects, **kwargs) -> None:
        super().print(*(printable(o) if isinstance(o, str) else o for o in objects), **kwargs)

    def _render_buffer(self, buffer) -> str:
        # rich's one way out for print and capture: each segment is checked once, on its way to
        # the terminal (a check in render() ran again at every level of nesting: a third of
        # the time of a long lookup)
        return super()._render_buffer(
            Segment(printable(seg.text), seg.style) if seg.control is None and CONTROL.search(seg.text) else seg
            for seg in buffer)

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError(32, "Broken pipe")


def make_console(stderr: bool = False) -> Console:
    # emoji=False: record text is shown as written (':x:' is not an emoji code in a rules text)
    return SafeConsole(stderr=stderr, highlight=False, soft_wrap=False, emoji=False)


def _text(value, style: str = "") -> Text:
    """Data as a Text cell or title: never parsed as markup ('[/x]' in a query or a rules text
    would raise), control characters escaped before rich measures the width."""
    return Text(printable(str(value)), style=style)


def _rich(console: Console) -> bool:
    return console.is_terminal and not console.no_color


class _Hanging:
    """One line of text wrapped at word boundaries to the width: the first line indented
    `indent` cells, the lines after it `indent + hang` (a long heading's continuation stands
    apart from the text under it). A word wider than the whole line is folded, as rich does.
    What a terminal shows of the plain output's long lines, which it used to break mid-word."""

    def __init__(self, text: Text, indent: int = 0, hang: int = 0):
        self.text, self.indent, self.hang = Text(), indent, hang
        self.text.append_text(text)  # its own style as a span: Text.render draws spans only

    def __rich_console__(self, console: Console, options):
        width = options.max_width
        lines: list[Text] = []
        for part in self.text.split("\n", allow_blank=True):  # a line break in the text: hung too
            if lines:
                lines += part.wrap(console, max(1, width - self.indent - self.hang))
                continue
            lines += part.wrap(console, max(1, width - self.indent))
            if len(lines) > 1 and self.hang:
                rest = part[len(lines[0].plain):]
                rest = rest[len(rest.plain) - len(rest.plain.lstrip(" ")):]
                lines[1:] = rest.wrap(console, max(1, width - self.indent - self.hang))
        for n, line in enumerate(lines):  # as segments: a Text yielded would be wrapped again
            line.rstrip()
            if line.plain:
                yield Segment(" " * (self.indent + (self.hang if n else 0)))
            yield from line.render(console, end="")
            yield Segment.line()

    def __rich_measure__(self, console: Console, options):
        # lazy: rich (~40 ms) only for a terminal
        from rich.measure import Measurement

        return Measurement(min(self.indent + self.hang + 1, options.max_width), options.max_width)


def _line(console: Console, line: str, style: str = "", hang: int = 2, soft_wrap: bool = True) -> None:
    """A line of the plain layout: on a terminal wrapped at word boundaries, its continuation
    indented `hang` cells past the line's own indent (`style` unless NO_COLOR); piped, printed
    as before (`soft_wrap` as the caller always passed it: piped output stays byte for byte
    what it was)."""
    if not console.is_terminal:
        console.print(line, markup=False, soft_wrap=soft_wrap, style=style or None)
        return
    body = line.lstrip(" ")
    console.print(_Hanging(_text(body, style=style if _rich(console) else ""), len(line) - len(body), hang))


def marked(text: str, style: str = HIGHLIGHT) -> Text:
    """Turn index highlight markers into styled spans."""
    out = Text()
    rest = text
    while MARK_OPEN in rest:
        before, _, after = rest.partition(MARK_OPEN)
        word, _, rest = after.partition(MARK_CLOSE)
        out.append(printable(before))
        out.append(printable(word), style=style)
    out.append(printable(rest))
    return out


def _record_body(record: Record, days: tuple[int, int] | None = None) -> Group:
    parts: list = [_text(meta_line(record, days), style="dim")]
    if record.section:
        parts.append(_text(" › ".join(record.section), style="dim"))
    parts.append(_text(record.text))
    for cite in record.citations:
        parts.append(_text(citation_line(cite), style="cyan"))
    for flag in record.flags:
        parts.append(_text(f"⚠ {flag}", style="yellow"))
    return Group(*parts)


def _print_lines(console: Console, lines: list[str]) -> None:
    """The plain layout's lines: piped, as they are; on a terminal (NO_COLOR), wrapped at word
    boundaries, not broken mid-word by the terminal at its right margin."""
    for line in lines:
        _line(console, line)


def render_entry(console: Console, entry: Entry) -> None:
    record = entry.record
    if not _rich(console):
        _print_lines(console, entry_lines(entry))
        return
    if entry.compact:
        console.print(_compact_panel(entry))
        return
    parts: list = [_record_body(record)]
    for child in entry.children:
        parts.append(Panel(_record_body(child), title=_text(label(child)), title_align="left", box=box.SIMPLE))
    refs = list(ref_lines(entry))
    if refs:
        parts.append(_text("\n".join(refs), style="magenta"))
    console.print(Panel(Group(*parts), title=_text(label(record), style="bold"), title_align="left"))


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
    first, *paras = child.text.split("\n\n")
    line.append(printable(first))
    parts: list = [line, *(_text(para) for para in paras)]
    parts += [_text(citation_line(c), style="cyan") for c in child.citations]
    parts += [_text(f"⚠ {flag}", style="yellow") for flag in child.flags]
    if note:
        parts.append(Text(note, style="dim"))
    return Padding(Group(*parts), (0, 0, 0, 2))


def _compact_panel(entry: Entry) -> Panel:
    parts: list = [_record_body(entry.record, entry.days)]
    children = [_compact_child(entry, child) for child in entry.children]
    parts += [_Outline(children)] if entry.outline and children else children
    refs = list(ref_lines(entry))
    if refs:
        parts.append(_text("\n".join(refs), style="magenta"))
    return Panel(Group(*parts), title=_text(label(entry.record), style="bold"), title_align="left")


def render_lookup(console: Console, result: Lookup) -> None:
    if not _rich(console):
        _print_lines(console, lookup_lines(result))
        return
    if result.kind == "page":
        _render_list(console, f"{result.ref}: {len(result.entries)} records", [e.record for e in result.entries])
        return
    for n, entry in enumerate(result.entries):
        if not entry.era:
            render_entry(console, entry)
            continue
        if not (n and result.entries[n - 1].era):
            console.print(_text(era_head(entry), style="bold"))
        console.print(_text(era_line(entry)), no_wrap=True, overflow="ellipsis")
    for line in tail_lines(result):
        console.print(_Hanging(_text(line, style="dim")))


def _render_list(console: Console, title: str, records: list[Record]) -> None:
    from rich.table import Table  # only where a table is drawn: not on a lookup's path

    table = Table(title=_text(title), box=box.SIMPLE_HEAD, expand=True)
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("kind")
    table.add_column("text", ratio=1)
    for r in records:
        table.add_row(_text(r.id), _text(r.kind), _text(snip(r.text, 160)))
    console.print(table)


def render_search(console: Console, results: Results) -> None:
    if not _rich(console) or not results.hits:
        _print_lines(console, search_lines(results))
        return
    if results.suggestion:
        console.print(f"Did you mean: {results.suggestion}", markup=False, style="yellow")
    # lazy: rich (~40 ms) only for a terminal
    from rich.table import Table

    header = results_header(results)
    table = Table(title=_text(header), box=box.SIMPLE_HEAD, expand=True, show_lines=False)
    table.add_column("#", justify="right", style="dim")
    table.add_column("where", style="bold", max_width=36)
    table.add_column("ed.", no_wrap=True)
    table.add_column("snippet", ratio=1)
    for n, hit in enumerate(results.hits, 1):
        record = results.records[hit.id]
        where = _text(label(record))
        where.append(printable(f"\n{hit.id}"), style="dim")
        if hit.also:
            where.append(printable(f"\n= {also_text(hit.also)}"), style="dim")
        era = _text(record.edition)
        era.append(printable(f"\n{era_note(hit.id, results)}"), style="green" if hit.id in results.now else "dim")
        table.add_row(str(n), where, era, marked(" ".join(hit.snippet.split())))
    console.print(table)


def render_definitions(console: Console, found) -> None:
    """Each era's definition under a line saying whether it is in force, its era and its days."""
    # lazy: only the output form asked for
    from rulebase.cli.plain import defined_note, definitions_head

    term, hungarian, referrers = found.term, found.hungarian, found.referrers
    if _rich(console):
        console.print(Text.assemble(_text(term, style="bold"), definitions_head(found)[len(term):]))
    else:
        console.print(definitions_head(found), markup=False, soft_wrap=True)
    said = None
    for entry in found.entries:
        note = defined_note(entry, found.when)
        if note != said:  # (a titled paragraph's continuations share its line)
            console.print(_text(note, style="green" if entry.now else "dim") if _rich(console) else note,
                          markup=False, soft_wrap=True)
        said = note
        render_entry(console, Entry(entry.record))
    if hungarian:
        console.print("Hungarian: " + ", ".join(f"{h.title} ({h.id})" for h in hungarian), markup=False)
    if referrers:
        console.print("Referenced by:", markup=False)
        for rec in referrers:
            console.print(f"  {label(rec)} ({rec.id})", markup=False, soft_wrap=True)


def render_show(console: Console, record: Record) -> None:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.records import to_dict

    data = to_dict(record)
    if not _rich(console):
        for key, value in data.items():
            console.print(f"{key}: {value}", markup=False, soft_wrap=True)
        return
    # lazy: rich (~40 ms) only for a terminal
    from rich.table import Table

    table = Table(title=_text(record.id), box=box.SIMPLE_HEAD, show_header=False, expand=True)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", ratio=1)
    for key, value in data.items():
        table.add_row(key, _text(value))
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
    if s.get("gaps"):
        fields.append(("gaps", s["gaps"]))
    fields.append(("", "a release it lacks can be added: rulebase add FILE"))
    return fields


def release_lines(s: dict) -> list[str]:
    """release_fields as the plain lines: 'releases: ...', 'gaps: ...'."""
    return [f"{key}: {value}" if key else value for key, value in release_fields(s)]


def _source_fields(s: dict) -> list[tuple[str, str]]:
    """One document's facts for the terminal, label and text, in the plain output's order."""
    kinds = ", ".join(f"{k} {v}" for k, v in s["kinds"].items())
    return [("edition", f"{s['edition']} · {s['date']} · {s['lang']}"), ("records", f"{s['records']}: {kinds}"),
            ("references", f"{s['refs'] - s['unresolved']} resolved, {s['unresolved']} unresolved"),
            ("credit", s["credit"]), *release_fields(s)]


def render_sources(console: Console, sources: list[dict]) -> None:
    """Piped: a few lines per document. On a terminal: the document's id and title, then its
    facts as label and text, the text wrapped at word boundaries beside its label (a table of
    seven columns squeezed titles and credits to a few letters a line at 80 columns)."""
    if not _rich(console):
        for s in sources:
            kinds = ", ".join(f"{k} {v}" for k, v in s["kinds"].items())
            console.print(f"{s['id']} [{s['edition']}, {s['date']}, {s['lang']}] {s['title']}", markup=False,
                          soft_wrap=True)
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
        console.print(_Hanging(head, 0, 2))
        fields = _source_fields(s)
        width = max(len(key) for key, _ in fields) + 2
        for key, value in fields:
            console.print(_Hanging(Text.assemble((key.ljust(width), "dim"), printable(value)), 2, width))


def render_ingest_report(console: Console, meta: dict, verbose: bool = False) -> None:
    """Per source: records by kind, pages, chrome set aside, flags, unresolved refs."""
    for s in meta["sources"]:
        _line(console, f"{s['id']} ({s['file']}, {s['format']}, {s['encoding']}): {s['records']} records")
        _line(console, "  kinds: " + ", ".join(f"{k} {v}" for k, v in s["kinds"].items()))
        if s["pages"]:
            _line(console, f"  pages: {s['pages'][0]}-{s['pages'][-1]} ({len(s['pages'])} pages)", soft_wrap=False)
        if s["set_aside"]:
            _line(console, "  set aside: " + ", ".join(f"{k} {v}" for k, v in s["set_aside"].items()))
        for line in s["repairs"] + s["notes"][: None if verbose else 6]:
            _line(console, f"  note: {line}")
        if len(s["notes"]) > 6 and not verbose:
            _line(console, f"  … {len(s['notes']) - 6} more notes (--verbose)", soft_wrap=False)
        _line(console, f"  flags: {s['flags']}; references: {s['refs']} ({s['unresolved']} unresolved)", soft_wrap=False)
        for warning in s["warnings"][: None if verbose else 10]:
            _line(console, f"  warning: {warning}")
    links = meta["links"]
    _line(console, f"links: {links['resolved']} references resolved, {links['joined']} same-rule joins, "
                  f"{len(links['unresolved'])} unresolved, {len(links['differences'])} text differences", soft_wrap=False)
    for rid, lab, reason in links["unresolved"][: None if verbose else 20]:
        _line(console, f"  unresolved: {rid}: {lab!r}: {reason}")
    for ck, official in links["differences"]:
        _line(console, f"  differs: {ck} vs {official}", soft_wrap=False)


def render_status(console: Console, status) -> None:
    gen = status.generation
    _line(console, f"index: {status.index_dir}", soft_wrap=False)
    if gen is None:
        _line(console, "state: not built (it builds itself on first use)", soft_wrap=False)
        return
    _line(console, f"generation: {gen.path.name}", soft_wrap=False)
    _line(console, f"built: {gen.meta.get('built_at')} in {gen.meta.get('build_seconds')} s, "
                  f"{gen.meta.get('records')} records", soft_wrap=False)
    _line(console, "sources: " + ", ".join(f"{s['id']} ({s['file']})" for s in gen.meta.get("sources", [])))
    problem = getattr(status, "problem", None)
    state = ("current" if status.current else f"damaged ({problem}); rebuilds on next use" if problem
             else "stale (corpus or code changed; rebuilds on next use)")
    _line(console, f"state: {state}", soft_wrap=False)
    if not status.writable:
        _line(console, "note: the index directory is read-only", soft_wrap=False)


@contextmanager
def build_progress(enabled: bool = True):
    """A progress bar on stderr while the index builds; a no-op when piped or disabled. The bar
    (and rich.progress) starts with the first report, so a command on a current index pays
    nothing for it and prints no cursor codes."""
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield None
        return
    bars: list = []
    tasks: dict[str, int] = {}

    def update(stage: str, done: int, total: int) -> None:
        if not bars:
            # lazy: rich (~40 ms) only for a terminal
            from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

            bars.append(Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                                 console=console, transient=True))
            bars[0].start()
        bar = bars[0]
        if stage not in tasks:
            tasks[stage] = bar.add_task(f"building index: {stage}", total=total)
        bar.update(tasks[stage], completed=done, total=total)

    try:
        yield update
    finally:
        if bars:
            bars[0].stop()


_LESS_STRING = set("DkoOpPtT")  # less options whose string value runs to '$' or the end of LESS
_LESS_NUMBER = set("bhjxyz#")  # options whose number follows them in the same word


def less_flags(current: str | None) -> str:
    """The LESS environment for paging coloured output: the user's own flags with -R in front, so
    less shows rich's colour codes as colour instead of as 'ESC[1m' (-FRX, as git does, when
    LESS is unset). A user's own -r or -R is left as it is; in front, -R cannot end up inside
    the value of a string option such as -P."""
    if not current or not current.strip():
        return "-FRX"
    for word in current.split():
        if word.startswith("--"):
            if word.split("=")[0] in ("--RAW-CONTROL-CHARS", "--raw-control-chars"):
                return current
            continue
        for letter in word.lstrip("-"):
            if letter in "rR":
                return current
            if letter in _LESS_STRING:
                return f"-R {current}"
            if letter in _LESS_NUMBER:
                break
    return f"-R {current}"


class LessPager(Pager):
    """pydoc's pager (PAGER, else less), run with LESS carrying -R; the environment is restored."""

    def show(self, content: str) -> None:
        # lazy: only this rarer path needs it
        import pydoc

        before = os.environ.get("LESS")
        os.environ["LESS"] = less_flags(before)
        try:
            pydoc.pager(content)
        finally:
            if before is None:
                os.environ.pop("LESS", None)
            else:
                os.environ["LESS"] = before


@contextmanager
def paged(console: Console, min_lines: int | None = None):
    """Page long output on a terminal only; piped output is never paged."""
    if not console.is_terminal:
        yield console
        return
    with console.capture() as capture:
        yield console
    text = capture.get()  # rendered once: written as is (SafeConsole escaped the data already)
    if text.count("\n") > (min_lines or console.height):
        LessPager().show(text)
        return
    try:
        console.file.write(text)
        console.file.flush()
    except BrokenPipeError:
        console.on_broken_pipe()
        raise


def render_added(console: Console, added, generation) -> None:
    """What `rulebase add` did: the document, how it was read, and how to use it."""
    s = added.source
    _line(console, f"added {s.id}: {s.title} [{s.edition}, {s.date}, {s.format}]")
    _line(console, f"  read as {added.encoding}" + (f"; {'; '.join(added.repairs)}" if added.repairs else ""))
    if added.detected.evidence:
        _line(console, "  detected from: " + ", ".join(added.detected.evidence))
    if s.edition_note:
        _line(console, f"  edition {s.edition}: {s.edition_note}")
    kinds = ", ".join(f"{n} {k}" for k, n in added.kinds.items())
    _line(console, f"  {added.records} records ({kinds})")
    _line(console, f"  stored as {s.path}")
    if generation is not None:  # several files: one rebuild, said once after the last
        _line(console, f"index rebuilt: {generation.meta['records']} records -> {generation.path}")


def render_removed(console: Console, source, generation) -> None:
    _line(console, f"removed {source.id}: {source.title}")
    _line(console, f"index rebuilt: {generation.meta['records']} records -> {generation.path}")


# --- edition comparison and diffs (rulebase compare / diff / changes) ---

COLUMN_MIN = 30  # narrower than this per edition column and compare prints one panel per edition
DELETED = "bold red strike"
INSERTED = "bold green underline"


def _stance_body(stance, curated: bool) -> Group:
    # lazy: only the output form asked for
    from rulebase.cli.plain import NOT_FOUND_IN_EDITION, pages_note, period_note, removed_lines

    parts: list = [Text(period_note(stance), style="green" if stance.period.now else "dim")] \
        if stance.period else []
    if stance.summary:
        style = "yellow" if stance.summary.startswith("Not covered") else "bold"
        parts.append(_text(stance.summary, style=style))
    elif not curated:
        parts.append(Text("search results" if stance.citations else NOT_FOUND_IN_EDITION, style="italic dim"))
    parts += [_text(line, style="yellow") for line in removed_lines(stance)]
    for quote in stance.citations:
        parts.append(Text(""))
        parts.append(_text(f"\u201c{quote.quote}\u201d"))
        parts.append(Text(f"\u2014 {quote.id}{pages_note(quote.pages)}", style="cyan"))
    return Group(*parts)


def render_compare(console: Console, comparison) -> None:
    """A table with one column per edition; one panel per edition when the terminal is narrow."""
    # lazy: only the output form asked for
    from rulebase.cli.plain import compare_lines, compare_title

    if not _rich(console):
        _print_lines(console, compare_lines(comparison))
        return
    title = compare_title(comparison)
    stances = comparison.editions
    if console.width < COLUMN_MIN * max(1, len(stances)):
        console.print(_text(title, style="bold"))
        for stance in stances:
            console.print(Panel(_stance_body(stance, comparison.curated), title=Text(stance.edition, style="bold"),
                                title_align="left"))
        return
    # lazy: rich (~40 ms) only for a terminal
    from rich.table import Table

    table = Table(title=_text(title), box=box.SIMPLE_HEAD, expand=True, show_lines=False)
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
    from rulebase.cli.plain import diff_header, diff_lines

    if not _rich(console):
        _print_lines(console, diff_lines(result))
        return
    body = diff_markup(result.ops) if result.changed else _text(result.a.text)
    legend = Text.assemble(("deleted", DELETED), " / ", ("inserted", INSERTED), style="dim")
    console.print(Panel(Group(Text(diff_header(result), style="dim"), body, legend),
                        title=Text(f"{result.a.id} \u2192 {result.b.id}", style="bold"), title_align="left"))


def render_term_diff(console: Console, result) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.plain import label, term_diff_lines

    if not _rich(console):
        _print_lines(console, term_diff_lines(result))
        return
    console.print(Text(f"{result.term}: {len(result.definitions)} definition(s), in edition order", style="bold"))
    for record in result.definitions:
        _line(console, f"  {record.edition:>3}  {label(record)} ({record.id})")
    for diff in result.diffs:
        render_diff(console, diff)
    for a, b, why in result.skipped:
        _line(console, f"{a} \u2192 {b}: not diffed, {why}", style="yellow")


def render_changes(console: Console, groups) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.plain import change_note, changes_lines

    if not _rich(console):
        _print_lines(console, changes_lines(groups))
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
    from rulebase.cli.plain import diff_pieces

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
    from rulebase.cli.plain import history_lines, lineage_title, linked_line, step_parts, step_text

    if not _rich(console):
        _print_lines(console, history_lines(found))
        return
    out: list = []  # printed at once: rich's cost is per print call
    for n, lineage in enumerate(found.lineages):
        if not lineage.steps:
            continue
        out.append(_Hanging(_text(lineage_title(lineage, n), style="bold"), 0, 4))
        for step in lineage.steps:
            span, number, what = step_parts(step)
            head = Text.assemble((printable(span), "bold"), "  ", printable(number), "  ",
                                 (printable(what), _STEP_STYLES.get(step.change, "")), "  ",
                                 (printable(f"({step.record.id})"), "dim"))
            out.append(_Hanging(head, 2, 4))
            if step.change != "lost" and step.diff:
                out.append(_Hanging(diff_marked(step.diff), 4))
            elif (text := step_text(step)) is not None:
                out.append(_Hanging(_text(text), 4))
        for record in lineage.linked:
            out.append(_Hanging(_text(linked_line(record), style="magenta"), 2, 4))
        out.append(Text(""))
    console.print(Group(*out))


_SIGN_STYLES = {"+": "bold green", "-": "bold red", "~": "bold yellow"}


def render_changes_between(console: Console, found) -> None:
    """plain.changes_between_lines on a terminal: each change wrapped at word boundaries, its
    text under its name."""
    # lazy: only the output form asked for
    from rulebase.cli.plain import between_title, change_parts, changes_between_lines

    if not _rich(console):
        _print_lines(console, changes_between_lines(found))
        return
    out: list = [_Hanging(_text(between_title(found), style="bold"), 0, 4)]  # one print: rich's cost is per call
    for change in found.changes:
        sign, name, what, rid = change_parts(change)
        head = Text.assemble((sign, _SIGN_STYLES[sign]), " ", (printable(name), "bold"), "  ", printable(what),
                             "  ", (printable(f"({rid})"), "dim"))
        out.append(_Hanging(head, 0, 2))
        if sign == "~" and change.diff:
            out.append(_Hanging(diff_marked(change.diff), 4))
    console.print(Group(*out))
