"""A tournament document's releases in one timeline, each distinct text of a section stored once.

As for the Comprehensive Rules archive (ingest/comprules/archive.py), a *version* is one text of
one section in a contiguous run of releases, id `mtr:2.2@2024-09-23` (the local id and the
first release of the run) with `span` [first release, last release], and `lineage` joins the
versions of one section across edits and renumberings, traced by the same matcher
(comprules/lineage.trace: same number and text; renumbered with the same text; reworded in place).

Releases are dated by the day their own text says they took effect; a file that prints none is
dated from its evidence (dating.infer) and flagged. Two files of one release (the app's HTML and
a Markdown or PDF conversion of the same IPG, dated a day or two apart) are merged: the file
converted from the official PDF leads and gives the date, a section the other prints differently
is kept as a later printing (`~printing2`, flagged), and disagreeing dates are noted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date

from rulebase.core.eras import edition_for_date
from rulebase.core.errors import SourceError
from rulebase.core.records import Record, Ref, fold_space, fold_typography
from rulebase.core.sources import Source
from rulebase.core.value import replace
from rulebase.ingest.comprules.lineage import trace
from rulebase.ingest.text import Parsed
from rulebase.ingest.tournament import dating
from rulebase.ingest.tournament.release import FileParsed

SAME_RELEASE_DAYS = 7  # two files of a document this close in date, with the same text, are one release
SAME_RELEASE_SHARE = 0.75  # ... the same text: this share of their sections print alike
_OFFICIAL = ("pdf-html", "markdown", "text")  # converted from the official PDF: its text and date lead


@dataclass(slots=True)
class File:
    parsed: FileParsed
    encoding: str
    commit: str | None  # the app update it came with (the archive's manifest); None for an added file
    manifest_date: str | None
    day: date | None = None
    how: str = ""
    inferred: bool = False
    added: bool = False  # a release the user added (`rulebase add`), not a file of the archive


def _date_files(mine: list[File], everything: list[File], notes: list[str]) -> None:
    """Each file's day: as printed, else inferred from its evidence and its companions (the other
    documents of the same app update that print theirs)."""
    for f in mine:
        if f.parsed.printed is not None:
            f.day, f.how = f.parsed.printed, f.parsed.how
            if f.manifest_date and f.manifest_date[:4].isdigit() and f.manifest_date != f.day.isoformat() \
                    and f.manifest_date[:10].count("-") == 2:
                notes.append(f"{f.parsed.name}: the archive's manifest says {f.manifest_date}, the text {f.how}: "
                             f"dated {f.day.isoformat()}")
            continue
        companions = [(g.parsed.printed, f"the {g.parsed.document.upper()} of the same app update, "
                                         f"which prints {g.parsed.how}")
                      for g in everything if g is not f and g.commit and g.commit == f.commit
                      and g.parsed.printed is not None and g.parsed.document != f.parsed.document]
        got = dating.infer(f.parsed.evidence, companions)
        if got is None:
            raise SourceError("the file prints no date and holds no evidence of one", f.parsed.name,
                              "add a copy whose first lines say 'Effective MONTH DAY, YEAR'")
        f.day, f.how, f.inferred = got[0], f"no date printed; inferred from {got[1]}", True
        notes.append(f"{f.parsed.name}: {f.how}: dated {f.day.isoformat()}")


def _shape(record: Record) -> str:
    """A section's letters and digits, case folded (and '™' as the app writes it, '(TM)'): what
    two printings of one release share when one is the app's HTML and the other a conversion of
    the PDF, which differ in quotes, dashes, spacing and a colon after 'Upgrade'."""
    return _NOT_WORD.sub("", fold_typography(f"{record.title or ''} {record.text}").replace("\u2122", "tm"))


_NOT_WORD = re.compile(r"[^a-z0-9]+")
ALIKE = 0.9  # two printings of a section whose words overlap this much say the same


def _overlap(a: str, b: str) -> float:
    """How much of their words two texts share (as multisets): 1.0 for the same words."""
    x, y = Counter(fold_typography(a).split()), Counter(fold_typography(b).split())
    total = sum(x.values()) + sum(y.values())
    return 2 * sum((x & y).values()) / total if total else 1.0


def _share_alike(a: FileParsed, b: FileParsed) -> float:
    """The share of the sections two files both have whose words overlap by ALIKE or more."""
    left = {r.id: f"{r.title} {r.text}" for r in a.records if r.kind == "section"}
    right = {r.id: f"{r.title} {r.text}" for r in b.records if r.kind == "section"}
    both = left.keys() & right.keys()
    return sum(_overlap(left[k], right[k]) >= ALIKE for k in both) / len(both) if both else 0.0


def _releases(files: list[File], notes: list[str]) -> list[list[File]]:
    """The files grouped into releases in date order; the leading file first in each."""
    files = sorted(files, key=lambda f: (f.day, f.parsed.reader not in _OFFICIAL))
    groups: list[list[File]] = []
    for f in files:
        last = groups[-1] if groups else None
        if last is not None and (f.day == last[0].day or (
                (f.day - last[0].day).days <= SAME_RELEASE_DAYS
                and _share_alike(last[0].parsed, f.parsed) >= SAME_RELEASE_SHARE)):
            last.append(f)
        else:
            groups.append([f])
    for group in groups:
        group.sort(key=lambda f: (f.parsed.reader not in _OFFICIAL, f.inferred))
        if len(group) > 1:
            lead = group[0]
            for other in group[1:]:
                alike = _share_alike(lead.parsed, other.parsed)
                said = "" if other.day == lead.day else (
                    f"; the dates disagree: {lead.parsed.name} says {lead.how}, {other.parsed.name} says {other.how}: "
                    f"dated {lead.day.isoformat()}, as the text converted from the official PDF says")
                notes.append(f"{other.parsed.name} is another printing of the release in {lead.parsed.name} "
                             f"({alike:.0%} of their sections print alike){said}")
    return groups


def _merged(group: list[File], sid: str, notes: list[str]) -> list[Record]:
    """One release from its printings: the leading file's records, then of each other printing
    the sections the leading one lacks, and those it prints differently: a section whose words
    still overlap by ALIKE (the app's transcription beside the PDF's: 'Penalty None' for 'No
    Penalty', a typo fixed) is the leading one's, and the note names it; a section that says
    something else is kept as a later printing (`~printing2`, flagged)."""
    out = [replace(r) for r in group[0].parsed.records]
    own = {r.id: r for r in out}
    for k, other in enumerate(group[1:], 2):
        differ: list[str] = []
        kept: list[str] = []
        for record in other.parsed.records:
            if record.kind != "section":
                continue  # the title, contents and credits of a printing repeat the leading one's
            lead = own.get(record.id)
            if lead is None:
                own[record.id] = record
                out.append(replace(record, order=len(out) + 1))
                continue
            if _shape(lead) == _shape(record):
                continue
            local = record.id.split(":", 1)[1]
            if _overlap(f"{lead.title} {lead.text}", f"{record.title} {record.text}") >= ALIKE:
                differ.append(local)
                continue
            out.append(replace(record, id=f"{sid}:{local}~printing{k}", order=len(out) + 1, flags=[
                *record.flags, f"printed differently in {other.parsed.name}, another printing of the release "
                               f"in {group[0].parsed.name}"]))
            kept.append(local)
        if differ:
            notes.append(f"{other.parsed.name}: {len(differ)} sections printed with small differences from "
                         f"{group[0].parsed.name} (words {ALIKE:.0%} the same or more), which stands for them: "
                         + ", ".join(differ))
        if kept:
            notes.append(f"{other.parsed.name}: {len(kept)} sections printed differently, kept as a later printing: "
                         + ", ".join(kept))
    return out


def _apart(groups: list[list[File]], notes: list[str]) -> tuple[list[list[File]], list[str]]:
    """The releases without the added files that fell in with the archive's own files of a
    release (its date, or its text within days): a user's release of a bundled document's date
    is never merged into the bundled text as a printing of it (an identical one is refused by
    `add`); it is kept apart, as the user's own document. Returns the groups and their names."""
    apart: list[str] = []
    kept: list[list[File]] = []
    for group in groups:
        if any(f.added for f in group) and not all(f.added for f in group):
            names = [f.parsed.name for f in group if f.added]
            apart += names
            notes[:] = [n for n in notes if not n.startswith(tuple(f"{name} is another printing" for name in names))]
            group = [f for f in group if not f.added]
        kept.append(group)
    return kept, apart


def build(source: Source, mine: list[File], everything: list[File]) -> Parsed:
    """The document's versions over all its files (see the module docstring)."""
    notes: list[str] = []
    if not mine:
        raise SourceError(f"no file of the {source.part or source.id} in the archive", str(source.path),
                          "check 'part' in sources.toml")
    _date_files(mine, everything, notes)
    groups, apart = _apart(_releases(mine, notes), notes)
    releases = [_merged(group, source.id, notes) for group in groups]
    dates = [group[0].day.isoformat() for group in groups]
    versions = _versions(source.id, releases, dates)
    for group, when in zip(groups, dates, strict=True):
        if group[0].inferred:
            for version in versions:
                if version.kind == "document" and version.span[0] <= when <= version.span[1]:
                    version.flags.append(f"the release of {when} prints no date: {group[0].how}")
    set_aside: Counter = Counter()
    warnings = []
    for f in mine:
        set_aside.update({kind: len(lines) for kind, lines in f.parsed.aside.items()})
        warnings += f.parsed.warnings
    meta = {"releases": [{"index": n, "date": when, "effective": None if group[0].inferred else when,
                          "member": group[0].parsed.name, "encoding": group[0].encoding,
                          "records": len(records), "warnings": sum(len(f.parsed.warnings) for f in group),
                          "filed": group[0].manifest_date or "", "printings": [f.parsed.name for f in group[1:]],
                          "dated": group[0].how}
                         for n, (group, when, records) in enumerate(zip(groups, dates, releases, strict=True))],
            "apart": apart}
    notes.insert(0, f"{len(groups)} releases, {dates[0]} to {dates[-1]} ({len(mine)} files): "
                    f"{sum(len(r) for r in releases)} records in all, {len(versions)} distinct versions stored")
    return Parsed(versions, warnings, set_aside, notes, meta)


def _versions(sid: str, releases: list[list[Record]], dates: list[str]) -> list[Record]:
    """One record per (text, contiguous run of releases), with parents, references resolved in
    their first release, and lineage."""
    # (local id, kind, title, words) -> the releases printing it: a release that prints the same
    # words set out in other paragraphs (a copy of the PDF as plain text) goes on with the version
    runs: dict[tuple, list[int]] = {}
    sample: dict[tuple, Record] = {}
    for n, records in enumerate(releases):
        for record in records:
            key = (record.id, record.kind, fold_space(record.title or ""), _as_compared(record.text))
            runs.setdefault(key, []).append(n)
            sample.setdefault(key, record)
    at: list[dict[str, Record]] = [{} for _ in releases]  # per release: local id -> version
    versions: list[Record] = []
    first_of: dict[str, int] = {}
    for key, seen in runs.items():
        start = 0
        for i, n in enumerate(seen):
            if i + 1 < len(seen) and seen[i + 1] == n + 1:
                continue
            first, last = seen[start], n
            start = i + 1
            base = sample[key]
            version = replace(base, id=f"{base.id}@{dates[first]}", edition=edition_for_date(dates[first])[0],
                              refs=[replace(r) for r in base.refs], links=[], refs_in=[], flags=list(base.flags),
                              span=[dates[first], dates[last]], order=0)
            versions.append(version)
            first_of[version.id] = first
            for rel in range(first, last + 1):
                at[rel][base.id] = version
    for rel, records in enumerate(releases):
        numbers = {r.number: at[rel][r.id] for r in records if r.number}
        for position, record in enumerate(records):
            version = at[rel][record.id]
            if first_of[version.id] != rel:
                continue
            version.order = rel * 100_000 + position
            if record.parent:
                parent = at[rel].get(record.parent)
                version.parent = parent.id if parent else None
            version.refs = [_resolve(ref, numbers, sid, dates[rel]) for ref in version.refs]
    by_id = {v.id: v for v in versions}
    for version in versions:
        for ref in version.refs:
            if ref.target in by_id and version.id not in by_id[ref.target].refs_in:
                by_id[ref.target].refs_in.append(version.id)
    _lineage(sid, releases, at, versions)
    versions.sort(key=lambda v: v.order)
    return versions


_BULLET = "\u2022"


def _as_compared(text: str) -> str:
    """A section's words as two releases are compared; each bulleted list, as the words it holds
    in any order, up to the heading of the next list (a line ending in a colon before a bullet).
    The PDF sets the MTR's format lists (its sets, its banned cards) in two columns: read from the
    PDF's layout they come column by column; from a copy of its text, row by row, with an item
    the column wrapped split across two rows ('• Magic 2010 core set • Avatar: The Last' / '•
    Zendikar Airbender') and the next list's heading glued to the last row: the same release, the
    same lists. A card moved from one list to the next (banned to restricted) still changes them."""
    if _BULLET not in text:
        return fold_space(text)
    flat = fold_space(text)
    head, _, lists = flat.partition(_BULLET)
    parts = _LIST_HEADING.split(_BULLET + lists)
    return " | ".join([head.strip(), *(" ".join(sorted(part.replace(_BULLET, " ").split())) for part in parts)])


_LIST_HEADING = re.compile(rf":\s*(?={_BULLET})")


def _resolve(ref: Ref, numbers: dict[str, Record], sid: str, when: str) -> Ref:
    """A reference to a section of the same document, resolved in the release that prints it;
    others (another document, the Comprehensive Rules) are resolved by date at link time."""
    if ref.kind != "section":
        return ref
    doc, _, number = ref.key.rpartition(":")
    if doc and doc != sid:
        return ref
    target = numbers.get(number)
    if target is not None:
        return Ref(ref.label, ref.kind, number, target.id)
    return Ref(ref.label, ref.kind, number, None, f"no section {number} in the {sid.upper()} of {when}")


def _trace_number(record: Record, prefix: str) -> str:
    if record.number and record.number[0].isdigit():
        return record.number
    return "~" + record.id.removeprefix(prefix).upper()


def _lineage(sid: str, releases: list[list[Record]], at: list[dict[str, Record]], versions: list[Record]) -> None:
    """Sections by the lineage matcher (renumberings and rewordings); everything else (the
    title, contents, credits) by its local id."""
    prefix = f"{sid}:"
    entries = []
    for records in releases:  # a named section by its local id in capitals ('~COMMON-ISSUES.A-PLAYER-SEES'): the
        # matcher reads a number's parent from its dots and lower-case subrule letters
        entries.append([(_trace_number(r, prefix), fold_space(f"{r.title or ''} {r.text}"))
                        for r in records if r.kind == "section"])
    ids = _same_heading(releases, trace(entries))
    first: dict[int, str] = {}
    for rel, records in enumerate(releases):
        sections = [r for r in records if r.kind == "section"]
        for record, lid in zip(sections, ids[rel], strict=True):
            version = at[rel][record.id]
            version.lineage = first.setdefault(lid, version.id)
    for version in versions:
        if version.lineage is None:
            version.lineage = version.id.split("@", 1)[0]


def _same_heading(releases: list[list[Record]], ids: list[list[int]]) -> list[list[int]]:
    """The matcher's lineages, with a section that keeps its heading (number or name, and title)
    from one release to the next one lineage even when its text is all new, as a changes
    appendix's is in every release (it lists that release's changes only): else the MTR's
    Appendix A would be 'removed' and 'added' at once in every release."""
    alias: dict[int, int] = {}
    out: list[list[int]] = []
    before: dict[tuple[str, str], int] = {}
    for records, found in zip(releases, ids, strict=True):
        sections = [r for r in records if r.kind == "section"]
        mine = [alias.get(lid, lid) for lid in found]
        taken = set(mine)
        seen = set().union(*out) if out else set()
        for k, (record, lid) in enumerate(zip(sections, mine, strict=True)):
            old = before.get((record.id, fold_space(record.title or "").lower()))
            if old is None:
                old = before.get((record.id, _category(record.title)))
            if lid not in seen and old is not None and old not in taken:
                alias[found[k]] = old
                mine[k] = old
                taken.add(old)
        out.append(mine)
        before = {}
        for r, lid in zip(sections, mine, strict=True):
            before[(r.id, fold_space(r.title or "").lower())] = lid
            if category := _category(r.title):
                before[(r.id, category)] = lid
    return out


_CATEGORY = re.compile(r"^(.+?)\s+[-–—]\s+\S")


def _category(title: str | None) -> str:
    """The category an IPG infraction's title names before its dash ('Game Play Error' of 'Game
    Play Error — Hidden Card Error'), '' for a title without one. An infraction that takes the
    number of one the release before retired, in the same category, is its successor: the
    January 2016 IPG replaced 2.3 Drawing Extra Cards (a Game Loss) with 2.3 Hidden Card Error
    (a Warning), and a judge asking about an extra card drawn wants today's infraction with
    its former name beside it. Measured over every release of the MTR, IPG and JAR: that is the
    one section so joined (a number retired and taken again at once with another title
    happens five times, four of them outside any such category)."""
    found = _CATEGORY.match(fold_space(title or ""))
    return "\0" + found.group(1).lower() if found else ""
