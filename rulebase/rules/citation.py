"""What a cited rule number meant on a day, and what it is now.

People keep rule numbers in articles, question databases and rules engines' source, and the
numbers go stale when the rules are renumbered: 702.17 was trample until 2011, 502.83a was
exalted until 2009. A citation is resolved through the archive's lineages (ingest/comprules/
lineage.py): the version that held the number on the day it was written, and that rule's version
in force now, under whatever number it has now, or the day it was removed.

`Timeline` answers from the versions' numbers and days alone (no texts), so `check` can resolve
thousands of citations from one query; `cite` adds the texts and a word diff for one. The
tournament documents' sections ('MTR 2.3', 'IPG 2.1') resolve the same way through their own
lineages. Pure reads of the record store.
"""

from __future__ import annotations

import re

from rulebase.core.eras import next_day, previous_day, show, today
from rulebase.core.errors import UsageError
from rulebase.core.records import Record, fold_typography
from rulebase.core.sources import TOURNAMENT_DOCUMENTS
from rulebase.core.value import Frozen, Value, replace
from rulebase.index.store import RecordStore
from rulebase.ingest.comprules.lineage import mask
from rulebase.rules import documents
from rulebase.rules.diff import DiffOp, merge_short_equals, word_diff
from rulebase.rules.history import classify
from rulebase.rules.lookup import cited_number

CR = "cr"  # the Comprehensive Rules archive: the document a bare rule number cites
RULE_NUMBER = re.compile(r"^[1-9]\d\d(?:\.\d{1,3}[a-z]?)?$", re.IGNORECASE)  # 702, 702.19, 702.19b
SECTION_NUMBER = re.compile(r"^\d{1,2}(?:\.\d{1,2}){0,2}$|^Appendix [A-Z]$")  # MTR 2.3, IPG 2.1, JAR 1
# Around a number as people write it: '[702.19b]', '(CR 702.19b)', '702.19b.', '"702.19b"'
_WRAPPING = "[](){}<>\"'`*_,;:"

# What a citation resolves to (Status.state): the same rule under the same number (its text may
# have changed since), under another number now, no longer in the rules, or not a rule that day
STATES = ("current", "renumbered", "removed", "unknown")


class Version(Frozen):
    """One version of a numbered record, by its days: who held a number when."""

    __slots__ = ("id", "lineage", "number", "first", "last")

    def __init__(self, id: str, lineage: str, number: str, first: int, last: int) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "lineage", lineage)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "first", first)  # YYYYMMDD
        object.__setattr__(self, "last", last)


class Status(Frozen):
    """A number cited on `day`, resolved by days alone (Timeline.status)."""

    __slots__ = ("source", "number", "day", "state", "then", "now", "moves", "removed", "last", "taken_by", "era")

    def __init__(self, source: str, number: str, day: int, state: str, then: Version | None,
                 now: Version | None, moves: tuple[tuple[int, str], ...] = (), removed: int | None = None,
                 last: Version | None = None, taken_by: Version | None = None,
                 era: tuple[int, int] | None = None) -> None:
        object.__setattr__(self, "source", source)
        # as the document prints it (the version's own number when one held it)
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "day", day)
        object.__setattr__(self, "state", state)  # one of STATES
        # the version in force on `day`; for "unknown", the nearest era's (None: never a rule)
        object.__setattr__(self, "then", then)
        object.__setattr__(self, "now", now)  # that rule's version in force now
        object.__setattr__(self, "moves", moves)  # (first day, new number) of each renumbering after `day`
        object.__setattr__(self, "removed", removed)  # the first day without the rule
        object.__setattr__(self, "last", last)  # the rule's last version, when removed
        # what the number names now, when another rule than `then`
        object.__setattr__(self, "taken_by", taken_by)
        # the days `then`'s rule held the number, over its versions under it
        object.__setattr__(self, "era", era)

    @property
    def holds(self) -> bool:
        """The number still names the rule it named that day."""
        return self.state == "current"


