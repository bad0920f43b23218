"""Parser for the forum-posted rulebooks (format "forum-rulebook"): 4th Edition and 5th Edition part 1.

`forum.split_thread` finds and reconciles the copies; `paragraphs` cuts one book's lines into pages
and blocks (judging each line by its shape, see `lineshapes`); this module turns the blocks into
records, resolves their page and glossary references and notes where the transcription stops.
"""

from __future__ import annotations

import re
from collections import Counter

from rulebase.core.errors import SourceError
from rulebase.core.records import Record, Ref, fold_space, slugify
from rulebase.core.sources import Source
from rulebase.ingest.rulebooks import forum
from rulebase.ingest.rulebooks.lineshapes import NUMBERED
from rulebase.ingest.rulebooks.markup import (
    LOST_SYMBOL_FLAG,
    canon_symbols,
    fold_markup,
    lost_symbols,
    strip_bbcode,
)
from rulebase.ingest.rulebooks.paragraphs import Block, Segmenter, assign_pages, join_lines
from rulebase.ingest.text import Parsed, Warning_

__all__ = ["assign_pages", "parse"]  # assign_pages is re-exported: tests import it from here

PAGE_REF = re.compile(r"(?:\"(?P<title>[^\"]+)\"(?:,\s*|\s+on\s+|\s+)|\bon\s+)?\b(?:p\.|page)\s?(?P<n>\d+|[ivx]+)\b")
GLOSS_SEE = re.compile(r"\b[Ss]ee(?: also)?\s+((?:-[^-\s][^-]*?-(?:\s*,\s*(?:and\s+)?|\s+and\s+)?)+)")
GLOSS_QUOTED = re.compile(r"\b[Ss]ee\s+\"([^\"]+)\"\s+in the glossary")


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


# A paragraph that opens on its subject: "-Rampage-: After defense...", "-Enchant world- cards are",
# 5th Edition's "Untap: At the beginning of every turn". The term becomes the paragraph's title.
DEFINED_TERM = re.compile(r"^(?:-(?P<term>[A-Za-z\"][^-\n]{1,38})-(?=[:\s])|(?P<label>[A-Z][A-Za-z' ]{2,28}):\s"
                          r"(?!The Gathering))")


class _Builder:
    def __init__(self, book: forum.Book, source: Source, parsed: Parsed, where: str, thread_text: str = "") -> None:
        self.book, self.source, self.parsed, self.where = book, source, parsed, where
        self.thread_text = thread_text
        self.items = assign_pages(book.lines)
        self.content = [i for i, it in enumerate(self.items) if not it.mark]
        texts = [self.items[i].line.text for i in self.content]
        self.vocab = Counter(w.lower() for t in texts for w in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)*", t))
        self.first_copy_end = book.copies[0].end + 1

    def join(self, idxs: list[int], flags: list[str]) -> str:
        """A block's lines to one string (see `paragraphs.join_lines`)."""
        return join_lines([self.items[i].line.text for i in idxs], self.vocab, flags)

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
        blocks = Segmenter(self.items, self.content, self.parsed.set_aside, self.thread_text).segment()
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
                term = DEFINED_TERM.match(rec.raw) if rec.kind == "passage" else None
                if term:
                    rec.title = fold_markup(term.group("term") or term.group("label"))[0].rstrip(":.")
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
