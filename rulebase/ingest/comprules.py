"""Parser for the official Magic: The Gathering Comprehensive Rules (plain-text releases).

The layout has been stable since 2008: title, effective date, introduction, a table of Contents
that repeats every section and chapter heading, the numbered rules, the Glossary, credits.
The Contents is read only to learn the headings (it must not create records twice) and where the
body starts. Rules are placed by their number, never by walking the alphabet: subrule letters skip
'l' and 'o', and the official text has a few misprinted numbers, which are kept and flagged.
"""

from __future__ import annotations

import re
from datetime import datetime

from rulebase.errors import SourceError
from rulebase.ingest.comprules_glossary import Builder, clean, is_blank, parse_glossary
from rulebase.ingest.text import Parsed
from rulebase.records import Record, number_key, slugify
from rulebase.sources import Source

_DATE = re.compile(r"(?:current|effective) as of ([A-Z][a-z]+ \d{1,2}, \d{4})")
_SECTION = re.compile(r"^(\d{1,2})\.\s+(\S.*?)\s*$")
_CHAPTER = re.compile(r"^(\d{3})\.\s+(\S.*?)\s*$")
_RULE = re.compile(r"^(\d{3}\.\d+)([a-z]?)(\.?)\s+(\S.*?)\s*$")
_MISPRINT = re.compile(r"^(\d{3})\.([a-z])\.?\s+(\S.*?)\s*$")  # '306.b If an effect ...' (2008)
_HEADING = re.compile(r"^[A-Z][A-Za-z' ]{0,40}\??$")
_CHAPTER_DIGITS = 3  # "502.83a" belongs to chapter "502"


def _title_like(text: str) -> bool:
    """'Exalted', 'Timing, Priority, and the Stack' (a rule title), not a sentence."""
    return bool(text) and text[-1] not in ".:;!?\"\u201d)" and len(text.split()) <= 8


def _blocks(lines: list[str], start: int, end: int) -> list[list[int]]:
    """Runs of non-blank line indexes in lines[start:end]."""
    blocks: list[list[int]] = []
    for i in range(start, end):
        if is_blank(lines[i]):
            continue
        if blocks and blocks[-1][-1] == i - 1:
            blocks[-1].append(i)
        else:
            blocks.append([i])
    return blocks


def _span(lines: list[str], idxs: list[int]) -> str:
    return "\n".join(lines[idxs[0]: idxs[-1] + 1])


def _note(b: Builder, lines: list[str], local: str, title: str | None, idxs: list[int],
          per_line: bool = False) -> Record:
    """A note from lines (a heading line first when `title` is given): one paragraph per block
    (per line for a list such as the Contents)."""
    idxs = [i for i in idxs if not is_blank(lines[i])]
    note = b.add(local, "note", idxs[0] + 1, _span(lines, idxs), title=title, section=[title] if title else [])
    body = idxs[1:] if title else idxs
    for block in _blocks(lines, body[0], body[-1] + 1) if body else []:
        for part in [[i] for i in block] if per_line else [block]:
            b.para(note, clean(" ".join(lines[i] for i in part)))
    return note


def _front(b: Builder, lines: list[str], end: int) -> None:
    """Title, effective date (the document record) and the introduction (notes)."""
    blocks = _blocks(lines, 0, end)
    if not blocks:
        return
    title_i = blocks[0][0]
    date_block: list[int] = []
    groups: list[tuple[str | None, list[int]]] = []
    for block in blocks[1:]:
        text = " ".join(lines[i] for i in block)
        if not date_block and _DATE.search(text):
            date_block = block
        elif len(block) == 1 and _HEADING.match(lines[block[0]].strip()):
            groups.append((lines[block[0]].strip(), list(block)))
        elif groups:
            groups[-1][1].extend(block)
        else:
            groups.append((None, list(block)))
    raw = _span(lines, [title_i, *date_block])
    doc = b.add("document", "document", title_i + 1, raw, title=clean(lines[title_i]))
    if date_block:
        b.para(doc, clean(" ".join(lines[i] for i in date_block)))
    for n, (heading, idxs) in enumerate(groups, 1):
        _note(b, lines, slugify(heading) if heading else f"front.{n}", heading, idxs)


