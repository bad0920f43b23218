"""Crystal Keep rules summary, April 1999, final Fifth Edition release (format "crystalkeep-1999").

One entry a line: sections "A - Abilities", headings "A.5 - Phase Abilities", rules "A.5.2 - ...",
rulings "A.24.Ruling.3 - ...", and "Note - ..." lines that belong to the entry before them.
Before the body come a masthead and a table of contents; after it an alphabetical index
("Trample, A.27") whose lines become aliases on the records they point at, and the credits.
"""

from __future__ import annotations

import re

from rulebase.core.errors import SourceError
from rulebase.core.records import Record, fold_space
from rulebase.core.sources import Source
from rulebase.ingest.crystalkeep.citations import late_citation_flags, split_citations
from rulebase.ingest.crystalkeep.ids import duplicate_suffix
from rulebase.ingest.refs import find_rule_refs
from rulebase.ingest.text import Parsed, Warning_

ENTRY = re.compile(r"^(?P<num>[A-Z](?:\.\d+(?:\.\d+|\.(?P<word>Rulings?)\.\d+)?)?|Note) - (?P<body>.*)$")
RELEASE = re.compile(r"This is the (?P<release>.+? under the (?P<rules>[A-Z][A-Z ]+?) rules)\.")
PREVIOUS = re.compile(r"since the last released version on (?P<m>\d\d)/(?P<d>\d\d)/(?P<y>\d\d)")


def _paragraphs(lines: list[str]) -> str:
    """Lines to clean text: blank lines separate paragraphs ("\n\n"), other breaks fold to spaces."""
    paras = re.split(r"\n\s*\n", "\n".join(lines))
    return "\n\n".join(p for p in (fold_space(x) for x in paras) if p)


def _find(lines: list[str], wanted: str, start: int) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i].strip() == wanted), None)


def parse(text: str, source: Source) -> Parsed:
    """Whole summary -> document, section, chapter, rule, ruling, note records (+ index aliases)."""
    name = str(source.path)
    lines = text.split("\n")
    parsed = Parsed(records=[])
    by_id: dict[str, Record] = {}
    next_dup: dict[str, int] = {}

    def add(local: str, kind: str, line: int, raw: str, body: str, **fields) -> Record:
        record = Record(id=f"{source.id}:{local}", source=source.id, edition=source.edition,
                        lang=source.lang, kind=kind, text=body, raw=raw, order=len(parsed.records),
                        line=line, **fields)
        n = duplicate_suffix(record.id, by_id, next_dup)
        if n is not None:
            parsed.notes.append(f"line {line}: number {record.number} appears twice; kept as {record.id}~{n}")
            record.flags.append(f"duplicate number {record.number} in the source (occurrence {n})")
            record.id = f"{record.id}~{n}"
        parsed.records.append(record)
        by_id[record.id] = record
        return record

    toc = _find(lines, "Table of Contents:", 0)
    first = next((i for i, line in enumerate(lines) if ENTRY.match(line)), None)
    if first is None:
        raise SourceError("no Crystal Keep entries ('A - Abilities', 'A.1.1 - ...') found", f"{name}:1",
                          "check that 'format' in sources.toml matches the file")
    body_start = first
    if toc is not None and toc + 1 < len(lines):
        repeat = _find(lines, lines[toc + 1].strip(), toc + 2)
        body_start = repeat if repeat is not None else toc + 1
        if repeat is None:
            parsed.warnings.append(Warning_(name, toc + 1, "table of contents never ends; read as body"))
    header_end = toc if toc is not None else body_start
    _header(lines[:header_end], source, parsed, add)
    toc_titles: dict[str, str] = {}
    if toc is not None and body_start > toc + 1:
        block = lines[toc:body_start]
        add("contents", "note", toc + 1, "\n".join(block).rstrip(), "\n".join(x.strip() for x in block
            if x.strip()), title="Table of Contents")
        for line in block[1:]:
            if (m := ENTRY.match(line)) and m["num"] != "Note":
                toc_titles[m["num"]] = m["body"].strip().rstrip(":")
    index_at = _find(lines, "Index", body_start)
    acks_at = _find(lines, "Acknowledgements and Disclaimers", index_at or body_start)
    body_end = index_at if index_at is not None else (acks_at if acks_at is not None else len(lines))
    _body(lines, body_start, body_end, source, parsed, add, by_id, toc_titles)
    if index_at is not None:
        end = acks_at if acks_at is not None else len(lines)
        block = lines[index_at:end]
        add("index", "note", index_at + 1, "\n".join(block).rstrip(),
            "\n".join(x.strip() for x in block if x.strip()), title="Index")
        apply_index(lines, index_at + 1, end, by_id, parsed, name)
    if acks_at is not None:
        block = lines[acks_at:]
        add("acknowledgements", "note", acks_at + 1, "\n".join(block).rstrip(), _paragraphs(block[1:]),
            title=lines[acks_at].strip())
    for record in parsed.records:
        for ref in record.refs:
            if f"{source.id}:{ref.key}" in by_id:
                ref.target = f"{source.id}:{ref.key}"
    return parsed


