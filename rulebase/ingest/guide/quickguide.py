"""Parser for the Hungarian quick rules guide (format "hu-guide").

The guide is scraped plain text: one paragraph per line, blank lines mostly (not always) between
paragraphs, headings only recognisable by their shape. The rules used here:
- a line is a paragraph of its own; a line only continues the one before it when that one has no
  final punctuation and this one starts in lower case (a soft-wrapped paragraph);
- a heading is a short line (<= 50 characters, <= 6 words) starting with a capital or a digit,
  with no final period/comma, no comma and no colon except a final one, followed by a line that
  is not heading-shaped (prose). A heading-shaped line not followed by prose stays a paragraph,
  with a warning;
- "1. Kezdő fázis" (digits) is a phase, "Zónák:" (final colon) introduces a list: both are top
  level; any other heading is a step of the phase it follows, or top level outside a phase;
- "A. text" is a lettered rule; "Label: Text" (a short capitalised label, optionally with an
  English term in parentheses) is a glossary definition: "Könyvtár (library): Ez a kártyapaklid...";
- lines before the first heading are front matter (kind "note").
Every "Hungarian (english)" pairing in a record becomes a kind "term" record (`rulebase.ingest.guide.terms`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from rulebase.core.records import Record, Ref, fold_space, slugify
from rulebase.core.sources import Source
from rulebase.ingest.guide.terms import find_terms
from rulebase.ingest.text import Parsed, Warning_

MAX_HEADING_CHARS = 50
MAX_HEADING_WORDS = 6
_PHASE = re.compile(r"^(?P<number>\d+)\.\s+(?P<title>\S.*)$")
_LETTERED = re.compile(r"^(?P<letter>[A-Z])\.\s+(?P<body>\S.*)$")
_GLOSSARY = re.compile(r"^(?P<label>[^\W\d_][^:.,;()`]*?)(?:\s*\((?P<english>[^()]*)\))?:\s+(?P<body>\S.*)$")
_TERMINAL = tuple(".!?:;\u2026)`\"")
RESERVED = ("intro", "glossary", "term")


@dataclass
class _Block:
    kind: str  # heading | rule | glossary | para
    lines: list[tuple[int, str]]  # (1-based line number, line as written)
    flags: list[str] = field(default_factory=list)
    label: str = ""  # the rule letter or the glossary term

    @property
    def raw(self) -> str:
        return "\n".join(text for _, text in self.lines)

    @property
    def text(self) -> str:
        return unicodedata.normalize("NFC", fold_space(self.raw))


def heading_shaped(line: str) -> bool:
    """Short, capitalised, no final period or comma, no comma or inner colon."""
    s = line.strip()
    if not s or len(s) > MAX_HEADING_CHARS or len(s.split()) > MAX_HEADING_WORDS:
        return False
    if s[-1] in ".!?,;\u2026" or not (s[0].isupper() or s[0].isdigit()):
        return False
    body = s[:-1] if s.endswith(":") else s
    return ":" not in body and "," not in body and not _LETTERED.match(s)


def _glossary_label(line: str) -> str | None:
    """'Könyvtár' for a 'Könyvtár (library): Ez a...' line (a term and its definition), else None."""
    match = _GLOSSARY.match(line.strip())
    if not match:
        return None
    label, body = match.group("label").strip(), match.group("body")
    if not label[0].isupper() or len(label.split()) > 4:
        return None
    if not (body[0].isupper() or body[0] in "`\"\u201e"):
        return None
    return label


def blocks(text: str) -> tuple[list[_Block], list[Warning_]]:
    """Group lines into headings, lettered rules, glossary entries and paragraphs."""
    lines = text.split("\n")
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    following = {a: b for a, b in zip(nonblank, nonblank[1:], strict=False)}
    out: list[_Block] = []
    warnings: list[Warning_] = []
    for i in nonblank:
        line = lines[i]
        s = line.strip()
        if heading_shaped(s):
            nxt = following.get(i)
            if nxt is not None and not heading_shaped(lines[nxt]):
                out.append(_Block("heading", [(i + 1, line)]))
                continue
            why = "end of file" if nxt is None else "another heading-shaped line"
            flag = f"heading-shaped line followed by {why}: kept as a paragraph"
            out.append(_Block("para", [(i + 1, line)], [flag]))
            warnings.append(Warning_("", i + 1, flag))
            continue
        prev = out[-1] if out else None
        if (prev is not None and prev.kind != "heading" and i > 0 and lines[i - 1].strip()
                and not lines[i - 1].rstrip().endswith(_TERMINAL) and s[0].islower()):
            prev.lines.append((i + 1, line))
            continue
        lettered, glossary = _LETTERED.match(s), _glossary_label(s)
        if lettered:
            out.append(_Block("rule", [(i + 1, line)], label=lettered.group("letter")))
        elif glossary:
            out.append(_Block("glossary", [(i + 1, line)], label=unicodedata.normalize("NFC", glossary)))
        else:
            out.append(_Block("para", [(i + 1, line)]))
    return out, warnings


class _Ids:
    def __init__(self, prefix: str):
        self.prefix = prefix
        self.seen: set[str] = set()
        self.next: dict[str, int] = {}  # per repeated local id, the next '-n' to try: linear, not quadratic

    def make(self, local: str) -> str:
        candidate, n = local, self.next.get(local, 1)
        if n > 1:
            candidate = f"{local}-{n}"
        while candidate in self.seen or candidate in RESERVED:
            n += 1
            candidate = f"{local}-{n}"
        self.next[local] = n + 1
        self.seen.add(candidate)
        return f"{self.prefix}:{candidate}"


def parse(text: str, source: Source) -> Parsed:
    """Records for the guide: headings, passages, lettered rules, glossary entries and terms."""
    found, warnings = blocks(text)
    for w in warnings:
        w.file = str(source.path)
    ids = _Ids(source.id)
    records: list[Record] = []
    top: Record | None = None  # current top-level heading
    current: Record | None = None  # innermost heading
    counts: dict[str | None, int] = {}

    def new(kind: str, block: _Block, local: str | None = None, **kw) -> Record:
        rid = kw.pop("id", None) or ids.make(local or "x")
        record = Record(id=rid, source=source.id, edition=source.edition, lang=source.lang, kind=kind,
                        text=block.text, raw=block.raw, line=block.lines[0][0], flags=list(block.flags), **kw)
        records.append(record)
        return record

    for block in found:
        if block.kind == "heading":
            s = block.raw.strip()
            phase = _PHASE.match(s)
            title = (phase.group("title") if phase else s).rstrip(":").strip()
            title = unicodedata.normalize("NFC", title)
            number = phase.group("number") if phase else None
            is_step = not phase and not s.endswith(":") and top is not None and top.number is not None
            parent = top if is_step else None
            section = _path(parent) if parent else []
            current = new("heading", block, slugify(title), number=number, title=title,
                          section=section, parent=parent.id if parent else None)
            if not is_step:
                top = current
            continue
        owner = current.id if current else None
        section = _path(current) if current else []
        if current is None:
            counts[owner] = counts.get(owner, 0) + 1
            record = new("note", block, f"intro.{counts[owner]}", section=section)
        elif block.kind == "rule":
            record = new("rule", block, id=ids.make(f"{owner.split(':', 1)[1]}.{block.label}"),
                         number=block.label, section=section, parent=owner)
        elif block.kind == "glossary":
            # The English name stays off `aliases` on purpose: the linker resolves a glossary ref
            # to its own source first, so "library" would lead the term record back to this
            # Hungarian entry instead of the English definitions. The term record is the bridge.
            record = new("glossary", block, f"glossary.{slugify(block.label)}", title=block.label,
                         section=section, parent=owner)
        else:
            counts[owner] = counts.get(owner, 0) + 1
            record = new("passage", block, f"{owner.split(':', 1)[1]}.{counts[owner]}",
                         section=section, parent=owner)
        _add_terms(record, block, records, ids)
    for n, record in enumerate(records):
        record.order = n
    terms = sum(r.kind == "term" for r in records)
    return Parsed(records, warnings, notes=[f"{terms} Hungarian-English term pairings"])


def _path(heading: Record) -> list[str]:
    label = f"{heading.number}. {heading.title}" if heading.number else heading.title or ""
    return [*heading.section, label]


def _add_terms(record: Record, block: _Block, records: list[Record], ids: _Ids) -> None:
    """A kind 'term' record for every 'Hungarian (english)' pairing stated in `record`."""
    raw = record.raw
    section = record.section + ([record.title] if record.title else [])
    line, seen = block.lines[0][0], 0  # the line of each pairing, counted on as they come (linear)
    pairs: dict[tuple[str, tuple[str, ...]], int] = {}  # a pairing stated again in the record: counted
    for span in find_terms(raw):
        line += raw.count("\n", seen, span.start)
        seen = span.start
        key = (span.hu, span.en)
        pairs[key] = pairs.get(key, 0) + 1
        if pairs[key] > 1:
            continue
        written = raw[span.start:span.end]
        records.append(Record(
            id=ids.make(f"term.{slugify(span.hu)}"), source=record.source, edition=record.edition,
            lang=record.lang, kind="term", text=written, raw=written, title=span.hu,
            section=section, parent=record.id, aliases=list(span.en),
            refs=[Ref(label=en, kind="glossary", key=en.lower()) for en in span.en],
            line=line))
    for (hu, english), count in pairs.items():
        if count > 1:  # the passage keeps every one; the term map needs one
            record.flags.append(f"term pairing {hu} ({', '.join(english)}) stated {count:,} times: one term record")
