"""References across dated documents, resolved by date: a tournament document's 'CR 704' or
'rule 702.19' leads to the Comprehensive Rules in force the day that text took effect, its
'(MTR section 4.3)' to the MTR of that day, and the Comprehensive Rules' mentions of the
Tournament Rules (rule 100.6: 'the Magic: The Gathering Tournament Rules') to the MTR in force
the day that rule's text took effect.

Runs after every source is parsed (ingest.assemble), over the versions of the dated documents
(those with releases: records with a `span`).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from rulebase.core.records import Record, Ref

_MENTIONS_MTR = re.compile(r"(?:Magic(?::\s*The Gathering)?\s+)?Tournament Rules", re.IGNORECASE)


class _Dated:
    """One dated source's versions by number (or local id), each with its days as ISO dates."""

    def __init__(self, versions: list[Record], dates: list[str]) -> None:
        self.dates = sorted(dates)
        self.by_key: dict[str, list[Record]] = {}
        for version in versions:
            local = version.id.split(":", 1)[1].split("@", 1)[0]
            for key in {version.number, local} - {None}:
                self.by_key.setdefault(key.lower(), []).append(version)

    def _last_day(self, version: Record) -> str:
        """The first day the version was no longer in force ('9999' when it still is)."""
        at = bisect_right(self.dates, version.span[1])
        return self.dates[at] if at < len(self.dates) else "9999"

    def on(self, key: str, day: str) -> Record | None:
        """The version of `key` in force on `day` (an ISO date)."""
        for version in self.by_key.get(key.lower(), []):
            if version.span and version.span[0] <= day < self._last_day(version):
                return version
        return None


def link_dated(records: list[Record], releases: dict[str, list[str]], archive: str | None) -> int:
    """Resolve the dated cross-document references in place; returns how many were resolved.
    `releases`: each dated source's release dates; `archive`: the Comprehensive Rules archive's
    source id (None when the corpus has none)."""
    by_source: dict[str, list[Record]] = {}
    for record in records:
        if record.span and record.source in releases:
            by_source.setdefault(record.source, []).append(record)
    dated = {sid: _Dated(versions, releases[sid]) for sid, versions in by_source.items()}
    ids = {r.id: r for versions in by_source.values() for r in versions}
    resolved = 0
    for sid, versions in by_source.items():
        if sid == archive:
            continue
        earlier = _earlier_versions(versions)
        for version in versions:
            changed = False
            refs = []
            for ref in version.refs:
                if ref.target is None and ":" in ref.key:
                    doc, number = ref.key.split(":", 1)
                    target_source = archive if doc == "cr" else doc
                    index = dated.get(target_source or "")
                    when = written(version, ref.label, earlier.get(version.id, []))
                    target = index.on(number, when) if index else None
                    if target is not None:
                        ref = Ref(ref.label, ref.kind, number, target.id)
                        resolved += 1
                    else:
                        where = "the Comprehensive Rules" if doc == "cr" else f"the {doc.upper()}"
                        ref = Ref(ref.label, ref.kind, number, None, f"no {ref.kind} {number} in {where} "
                                                                    f"in force on {when}")
                    changed = True
                refs.append(ref)
            if changed:
                version.refs = refs
    mtr = dated.get("mtr")
    if archive in dated and mtr is not None:
        for version in by_source[archive]:
            if version.kind not in ("rule", "glossary") or not _MENTIONS_MTR.search(version.text):
                continue
            target = mtr.on("document", version.span[0])
            if target is None:
                continue
            label = _MENTIONS_MTR.search(version.text).group(0)
            version.refs = [*version.refs, Ref(label, "section", "mtr:document", target.id)]
            resolved += 1
    for sid, versions in by_source.items():
        for version in versions:
            for ref in version.refs:
                target = ids.get(ref.target or "")
                if target is not None and target.source != sid and version.id not in target.refs_in:
                    target.refs_in.append(version.id)
    return resolved



def _earlier_versions(versions: list[Record]) -> dict[str, list[Record]]:
    """Each version's predecessors in its lineage, newest first."""
    lines: dict[str, list[Record]] = {}
    for version in versions:
        if version.lineage:
            lines.setdefault(version.lineage, []).append(version)
    out: dict[str, list[Record]] = {}
    for group in lines.values():
        group.sort(key=lambda v: v.span[0])
        for k, version in enumerate(group):
            out[version.id] = group[:k][::-1]
    return out


_SENTENCE = re.compile(r"[^\n]+?(?:[.!?](?=\s|$)|$)", re.MULTILINE)  # ('103.4' ends no sentence)


def written(version: Record, label: str, earlier: list[Record]) -> str:
    """The day a citation was written: the first day of the oldest version, back through the
    section's versions without a gap, that prints the sentence holding it as this one does. A
    citation means the rule of that day: the MTR's 'rule 103.4' (mulligans, written in 2019)
    kept its words after the Comprehensive Rules moved mulligans to 103.5 in 2022."""
    at = version.text.find(label)
    if at < 0:
        return version.span[0]
    sentence = next((m.group(0).strip() for m in _SENTENCE.finditer(version.text) if m.start() <= at < m.end()),
                    label)
    day = version.span[0]
    for before in earlier:
        if sentence not in before.text:
            break
        day = before.span[0]
    return day
