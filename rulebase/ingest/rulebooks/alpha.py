"""Parser for the 1993 Alpha rulebook as Wizards' 2004 feature article transcribes it (format
"alpha-rulebook", Markdown kept by an archive of Wizards' articles).

What the file holds and what becomes of it:
- a metadata front matter block (`---` ... `---`), the article's title, byline and introduction:
  set aside, counted by kind (`set_aside`), the metadata kept in `meta`;
- the book, page by page: a `-N-` line ends page N (the book's cross-references agree: "The chart
  on page 13" is followed by `-13-`), so every line belongs to the page of the next marker;
- two "Beta Rulebook" inserts, each in a one-cell Markdown table, carry their own markers (a second
  4 and 5, a second 38): both copies of a page are kept, the insert's records under a section
  "Beta Rulebook" with ids starting `beta-`, so `lookup "alpha p4"` lists both;
- `### Title` headings are heading records; each other line is a paragraph (the transcription puts
  one paragraph on a line), joined with the next across a page break when it stops mid-sentence;
  `**Title**: text` names its paragraph; "Example:" paragraphs are examples of the one before;
- the "Some Questions and Answers" section: one quiz record per question with its answer;
- the "Important References" index (a two-column table of terms whose page numbers the
  transcription lost): one kind "index" record per entry, pointing to the heading or titled
  paragraph that treats the term, else to the first records that mention it;
- Markdown images: mana symbols (`![Red Mana](...)`) become `{R}`; a picture followed by its
  caption ("Figure 1-Table Layout.") is a figure note titled with the caption; emphasis becomes
  term mentions.
Nothing is dropped silently: every non-blank line is in a record's `raw`, or set aside and
counted (its line numbers in `meta["set_aside_lines"]`), or a warning with file and line.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from rulebase.core.errors import SourceError
from rulebase.core.records import Record, Ref, fold_space, slugify
from rulebase.core.sources import Source
from rulebase.ingest.text import Parsed, Warning_

MARKER = re.compile(r"^\s*-(?P<n>\d{1,3})-\s*(?P<close>\|)?\s*$")
RULE = re.compile(r"^\s*(?:-{3,}|={3,})\s*$")
TABLE_MARKUP = re.compile(r"^\s*\|(?:\s*(?:-{3,})?\s*\|)+\s*$")  # "|  |", "| --- | --- |"
ONE_CELL = re.compile(r"^\s*\|\s*(?P<cell>[^|]*?[^|\s][^|]*?)\s*\|\s*$")  # "| Beta Rulebook |"
CELL_OPEN = re.compile(r"^\s*\|(?P<rest>[^|].*)$")  # "| Playing Your First Game" (cell left open)
HEADING = re.compile(r"^#{1,6}\s+(?P<title>\S.*?)\s*#*\s*$")
PICTURE = re.compile(r"^!\[(?P<alt>[^\]]*)\]\((?P<url>[^)\s]+)\)\s*$")
CAPTION = re.compile(r"^\*\*(?P<caption>Figure\s*\d+\b[^*]*?)\*\*\s*$")
IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<url>[^)\s]*)\)")
LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<url>[^)\s]+)\)")
META = re.compile(r"^\[_metadata_:(?P<key>\w+)\]:-\s*\"(?P<value>.*)\"\s*$")
TITLED = re.compile(r"^\*\*(?P<title>[^*]+?):?\*\*:?\s+\S")  # "**Trample**: A creature with ..."
LABEL_ONLY = re.compile(r"^\*\*(?P<title>[^*]+?):\*\*\s*$")  # "**With Art By:**"
PHASE = re.compile(r"^\d\.\s+(?P<title>[A-Z][a-z]+)\.\s")  # "2. Upkeep. Deal with ..."
QUESTION = re.compile(r"^Q:\s")
PAGE_REF = re.compile(r"(?:\"(?P<title>[^\"]+)\"(?:\s+section)?\s+on\s+)?\b(?:pp?\.\s?|pages?\s)(?P<n>\d+)"
                      r"(?:-(?P<end>\d+))?")
EMPHASIS = re.compile(r"\*\*(?P<bold>[^*]+?)\*\*|(?<!\*)\*(?P<italic>[^*]+?)\*(?!\*)")
COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G", "x": "X"}
_TERMINAL = tuple(".!?:")
_FUNCTION = {"a", "an", "and", "the", "of", "to", "which", "in", "or", "also", "with", "is", "its", "it",
             "for", "by", "on", "your", "you", "this", "that", "not", "other"}
BETA = "Beta Rulebook"
BETA_FLAG = "from a Beta Rulebook insert: Beta text, with page numbers of its own"
FIGURE_FLAG = "figure: the transcription has the picture's caption, not the picture"
UNPLACED_FLAG = ("index entry not placed: the transcription lost the index's page numbers, and no heading, "
                 "titled paragraph or paragraph of the book names the term")
NO_PAGE_FLAG = "after the last page marker: the transcription prints no page number here"


@dataclass
class _Block:
    kind: str  # note | heading | section | passage | figure | quiz | index | list
    lines: list[tuple[int, str]]
    title: str | None = None
    texts: list[str] = field(default_factory=list)  # cleaned paragraphs
    flags: list[str] = field(default_factory=list)
    parent: _Block | None = None
    beta: bool = False
    terms: list[str] = field(default_factory=list)  # term mentions (emphasis)
    entries: list[_Block] = field(default_factory=list)  # an index heading's top-level entries


def symbols(text: str, warn) -> str:
    """Mana symbol images to `{R}`-style symbols; any other inline image is kept as its alt text,
    with a warning (`warn(message)`)."""

    def one(match: re.Match[str]) -> str:
        alt = match.group("alt").strip()
        name = re.sub(r"\s*mana$", "", alt, flags=re.IGNORECASE).strip().lower()
        if alt.lower().endswith("mana") and (name in COLORS or name.isdigit()):
            return "{" + (COLORS.get(name) or name) + "}"
        warn(f"inline image {alt or match.group('url')!r} is not a mana symbol; kept as its alt text")
        return alt

    return IMAGE.sub(one, text)


def clean(text: str, warn) -> tuple[str, list[str]]:
    """A Markdown line to display text and the terms its emphasis marks (not in examples, whose
    italics are card names)."""
    text = symbols(text, warn)
    text = LINK.sub(lambda m: m.group("text"), text)
    head = re.split(r"\*?Example:", text, maxsplit=1)[0]
    terms: list[str] = []
    for match in EMPHASIS.finditer(head):
        inner = fold_space(match.group("bold") or match.group("italic") or "").strip(" ,.;:!?")
        words = inner.lower().split()
        if (inner and len(words) <= 4 and not re.search(r"[\u2019'\u2026!?]", inner) and re.search(r"[a-z]", inner.lower()) and words[0] not in _FUNCTION
                and words[-1] not in _FUNCTION and inner.lower() not in terms and "{" not in inner):
            terms.append(inner.lower())
    return fold_space(text.replace("*", "")), terms


def stem(text: str) -> str:
    """Index matching key: 'Casting spells' and 'Casting Spells', 'Bands' and 'Banding', 'The
    Attack' and 'Attacking', 'Sorcery' and 'Sorceries' meet."""
    words = re.sub(r"\{[^}]*\}|[^a-z0-9]+", " ", text.lower()).split()
    if words and words[0] == "the":
        words = words[1:]
    out = []
    for word in words:
        for suffix, repl in (("ies", "y"), ("ing", ""), ("es", ""), ("s", "")):
            if len(word) > len(suffix) + 3 and word.endswith(suffix) and not word.endswith("ss"):
                word = word[: -len(suffix)] + repl
                break
        out.append(word)
    return " ".join(out)


