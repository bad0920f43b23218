"""What a glossary site is made of: term pages, rule pages and the sources they credit. The plan
(plan.py) fills these in from records; the site writer (site.py) only reads them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulebase.core.records import Record
from rulebase.core.sources import edition_rank
from rulebase.rules.diff import DiffOp
from rulebase.rules.history import Step


@dataclass(frozen=True, slots=True)
class SourceInfo:
    id: str
    title: str
    edition: str
    date: str
    lang: str
    provenance: str
    credit: str
    edition_note: str | None = None


@dataclass(slots=True)
class Definition:
    record: Record
    parts: list[Record]  # everything filed under the entry, in document order
    text: str  # the entry's whole text, parts included: what editions are compared on
    step: Step | None = None  # an archive version: its days in force and how it differs from the one before
    named: bool = False  # a sentence inside another entry that names the term (its home is that entry's page)
    opening: bool = False  # ... or a paragraph that opens with the term as its subject


@dataclass(slots=True)
class TermPage:
    key: str
    title: str
    names: list[str]
    definitions: list[Definition]
    hungarian: list[Record] = field(default_factory=list)  # term records naming it in Hungarian
    english: list[tuple[str, TermPage | None]] = field(default_factory=list)  # for Hungarian terms
    referrers: list[Record] = field(default_factory=list)
    diffs: list[tuple[Definition, Definition, list[DiffOp]]] = field(default_factory=list)
    path: str = ""  # without extension, relative to OUT: "terms/<slug>"

    @property
    def editions(self) -> list[str]:
        return sorted({d.record.edition for d in self.definitions}, key=edition_rank)


@dataclass(slots=True)
class RulePage:
    root: Record
    records: list[Record]  # rendered here, document order
    toc: list[Record]  # children of the root that live on other pages
    path: str = ""


@dataclass(slots=True)
class CurrentPage:
    """A section, chapter, rule or subrule of the newest Comprehensive Rules release."""

    record: Record
    crumbs: list[Record]  # its ancestors in the release, top first
    children: list[Record]  # its sections, chapters, rules or subrules (each on a page of its own)
    examples: list[Record]  # shown under it
    steps: list[Step]  # its history: every version of its lineage, oldest first
    linked: list[Record]  # the same text in other documents (the bundled 2008 release, Crystal Keep)
    release: str  # the release's date
    cited_by: list[TermPage] = field(default_factory=list)
    path: str = ""
    cards: tuple[int, list[str]] = (0, [])  # how many cards' text uses it, and a few of their names


@dataclass(slots=True)
class Site:
    terms: list[TermPage]
    rules: list[RulePage]
    sources: list[SourceInfo]
    home: dict[str, TermPage | RulePage | CurrentPage]
    current: list[CurrentPage] = field(default_factory=list)
    alias: dict[str, str] = field(default_factory=dict)  # an archive version shown as its twin -> the twin's id

    def source(self, source_id: str) -> SourceInfo | None:
        return next((s for s in self.sources if s.id == source_id), None)


@dataclass(frozen=True, slots=True)
class GlossarySummary:
    out: Path
    format: str
    pages: int  # term, rule, index and credits pages written
    terms: int
    rule_pages: int  # the older documents' rule pages and the current rules' pages
    files: int  # every file written, assets and the search index included
    kept: tuple[str, ...] = ()  # files the previous build listed, not deleted: they changed since it wrote them
