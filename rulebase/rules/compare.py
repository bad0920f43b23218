"""How the editions treat a topic, side by side: curated answers first, per-edition search otherwise.

Curated topics live in corpus/topics.toml (see its header): a summary per edition and verbatim
quotes from the records that show it. A topic that isn't curated is searched in each edition
separately (English words also searched under the Hungarian terms the guide pairs them with, for
the 6th Edition guide) and returned as search results: `curated` False, no summary, the best
passages as citations. Pure core: no printing, typed errors only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from rulebase.core.eras import OPEN_END, edition_for_date, era_window, show, today
from rulebase.core.errors import NotFound, UsageError
from rulebase.core.records import Record, fold_accents, fold_space
from rulebase.core.sources import DATED, edition_rank, load_manifest
from rulebase.core.value import Frozen, Value
from rulebase.ingest import ingest_source
from rulebase.rules.periods import EraColumn, Period, Removal, is_era, removal, topic_columns
from rulebase.rules.topics import (  # noqa: F401 (the names compare's callers import from here)
    EDITIONS,
    NOT_COVERED,
    OPTIONAL,
    TOPICS_FILE,
    Quote,
    Topic,
    find_topic,
    load_topics,
    topic_key,
)
from rulebase.search.hits import unmark
from rulebase.search.request import run_search

SEARCH_LIMIT = 3
STRETCH_LABEL = re.compile(r"^cr\d{4}-\d\d-\d\d$")  # a column that starts inside an era another labels


class Stance(Value):
    """One edition's column: a curated summary, or None for search results."""

    __slots__ = ("edition", "summary", "citations", "period", "removed", "column")

    def __init__(self, edition: str, summary: str | None, citations: list[Quote] | None = None,
                 period: Period | None = None, removed: list[Removal] | None = None,
                 column: str | None = None) -> None:
        self.edition = edition
        self.summary = summary
        self.citations = [] if citations is None else citations
        self.period = period  # the days this column's rules were in force
        self.removed = [] if removed is None else removed  # rules this era no longer has
        self.column = column  # the curated column shown, when an era asked for is inside another's


class Comparison(Value):
    __slots__ = ("topic", "curated", "editions", "query", "searched")

    def __init__(self, topic: str, curated: bool, editions: list[Stance], query: str = "",
                 searched: dict[str, str] | None = None) -> None:
        self.topic = topic
        self.curated = curated
        self.editions = editions
        self.query = query  # what the user typed
        self.searched = {} if searched is None else searched  # edition -> query actually searched


def parse_editions(value: str | None, available: Iterable[str] = EDITIONS,
                   default: Iterable[str] | None = None) -> list[str]:
    """'4e,10e' -> ['4e', '10e'] in edition order; an unknown edition is a usage error.
    `available` adds the editions of documents users added (e.g. 'cr2025') and the Comprehensive
    Rules eras of the archive (cr2003 ... cr2026) to the bundled four; `default` are the columns
    shown when none are asked for (all available ones when None)."""

    known = sorted((set(EDITIONS) | set(available)) - {DATED}, key=label_rank)
    if value is None or not value.strip():
        return sorted(set(default) & set(known), key=label_rank) if default is not None else known
    asked = [v.strip().lower() for v in value.split(",") if v.strip()]
    unknown = [v for v in asked if v not in known]
    if unknown or not asked:
        raise UsageError(f"unknown edition {', '.join(map(repr, unknown)) or repr(value)}",
                         hint="choose from " + ", ".join(known) + " (comma-separated)")
    return [ed for ed in known if ed in asked]


def label_rank(label: str) -> tuple[int, int]:
    """Chronological order of column labels: the editions' and eras' (edition_rank), and a
    stretch's (cr2003-10-01) by its first day."""
    if STRETCH_LABEL.match(label):
        return (0, int(label[2:].replace("-", "")))
    return edition_rank(label)


