"""When a topic's texts were in force: its columns, and when a rule left the Comprehensive Rules.

Every date here is read from the archive's versions, never typed into topics.toml:
- a version's *run* is the days its text was in force, widened over the neighbouring versions of
  its lineage that differ only in quotes, dashes, the numbers it cites, its own number, a file's
  lost characters (history.classify) or a web address it prints, so "the same rule" is not cut
  short by a renumbering;
- a topic's columns (topic_columns): the rulebooks before the archive over their eras, then one
  column per stretch of releases in which every rule the topic quotes kept its run; a stretch is
  a curated column's when all that column quotes is in force in it, else it quotes the rules in
  force then; consecutive stretches of one curated column are one column. Together they cover
  every day from the topic's first text to now, none twice;
- a removed rule is gone from the day after its lineage's last version was last in force, the
  first day of the release that no longer had it.
Pure reads of the record store.
"""

from __future__ import annotations

import re

from rulebase.core.eras import OPEN_END, edition_for_date, era_window, next_day, previous_day, show, today
from rulebase.core.errors import ManifestError
from rulebase.core.records import Record
from rulebase.core.sources import YEAR_LABEL
from rulebase.core.value import Frozen
from rulebase.index.store import RecordStore
from rulebase.rules.history import classify, typography_only
from rulebase.rules.topics import TOPICS_FILE, Topic

SAME_RULE = {None, "typography", "lost", "references", "renumbered"}  # history.classify kinds


class Removal(Frozen):
    """A rule an era no longer has: its last version, the last release that printed it and the
    first day it was not in force."""

    __slots__ = ("id", "number", "title", "last_release", "gone")

    def __init__(self, id: str, number: str, title: str | None, last_release: str, gone: int) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "last_release", last_release)
        object.__setattr__(self, "gone", gone)


class Period(Frozen):
    __slots__ = ("first", "last")

    def __init__(self, first: int, last: int) -> None:
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "last", last)  # eras.OPEN_END: open-ended

    @property
    def now(self) -> bool:
        """In force today (eras.today: not an upcoming release's)."""
        return self.first <= today() <= self.last


def runs(store: RecordStore, key: str) -> list[list[Record]]:
    """A lineage's archive versions, oldest first, grouped into runs of the same rule: a new run
    starts where the text really changed (see the module docstring)."""
    out: list[list[Record]] = []
    for version in (v for v in store.lineage(key) if v.span):  # (not the bundled 2008 copy)
        if out and (classify(out[-1][-1], version) in SAME_RULE or same_words(out[-1][-1].text, version.text)):
            out[-1].append(version)
        else:
            out.append([version])
    return out


_ADDRESS = re.compile(r"[<(]*(?:https?://|www\.)\S*|\S+\.(?:com|org)/\S*")


def same_words(a: str, b: str) -> bool:
    """Texts alike but for typography and the web addresses they print (ante's rule 407.1 changed
    only the Tournament Rules' address, seven times from 2010 to 2025): the same rule to a
    historian, not a new era of it."""
    return typography_only(_ADDRESS.sub("", a), _ADDRESS.sub("", b))


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


class EraColumn(Frozen):
    """One column of a topic, in time order: `label` (its key for --editions and --json),
    `curated` (the topics.toml column it shows; None for a column read from the archive alone,
    an era whose text no curated column quotes), its days in force, and for a column read from
    the archive the versions it quotes (each tracked rule in force on its first day) and the last
    versions of the tracked rules it no longer has."""

    __slots__ = ("label", "curated", "period", "versions", "removed")

    def __init__(self, label: str, curated: str | None, period: Period, versions: tuple[str, ...] = (),
                 removed: tuple[Removal, ...] = ()) -> None:
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "curated", curated)
        object.__setattr__(self, "period", period)
        object.__setattr__(self, "versions", versions)
        object.__setattr__(self, "removed", removed)


class _Era(Frozen):
    __slots__ = ("first", "last", "state")

    def __init__(self, first: int, last: int, state: tuple[int | None, ...]) -> None:
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "last", last)
        object.__setattr__(self, "state", state)  # per tracked lineage, the run in force (None: not in force)


def column_periods(store: RecordStore, topic: Topic) -> dict[str, Period]:
    """Each column's days in force, by label (topic_columns)."""
    return {c.label: c.period for c in topic_columns(store, topic)}


def topic_columns(store: RecordStore, topic: Topic) -> list[EraColumn]:
    """A topic's columns, oldest first, covering every day from its first text to now without
    overlap: the editions before the Comprehensive Rules (alpha, 4e, 5e) over their rules eras;
    from 1999-04-23 one column per stretch of releases in which the topic's rules (the lineages
    its columns quote, by their runs) kept the same text. A stretch is a curated column's when
    every rule that column quotes is in force in it in the text quoted (after its `since`, with
    its `removed` rules gone); the column's days are its text's, not its label's era. A stretch
    no curated column quotes is a column of its own, quoting the rules in force then."""
    out = [EraColumn(ed, ed, Period(*era_window(ed, None))) for ed in topic.editions if ed in PRE_ARCHIVE]
    lineages, claims, days = _tracked(store, topic)
    if not any(days.values()):  # (an index without the archive: the curated columns over their labels' eras)
        return sorted(out + [EraColumn(ed, ed, Period(*era_window(ed, None))) for ed in topic.editions
                             if ed not in PRE_ARCHIVE], key=lambda c: c.period.first)
    eras = _eras(days, lineages)
    owners = [_owner(era, claims, lineages) for era in eras]
    spans: list[tuple[str | None, int, int, int]] = []  # (owner, first, last, the era it starts at)
    n = 0
    while n < len(eras):
        m = n
        while m + 1 < len(eras) and owners[m + 1] is not None and owners[m + 1] == owners[n]:
            m += 1
        spans.append((owners[n], eras[n].first, eras[m].last, n))
        n = m + 1
    editions = {ed for ed in topic.editions if not is_era(ed)}  # (the editions keep their labels)
    used = set(editions)
    taken: set[str] = set()
    for owner, first, last, at in spans:
        label = owner if owner in editions and owner not in taken else None
        if owner is not None and owner not in taken:
            taken.add(owner)
        else:
            owner = None  # (a curated column's text back again after another's: read from the archive)
        if label is None:  # a Comprehensive Rules column: labelled by the era its first day falls in
            label = edition_for_date(show(first))[0]
            label = label if label not in used else f"cr{show(first)}"
        used.add(label)
        if owner is not None:
            out.append(EraColumn(label, owner, Period(first, last)))
        else:
            out.append(EraColumn(label, None, Period(first, last), _versions(store, lineages, eras[at]),
                                 _gone(store, lineages, eras[at - 1].state if at else (), eras[at])))
    return sorted(out, key=lambda c: c.period.first)


