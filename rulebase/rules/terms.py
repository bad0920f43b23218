"""The bilingual term map: the Hungarian guide's "Hungarian (english)" pairings, read back from its
kind "term" records (rulebase.ingest.guide.terms finds them in the text), for search, define and the
glossary pages. A pairing is only ever what the text states; nothing is translated here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from rulebase.core.records import Record, fold_accents
from rulebase.core.sources import load_manifest
from rulebase.ingest import ingest_source

MIN_PREFIX = 4  # shortest folded Hungarian term matched as the stem of an inflected word


@dataclass(frozen=True, slots=True)
class TermEntry:
    """One pairing: a Hungarian term, one English term it names, and the term record stating it."""

    hu: str
    en: str
    record_id: str


def term_map(records: Iterable[Record]) -> list[TermEntry]:
    """One entry per (Hungarian, English) pairing stated by a kind 'term' record, in record order."""
    return [TermEntry(r.title or "", en, r.id) for r in records if r.kind == "term" for en in r.aliases]


@lru_cache(maxsize=1)
def default_term_map() -> tuple[TermEntry, ...]:
    """The term map of the bundled corpus (every 'hu-guide' source), parsed once per process."""

    entries: list[TermEntry] = []
    for source in load_manifest():
        if source.format == "hu-guide":
            entries.extend(term_map(ingest_source(source).parsed.records))
    return tuple(entries)


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def lookup_hu(word: str, entries: Iterable[TermEntry] | None = None) -> list[TermEntry]:
    """Entries for a Hungarian word: exact accent/case-folded match, else the longest term the
    word begins with (Hungarian adds suffixes: 'könyvtáradból' -> 'könyvtár'; terms of 4+ letters)."""
    pool = list(default_term_map() if entries is None else entries)
    key = fold_accents(" ".join(word.split()))
    exact = [e for e in pool if fold_accents(e.hu) == key]
    if exact or not key:
        return exact
    stems = [e for e in pool if len(fold_accents(e.hu)) >= MIN_PREFIX and key.startswith(fold_accents(e.hu))]
    if not stems:
        return []
    longest = max(len(fold_accents(e.hu)) for e in stems)
    return [e for e in stems if len(fold_accents(e.hu)) == longest]


def lookup_en(term: str, entries: Iterable[TermEntry] | None = None) -> list[TermEntry]:
    """Entries for an English term: case-folded exact match, else without a plural 's'."""
    pool = list(default_term_map() if entries is None else entries)
    key = " ".join(term.lower().split())
    exact = [e for e in pool if e.en.lower() == key]
    if exact or not key.endswith("s"):
        return exact
    return [e for e in pool if e.en.lower() == key[:-1]]


def english_for(hu_word: str, entries: Iterable[TermEntry] | None = None) -> list[str]:
    """English terms the guide gives for a Hungarian word ([] when it states none)."""
    return _unique(e.en for e in lookup_hu(hu_word, entries))


def hungarian_for(en_term: str, entries: Iterable[TermEntry] | None = None) -> list[str]:
    """Hungarian terms the guide pairs with an English term, as written ([] when none)."""
    return _unique(e.hu for e in lookup_en(en_term, entries))