def _header(lines: list[str], source: Source, parsed: Parsed, add) -> None:
    """The masthead: one document record; release statement and previous version date -> meta."""
    name = str(source.path)
    raw = "\n".join(lines).rstrip()
    joined = " ".join(lines)
    meta = parsed.meta
    meta["version_date"] = source.date
    if m := RELEASE.search(joined):
        meta["release"] = m["release"]
        meta["rules"] = m["rules"]
    else:
        parsed.warnings.append(Warning_(name, 1, "no 'This is the ... release under the ... rules' line"))
    if m := PREVIOUS.search(joined):
        meta["previous_release"] = f"19{m['y']}-{m['m']}-{m['d']}" if m["y"] > "50" else \
            f"20{m['y']}-{m['m']}-{m['d']}"
    if raw.strip():
        add("document", "document", 1, raw, _paragraphs(lines), title=source.title,
            flags=["title taken from sources.toml: the file has no title line"])


def _body(lines: list[str], start: int, end: int, source: Source, parsed: Parsed, add,
          by_id: dict[str, Record], toc_titles: dict[str, str]) -> None:
    name = str(source.path)
    sid = source.id
    section: Record | None = None
    heading: Record | None = None
    last: Record | None = None  # last non-note entry
    previous: Record | None = None  # last record of any kind (continuation lines join it)
    notes_of: dict[str, int] = {}
    run: list[tuple[int, str]] = []  # continuation lines of `previous`, joined on once (linear)
    for n in range(start, end):
        line = lines[n]
        if not line.strip():
            continue
        m = ENTRY.match(line)
        if m is None:
            if previous is None:
                parsed.warnings.append(Warning_(name, n + 1, f"text before the first entry: {line[:60]!r}"))
                continue
            run.append((n, line))
            continue
        _run_on(previous, run)
        number, body = m["num"], m["body"].strip()
        clean, citations = split_citations(body)
        flags = late_citation_flags(citations, source.date)
        if number == "Note":
            owner = last or heading or section
            local = owner.id.split(":", 1)[1] if owner else "front"
            k = notes_of[local] = notes_of.get(local, 0) + 1
            path = (owner.section + [_label(owner)]) if owner else []
            previous = add(f"{local}.Note.{k}", "note", n + 1, line, clean, parent=owner.id if owner else None,
                           section=path, refs=find_rule_refs(clean), citations=citations, flags=flags)
            continue
        depth = number.count(".")
        if depth == 0:
            title = body.rstrip(":").strip()
            section = heading = last = previous = add(number, "section", n + 1, line, title, number=number,
                                                      title=title, aliases=_toc_alias(toc_titles, number, title))
            continue
        if depth == 1:
            title = body.rstrip(":").strip()
            parent = f"{sid}:{number[0]}"
            if parent not in by_id:
                flags.append(f"section {number[0]} not found")
            heading = last = previous = add(
                number, "chapter", n + 1, line, title, number=number, title=title, flags=flags,
                parent=parent if parent in by_id else None, section=[_label(section)] if section else [],
                aliases=_toc_alias(toc_titles, number, title))
            continue
        head = number.split(".")[0] + "." + number.split(".")[1]
        if m["word"] == "Rulings":
            flags.append("printed 'Rulings' for 'Ruling'")
        parent = f"{sid}:{head}"
        path = [_label(by_id[f"{sid}:{number[0]}"])] if f"{sid}:{number[0]}" in by_id else []
        if parent in by_id:
            path.append(_label(by_id[parent]))
        else:
            flags.append(f"heading {head} not found")
            path.append(head)
            parent = f"{sid}:{number[0]}" if f"{sid}:{number[0]}" in by_id else None
        last = previous = add(number, "ruling" if m["word"] else "rule", n + 1, line, clean, number=number,
                              parent=parent, section=path, refs=find_rule_refs(clean), citations=citations,
                              flags=flags)
    _run_on(previous, run)


