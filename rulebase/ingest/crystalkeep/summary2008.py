"""Crystal Keep 'General Rulings Summary (CHANGES ONLY)', 2008 (format "crystalkeep-2008").

The copy we hold lost every line break: the whole file is one line. Entries are found again by
their numbers ("502.83a - ", "+ 502.83.Ruling.1 - ", "G5.19 - ", "Note - ", "Example: "), but a
number only starts an entry where the previous entry could have ended (after a citation, a
sentence or a heading title), so "see Rule 401.3" inside text never splits an entry.
Everything is `line` 1; `Parsed.meta["offsets"]` gives each record's character offset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebase.core.records import Record, fold_space, number_key
from rulebase.core.sources import Source
from rulebase.ingest.crystalkeep.citations import late_citation_flags, split_citations
from rulebase.ingest.crystalkeep.ids import duplicate_suffix
from rulebase.ingest.refs import find_rule_refs
from rulebase.ingest.text import Parsed, Warning_

RULE_LINE = re.compile(r"={10,}|-{10,}")
SECTION = re.compile(
    r"(?<!\S)(?:(?P<num>\d) - (?P<title>[A-Z][\w ,'&]*?)|(?P<other>Table of Contents:|"
    r"Acknowledgements and Disclaimers))\s+-{10,}"
)
ENTRY = re.compile(
    r"(?<!\S)(?P<plus>\+\s+)?(?:(?P<num>(?:G\d+\.\d+|\d{3}(?:\.\d+)?)(?:\.Ruling\.\d+|[a-z])?|Note) - "
    r"|(?P<example>Example): )"
)
RULING = re.compile(r"^(?P<base>.+)\.Ruling\.(?P<n>\d+)$")
HEADER = re.compile(r"={10,}\s*(?P<title>.+?)\s+Updated\s+(?P<date>\d{4}/\d\d/\d\d)\s*={10,}")
RULES_OF = re.compile(r"rules used by (?P<rules>[A-Z][A-Z ]+?)\s*\.")
PREVIOUS = re.compile(r"changes since the (?P<date>\d{4}/\d\d/\d\d) release")
ENDS_ENTRY = ('].)"')


@dataclass(slots=True)
class _Token:
    start: int
    end: int  # end of the marker; the body runs to the next token
    kind: str  # "section" or "entry"
    match: re.Match[str]


SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"}


def _is_title(body: str) -> bool:
    """A heading's body is a short title in title case: no citation, no sentence end.

    'Actions That Don't Use the Stack' and 'Handling "Infinite" Loops' are titles;
    'Scores from' (the start of a sentence cut at a false entry start) is not.
    """
    words = body.strip().split()
    if not words or len(words) > 10 or "[" in body or body.strip()[-1] in ".!?:]":
        return False
    initials = [w.lstrip("\"'(")[:1] for w in words]
    if not (initials[0].isupper() and initials[-1].isupper()):
        return False
    return all(i.isupper() or i.isdigit() or w.lower() in SMALL_WORDS for i, w in zip(initials, words, strict=True))


def _ancestors(number: str) -> list[str]:
    """Intended parents, nearest first: 502.83.Ruling.1 -> 502.83, 502; G5.19a -> G5.19."""
    ruling = RULING.match(number)
    chain: list[str] = []
    current = ruling["base"] if ruling else number
    if ruling:
        chain.append(current)
    while True:
        if re.search(r"\d[a-z]$", current):
            current = current[:-1]
        elif "." in current and not current.startswith("G"):
            current = current.rsplit(".", 1)[0]
        else:
            break
        chain.append(current)
    return chain


def _order_key(number: str) -> tuple:
    ruling = RULING.match(number)
    if ruling:
        return number_key(ruling["base"]) + ((9, int(ruling["n"]), ""),)
    return number_key(number)


def _tokens(text: str, begin: int) -> tuple[list[_Token], list[int]]:
    """Section headers and accepted entry starts after `begin`; also the rejected candidates."""
    sections = [m for m in SECTION.finditer(text, begin)]
    spans = [(m.start(), m.end()) for m in sections]
    candidates = [m for m in ENTRY.finditer(text, begin)
                  if not any(a <= m.start() < b for a, b in spans)]
    merged = sorted([_Token(m.start(), m.end(), "section", m) for m in sections]
                    + [_Token(m.start(), m.end(), "entry", m) for m in candidates], key=lambda t: t.start)
    accepted: list[_Token] = []
    rejected: list[int] = []
    for token in merged:
        if token.kind == "entry" and accepted:
            prev = accepted[-1]
            chunk = text[prev.end:token.start].strip()
            heading = (prev.kind == "entry" and prev.match["num"] not in (None, "Note")
                       and not prev.match["plus"] and _is_title(chunk))
            if chunk and not heading and chunk[-1] not in ENDS_ENTRY:
                rejected.append(token.start)
                continue
        accepted.append(token)
    return accepted, rejected


def parse(text: str, source: Source) -> Parsed:
    """One-line changes-only summary -> document, section, chapter, rule, ruling, glossary, note records."""
    parsed = Parsed(records=[])
    name = str(source.path)
    first = SECTION.search(text)
    begin = first.start() if first else 0
    offsets: dict[str, int] = {}
    by_id: dict[str, Record] = {}
    next_dup: dict[str, int] = {}

    def add(record: Record, offset: int) -> Record:
        n = duplicate_suffix(record.id, by_id, next_dup)
        if n is not None:
            parsed.notes.append(f"char {offset}: number {record.number} appears twice; kept as {record.id}~{n}")
            record.flags.append(f"duplicate number {record.number} in the source")
            record.id = f"{record.id}~{n}"
        record.order = len(parsed.records)
        record.line = 1
        parsed.records.append(record)
        by_id[record.id] = record
        offsets[record.id] = offset
        return record

    def new(local: str, kind: str, raw: str, body: str, **fields) -> Record:
        return Record(id=f"{source.id}:{local}", source=source.id, edition=source.edition, lang=source.lang,
                      kind=kind, text=body, raw=raw, **fields)

    _header(text[:begin], source, parsed, new, add)
    tokens, rejected = _tokens(text, begin)
    if rejected:
        parsed.notes.append(f"{len(rejected)} number(s) followed by ' - ' inside entry text were not "
                            "taken as entry starts")
    section: Record | None = None
    last_entry: Record | None = None
    last_key: tuple = ()
    counters: dict[tuple[str, str], int] = {}
    for i, token in enumerate(tokens):
        end = tokens[i + 1].start if i + 1 < len(tokens) else len(text)
        raw = text[token.start:end].rstrip()
        body = text[token.end:end].strip()
        m = token.match
        if token.kind == "section":
            if m["num"]:
                section = add(new(m["num"], "section", m.group(0), m["title"], number=m["num"],
                                  title=m["title"]), token.start)
                last_entry, last_key = None, ()
                if body:
                    gap = text[token.end:end]
                    add(new(f"{m['num']}.note", "note", body, fold_space(body), parent=section.id,
                            section=[f"{m['num']} - {m['title']}"]), token.end + len(gap) - len(gap.lstrip()))
            else:
                local = "contents" if m["other"].startswith("Table") else "acknowledgements"
                add(new(local, "note", raw, fold_space(body), title=m["other"].rstrip(":")), token.start)
                section, last_entry = None, None
            continue
        clean, citations = split_citations(body)
        flags = late_citation_flags(citations, source.date)
        top = [f"{section.number} - {section.title}"] if section else []
        top_id = section.id if section else None
        if m["num"] == "Note" or m["example"]:
            kind = "example" if m["example"] else "note"
            owner = last_entry
            owner_local = owner.id.split(":", 1)[1] if owner else (section.number if section else "front")
            n = counters[(owner_local, kind)] = counters.get((owner_local, kind), 0) + 1
            path = (owner.section + [owner.number or owner_local]) if owner else top
            add(new(f"{owner_local}.{kind.capitalize()}.{n}", kind, raw, clean, parent=owner.id if owner
                    else top_id, section=path, refs=find_rule_refs(clean), citations=citations, flags=flags,
                    changed=bool(m["plus"])), token.start)
            continue
        number = m["num"]
        heading = (_is_title(body) and not citations and not m["plus"]
                   and not re.search(r"[a-z]$|Ruling", number))
        glossary = number.startswith("G")
        if RULING.match(number):
            kind = "ruling"
        elif glossary:
            kind = "glossary"
        else:
            kind = "chapter" if heading else "rule"
        chain = _ancestors(number)
        parent = next((f"{source.id}:{a}" for a in chain if f"{source.id}:{a}" in by_id), top_id)
        path = top + [_label(by_id.get(f"{source.id}:{a}"), a) for a in reversed(chain)]
        key = _order_key(number)
        if last_key and key < last_key:
            parsed.warnings.append(Warning_(name, 1, f"char {token.start}: entry {number} is out of order"))
            flags.append("out of numeric order in the source")
        last_key = key
        record = add(new(number, kind, raw, clean, number=number, title=clean if heading else None,
                         parent=parent, section=path, refs=[] if heading else find_rule_refs(clean),
                         citations=citations, flags=flags, changed=bool(m["plus"])), token.start)
        last_entry = record
    parsed.meta["offsets"] = offsets
    changed = sum(r.changed for r in parsed.records)
    parsed.notes.append(f"{changed} entries marked '+' (changed since {parsed.meta.get('previous_release')})")
    return parsed


def _label(record: Record | None, number: str) -> str:
    """Section-path label of an ancestor: its heading as printed, or the bare number if absent here."""
    if record is not None and record.title:
        return f"{number} - {record.title}"
    return number


def _header(head: str, source: Source, parsed: Parsed, new, add) -> None:
    """The masthead before the table of contents -> one document record and Parsed.meta."""
    name = str(source.path)
    match = HEADER.search(head)
    meta = parsed.meta
    if match:
        y, mo, d = match["date"].split("/")
        meta.update(title=match["title"], updated=f"{y}-{mo}-{d}")
    else:
        parsed.warnings.append(Warning_(name, 1, "no 'title / Updated YYYY/MM/DD' masthead found"))
    if rules := RULES_OF.search(head):
        meta["rules"] = rules["rules"]
    if previous := PREVIOUS.search(head):
        meta["previous_release"] = previous["date"].replace("/", "-")
    if not head.strip():
        parsed.warnings.append(Warning_(name, 1, "no masthead before the table of contents"))
        return
    clean = fold_space(RULE_LINE.sub(" ", head))
    add(new("document", "document", head.rstrip(), clean, title=meta.get("title")), 0)