class Timeline:
    """Every numbered version of one dated document (the archive, a tournament document), by
    number and by lineage, read from the record store's columns in one query."""

    def __init__(self, source: str, rows: list[tuple[str, str, str, int, int]]):
        self.source = source
        self.by_number: dict[str, list[Version]] = {}
        self.by_lineage: dict[str, list[Version]] = {}
        for vid, lineage, number, first, last in rows:
            version = Version(vid, lineage, number, first, last)
            self.by_number.setdefault(number.lower(), []).append(version)
            self.by_lineage.setdefault(lineage, []).append(version)

    @classmethod
    def read(cls, store: RecordStore, source: str, number: str | None = None) -> Timeline:
        """The document's versions: all, or with `number` those of every rule that ever held it."""
        return cls(source, store.numbered_days(source, number))

    def known(self, number: str) -> bool:
        return number.lower() in self.by_number

    def held(self, number: str, day: int) -> Version | None:
        """The version that printed `number` on `day`, if any."""
        return next((v for v in self.by_number.get(number.lower(), ()) if v.first <= day <= v.last), None)

    def nearest(self, number: str, day: int) -> Version | None:
        """For a number nobody held on `day`: the last version before it that did, else the first after."""
        versions = self.by_number.get(number.lower(), [])
        before = [v for v in versions if v.last < day]
        if before:
            return max(before, key=lambda v: v.last)
        return min(versions, key=lambda v: v.first, default=None)

    def era(self, version: Version) -> tuple[int, int]:
        """The days the rule of `version` held its number: the versions next to it in time (each
        beginning the day after the one before ends) that print the same number."""
        same = [v for v in self.by_lineage[version.lineage] if v.number.lower() == version.number.lower()]
        at = next(i for i, v in enumerate(same) if v.id == version.id)
        start = end = at
        while start > 0 and same[start - 1].last >= previous_day(same[start].first):
            start -= 1
        while end + 1 < len(same) and same[end].last >= previous_day(same[end + 1].first):
            end += 1
        return same[start].first, same[end].last

    def status(self, number: str, day: int, now: int | None = None) -> Status:
        """What `number` cited on `day` names now (`now`: today)."""
        now = today() if now is None else now
        then = self.held(number, day)
        state = "current"
        if then is None:
            then, state = self.nearest(number, day), "unknown"
            if then is None:
                return Status(self.source, number, day, "unknown", None, None)
        versions = self.by_lineage[then.lineage]
        live = next((v for v in versions if v.first <= now <= v.last), None)
        moves, held = [], then.number
        for version in versions:
            if version.first > then.first and version.first <= now and version.number != held:
                moves.append((version.first, version.number))
                held = version.number
        last = removed = None
        if live is None:
            last = max((v for v in versions if v.first <= now), key=lambda v: v.last, default=then)
            removed = next_day(last.last)
            if state == "current":
                state = "removed"
        elif state == "current" and live.number.lower() != then.number.lower():
            state = "renumbered"
        occupant = self.held(then.number, now)
        taken = occupant if occupant is not None and occupant.lineage != then.lineage else None
        return Status(self.source, then.number, day, state, then, live, tuple(moves), removed, last, taken,
                      self.era(then))


# -- a citation as people write it -------------------------------------------------------------


def parse(ref: str, store: RecordStore | None = None) -> tuple[str, str]:
    """(source, number) of a citation as written: 'CR 702.19b', 'rule 702.19b', '702.19b.',
    '[702.19b]', '§702.19b' are the Comprehensive Rules' ('cr', '702.19b'); 'MTR 2.3', 'IPG 2.1.'
    a tournament document's section ('mtr', '2.3'). UsageError for anything else."""
    text = " ".join(ref.split()).strip(_WRAPPING + " ")
    if not text:
        raise UsageError("empty citation", hint="give a rule number as cited: 702.19b, CR 702.19b, MTR 2.3")
    scoped = documents.scoped(store, text) if store is not None else _scoped(text)
    if scoped is not None:
        number = documents.number_of(scoped[1].strip(_WRAPPING))
        if number is not None and SECTION_NUMBER.match(number):
            return scoped[0], number
    else:
        number = cited_number(text).strip(_WRAPPING)
        if RULE_NUMBER.match(number):
            return CR, number.lower()
    raise UsageError(f"{ref.strip()!r} is not a rule number or a tournament document's section",
                     hint="give a number as cited: 702.19b, CR 702.19b, rule 702.19b, [702.19b], MTR 2.3, IPG 2.1; "
                          "'rulebase search' finds rules by their words")


