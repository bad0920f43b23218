"""A rule's history across Comprehensive Rules releases, and what changed between two dates.

Built on the archive's versions (ingest/archive.py): each version knows its span of releases and
its lineage, so a rule's history is its lineage in date order, and the changes between two dates
are the lineages whose number or text differ between the releases in force on those dates.
Pure reads of the record store; the renderers decide how it looks.
"""

from __future__ import annotations

from collections.abc import Callable

from rulebase.core.eras import day, show, today
from rulebase.core.errors import NotFound, UsageError
from rulebase.core.records import Record, fold_typography, number_key
from rulebase.core.value import Value
from rulebase.index.store import RecordStore
from rulebase.ingest import BINARY
from rulebase.ingest.comprules.lineage import mask
from rulebase.rules import documents
from rulebase.rules.diff import DiffOp, merge_short_equals, word_diff
from rulebase.rules.lookup import cited_number, suggest, unknown


class Step(Value):
    """One version of a rule: what it said, when, and how it differs from the version before."""

    __slots__ = ("record", "first", "last", "change", "diff", "previous_number")

    def __init__(self, record: Record, first: int, last: int, change: str, diff: list[DiffOp] | None = None,
                 previous_number: str | None = None) -> None:
        self.record = record
        self.first = first  # YYYYMMDD
        self.last = last
        self.change = change  # one of KINDS except "removed"
        self.diff = [] if diff is None else diff
        self.previous_number = previous_number


class Lineage(Value):
    __slots__ = ("key", "steps", "linked")

    def __init__(self, key: str, steps: list[Step], linked: list[Record]) -> None:
        self.key = key
        self.steps = steps
        self.linked = linked  # the same text in other documents (the bundled 2008 release, Crystal Keep)

    @property
    def current(self) -> bool:
        """In force today (a lineage whose next version is upcoming still is)."""
        now = today()
        return any(s.first <= now <= s.last for s in self.steps)


class History(Value):
    __slots__ = ("ref", "lineages")

    def __init__(self, ref: str, lineages: list[Lineage]) -> None:
        self.ref = ref
        self.lineages = lineages  # the one in force now (or on --as-of) first


def as_of_day(text: str | None) -> int | None:
    """The --as-of option as a day, or None."""
    return None if text is None else day(text, end=True)


def outside_note(store: RecordStore, when: int, sources: list[str] | None = None) -> str | None:
    """What to tell a user whose date lies past the newest release or before the oldest document
    (the answer is then the newest rules, or nothing): one line naming that release or document.
    None for a date inside the corpus. `sources`: the documents a --source filter passes (all when
    empty): `search -s ipg --as-of 2026` is told of the IPG's newest release, not of a Comprehensive
    Rules release it does not search."""
    from rulebase.core.eras import era_window  # lazy: only a date outside the corpus needs it

    passes = (lambda source: source in sources) if sources else (lambda source: True)  # noqa: E731
    starts: list[tuple[int, str]] = []  # (the day it took effect, what it is)
    releases = store.releases()
    for source, rows in releases.items():
        if not passes(source):
            continue
        name = "the Comprehensive Rules" if source == "cr" else f"the {source.upper()}"
        starts += [(row["first_day"], f"{name} release of {row['date']}") for row in rows]
    for doc in store.documents().values():
        if doc["id"] not in releases and doc["format"] not in BINARY and passes(doc["id"]):  # (releases above; cards are no rules)
            dated = f"{doc['title']} ({doc['date']})" if doc["date"] not in ("", "undated") else doc["title"]
            starts.append((era_window(doc["edition"], doc["date"])[0], dated))
    if not starts:
        return None
    newest, oldest = max(starts), min(starts)
    if when > newest[0]:
        return f"{show(when)} is after the newest release in the index, {newest[1]}: these are its rules, the newest there are"
    if when < oldest[0]:
        return (f"{show(when)} is before the oldest document in the index, {oldest[1]}, in force from "
                f"{show(oldest[0])}: nothing older is known")
    return None


def _lineage_keys(store: RecordStore, ref: str, spell_out: Callable[[str], str] | None = None) -> list[str]:
    ref = ref.strip()
    if not ref:
        raise UsageError("empty reference", hint="give a rule number (702.83a) or a record id")
    inside = documents.scoped(store, ref)  # 'IPG 2.1', 'mtr play/draw rule'
    if inside is not None:
        return _section_keys(store, *inside, spell_out)
    if ":" in ref:
        record = store.get(ref)
        if record is not None:
            if record.lineage:
                return [record.lineage]
            raise NotFound(f"{ref} has no history in the Comprehensive Rules archive",
                           hint=f"'rulebase lookup {ref}' shows the record itself")
        source, _, local = ref.partition(":")
        if "@" in local:  # a version's id names that version: none, as lookup and show say (exit 1)
            number = cited_number(local.split("@", 1)[0])
            versions = [r.id for r in store.by_number(number) if r.source == source]
            raise NotFound(f"no record {ref!r}", versions[-5:] or suggest(store, number),
                           hint=f"'rulebase history {number}' lists every version of the rule")
        ref = local
    number = cited_number(ref)
    keys = list(dict.fromkeys(r.lineage for r in store.by_number(number) if r.lineage))
    if not keys:
        raise unknown(store, ref, f"no rule {ref!r} in any Comprehensive Rules release")
    return keys


