"""References to the tournament documents as judges write them: 'MTR 2.2', 'IPG 2.1.', 'mtr
section 3.2', 'JAR common issues', 'ipg missed trigger' (a section's title within a document).

Pure reads of the record store: lookup and history turn what is found here into their answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rulebase.core.pattern import lazy
from rulebase.core.records import Record, fold_typography, number_key
from rulebase.core.sources import TOURNAMENT_DOCUMENTS
from rulebase.index.store import RecordStore

_ALIASES = {"dtr": "dmtr", "dmtr": "dmtr", "dipg": "dipg"}  # the digital MTR calls its sections 'DTR 1.10'
_SCOPED = re.compile(r"^(?P<doc>[A-Za-z][A-Za-z0-9-]{1,39})\s+(?P<rest>\S.*)$")
_NUMBER = lazy(r"^(?:sections?\s+|§\s*)?(?P<num>\d{1,2}(?:\.\d{1,2}){0,2})\.?$", re.IGNORECASE)
_APPENDIX = lazy(r"^appendix\s+(?P<letter>[a-z])$", re.IGNORECASE)
_WORD = lazy(r"[a-z0-9]+")


def scoped(store: RecordStore, ref: str) -> tuple[str, str] | None:
    """(source id, the rest) when `ref` starts with a tournament document's name ('IPG 2.1',
    'mtr play draw'), else None."""
    found = _SCOPED.match(ref.strip())
    if not found:
        return None
    name = found["doc"].lower()
    source = _ALIASES.get(name, name)
    if source not in TOURNAMENT_DOCUMENTS and not _tournament(store, source):
        return None
    return source, found["rest"].strip()


def _tournament(store: RecordStore, source: str) -> bool:
    """A document added as a tournament release of its own (format 'tournament')."""
    doc = store.documents().get(source)
    return bool(doc) and doc["format"] in ("tournament", "tournament-archive")


def number_of(rest: str) -> str | None:
    """The section number the rest of a reference names ('2.2', 'section 3.2', '2.1.', 'Appendix
    B'), as the records hold it, else None."""
    found = _NUMBER.match(rest.strip())
    if found:
        number = found["num"]
        return number[:-2] if number.endswith(".0") else number
    found = _APPENDIX.match(rest.strip())
    return f"Appendix {found['letter'].upper()}" if found else None


def words_of(text: str) -> list[str]:
    return _WORD.findall(fold_typography(text))


def by_title(store: RecordStore, source: str, words: str) -> list[list[Record]]:
    """The sections of `source` whose title holds the words, grouped by lineage (each group in
    date order), the best matches only: a title that is the words, then one that ends with them
    ('Game Play Error — Missed Trigger' for 'missed trigger'), then one that holds them in order,
    then anywhere. Empty when none does."""
    wanted = words_of(words)
    if not wanted:
        return []
    groups: dict[str, list[Record]] = {}
    for record in store.titled(source, wanted):
        groups.setdefault(record.lineage or record.id, []).append(record)
    phrase = " ".join(wanted)

    def rank(group: list[Record]) -> int:
        best = 4
        for record in group:
            title = " ".join(words_of(record.title or ""))
            if title == phrase:
                return 0
            if title.endswith(" " + phrase):
                best = min(best, 1)
            elif f" {phrase} " in f" {title} ":
                best = min(best, 2)
            elif all(w in title.split() for w in wanted):
                best = min(best, 3)
        return best

    ranked = [(rank(group), group) for group in groups.values()]
    ranked = [(r, g) for r, g in ranked if r < 4]
    if not ranked:
        return []
    top = min(r for r, _ in ranked)
    return [g for r, g in ranked if r == top]


def sections_titled(store: RecordStore, source: str, words: str,
                    spell_out: Callable[[str], str] | None = None) -> list[Record]:
    """The sections `by_title` finds for the words, else for the judge's shorthand they are,
    spelled out by `spell_out` (the vocabulary file: "IPG HCE" is the hidden card error's; the
    shorthand alone is read in any case, "ipg grv")."""
    records = [r for group in by_title(store, source, words) for r in group]
    if records or spell_out is None:
        return records
    spelled = spell_out(words)
    if spelled == words and " " not in words.strip():
        spelled = spell_out(words.upper())
    return [r for group in by_title(store, source, spelled) for r in group] if spelled != words else []


# -- a document's table of contents ---------------------------------------------------------------


def named_alone(store: RecordStore, ref: str) -> str | None:
    """The source id when `ref` is a tournament document's name and nothing else ('IPG', 'jar'),
    else None."""
    name = ref.strip().lower()
    source = _ALIASES.get(name, name)
    if source in TOURNAMENT_DOCUMENTS or (re.fullmatch(r"[a-z][a-z0-9-]{1,39}", source) and _tournament(store, source)):
        return source
    return None


def release_in_force(store: RecordStore, source: str, when: int) -> dict | None:
    """The release of a dated document in force on `when` (store.releases' row), else None."""
    return next((r for r in store.releases().get(source, []) if r["first_day"] <= when <= r["last_day"]), None)


def newest_release(store: RecordStore, source: str) -> dict | None:
    """The newest release of a dated document the corpus holds (upcoming ones too), else None."""
    releases = store.releases().get(source) or []
    return releases[-1] if releases else None


def _place(record: Record) -> tuple:
    """Where a section stands in its document: the named front sections (Introduction) first,
    then the numbered ones in number order, then the appendices, and the unnumbered ones of a
    document that numbers none (the JAR) in the order their first release printed them."""
    number = record.number or ""
    if number[:1].isdigit():
        return (1, number_key(number), 0)
    if number.startswith("Appendix"):
        return (2, number_key(number), 0)
    return (0 if _front(record) else 3, (), record.order % 100_000)


def _front(record: Record) -> bool:
    return (record.title or "").lower() in ("introduction", "framework of this document")


def contents(store: RecordStore, source: str, when: int) -> list[tuple[int, Record]]:
    """The sections of a tournament document in force on `when`, in the document's order, each
    with its depth (0: a chapter, an appendix, a named section; 1: a numbered section under its
    chapter, '2.1' under '2', or a named one under its heading, as the JAR's issues stand under
    'Common Issues'). A version names the parent of its first release: matched by local id."""
    sections = store.in_force(when, source, ("section",))
    local = {r.id.split("@", 1)[0] for r in sections}

    def parent(record: Record) -> str | None:
        number = record.number or ""
        if number[:1].isdigit():
            up = f"{source}:{number.rsplit('.', 1)[0]}" if "." in number else None
            return up if up in local else None
        up = (record.parent or "").split("@", 1)[0]
        return up if up in local else None

    under: dict[str, list[Record]] = {}
    tops: list[Record] = []
    for record in sections:
        up = parent(record)
        if up is None:
            tops.append(record)
        else:
            under.setdefault(up, []).append(record)
    out: list[tuple[int, Record]] = []

    def walk(record: Record, depth: int) -> None:
        out.append((depth, record))
        for child in sorted(under.get(record.id.split("@", 1)[0], []), key=_place):
            walk(child, depth + 1)

    for top in sorted(tops, key=_place):
        walk(top, 0)
    return out


def numbered(sections: list[tuple[int, Record]]) -> bool:
    """Whether a document numbers its sections (the JAR does not)."""
    return any((r.number or "")[:1].isdigit() for _, r in sections)
