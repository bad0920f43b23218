"""A tournament document as a judge reads it at the desk: `lookup` of a document's name is its
table of contents ('IPG', 'jar'), of an IPG infraction everything needed for a call on one screen
(infractions.py), and every answer from a dated document says which release it reads and whether
the corpus's newest release of it is over a year old.

`lookup` here wraps rules.lookup.lookup: what it answers is the same, with these added.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebase.core.eras import OPEN_END, show, today
from rulebase.core.errors import NotFound
from rulebase.core.records import Record
from rulebase.index.store import RecordStore
from rulebase.rules import documents
from rulebase.rules import lookup as lookups
from rulebase.rules.lookup import Entry, Lookup

STALE_DAYS = 365  # a newest release older than this is said to be so


@dataclass(slots=True)
class Contents:
    """A document's sections in force on a day: (depth, section) in the document's order."""

    source: str
    title: str
    release: str  # the release read (YYYY-MM-DD)
    now: bool  # the release in force today (else the one of --as-of)
    sections: list[tuple[int, Record]]


@dataclass(slots=True)
class Freshness:
    """The newest release the corpus holds of a dated document, and how old it is."""

    source: str
    newest: str  # YYYY-MM-DD
    days: int  # from that release to today

    @property
    def stale(self) -> bool:
        return self.days > STALE_DAYS

    def line(self) -> str:
        """'the newest IPG this corpus holds is of 2024-09-23, 26 months before today: ...'."""
        return f"the newest {self.source.upper()} this corpus holds is of {self.newest}, {self.age()}"

    def age(self) -> str:
        """'26 months before today: a newer release may be in force'."""
        return f"{self.days * 12 // 365} months before today: a newer release may be in force"


@dataclass(slots=True)
class Cited:
    """A rule of the Comprehensive Rules a tournament document cites: the version of the day its
    words were written (ingest/tournament/links.written), and the rule's version in force now."""

    label: str
    then: Record
    now: Record | None  # None: no longer in the rules

    def line(self) -> str:
        """'rule 103.4 (2013) — now 103.5 (cr:103.5@2022-10-07)'."""
        cited = f"rule {self.then.number} ({self.then.span[0][:4]})"
        if self.now is None:
            return f"{cited} \u2014 no longer in the rules"
        if self.now.id == self.then.id:
            return f"{cited} \u2014 the same rule now"
        if self.now.number != self.then.number:
            return f"{cited} \u2014 now {self.now.number} ({self.now.id})"
        return f"{cited} \u2014 still {self.now.number}, its text since changed ({self.now.id})"


@dataclass(slots=True)
class DeskLookup(Lookup):
    contents: Contents | None = None
    infraction: object | None = None  # infractions.Infraction
    fresh: list[Freshness] = field(default_factory=list)  # stale documents the answer reads
    cited: list[Cited] = field(default_factory=list)  # the first entry's rules cited, then and now


def cited_rules(store: RecordStore, record: Record) -> list[Cited]:
    """The Comprehensive Rules a tournament document's section cites, each as of the day its
    words were written, and where that rule is now; the same for an old release's own 'See rule'
    references (resolved in its release), where a rule of that release is no longer in force."""
    if record.source not in documents.TOURNAMENT_DOCUMENTS:
        if not record.span or store.windows([record.id])[record.id][1] >= OPEN_END:
            return []
        return [c for c in _cited(store, record) if c.now is None or c.now.id != c.then.id]
    return _cited(store, record)


def _cited(store: RecordStore, record: Record) -> list[Cited]:
    out, seen = [], set()
    for ref in record.refs:
        if ref.kind != "rule" or not ref.target or ref.target in seen:
            continue
        seen.add(ref.target)
        then = store.get(ref.target)
        if then is None or not then.span or not then.lineage:
            continue
        live = store.lineage(then.lineage, today())
        out.append(Cited(ref.label, then, live[-1] if live else None))
    return out


def freshness(store: RecordStore, source: str) -> Freshness | None:
    """How old the newest release of a dated tournament document is (None for other sources)."""
    if source not in documents.TOURNAMENT_DOCUMENTS:
        return None
    newest = documents.newest_release(store, source)
    return None if newest is None else aged(source, newest["date"])


def aged(source: str, newest: str) -> Freshness:
    """The Freshness of a document whose newest release is of `newest` (YYYY-MM-DD)."""
    # lazy: dates only where a dated document is answered from
    from datetime import date

    now = date.fromisoformat(show(today()))
    return Freshness(source, newest, max(0, (now - date.fromisoformat(newest)).days))


def lookup(store: RecordStore, ref: str, when: int | None = None, full: bool = False) -> DeskLookup:
    """rules.lookup.lookup, with a document's contents, an infraction's screen and freshness."""
    alone = documents.named_alone(store, ref)
    if alone is not None:
        result = _contents(store, ref, alone, when)
    else:
        try:
            found = lookups.lookup(store, ref, when, full)
        except NotFound as exc:
            raise _unnumbered(store, ref, exc) from None
        result = DeskLookup(found.ref, found.kind, found.entries, found.diff_hint, found.full)
        # lazy: an infraction's screen only where the IPG is asked
        from rulebase.rules import infractions

        result.infraction = infractions.of(store, result, when)
        if result.entries and not result.entries[0].era:
            result.cited = cited_rules(store, result.entries[0].record)
    for source in dict.fromkeys(e.record.source for e in result.entries if e.record.span):
        fresh = freshness(store, source)
        if fresh is not None and fresh.stale:
            result.fresh.append(fresh)
    return result


def _contents(store: RecordStore, ref: str, source: str, when: int | None) -> DeskLookup:
    day = when if when is not None else today()
    release = documents.release_in_force(store, source, day)
    if release is None:
        raise NotFound(f"no release of the {source.upper()} was in force on {show(day)}",
                       hint=f"'rulebase sources' lists the {source.upper()}'s releases")
    sections = documents.contents(store, source, day)
    heads = store.in_force(day, source, ("document",))
    head = heads[0] if heads else Record(id=f"{source}:document", source=source, edition="dated", lang="en",
                                         kind="document", text="", raw="")
    title = documents.TOURNAMENT_DOCUMENTS.get(source) or head.title or source.upper()
    contents = Contents(source, title, release["date"], release["last_day"] >= OPEN_END and when is None, sections)
    return DeskLookup(ref, "contents", [Entry(head)], None, True, contents=contents)


def _unnumbered(store: RecordStore, ref: str, exc: NotFound) -> NotFound:
    """A section number asked of a document that numbers none (the JAR): say so, and how to ask."""
    inside = documents.scoped(store, ref)
    if inside is None or documents.number_of(inside[1]) is None:
        return exc
    source, _ = inside
    if documents.numbered(documents.contents(store, source, today())):
        return exc
    name = source.upper()
    heads = [r.title for _, r in documents.contents(store, source, today()) if r.title]
    example = f" ('rulebase lookup \"{name} {heads[0].lower()}\"')" if heads else ""
    return NotFound(f"the {name} numbers no sections, so there is no {name} {inside[1]}", [],
                    hint=f"'rulebase lookup {name}' lists its headings; give words of one{example}")