def _section_keys(store: RecordStore, source: str, rest: str, spell_out: Callable[[str], str] | None = None) -> list[str]:
    """The lineages of a tournament document's section named by number, title or shorthand."""
    number = documents.number_of(rest)
    if number is not None:
        records = [r for r in store.by_number(number) if r.source == source]
    else:
        records = documents.sections_titled(store, source, rest, spell_out)
    keys = list(dict.fromkeys(r.lineage for r in records if r.lineage))
    if not keys:
        raise NotFound(f"no {source.upper()} section matches {rest!r}",
                       hint=f"give a section number ('{source.upper()} 2.2') or words of its title")
    return keys


def history(store: RecordStore, ref: str, when: int | None = None,
            spell_out: Callable[[str], str] | None = None) -> History:
    """Every version of the rule(s) `ref` names, oldest first, lineage in force on `when` (else
    now, else most recently) first. A number reused for another rule gives several lineages.
    `spell_out`: a judge's shorthand for a section's title (rules.lookup.lookup)."""
    lineages = []
    for key in _lineage_keys(store, ref, spell_out):
        versions = [r for r in store.lineage(key) if r.span or r.source == key.split(":")[0]]
        archive = [r for r in versions if r.span]
        lineages.append(Lineage(key, steps_of(archive, store.windows([r.id for r in archive])),
                                store.get_many(same_text_ids(archive))))

    inside = documents.scoped(store, ref)
    number = (documents.number_of(inside[1]) or "") if inside else cited_number(ref.strip().split(":", 1)[-1].split("@", 1)[0])
    day = today() if when is None else when

    def rank(lineage: Lineage) -> tuple:
        """The rule that held this number on `day` (else most recently) first."""
        held = [(s.first, s.last) for s in lineage.steps if s.record.number == number] or \
            [(s.first, s.last) for s in lineage.steps]
        live = any(a <= day <= b for a, b in held)
        return (not live, -max((b for _, b in held), default=0))
    lineages.sort(key=rank)
    return History(ref, lineages)


def steps_of(archive: list[Record], spans: dict[str, tuple[int, int]], diffs: bool = True) -> list[Step]:
    """A lineage's versions (oldest first) as steps: each with its days in force (`spans`, as
    store.windows gives them), how it differs from the one before, and (unless `diffs` is off:
    a caller that shows only what kind of change each was) the word diff."""
    steps: list[Step] = []
    for record in archive:
        first, last = spans[record.id]
        prev = steps[-1].record if steps else None
        if prev is None:
            steps.append(Step(record, first, last, "added"))
            continue
        kind = classify(prev, record) or "returns"  # the same text again after releases without it
        ops = merge_short_equals(word_diff(prev.text, record.text)) \
            if diffs and kind not in ("renumbered", "returns", "lost") else []
        steps.append(Step(record, first, last, kind, ops, prev.number if prev.number != record.number else None))
    return steps


def same_text_ids(archive: list[Record]) -> list[str]:
    """The records of other documents with the same text as one of these versions (the bundled
    2008 release, Crystal Keep), once each."""
    return list(dict.fromkeys(link.target for r in archive for link in r.links if link.kind == "same-text"))


def change_text(step: Step) -> str:
    """What a step did, in words: 'first appears', 'renumbered from 502.83a', ..."""
    return {"added": "first appears", "changed": "text changed",
            "typography": "quotes, dashes or spacing changed only", "references": "cited rule numbers changed only",
            "lost": "same text but for characters a file lost ('?' for quotes)",
            "returns": "back, unchanged, after releases without it",
            "renumbered": f"renumbered from {step.previous_number}",
            "renumbered+changed": f"renumbered from {step.previous_number}, text changed"}[step.change]


KINDS = ("added", "removed", "changed", "references", "typography", "renumbered", "renumbered+changed")
# (a history step may also be "returns": the same text back after releases that lacked it, or
# "lost": differs only where one of the two files lost characters; `changes` does not count those)


def classify(old: Record, new: Record) -> str | None:
    """How one version of a rule differs from the one before: None (not at all), "renumbered",
    "renumbered+changed", "changed", or for a text change that a judge can skip, "references"
    (only the rule numbers it cites changed) or "typography" (only quotes, dashes or spacing)."""

    renumbered = old.number != new.number
    text_changed = old.text != new.text or (old.title or "") != (new.title or "")
    if not text_changed:
        return "renumbered" if renumbered else None
    if renumbered:
        return "renumbered+changed"
    if typography_only(old.text, new.text):
        return "typography"
    if lost_only(old.text, new.text) and (old.title or "") == (new.title or ""):
        return "lost"
    if mask(old.text) == mask(new.text):
        return "references"
    return "changed"


