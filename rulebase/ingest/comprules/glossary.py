"""The Comprehensive Rules glossary, and the record builder both comprules modules share.

The glossary changed shape over the years: 2008 entries are a term line, a definition line and
continuation paragraphs indented five spaces (one entry even follows the previous one with no
blank line between); 2025 entries are a term line and one or a few unindented definition lines.
Both are read by one loop: a block starts with its term, later lines are paragraphs of it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from rulebase.core.records import Record, Ref, slugify
from rulebase.core.sources import Source
from rulebase.ingest.refs import find_rule_refs
from rulebase.ingest.text import Warning_

_ITALIC = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_QUALIFIER = re.compile(r"\s*\((Obsolete|Informal)\)\s*$")
_TERM_PART = re.compile(r"\u201c[^\u201d]*\u201d|\"[^\"]*\"|[^,]+")
_QUOTES = "\"'\u201c\u201d\u2018\u2019 ,."
_SEE = re.compile(r"\b[Ss]ee (?:also )?(?P<list>(?:\u201c[^\u201d]*\u201d|\"[^\"]*\"|[^.;()\u201c\"])+)")
_SENSE = re.compile(r"\d{1,2}\. \S")  # "2. A counter is a marker...": a further sense of the entry above
# "Ability1. Text on an object..." (2021-06-09): a term line run into its first sense.
_GLUED = re.compile(r"(?P<term>[A-Z][^\d.]*?[a-z’”)])(?P<sense>1\. \S.*)$")
_LIST_SPLIT = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")


# Consecutive releases share almost all of their text, so the pure per-paragraph work below is
# memoised: parsing the 128-release archive repeats it ~100 times per paragraph otherwise.
_MEMO = 1 << 15


@lru_cache(maxsize=_MEMO)
def _cited(text: str) -> tuple[tuple[str, str, str], ...]:
    if "ule" not in text and "ection" not in text:  # find_rule_refs needs 'rule(s)' or 'section(s)'
        return ()
    return tuple((ref.label, ref.kind, ref.key) for ref in find_rule_refs(text))


def rule_refs(text: str) -> list[Ref]:
    """`find_rule_refs(text)`, memoised; fresh Ref objects each call (the linker fills them in)."""
    return [Ref(label, kind, key) for label, kind, key in _cited(text)]


@lru_cache(maxsize=_MEMO)
def clean(text: str) -> str:
    """Clean paragraph text: `_italics_` markers dropped, whitespace folded; quotes kept."""
    return " ".join((_ITALIC.sub("", text) if "_" in text else text).split())


def is_blank(line: str) -> bool:
    """Empty, or a ruler of dashes or equals signs (Crystal Keep's 1999 text frames its headings
    with them): either way a line that separates, never text."""
    s = line.strip()
    return not s or s[0] in "-=" and len(s) > 3 and not s.strip(s[0])


def is_example(line: str) -> bool:
    """'Example:' (and 1999's 'EXAMPLE:'), indented or not."""
    s = line.lstrip()
    return s.startswith("Example:") or s.startswith("EXAMPLE:")


@dataclass
class Builder:
    """Collects records in document order; paragraphs and raw lines are joined at the end."""

    source: Source
    records: list[Record] = field(default_factory=list)
    by_id: dict[str, Record] = field(default_factory=dict)
    paras: dict[str, list[str]] = field(default_factory=dict)
    raws: dict[str, list[str]] = field(default_factory=dict)
    warnings: list[Warning_] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    examples: dict[str, int] = field(default_factory=dict)
    copies: dict[str, int] = field(default_factory=dict)  # per repeated id, the next '~n' to try
    runs: dict[str, list[str]] = field(default_factory=dict)  # lines still to run on to the last paragraph

    def add(self, local: str, kind: str, line: int, raw: str, **fields) -> Record:
        rid = f"{self.source.id}:{local}"
        flags = list(fields.pop("flags", []))
        if rid in self.by_id:
            n = self.copies.get(rid, 2)  # where the last search for a free '~n' stopped: linear, not quadratic
            while f"{rid}~{n}" in self.by_id:
                n += 1
            self.copies[rid] = n + 1
            flags.append(f"duplicate id {rid}: stored as {rid}~{n}")
            self.notes.append(f"{self.source.id}: line {line}: duplicate id {rid}")
            rid = f"{rid}~{n}"
        s = self.source
        record = Record(id=rid, source=s.id, edition=s.edition, lang=s.lang, kind=kind, text="", raw="",
                        order=len(self.records) + 1, line=line, flags=flags, **fields)
        self.records.append(record)
        self.by_id[rid] = record
        self.paras[rid] = []
        self.raws[rid] = [raw]
        return record

    def para(self, record: Record, text: str, raw: str | None = None) -> None:
        """Add a paragraph of clean text (and its raw line, unless the caller already stored it)."""
        if text:
            self.paragraphs(record.id).append(text)
        if raw is not None:
            self.raws[record.id].append(raw)

    def extend(self, record: Record, text: str, raw: str) -> None:
        """Run a hard-wrapped line on into the record's last paragraph (and keep its raw line).

        The pieces are joined once, when the paragraphs are read: joining them line by line
        copied the paragraph each time, quadratic in a hostile file's one endless paragraph."""
        if text:
            if self.paras[record.id]:
                self.runs.setdefault(record.id, []).append(text)
            else:
                self.paras[record.id].append(text)
        self.raws[record.id].append(raw)

    def paragraphs(self, rid: str) -> list[str]:
        """The record's paragraphs so far, hard-wrapped lines run on."""
        paras = self.paras[rid]
        run = self.runs.pop(rid, None)
        if run:
            paras[-1] = " ".join([paras[-1], *run])
        return paras

    def example(self, parent: Record, line: int, raw: str, section: list[str]) -> Record:
        n = self.examples.get(parent.id, 0) + 1
        self.examples[parent.id] = n
        local = parent.id.split(":", 1)[1]
        record = self.add(f"{local}.example{n}", "example", line, raw, parent=parent.id, section=section)
        self.para(record, clean(raw))
        return record

    def warn(self, line: int, message: str) -> None:
        self.warnings.append(Warning_(str(self.source.path), line, message))

    def finish(self) -> list[Record]:
        for record in self.records:
            record.text = "\n\n".join(self.paragraphs(record.id))
            record.raw = "\n".join(self.raws[record.id])
            if record.kind in ("rule", "example", "glossary"):
                record.refs = rule_refs(record.text) + record.refs
        return self.records


def _names(term_line: str) -> tuple[str, list[str], list[str]]:
    """'Remove from the Game, Removed (Obsolete)' -> (name, other names, flags)."""
    flags: list[str] = []
    qualifier = _QUALIFIER.search(term_line)
    if qualifier:
        flags.append(qualifier.group(1).lower())
        term_line = term_line[: qualifier.start()]
    parts = [p.strip(_QUOTES) for p in _TERM_PART.findall(term_line)]
    parts = [p for p in parts if p]
    return (parts[0] if parts else term_line.strip()), parts[1:], flags


def _is_term_line(lines: list[str], i: int) -> bool:
    """An unindented, title-like line followed by an unindented definition line."""
    line = lines[i]
    if is_blank(line) or line[0].isspace() or is_example(line) or i + 1 >= len(lines):
        return False
    nxt = lines[i + 1]
    if is_blank(nxt) or nxt[0].isspace():
        return False
    stripped = line.strip()
    return len(stripped) <= 60 and stripped[-1] not in ".:;!?" and len(stripped.split()) <= 8


def _blocks(lines: list[str], start: int, end: int, wrapped: bool) -> list[list[int]]:
    """Line indexes of each entry. An entry starts after a blank line, or at a term line inside a
    block (2008's 'Floor Rules'; not in hard-wrapped text, where a short run-on line looks like one).
    An indented block, and a one-line block just above one, are a table inside the entry before
    (2003's 'Expansion Symbol' lists the sets under 'Expansions and Editions', 'Promotional Cards')."""
    blocks: list[list[int]] = []
    for i in range(start, end):
        if is_blank(lines[i]):
            continue
        sense = blocks and _SENSE.match(lines[i])  # a numbered sense after a blank line stays in its entry
        if not blocks or (is_blank(lines[i - 1]) and not sense) or (not wrapped and _is_term_line(lines, i)):
            blocks.append([i])
        else:
            blocks[-1].append(i)
    merged: list[list[int]] = []
    for n, blk in enumerate(blocks):
        row = lines[blk[0]][:1].isspace()
        caption = len(blk) == 1 and n + 1 < len(blocks) and lines[blocks[n + 1][0]][:1].isspace()
        if merged and (row or caption):
            merged[-1].extend(blk)
        else:
            merged.append(blk)
    return merged


def parse_glossary(b: Builder, lines: list[str], start: int, end: int, parent: Record,
                   wrapped: bool = False, indented: bool = False) -> list[Record]:
    """Glossary entries from lines[start:end] (0-based), children of the `parent` heading record.
    In hard-wrapped text an unindented line after a definition or example line runs on it; in
    text wrapped with an indent (1999-04-23: every definition line indented two spaces) any line
    right after a definition line does."""
    blocks = _blocks(lines, start, end, wrapped)
    entries: list[tuple[Record, str]] = []
    section = [parent.title or "Glossary"]
    titles = Counter(_names(lines[blk[0]].strip())[0].lower() for blk in blocks)
    see_phrases = {m.group("list").strip(_QUOTES).lower()
                   for i in range(start, end) if "ee " in lines[i] for m in _SEE.finditer(lines[i])}
    for blk in blocks:
        first = blk[0]
        term_line, glued = lines[first].strip(), None
        joined = _GLUED.match(term_line)
        if joined and len(blk) > 1 and lines[blk[1]].startswith("2. "):
            term_line, glued = joined["term"], joined["sense"]
        name, others, flags = _names(term_line)
        whole = _QUALIFIER.sub("", term_line).strip(_QUOTES)
        if others and (term_line.lower() in see_phrases or whole.lower() in see_phrases
                       or titles[name.lower()] > 1 or any(titles[o.lower()] for o in others)):
            name, others = whole, []  # 'Active Player, Nonactive Player Order' is one term
        title = f"{name} ({flags[0].capitalize()})" if flags else name
        slug = slugify(name)
        if f"{b.source.id}:glossary.{slug}" in b.by_id:
            slug = slugify(term_line)
        entry = b.add(f"glossary.{slug}", "glossary", first + 1, lines[first], title=title, aliases=others,
                      flags=flags, parent=parent.id, section=section)
        entries.append((entry, name))
        if glued:
            b.para(entry, clean(glued))  # (its raw line is the entry's first)
        if len(blk) == 1 and not glued:
            entry.flags.append("no definition text")
        current = entry  # the entry, or the example a run-on line continues
        for k, i in enumerate(blk[1:], 1):
            raw = lines[i]
            if is_example(raw):
                current = b.example(entry, i + 1, raw, [*section, title])
            elif k > 1 and (indented or wrapped and not raw[:1].isspace()) and not is_blank(lines[i - 1]):
                b.extend(current, clean(raw), raw)
            else:
                b.para(entry, clean(raw), raw)
                current = entry
    _glossary_refs(b, entries)
    return [entry for entry, _name in entries]


def _glossary_refs(b: Builder, entries: list[tuple[Record, str]]) -> None:
    """'See Landwalk', 'See also Tap, Tapped, and Untap': one glossary Ref per term named."""
    known: dict[str, str] = {}
    for entry, name in entries:
        for term in [name, *entry.aliases]:
            known.setdefault(term.lower(), entry.id)
    for entry, _name in entries:
        text = "\n".join(b.paragraphs(entry.id))
        for match in _SEE.finditer(text):
            entry.refs.extend(_see_refs(match, known, entry.id))


def _see_refs(match: re.Match, known: dict[str, str], own: str) -> list[Ref]:
    phrase = match.group("list").strip(_QUOTES)
    label = match.group(0).rstrip(" ,.")
    if not phrase or not (phrase[0].isupper() or phrase[0] in "\"\u201c"):
        return []
    if phrase.lower() in known:
        return [Ref(label, "glossary", phrase.lower(), known[phrase.lower()])]
    refs: list[Ref] = []
    for part in _LIST_SPLIT.split(phrase):
        part = part.strip(_QUOTES)
        if not part or not part[0].isupper() or part.split()[0].lower() in ("rule", "rules", "section"):
            continue
        key = part.lower()
        target = known.get(key) or (known.get(key[:-1]) if key.endswith("s") else None)
        if target == own:
            continue
        refs.append(Ref(label, "glossary", key, target))  # unresolved: the linker tries the corpus
    return refs
