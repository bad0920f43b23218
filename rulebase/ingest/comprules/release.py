"""Parser for the official Magic: The Gathering Comprehensive Rules (plain-text releases).

The layout has been stable since 2008: title, effective date, introduction, a table of Contents
that repeats every section and chapter heading, the numbered rules, the Glossary, credits.
The Contents is read only to learn the headings (it must not create records twice); the body
starts at the first numbered rule after it, with the chapter and section headings just above (the
Contents headings do not always match the body's: 2009-07-11 lists "1. Game Concepts" over a body
"1. The Game"). Rules are placed by their number, never by walking the alphabet: subrule letters
skip 'l' and 'o', and the official text has a few misprinted numbers, which are kept and flagged.
A few releases (2003-10-01 to 2004-02-01) are hard-wrapped: unindented lines that follow a
non-blank line run on the paragraph above. A release that ends early (no rules, a glossary cut
off before the back matter its Contents lists) is an error or a warning, never a quiet success.
"""

from __future__ import annotations

import gc
import re
from datetime import datetime
from functools import lru_cache

from rulebase.core.errors import SourceError
from rulebase.core.records import Record, number_key, slugify
from rulebase.core.sources import Source
from rulebase.ingest.comprules.glossary import Builder, clean, is_blank, is_example, parse_glossary
from rulebase.ingest.text import Parsed

