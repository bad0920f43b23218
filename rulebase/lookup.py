"""Looking things up by reference: rule numbers, record ids, rulebook pages, glossary terms.

Exact lookups are served from the record database alone, so they never import Whoosh.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulebase.errors import NotFound, UsageError
from rulebase.records import Record, number_key
from rulebase.sources import edition_rank
from rulebase.store import RecordStore

PAGE_REF = re.compile(r"^(?P<edition>\d+e)\s*(?:p\.?|page)\s*(?P<page>[0-9ivxlc]+)$", re.IGNORECASE)


@dataclass(slots=True)
class Entry:
    """One record with everything a reader wants next to it."""

    record: Record
    children: list[Record] = field(default_factory=list)
    refs_out: list[Record] = field(default_factory=list)
    refs_in: list[Record] = field(default_factory=list)
    same: list[Record] = field(default_factory=list)


@dataclass(slots=True)
class Lookup:
    ref: str
    kind: str  # "number", "id", "page"
    entries: list[Entry]
    diff_hint: str | None = None  # 'rulebase diff A B' when several documents print the number


def expand(store: RecordStore, record: Record, when: int | None = None) -> Entry:
    """A record with its children, references and twins. An archive version's children are the
    versions in force beside it: on `when`, else on the last day the version itself was in force."""
    children = store.children(record.id)
    if record.number:
        seen = {c.id for c in children}
        for sub in store.by_number_prefix(record.number, record.source):
            rest = sub.number[len(record.number):] if sub.number else ""
            if (rest[:1].isalpha() or rest[:1] == ".") and sub.id not in seen:
                children.append(sub)
                seen.add(sub.id)
        children.sort(key=lambda c: c.order)
    if record.span:
        from rulebase.history import in_force

        day = when if when is not None else store.windows([record.id])[record.id][1]
        children = sorted(in_force(store, children, day), key=lambda c: (number_key(c.number), c.order))
    out_ids = list(dict.fromkeys(r.target for r in record.refs if r.target))
    same_ids = [link.target for link in record.links if link.kind in ("same-rule", "same-text")]
    return Entry(record, children, store.get_many(out_ids), store.get_many(record.refs_in),
                 store.get_many(same_ids))


def by_era(store: RecordStore, records: list[Record], when: int | None) -> list[Record]:
    """One archive version per rule lineage: the one in force on `when` (else the newest), the
    rules in force that day (else now) first, then what the number meant in other eras. Other
    documents' records keep their place; with `when`, only those in force that day."""
    from rulebase.eras import OPEN_END
    from rulebase.history import in_force

    spans = store.windows([r.id for r in records])
    day = OPEN_END if when is None else when

    def live(record: Record) -> bool:
        return spans[record.id][0] <= day <= spans[record.id][1]
    lineages: dict[str, list[Record]] = {}
    for record in records:
        if record.span:
            lineages.setdefault(record.lineage or record.id, []).append(record)
    chosen = [max(group, key=lambda r: (live(r), spans[r.id][1])) for group in lineages.values()]
    others = [r for r in records if not r.span]
    if when is not None:  # the rules in force that day, nothing else
        others = in_force(store, others, when)
    chosen = without_twins(chosen, others)
    gone = [] if when is not None else sorted((r for r in chosen if not live(r)), key=lambda r: -spans[r.id][1])
    return [r for r in chosen if live(r)] + others + gone


def without_twins(versions: list[Record], shown: list[Record]) -> list[Record]:
    """An archive version with the same text as a record shown beside it (the bundled 2008
    release's) is that record: shown once, under the document's own id."""
    ids = {r.id for r in shown}
    return [v for v in versions if not (v.span and any(k.kind == "same-text" and k.target in ids for k in v.links))]


def lookup(store: RecordStore, ref: str, when: int | None = None) -> Lookup:
    ref = ref.strip()
    if not ref:
        raise UsageError("empty reference", hint="give a rule number (502.83a), a record id or a page (4e p17)")
    page = PAGE_REF.match(ref)
    if page:
        edition = page["edition"].lower()
        records = store.by_page(edition, page["page"].lower())
        if not records:
            held = store.pages_of(edition)
            hint = (f"the {edition} text in the corpus covers pages {held[0]}-{held[-1]}" if held
                    else f"no {edition} rulebook with page numbers is in the corpus")
            raise NotFound(f"no {page['edition']} record is printed on page {page['page']}", hint=hint)
        return Lookup(ref, "page", [Entry(r) for r in records])
    if ":" in ref:
        record = store.get(ref)
        if record is None and "@" not in ref:  # 'cr:702.83a': that rule in the archive, now or then
            source, local = ref.split(":", 1)
            versions = [r for r in store.by_number(local) if r.source == source and r.span]
            record = next(iter(by_era(store, versions, when)), None)
        if record:
            return Lookup(ref, "id", [expand(store, record, when)])
    number = ref.removeprefix("rule ").removeprefix("Rule ").rstrip(".")
    records = store.by_number(number)
    if records:
        records = newest_first(records, store.documents())  # official text first, newest first
        records = by_era(store, records, when)
        if records:
            return Lookup(ref, "number", [expand(store, r, when) for r in records], diff_hint(records))
        from rulebase.eras import show

        raise NotFound(f"no rule {ref} was in force on {show(when or 0)}",
                       hint=f"'rulebase history {ref}' shows when it was")
    raise NotFound(f"no rule, record or page matches {ref!r}", suggest(store, ref),
                   hint="try 'rulebase search' for free text")


