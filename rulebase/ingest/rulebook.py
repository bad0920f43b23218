"""Parser for the forum-posted rulebooks (format "forum-rulebook"): 4th Edition and 5th Edition part 1.

`forum.split_thread` finds and reconciles the copies; this module turns one book's lines into
records. The text is hard-wrapped at ~80 columns with no blank lines, so paragraphs are found by
line shape: a paragraph ends at a line ending in sentence punctuation that is clearly short (the
next line's first word would have fitted on it, less a few columns of slack because the 5th
Edition lost its paragraph indents), or where the next line starts a heading, bullet, term entry or
inserted block. A paragraph cut by an inserted block (diagram, boxed text, the tip sheet) goes on
after it when the next line starts in lower case. `--N` ENDS page N; skipped markers give a
two-page span. Words hyphenated at a line end are rejoined only when the joined word occurs
elsewhere in the book or the first part is not a known prefix (see `_dehyphenate`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from rulebase.errors import SourceError
from rulebase.ingest import forum
from rulebase.ingest.markup import LOST_SYMBOL_FLAG, canon_symbols, fold_markup, lost_symbols, strip_bbcode
from rulebase.ingest.text import Parsed, Warning_
from rulebase.records import Record, Ref, fold_space, slugify
from rulebase.sources import Source

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
PREFIXES = {"pre", "non", "anti", "multi", "self", "semi", "post", "half", "well", "one", "two", "three",
            "four", "five", "all", "co", "ex", "sub", "super", "inter", "over", "under", "stress"}
PAGE_REF = re.compile(r"(?:\"(?P<title>[^\"]+)\"(?:,\s*|\s+on\s+|\s+)|\bon\s+)?\b(?:p\.|page)\s?(?P<n>\d+|[ivx]+)\b")
GLOSS_SEE = re.compile(r"\b[Ss]ee(?: also)?\s+((?:-[^-\s][^-]*?-(?:\s*,\s*(?:and\s+)?|\s+and\s+)?)+)")
GLOSS_QUOTED = re.compile(r"\b[Ss]ee\s+\"([^\"]+)\"\s+in the glossary")


@dataclass(slots=True)
class Item:
    line: forum.Line
    pages: tuple[str, ...] = ()
    flag: str | None = None
    mark: bool = False


@dataclass(slots=True)
class Block:
    kind: str  # heading, section, sub, gloss, para, list, note, table
    items: list[int] = field(default_factory=list)  # indexes into the item sequence
    title: str | None = None
    level: int = 0
    paras: list[list[int]] = field(default_factory=list)  # glossary body / table entries
    flags: list[str] = field(default_factory=list)


def parse(text: str, source: Source) -> Parsed:
    """Records of the rulebook named by `source.part` in the forum thread `text`."""
    thread = forum.split_thread(text)
    where = str(source.path)
    if not thread.books:
        raise SourceError("no rulebook page markers (--N) found in the thread", where,
                          "check that 'format' in sources.toml matches the file")
    book = forum.book_for(thread, source.part)
    if book is None:
        found = ", ".join(b.part or "?" for b in thread.books)
        raise SourceError(f"no rulebook for part {source.part!r} in the thread (found: {found})", where,
                          "set 'part' in sources.toml to one of the parts found")
    parsed = Parsed(records=[], set_aside=Counter(book.set_aside))
    spans = ", ".join(f"{c.start + 1}-{c.end + 1}" for c in book.copies)
    parsed.notes.append(f"{len(book.copies)} copies of the {source.part} rulebook in the thread (lines {spans}), "
                        "reconciled into one text")
    parsed.notes.extend(f"reconciled: {n}" for n in book.notes)
    if len(thread.books) > 1:
        parsed.notes.append("forum chrome outside the copies is counted under the book whose copy it follows")
    _Builder(book, source, parsed, where, "\n".join(thread.lines)).run()
    return parsed


def assign_pages(lines: list[forum.Line]) -> list[Item]:
    """Every line with the page(s) it is on: the label of the next `--N` marker (a marker ends its page)."""
    items = [Item(ln, mark=forum.is_mark(ln.text)) for ln in lines]
    pending: list[Item] = []
    previous: str | None = None
    for item in items:
        if not item.mark:
            pending.append(item)
            continue
        label = forum.mark_label(item.line.text)
        pages: tuple[str, ...] = (label,)
        flag = None
        if previous and previous.isdigit() and label.isdigit() and int(label) > int(previous) + 1:
            pages = tuple(str(n) for n in range(int(previous) + 1, int(label) + 1))
            missing = ", ".join(f"--{n}" for n in range(int(previous) + 1, int(label)))
            flag = f"page marker {missing} missing: text spans pages {pages[0]}-{pages[-1]}"
        for p in pending:
            p.pages, p.flag = pages, flag
        item.pages = (label,)
        pending = []
        previous = label
    for p in pending:
        p.pages = (previous,) if previous else ()
        p.flag = f"after the last page marker (--{previous}): placed on page {previous}" if previous else None
    return items


def _first_word(text: str) -> str:
    parts = text.split()
    return parts[0] if parts else ""


class _Builder:
    def __init__(self, book: forum.Book, source: Source, parsed: Parsed, where: str, thread_text: str = "") -> None:
        self.book, self.source, self.parsed, self.where = book, source, parsed, where
        self.thread_text = thread_text
        self.items = assign_pages(book.lines)
        self.content = [i for i, it in enumerate(self.items) if not it.mark]
        texts = [self.items[i].line.text for i in self.content]
        lengths = sorted(len(t) for t in texts if len(t) <= 85)
        self.width = lengths[-1] if lengths else 80
        self.caps_mode = sum(1 for t in texts if self._caps(t)) >= 3
        self.vocab = Counter(w.lower() for t in texts for w in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)*", t))
        self.first_copy_end = book.copies[0].end + 1

    # ---- line shapes -------------------------------------------------------------------------
    @staticmethod
    def _caps(t: str) -> bool:
        return bool(CAPS_HEADING.match(t)) and sum(c.isalpha() for c in t) >= 3 and len(t) <= 60

    def _title_case(self, t: str) -> bool:
        if len(t) > 50 or t[-1] in ".,;:" or not t[0].isupper() or t.startswith(("*", "-", "_", "<", "[")):
            return False
        words = [w.strip("!?,'\"") for w in t.split()]
        big = [w for w in words if w and w.lower() not in SMALL_WORDS]
        return 0 < len(words) <= 6 and all(w[0].isupper() for w in big)

    def shape(self, k: int) -> str:
        """What the k-th content line is, judged with its neighbours."""
        t = self.text(k)
        prev = self.text(k - 1) if k > 0 else ""
        nxt = self.text(k + 1) if k + 1 < len(self.content) else ""
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
        if self.caps_mode and self._caps(t):
            return "heading"
        if BOLD_LINE.match(t):
            return "bold"
        if not self.caps_mode and self._title_case(t) and (not prev or END_PUNCT.search(prev) or self.shape_is_heading(k - 1)) \
                and nxt and (nxt[0].isupper() or nxt[0] in "_-\"") and not UNDERLINE.match(nxt):
            return "heading"
        if BULLET.match(t):
            return "bullet"
        if NUMBERED.match(t) and (not prev or END_PUNCT.search(prev)):
            return "numbered"
        if TERM_ENTRY.match(t) or DASHED_LINE.match(t) or EXAMPLE_START.match(t):
            return "entry"
        return "text"

    def shape_is_heading(self, k: int) -> bool:
        t = self.text(k)
        return bool(EQ_HEADING.match(t) or SECTION.match(t))

    def text(self, k: int) -> str:
        """The k-th content line with forum BBCode taken out (shapes and widths are judged on this)."""
        return strip_bbcode(self.items[self.content[k]].line.text)[0].strip()

    def breaks(self, k: int, in_list: bool = False, first: bool = False) -> bool:
        """Does a paragraph end after content line k-1, before line k?

        The transcriber's editor wrapped at a fixed width, so a line ending in sentence punctuation
        that had room for the next word ended its paragraph. `first`: line k-1 opened a paragraph
        (indented in the original, so its room was narrower by the lost indent).
        """
        prev, t = self.text(k - 1), self.text(k)
        if self.shapes[k] != "text" or DASHED_LINE.match(prev):
            return True
        indented = first and k >= 2 and self.shapes[k - 2] not in ("heading", "section") \
            and not LABEL_ENTRY.match(prev)
        width = self.first_width if indented else self.width
        fits = len(prev) + 1 + len(_first_word(t)) <= width
        if in_list and fits and t[:1].isupper():
            return True
        ends = bool(END_PUNCT.search(prev)) and not prev.endswith("--")
        if ends and fits:
            return True
        if t.startswith("_") and fits:
            return True
        return bool(ends and (LABEL_ENTRY.match(t) or QUIZ_START.match(t)))

    # ---- segmentation ------------------------------------------------------------------------
    def segment(self) -> list[Block]:
        n = len(self.content)
        self.shapes = [self.shape(k) for k in range(n)]
        self.first_width = self._first_width()
        blocks: list[Block] = []
        current: Block | None = None
        pending: Block | None = None  # a paragraph cut by an inserted block
        inserting = False
        glossary = False
        k = 0
        while k < n:
            shape, t = self.shapes[k], self.text(k)
            idx = self.content[k]
            if shape in ("note", "table", "box-close"):
                if current is not None and current.kind == "para" and not END_PUNCT.search(self.text(k - 1)):
                    pending = current
                current = None
                if shape == "box-close":
                    self.parsed.set_aside["transcriber-markup"] += 1
                    inserting = False
                    k += 1
                    continue
                if shape == "table":
                    k = self._table(k, blocks)
                    continue
                block = Block("note", [idx])
                while self._open_bracket(block) and k + 1 < n:
                    k += 1
                    block.items.append(self.content[k])
                blocks.append(block)
                inserting = BOX_OPEN.match(t) is not None or inserting
                k += 1
                continue
            if shape in ("heading", "section"):
                title = EQ_HEADING.match(t).group(1) if EQ_HEADING.match(t) else t
                level = 1 if (self.caps_mode or EQ_HEADING.match(t) or shape == "section") else 2
                blocks.append(Block(shape if shape == "section" else "heading", [idx], title, level))
                glossary = self.caps_mode and "GLOSSARY" in t
                current, pending = None, None
                k += 1
                continue
            if shape == "bold":
                m = BOLD_LINE.match(t)
                title = m.group(1) + (f" ({m.group(2)})" if m.group(2) else "")
                if glossary:
                    current = Block("gloss", [idx], title)
                    blocks.append(current)
                else:
                    blocks.append(Block("heading", [idx], title, 2))
                    current = None
                k += 1
                continue
            starts = current is None or (k > 0 and self.breaks(k, current.kind == "list",
                                                                len(current.items) == 1))
            if current is not None and current.kind == "gloss":
                if starts or len(current.items) == 1:
                    current.paras.append([idx])
                else:
                    current.paras[-1].append(idx)
                current.items.append(idx)
            elif not starts:
                current.items.append(idx)
            elif pending is not None and not inserting and t[:1].islower():
                current = pending
                current.flags.append("continues after an inserted block")
                current.items.append(idx)
                pending = None
            elif shape == "bullet" and current is not None and current.kind == "list":
                current.paras.append([idx])
                current.items.append(idx)
            else:
                if not inserting:
                    pending = None
                current = Block("list" if shape == "bullet" else "para", [idx])
                current.paras.append([idx])
                blocks.append(current)
            if current.kind in ("list", "para") and current.paras and idx not in current.paras[-1]:
                current.paras[-1].append(idx)
            k += 1
        return blocks

    def _first_width(self) -> int:
        """Room on a paragraph's first line: narrower than `width` where indents were lost (5th Ed.)."""
        lengths = [len(self.text(k)) for k in range(2, len(self.content))
                   if self.shapes[k] == "text" and self.shapes[k - 1] == "text" and self.shapes[k - 2] == "text"
                   and END_PUNCT.search(self.text(k - 1)) and len(self.text(k - 1)) < self.width - 20
                   and not LABEL_ENTRY.match(self.text(k))]
        return max(lengths) if len(lengths) >= 5 else self.width

    def _open_bracket(self, block: Block) -> bool:
        joined = " ".join(self.items[i].line.text for i in block.items)
        return joined.lstrip().startswith("[") and joined.count("[") > joined.count("]")

    def _table(self, k: int, blocks: list[Block]) -> int:
        """The tip sheet: a spread line, then entries of title, dash underline and body."""
        block = Block("table", [self.content[k]], self._spread_title(self.text(k)))
        if not block.title:
            block.title = "Table"
        k += 1
        n = len(self.content)
        while k + 1 < n and UNDERLINE.match(self.text(k + 1)) and len(self.text(k + 1)) == len(self.text(k)):
            entry = [self.content[k], self.content[k + 1]]
            k += 2
            while k < n:  # the body ends at its first line ending in sentence punctuation
                entry.append(self.content[k])
                k += 1
                if END_PUNCT.search(self.text(k - 1)):
                    break
            block.paras.append(entry)
            block.items.extend(entry)
        blocks.append(block)
        return k

    def _spread_title(self, t: str) -> str:
        """'<twopage spread><check> D O N ' T F O R G E T . . .</spread>' -> "DON'T FORGET...".

        The letter-spacing hid the word gaps; words are found again with the book's own vocabulary.
        """
        inner = re.sub(r"<[^>]+>", " ", t).strip()
        dots = "..." if inner.endswith(".") else ""
        letters = re.sub(r"\s+", "", inner).rstrip(".")
        words = {w.lower() for w in re.findall(r"[A-Za-z]+(?:'[A-Za-z]+)?", self.thread_text)}
        best: list[list[str] | None] = [[]] + [None] * len(letters)
        for end in range(1, len(letters) + 1):  # fewest words wins
            for start in range(max(0, end - 15), end):
                prior = best[start]
                if prior is not None and letters[start:end].lower() in words \
                        and (best[end] is None or len(prior) + 1 < len(best[end])):
                    best[end] = prior + [letters[start:end]]
        found = best[len(letters)]
        return (" ".join(found) if found else letters) + dots

    # ---- text --------------------------------------------------------------------------------
    def join(self, idxs: list[int], flags: list[str]) -> str:
        """Lines to one string: de-hyphenate line-end breaks, fold whitespace, keep markup."""
        out = ""
        for i in idxs:
            t = self.items[i].line.text.strip()
            if not out:
                out = t
                continue
            m = re.search(r"(?:^|(?<=[\s(\"]))([A-Za-z]+(?:-[A-Za-z]+)*)-$", out)
            if m and t[:1].islower() and not re.search(r"(?:^|\s)-[^\s-][^-]*-$", out.split("\n")[-1]):
                word = self._dehyphenate(m.group(1), _first_word(t), flags)
                out = out[: m.start()] + word + t[len(_first_word(t)):]
            elif re.search(r"\d-$", out) and t[:1].isdigit():
                out += t
            else:
                out += " " + t
        return out

    def _dehyphenate(self, first: str, second: str, flags: list[str]) -> str:
        head = re.match(r"[A-Za-z]+", second)
        tail_word = head.group(0) if head else second
        joined = (first + tail_word).lower()
        last = first.split("-")[-1].lower()
        if self.vocab.get(joined) and "-" not in first:
            return first + second
        if f"{first}-{tail_word}".lower() in self.vocab or last in PREFIXES or "-" in first:
            return f"{first}-{second}"
        if self.vocab.get(last) and self.vocab.get(tail_word.lower()) and len(last) >= 3:
            flags.append(f"line-end hyphen kept in '{first}-{tail_word}' (uncertain)")
            return f"{first}-{second}"
        flags.append(f"line-end hyphen removed in '{first}{tail_word}' (uncertain)")
        return first + second

    def raw(self, idxs: list[int]) -> str:
        """Exact source lines; page markers that fall between two of the record's lines are kept."""
        lines: list[str] = []
        for a, b in zip(idxs, idxs[1:] + [None], strict=True):
            lines.append(self.items[a].line.text)
            if b is not None and b > a + 1 and all(self.items[j].mark for j in range(a + 1, b)):
                lines.extend(self.items[j].line.text for j in range(a + 1, b))
        return "\n".join(lines)

    def pages(self, idxs: list[int], flags: list[str]) -> list[str]:
        out: list[str] = []
        for i in idxs:
            item = self.items[i]
            for p in item.pages:
                if p not in out:
                    out.append(p)
            if item.flag and item.flag not in flags:
                flags.append(item.flag)
        return out

    # ---- records -----------------------------------------------------------------------------
    def run(self) -> None:
        blocks = self.segment()
        self.records: list[Record] = []
        self.ids: set[str] = set()
        self._level: dict[str, int] = {}
        stack: list[Record] = []  # open headings by level
        children: Counter = Counter()
        last_passage: Record | None = None
        credits = False
        for block in blocks:
            if block.kind in ("heading", "section"):
                level = block.level
                stack = [r for r in stack if self._level[r.id] < level]
                rec = self.make(block, block.kind, self._unique(slugify(block.title)), stack)
                rec.title = block.title
                self._level[rec.id] = level
                stack.append(rec)
                credits = "CREDITS" in block.title.upper()
                last_passage = None
                continue
            parent = stack[-1] if stack else None
            base = parent.id.split(":", 1)[1] if parent else "front"
            if block.kind == "gloss":
                rec = self.make(block, "glossary", self._unique("glossary." + slugify(block.title)), stack)
                rec.title = block.title
                plain = re.sub(r"\s*\(.*\)$", "", block.title)
                if plain != block.title:
                    rec.aliases.append(plain)
                continue
            children[base] += 1
            local = f"{base}.{children[base]}"
            kind = "passage" if parent and not credits else "note"
            if block.kind == "table":
                kind = "table"
            elif block.kind == "note":
                kind = "note"
            rec = self.make(block, kind, self._unique(local), stack)
            if block.kind == "table":
                rec.title = block.title
            if block.kind == "note":
                rec.flags.append("transcriber's description of a picture or layout, not rulebook text")
            if kind == "passage":
                head = rec.text[:80]
                if re.match(r"(?:EXAMPLE:|Example:|For example,)", rec.text):
                    rec.kind = "example"
                    rec.parent = last_passage.id if last_passage else rec.parent
                elif re.search(r"\bquiz\b", head, re.I):
                    rec.kind = "quiz"
                m = NUMBERED.match(rec.raw)
                if m:
                    rec.number = m.group(1)
            if rec.kind == "passage":
                last_passage = rec
        self.finish()

    def _unique(self, local: str) -> str:
        rid, n = f"{self.source.id}:{local}", 1
        while rid in self.ids:
            n += 1
            rid = f"{self.source.id}:{local}-{n}"
        self.ids.add(rid)
        return rid

    def make(self, block: Block, kind: str, rid: str, stack: list[Record]) -> Record:
        flags = list(block.flags)
        groups = block.paras or [block.items]
        if block.kind == "gloss":
            groups = block.paras
        semi_parts = [self.join(g, flags) for g in groups] if block.kind not in ("heading", "section") else []
        text_parts, terms = [], []
        bbcode = 0
        for part in semi_parts:
            part, count = strip_bbcode(part)
            bbcode += count
            clean, found = fold_markup(canon_symbols(fold_space(part)))
            text_parts.append(clean)
            terms.extend(t for t in found if t not in terms)
        if bbcode:
            self.parsed.set_aside["bbcode"] += bbcode
        if block.kind == "table":
            text_parts = [block.title or ""] + [self._entry_text(p) for p in text_parts]
        if block.kind in ("heading", "section"):
            text_parts = [fold_markup(canon_symbols(block.title or ""))[0]]
        joiner = "\n" if block.kind == "list" else "\n\n"
        text = joiner.join(p for p in text_parts if p)
        idxs = block.items
        pages = self.pages(idxs, flags)
        if any(self.items[i].line.no > self.first_copy_end for i in idxs):
            used = [self.items[i].line.no for i in idxs if self.items[i].line.no > self.first_copy_end]
            span = f"line {used[0]}" if len(used) == 1 else f"lines {used[0]}-{used[-1]}"
            flags.append(f"reconciled: uses {span} of the thread's second copy")
        if lost_symbols(text):
            flags.append(LOST_SYMBOL_FLAG)
        parent = stack[-1] if stack and kind not in ("heading", "section") else None
        if kind in ("heading", "section") and stack:
            parent = stack[-1]
        semi = " ".join(fold_space(strip_bbcode(p)[0]) for p in semi_parts)
        rec = Record(
            id=rid, source=self.source.id, edition=self.source.edition, lang=self.source.lang, kind=kind,
            text=text, raw=self.raw(idxs), pages=pages,
            section=[r.title or "" for r in stack] if kind not in ("heading", "section") else
            [r.title or "" for r in stack] + [block.title or ""],
            parent=parent.id if parent else None, flags=flags, order=len(self.records) + 1,
            line=self.items[idxs[0]].line.no, terms=terms, refs=self._refs(canon_symbols(semi)),
        )
        self.records.append(rec)
        return rec

    @staticmethod
    def _entry_text(part: str) -> str:
        return re.sub(r"\s-{3,}\s", "\n", part, count=1)

    def _refs(self, semi: str) -> list[Ref]:
        refs: list[Ref] = []
        plain = fold_markup(semi)[0]
        for m in PAGE_REF.finditer(plain):
            label = m.group(0).strip()
            label = re.sub(r"^on\s+", "", label)
            refs.append(Ref(label=label, kind="page", key=f"p{m.group('n')}"))
        for m in GLOSS_SEE.finditer(semi):
            for term in re.findall(r"-([^-\s][^-]*?)-", m.group(1)):
                refs.append(Ref(label=fold_space(term), kind="glossary", key=slugify(term)))
        for m in GLOSS_QUOTED.finditer(semi):
            refs.append(Ref(label=m.group(0), kind="glossary", key=slugify(m.group(1))))
        return refs

    # ---- resolution and closing notes --------------------------------------------------------
    def finish(self) -> None:
        records = self.records
        last_page = next((p for r in reversed(records) for p in reversed(r.pages)), None)
        glossary = {}
        for r in records:
            if r.kind == "glossary":
                for name in [r.title or ""] + r.aliases:
                    glossary.setdefault(slugify(name), r.id)
        spans: dict[str, set[str]] = {}
        for r in records:
            for anc in [r.id] + ([r.parent] if r.parent else []):
                spans.setdefault(anc, set()).update(r.pages)
        titled = [r for r in records if r.kind in ("heading", "section")]
        for r in records:
            for ref in r.refs:
                if ref.kind == "glossary":
                    key = ref.key
                    ref.target = glossary.get(key) or glossary.get(key + "s") or glossary.get(key.rstrip("s"))
                    if not ref.target:
                        ref.reason = f"no glossary entry '{ref.label}' in this book"
                    continue
                page = ref.key[1:]
                title = re.match(r"\"([^\"]+)\"", ref.label)
                if title:
                    want = slugify(title.group(1))
                    hits = [h for h in titled if slugify(h.title or "") == want]
                    on_page = [h for h in hits if page in spans.get(h.id, set())]
                    if on_page:
                        ref.target = on_page[0].id
                    elif hits:
                        ref.target = hits[0].id
                        ref.reason = f"'{title.group(1)}' found, but not on page {page}"
                        ref.target = hits[0].id
                else:
                    first = next((x for x in records if x.pages and x.pages[0] == page), None)
                    if first:
                        ref.target = first.id
                if not ref.target:
                    if page.isdigit() and last_page and last_page.isdigit() and int(page) > int(last_page):
                        ref.reason = f"page {page} is beyond the end of this transcription (page {last_page})"
                    else:
                        ref.reason = f"no heading{' titled ' + title.group(0) if title else ''} on page {page}"
        self._truncation(last_page)
        self.parsed.records = records

    def _truncation(self, last_page: str | None) -> None:
        """A book that stops mid-list with a reply asking for the rest gets a note record."""
        records = self.records
        if not records:
            return
        tail = records[-1]
        asked = [ln for ln in self.book.requests if self.source.edition[0] in ln.text]
        if not asked:
            return
        ask = asked[0]
        msg = (f"The transcription stops at the end of page {last_page}: part 2 of this rulebook was never "
               f"posted to the thread (a user asked for it at line {ask.no}: \"{ask.text.strip()}\").")
        self.parsed.notes.append(msg)
        self.parsed.warnings.append(Warning_(self.where, ask.no, "rulebook text stops at the end of page "
                                                                 f"{last_page}; part 2 was never posted"))
        tail.flags.append(f"text stops here, at the end of page {last_page}: part 2 was never posted")
        rec = Record(id=self._unique("part-2-missing"), source=self.source.id, edition=self.source.edition,
                     lang=self.source.lang, kind="note", text=msg, raw=ask.text, pages=[],
                     flags=["not rulebook text: the thread never has part 2 of this rulebook"],
                     order=len(records) + 1, line=ask.no, title="Part 2 never posted")
        records.append(rec)
