"""The tournament documents as HTML converted from the PDF (2021 on), read with BeautifulSoup.

Each page is a whole HTML document of its own (its <title> is the PDF's file name, repeated on
every page) holding absolutely positioned runs of text, one <p style="position:absolute;
top:Ypx;left:Xpx"> a source line, in no particular order (the page number comes first). A page's
runs are put in reading order by position and joined into visual lines (a small-capitals title
prints its capitals a few pixels higher), the lines into paragraphs by the space between them.
Page numbers at the foot of each page, the repeated page titles, and a running title at the top
of most pages are set aside and counted. The IPG prints an infraction's penalty to the right of
its heading: that run is a unit of its own, marked `right`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebase.ingest.tournament.units import Read, Unit, first_line_stamp, fold

_POS = re.compile(r"top:\s*(-?\d+)px;\s*left:\s*(-?\d+)px")
_PAGE = re.compile(r"page(\d+)-div")
_NUMBERED = re.compile(r"^\d{1,2}(?:\.\d{1,2})+\.?$")  # '2.2', '2.4.': a heading's number, set apart by a tab
_NUMBERED_LINE = re.compile(r"^\d{1,2}(?:\.\d{1,2})+\.?\s+[A-Z]")  # '1.10  Players': number and title in one run
_FOOT = 1000  # runs this far down a page are its foot (the page number)
_HEAD = 95  # ... and this near the top its head (a running title)
_SAME_LINE = 7  # pixels: runs closer than this in height are one visual line
_RIGHT = 560  # a run starting this far right, apart from the rest of a heading line: the penalty
_PARAGRAPH = 27  # pixels between lines: more than this starts a paragraph
_BR = 19  # pixels a <br/> inside a run moves down: one printed line (two for an empty one: a paragraph)
_IMAGE = re.compile(r"(<img\b[^>\n]*?src=\"data:)[^\"\n]*(\")")
_FONT = re.compile(r"\.(ft\d+)\{font-size:(\d+)px")


@dataclass(slots=True)
class _Run:
    page: int
    top: int
    left: int
    text: str
    bold: bool
    line: int
    size: int = 0  # font size (px) of its class in the page's stylesheet


@dataclass(slots=True)
class _Line:
    runs: list[_Run]
    text: str
    bold: bool
    heading: bool


def read(text: str) -> Read:
    """Units of a PDF-converted tournament document (see the module docstring)."""
    # lazy: BeautifulSoup (~60 ms to import) only where a document is parsed
    from bs4 import BeautifulSoup

    out = Read([], stamp=first_line_stamp(text))
    if out.stamp is not None:
        out.set_aside("app date stamp", 1)
    soup = BeautifulSoup(_IMAGE.sub(r"\1\2", text), "html.parser",  # (a page's picture holds no text)
                         multi_valued_attributes=None)  # (class as one string: faster)
    for title in soup.find_all("title"):
        if title.get_text().strip():
            out.set_aside("page title", title.sourceline or 1)
            out.titles.append(fold(title.get_text()))
    sizes = {m[1]: int(m[2]) for m in _FONT.finditer(text)}
    runs: list[_Run] = []
    for p in soup.find_all("p"):
        found = _POS.search(str(p.get("style") or ""))
        if found is None or not p.get_text():
            continue  # (a run of spaces is kept: it spaces the words beside it)
        number, node = 0, p.parent
        while node is not None:
            if node.name == "div" and (page := _PAGE.search(str(node.get("id") or ""))):
                number = int(page[1])
                break
            node = node.parent
        size = max((sizes.get(c, 0) for c in str(p.get("class") or "").split()), default=0)
        for k, (words, bold) in enumerate(_segments(p)):
            if words:
                runs.append(_Run(number, int(found[1]) + k * _BR, int(found[2]), words, bold, p.sourceline or 0, size))
    runs = _set_aside_furniture(runs, out)
    lines = _visual_lines(runs)
    out.units = _paragraphs(lines)
    return out


def _segments(p) -> list[tuple[str, bool]]:
    """A run's text split at its <br/>s (one converter puts a whole paragraph in one run), each
    with whether all of it is bold."""
    # lazy: BeautifulSoup (~60 ms to import) only where a document is parsed
    from bs4 import NavigableString, Tag

    out: list[tuple[str, bool]] = []
    words: list[str] = []
    bold: list[bool] = []

    def close() -> None:
        text = "".join(words)
        out.append((text, bool(bold) and all(bold)))
        words.clear()
        bold.clear()

    for node in p.descendants:
        if isinstance(node, Tag) and node.name == "br":
            close()
        elif isinstance(node, NavigableString):
            words.append(str(node))
            if str(node).strip():
                up, strong = node.parent, False
                while up is not None and up is not p.parent:
                    if up.name in ("b", "strong"):
                        strong = True
                        break
                    up = up.parent
                bold.append(strong)
    close()
    return out


def _set_aside_furniture(runs: list[_Run], out: Read) -> list[_Run]:
    """Drop page numbers (a number alone at a page's foot) and a running title (the same words at
    the top of at least half the pages, three or more), setting their lines aside. A heading that
    happens to open a few pages ('Philosophy', an example's letter 'D.', a small-capitals 'C') is
    text: the IPGs of 2021-2024 lost such headings to a looser test."""
    heads: dict[str, list[_Run]] = {}
    for run in runs:
        if run.top < _HEAD:
            heads.setdefault(fold(run.text), []).append(run)
    pages = len({r.page for r in runs})
    repeated = {id(r) for group in heads.values() if len({r.page for r in group}) >= max(3, (pages + 1) // 2)
                for r in group[1:]}
    kept = []
    for run in runs:
        if not run.text.strip():
            kept.append(run)
        elif run.top >= _FOOT and fold(run.text).isdigit():
            out.set_aside("page number", run.line)
        elif id(run) in repeated:
            out.set_aside("repeated page title", run.line)
        else:
            kept.append(run)
    return kept


def _joined(runs: list[_Run]) -> str:
    """A visual line's runs as text: a space where two runs meet with none between them,
    except a small-capitals word ('M' + 'AGIC', printed a few pixels apart in height)."""
    parts: list[str] = []
    for n, run in enumerate(runs):
        if n:
            prev = runs[n - 1]
            small_caps = len(prev.text.strip()) == 1 and prev.text.strip().isupper() and prev.top != run.top
            if not small_caps and not prev.text[-1:].isspace() and not run.text[:1].isspace() \
                    and run.left - prev.left > 11 * len(prev.text) + 6:
                parts.append(" ")
        parts.append(run.text)
    return fold("".join(parts))


def _visual_lines(runs: list[_Run]) -> list[_Line]:
    weight: dict[int, int] = {}
    for run in runs:
        weight[run.size] = weight.get(run.size, 0) + len(run.text)
    body = max(weight, key=weight.get) if weight else 0  # the body text's font size
    groups = _columns(_lines_of(runs))
    lines: list[_Line] = []
    for group in groups:
        visible = [r for r in group if r.text.strip()]
        if not visible:
            continue
        bold = all(r.bold for r in visible)
        # a penalty printed at the right of a bold heading: a line of its own
        if bold and len(visible) > 1 and visible[-1].left >= _RIGHT and visible[0].left < _RIGHT - 200:
            rest = [r for r in group if r.left < visible[-1].left]
            lines.append(_Line(rest, _joined(rest), True, True))
            lines.append(_Line([visible[-1]], fold(visible[-1].text), True, True))
            continue
        first = fold(visible[0].text) if visible else ""
        tabbed = bool(_NUMBERED.match(first)) and len(visible) > 1 and visible[1].left - visible[0].left >= 40
        text = _joined(group)
        tabbed = tabbed or bool(_NUMBERED_LINE.match(text))
        larger = body > 0 and max(r.size for r in visible) >= body + 4 and len(text.split()) <= 14
        heading = bold or larger or (tabbed and len(text.split()) <= 14 and not text.endswith("."))
        lines.append(_Line(group, text, bold, heading))
    return lines


_COLUMN_GAP = 200  # pixels between two bullets on one line: a list set in two columns
_INDENTED = 100  # a list's lines start right of this (its bullets and wrapped items; a paragraph at 81)


def _columns(groups: list[list[_Run]]) -> list[list[_Run]]:
    """A list the PDF sets in two columns (the MTR's sets legal in a format, its banned cards) read
    column by column: the runs of each line of the list left of the second column's bullet first,
    then those right of it. Else a line joined the two columns' items ('• Eighth Edition • Fate
    Reforged') and an item wrapped in one column broke into the other's."""
    out: list[list[_Run]] = []
    k = 0
    while k < len(groups):
        split = _second_bullet(groups[k])
        if split is None:
            out.append(groups[k])
            k += 1
            continue
        block = [groups[k]]
        k += 1
        while k < len(groups) and groups[k][0].page == block[0][0].page and _indented(groups[k]):
            block.append(groups[k])
            k += 1
        for column in ([r for g in block for r in g if r.left < split], [r for g in block for r in g if r.left >= split]):
            out += [g for g in _lines_of(column) if any(r.text.strip() for r in g)]
    return out


def _lines_of(runs: list[_Run]) -> list[list[_Run]]:
    """Runs grouped into visual lines by height (a column's own lines: its bullet and its item,
    a pixel apart, are one line whatever the other column's heights), each sorted by position."""
    groups: list[list[_Run]] = []
    for run in sorted(runs, key=lambda r: (r.page, r.top, r.left)):
        if groups and groups[-1][0].page == run.page and run.top - groups[-1][0].top < _SAME_LINE:
            groups[-1].append(run)
        else:
            groups.append([run])
    for group in groups:
        group.sort(key=lambda r: r.left)
    return groups


def _second_bullet(group: list[_Run]) -> int | None:
    bullets = [r.left for r in group if r.text.strip() == "\u2022"]
    return bullets[1] - 5 if len(bullets) >= 2 and bullets[1] - bullets[0] > _COLUMN_GAP else None


def _indented(group: list[_Run]) -> bool:
    visible = [r for r in group if r.text.strip()]
    return bool(visible) and visible[0].left > _INDENTED


_ITEM = re.compile(r"^(?:[A-Z]\.|\d{1,2}\.|[•·\u2022\u25aa\u25cf\uf0b7-])\s")


def _paragraphs(lines: list[_Line]) -> list[Unit]:
    """Visual lines joined into paragraphs: a line continues the paragraph above it when it
    follows closely (or opens a page after an unfinished sentence) and neither is a heading nor
    it a list item ('A.', '1.', a bullet)."""
    units: list[Unit] = []
    prev: _Line | None = None
    for line in lines:
        first = line.runs[0]
        if (prev is not None and units and line.heading and prev.heading and line.bold and prev.bold
                and line.text[:1].islower() and first.page == prev.runs[0].page
                and 0 < first.top - prev.runs[0].top <= _PARAGRAPH and not units[-1].right):
            units[-1].text = fold(f"{units[-1].text} {line.text}")  # a heading the page wrapped
            units[-1].lines = sorted({*units[-1].lines, *(r.line for r in line.runs if r.text.strip())})
            prev = line
            continue
        if prev is not None and units and not line.heading and not prev.heading and not _ITEM.match(line.text):
            last = prev.runs[0]
            close = first.page == last.page and 0 < first.top - last.top <= _PARAGRAPH
            turned = first.page == last.page + 1 and not re.search(r"[.:;!?\"\u201d)]$", prev.text)
            right = prev.runs[0].left >= _RIGHT and not prev.heading
            if (close or turned) and not right:
                unit = units[-1]
                glue = "" if unit.text.endswith("-") and line.text[:1].islower() else " "
                unit.text = fold(unit.text + glue + line.text)
                unit.lines = sorted({*unit.lines, *(r.line for r in line.runs if r.text.strip())})
                prev = line
                continue
        gap = first.top - prev.runs[0].top if prev is not None and prev.runs[0].page == first.page else 99
        right = len(line.runs) == 1 and line.heading and first.left >= _RIGHT
        units.append(Unit(line.text, sorted({r.line for r in line.runs if r.text.strip()}),
                          heading=3 if line.heading else 0, bold=line.bold,
                          item=not line.heading and bool(_ITEM.match(line.text)),
                          right=right, indent=first.left, gap=gap))
        prev = line
    return units