def hungarian_query(text: str, terms: list[Record]) -> str:
    """The query for the Hungarian guide: the text plus the Hungarian terms paired with its words."""
    entries = term_map(terms)
    words = text.split()
    found: list[str] = []
    for size in (3, 2, 1):
        for i in range(len(words) - size + 1):
            phrase = " ".join(words[i:i + size]).strip(".,;:!?\"'()").lower()
            found += [hu for hu in hungarian_for(phrase, entries) if hu not in found]
    return " ".join([text, *found])


AS_READ = "(no summary written for this stretch: the topic's rules as the Comprehensive Rules printed them then)"


def curated(library, topic: Topic, editions: list[str], columns: list[EraColumn] | None = None) -> Comparison:
    """A curated topic, column by column in time order (periods.topic_columns): a curated
    column's summary and quotes, with each quote's pages read from its record; a stretch of the
    Comprehensive Rules no curated column quotes, the rules of the topic in force then, whole.
    A Comprehensive Rules era asked for that has no column of its own shows the column in force
    then (cr2026: the newest); any other edition (a user-added document's) is searched."""
    store = library.store
    columns = columns if columns is not None else topic_columns(store, topic)
    by_label = {c.label: c for c in columns}
    users = {s.edition for s in library.sources if not s.bundled}  # (their documents are searched)
    shown = {ed: ed if ed in by_label else None if ed in users else _column_in_force(ed, columns)
             for ed in editions}
    ids = [q.id for col in set(shown.values()) if col and by_label[col].curated
           for q in topic.editions[by_label[col].curated].citations]
    ids += [rid for col in set(shown.values()) if col for rid in by_label[col].versions]
    records = {r.id: r for r in store.get_many(list(dict.fromkeys(ids)))}
    others = [ed for ed in editions if shown[ed] is None]
    found = searched(library, topic.name, others) if others else None
    stances = []
    for ed in editions:
        label = shown[ed]
        if label is None:
            stances.append(next(s for s in found.editions if s.edition == ed))
            continue
        column = by_label[label]
        pages = lambda rid: tuple(records[rid].pages) if rid in records else ()  # noqa: E731
        if column.curated is not None:
            text = topic.editions[column.curated]
            quotes = [Quote(q.id, fold_space(q.quote), pages(q.id)) for q in text.citations]
            removed = [removal(store, rid) for rid in text.removed] if is_era(column.curated) else []
            stance = Stance(ed, text.summary, quotes, column.period, removed)
        else:
            quotes = [Quote(rid, fold_space(records[rid].text), pages(rid)) for rid in column.versions]
            stance = Stance(ed, AS_READ, quotes, column.period, list(column.removed))
        stance.column = None if label == ed else label
        stances.append(stance)
    comparison = Comparison(topic.name, True, stances, query=topic.name)
    if found is not None:
        comparison.searched.update(found.searched)
    return comparison


def _column_in_force(edition: str, columns: list[EraColumn]) -> str | None:
    """The topic's column in force at the end of `edition`'s era (a Comprehensive Rules era:
    crYYYY; today for the newest), or None."""
    if not is_era(edition):
        return None
    day = min(era_window(edition, None)[1], today())
    return next((c.label for c in columns if c.period.first <= day <= c.period.last), None)


def searched(library, text: str, editions: list[str], limit: int = SEARCH_LIMIT) -> Comparison:
    """An uncurated topic: the best passages of each edition, searched separately, the rules in
    force now first, then the other eras newest to oldest."""

    if not text.strip():
        raise UsageError("empty topic", hint='give a topic, e.g. rulebase compare "damage timing"')
    comparison = Comparison(" ".join(text.split()), False, [], query=text)
    terms = library.store.of_kind("term")
    newest = max(editions, key=edition_rank, default=None)
    for ed in sorted(editions, key=edition_rank, reverse=True):
        query = hungarian_query(text, terms) if ed == "6e" else text
        comparison.searched[ed] = query
        results = run_search(library, query, {"edition": [ed]}, limit)
        quotes = [Quote(h.id, fold_space(unmark(h.snippet)), tuple(results.records[h.id].pages))
                  for h in results.hits if h.id in results.records]
        first, last = era_window(ed, None)
        if ed == newest:  # the rules in force now: from the first day of the newest release in force
            now = today()
            first, last = max([first, *(r["first_day"] for rs in library.store.releases().values() for r in rs
                                        if r["first_day"] <= min(last, now))]), OPEN_END
        comparison.editions.append(Stance(ed, None, quotes, Period(first, last)))
    return comparison


