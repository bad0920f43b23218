"""How the editions treat a topic, side by side: curated answers first, per-edition search otherwise.

Curated topics live in corpus/topics.toml (see its header): a summary per edition and verbatim
quotes from the records that show it. A topic that isn't curated is searched in each edition
separately (English words also searched under the Hungarian terms the guide pairs them with, for
the 6th Edition guide) and returned as search results: `curated` False, no summary, the best
passages as citations. Pure core: no printing, typed errors only.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from rulebase.core.eras import edition_for_date, era_window
from rulebase.core.errors import ManifestError, UsageError
from rulebase.core.records import Record, fold_accents, fold_space
from rulebase.core.sources import DATED, YEAR_LABEL, edition_rank
from rulebase.rules.terms import hungarian_for, term_map
from rulebase.search.hits import unmark
from rulebase.search.request import run_search

EDITIONS = ("4e", "5e", "6e", "10e")  # every topic gives these
OPTIONAL = ("alpha",)  # a bundled edition a topic gives only where its document covers the topic
TOPICS_FILE = "topics.toml"
NOT_COVERED = "Not covered in the corpus"
SEARCH_LIMIT = 3


@dataclass(frozen=True, slots=True)
class Quote:
    """A record id, the text quoted from it (or a search snippet) and the pages it is printed on."""

    id: str
    quote: str
    pages: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Topic:
    name: str
    aliases: tuple[str, ...]
    editions: dict[str, tuple[str, tuple[Quote, ...]]]  # edition -> (summary, citations)


@dataclass(slots=True)
class Stance:
    """One edition's column: a curated summary, or None for search results."""

    edition: str
    summary: str | None
    citations: list[Quote] = field(default_factory=list)


@dataclass(slots=True)
class Comparison:
    topic: str
    curated: bool
    editions: list[Stance]
    query: str = ""  # what the user typed
    searched: dict[str, str] = field(default_factory=dict)  # edition -> query actually searched


def topic_key(text: str) -> str:
    """The form topics are matched in: accents, case, punctuation and spacing folded."""
    return " ".join(re.sub(r"[\W_]+", " ", fold_accents(text)).split())


def _fail(path: Path, what: str) -> ManifestError:
    return ManifestError(what, str(path), "fix corpus/topics.toml (see the comment at its top)")


