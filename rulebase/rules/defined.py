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

import re

from rulebase.core.eras import OPEN_END, edition_for_date, in_force_today, show, today
from rulebase.core.records import Record, fold_typography
from rulebase.core.sources import TOURNAMENT_DOCUMENTS, release_label
from rulebase.core.value import Value, replace
from rulebase.index.store import RecordStore
from rulebase.index.versions import in_force, text_since
from rulebase.rules.periods import run_days, runs
from rulebase.search.request import HEADING_WORDS


class Defined(Value):
    """One era's defining text: the record shown, its era label and the days it was in force."""

    __slots__ = ("record", "era", "first", "last", "now", "cited", "versions", "same_text", "window", "since")

    def __init__(self, record: Record, era: str, first: int, last: int, now: bool, cited: bool = False,
                 versions: list[str] | None = None, same_text: list[str] | None = None,
                 window: tuple[int, int] | None = None, since: int | None = None) -> None:
        self.record = record
        self.era = era  # "4e", or for the archive the eras of its first and last day: "cr2009 to cr2026"
        self.first = first
        self.last = last  # eras.OPEN_END: open-ended
        self.now = now  # in force on the day asked (today without --as-of)
        self.cited = cited  # a rule the glossary entry above it cites
        self.versions = [] if versions is None else versions  # the archive versions this text stands for
        self.same_text = [] if same_text is None else same_text  # other documents' records printing it
        self.window = window  # an archive version: its own days in force
        self.since = since  # ... in force now: the day its words took effect (versions.text_since)


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


# --- The terms the tournament documents define in their own words, for `define` (beside the
# Comprehensive Rules' glossary).
#
# The MTR and IPG have no glossary: they define a term where they use it, in four ways, and each
# is read here from the section that prints it:
# - an infraction: 'Game Play Error — Missed Trigger' defines Missed Trigger in its 'Definition'
#   part (the paragraphs between it and the next part);
# - a term set as a line of its own, then its paragraph (the IPG's 'Warning', 'Game Loss' in 1.1);
# - a paragraph that opens by saying what the term is ('A tournament shortcut is an action ...',
#   'Free information is information ...');
# - a section titled with the term ('4.4 Loops'): its first paragraph.
# What is shown is the section's version in force on the day asked, its text cut to those
# paragraphs, as printed (the id names the section that prints them).

PARTS = ("definition", "examples", "example", "philosophy", "additional remedy", "upgrade", "downgrade", "penalty")
_SAYS = r"(?:is|are|means|refers to|consists of|occurs? when)\b"


def _folded(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", fold_typography(text)))


def _singular(words: str) -> str:
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words.split())


def defining_paragraphs(record: Record, term: str) -> list[str]:
    """The paragraphs of a tournament section that define `term`, as printed; none when it does
    not define it."""
    want = _singular(_folded(term))
    if not want:
        return []
    paragraphs = [p for p in record.text.split("\n\n") if p.strip()]
    folded = [_folded(p) for p in paragraphs]
    title = _singular(_folded(record.title or ""))
    infraction = re.search(rf"(?:^| )(?:error|conduct|violation) {re.escape(want)}$", title) or (
        title == want and record.source in ("ipg", "dipg"))
    if infraction and "definition" in folded:  # an infraction: its Definition part
        start = folded.index("definition") + 1
        end = next((n for n in range(start, len(folded)) if folded[n] in PARTS), len(folded))
        return paragraphs[start:end]
    for n, words in enumerate(folded):
        if _singular(words) == want and n + 1 < len(paragraphs) and len(folded[n + 1].split()) > 6:
            return paragraphs[n: n + 2]  # a term on a line of its own, then what it is
    opening = re.compile(rf"^(?:an? |the )?{re.escape(want)}s? {_SAYS}")
    for n, words in enumerate(folded):
        if opening.match(_singular(words.split(" . ")[0])) or opening.match(words):
            return [paragraphs[n]]
    if title == want and paragraphs:
        return paragraphs[:1]
    return []


def definitions(store: RecordStore, term: str, when: int | None = None) -> list[Defined]:
    """The tournament documents' definitions of `term` in force on `when` (else now), one per
    section, in document order: MTR, IPG, JAR, DMTR, DIPG."""
    words = _folded(term).split()
    if not words:
        return []
    like = ("%" + "%".join(w[:-1] if len(w) > 4 and w.endswith("s") else w for w in words) + "%",)
    day = OPEN_END if when is None else when
    found = [r for r in store.of_kind("section", None if when is None else day, like)
             if r.source in TOURNAMENT_DOCUMENTS and r.span and "~" not in r.id]
    spans = store.windows([r.id for r in found])
    rank = {sid: n for n, sid in enumerate(TOURNAMENT_DOCUMENTS)}
    out: list[Defined] = []
    for record in sorted(found, key=lambda r: (rank[r.source], r.order)):
        first, last = spans.get(record.id, (0, OPEN_END))
        if not first <= day <= last:
            continue  # the newest version of a section no longer printed
        shown = defining_paragraphs(record, term)
        if shown:
            view = replace(record, text="\n\n".join(shown), refs=[], refs_in=[])
            out.append(Defined(view, release_label(record) or record.edition, first, last, True,
                               versions=[record.id]))
    return out