def _effective(text: str) -> str | None:
    match = _DATE.search(text)
    if not match:
        return None
    try:
        return datetime.strptime(match.group(1), "%B %d, %Y").date().isoformat()
    except ValueError:
        return None


class _Body:
    """The numbered rules: sections, chapters, rules, subrules, examples, continuation lines."""

    def __init__(self, b: Builder, contents: set[str]):
        self.b = b
        self.src = b.source.id
        self.contents = contents
        self.labels: dict[str, str] = {}
        self.section: Record | None = None
        self.chapter: Record | None = None
        self.rule: Record | None = None  # the last unlettered rule
        self.owner: Record | None = None  # what continuation lines and examples attach to
        self.previous: str | None = None  # the last rule number, for the sequence check

    def path(self, record: Record | None) -> list[str]:
        return [*record.section, self.labels[record.id]] if record else []

    def heading(self, kind: str, number: str, title: str, i: int, raw: str, parent: Record | None) -> Record:
        record = self.b.add(number, kind, i + 1, raw, number=number, title=clean(title),
                            parent=parent.id if parent else None, section=self.path(parent))
        self.b.para(record, record.title)
        self.labels[record.id] = f"{number}. {record.title}"
        if self.contents and clean(raw) not in self.contents:
            record.flags.append("not listed in the Contents")
        return record

    def line(self, i: int, raw: str, lines: list[str]) -> None:
        line = raw.rstrip()
        if m := _RULE.match(line):
            self.numbered(i, raw, m.group(1), m.group(2), bool(m.group(3)), m.group(4))
        elif m := _CHAPTER.match(line):
            self.chapter = self.heading("chapter", m.group(1), m.group(2), i, raw, self.section)
            if self.section and not m.group(1).startswith(self.section.number or "-"):
                self.chapter.flags.append(f"chapter {m.group(1)} printed under section {self.section.number}")
            self.rule = None
            self.owner = self.chapter
        elif (m := _SECTION.match(line)) and is_blank(lines[i - 1]) and _title_like(m.group(2)):
            self.section = self.heading("section", m.group(1), m.group(2), i, raw, None)
            self.chapter = self.rule = None
            self.owner = self.section
        elif m := _MISPRINT.match(line):
            self.misprint(i, raw, m.group(1), m.group(2), m.group(3))
        elif line.startswith("Example:"):
            if self.owner is None:
                self.b.warn(i + 1, "example before any rule")
            else:
                self.b.example(self.owner, i + 1, raw, self.path(self.owner))
        elif self.owner is None:
            self.b.warn(i + 1, f"text before any section or rule: {line.strip()[:60]!r}")
        else:
            self.b.para(self.owner, clean(line), raw)

    def numbered(self, i: int, raw: str, base: str, letter: str, dot: bool, rest: str) -> None:
        number = base + letter
        flags: list[str] = []
        if letter:
            parent = self.b.by_id.get(f"{self.src}:{base}")
            if parent is None:
                parent = self.chapter
                flags.append(f"rule {base} not found: placed under chapter")
            if dot:
                flags.append("printed with a period after its number")
        else:
            parent = self.b.by_id.get(f"{self.src}:{base[:_CHAPTER_DIGITS]}")
            if not dot:
                flags.append("printed without the period after its number")
        if parent is None:
            self.b.warn(i + 1, f"rule {number} has no chapter {base[:_CHAPTER_DIGITS]}")
        if self.previous and number_key(number) <= number_key(self.previous):
            flags.append(f"out of sequence: printed after {self.previous}")
        text = clean(rest)
        title = text if not letter and dot and _title_like(text) else None
        record = self.b.add(number, "rule", i + 1, raw, number=number, title=title, flags=flags,
                            parent=parent.id if parent else None, section=self.path(parent))
        self.b.para(record, text)
        self.labels[record.id] = f"{number}. {title}" if title else number
        self.previous = number
        self.owner = record
        if not letter:
            self.rule = record

    def misprint(self, i: int, raw: str, chapter: str, letter: str, rest: str) -> None:
        """A subrule printed without its rule number: kept as printed, placed under the rule it follows."""
        number = f"{chapter}.{letter}"
        parent = self.rule if self.rule and self.rule.number.startswith(chapter + ".") else self.chapter
        where = parent.number if parent else "nothing"
        record = self.b.add(number, "rule", i + 1, raw, number=number, parent=parent.id if parent else None,
                            section=self.path(parent),
                            flags=[f"misprinted number {number}: placed under {where}, the rule it follows"])
        self.b.para(record, clean(rest))
        self.labels[record.id] = number
        self.previous = number
        self.b.notes.append(f"{self.src}: line {i + 1}: misprinted rule number {number!r} kept as printed")
        self.owner = record


