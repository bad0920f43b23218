"""Tournament documents as Markdown (the IPG of 2018-2019, converted from the PDF) and as plain text
copied out of the PDF (what a user pastes into a file and gives `rulebase add`).

Markdown: one paragraph a line, '#' headings (the IPG's infraction headings carry their penalty
at the end: 'Missed Trigger No Penalty'), '- ' list items, **bold** and _emphasis_ marks, which
are markup, not text. A paragraph broken by a page ('... Awareness of the resulting' / 'the
resulting objects ...') is joined again.

Plain text from a PDF: hard-wrapped lines, a blank line (or none) between paragraphs, page
numbers alone on a line and the document's title repeated at the top of pages, both set aside
and counted. A heading is a short line that numbers a section ('2.2 Play/Draw Rule', '2.1. Game
Play Error — Missed Trigger Warning'), names a part of an infraction ('Definition') or stands in
capitals.
"""

from __future__ import annotations

import re

from rulebase.ingest.tournament.dating import printed
from rulebase.ingest.tournament.units import Read, Unit, first_line_stamp, fold

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_MD_ITEM = re.compile(r"^\s*[-*+]\s+(.*)$")
_MD_MARKS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_ENDS = re.compile(r"[.:;!?\"\u201d)\]]$")


def read_markdown(text: str) -> Read:
    """Units of a Markdown tournament document (see the module docstring)."""
    out = Read([], stamp=first_line_stamp(text))
    for no, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        if no == 1 and out.stamp is not None:
            out.set_aside("app date stamp", 1)
            continue
        heading = _MD_HEADING.match(line)
        item = _MD_ITEM.match(line)
        body = heading[2] if heading else item[1] if item else line
        words = fold(_MD_MARKS.sub("", _MD_LINK.sub(r"\1", body)))
        if not words:
            out.set_aside("markup", no)
            continue
        capitals = not heading and not item and _capitals(words)  # 'APPENDIX A — PENALTY QUICK REFERENCE'
        unit = Unit(words, [no], heading=len(heading[1]) if heading else 3 if capitals else 0, item=bool(item))
        prev = out.units[-1] if out.units else None
        if (prev is not None and not unit.heading and not prev.heading and not unit.item
                and words[:1].islower() and not _ENDS.search(prev.text)):
            prev.text = fold(f"{prev.text} {words}")  # a paragraph the PDF's page broke
            prev.lines.append(no)
            continue
        out.units.append(unit)
    return out


_PAGE_NUMBER = re.compile(r"^(?:page\s+)?\d{1,3}(?:\s+of\s+\d{1,3})?$", re.IGNORECASE)
_NUMBERED = re.compile(r"^(?:\d{1,2}\.(?:\d{1,2}\.?)?\s|Appendix\s+[A-Z](?![a-z]))\s*\S")
_PARTS = re.compile(r"^(?:Definition|Examples?|Philosophy|Additional Remedy|Upgrade)\s*$")
_ITEM = re.compile(r"^(?:[A-Z]\.|\d{1,2}\.|[•·\u2022\u25aa\u25cf\uf0b7-])\s")
_TITLE = re.compile(r"^[A-Z][a-z]+(?:-[A-Z][a-z]+)*(?: (?:[A-Z][a-z]+(?:-[A-Z][a-z]+)*|of|and|the|to|in|for))*$")  # capitalised words, no full stop


def read_text(text: str) -> Read:
    """Units of a tournament document copied from its PDF as plain text (see the module docstring)."""
    out = Read([], stamp=first_line_stamp(text))
    lines = text.split("\n")
    counts: dict[str, int] = {}
    for line in lines:
        key = fold(line)
        if key:
            counts[key] = counts.get(key, 0) + 1
    title = next((fold(line) for line in lines if fold(line) and not first_line_stamp(line)), "")
    blank = True
    for no, line in enumerate(lines, 1):
        words = fold(line)
        if not words:
            blank = True
            continue
        if no == 1 and out.stamp is not None:
            out.set_aside("app date stamp", 1)
            continue
        if _PAGE_NUMBER.match(words):
            out.set_aside("page number", no)
            continue
        if words == title and counts[words] > 1 and out.units:
            out.set_aside("repeated page title", no)
            continue
        heading = _heading(words)
        if not out.units or printed(words, no) is not None:  # the title, a date line: lines of their own
            out.units.append(Unit(words, [no], heading=3 if not out.units else 0))
            blank = False
            continue
        prev = out.units[-1] if out.units else None
        if prev is not None and not blank and not heading and not prev.heading and not _ITEM.match(words):
            glue = "" if prev.text.endswith("-") and words[:1].islower() else " "
            prev.text = fold(prev.text + glue + words)
            prev.lines.append(no)
        elif prev is not None and blank and not heading and not prev.heading and words[:1].islower() \
                and not _ENDS.search(prev.text) and not _ITEM.match(words):
            prev.text = fold(f"{prev.text} {words}")  # a paragraph a page break split
            prev.lines.append(no)
        else:
            out.units.append(Unit(words, [no], heading=3 if heading else 0, item=bool(_ITEM.match(words))))
        blank = False
    return out


def _heading(words: str) -> bool:
    """A line that heads: a numbered section's title, an infraction's part, a line in capitals."""
    if _PARTS.match(words):
        return True
    if _NUMBERED.match(words) and len(words.split()) <= 14 and not re.search(r"[.,;:!?\"\u201d]$", words):
        first, _, rest = words.partition(" ")
        # '2.2 Play/Draw Rule', '2. Tournament Mechanics'; not a list's '1. Match points'
        return "." in first.rstrip(".") or not first[:1].isdigit() or bool(_TITLE.match(rest.strip()))
    if _TITLE.match(words) and len(words.split()) <= 5:  # 'Common Issues': a named section's title
        return True
    return _capitals(words)


def _capitals(words: str) -> bool:
    """A short line in capitals: a heading in a file that marks none."""
    letters = [c for c in words if c.isalpha()]
    return (len(words.split()) <= 14 and not words.endswith((".", ",", ";")) and len(letters) >= 4
            and all(c.isupper() for c in letters))
