"""The Comprehensive Rules archive as the site shows it: every glossary entry of every release, and
the newest release's rules, each with its history.

Read once from the record store (two queries per archive source: its versions and their days in
force), then grouped by lineage: a rule's history is its lineage's steps (rules/history.steps_of,
the code `rulebase history` runs), across edits and renumberings. Versions point at the parent and
rule versions of their own first release; `current` maps every version of a lineage in force now
to the version in force, so the newest release reads as one tree whatever release each of its
texts first appeared in.
"""

from __future__ import annotations

from rulebase.core.eras import today
from rulebase.core.records import Record, number_key
from rulebase.core.value import Value, replace
from rulebase.index.store import RecordStore
from rulebase.index.versions import without_twins
from rulebase.rules.history import Step, same_text_ids, steps_of

RULE_KINDS = ("section", "chapter", "rule")  # what gets a page of its own
LIVE_KINDS = (*RULE_KINDS, "example")  # examples are shown on their rule's page


class Archive(Value):
    __slots__ = ("source", "release", "live", "parent", "steps", "linked", "current", "glossary", "cards", "parts",
                 "spans", "step_of", "twin_of")

    def __init__(self, source: str, release: dict, live: list[Record], parent: dict[str, str] | None = None,
                 steps: dict[str, list[Step]] | None = None, linked: dict[str, list[str]] | None = None,
                 current: dict[str, str] | None = None, glossary: list[Record] | None = None,
                 cards: dict[str, tuple[int, list[str]]] | None = None, parts: list[Record] | None = None,
                 spans: dict[str, tuple[int, int]] | None = None, step_of: dict[str, Step] | None = None,
                 twin_of: dict[str, str] | None = None) -> None:
        self.source = source
        self.release = release  # the release in force today (else the oldest): date, first_day, ...
        self.live = live  # in force in the newest release (RULE_KINDS and examples), document order
        self.parent = {} if parent is None else parent  # live id -> live parent id
        self.steps = {} if steps is None else steps  # lineage -> its versions, oldest first
        self.linked = {} if linked is None else linked  # lineage -> same text in other documents
        self.current = {} if current is None else current  # a version of a live lineage -> the live version
        # every glossary version, twins of shown records left out
        self.glossary = [] if glossary is None else glossary
        self.cards = {} if cards is None else cards  # live id -> cards using it, a few names
        self.parts = [] if parts is None else parts  # the examples filed under those versions
        self.spans = {} if spans is None else spans  # days in force, glossary versions too
        self.step_of = {} if step_of is None else step_of  # version id -> its step (rules and glossary)
        self.twin_of = {} if twin_of is None else twin_of  # a glossary version left out -> its twin shown

    def now(self, record_id: str) -> str | None:
        """The version in force now of the lineage `record_id` belongs to."""
        return self.current.get(record_id)


def load_archives(store: RecordStore, shown: list[Record]) -> list[Archive]:
    """Each archive source of the store (normally one, `cr`). `shown`: the other documents'
    records; an archive glossary version with the same text as one of them is that record
    (index/versions.without_twins), as `define` shows it."""
    out = []
    day = today()
    for source, releases in sorted(store.releases().items()):
        if releases:  # the release in force today (an upcoming one is not yet the rules)
            current = max((r for r in releases if r["first_day"] <= day), key=lambda r: r["first_day"],
                          default=releases[0])
            out.append(_load(store, source, current, [r for r in shown if r.kind == "glossary"]))
    return out


def _load(store: RecordStore, source: str, release: dict, shown: list[Record]) -> Archive:
    spans = store.source_windows(source)
    live = [r for r in store.in_force(release["first_day"], source, LIVE_KINDS) if r.span]
    archive = Archive(source, release, live, spans=spans)
    lineages: dict[str, list[Record]] = {}
    number_of: dict[str, str | None] = {}
    for record in store.versions(source, RULE_KINDS):
        lineages.setdefault(record.lineage or record.id, []).append(record)
        number_of[record.id] = record.number
    live_ids = {r.id for r in live}
    for key, versions in lineages.items():
        now = [v for v in versions if v.id in live_ids]
        if not now:
            continue
        steps = steps_of(versions, spans)
        archive.steps[key] = steps
        archive.linked[key] = same_text_ids(versions)
        archive.step_of.update((s.record.id, s) for s in steps)
        archive.current.update((v.id, now[-1].id) for v in versions)
    archive.current.update((r.id, r.id) for r in live)  # examples: in force now, no history shown
    numbered = {r.number: r.id for r in live if r.number and r.kind in RULE_KINDS}
    for r in live:
        # A version points at its parent as printed in its own first release; in the newest release
        # its parent is the rule holding that number now. 601.3a of 2019 points at that year's
        # 601.3, a rule rewritten since as another lineage: by lineage it had no parent in force,
        # and 601.3's page listed only the subrules printed after the rewrite.
        parent = numbered.get(number_of.get(r.parent or "") or "") or archive.current.get(r.parent or "")
        if parent and parent != r.id:
            archive.parent[r.id] = parent
    glossary = store.versions(source, ("glossary",))
    by_lineage: dict[str, list[Record]] = {}
    for record in glossary:
        by_lineage.setdefault(record.lineage or record.id, []).append(record)
    for versions in by_lineage.values():
        archive.step_of.update((s.record.id, s) for s in steps_of(versions, spans, diffs=False))
    alone = {g.id for g in without_twins(glossary, shown)}  # in force now: kept, its days are news
    day = today()
    kept = [g for g in glossary if g.id in alone or spans[g.id][0] <= day <= spans[g.id][1]]
    ids, shown_ids = {g.id for g in kept}, {r.id for r in shown}
    archive.twin_of = {g.id: link.target for g in glossary if g.id not in ids
                       for link in g.links if link.kind == "same-text" and link.target in shown_ids}
    archive.glossary = [_retarget(archive, g) if spans[g.id][0] <= day <= spans[g.id][1] else g for g in kept]
    archive.parts = [e for e in store.versions(source, ("example",)) if e.parent in ids]
    archive.live = [_retarget(archive, r) for r in _as_printed(live, archive.parent)]
    return archive


def _as_printed(live: list[Record], parent: dict[str, str]) -> list[Record]:
    """The newest release's records in the order it prints them: a rule, its examples, then its
    subrules in number order. The store holds versions in the order they first appeared, so 702.19b
    of 2009 came after 702.19g of 2021, and the contents listed '100 General, 200 General, ...'."""
    kids: dict[str | None, list[Record]] = {}
    for r in live:
        kids.setdefault(parent.get(r.id), []).append(r)
    for family in kids.values():  # (stable: examples keep their order, unnumbered records come last)
        family.sort(key=lambda r: (r.kind != "example", not r.number, number_key(r.number)))
    out: list[Record] = []
    seen: set[str] = set()
    todo = list(reversed(kids.get(None, [])))
    while todo:
        r = todo.pop()
        if r.id not in seen:
            seen.add(r.id)
            out.append(r)
            todo += reversed(kids.get(r.id, []))
    return out + [r for r in live if r.id not in seen]  # (a parent loop: kept, in store order)


def _retarget(archive: Archive, record: Record) -> Record:
    """A text in force now cites the rules in force now: its references to an older version of a
    rule point at that rule's version in force (the text and label are unchanged)."""
    refs = [replace(ref, target=archive.current.get(ref.target or "", ref.target)) for ref in record.refs]
    return replace(record, refs=refs) if refs != record.refs else record