def _scoped(text: str) -> tuple[str, str] | None:
    """documents.scoped for the bundled tournament documents, without a store."""
    name, _, rest = text.partition(" ")
    source = {"dtr": "dmtr"}.get(name.lower(), name.lower())
    return (source, rest) if source in TOURNAMENT_DOCUMENTS and rest else None


# -- one citation in full: `cite` --------------------------------------------------------------


class Citation(Value):
    """A citation resolved with the records themselves: what the number said that day and what
    that rule says now, the word diff between them, or its last text."""

    __slots__ = ("ref", "status", "then", "now", "last", "taken_by", "text_changed", "diff", "parent", "change")

    def __init__(self, ref: str, status: Status, then: Record | None, now: Record | None,
                 last: Record | None = None, taken_by: Record | None = None, text_changed: bool = False,
                 diff: list[DiffOp] | None = None, parent: Record | None = None, change: str = "same") -> None:
        self.ref = ref  # as written
        self.status = status
        self.then = then  # the version in force that day (for "unknown": the nearest era's)
        self.now = now  # the same rule now
        self.last = last  # removed: its last version
        self.taken_by = taken_by  # what the number names now, when another rule
        self.text_changed = text_changed  # then -> now, quotes, dashes and spacing aside
        self.diff = [] if diff is None else diff
        self.parent = parent  # the rule or chapter `then` is filed under (its title names it)
        self.change = change  # what changed: "same", "references" (only the rule numbers it cites), "changed"


def same_words(a: Record, b: Record) -> bool:
    """The same text and title but for quotes, dashes and spacing."""
    return fold_typography(a.text) == fold_typography(b.text) and (a.title or "") == (b.title or "")


def change_of(then: Record, now: Record) -> str:
    """What became of a rule's words from `then` to `now`, whatever its number: "same" (quotes,
    dashes and spacing aside), "references" (only the rule numbers it cites, as a renumbering
    leaves them: history.classify's "references") or "changed"."""
    if same_words(then, now):
        return "same"
    kind = classify(then, replace(now, number=then.number))
    if kind in (None, "typography", "lost"):
        return "same"
    if kind == "references" or (mask(fold_typography(then.text)) == mask(fold_typography(now.text))
                                and (then.title or "") == (now.title or "")):
        return "references"  # (and quotes or dashes retyped: 704.3's 'rule 115, "Timing..."' of 2009)
    return "changed"


def cite(store: RecordStore, ref: str, when: int | None = None) -> Citation:
    """Resolve one citation as written, cited on `when` (default today)."""
    source, number = parse(ref, store)
    day = today() if when is None else when
    status = Timeline.read(store, source, number).status(number, day)
    ids = [v.id if v else "" for v in (status.then, status.now, status.last, status.taken_by)]
    records = {r.id: r for r in store.get_many([i for i in dict.fromkeys(ids) if i])}
    then, now, last, taken = (records.get(i) for i in ids)
    kind, ops = "same", []
    if then is not None and now is not None and then.id != now.id:
        kind = change_of(then, now)
        ops = merge_short_equals(word_diff(then.text, now.text)) if kind != "same" else []
    return Citation(ref.strip(), status, then, now, last, taken, kind != "same", ops, _parent(store, then), kind)


def _parent(store: RecordStore, record: Record | None) -> Record | None:
    """The titled rule a subrule belongs to (702.19b: 702.19 Trample), on the subrule's first day."""
    if record is None or record.title or not record.number:
        return None
    number = record.number
    parent = number.rstrip("abcdefghijklmnopqrstuvwxyz") if number[-1:].isalpha() else number.rsplit(".", 1)[0]
    if parent == number or not parent:
        return None
    first = store.windows([record.id]).get(record.id, (0, 0))[0]
    held = Timeline.read(store, record.source, parent).held(parent, first)
    found = store.get(held.id) if held else None
    return found if found is None or found.title else _parent(store, found)


def moves_text(status: Status) -> str:
    """'renumbered 2011-06-17 and 2013-07-13' (the days each renumbering took effect)."""

    days = [show(first) for first, _ in status.moves]
    if not days:
        return ""
    return "renumbered " + (days[0] if len(days) == 1 else ", ".join(days[:-1]) + " and " + days[-1])
