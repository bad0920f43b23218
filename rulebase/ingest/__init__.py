"""Ingestion: run each source's parser, then link records across documents.

Parsers live one per format in this package and share one signature:
`parse(text: str, source: Source) -> Parsed`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

from rulebase.errors import SourceError
from rulebase.ingest.link import LinkReport, link
from rulebase.ingest.text import Parsed, read_source
from rulebase.records import Record, sort_key
from rulebase.sources import Source

# format name -> module (imported lazily: most commands never parse)
PARSERS: dict[str, str] = {
    "forum-rulebook": "rulebase.ingest.rulebook",
    "hu-guide": "rulebase.ingest.guide",
    "comprules": "rulebase.ingest.comprules",
    "crystalkeep-2008": "rulebase.ingest.crystalkeep",
    "crystalkeep-1999": "rulebase.ingest.crystalkeep99",
}


@dataclass(slots=True)
class SourceReport:
    source: Source
    parsed: Parsed
    encoding: str
    repairs: list[str]


@dataclass(slots=True)
class Ingested:
    records: list[Record]
    reports: list[SourceReport] = field(default_factory=list)
    links: LinkReport | None = None


def parser_for(fmt: str, where: str) -> Callable[[str, Source], Parsed]:
    module = PARSERS.get(fmt)
    if module is None:
        raise SourceError(f"unknown format {fmt!r}", where, "use one of " + ", ".join(sorted(PARSERS)))
    return importlib.import_module(module).parse


def ingest_source(source: Source) -> SourceReport:
    parse = parser_for(source.format, str(source.path))
    decoded = read_source(source.path)
    parsed = parse(decoded.text, source)
    if not parsed.records:
        raise SourceError(f"no records found by the {source.format!r} parser", str(source.path),
                          "check that 'format' in sources.toml matches the file")
    return SourceReport(source, parsed, decoded.encoding, decoded.repairs)


def ingest(sources: list[Source]) -> Ingested:
    """Parse every source and link the result; deterministic for the same inputs."""
    reports = [ingest_source(s) for s in sources]
    rank = {s.id: n for n, s in enumerate(sources)}
    records = sorted((r for rep in reports for r in rep.parsed.records), key=lambda r: sort_key(r, rank))
    return Ingested(records, reports, link(records, sources))