_DATE = re.compile(r"(?:current|effective) as of ([A-Z][a-z]+ \d{1,2}, \d{4})")
# `(\S(?:.*\S)?)\s*$` is the text up to its last non-space: what `(\S.*?)\s*$` captures, without
# the lazy group's retry at every character of a long rule line.
_TEXT = r"(\S(?:.*\S)?)\s*$"
_SECTION = re.compile(r"^(\d{1,2})\.\s+" + _TEXT)
_CHAPTER = re.compile(r"^(\d{3})\.\s+" + _TEXT)
_RULE = re.compile(r"^(\d{3}\.\d+)([a-z]?)(\.?)\s+" + _TEXT)
_MISPRINT = re.compile(r"^(\d{3})\.([a-z])\.?\s+" + _TEXT)  # '306.b If an effect ...' (2008)
_SPACED = re.compile(r"^(\d{3})\.\s+(\d+)([a-z]?)\s+" + _TEXT)  # '606. 8b Players win ...' (2005-2007)
_RUNS_ON = re.compile(r"\b(?:[Rr]ules?|[Ss]ee|[Ss]ections?|and)\s*$")  # '... See rule' / '419.8 "Sources ..."'
_CITES = re.compile(r"\b[Ss]ee (?:also )?(?:rules?|section) \d")
_HEADING = re.compile(r"^[A-Z][A-Za-z' ]{0,40}\??$")
_LEADER = re.compile(r"\s*\.{4,}\s*\d*\s*$")  # 1999-11-01's Contents: 'Glossary.........46'
_RUN_IN = re.compile(r"[a-z.]\d{3}\.\d+[a-z]?\.? [A-Z]")  # 'Concepts100. General100.1. These': lost line breaks
_BACK = ("Index", "Credits", "Questions?", "Copyrights")  # back-matter headings the Contents may not list
_CHAPTER_DIGITS = 3  # "502.83a" belongs to chapter "502"
_number_key = lru_cache(maxsize=1 << 14)(number_key)  # the same numbers recur in every release


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
    # 'COMPREHENSIVE' / 'RULES' (1999-11-01): a title printed over two or three short lines
    title_lines = blocks[0] if len(blocks[0]) <= 3 and all(
        len(lines[i].strip()) <= 40 and not _DATE.search(lines[i]) for i in blocks[0]) else [title_i]
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
    raw = _span(lines, [*title_lines, *date_block])
    doc = b.add("document", "document", title_i + 1, raw, title=clean(" ".join(lines[i] for i in title_lines)))
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

    def __init__(self, b: Builder, contents: set[str], wrapped: bool = False, indented: bool = False,
                 start: int = 0):
        self.b = b
        self.wrapped = wrapped  # hard-wrapped text: unindented lines after a non-blank line run on
        self.indented = indented  # wrapped with indented subrules (1999-04-23): any such line runs on
        self.start = start  # the body's first line, a heading even with no blank line above it
        self.last: Record | None = None  # the record the previous line went to
        self.src = b.source.id
        self.contents = contents
        self.labels: dict[str, str] = {}
        self.section: Record | None = None
        self.chapter: Record | None = None
        self.rule: Record | None = None  # the last unlettered rule
        self.owner: Record | None = None  # what continuation lines and examples attach to
        self.previous: str | None = None  # the last rule number, for the sequence check
        self.previous_key: tuple = ()  # number_key(self.previous), computed once

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
        indent = line[:1].isspace()
        if indent:  # ' 509.1c ...' (2009), '   100. General' (1999-11-01), '  502.9a' (1999-04-23)
            line = line.lstrip()
        digit = line[:1].isdigit()  # every numbered form starts with a digit: most lines skip the regexes
        if self.last is not None and self.runs_on(line, digit, lines[i - 1], indent):
            self.b.extend(self.last, clean(line), raw)
        elif digit and (m := _RULE.match(line)):
            self.numbered(i, raw, m.group(1), m.group(2), bool(m.group(3)), m.group(4))
        elif digit and self.chapter and (m := _SPACED.match(line)) and m.group(1) == self.chapter.number:
            self.numbered(i, raw, f"{m.group(1)}.{m.group(2)}", m.group(3), False, m.group(4),
                          [f"misprinted number {' '.join(line.split()[:2])!r} read as {m.group(1)}.{m.group(2)}"
                           f"{m.group(3)}"])
        elif digit and (m := _CHAPTER.match(line)):
            self.chapter = self.heading("chapter", m.group(1), m.group(2), i, raw, self.section)
            if self.section and not m.group(1).startswith(self.section.number or "-"):
                self.chapter.flags.append(f"chapter {m.group(1)} printed under section {self.section.number}")
            self.rule = None
            self.owner = self.last = self.chapter
        elif digit and (m := _SECTION.match(line)) and (is_blank(lines[i - 1]) or i == self.start) \
                and _title_like(m.group(2)):
            self.section = self.heading("section", m.group(1), m.group(2), i, raw, None)
            self.chapter = self.rule = None
            self.owner = self.last = self.section
        elif digit and (m := _MISPRINT.match(line)):
            self.misprint(i, raw, m.group(1), m.group(2), m.group(3))
        elif is_example(line):  # 2009-07-11 indents one; 1999 prints 'EXAMPLE:'
            if self.owner is None:
                self.b.warn(i + 1, "example before any rule")
            else:
                self.last = self.b.example(self.owner, i + 1, raw, self.path(self.owner))
        elif self.owner is None:
            self.b.warn(i + 1, f"text before any section or rule: {line.strip()[:60]!r}")
        else:
            self.b.para(self.owner, clean(line), raw)
            self.last = self.owner

    def runs_on(self, line: str, digit: bool, above: str, indent: bool) -> bool:
        """Is this line the rest of the paragraph above? A number after '... See rule' is (wrapped
        text: 2003-10-01 '... See rule' / '419.8 "Sources of Damage."'); in hard-wrapped text so is
        every unindented line that is not a rule, heading or example (with indented subrules, every
        such line)."""
        if is_blank(above):
            return False
        if digit:
            return bool(_RUNS_ON.search(above)) or self.wrapped and not any(
                p.match(line) for p in (_RULE, _CHAPTER, _SECTION, _MISPRINT))
        return self.wrapped and (self.indented or not indent) and not is_example(line)

    def numbered(self, i: int, raw: str, base: str, letter: str, dot: bool, rest: str,
                 flags: list[str] | None = None) -> None:
        number = base + letter
        flags = list(flags or [])
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
        key = _number_key(number)
        if self.previous and key <= self.previous_key:
            flags.append(f"out of sequence: printed after {self.previous}")
        text = clean(rest)
        title = text if not letter and dot and _title_like(text) else None
        record = self.b.add(number, "rule", i + 1, raw, number=number, title=title, flags=flags,
                            parent=parent.id if parent else None, section=self.path(parent))
        self.b.para(record, text)
        self.labels[record.id] = f"{number}. {title}" if title else number
        self.previous, self.previous_key = number, key
        self.owner = self.last = record
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
        self.previous, self.previous_key = number, _number_key(number)
        self.b.notes.append(f"{self.src}: line {i + 1}: misprinted rule number {number!r} kept as printed")
        self.owner = self.last = record


