"""When a curated column's rules were in force, and when a rule left the Comprehensive Rules.

Every date here is read from the archive's versions, never typed into topics.toml:
- a version's *run* is the days its text was in force, widened over the neighbouring versions of
  its lineage that differ only in quotes, dashes, the numbers it cites, its own number or a file's
  lost characters (history.classify), so "the same rule" is not cut short by a renumbering;
- a Comprehensive Rules era column starts on the first day of its `since` version (a version whose
  text changed then, checked by the tests), else on the day all its cited texts were in force, or
  on the day its removed rules went; it ends the day before the topic's next era column starts,
  or, the newest column, "now" when its texts are in force today;
- a removed rule is gone from the day after its lineage's last version was last in force, the
  first day of the release that no longer had it.
Pure reads of the record store.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebase.core.eras import OPEN_END, era_window, next_day, previous_day, today
from rulebase.core.errors import ManifestError
from rulebase.core.records import Record
from rulebase.core.sources import YEAR_LABEL
from rulebase.index.store import RecordStore
from rulebase.rules.history import classify
from rulebase.rules.topics import TOPICS_FILE, Topic

SAME_RULE = {None, "typography", "lost", "references", "renumbered"}  # history.classify kinds


@dataclass(frozen=True, slots=True)
class Removal:
    """A rule an era no longer has: its last version, the last release that printed it and the
    first day it was not in force."""

    id: str
    number: str
    title: str | None
    last_release: str
    gone: int


@dataclass(frozen=True, slots=True)
class Period:
    first: int
    last: int  # eras.OPEN_END: open-ended

    @property
    def now(self) -> bool:
        """In force today (eras.today: not an upcoming release's)."""
        return self.first <= today() <= self.last


def runs(store: RecordStore, key: str) -> list[list[Record]]:
    """A lineage's archive versions, oldest first, grouped into runs of the same rule: a new run
    starts where the text really changed (see the module docstring)."""
    out: list[list[Record]] = []
    for version in (v for v in store.lineage(key) if v.span):  # (not the bundled 2008 copy)
        if out and classify(out[-1][-1], version) in SAME_RULE:
            out[-1].append(version)
        else:
            out.append([version])
    return out


def run_days(store: RecordStore, run: list[Record]) -> tuple[int, int]:
    """The first and last day a run of versions was in force."""
    spans = store.windows([run[0].id, run[-1].id])
    return spans[run[0].id][0], spans[run[-1].id][1]


def run_of(store: RecordStore, record: Record) -> tuple[int, int]:
    """The days `record`'s text was in force, widened over same-rule neighbours (see above)."""
    if not record.span or not record.lineage:
        return store.windows([record.id]).get(record.id) or era_window(record.edition, None)
    run = next(r for r in runs(store, record.lineage) if any(v.id == record.id for v in r))
    return run_days(store, run)


def removal(store: RecordStore, version_id: str) -> Removal:
    """When the rule `version_id` is a version of left the rules; a ManifestError when it did not."""
    record = store.get(version_id)
    if record is None or not record.lineage:
        raise _fail(f"'removed' names {version_id!r}, which is not an archive version")
    last = [v for v in store.lineage(record.lineage) if v.span][-1]
    end = store.windows([last.id])[last.id][1]
    if end >= OPEN_END:
        raise _fail(f"'removed' names {version_id!r}, but its rule is in force now ({last.id})")
    return Removal(last.id, last.number or "", last.title, last.span[-1], next_day(end))


def is_era(edition: str) -> bool:
    """A Comprehensive Rules era column (crYYYY), dated by its versions rather than by its label."""
    return bool(YEAR_LABEL.match(edition))


def column_periods(store: RecordStore, topic: Topic) -> dict[str, Period]:
    """Each column's days in force: an edition's rules era, or for a Comprehensive Rules era the
    days read from its citations, `since` and removed rules (see the module docstring)."""
    out = {ed: Period(*era_window(ed, None)) for ed in topic.editions if not is_era(ed)}
    starts: dict[str, int] = {}
    ends: dict[str, int] = {}
    for ed, column in topic.editions.items():
        named = [q.id for q in column.citations] + list(column.removed) + ([column.since] if column.since else [])
        records = {r.id: r for r in store.get_many(named)}
        if not is_era(ed) or len(records) < len(set(named)):  # (an index without the archive: undated)
            continue
        runs_ = [run_of(store, records[q.id]) for q in column.citations]
        gone = [removal(store, rid).gone for rid in column.removed]
        if column.since:
            starts[ed] = store.windows([column.since])[column.since][0]
        else:
            starts[ed] = max([first for first, _ in runs_] + gone, default=0)
        ends[ed] = max((last for _, last in runs_), default=OPEN_END)  # (the newest: now if one still is)
    order = sorted(starts, key=starts.get)
    for n, ed in enumerate(order):
        last = ends[ed] if n + 1 == len(order) else max(starts[ed], previous_day(starts[order[n + 1]]))
        out[ed] = Period(starts[ed], last)
    return out


def _fail(what: str) -> ManifestError:
    return ManifestError(what, TOPICS_FILE, "fix corpus/topics.toml (see the comment at its top)")
