"""From a file's units to records: the document's numbered sections and subsections as it numbers
them (MTR '2.2 Play/Draw Rule', IPG '2.1. Game Play Error — Missed Trigger'), its named sections
(Introduction, the appendices, the JAR's 'Common Issues' and the issues under it), its contents
and its title and date.

Which headings are the sections is read from the file, whatever its markup: a heading is a unit
marked as one (or bold, or a short numbered line of the PDF) that reads 'N.N Title'. The contents
list the same headings: a heading with no text of its own followed by one that is not its first
subsection is a contents entry, so is a line naming a section the body heads later, or a line
with dot leaders ('Introduction ........ 4'); of a number headed twice the later heading is the
section. A section's text is its units in order, one a line, its IPG parts ('Definition',
'Examples', 'Philosophy', 'Additional Remedy', 'Upgrade') and its penalty as printed among them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulebase.core.records import Record, Ref, number_key, slugify
from rulebase.ingest.tournament.dating import Printed, printed
from rulebase.ingest.tournament.units import Unit, fold

_PREFIX = r"(?:(?:MTR|IPG|JAR|DTR|DMTR|DIPG)\s+)?"
NUMBERED = re.compile(rf"^{_PREFIX}(?P<num>\d{{1,2}}(?:\.\d{{1,2}}){{0,2}})\.?(?:\s*[-\u2013\u2014:]\s+|\s+)(?P<title>\S.*)$")
APPENDIX = re.compile(rf"^{_PREFIX}(?i:appendix)\s+(?P<letter>[A-Z])(?![a-z])\s*[-\u2013\u2014:.]?\s*(?P<title>.*)$")
NAMED = re.compile(r"^(?:Introduction|Framework of this document|Appendices)$", re.IGNORECASE)
CONTENTS = re.compile(r"^(?:Table of )?Contents$", re.IGNORECASE)
LEADERS = re.compile(r"\.{4,}\s*\d*\s*$")
CREDITS = re.compile(r"^(?:All trademarks are property|Converted by:|©|\(C\))", re.IGNORECASE)
PENALTY = re.compile(r"\s+\(?(No Penalty|Warning|Game Loss|Match Loss|Disqualification|Caution)\)?$")
PART = re.compile(r"^(Definition|Examples?|Philosophy|Additional Remedy|Upgrade|Penalty)\b")
_TITLE_WORDS = 16  # a heading longer than this is a sentence


@dataclass(slots=True)
class Heading:
    at: int  # index of its unit
    number: str | None  # '2.2', 'Appendix B'; None for a named section
    title: str
    key: str  # what identifies it in the file: its number, or its folded title
    penalty: str | None = None  # an IPG heading's trailing penalty ('Warning'), printed on its line
    parent: Heading | None = None


@dataclass(slots=True)
class Sections:
    """A file's records (before dating), its date lines, its title and what went where."""

    records: list[Record]
    dates: list[Printed]
    title: str
    changes: list[str] = field(default_factory=list)  # the dates its changes appendix lists (evidence)
    warnings: list[tuple[int, str]] = field(default_factory=list)


def number_of(text: str) -> tuple[str, str] | None:
    """(number, title) of a numbered heading's text ('MTR 2.2 Play/Draw Rule', '2.1. Game Play
    Error — Missed Trigger', 'DTR 1.10 - Player', '1.0 General Philosophy'), else None."""
    found = NUMBERED.match(text)
    if found:
        number = found["num"]
        if number.endswith(".0"):
            number = number[:-2]
        return number, found["title"].strip()
    found = APPENDIX.match(text)
    if found and (found["title"] or "").strip():
        return f"Appendix {found['letter']}", found["title"].strip(" -\u2013\u2014:.")
    return None


def _heading_like(unit: Unit, words: int = _TITLE_WORDS) -> bool:
    return bool(unit.heading or unit.bold) and (not unit.item or bool(unit.heading)) \
        and len(unit.text.split()) <= words and not LEADERS.search(unit.text)


