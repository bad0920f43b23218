"""What every reader of a tournament document gives the section finder: units of text in order.

A unit is one paragraph, list item, table cell or heading as the file prints it: its text with
spacing folded, the source lines its words stand on (so a record knows its lines, and the
coverage test can check that every line is placed), and the few marks the section finder reads
(a heading, bold, a link to the contents, a penalty set to the right of a heading in the PDF).
Lines a reader sets aside (the app's date stamp, repeated page titles and page numbers) are kept
by kind with their line numbers: counted, never silently dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

STAMP = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}$")  # the app's date stamp on a file's first line ('2016-00-21')


@dataclass(slots=True)
class Unit:
    text: str
    lines: list[int]  # 1-based source lines holding its words, ascending
    heading: int = 0  # 1-6: a heading of that level (HTML h1-h6, Markdown #s); 0: body text
    bold: bool = False  # every word is bold (a heading in a file that marks headings so)
    link: bool = False  # every word is an internal link (a contents entry)
    item: bool = False  # a list item
    right: bool = False  # set to the right of a heading line (the IPG's penalty in the PDF)
    indent: int = 0  # the PDF's left position of its first line (0 elsewhere)
    gap: int = 0  # the PDF's space above it, in pixels (0 elsewhere)


@dataclass(slots=True)
class Read:
    """A file read into units, what was set aside (kind -> line numbers), and the first
    line's text (the app's stamp, evidence of when the app took the file)."""

    units: list[Unit]
    aside: dict[str, list[int]] = field(default_factory=dict)
    stamp: str | None = None
    titles: list[str] = field(default_factory=list)  # the page titles set aside (the PDF's file name)

    def set_aside(self, kind: str, line: int) -> None:
        self.aside.setdefault(kind, []).append(line)


def fold(text: str) -> str:
    """Spacing folded: runs of white space (non-breaking too) are one space."""
    return " ".join(text.split())


def first_line_stamp(text: str) -> str | None:
    """The app's date stamp when the file's first line is one ('2016-00-21'), else None."""
    first = text.split("\n", 1)[0].strip()
    return first if STAMP.match(first) else None
