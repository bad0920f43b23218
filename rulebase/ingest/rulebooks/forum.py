"""Splitting a scraped forum thread into the rulebook copies it holds, and reconciling them.

A transcriber posted whole rulebooks into a thread, each more than once, between replies,
signatures and moderator chrome. The rulebook text is hard-wrapped and carries page markers
(`--12` ends page 12); posts are not. So a copy is found from its run of page markers, widened to
the wrapped lines around it, and everything else in the thread is chrome, counted by kind.
Signatures are learned, not listed: short lines that recur (3+ times) with at least one
occurrence outside every copy, plus the lines after them that repeat another occurrence's text.
Copies of the same book are aligned with difflib and merged so every sentence survives once.
Saved HTML is turned into text with BeautifulSoup first.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter
from dataclasses import dataclass, field

from rulebase.core.records import fold_space

PAGE_MARK = re.compile(r"^--([0-9]{1,3}|[ivxlc]{1,6})\s*$")
MOD_CHROME = {"Private Mod Note", "():", "Rollback Post to RevisionRollBack", "ATTACHMENTS"}
POST_TITLE = re.compile(r"^(?:\d+(?:st|nd|rd|th)|Fourth|Fifth|Sixth|Revised)\s+Edition(?:\s+Part\s+\w+)?\s*$", re.I)
SEPARATOR = re.compile(r"^-{20,}\s*$")
WRAPPED_MAX = 100  # rulebook lines are wrapped near 80 columns; posts are single long lines
SIGNATURE_MAX = 80
EDITION_WORDS = {"4": "4e", "fourth": "4e", "5": "5e", "fifth": "5e", "6": "6e", "sixth": "6e"}
COPYRIGHT_YEARS = {"1995": "4e", "1997": "5e", "1999": "6e"}


@dataclass(frozen=True, slots=True)
class Line:
    no: int  # 1-based line number in the decoded source
    text: str


@dataclass(slots=True)
class Copy:
    lines: list[Line]  # rulebook lines and page markers, chrome removed
    start: int
    end: int
    title: str | None = None
    holes: dict[int, tuple[int, int]] = field(default_factory=dict)  # index -> chrome lines removed there


@dataclass(slots=True)
class Book:
    copies: list[Copy]
    part: str | None = None
    lines: list[Line] = field(default_factory=list)  # reconciled text
    notes: list[str] = field(default_factory=list)
    set_aside: Counter = field(default_factory=Counter)
    requests: list[Line] = field(default_factory=list)  # replies asking for a missing part


@dataclass(slots=True)
class Thread:
    books: list[Book]
    lines: list[str]


def is_mark(text: str) -> bool:
    return bool(PAGE_MARK.match(text))


def mark_label(text: str) -> str:
    match = PAGE_MARK.match(text)
    return match.group(1) if match else ""


def html_to_text(html: str) -> str:
    """Saved HTML page to plain lines: <br> and block elements become line breaks."""
    # lazy: BeautifulSoup (~150 ms) only for forum threads
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "head"]):
        tag.decompose()
    for br in soup.find_all("br"):
        br.replace_with("\n")
    blocks = ("p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "section", "article")
    for tag in soup.find_all(blocks):
        tag.insert_before("\n")
        tag.insert_after("\n")
    text = soup.get_text()
    return "\n".join(line.rstrip() for line in text.split("\n") if line.strip())


def looks_like_html(text: str) -> bool:
    head = text.lstrip()[:500].lower()
    return head.startswith("<") and any(t in head for t in ("<html", "<!doctype", "<body", "<div", "<p", "<br"))


def _is_underline(lines: list[str], i: int) -> bool:
    """A dash line under a heading of the same length is a table underline, not a forum separator."""
    return i > 0 and len(lines[i].strip()) == len(lines[i - 1].strip()) and not is_mark(lines[i - 1])


def _mark_value(label: str) -> tuple[int, int]:
    return (1, int(label)) if label.isdigit() else (0, 0)


def _runs(lines: list[str]) -> list[list[int]]:
    """Runs of page-marker line indexes; a run ends where the page sequence starts again."""
    runs: list[list[int]] = []
    last: tuple[int, int] | None = None
    for i, text in enumerate(lines):
        if not is_mark(text):
            continue
        value = _mark_value(mark_label(text))
        if last is None or value < last or (value == last and value[0] == 1):
            runs.append([i])
        else:
            runs[-1].append(i)
        last = value
    return runs


class _Chrome:
    """Decides which lines are forum chrome and what kind."""

    def __init__(self, lines: list[str], spans: list[tuple[int, int]]) -> None:
        self.lines = lines
        self.inside = inside = [False] * len(lines)
        for start, end in spans:
            for i in range(start, end + 1):
                inside[i] = True
        counts = Counter(t.strip() for t in lines)
        outside = Counter(lines[i].strip() for i in range(len(lines)) if not inside[i])
        self.anchors = {t for t, n in counts.items() if n >= 3 and outside[t] and t
                        and len(t) <= SIGNATURE_MAX and not is_mark(t) and t not in MOD_CHROME}
        self.kind: dict[int, str] = {}
        for i, text in enumerate(lines):
            t = text.strip()
            if t in MOD_CHROME or (SEPARATOR.match(t) and not _is_underline(lines, i)):
                self.kind[i] = "mod-chrome"
            elif t in self.anchors:
                self.kind[i] = "signature"

    def _neighbourhood(self, i: int) -> str:
        out = []
        for j in range(i + 1, min(i + 6, len(self.lines))):
            t = self.lines[j].strip()
            if len(t) > WRAPPED_MAX or t in MOD_CHROME or is_mark(t) or self.inside[j]:
                break
            out.append(t)
        return fold_space(" ".join(out))

    def extend_signatures(self, copies: list[Copy]) -> None:
        """Lines after a signature anchor that repeat text found after another occurrence of it.

        Run after the copies are delimited: a line a copy claimed is never a signature line.
        """
        for copy in copies:
            for i in range(copy.start, copy.end + 1):
                self.inside[i] = True
        where: dict[str, list[int]] = {}
        for i, kind in self.kind.items():
            if kind == "signature" and not self.inside[i]:
                where.setdefault(self.lines[i].strip(), []).append(i)
        for places in where.values():
            # each neighbourhood once, identical ones counted: per-anchor lists of the others are quadratic
            hoods = [self._neighbourhood(i) for i in places]
            distinct = Counter(hoods)
            for i, own in zip(places, hoods, strict=True):
                j = i + 1
                while j < len(self.lines) and j not in self.kind and not self.inside[j]:
                    t = fold_space(self.lines[j])
                    others = (o for o, n in distinct.items() if n > (o == own))  # own text only if repeated
                    if not t or not any(t in o for o in others) or is_mark(t) or POST_TITLE.match(t):
                        break
                    self.kind[j] = "signature"
                    j += 1

    def is_chrome(self, i: int) -> bool:
        return i in self.kind or bool(POST_TITLE.match(self.lines[i].strip()))


def _book_lines(lines: list[str], chrome: _Chrome, run: list[int], lo: int, hi: int) -> Copy:
    """Widen a run of page markers to the wrapped rulebook lines before and after it."""
    start = run[0]
    while start - 1 >= lo and not chrome.is_chrome(start - 1) and len(lines[start - 1]) <= WRAPPED_MAX \
            and lines[start - 1].strip():
        start -= 1
    end = run[-1]
    while end + 1 <= hi and not chrome.is_chrome(end + 1) and len(lines[end + 1]) <= WRAPPED_MAX \
            and lines[end + 1].strip():
        end += 1
    title = None
    if start - 1 >= lo and POST_TITLE.match(lines[start - 1].strip()):
        title = lines[start - 1].strip()
    copy = Copy([], start, end, title)
    hole: list[int] = []
    for i in range(start, end + 1):
        if chrome.is_chrome(i):
            hole.append(i)
            continue
        if hole:
            copy.holes[len(copy.lines)] = (hole[0] + 1, hole[-1] + 1)
            hole = []
        if lines[i].strip():
            copy.lines.append(Line(i + 1, lines[i].rstrip()))
    return copy


def _same_book(a: Copy, b: Copy) -> bool:
    ta = [ln.text for ln in a.lines[:150]]
    tb = [ln.text for ln in b.lines[:150]]
    return difflib.SequenceMatcher(None, ta, tb, autojunk=False).ratio() > 0.6


def _identify(book: Book, text: str) -> str | None:
    for copy in book.copies:
        if copy.title:
            m = re.match(r"(\d+|fourth|fifth|sixth)", copy.title, re.I)
            if m and m.group(1).lower() in EDITION_WORDS:
                return EDITION_WORDS[m.group(1).lower()]
    body = "\n".join(ln.text for ln in book.copies[0].lines)
    m = re.search(r"\(C\)\s*(\d{4})", body)
    return COPYRIGHT_YEARS.get(m.group(1)) if m else None


def reconcile(book: Book) -> None:
    """Merge the copies: identical lines once, wrapped lines preferred, extra lines kept."""
    base = book.copies[0]
    merged = list(base.lines)
    for n, other in enumerate(book.copies[1:], 2):
        a = merged
        b = other.lines
        matcher = difflib.SequenceMatcher(None, [x.text for x in a], [x.text for x in b], autojunk=False)
        out: list[Line] = []
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            left, right = a[i1:i2], b[j1:j2]
            if op == "equal":
                out.extend(left)
                book.set_aside["duplicate-copy"] += len(right)
                continue
            fl = fold_space(" ".join(x.text for x in left))
            fr = fold_space(" ".join(x.text for x in right))
            where = _span(left) if left else f"after line {a[i1 - 1].no}" if i1 else "at the start"
            if op == "insert":
                why = _hole_note(base, i1)
                out.extend(right)
                book.notes.append(f"copy {n} has {_span(right)} ({_quote(fr)}) that copy 1 lacks {where}{why}: kept")
            elif op == "delete":
                out.extend(left)
                book.notes.append(f"copy 1 has {where} ({_quote(fl)}) that copy {n} lacks: kept")
            elif fl == fr:
                use, drop = (right, left) if len(right) > len(left) else (left, right)
                out.extend(use)
                book.set_aside["duplicate-copy"] += len(drop)
                book.notes.append(f"{_span(left)} of copy 1 and {_span(right)} of copy {n} differ only in wrapping: "
                                  f"used the wrapped {_span(use)}")
            elif fr.startswith(fl) or fl in fr:
                out.extend(right)
                book.set_aside["duplicate-copy"] += len(left)
                book.notes.append(f"copy {n} {_span(right)} extends copy 1 {_span(left)}: used copy {n}")
            elif fl.startswith(fr) or fr in fl:
                out.extend(left)
                book.set_aside["duplicate-copy"] += len(right)
                book.notes.append(f"copy 1 {_span(left)} extends copy {n} {_span(right)}: used copy 1")
            else:
                out.extend(left)
                book.set_aside["duplicate-copy"] += len(right)
                book.notes.append(f"copies differ: kept copy 1 {_span(left)}; copy {n} {_span(right)} reads "
                                  f"{_quote(fr, 200)}")
        merged = out
    book.lines = merged


def _span(lines: list[Line]) -> str:
    if not lines:
        return "no lines"
    return f"line {lines[0].no}" if len(lines) == 1 else f"lines {lines[0].no}-{lines[-1].no}"


def _quote(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def _hole_note(copy: Copy, index: int) -> str:
    for at, (first, last) in copy.holes.items():
        if abs(at - index) <= 1:
            return f" (copy 1 has forum chrome at lines {first}-{last} there: the line was lost under it)"
    return ""


@functools.lru_cache(maxsize=8)
def split_thread(text: str) -> Thread:
    """The rulebooks in a forum thread, each with its copies reconciled. Cached: parts share one split."""
    if looks_like_html(text):
        text = html_to_text(text)
    lines = text.split("\n")
    runs = _runs(lines)
    chrome = _Chrome(lines, [(r[0], r[-1]) for r in runs])
    copies: list[Copy] = []
    for k, run in enumerate(runs):
        lo = copies[-1].end + 1 if copies else 0
        hi = runs[k + 1][0] - 1 if k + 1 < len(runs) else len(lines) - 1
        copies.append(_book_lines(lines, chrome, run, lo, hi))
    chrome.extend_signatures(copies)
    books: list[Book] = []
    owner: list[int | None] = [None] * len(lines)
    for copy in copies:
        # the index is kept, not searched for afterwards: `copy in b.copies` compares whole copies (quadratic)
        index = next((n for n, book in enumerate(books) if _same_book(book.copies[0], copy)), len(books))
        if index == len(books):
            books.append(Book([copy]))
        else:
            books[index].copies.append(copy)
        for i in range(copy.start, copy.end + 1):
            owner[i] = index
    # chrome belongs to the book whose copy it follows (leading chrome to the first book)
    current = 0
    for i, line in enumerate(lines):
        if owner[i] is not None:
            current = owner[i]
            if chrome.is_chrome(i):
                books[current].set_aside[_kind(chrome, i)] += 1
            continue
        if not line.strip() or not books:
            continue
        books[current].set_aside[_kind(chrome, i)] += 1
        if re.search(r"\bpart\s*(?:2|two|ii)\b", line, re.I) and not chrome.is_chrome(i):
            for book in books:
                book.requests.append(Line(i + 1, line))
    for book in books:
        book.part = _identify(book, text)
        reconcile(book)
    return Thread(books, lines)


def _kind(chrome: _Chrome, i: int) -> str:
    if i in chrome.kind:
        return chrome.kind[i]
    if POST_TITLE.match(chrome.lines[i].strip()):
        return "post-title"
    return "reply"


def book_for(thread: Thread, part: str | None) -> Book | None:
    """The book for a manifest part; unidentified books take the parts left over, in thread order."""
    for book in thread.books:
        if book.part == part:
            return book
    known = {b.part for b in thread.books if b.part}
    loose = [b for b in thread.books if not b.part]
    wanted = sorted(p for p in EDITION_WORDS.values() if p not in known)
    if part in wanted and loose:
        index = wanted.index(part)
        return loose[index] if index < len(loose) else None
    return None
