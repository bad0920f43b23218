"""The terms the tournament documents define in their own words, for `define` (beside the
Comprehensive Rules' glossary).

The MTR and IPG have no glossary: they define a term where they use it, in four ways, and each
is read here from the section that prints it:
- an infraction: 'Game Play Error — Missed Trigger' defines Missed Trigger in its 'Definition'
  part (the paragraphs between it and the next part);
- a term set as a line of its own, then its paragraph (the IPG's 'Warning', 'Game Loss' in 1.1);
- a paragraph that opens by saying what the term is ('A tournament shortcut is an action ...',
  'Free information is information ...');
- a section titled with the term ('4.4 Loops'): its first paragraph.
What is shown is the section's version in force on the day asked, its text cut to those
paragraphs, as printed (the id names the section that prints them).
"""

from __future__ import annotations

import re
from dataclasses import replace

from rulebase.core.eras import OPEN_END
from rulebase.core.records import Record, fold_typography
from rulebase.core.sources import TOURNAMENT_DOCUMENTS, release_label
from rulebase.index.store import RecordStore
from rulebase.rules.defined import Defined

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