def _title_case(text: str) -> bool:
    """A short line of capitalised words without a full stop: a heading in a file with no markup."""
    words = text.split()
    return 1 <= len(words) <= 5 and not re.search(r"[.:;,!?]$", text) and all(
        w[:1].isupper() or w.lower() in ("of", "and", "the", "a", "to", "in", "for", "at", "on") for w in words)


def split(units: list[Unit], numbered_document: bool | None = None) -> tuple[list[Heading], set[int], int | None]:
    """The section headings (in order), the units that are contents entries, and the unit
    that is the document's title. `numbered_document`: whether sections are numbered (the JAR's
    are named); None: read from the file."""
    title_at = next((n for n, u in enumerate(units[:3]) if not u.item), None)
    candidates: list[Heading] = []
    for n, unit in enumerate(units):
        if n == title_at or not _heading_like(unit):
            continue
        got = number_of(unit.text)
        if got is not None and got[0][0].isdigit():
            title, penalty = got[1], None
            found = PENALTY.search(title)
            if found and re.search(r"[\u2014\u2013-]", title):
                title, penalty = title[: found.start()], found[1]
            candidates.append(Heading(n, got[0], title, got[0], penalty))
    numbered = bool(candidates) if numbered_document is None else numbered_document
    contents: set[int] = set()
    _contents_entries(units, candidates, contents)
    headings = _last_and_increasing([c for c in candidates if c.at not in contents])
    heads = {fold(f"{h.number} {h.title}").lower() for h in headings}
    heading_at = {h.at for h in headings}  # once: a set per unit made 9,500 sections quadratic
    for n, unit in enumerate(units):
        got = number_of(unit.text)
        if LEADERS.search(unit.text) or (unit.link and got) or CONTENTS.match(unit.text):
            contents.add(n)
        elif got and fold(f"{got[0]} {got[1]}").lower() in heads and n not in heading_at:
            contents.add(n)  # a contents line naming a section the body heads
    named = _named(units, headings, contents, title_at, numbered)
    return sorted(headings + named, key=lambda h: h.at), contents, title_at


def _contents_entries(units: list[Unit], candidates: list[Heading], contents: set[int]) -> None:
    """Mark candidates that are contents entries: no text of their own before the next heading,
    and that heading is not their first subsection."""
    for k, head in enumerate(candidates):
        nxt = candidates[k + 1] if k + 1 < len(candidates) else None
        if nxt is None:
            continue
        between = [u for u in units[head.at + 1: nxt.at]
                   if not (LEADERS.search(u.text) or u.link or APPENDIX.match(u.text) or (number_of(u.text) and not u.item)
                           or CONTENTS.match(u.text) or NAMED.match(u.text))]
        if not between and not (nxt.number or "").startswith(f"{head.number}."):
            contents.add(head.at)


def _last_and_increasing(candidates: list[Heading]) -> list[Heading]:
    """Of a number headed twice the later heading (the first was in the contents), and of those
    the headings in increasing order (a heading out of order is text)."""
    last = {c.number: c for c in candidates}
    kept: list[Heading] = []
    chapter = 0
    for head in sorted(last.values(), key=lambda h: h.at):
        if kept and number_key(head.number) <= number_key(kept[-1].number):
            continue
        top = int(head.number.split(".")[0])
        if top > chapter + (2 if "." not in head.number else 1):
            continue  # '15' after chapter 9: a number in a table, not a chapter
        chapter = max(chapter, top)
        kept.append(head)
    tops = {h.number: h for h in kept if "." not in (h.number or "")}
    for head in kept:
        if "." in (head.number or ""):
            head.parent = tops.get(head.number.split(".")[0])
    return kept