def typography_only(a: str, b: str) -> bool:
    """Texts that differ only in quotation marks, apostrophes, dashes or spacing (the releases
    switch between straight and curly quotes several times; a hard-wrapped file splits
    "permanent- type-changing" and spaces "cards -- even" that the next prints "cards--even"):
    208 steps of the archive's history differed only in where a space stood."""
    x, y = fold_typography(a), fold_typography(b)
    return x == y or x.replace(" ", "") == y.replace(" ", "")


_LOST = "?\ufffd"  # what a file printed where its encoding lost a quote, an apostrophe or a dash
_STANDS_FOR = "'\"-?\ufffd"  # what it stood for, after fold_typography (or a real '?')


def lost_only(a: str, b: str) -> bool:
    """Texts that differ only where one of them has '?' or U+FFFD for a quote, apostrophe or dash
    (2008-05-01 printed "creature?s" and "?Combat Damage Step.?"): the file lost characters, the
    rule did not change. Compared after fold_typography, character by character."""
    if not any(ch in a or ch in b for ch in _LOST):
        return False
    from rulebase.core.records import fold_typography

    x, y = fold_typography(a), fold_typography(b)
    if len(x) != len(y) or x == y:
        return False
    return all(p == q or (p in _LOST and q in _STANDS_FOR) or (q in _LOST and p in _STANDS_FOR)
               for p, q in zip(x, y, strict=True))


# -- changes between two dates ----------------------------------------------------------------


class ReleaseChange(Value):
    """One rule's difference between two releases, as records (lineage.Change is the same, as ids)."""

    __slots__ = ("kind", "old", "new", "diff")

    def __init__(self, kind: str, old: Record | None, new: Record | None, diff: list[DiffOp] | None = None) -> None:
        self.kind = kind  # one of KINDS
        self.old = old
        self.new = new
        self.diff = [] if diff is None else diff


class Changes(Value):
    __slots__ = ("source", "old_release", "new_release", "changes")

    def __init__(self, source: str, old_release: dict, new_release: dict, changes: list[ReleaseChange]) -> None:
        self.source = source
        self.old_release = old_release
        self.new_release = new_release
        self.changes = changes

    def count(self, kind: str) -> int:
        return sum(1 for c in self.changes if c.kind == kind)


def default_kinds(store: RecordStore, source: str) -> tuple[str, ...]:
    """What `changes` compares when no --kind is given: a tournament document's sections, the
    Comprehensive Rules' rules."""
    doc = store.documents().get(source) or {}
    return ("section",) if doc.get("format") == "tournament-archive" else ("rule",)


def release_on(store: RecordStore, when: int, source: str = "cr") -> dict:
    """The release of a dated document (the archive, a tournament document) in force on `when`."""
    releases = store.releases().get(source) or []
    if not releases:
        dated = ", ".join(store.releases()) or "none"
        raise NotFound(f"no document {source!r} with dated releases in the index (dated documents: {dated})",
                       hint="check 'rulebase sources'")
    for release in releases:
        if release["first_day"] <= when <= release["last_day"]:
            return release
    raise NotFound(f"no release of {source} was in force on {show(when)}",
                   hint=f"the archive starts on {releases[0]['date']}")


def changes_between(store: RecordStore, start: str, end: str, source: str = "cr",
                    kinds: tuple[str, ...] = ("rule",)) -> Changes:
    """Rules added, removed, changed and renumbered between the releases in force on two dates."""
    # '--from 2020' is the rules on its first day ("since 2020"), '--to 2020' on its last
    old_rel, new_rel = release_on(store, day(start), source), release_on(store, day(end, end=True), source)
    if old_rel["index"] > new_rel["index"]:
        raise UsageError(f"--from {start} is after --to {end}", hint="give the earlier date first")
    old = store.in_force(old_rel["first_day"], source, kinds)
    new = store.in_force(new_rel["first_day"], source, kinds)
    old_by = {r.lineage or r.id: r for r in old}
    new_by = {r.lineage or r.id: r for r in new}
    out: list[ReleaseChange] = []
    for key, record in new_by.items():
        before = old_by.get(key)
        if before is None:
            out.append(ReleaseChange("added", None, record))
        elif before.id != record.id:
            kind = classify(before, record)
            if kind is None or kind == "lost":
                continue
            ops = merge_short_equals(word_diff(before.text, record.text)) if kind != "renumbered" else []
            out.append(ReleaseChange(kind, before, record, ops))
    out += [ReleaseChange("removed", record, None) for key, record in old_by.items() if key not in new_by]
    out.sort(key=lambda c: (c.kind == "removed", number_key((c.new or c.old).number)))  # type: ignore[union-attr]
    return Changes(source, old_rel, new_rel, out)