def load_topics(path: Path) -> list[Topic]:
    """Parse and shape-check the topics file; every topic names all four editions."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _fail(path, "topics file not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise _fail(path, f"not valid TOML ({exc})") from None
    topics: list[Topic] = []
    keys: dict[str, str] = {}
    for n, raw in enumerate(data.get("topic", []), 1):
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise _fail(path, f"topic #{n} has no name")
        editions = raw.get("editions", {})
        extra = [ed for ed in editions if ed not in EDITIONS]
        if not set(EDITIONS) <= set(editions) or not all(YEAR_LABEL.match(ed) or ed in OPTIONAL for ed in extra):
            raise _fail(path, f"topic {name!r} must give the editions {', '.join(EDITIONS)} (and may add "
                              f"{', '.join(OPTIONAL)} and Comprehensive Rules eras as crYYYY)")
        shaped: dict[str, tuple[str, tuple[Quote, ...]]] = {}
        for ed in [*EDITIONS, *sorted(extra)]:
            entry = editions[ed]
            summary, cites = entry.get("summary"), entry.get("citations", [])
            if not isinstance(summary, str) or not summary.strip():
                raise _fail(path, f"topic {name!r}, edition {ed}: no summary")
            if not cites and not summary.startswith(NOT_COVERED):
                raise _fail(path, f"topic {name!r}, edition {ed}: no citations and not marked {NOT_COVERED!r}")
            quotes = tuple(Quote(str(c["id"]), str(c["quote"])) for c in cites)
            shaped[ed] = (summary, quotes)
        aliases = tuple(raw.get("aliases", []))
        for alias in (name, *aliases):
            key = topic_key(alias)
            if key in keys and keys[key] != name:
                raise _fail(path, f"alias {alias!r} names both {keys[key]!r} and {name!r}")
            keys[key] = name
        topics.append(Topic(name, aliases, shaped))
    return topics


def find_topic(topics: list[Topic], text: str) -> Topic | None:
    """The curated topic whose name or alias matches `text` (case and accents ignored)."""
    key = topic_key(text)
    for topic in topics:
        if key in {topic_key(a) for a in (topic.name, *topic.aliases)}:
            return topic
    return None


def parse_editions(value: str | None, available: Iterable[str] = EDITIONS,
                   default: Iterable[str] | None = None) -> list[str]:
    """'4e,10e' -> ['4e', '10e'] in edition order; an unknown edition is a usage error.
    `available` adds the editions of documents users added (e.g. 'cr2025') and the Comprehensive
    Rules eras of the archive (cr2003 ... cr2026) to the bundled four; `default` are the columns
    shown when none are asked for (all available ones when None)."""

    known = sorted((set(EDITIONS) | set(available)) - {DATED}, key=edition_rank)
    if value is None or not value.strip():
        return sorted(set(default) & set(known), key=edition_rank) if default is not None else known
    asked = [v.strip().lower() for v in value.split(",") if v.strip()]
    unknown = [v for v in asked if v not in known]
    if unknown or not asked:
        raise UsageError(f"unknown edition {', '.join(map(repr, unknown)) or repr(value)}",
                         hint="choose from " + ", ".join(known) + " (comma-separated)")
    return [ed for ed in known if ed in asked]


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


def curated(library, topic: Topic, editions: list[str]) -> Comparison:
    """A curated topic, with each quote's pages read from its record."""
    ids = [q.id for ed in editions if ed in topic.editions for q in topic.editions[ed][1]]
    pages = {r.id: tuple(r.pages) for r in library.store.get_many(list(dict.fromkeys(ids)))}
    others = [ed for ed in editions if ed not in topic.editions]  # a user-added document's edition
    found = searched(library, topic.name, others) if others else None
    stances = [Stance(ed, topic.editions[ed][0],
                      [Quote(q.id, fold_space(q.quote), pages.get(q.id, ())) for q in topic.editions[ed][1]])
               if ed in topic.editions else next(s for s in found.editions if s.edition == ed)
               for ed in editions]
    comparison = Comparison(topic.name, True, stances, query=topic.name)
    if found is not None:
        comparison.searched.update(found.searched)
    return comparison


def searched(library, text: str, editions: list[str], limit: int = SEARCH_LIMIT) -> Comparison:
    """An uncurated topic: the best passages of each edition, searched separately."""

    if not text.strip():
        raise UsageError("empty topic", hint='give a topic, e.g. rulebase compare "damage timing"')
    comparison = Comparison(" ".join(text.split()), False, [], query=text)
    terms = library.store.of_kind("term")
    for ed in editions:
        query = hungarian_query(text, terms) if ed == "6e" else text
        comparison.searched[ed] = query
        results = run_search(library, query, {"edition": [ed]}, limit)
        quotes = [Quote(h.id, fold_space(unmark(h.snippet)), tuple(results.records[h.id].pages))
                  for h in results.hits if h.id in results.records]
        comparison.editions.append(Stance(ed, None, quotes))
    return comparison


def compare(library, text: str, editions: str | None = None, limit: int = SEARCH_LIMIT,
            when: int | None = None) -> Comparison:
    """The curated answer when `text` names a topic, else per-edition search results."""
    topics = load_topics(Path(library.corpus_dir) / TOPICS_FILE)
    topic = find_topic(topics, text)
    users = {s.edition for s in library.sources if not s.bundled}
    eras = archive_eras(library)
    optional = {s.edition for s in library.sources if s.bundled and s.edition in OPTIONAL}
    extra = set(topic.editions) if topic else set(eras[-1:]) | optional  # uncurated: the rules in force now too
    chosen = parse_editions(editions, users | set(eras) | extra, set(EDITIONS) | users | extra)
    if when is not None:

        chosen = [ed for ed in chosen if era_window(ed, None)[0] <= when]
        if not chosen:
            raise UsageError("no edition's rules had taken effect by then", hint="the corpus starts in 1993")
    if topic is not None:
        return curated(library, topic, chosen)
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
    """The documented --json shape."""
    return {
        "topic": comparison.topic,
        "curated": comparison.curated,
        "editions": {
            s.edition: {"summary": s.summary,
                        "citations": [{"id": q.id, "quote": q.quote, "pages": list(q.pages)} for q in s.citations]}
            for s in comparison.editions
        },
    }
