"""The terminal: a Console that lets no control character through, lines wrapped at word
boundaries, highlight marks, paging through less, and the build's progress: what the
renderers (render.py, render_changes.py) print through.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

from rich.console import Console
from rich.pager import Pager
from rich.segment import Segment
from rich.text import Text

from rulebase.cli.views.plain import CONTROL, printable
from rulebase.search.hits import MARK_CLOSE, MARK_OPEN

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


WIDTHS = (20, 500)  # columns: COLUMNS=0 printed nothing, COLUMNS=100000 padded `define` to 10 MB
HEIGHTS = (5, 10_000)  # lines: LINES=0 paged a one-line answer


def sized(console: Console) -> Console:
    """The console with its width and height (COLUMNS and LINES, else the terminal's) held
    within sane bounds."""
    width, height = console.size
    console.size = (min(max(width, WIDTHS[0]), WIDTHS[1]), min(max(height, HEIGHTS[0]), HEIGHTS[1]))
    return console


def make_console(stderr: bool = False) -> Console:
    # emoji=False: record text is shown as written (':x:' is not an emoji code in a rules text)
    return sized(SafeConsole(stderr=stderr, highlight=False, soft_wrap=False, emoji=False))


def cell(value, style: str = "") -> Text:
    """Data as a Text cell or title: never parsed as markup ('[/x]' in a query or a rules text
    would raise), control characters escaped before rich measures the width."""
    return Text(printable(str(value)), style=style)


def styled(console: Console) -> bool:
    return console.is_terminal and not console.no_color


class Hanging:
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


def print_line(console: Console, line: str, style: str = "", hang: int = 2, soft_wrap: bool = True) -> None:
    """A line of the plain layout: on a terminal wrapped at word boundaries, its continuation
    indented `hang` cells past the line's own indent (`style` unless NO_COLOR); piped, printed
    as before (`soft_wrap` as the caller always passed it: piped output stays byte for byte
    what it was)."""
    if not console.is_terminal:
        console.print(line, markup=False, soft_wrap=soft_wrap, style=style or None)
        return
    body = line.lstrip(" ")
    console.print(Hanging(cell(body, style=style if styled(console) else ""), len(line) - len(body), hang))


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


def print_lines(console: Console, lines: list[str]) -> None:
    """The plain layout's lines: piped, as they are; on a terminal (NO_COLOR), wrapped at word
    boundaries, not broken mid-word by the terminal at its right margin."""
    for line in lines:
        print_line(console, line)


STAGES = {"ingest": ("reading {total:,} sources", "read {total:,} sources"),
          "index": ("indexing {total:,} records", "indexed {total:,} records")}


def stage_text(stage: str, done: int, total: int) -> str:
    """What a build stage says: what it works on, and how far only when it reports how far (a
    stage reports its start and its end; a bar held at 0% for two minutes said nothing true)."""
    going, finished = STAGES.get(stage, (stage + " ({total:,})", stage + " done ({total:,})"))
    if done >= total:
        return "building index: " + finished.format(total=total)
    counted = f" ({done:,} of {total:,})" if done else ""
    return "building index: " + going.format(total=total) + counted


@contextmanager
def build_progress(enabled: bool = True, console: Console | None = None):
    """The build's progress on stderr: each stage (the sources read, the records indexed) with a
    spinner and the time it has taken; a no-op when piped or disabled. The display (and
    rich.progress) starts with the first report, so a command on a current index pays nothing
    for it and prints no cursor codes."""
    console = console or sized(Console(stderr=True))
    if not enabled or not console.is_terminal:
        yield None
        return
    shown: list = []
    tasks: dict[str, int] = {}

    def update(stage: str, done: int, total: int) -> None:
        if not shown:
            # lazy: rich (~40 ms) only for a terminal
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            shown.append(Progress(SpinnerColumn(finished_text="-"), TextColumn("{task.description}"),
                                  TimeElapsedColumn(), console=console, transient=True))
            shown[0].start()
        display = shown[0]
        if stage not in tasks:
            tasks[stage] = display.add_task(stage_text(stage, done, total), total=max(total, 1))
        display.update(tasks[stage], description=stage_text(stage, done, total), completed=done,
                       total=max(total, 1))

    try:
        yield update
    finally:
        if shown:
            shown[0].stop()


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