def compare(library, text: str, editions: str | None = None, limit: int = SEARCH_LIMIT,
            when: int | None = None) -> Comparison:
    """The curated answer when `text` names a topic, else per-edition search results."""
    topics = load_topics(Path(library.corpus_dir) / TOPICS_FILE)
    topic = find_topic(topics, text)
    users = {s.edition for s in library.sources if not s.bundled}
    eras = archive_eras(library)
    optional = {s.edition for s in library.sources if s.bundled and s.edition in OPTIONAL}
    columns = topic_columns(library.store, topic) if topic else []
    extra = {c.label for c in columns} if topic else set(eras[-1:]) | optional  # uncurated: the rules in force now too
    chosen = parse_editions(editions, users | set(eras) | extra, set(EDITIONS) | users | extra)
    starts = {c.label: c.period.first for c in columns}
    if topic is not None:  # in time order: a column's place is its days', not its label's
        chosen.sort(key=lambda ed: starts.get(ed, era_window(ed, None)[0]))
    if when is not None:  # the columns whose rules had taken effect by then (the last: the one in force that day)
        chosen = [ed for ed in chosen if starts.get(ed, era_window(ed, None)[0]) <= when]
        if not chosen:  # nothing to show, as lookup says of a rule not yet in force (exit 1, not a usage error)
            raise NotFound(f"no edition's rules had taken effect by {show(when)}", hint="the corpus starts in 1993")
    if topic is not None:
        return curated(library, topic, chosen, columns)
    return searched(library, text, chosen, limit)


def archive_eras(library) -> list[str]:
    """The edition labels of the archive's releases, oldest first (cr2003 ... 10e ... cr2026)."""

    labels: list[str] = []
    for releases in library.store.releases().values():
        for release in releases:
            label = edition_for_date(release["date"])[0]
            if label not in labels:
                labels.append(label)
    return labels


def comparison_json(comparison: Comparison) -> dict:
    """The documented --json shape (docs/reference.md, JSON shapes): columns in display order."""
    from rulebase.core.eras import show  # (a date's text only for the output)

    def days(period: Period | None) -> dict | None:
        return {"first": show(period.first), "last": show(period.last)} if period else None
    return {
        "topic": comparison.topic,
        "curated": comparison.curated,
        "editions": {
            s.edition: {"summary": s.summary,
                        "citations": [{"id": q.id, "quote": q.quote, "pages": list(q.pages)} for q in s.citations],
                        "in_force": days(s.period),
                        "in_force_now": bool(s.period and s.period.now),
                        "column": s.column or s.edition,
                        "removed": [{"id": r.id, "number": r.number, "title": r.title,
                                     "last_release": r.last_release, "gone": show(r.gone)} for r in s.removed]}
            for s in comparison.editions
        },
    }


# --- The bilingual term map: the Hungarian guide's "Hungarian (english)" pairings, read back from its
# kind "term" records (rulebase.ingest.guide.terms finds them in the text), for search, define and the
# glossary pages. A pairing is only ever what the text states; nothing is translated here.

MIN_PREFIX = 4  # shortest folded Hungarian term matched as the stem of an inflected word


class TermEntry(Frozen):
    """One pairing: a Hungarian term, one English term it names, and the term record stating it."""

    __slots__ = ("hu", "en", "record_id")

    def __init__(self, hu: str, en: str, record_id: str) -> None:
        object.__setattr__(self, "hu", hu)
        object.__setattr__(self, "en", en)
        object.__setattr__(self, "record_id", record_id)


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