def _contents(lines: list[str]) -> tuple[int, int, list[str]] | None:
    """(index of 'Contents', index where the body starts, entry lines) or None if there is none."""
    at = next((i for i, line in enumerate(lines) if line.strip() == "Contents"), None)
    if at is None:
        return None
    first = next((i for i in range(at + 1, len(lines)) if not is_blank(lines[i])), None)
    if first is None:
        return None
    key = lines[first].strip()
    body = next((i for i in range(first + 1, len(lines)) if lines[i].strip() == key), None)
    if body is None:
        return None
    return at, body, [lines[i].strip() for i in range(first, body) if not is_blank(lines[i])]


def parse(text: str, source: Source) -> Parsed:
    """Records for one Comprehensive Rules release; see the module docstring for the layout."""
    lines = text.split("\n")
    b = Builder(source)
    meta: dict = {}
    found = _contents(lines)
    if found:
        at, body_start, entries = found
        numbered = [n for n, e in enumerate(entries) if _SECTION.match(e) or _CHAPTER.match(e)]
        back = [e for e in entries[numbered[-1] + 1:] if e != "Glossary"] if numbered else []
    else:
        body_start = next((i for i, line in enumerate(lines) if i > 0 and (
            _SECTION.match(line) or _CHAPTER.match(line) or _RULE.match(line))), len(lines))
        at, entries, back = body_start, [], []
    back = back or ["Credits"]
    if not any(_RULE.match(line) for line in lines[body_start:]):
        raise SourceError("no numbered rules found", str(source.path),
                          "is this a Comprehensive Rules text file? check 'format' in sources.toml")
    _front(b, lines, at)
    if found:
        _note(b, lines, "contents", "Contents", list(range(at, body_start)), per_line=True)
    glossary = next((i for i in range(body_start, len(lines)) if lines[i].strip() == "Glossary"), None)
    back_at = next((i for i in range(glossary or body_start, len(lines)) if lines[i].strip() == back[0]
                    and (i + 1 == len(lines) or is_blank(lines[i + 1]) or glossary is None)), len(lines))
    body = _Body(b, {clean(e) for e in entries})
    for i in range(body_start, glossary if glossary is not None else back_at):
        if not is_blank(lines[i]):
            body.line(i, lines[i], lines)
    if glossary is not None:
        heading = b.add("glossary", "section", glossary + 1, lines[glossary], title="Glossary")
        b.para(heading, "Glossary")
        parse_glossary(b, lines, glossary + 1, back_at, heading)
    _back(b, lines, back_at, set(back))
    effective = _effective(" ".join(b.paras.get(f"{source.id}:document", [])) or text)
    if effective:
        meta["effective"] = effective
    else:
        b.notes.append(f"{source.id}: no 'current as of' / 'effective as of' date found")
    meta["title"] = b.records[0].title if b.records and b.records[0].kind == "document" else None
    return Parsed(b.finish(), b.warnings, notes=b.notes, meta=meta)


def _back(b: Builder, lines: list[str], start: int, headings: set[str]) -> None:
    """Credits, 'Questions?' and contact addresses: one note per heading."""
    groups: list[list[int]] = []
    for i in range(start, len(lines)):
        if lines[i].strip() in headings and (i == start or is_blank(lines[i - 1])):
            groups.append([i])
        elif not is_blank(lines[i]):
            if not groups:
                b.warn(i + 1, f"text after the glossary before any heading: {lines[i].strip()[:60]!r}")
                continue
            groups[-1].append(i)
    for idxs in groups:
        heading = lines[idxs[0]].strip()
        _note(b, lines, slugify(heading), heading, idxs)