PRE_ARCHIVE = ("alpha", "4e", "5e")  # the editions before the archive's first release (1999-04-23)


def _tracked(store: RecordStore, topic: Topic) -> tuple[list[str], dict[str, dict], dict[str, list[tuple[int, int]]]]:
    """The lineages the topic's columns quote (archive versions, and the bundled 2008 release's
    copies by their lineage); per curated column what it claims: per lineage the runs it quotes,
    the lineages it says are gone, and its `since` day; and each lineage's runs' days."""
    named = [q.id for col in topic.editions.values() for q in col.citations]
    named += [rid for col in topic.editions.values() for rid in (*col.removed, *([col.since] if col.since else []))]
    records = {r.id: r for r in store.get_many(list(dict.fromkeys(named)))}
    windows = store.windows(list(records))
    lineages: list[str] = []
    for rid in named:
        record = records.get(rid)
        if record is not None and record.lineage and record.lineage not in lineages:
            lineages.append(record.lineage)
    spans = {key: [run_days(store, run) for run in runs(store, key)] for key in lineages}
    claims: dict[str, dict] = {}
    for ed, column in topic.editions.items():
        if ed in PRE_ARCHIVE:
            continue
        quoted: dict[str, set[int]] = {}
        for quote in column.citations:
            record = records.get(quote.id)
            if record is None or not record.lineage:
                continue
            on = windows[record.id][0]  # (a copy: the day its release took effect)
            at = [n for n, (first, last) in enumerate(spans[record.lineage]) if first <= on <= last]
            quoted.setdefault(record.lineage, set()).update(at[:1])
        gone = {records[rid].lineage for rid in column.removed if rid in records and records[rid].lineage}
        since = windows[column.since][0] if column.since in windows else 0
        if quoted or gone:
            claims[ed] = {"quoted": quoted, "gone": gone, "since": since}
    return lineages, claims, spans


def _eras(days: dict[str, list[tuple[int, int]]], lineages: list[str]) -> list[_Era]:
    """The stretches, from the first day any tracked rule was in force to now, in which every
    tracked rule kept one run (or stayed out of force)."""
    starts = {first for spans in days.values() for first, _ in spans}
    starts |= {next_day(last) for spans in days.values() for _, last in spans if last < OPEN_END}
    starts = sorted(starts)
    eras: list[_Era] = []
    for n, first in enumerate(starts):
        last = previous_day(starts[n + 1]) if n + 1 < len(starts) else OPEN_END
        state = tuple(next((i for i, (a, b) in enumerate(days[key]) if a <= first <= b), None) for key in lineages)
        if eras and eras[-1].state == state:
            eras[-1] = _Era(eras[-1].first, last, state)
        else:
            eras.append(_Era(first, last, state))
    return eras


def _owner(era: _Era, claims: dict[str, dict], lineages: list[str]) -> str | None:
    """The curated column whose quoted texts are all in force in `era` (and whose removed rules
    are gone), the one that quotes the most rules when several are."""
    state = dict(zip(lineages, era.state, strict=True))
    fits = [(len(claim["quoted"]) + len(claim["gone"]), claim["since"], ed) for ed, claim in claims.items()
            if era.first >= claim["since"]
            and all(state[key] in runs_ for key, runs_ in claim["quoted"].items())
            and all(state[key] is None for key in claim["gone"])]
    return max(fits)[2] if fits else None


def _versions(store: RecordStore, lineages: list[str], era: _Era) -> tuple[str, ...]:
    """The version of each tracked rule in force on the era's first day."""
    out = []
    for key, at in zip(lineages, era.state, strict=True):
        if at is not None:
            version = store.lineage(key, era.first)
            out += [v.id for v in version if v.span][:1]
    return tuple(out)


def _gone(store: RecordStore, lineages: list[str], before: tuple, era: _Era) -> tuple[Removal, ...]:
    """The tracked rules in force in the era before and not in this one: each one's version last
    in force, gone from the era's first day."""
    out = []
    for key, was, is_ in zip(lineages, before or (None,) * len(lineages), era.state, strict=True):
        if was is not None and is_ is None:
            versions = [v for v in store.lineage(key) if v.span]
            spans = store.windows([v.id for v in versions])
            last = [v for v in versions if spans[v.id][1] < era.first][-1:]
            out += [Removal(v.id, v.number or "", v.title, v.span[-1], era.first) for v in last]
    return tuple(out)


def _fail(what: str) -> ManifestError:
    return ManifestError(what, TOPICS_FILE, "fix corpus/topics.toml (see the comment at its top)")