def _contents(lines: list[str]) -> tuple[int, int, list[str]] | None:
    """(index of 'Contents', index where the body starts, entry lines) or None if there is none.

    The body starts at the first numbered rule after 'Contents' (the Contents lists headings, never
    rules), moved up over the chapter heading above it and the section heading above that when
    their numbers fit ('100. General' over 100.1, '1. ...' over chapter 100). No heading text is
    compared with the Contents, which does not always match the body."""
    at = next((i for i, line in enumerate(lines) if line.strip() == "Contents"), None)
    if at is None:
        return None
    rule = next((i for i in range(at + 1, len(lines)) if lines[i][:1].isdigit() and _RULE.match(lines[i].rstrip())),
                None)
    if rule is None:
        return None
    body, number = rule, lines[rule].split(".", 1)[0]  # "100.1. These ..." -> chapter "100"
    for pattern in (_CHAPTER, _SECTION):
        above = next((i for i in range(body - 1, at, -1) if not is_blank(lines[i])), None)
        m = pattern.match(lines[above].strip()) if above is not None else None
        if not m or m.group(1) != number:
            break
        body, number = above, number[0]
    return at, body, _entries(lines, at + 1, body)


def _entries(lines: list[str], start: int, end: int) -> list[str]:
    """The Contents' entries without page numbers ('Glossary.....46' -> 'Glossary'), up to two blank
    lines in a row: what follows them (1999-04-23's introduction) is not part of the list."""
    entries: list[str] = []
    for i in range(start, end):
        if is_blank(lines[i]):
            if entries and i + 1 < end and not lines[i].strip() and not lines[i + 1].strip():
                break
            continue
        entry = lines[i].strip()
        entries.append(_LEADER.sub("", entry) if "...." in entry else entry)
    return entries


def _wrapped(lines: list[str], start: int, end: int) -> tuple[bool, bool]:
    """Hard-wrapped text: more unindented run-on lines than a quarter of the numbered lines (three
    releases have ~1600 such lines for ~700 rules; the others fewer than a dozen). And whether its
    subrules are indented (1999-04-23: '  502.9a', wrapped at the same indent): more than a quarter
    of the numbered lines."""
    runs = numbered = indented = 0
    for i in range(start, end):
        line = lines[i]
        if not line:
            continue
        if line[0].isspace():
            if line.lstrip()[:1].isdigit() and _RULE.match(line.strip()):
                indented += 1
            continue
        if line[0].isdigit():
            numbered += 1
        elif not is_blank(lines[i - 1]) and not is_example(line):
            runs += 1
    wrapped = runs * 4 > numbered
    return wrapped, wrapped and indented * 4 > numbered + indented


