"""What each wrapped line of a forum-posted rulebook is, and whether a paragraph ends before it.

The text is hard-wrapped at ~80 columns with no blank lines, so paragraphs are found by line shape:
a paragraph ends at a line ending in sentence punctuation that is clearly short (the next line's
first word would have fitted on it, less a few columns of slack because the 5th Edition lost its
paragraph indents), or where the next line starts a heading, bullet, term entry or inserted block.
Shapes and widths are judged on the text with forum BBCode taken out.
"""

from __future__ import annotations

import re

from rulebase.ingest.rulebooks.markup import strip_bbcode

END_PUNCT = re.compile(r"[.!?:][\"')\]_]*-?$")
CAPS_HEADING = re.compile(r"^[A-Z0-9][A-Z0-9 ,'&:!?/\-]*$")
EQ_HEADING = re.compile(r"^=(.+)=$")
SECTION = re.compile(r"^Section [IVX]+: \S.*$")
BOLD_LINE = re.compile(r"^_([^_]+)_(?:\s*\(([^)]+)\))?$")
BULLET = re.compile(r"^\* ")
NUMBERED = re.compile(r"^(\d+)\. ")
TERM_ENTRY = re.compile(r"^(?:<\w+>\s*)?(?:-[^\s\-][^-]*?(?:-:|[:.,]-)|_[^_]+?:_)(?:\s|$)")
LABEL_ENTRY = re.compile(r"^[A-Z][a-z]+(?: [A-Z][a-z]+){0,2}: [A-Z\"]")
DASHED_LINE = re.compile(r"^--\S.*--$")
EXAMPLE_START = re.compile(r"^_?(?:EXAMPLE|Example):")
BOX_OPEN = re.compile(r"^<text\b[^>]*>$")
BOX_CLOSE = re.compile(r"^</text>$")
SPREAD = re.compile(r"^<twopage spread>")
UNDERLINE = re.compile(r"^-{3,}$")
QUIZ_START = re.compile(r"^(?:Quiz|Another quiz|Okay, (?:a|another) quiz)\b")
SMALL_WORDS = {"a", "an", "the", "of", "and", "or", "to", "in", "on", "for", "from", "with", "about", "at", "by"}


def first_word(text: str) -> str:
    """The first whitespace-separated word ('' for a blank line): what would have to fit on the line before."""
    parts = text.split()
    return parts[0] if parts else ""


def is_caps(t: str) -> bool:
    """An all-capitals heading line (the 4th Edition's heading style)."""
    return bool(CAPS_HEADING.match(t)) and sum(c.isalpha() for c in t) >= 3 and len(t) <= 60


def is_title_case(t: str) -> bool:
    """A short Title Case line: a heading in a book without capitals headings, if its neighbours agree."""
    if len(t) > 50 or t[-1] in ".,;:" or not t[0].isupper() or t.startswith(("*", "-", "_", "<", "[")):
        return False
    words = [w.strip("!?,'\"") for w in t.split()]
    big = [w for w in words if w and w.lower() not in SMALL_WORDS]
    return 0 < len(words) <= 6 and all(w[0].isupper() for w in big)


class LineShapes:
    """The content lines of one book (page markers left out), each with its shape.

    `raw` are the lines as posted; `texts[k]` is line k with BBCode taken out and stripped. The wrap
    `width` and `caps_mode` (the book marks headings with capitals) are judged on the raw lines.
    """

    def __init__(self, raw: list[str]) -> None:
        lengths = sorted(len(t) for t in raw if len(t) <= 85)
        self.width = lengths[-1] if lengths else 80
        self.caps_mode = sum(1 for t in raw if is_caps(t)) >= 3
        self.texts = [strip_bbcode(t)[0].strip() for t in raw]
        self.shapes = [self.shape(k) for k in range(len(self.texts))]
        self.first_width = self._first_width()

    def shape(self, k: int) -> str:
        """What the k-th content line is, judged with its neighbours."""
        t = self.texts[k]
        prev = self.texts[k - 1] if k > 0 else ""
        nxt = self.texts[k + 1] if k + 1 < len(self.texts) else ""
        if t.startswith("[") or BOX_OPEN.match(t):
            return "note"
        if BOX_CLOSE.match(t):
            return "box-close"
        if SPREAD.match(t):
            return "table"
        if EQ_HEADING.match(t):
            return "heading"
        if SECTION.match(t):
            return "section"
        if self.caps_mode and is_caps(t):
            return "heading"
        if BOLD_LINE.match(t):
            return "bold"
        if not self.caps_mode and is_title_case(t) and (not prev or END_PUNCT.search(prev) or self._marked_heading(k - 1)) \
                and nxt and (nxt[0].isupper() or nxt[0] in "_-\"") and not UNDERLINE.match(nxt):
            return "heading"
        if BULLET.match(t):
            return "bullet"
        if NUMBERED.match(t) and (not prev or END_PUNCT.search(prev)):
            return "numbered"
        if TERM_ENTRY.match(t) or DASHED_LINE.match(t) or EXAMPLE_START.match(t):
            return "entry"
        return "text"

    def _marked_heading(self, k: int) -> bool:
        t = self.texts[k]
        return bool(EQ_HEADING.match(t) or SECTION.match(t))

    def breaks(self, k: int, in_list: bool = False, first: bool = False) -> bool:
        """Does a paragraph end after content line k-1, before line k?

        The transcriber's editor wrapped at a fixed width, so a line ending in sentence punctuation
        that had room for the next word ended its paragraph. `first`: line k-1 opened a paragraph
        (indented in the original, so its room was narrower by the lost indent).
        """
        prev, t = self.texts[k - 1], self.texts[k]
        if self.shapes[k] != "text" or DASHED_LINE.match(prev):
            return True
        indented = first and k >= 2 and self.shapes[k - 2] not in ("heading", "section") \
            and not LABEL_ENTRY.match(prev)
        width = self.first_width if indented else self.width
        fits = len(prev) + 1 + len(first_word(t)) <= width
        if in_list and fits and t[:1].isupper():
            return True
        ends = bool(END_PUNCT.search(prev)) and not prev.endswith("--")
        if ends and fits:
            return True
        if t.startswith("_") and fits:
            return True
        return bool(ends and (LABEL_ENTRY.match(t) or QUIZ_START.match(t)))

    def _first_width(self) -> int:
        """Room on a paragraph's first line: narrower than `width` where indents were lost (5th Ed.)."""
        lengths = [len(self.texts[k]) for k in range(2, len(self.texts))
                   if self.shapes[k] == "text" and self.shapes[k - 1] == "text" and self.shapes[k - 2] == "text"
                   and END_PUNCT.search(self.texts[k - 1]) and len(self.texts[k - 1]) < self.width - 20
                   and not LABEL_ENTRY.match(self.texts[k])]
        return max(lengths) if len(lengths) >= 5 else self.width