def _named(units: list[Unit], headings: list[Heading], contents: set[int], title_at: int | None,
           numbered: bool) -> list[Heading]:
    """The named sections: Introduction, Framework of this document, the appendices, and in a
    document without numbered sections (the JAR) every heading, the bold ones under a section
    being its subsections (the JAR's common issues)."""
    found: dict[str, Heading] = {}
    taken = {h.at for h in headings}
    first_body = headings[0].at if headings else len(units)
    top: Heading | None = None
    for n, unit in enumerate(units):
        if n == title_at or n in taken or n in contents or unit.item or printed(unit.text, 0) is not None:
            continue
        text = unit.text
        appendix = APPENDIX.match(text)
        marked = _heading_like(unit, _TITLE_WORDS if numbered else 2 * _TITLE_WORDS)
        if appendix and marked and appendix["title"].strip():
            head = Heading(n, f"Appendix {appendix['letter']}", appendix["title"].strip(" -\u2013\u2014:."),
                           f"appendix {appendix['letter'].lower()}")
        elif NAMED.match(text) and (marked or n < first_body):
            after = units[n + 1].text if n + 1 < len(units) else ""
            if NAMED.match(after) or number_of(after) or CONTENTS.match(after):
                contents.add(n)  # a contents entry: the next line is another heading, not its text
                continue
            head = Heading(n, None, text, text.lower())
        elif not numbered and marked and not PART.match(text) and not CREDITS.match(text):
            head = Heading(n, None, text, text.lower())
            if unit.heading in (0, 3) and unit.bold and top is not None and not _title_case(text):
                head.parent, head.key = top, f"{top.key}/{text.lower()}"
        elif not numbered and not unit.heading and not unit.bold and _title_case(text) and n > (title_at or 0) + 1:
            head = Heading(n, None, text, text.lower())  # a file that marks no headings at all
        else:
            continue
        if head.parent is None and not numbered:
            top = head
        found[head.key] = head  # of a name headed twice the later heading (the first was in the contents)
    return [h for h in found.values() if h.at not in contents]


# -- records ------------------------------------------------------------------------------------------

_SECTION_REF = re.compile(r"\b(?:(?P<doc>MTR|IPG|JAR|DMTR|DIPG|DTR)\s+)?[Ss]ections?\s+(?P<num>\d{1,2}(?:\.\d{1,2}){0,2})\b")
_DOC_REF = re.compile(r"\((?P<doc>MTR|IPG)\s+(?P<num>\d{1,2}(?:\.\d{1,2}){1,2})\)")
_CR_REF = re.compile(r"\b(?:CR|Comprehensive Rules?,?|[Rr]ules?)\s+(?:rule\s+)?(?P<num>\d{3}(?:\.\d{1,3}[a-z]?)?)(?!\.?\d)")


def refs_of(text: str) -> list[Ref]:
    """The references a text writes: 'see section 3.2' (this document), 'MTR section 4.3' or
    '(IPG 2.1)' (another tournament document), 'CR 704', 'rule 702.19', 'Comprehensive Rules
    702.19' (the Comprehensive Rules). Each is resolved later: within the release, or by date."""
    refs: list[Ref] = []
    seen: set[tuple[str, str]] = set()
    for found in _SECTION_REF.finditer(text):
        doc = (found["doc"] or "").lower().replace("dtr", "dmtr")
        key = f"{doc}:{found['num']}" if doc else found["num"]
        if ("section", key) not in seen:
            seen.add(("section", key))
            refs.append(Ref(found.group(0), "section", key))
    for found in _DOC_REF.finditer(text):
        key = f"{found['doc'].lower()}:{found['num']}"
        if ("section", key) not in seen:
            seen.add(("section", key))
            refs.append(Ref(found.group(0), "section", key))
    for found in _CR_REF.finditer(text):
        key = f"cr:{found['num']}"
        if ("rule", key) not in seen:
            seen.add(("rule", key))
            refs.append(Ref(found.group(0), "rule", key))
    return refs