def parse(text: str, source: Source) -> Parsed:
    """Records of the Alpha rulebook in the article `text`."""
    return _Parser(text, source).run()


class _Parser:
    def __init__(self, text: str, source: Source) -> None:
        self.lines = text.split("\n")
        self.source, self.where = source, str(source.path)
        self.parsed = Parsed(records=[], set_aside=Counter())
        self.aside: dict[str, list[int]] = {}
        self.blocks: list[_Block] = []
        self.page = self._pages()

    # ---- bookkeeping -------------------------------------------------------------------------
    def set_aside(self, kind: str, no: int) -> None:
        self.parsed.set_aside[kind] += 1
        self.aside.setdefault(kind, []).append(no)

    def warn(self, no: int, message: str) -> None:
        self.parsed.warnings.append(Warning_(self.where, no, message))

    def _pages(self) -> list[str | None]:
        """Each line's page: the number of the next `-N-` marker (a marker ends its page)."""
        out: list[str | None] = [None] * len(self.lines)
        current: str | None = None
        for i in range(len(self.lines) - 1, -1, -1):
            marker = MARKER.match(self.lines[i])
            if marker:
                current = str(int(marker["n"]))
            out[i] = current
        return out

    # ---- the article around the book ---------------------------------------------------------
    def _article(self) -> int:
        """Sets aside the front matter, title, byline and introduction; returns the index of the
        first line of the book (after the `---` rule that ends the introduction)."""
        lines, i = self.lines, 0
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i < len(lines) and RULE.match(lines[i]) and lines[i].strip().startswith("-"):
            end = next((j for j in range(i + 1, len(lines)) if RULE.match(lines[j])), None)
            if end is None:
                raise SourceError(f"the front matter opened at line {i + 1} is never closed with '---'",
                                  self.where, "check that 'format' in sources.toml matches the file")
            for j in range(i, end + 1):
                if lines[j].strip():
                    self.set_aside("front matter", j + 1)
                    meta = META.match(lines[j].strip())
                    if meta:
                        self.parsed.meta[meta["key"]] = meta["value"]
            i = end + 1
        start = next((j for j in range(i, len(lines)) if RULE.match(lines[j]) and lines[j].strip()[0] == "-"), None)
        if start is None or not any(MARKER.match(x) for x in lines[start:]):
            raise SourceError("no '---' rule ends the article's introduction, or no -N- page marker follows",
                              self.where, "check that 'format' in sources.toml matches the file")
        for j in range(i, start):
            line = lines[j].strip()
            if not line:
                continue
            if j + 1 < start and RULE.match(lines[j + 1]) and lines[j + 1].strip()[0] == "=" or (
                    RULE.match(line) and line[0] == "="):
                self.set_aside("article title", j + 1)
            elif PICTURE.match(line) or re.match(r"^(?:Posted in\b|on [A-Z][a-z]+ \d{1,2}, \d{4}|By [A-Z])", line):
                self.set_aside("byline", j + 1)
            else:
                self.set_aside("article introduction", j + 1)
        return start

    # ---- blocks --------------------------------------------------------------------------------
    def run(self) -> Parsed:
        start = self._article()
        self._blocks(start)
        self._records()
        self._resolve()
        twice = sorted({p for r in self.parsed.records if BETA_FLAG in r.flags for p in r.pages}
                       & {p for r in self.parsed.records if BETA_FLAG not in r.flags for p in r.pages}, key=int)
        if twice:
            self.parsed.notes.append(f"pages {', '.join(twice)} are printed twice, in the Alpha book and in a Beta "
                                     "Rulebook insert: both are kept, the insert's records under 'Beta Rulebook'")
        self.parsed.meta["set_aside_lines"] = self.aside
        return self.parsed

    def _blocks(self, start: int) -> None:
        lines = self.lines
        stack: list[_Block] = []  # open heading (and insert section)
        saved: list[_Block] = []
        mode = "book"  # book | insert | insert-title | index
        last: _Block | None = None  # the paragraph a page break may continue
        crossed = False
        index_head: _Block | None = None
        listing: _Block | None = None
        picture: tuple[int, str] | None = None
        headings_seen = False

        def end_insert(no: int, closed: bool) -> None:
            nonlocal mode, stack
            if not closed:
                self.parsed.notes.append(f"the Beta Rulebook insert's table cell is never closed; it is taken to "
                                         f"end before line {no}")
            mode, stack = "book", list(saved)

        for i in range(start, len(lines)):
            no, line = i + 1, lines[i]
            s = line.strip()
            if not s:
                continue
            marker = MARKER.match(line)
            if marker:
                self.set_aside("page markers", no)
                crossed = True
                if marker["close"] and mode in ("insert", "insert-title"):
                    end_insert(no, True)
                    last = None
                elif marker["close"] and mode == "index":  # the index's table ends with its page
                    mode, stack, index_head, last = "book", [], None, None
                continue
            if RULE.match(line):
                self.set_aside("horizontal rules", no)
                continue
            if TABLE_MARKUP.match(line):
                self.set_aside("table markup", no)
                continue
            if picture is not None and not CAPTION.match(s):
                self.set_aside("pictures without a caption", picture[0])
                picture = None
            one_cell = ONE_CELL.match(line)
            if one_cell and not MARKER.match(one_cell["cell"]):
                if mode in ("insert", "insert-title"):
                    end_insert(no, False)
                saved = list(stack)
                section = self._add("section", [(no, line)], one_cell["cell"], [one_cell["cell"]], [], beta=True)
                stack, mode, last, listing = [section], "insert-title", None, None
                continue
            cell = CELL_OPEN.match(line)
            if mode == "insert-title" and cell:
                title = cell["rest"].strip()
                block = self._add("heading", [(no, line)], title, [title], stack, beta=True)
                stack, mode, last = [stack[0], block], "insert", None
                continue
            if mode == "index" or (index_head is not None and mode == "book" and cell):
                mode = "index"
                self._index_line(no, line, index_head)
                continue
            heading = HEADING.match(s)
            index_title = self._index_title(i, s)
            if heading or index_title:
                if mode in ("insert", "insert-title"):
                    end_insert(no, False)
                title = heading["title"] if heading else s
                block = self._add("heading", [(no, line)], title, [title], [])
                stack, last, listing, headings_seen = [block], None, None, True
                if index_title:
                    index_head = block
                continue
            if PICTURE.match(s):
                picture = (no, line)
                continue
            caption = CAPTION.match(s)
            if caption:
                title = fold_space(caption["caption"]).rstrip(".")
                raw = ([picture] if picture else []) + [(no, line)]
                self._add("figure", raw, title, [title], stack, flags=[FIGURE_FLAG], beta=mode != "book")
                picture, last = None, self.blocks[-1]
                continue
            if s == "." and last is not None and last.kind == "figure":
                last.lines.append((no, line))  # a stray period under a caption
                continue
            if listing is not None and len(s.split()) <= 5 and not s.endswith(tuple(".!?:")):
                listing.lines.append((no, line))
                listing.texts.append(self._clean(no, s)[0])
                continue
            listing = None
            text, terms = self._clean(no, line)
            if (crossed and last is not None and last.kind in ("passage", "note", "quiz", "example")
                    and not last.texts[-1].rstrip("* ").endswith(_TERMINAL)):
                last.lines.append((no, line))
                last.texts[-1] = f"{last.texts[-1]} {text}"
                last.terms += [t for t in terms if t not in last.terms]
                crossed = False
                continue
            crossed = False
            label = LABEL_ONLY.match(s)
            if label:
                listing = self._add("list", [(no, line)], label["title"].strip(), [text], stack)
                last = None
                continue
            titled = TITLED.match(IMAGE.sub("", s)) or PHASE.match(text)
            title = re.sub(r"\{[^}]*\}\s*", "", titled["title"]).strip() if titled else None
            heading_title = stack[-1].title if stack else ""
            if not headings_seen and mode == "book":
                kind = "note"
            elif "Questions and Answers" in (heading_title or ""):
                if not QUESTION.match(text) and last is not None and last.kind == "quiz":
                    last.lines.append((no, line))
                    last.texts.append(text)
                    continue
                kind = "quiz" if QUESTION.match(text) else "passage"
                title = text[3:].strip() if kind == "quiz" else title
            elif text.startswith("Example:"):
                kind = "example"
            else:
                kind = "passage"
            block = self._add(kind, [(no, line)], title, [text], stack, beta=mode != "book")
            block.terms = terms
            last = block
        if picture is not None:
            self.set_aside("pictures without a caption", picture[0])

    def _index_title(self, i: int, s: str) -> bool:
        """A short untitled line followed by a table: the index's title ("Important References")."""
        if len(s.split()) > 4 or s.endswith(tuple(".,;:!?")) or "*" in s or "|" in s or not s[0].isupper():
            return False
        nxt = next((x for x in self.lines[i + 1:] if x.strip()), "")
        return bool(TABLE_MARKUP.match(nxt))

    def _clean(self, no: int, text: str) -> tuple[str, list[str]]:
        return clean(text, lambda message: self.warn(no, message))

    def _add(self, kind: str, lines: list[tuple[int, str]], title: str | None, texts: list[str],
             stack: list[_Block], flags: list[str] | None = None, beta: bool = False) -> _Block:
        block = _Block(kind, list(lines), title, list(texts), list(flags or []), stack[-1] if stack else None, beta)
        self.blocks.append(block)
        return block

    def _index_line(self, no: int, line: str, head: _Block | None) -> None:
        """One line of the index table: one or two entries (a cell boundary ' | ' may fall inside)."""
        body = line.split("|", 1)[1] if line.lstrip().startswith("|") else line
        for piece in body.split("|"):
            if not piece.strip():
                continue
            indent = len(piece) - len(piece.lstrip(" "))
            entry = fold_space(piece)
            tops: list[_Block] = head.entries if head is not None else []
            if indent >= 2 and tops:
                top = tops[-1]
                if top.texts[0].endswith(","):  # "Colors," / "of mana": a sub-entry
                    name = f"{top.texts[0]} {entry}"
                    self._add("index", [(no, line)], name, [name], [top])
                else:  # "Enhanced power" / "or toughness": one entry on two lines
                    top.lines.append((no, line))
                    top.texts[0] = f"{top.texts[0]} {entry}"
                    top.title = top.texts[0]
            else:
                tops.append(self._add("index", [(no, line)], entry, [entry], [head] if head else []))

    # ---- records -------------------------------------------------------------------------------
    def _records(self) -> None:
        ids: set[str] = set()
        children: Counter = Counter()
        sid = self.source.id
        last_passage: dict[int, Record] = {}
        self.by_block: dict[int, Record] = {}
        for block in self.blocks:
            parent = self.by_block.get(id(block.parent)) if block.parent else None
            if block.kind in ("heading", "section"):
                local = ("beta-" if block.beta and block.kind == "heading" else "") + slugify(block.title or "")
            elif block.kind == "figure":
                local = slugify(re.sub(r"[\u2014\u2013]|--", " ", block.title or "figure"))
            elif block.kind == "index":
                local = "index." + slugify((block.title or "").rstrip(","))
            else:
                base = parent.id.split(":", 1)[1] if parent else ("back" if any(r.kind == "heading" for r in self.parsed.records) else "front")
                children[base] += 1
                local = f"{base}.{children[base]}"
            rid, n = f"{sid}:{local}", 1
            while rid in ids:
                n += 1
                rid = f"{sid}:{local}-{n}"
            ids.add(rid)
            kind = {"list": "note", "figure": "note"}.get(block.kind, block.kind)
            if block.kind == "passage" and not parent:
                kind = "note"
            pages: list[str] = []
            for no, _ in block.lines:
                page = self.page[no - 1]
                if page is not None and page not in pages:
                    pages.append(page)
            flags = list(block.flags)
            if block.beta:
                flags.append(BETA_FLAG)
            if not pages:
                flags.append(NO_PAGE_FLAG)
            section = [a.title or "" for a in self._ancestors(block)]
            if block.kind in ("heading", "section"):
                section.append(block.title or "")
            title = block.title.rstrip(",") if block.kind == "index" and block.title else block.title
            text = ("\n" if block.kind == "list" else "\n\n").join(block.texts)
            record = Record(
                id=rid, source=sid, edition=self.source.edition, lang=self.source.lang, kind=kind, text=text,
                raw="\n".join(line for _, line in block.lines), title=title, pages=pages, section=section,
                parent=parent.id if parent else None, flags=flags, order=len(self.parsed.records) + 1,
                line=block.lines[0][0], terms=list(block.terms),
                refs=self._page_refs(text) if kind not in ("index",) else [],
            )
            if kind == "index" and title:
                record.terms = [title.lower()]
            if kind == "example" and block.parent is not None and id(block.parent) in last_passage:
                record.parent = last_passage[id(block.parent)].id
            if kind == "passage" and block.parent is not None:
                last_passage[id(block.parent)] = record
            self.by_block[id(block)] = record
            self.parsed.records.append(record)

    def _ancestors(self, block: _Block) -> list[_Block]:
        out: list[_Block] = []
        node = block.parent
        while node is not None:
            if node.kind in ("heading", "section"):
                out.insert(0, node)
            node = node.parent
        return out

    @staticmethod
    def _page_refs(text: str) -> list[Ref]:
        refs = []
        for match in PAGE_REF.finditer(text):
            label = match.group(0)
            refs.append(Ref(label=label, kind="page", key=f"p{match['n']}"))
        return refs

    # ---- resolution ----------------------------------------------------------------------------
    def _resolve(self) -> None:
        records = self.parsed.records
        titled = [r for r in records if r.title and r.kind in ("heading", "section", "passage")]
        by_title: dict[str, list[Record]] = {}
        for r in titled:
            by_title.setdefault(stem(r.title or ""), []).append(r)
        headings = {slugify(r.title or ""): r for r in records if r.kind == "heading"}
        for r in records:  # '"Timing" on pp.29-32': the heading, checked against its pages
            for ref in r.refs:
                quoted = re.match(r"\"([^\"]+)\"", ref.label)
                target = headings.get(slugify(quoted.group(1))) if quoted else None
                if target is not None:
                    ref.target = target.id
                    if ref.key[1:] not in target.pages:
                        ref.reason = f"'{quoted.group(1)}' found, but not on page {ref.key[1:]}"
        prose = [r for r in records if r.kind in ("passage", "example", "quiz")]
        words = {r.id: f" {stem(r.text)} " for r in prose}
        entries = {r.id: r for r in records if r.kind == "index"}
        for r in entries.values():
            if not r.title:
                continue
            head = entries.get(r.parent or "")
            keys = [stem(r.title)] if head is None else [stem(r.title), stem(head.title or "")]
            hits = by_title.get(keys[0], [])
            reason = None
            if not hits and head is not None:
                hits = by_title.get(keys[1], [])
                reason = f"points to its head entry's pages ('{head.title}'): the transcription lost the page numbers"
            if not hits:
                hits = [p for p in prose if f" {keys[0]} " in words[p.id]][:3]
                reason = (f"no heading or titled paragraph is called '{r.title}': the first paragraphs that "
                          "mention it (the transcription lost the index's page numbers)")
            for hit in hits:
                r.refs.append(Ref(label=r.title, kind="term", key=slugify(r.title), target=hit.id, reason=reason))
            if not hits:
                r.flags.append(UNPLACED_FLAG)
