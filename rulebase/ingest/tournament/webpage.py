"""The light HTML of the tournament documents (2013-2020): the rules pages Wizards published, the
e-book conversions and the app's own pages, read with BeautifulSoup into units.

They share no layout (headings are h1, h2, h4 or h5, or spans of class 'sectiontitle'; text
stands in <p>, <li>, table cells, or loose in <body> between empty paragraphs), so this reader
keeps only what they share: block elements and <br> end a unit, headings and bold are marked, and
each unit knows the source lines of its words. BeautifulSoup records where each tag starts
(Tag.sourceline/sourcepos with html.parser); a string's place is found from there, by its first
word, so every line of text is accounted for exactly.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from rulebase.ingest.tournament.units import Read, Unit, first_line_stamp, fold

BLOCKS = frozenset({"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "tr", "table",
                    "header", "br", "hr", "dt", "dd", "dl", "blockquote", "section", "article", "body", "html",
                    "tbody", "thead", "caption", "pre"})
HEADINGS = {f"h{n}": n for n in range(1, 7)}
HEADING_CLASSES = frozenset({"sectiontitle", "entry-title"})
# The 2013 rules pages hold a section's text in a span of its own after the title's spans.
BLOCK_SPANS = ("lblRuleTextData", "namedrule")
SKIP = frozenset({"style", "script"})


def read(text: str) -> Read:
    """Units of a light-HTML tournament document (see the module docstring)."""
    # lazy: BeautifulSoup (~60 ms to import) only where a document is parsed
    from bs4 import BeautifulSoup, Comment, Declaration, Doctype, NavigableString, ProcessingInstruction, Tag

    out = Read([], stamp=first_line_stamp(text))
    starts = [0, *(m.end() for m in re.finditer("\n", text))]
    soup = BeautifulSoup(text, "html.parser", multi_valued_attributes=None)  # (class as one string: faster)
    skipped = (Comment, Declaration, Doctype, ProcessingInstruction)

    def offset(tag: Tag) -> int:
        return starts[tag.sourceline - 1] + tag.sourcepos if tag.sourceline else 0

    def line_of(at: int) -> int:
        return bisect_right(starts, at)

    pieces: list[tuple[int, str, bool, bool, int, bool]] = []  # (line, text, bold, link, heading, item)
    state: dict = {"key": None}
    breaks = 0
    floor = 0  # no string starts before this offset (the end of the previous one)

    def flush() -> None:
        if pieces:
            words = fold("".join(p[1] for p in pieces))
            if words:
                lines = sorted({p[0] for p in pieces if p[1].strip()})
                marked = [p for p in pieces if p[1].strip()]
                out.units.append(Unit(words, lines, heading=max(p[4] for p in marked),
                                      bold=all(p[2] for p in marked), link=all(p[3] for p in marked),
                                      item=any(p[5] for p in marked)))
        pieces.clear()

    block_of: dict[int, tuple] = {}  # id(parent) -> (block, heading, bold, link, item)

    def context(parent: Tag) -> tuple:
        """The block a string's parent stands in, its heading level, and whether the string is bold
        and inside an internal link (memoised per parent)."""
        got = block_of.get(id(parent))
        if got is not None:
            return got
        block, heading, bold, link, item = None, 0, False, False, False
        node: Tag | None = parent
        while node is not None and node.name != "[document]":
            name = node.name
            if name in ("b", "strong") or (name == "span" and "bold" in (node.get("style") or "")):
                bold = True
            elif name == "a" and str(node.get("href") or "").startswith("#"):
                link = True
            elif name == "li":
                item = True
            if block is None and (name in BLOCKS or _block_span(node)):
                block = node
            if name in HEADINGS and not heading:
                heading = HEADINGS[name]
            elif not heading and HEADING_CLASSES & set(str(node.get("class") or "").split()):
                heading = 2
            node = node.parent
        got = block_of[id(parent)] = (block, heading, bold, link, item)
        return got

    for node in soup.descendants:
        if isinstance(node, Tag):
            if node.name in BLOCKS or _block_span(node):
                breaks += 1
            continue
        if not isinstance(node, NavigableString) or isinstance(node, skipped) or type(node).__name__ != "NavigableString":
            continue  # comments, doctypes, and the stylesheet and script strings
        parent = node.parent
        if parent is None or _skipped(parent):
            continue
        value = str(node)
        if parent.name == "title":  # the page's title (the PDF's file name, 'Unknown'): not the document's
            if value.strip():
                out.set_aside("page title", parent.sourceline or 1)
                out.titles.append(fold(value))
            continue
        anchor = node.previous_element
        at = floor
        while anchor is not None and not isinstance(anchor, Tag):
            anchor = anchor.previous_element
        if isinstance(anchor, Tag) and anchor.sourceline:
            at = max(at, _tag_end(text, offset(anchor)))
        first = _first_word(value)
        if first is None:  # no letter or digit: it stands where the search would begin
            found, lead = at, 0
        else:
            lead, word = first
            hit = text.find(word, at)
            found = hit if hit >= 0 else at
        base = line_of(found) - value.count("\n", 0, lead)
        floor = found + max(0, len(value) - lead) if first else at
        block, heading, bold, link, item = context(parent)
        key = (breaks, id(block))
        if key != state["key"]:
            flush()
            state["key"] = key
        parts = value.split("\n")
        for k, part in enumerate(parts):
            if part:
                pieces.append((base + k, part, bold, link, heading, item))
            if k + 1 < len(parts):
                pieces.append((base + k, " ", bold, link, heading, item))
    flush()
    if out.stamp is not None:
        out.set_aside("app date stamp", 1)
        out.units = [u for u in out.units if not (u.lines == [1] and u.text == out.stamp)]
    _page_numbers(out)
    return out


_TRAILING_NUMBER = re.compile(r"^(?P<text>.*\S)\s+(?P<page>\d{1,3})$", re.DOTALL)
_PAGE_BREAK = 3  # source lines between two paragraphs (empty ones) that a PDF's page break left


def _page_numbers(out: Read) -> None:
    """The PDF's page numbers an e-book conversion left at the end of the paragraph a page broke
    ('... when determining 19' / 'penalties. In cases ...'): set aside, and the sentence the page
    broke joined again. A number is a page's only where empty paragraphs stand between the two
    halves (a page break) and the text before it cannot end there: a comma or a sentence's end
    before it, or the next paragraph going on in lower case or as a list item ('and 3' / 'boosters
    per player' a line apart is the document's own number)."""
    units = out.units
    kept: list[Unit] = []
    k = 0
    while k < len(units):
        unit = units[k]
        nxt = units[k + 1] if k + 1 < len(units) else None
        found = _TRAILING_NUMBER.match(unit.text)
        if found and not unit.heading and nxt is not None and nxt.lines[0] - unit.lines[-1] >= _PAGE_BREAK:
            before = found["text"]
            goes_on = not nxt.heading and nxt.text[:1].islower()
            if goes_on or re.search(r"[,.:;!?)\u201d\"]$", before) or nxt.item or nxt.text.startswith("- "):
                out.set_aside("page number", unit.lines[-1])
                unit.text = before
                if goes_on:
                    unit.text = fold(f"{before} {nxt.text}")
                    unit.lines = sorted({*unit.lines, *nxt.lines})
                    k += 1
        kept.append(unit)
        k += 1
    out.units = kept


def _block_span(node) -> bool:
    if node.name != "span":
        return False
    ident = str(node.get("id") or "")
    return ident.endswith(BLOCK_SPANS[0]) or BLOCK_SPANS[1] in str(node.get("class") or "").split()


def _skipped(parent) -> bool:
    node = parent
    while node is not None:
        if node.name in SKIP:
            return True
        node = node.parent
    return False


_START_TAG = re.compile(r"""<[^\s>/]*(?:[^>"']|"[^"]*"|'[^']*')*>""")  # (one character an alternative: linear)


def _tag_end(text: str, start: int) -> int:
    """The offset just past the start tag beginning at `start` (a '>' inside quotes skipped)."""
    found = _START_TAG.match(text, start)
    return found.end() if found else start


_ALNUM = re.compile(r"[A-Za-z0-9]+")


def _first_word(value: str) -> tuple[int, str] | None:
    """(index, run) of the first run of letters and digits in `value`: characters that an HTML
    file never writes as entities, so the run is found in the source as it is."""
    found = _ALNUM.search(value)
    return (found.start(), found.group()) if found else None