def _run_on(previous: Record | None, run: list[tuple[int, str]]) -> None:
    """Join an entry's continuation lines (`run`, emptied) on to it, all at once."""
    if previous is None or not run:
        return
    parts = [split_citations(line) for _, line in run]
    previous.raw = "\n".join([previous.raw, *(line for _, line in run)])
    previous.text = fold_space(" ".join([previous.text, *(clean for clean, _ in parts)]))
    previous.citations += [c for _, cites in parts for c in cites]
    previous.refs = find_rule_refs(previous.text)
    previous.flags += [f"continues on line {n + 1}" for n, _ in run]
    run.clear()


def _label(record: Record) -> str:
    if record.title and record.number:
        return f"{record.number} - {record.title}"
    return record.number or record.id.split(":", 1)[1]


def _toc_alias(toc_titles: dict[str, str], number: str, title: str) -> list[str]:
    """The contents sometimes names a heading differently ('Untap Abilities' for 'Untap Costs')."""
    other = toc_titles.get(number)
    return [other] if other and other.lower() != title.lower() else []


# --- the alphabetical index -------------------------------------------------------------------

_TARGET = r"[A-Z]\.\d+(?:\.\d+|\.Rulings?\.\d+)?"
INDEX_LINE = re.compile(rf"^(?P<label>.+?), (?P<targets>{_TARGET}(?:, {_TARGET})*)$")
INDEX_SEE = re.compile(r"^(?P<label>.+?),? [Ss]ee (?P<see>.+)$")


def _ends_group(label: str, group: str, last_sub: str | None, next_group: str | None) -> bool:
    """Is `label` back at the top level? The index lost its indentation, so this is inferred.

    Top-level entries are sorted, sub-entries mostly sorted among themselves. So a label that
    sorts before the previous sub-entry but after the group starts a new top-level run; so does
    one that begins like the group ('Mana Burn' after 'Mana', 'Enchant World' after
    'Enchantment'), or one that falls between the group and the next group and shares the
    group's initial where the subs had left it ('Pitch Spells' after 'Phasing: ... Out').
    """
    if last_sub is None or not group:
        return not group
    x, g, s = label.lower(), group.lower(), last_sub.lower()
    if (x < s and x > g) or x[:5] == g[:5]:
        return True
    return x[0] == g[0] and x > g and s[0] != g[0] and (next_group is None or x <= next_group.lower())


def apply_index(lines: list[str], start: int, end: int, by_id: dict[str, Record], parsed: Parsed,
                name: str) -> None:
    """Index lines -> aliases on the records they name; `Parsed.meta["index"]` keeps every line."""
    entries: list[dict] = []
    for n in range(start, end):
        line = lines[n].strip()
        if not line:
            continue
        if m := INDEX_LINE.match(line):
            entries.append({"line": n + 1, "label": m["label"], "targets": m["targets"].split(", ")})
        elif m := INDEX_SEE.match(line):
            entries.append({"line": n + 1, "label": m["label"], "see": m["see"]})
        else:
            entries.append({"line": n + 1, "label": line.rstrip(","), "group": True})
    groups = [e["label"] for e in entries if e.get("group")]
    group: str | None = None
    last_sub: str | None = None
    names: dict[str, list[str]] = {}
    for entry in entries:
        if entry.get("group"):
            group, last_sub = entry["label"], None
            entry["under"] = None
            continue
        if group and _ends_group(entry["label"], group, last_sub,
                                 next((g for g in groups if g.lower() > group.lower()), None)):
            group = None
        entry["under"] = group
        if group:
            last_sub = entry["label"]
        alias = f"{group}, {entry['label']}" if group else entry["label"]
        entry["alias"] = alias
        names.setdefault(alias.lower(), []).extend(entry.get("targets", []))
    sid = next(iter(by_id)).split(":", 1)[0] if by_id else ""
    unresolved_see = 0
    for entry in entries:
        if entry.get("group"):
            continue
        targets = entry.get("targets")
        if targets is None:
            targets = names.get(entry["see"].lower(), [])
            entry["resolved"] = targets
            if not targets:
                unresolved_see += 1
        for target in targets:
            record = by_id.get(f"{sid}:{target}")
            if record is None:
                parsed.warnings.append(Warning_(name, entry["line"], f"index entry {entry['alias']!r} "
                                                f"names {target}, which is not in the summary"))
            elif entry["alias"] not in record.aliases:
                record.aliases.append(entry["alias"])
    parsed.meta["index"] = entries
    if unresolved_see:
        parsed.notes.append(f"{unresolved_see} index 'see' entries point at index groups, not at one entry")
