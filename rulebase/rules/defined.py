"""define's answer in time: each era's defining text, the rules in force first, then the history.

definitions.py finds the records that define a term (a glossary entry, a titled paragraph, a
naming sentence), one per document; here they become entries in time:
- a Comprehensive Rules glossary entry stands for every version of it in the archive: one entry
  per run of versions that say the same (periods.runs: a retyping or renumbering is not a new
  era), each dated by the days the run was in force;
- an entry of the glossary in force now (or on --as-of) brings the rule it cites ("See rule
  302.6"), as in force that day, right after it;
- a record of another document printing an archive version's text (the bundled 2008 release) is
  that version's `same_text`, not an entry of its own;
- the order: what is in force on the day asked (today) first, then the history newest to oldest;
  with --as-of, nothing that took effect after that day.
Pure reads of the record store.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebase.core.eras import OPEN_END, edition_for_date, in_force_today, show, today
from rulebase.core.records import Record
from rulebase.index.store import RecordStore
from rulebase.index.versions import in_force, text_since
from rulebase.rules.periods import run_days, runs
from rulebase.search.request import HEADING_WORDS


@dataclass(slots=True)
class Defined:
    """One era's defining text: the record shown, its era label and the days it was in force."""

    record: Record
    era: str  # "4e", or for the archive the eras of its first and last day: "cr2009 to cr2026"
    first: int
    last: int  # eras.OPEN_END: open-ended
    now: bool  # in force on the day asked (today without --as-of)
    cited: bool = False  # a rule the glossary entry above it cites
    versions: list[str] = field(default_factory=list)  # the archive versions this text stands for
    same_text: list[str] = field(default_factory=list)  # other documents' records printing it
    window: tuple[int, int] | None = None  # an archive version: its own days in force
    since: int | None = None  # ... in force now: the day its words took effect (versions.text_since)


def in_time(store: RecordStore, records: list[Record], when: int | None) -> list[Defined]:
    """The records definitions.py found, as entries in time (see the module docstring)."""
    day = today() if when is None else when  # (an upcoming release's text is not yet in force, nor history)
    newest = _newest_label(store)
    shown = {r.id for r in records}
    entries: list[Defined] = []
    twins: set[str] = set()
    for record in records:
        if not (record.span and record.lineage):
            continue
        for run in runs(store, record.lineage):
            first, last = run_days(store, run)
            if first > day:
                continue
            live = first <= day <= last
            pick = next(iter(in_force(store, run, day)), run[-1]) if live else run[-1]
            same = sorted({k.target for v in run for k in v.links if k.kind == "same-text" and k.target in shown})
            twins.update(same)
            entries.append(Defined(pick, _era(first, last, newest), first, last, live,
                                   versions=[v.id for v in run], same_text=same))
    windows = store.windows([r.id for r in records if not r.span])
    for record in records:
        if record.span or record.id in twins:
            continue
        first, last = windows.get(record.id, (0, OPEN_END))
        if first <= day:
            entries.append(Defined(record, record.edition, first, last, first <= day <= last))
    # in force: the archive's glossary first, then the other documents (a later edition first)
    now = sorted((e for e in entries if e.now), key=lambda e: (e.record.source != "cr", -e.first, e.record.order))
    history = sorted((e for e in entries if not e.now), key=lambda e: (-e.last, -e.first, e.record.order))
    out: list[Defined] = []
    for entry in now:
        out.append(entry)
        out += cited_rules(store, entry, day, newest)
    out += history
    spans = store.windows([e.record.id for e in out if e.record.span])
    for entry in out:
        entry.window = spans.get(entry.record.id)
        if entry.window and in_force_today(*entry.window):
            entry.since = text_since(store, entry.record, entry.window[0])
    return out


def cited_rules(store: RecordStore, entry: Defined, day: int, newest: str) -> list[Defined]:
    """The rules a glossary entry in force cites ("See rule 302.6"), as in force on `day`."""
    if entry.record.kind != "glossary":
        return []
    out = []
    for ref in entry.record.refs:
        if ref.kind != "rule" or not ref.target:
            continue
        target = store.get(ref.target)
        if target is not None and len(target.text.split()) <= HEADING_WORDS:  # a heading: its first rule says it
            number = f"{target.number}a" if "." in (target.number or "") else f"{target.number}.1"
            target = next(iter(in_force(store, [r for r in store.by_number(number) if r.span], day)), target)
        if target is None or not target.lineage:
            continue
        for run in runs(store, target.lineage):
            first, last = run_days(store, run)
            if first <= day <= last:
                pick = next(iter(in_force(store, run, day)))
                out.append(Defined(pick, _era(first, last, newest), first, last, True, cited=True,
                                   versions=[v.id for v in run]))
    return out


def _newest_label(store: RecordStore) -> str:
    """The era label of the newest archive release in force (what "now" is, for an era label)."""
    now = today()
    dates = [r["date"] for rows in store.releases().values() for r in rows if r["first_day"] <= now]
    return edition_for_date(max(dates))[0] if dates else "now"


def _era(first: int, last: int, newest: str) -> str:
    start = edition_for_date(show(first))[0]
    end = (newest if first <= today() else start) if last >= OPEN_END else edition_for_date(show(last))[0]
    return start if start == end else f"{start} to {end}"