def newest_first(records: list[Record], documents: dict[str, dict]) -> list[Record]:
    """Versions of one rule number: official Comprehensive Rules first, each group newest first
    (by document date, then edition), so an added 2025 release leads the bundled 2008 one."""
    def key(record: Record) -> tuple:
        doc = documents.get(record.source, {})
        when = doc.get("date") or ""
        return (doc.get("format") != "comprules", _negate(when if when[:1].isdigit() else ""),
                tuple(-n for n in edition_rank(record.edition)), record.source)
    return sorted(records, key=key)


def _negate(text: str) -> tuple[int, ...]:
    return tuple(-ord(c) for c in text) + (1,)


def diff_hint(records: list[Record]) -> str | None:
    """'rulebase diff A B' for the two newest versions from different documents, if any."""
    first = records[0] if records else None
    other = next((r for r in records[1:] if first and r.source != first.source), None)
    return f"rulebase diff {other.id} {first.id}" if first and other else None


def suggest(store: RecordStore, ref: str, limit: int = 5) -> list[str]:
    """'Did you mean' candidates. A number that runs past a real one ('502.83z') gets that rule's
    numbers; a slip inside one ('520.83a', '5028.3a') gets the numbers one or two slips away;
    anything else gets close ids or titles."""
    from difflib import get_close_matches  # only when a lookup fails

    from rulebase.records import number_key

    ref = ref.strip()
    shared: list[str] = []
    for cut in range(len(ref), max(2, len(ref) // 2) - 1, -1):  # longest shared prefix first
        shared = store.numbers_like(ref[:cut].lower() + "%", limit * 4)
        if shared:
            if cut >= len(ref) - 1:
                return sorted(shared, key=number_key)[:limit]
            break
    if ":" in ref:
        return get_close_matches(ref, store.ids_like(ref.split(":")[0] + ":"), n=limit)
    if any(c.isdigit() for c in ref):
        wanted, most = ref.lower(), 1 if len(ref) <= 4 else 2  # in a short number two slips is anything
        near = [(slips(wanted, n.lower()), number_key(n), n) for n in store.numbers() if abs(len(n) - len(ref)) <= most]
        close = [n for d, _, n in sorted(near) if d <= most][:limit]
        if close or shared:
            return close or sorted(shared, key=number_key)[:limit]
    return get_close_matches(ref.lower(), [t.lower() for t in store.titles()], n=limit)


def slips(a: str, b: str) -> int:
    """Typing slips between two strings: a wrong, missing or extra character, or two neighbours
    swapped, each count one (optimal string alignment distance): '520.83a' is one from '502.83a'."""
    before, row = [0] * (len(b) + 1), list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return row[-1]


_STOP = {"the", "a", "an", "of", "to"}


def loose_term(text: str) -> str:
    """Looser than link.fold_term: 'Removed from the game' meets 'remove from game'."""
    from rulebase.ingest.link import fold_term

    words = []
    for word in fold_term(text).split():
        if word in _STOP:
            continue
        for suffix in ("ing", "ed", "es", "s"):
            if len(word) > len(suffix) + 3 and word.endswith(suffix):
                word = word[: -len(suffix)]
                break
        if len(word) > 4 and word.endswith("e"):  # 'remove' and 'removed' both -> 'remov'
            word = word[:-1]
        words.append(word)
    return " ".join(words)


def _defining_entries(store: RecordStore, names: set[str], covered: set[str],
                      when: int | None = None) -> list[Record]:
    """Where a source has no glossary entry for the term, the paragraph or rule heading that defines
    it: the 4th Edition's '-Trample-:' paragraph, Crystal Keep 1999's 'A.27 - Trample' (shown by
    its first rule, since the heading itself is only a title)."""
    found: list[Record] = []
    for kind in ("passage", "chapter"):
        for record in store.of_kind(kind, when):
            if record.source in covered or not record.title:
                continue
            if names & {loose_term(n) for n in [record.title, *record.aliases]}:
                if kind == "chapter":
                    record = next(iter(store.children(record.id)), None)
                if record is not None and record.source not in covered:
                    found.append(record)
                    covered.add(record.source)
    return found


@dataclass(slots=True)
class Definitions:
    term: str
    definitions: list[Record]
    hungarian: list[Record]
    referrers: list[Record]


def define(store: RecordStore, term: str, when: int | None = None) -> Definitions:
    """Every glossary definition of `term` (or its Hungarian name) across editions and sources:
    of the archive's versions the newest, or with `when` only what was in force that day."""
    from rulebase.records import fold_accents

    key = loose_term(term)
    if not key:
        raise UsageError("empty term", hint="give a glossary term, e.g. 'rulebase define trample'")
    hungarian = [t for t in store.of_kind("term")
                 if key in {loose_term(a) for a in t.aliases} or fold_accents(t.title or "") == fold_accents(term)]
    names = {key} | {loose_term(a) for t in hungarian for a in t.aliases}
    definitions = [r for r in store.of_kind("glossary", when)
                   if names & {loose_term(n) for n in [r.title or "", *r.aliases]}]
    definitions += _defining_entries(store, names, {r.source for r in definitions}, when)
    parents = store.get_many([t.parent for t in hungarian if t.parent])
    definitions += [p for p in parents if p.kind == "glossary" and p not in definitions]
    definitions = without_twins(definitions, definitions)
    definitions.sort(key=lambda r: (edition_rank(r.edition), r.source, r.order))
    if not definitions and not hungarian:
        titles = [r.title for r in store.of_kind("glossary", when) if r.title]
        from difflib import get_close_matches

        close = get_close_matches(term.lower(), [t.lower() for t in titles], n=5, cutoff=0.6)
        raise NotFound(f"no glossary definition of {term!r}", close, hint="try 'rulebase search'")
    ids = {r.id for r in definitions}
    ref_ids = list(dict.fromkeys(i for r in definitions for i in r.refs_in if i not in ids))
    return Definitions(term, definitions, hungarian, store.get_many(ref_ids))