def parse(text: str, source: Source) -> Parsed:
    """Records for one Comprehensive Rules release; see the module docstring for the layout.

    The cyclic garbage collector is paused meanwhile: a release makes ~10,000 objects and no
    cycles, and a caller that keeps many releases (the 128-release archive) otherwise pays for
    full collections over everything it keeps, which more than doubles the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _parse(text, source)
    finally:
        if enabled:
            gc.enable()


def _parse(text: str, source: Source) -> Parsed:
    lines = text.split("\n")
    b = Builder(source)
    meta: dict = {}
    found = _contents(lines)
    if found:
        at, body_start, entries = found
        numbered = [n for n, e in enumerate(entries) if _SECTION.match(e) or _CHAPTER.match(e)]
        listed = [e for e in entries[numbered[-1] + 1:] if e != "Glossary"] if numbered else []
    else:
        body_start = next((i for i, line in enumerate(lines) if i > 0 and (
            _SECTION.match(line) or _CHAPTER.match(line) or _RULE.match(line))), len(lines))
        at, entries, listed = body_start, [], []
    back = listed or ["Credits"]
    if not any(_RULE.match(line) for line in lines[body_start:]):
        lost_breaks(lines, str(source.path))
        raise SourceError("no numbered rules found", str(source.path),
                          "is this a Comprehensive Rules text file? check 'format' in sources.toml")
    _front(b, lines, at)
    if found:
        _note(b, lines, "contents", "Contents", list(range(at, body_start)), per_line=True)
    glossary = next((i for i in range(body_start, len(lines)) if lines[i].strip() == "Glossary"), None)
    back_at = next((i for i in range(glossary or body_start, len(lines)) if lines[i].strip() == back[0]
                    and (i + 1 == len(lines) or is_blank(lines[i + 1]) or glossary is None)), len(lines))
    body_end = glossary if glossary is not None else back_at
    wrapped, indented = _wrapped(lines, body_start, body_end)
    if wrapped:
        b.notes.append(f"{source.id}: hard-wrapped text: run-on lines joined into their paragraphs")
    body = _Body(b, {clean(e) for e in entries}, wrapped, indented, body_start)
    for i in range(body_start, body_end):
        if not is_blank(lines[i]):
            body.line(i, lines[i], lines)
    if not any(r.kind == "rule" for r in b.records):
        raise SourceError(f"no numbered rules found in the body (lines {body_start + 1}-{body_end})",
                          str(source.path), "is this a complete Comprehensive Rules text file?")
    if glossary is not None:
        heading = b.add("glossary", "section", glossary + 1, lines[glossary], title="Glossary")
        b.para(heading, "Glossary")
        glossed = parse_glossary(b, lines, glossary + 1, back_at, heading, wrapped, indented)
        _glossary_end(b, lines, glossed, heading, back_at, listed)
    elif "Glossary" in entries:
        b.warn(_last_line(lines, body_end), "the Contents lists a Glossary but no 'Glossary' heading follows the rules")
    _back(b, lines, back_at, {*back, *_BACK})
    effective = _effective(" ".join(b.paragraphs(f"{source.id}:document") if f"{source.id}:document" in b.paras else []) or text)
    if effective:
        meta["effective"] = effective
    else:
        b.notes.append(f"{source.id}: no 'current as of' / 'effective as of' date found")
    meta["title"] = b.records[0].title if b.records and b.records[0].kind == "document" else None
    records = b.finish()
    if "---" in text or "===" in text:
        _place_rulers(b, lines, records)
    return Parsed(records, b.warnings, notes=b.notes, meta=meta)


def lost_breaks(lines: list[str], name: str) -> None:
    """Raise a SourceError that says so when a text's line breaks were lost (a copy saved by a tool
    that read bare CRs as nothing): a few very long lines with rule numbers run into the text
    before them. No rule starts a line, so no rule could be placed by its number."""
    longest = max(lines, key=len)
    if len(longest) < 10_000:
        return
    runs = [m for line in lines for m in _RUN_IN.finditer(line)]
    if len(runs) < 10:
        return
    first = runs[0]
    raise SourceError(f"no numbered rule starts a line: the text is {len(lines)} line(s), the longest "
                      f"{len(longest):,} characters, its rules run into each other "
                      f"({first.string[max(0, first.start() - 20):first.start() + 30]!r}): its line breaks "
                      "were lost", name,
                      "take a copy with its line breaks (LF, CRLF or CR) and read that")


def _place_rulers(b: Builder, lines: list[str], records: list[Record]) -> None:
    """Rulers ('-----', '=====') frame Crystal Keep's 1999 headings. The parser reads them as
    blank lines; here each one no record's lines already span joins the raw of the record that
    holds the nearest line above it (the heading it underlines, the text it closes), so every
    source line stays in a record; one above the title starts the document record."""
    rulers = [i for i, line in enumerate(lines) if line.strip() and is_blank(line)]
    if not rulers:
        return
    owner: dict[int, tuple[Record, int]] = {}  # line index -> (record, index of that line in its raw)
    parts_of: dict[str, list[str]] = {}
    for record in records:
        parts = parts_of[record.id] = record.raw.split("\n")
        pos = record.line - 1
        owner[pos] = (record, 0)
        for k, part in enumerate(parts[1:], 1):
            if not part.strip():
                continue
            pos += 1
            while pos < len(lines) and lines[pos] != part:
                pos += 1
            owner[pos] = (record, k)
    inserts: dict[str, list[tuple[int, int, str]]] = {}  # record id -> (after raw part, order, line)
    top: int | None = None
    for i in rulers:
        if i in owner:
            continue
        above = next((j for j in range(i - 1, -1, -1) if j in owner), None)
        if above is None:  # above the title (1999-04-23's '=====' banner): the document's first line
            top = top if top is not None else i
            continue
        record, k = owner[above]
        inserts.setdefault(record.id, []).append((k, i, lines[i]))
        owner[i] = (record, k)
    for record in records:
        if record.id in inserts:
            parts = parts_of[record.id]
            for k, _i, line in sorted(inserts[record.id], reverse=True):
                parts.insert(k + 1, line)
            record.raw = "\n".join(parts)
    if top is not None:
        first = records[0]
        first.raw, first.line = "\n".join([*lines[top:first.line - 1], first.raw]), top + 1


def _last_line(lines: list[str], end: int) -> int:
    """The 1-based number of the last non-blank line before index `end` (1 if there is none)."""
    return next((i + 1 for i in range(min(end, len(lines)) - 1, -1, -1) if not is_blank(lines[i])), 1)


def _glossary_end(b: Builder, lines: list[str], entries: list[Record], heading: Record, end: int,
                  listed: list[str]) -> None:
    """Warn when the glossary ends early: it runs to the end of the file although the Contents lists
    back matter after it (2013-02-01 stops at 'Attack Multiple Players'), or its last entry has no
    definition."""
    if not entries:
        b.warn(heading.line, "the glossary has no entries")
        return
    last = entries[-1]
    letters = sorted({(r.title or "?")[0].upper() for r in entries})
    where = f"{len(entries)} entries, letters {letters[0]}-{letters[-1]}, the last {last.title!r} at line {last.line}"
    if end == len(lines) and listed:
        b.warn(_last_line(lines, end), f"the glossary runs to the end of the file ({where}) with no {listed[0]!r}, which the "
                   "Contents lists after it: the file looks truncated")
    elif "no definition text" in last.flags:
        b.warn(last.line, f"the last glossary entry has no definition ({where}): the glossary looks cut short")


def _back(b: Builder, lines: list[str], start: int, headings: set[str]) -> None:
    """Credits, 'Questions?' and contact addresses: one note per heading. Numbered rules or glossary
    cross-references here mean the rules or the glossary were cut short: one warning each."""
    rules = [i for i in range(start, len(lines)) if lines[i][:1].isdigit() and _RULE.match(lines[i].rstrip())]
    if rules:
        b.warn(rules[0] + 1, f"{len(rules)} numbered rule line(s) after the glossary, in the back matter")
    cites = [i for i in range(start, len(lines)) if "ee " in lines[i] and _CITES.search(lines[i])]
    if cites:
        b.warn(cites[0] + 1, f"{len(cites)} line(s) after the glossary cite rules like glossary entries: "
                             f"{lines[cites[0]].strip()[:60]!r}")
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
