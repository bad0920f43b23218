"""The curated compare topics (corpus/topics.toml): parsed and shape-checked, matched by name.

A topic gives a summary and verbatim citations per edition column; a Comprehensive Rules era
column (crYYYY) quotes archive versions and may name, under `removed`, the last version of a rule
that era no longer has (the day it went is read from the archive, see periods.py). Pure core:
typed errors only.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from rulebase.core.errors import ManifestError
from rulebase.core.records import fold_accents
from rulebase.core.sources import YEAR_LABEL
from rulebase.core.value import Frozen

EDITIONS = ("4e", "5e", "6e", "10e")  # every topic gives these
OPTIONAL = ("alpha",)  # a bundled edition a topic gives only where its document covers the topic
TOPICS_FILE = "topics.toml"
NOT_COVERED = "Not covered in the corpus"


class Quote(Frozen):
    """A record id, the text quoted from it (or a search snippet) and the pages it is printed on."""

    __slots__ = ("id", "quote", "pages")

    def __init__(self, id: str, quote: str, pages: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "quote", quote)
        object.__setattr__(self, "pages", pages)


class Column(Frozen):
    """One edition's curated column: a summary, its citations, and for a Comprehensive Rules era
    the last versions of the rules it no longer has (ids)."""

    __slots__ = ("summary", "citations", "removed", "since")

    def __init__(self, summary: str, citations: tuple[Quote, ...], removed: tuple[str, ...] = (),
                 since: str | None = None) -> None:
        object.__setattr__(self, "summary", summary)
        object.__setattr__(self, "citations", citations)
        object.__setattr__(self, "removed", removed)
        object.__setattr__(self, "since", since)  # the version whose change starts a Comprehensive Rules era

    def __iter__(self):  # (summary, citations), as the columns were before `removed`
        return iter((self.summary, self.citations))

    def __getitem__(self, n: int):
        return (self.summary, self.citations)[n]


class Topic(Frozen):
    __slots__ = ("name", "aliases", "editions")

    def __init__(self, name: str, aliases: tuple[str, ...], editions: dict[str, Column]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "aliases", aliases)
        object.__setattr__(self, "editions", editions)  # edition -> column


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
        shaped = {ed: _column(path, name, ed, editions[ed]) for ed in [*EDITIONS, *sorted(extra)]}
        aliases = tuple(raw.get("aliases", []))
        for alias in (name, *aliases):
            key = topic_key(alias)
            if key in keys and keys[key] != name:
                raise _fail(path, f"alias {alias!r} names both {keys[key]!r} and {name!r}")
            keys[key] = name
        topics.append(Topic(name, aliases, shaped))
    return topics


def _column(path: Path, name: str, ed: str, entry: dict) -> Column:
    summary, cites = entry.get("summary"), entry.get("citations", [])
    removed, since = entry.get("removed", []), entry.get("since")
    if not isinstance(summary, str) or not summary.strip():
        raise _fail(path, f"topic {name!r}, edition {ed}: no summary")
    if not cites and not summary.startswith(NOT_COVERED):
        raise _fail(path, f"topic {name!r}, edition {ed}: no citations and not marked {NOT_COVERED!r}")
    if removed and not YEAR_LABEL.match(ed):
        raise _fail(path, f"topic {name!r}, edition {ed}: only a Comprehensive Rules era (crYYYY) has 'removed'")
    if not isinstance(removed, list) or not all(isinstance(r, str) and r.startswith("cr:") for r in removed):
        raise _fail(path, f"topic {name!r}, edition {ed}: 'removed' lists archive version ids (cr:NUMBER@DATE)")
    if since is not None and not (YEAR_LABEL.match(ed) and isinstance(since, str) and since.startswith("cr:")):
        raise _fail(path, f"topic {name!r}, edition {ed}: 'since' is an archive version id of a crYYYY column")
    return Column(summary, tuple(Quote(str(c["id"]), str(c["quote"])) for c in cites), tuple(removed), since)


def find_topic(topics: list[Topic], text: str) -> Topic | None:
    """The curated topic whose name or alias matches `text` (case and accents ignored)."""
    key = topic_key(text)
    for topic in topics:
        if key in {topic_key(a) for a in (topic.name, *topic.aliases)}:
            return topic
    return None
