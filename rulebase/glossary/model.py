"""What a glossary site is made of: term pages, rule pages and the sources they credit. The plan
(plan.py) fills these in from records; the site writer (site.py) only reads them."""

from __future__ import annotations

from pathlib import Path

from rulebase.core.records import Record
from rulebase.core.sources import edition_rank
from rulebase.core.value import Frozen, Value
from rulebase.rules.diff import DiffOp
from rulebase.rules.history import Step


class SourceInfo(Frozen):
    __slots__ = ("id", "title", "edition", "date", "lang", "provenance", "credit", "edition_note")

    def __init__(self, id: str, title: str, edition: str, date: str, lang: str, provenance: str, credit: str,
                 edition_note: str | None = None) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "edition", edition)
        object.__setattr__(self, "date", date)
        object.__setattr__(self, "lang", lang)
        object.__setattr__(self, "provenance", provenance)
        object.__setattr__(self, "credit", credit)
        object.__setattr__(self, "edition_note", edition_note)


class Definition(Value):
    __slots__ = ("record", "parts", "text", "step", "named", "opening")

    def __init__(self, record: Record, parts: list[Record], text: str, step: Step | None = None,
                 named: bool = False, opening: bool = False) -> None:
        self.record = record
        self.parts = parts  # everything filed under the entry, in document order
        self.text = text  # the entry's whole text, parts included: what editions are compared on
        self.step = step  # an archive version: its days in force and how it differs from the one before
        # a sentence inside another entry that names the term (its home is that entry's page)
        self.named = named
        self.opening = opening  # ... or a paragraph that opens with the term as its subject


class TermPage(Value):
    __slots__ = ("key", "title", "names", "definitions", "hungarian", "english", "referrers", "diffs", "path")

    def __init__(self, key: str, title: str, names: list[str], definitions: list[Definition],
                 hungarian: list[Record] | None = None,
                 english: list[tuple[str, TermPage | None]] | None = None,
                 referrers: list[Record] | None = None,
                 diffs: list[tuple[Definition, Definition, list[DiffOp]]] | None = None, path: str = "") -> None:
        self.key = key
        self.title = title
        self.names = names
        self.definitions = definitions
        self.hungarian = [] if hungarian is None else hungarian  # term records naming it in Hungarian
        self.english = [] if english is None else english  # for Hungarian terms
        self.referrers = [] if referrers is None else referrers
        self.diffs = [] if diffs is None else diffs
        self.path = path  # without extension, relative to OUT: "terms/<slug>"

    @property
    def editions(self) -> list[str]:
        return sorted({d.record.edition for d in self.definitions}, key=edition_rank)


class RulePage(Value):
    __slots__ = ("root", "records", "toc", "path")

    def __init__(self, root: Record, records: list[Record], toc: list[Record], path: str = "") -> None:
        self.root = root
        self.records = records  # rendered here, document order
        self.toc = toc  # children of the root that live on other pages
        self.path = path


class CurrentPage(Value):
    """A section, chapter, rule or subrule of the newest Comprehensive Rules release."""

    __slots__ = ("record", "crumbs", "children", "examples", "steps", "linked", "release", "cited_by", "path", "cards")

    def __init__(self, record: Record, crumbs: list[Record], children: list[Record], examples: list[Record],
                 steps: list[Step], linked: list[Record], release: str,
                 cited_by: list[TermPage] | None = None, path: str = "",
                 cards: tuple[int, list[str]] = (0, [])) -> None:
        self.record = record
        self.crumbs = crumbs  # its ancestors in the release, top first
        self.children = children  # its sections, chapters, rules or subrules (each on a page of its own)
        self.examples = examples  # shown under it
        self.steps = steps  # its history: every version of its lineage, oldest first
        self.linked = linked  # the same text in other documents (the bundled 2008 release, Crystal Keep)
        self.release = release  # the release's date
        self.cited_by = [] if cited_by is None else cited_by
        self.path = path
        self.cards = cards  # how many cards' text uses it, and a few of their names


class Site(Value):
    __slots__ = ("terms", "rules", "sources", "home", "current", "alias")

    def __init__(self, terms: list[TermPage], rules: list[RulePage], sources: list[SourceInfo],
                 home: dict[str, TermPage | RulePage | CurrentPage],
                 current: list[CurrentPage] | None = None, alias: dict[str, str] | None = None) -> None:
        self.terms = terms
        self.rules = rules
        self.sources = sources
        self.home = home
        self.current = [] if current is None else current
        self.alias = {} if alias is None else alias  # an archive version shown as its twin -> the twin's id

    def source(self, source_id: str) -> SourceInfo | None:
        return next((s for s in self.sources if s.id == source_id), None)


class GlossarySummary(Frozen):
    __slots__ = ("out", "format", "pages", "terms", "rule_pages", "files", "kept")

    def __init__(self, out: Path, format: str, pages: int, terms: int, rule_pages: int, files: int,
                 kept: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "out", out)
        object.__setattr__(self, "format", format)
        object.__setattr__(self, "pages", pages)  # term, rule, index and credits pages written
        object.__setattr__(self, "terms", terms)
        # the older documents' rule pages and the current rules' pages
        object.__setattr__(self, "rule_pages", rule_pages)
        object.__setattr__(self, "files", files)  # every file written, assets and the search index included
        # files the previous build listed, not deleted: they changed since it wrote them
        object.__setattr__(self, "kept", kept)