def records(units: list[Unit], source_lines: list[str], sid: str, meta: dict, numbered: bool | None = None) -> Sections:
    """The records of one file's units (ids `SOURCE:NUMBER`, `SOURCE:SLUG`; the timeline adds
    '@DATE'). `meta`: the source's fields (edition, lang) every record carries."""
    headings, contents, title_at = split(units, numbered)
    title = units[title_at].text if title_at is not None else ""
    dates = [p for n, u in enumerate(units[:12]) if (p := printed(u.text, u.lines[0])) is not None]
    date_units = {n for n, u in enumerate(units[:12]) if printed(u.text, 0) is not None}
    owner: list[int | str] = []  # per unit: the heading index it belongs to, or a note's name
    k = -1
    starts = {h.at: i for i, h in enumerate(headings)}
    for n, unit in enumerate(units):
        if n in starts:
            k = starts[n]
        if n == title_at or n in date_units:
            owner.append("document")
        elif n in contents:
            owner.append("contents")
        elif CREDITS.match(unit.text):
            owner.append("credits")
        elif k < 0:
            owner.append("front")
        else:
            owner.append(k)
    out: list[Record] = []

    def make(rid: str, kind: str, members: list[int], title: str | None, number: str | None = None,
             parent: str | None = None, section: list[str] | None = None, skip_first: bool = False) -> Record:
        lines = sorted({ln for n in members for ln in units[n].lines})
        body = [units[n].text for n in (members[1:] if skip_first else members)]
        text = "\n\n".join(body) if body else (title or "")
        raw = "\n".join(source_lines[ln - 1] for ln in lines)
        return Record(id=f"{sid}:{rid}", source=sid, edition=meta["edition"], lang=meta["lang"], kind=kind,
                      text=text, raw=raw, number=number, title=title, section=section or [], parent=parent,
                      refs=refs_of(text), order=len(out) + 1, line=lines[0] if lines else None)

    doc_units = [n for n, o in enumerate(owner) if o == "document"]  # (small lists: one pass each)
    if doc_units:
        out.append(make("document", "document", doc_units, title or None, skip_first=title_at in doc_units))
    front = [n for n, o in enumerate(owner) if o == "front"]
    if front:
        out.append(make("front", "note", front, "Front matter"))
    listed = [n for n, o in enumerate(owner) if o == "contents"]
    if listed:
        out.append(make("contents", "note", listed, "Contents"))
    ids: dict[int, str] = {}
    taken = {r.id for r in out}
    changes: list[str] = []
    owned: dict[int | str, list[int]] = {}
    for n, o in enumerate(owner):
        owned.setdefault(o, []).append(n)
    for i, head in enumerate(headings):
        members = owned.get(i, [])
        if head.number:
            local = head.number.lower().replace(" ", "-")
        else:
            local = slugify(head.title)[:40].strip("-")
            if head.parent is not None and id(head.parent) in ids:
                local = f"{ids[id(head.parent)].split(':', 1)[1]}.{local}"[:60]
        rid = local
        while f"{sid}:{rid}" in taken:  # (a set kept as `out` grows: one made per heading was quadratic)
            rid += "-2"
        parent = ids.get(id(head.parent)) if head.parent is not None else None
        name = meta.get("document") or title  # the document's own name: the same in every release
        path = [name] if name else []
        if head.parent is not None:
            path.append(f"{head.parent.number}. {head.parent.title}" if head.parent.number else head.parent.title)
        body_members = members[1:]
        text_units = ([Unit(head.penalty, units[head.at].lines)] if head.penalty else []) + [units[n] for n in body_members]
        record = make(rid, "section", members, head.title, head.number, parent, path, skip_first=True)
        if head.penalty:
            record.text = "\n\n".join(u.text for u in text_units) or record.title
            record.refs = refs_of(record.text)
        ids[id(head)] = record.id
        out.append(record)
        taken.add(record.id)
        if head.number and head.number.startswith("Appendix") and "change" in head.title.lower():
            changes += [u.text for u in text_units]
    credits = [n for n, o in enumerate(owner) if o == "credits"]
    if credits:
        out.append(make("credits", "note", credits, "Credits"))
    return Sections(out, dates, title, changes)
