"""Which versions of a rule are in force on a day, and which one stands for its lineage.

The read side of the archive's spans (docmeta and records.db): lookup, search and changes ask
these questions of the same store, so the answers live here, below all three.
"""

from __future__ import annotations

from rulebase.core.eras import OPEN_END, previous_day, today
from rulebase.core.records import Record, fold_typography
from rulebase.core.sources import edition_rank
from rulebase.index.store import RecordStore


def in_force(store: RecordStore, records: list[Record], when: int | None) -> list[Record]:
    """The records in force on `when` (all when None)."""
    if when is None:
        return records
    spans = store.windows([r.id for r in records])
    return [r for r in records if _within(spans.get(r.id, (0, OPEN_END)), when)]


def _within(window: tuple[int, int], day: int) -> bool:
    return window[0] <= day <= window[1]


def by_era(store: RecordStore, records: list[Record], when: int | None) -> list[Record]:
    """One archive version per rule lineage: the one in force on `when` (else today: an upcoming
    version is not yet the rule), else the newest, the rules in force that day first, then what
    the number meant in other eras (an upcoming version first). Other documents' records keep
    their place; with `when`, only those in force that day."""
    spans = store.windows([r.id for r in records])
    day = today() if when is None else when

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
    # A version with the text of another document's record shown beside it is that record,
    # shown once; but not when that record is out of force while the version is in: today's
    # 100.1 is the bundled 2008 release's text, and the answer is today's, its date and its
    # subrules, not the 2008 document's.
    current = without_twins([r for r in chosen if live(r)], others if when is not None else in_force(store, others, day))
    gone = [] if when is not None else sorted(without_twins([r for r in chosen if not live(r)], others),
                                              key=lambda r: -spans[r.id][1])
    return current + others + gone


def without_twins(versions: list[Record], shown: list[Record]) -> list[Record]:
    """An archive version with the same text as a record shown beside it (the bundled 2008
    release's) is that record: shown once, under the document's own id."""
    ids = {r.id for r in shown}
    return [v for v in versions if not (v.span and any(k.kind == "same-text" and k.target in ids for k in v.links))]


def texts_since(store: RecordStore, records: list[Record]) -> dict[str, int]:
    """For archive versions in force now: the day each one's words took effect under its number,
    its own first day or that of the versions just before it that printed the same words but for
    quotes, dashes and spacing (a release that only retyped the quotes changed no rule: 702.19a's
    text of 2019-05-03 is 2013-07-13's). Two queries: the days of their lineages' versions, then the
    texts of the versions before each under its number."""
    mine = {r.id: r for r in records if r.span and r.lineage}
    rows = store.lineage_days(list(dict.fromkeys(r.lineage for r in mine.values())))
    days = {row[0]: (row[3], row[4]) for row in rows}
    before: dict[str, str] = {}  # a version -> the one just before it, of the same lineage and number
    last: dict[tuple[str, str | None], str] = {}
    for vid, key, number, _first, _last in rows:
        if "@" not in vid:  # (another document's copy in the lineage: not one of the archive's versions)
            continue
        if (key, number) in last and days[last[key, number]][1] == previous_day(days[vid][0]):
            before[vid] = last[key, number]
        last[key, number] = vid
    chains = {rid: [] for rid in mine if rid in days}  # each version's predecessors under its number, newest first
    for rid, chain in chains.items():
        while (chain[-1] if chain else rid) in before:
            chain.append(before[chain[-1] if chain else rid])
    texts = {r.id: fold_typography(r.text) for r in store.get_many(list({v for c in chains.values() for v in c}))}
    since = {}
    for rid, chain in chains.items():
        words, since[rid] = fold_typography(mine[rid].text), days[rid][0]
        for version in chain:
            if texts.get(version) != words:
                break
            since[rid] = days[version][0]
    return since


def text_since(store: RecordStore, record: Record, first: int) -> int:
    """texts_since of one record in force from `first` (a record of no archive: `first`)."""
    return texts_since(store, [record]).get(record.id, first)


def newest_first(records: list[Record], documents: dict[str, dict]) -> list[Record]:
    """Versions of one rule number: official Comprehensive Rules first, each group newest first
    (by document date, then edition), so an added 2025 release leads the bundled 2008 one."""
    def key(record: Record) -> tuple:
        doc = documents.get(record.source, {})
        when = doc.get("date") or ""
        newest = tuple(-ord(c) for c in (when if when[:1].isdigit() else "")) + (1,)
        return (doc.get("format") != "comprules", newest, tuple(-n for n in edition_rank(record.edition)),
                record.source)
    return sorted(records, key=key)
