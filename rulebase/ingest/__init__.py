"""Ingestion: run each source's parser, then link records across documents.

Parsers live one per format in this package and share one signature:
`parse(text: str, source: Source) -> Parsed`.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

from rulebase.core.errors import SourceError
from rulebase.core.records import Link, Record, sort_key
from rulebase.core.sources import Source
from rulebase.core.value import Value
from rulebase.ingest.link import LinkReport, link, same_text_key
from rulebase.ingest.text import Parsed, read_source

# format name -> module (imported lazily: most commands never parse)
PARSERS: dict[str, str] = {
    "forum-rulebook": "rulebase.ingest.rulebooks.rulebook",
    "hu-guide": "rulebase.ingest.guide.quickguide",
    "comprules": "rulebase.ingest.comprules.release",
    "crystalkeep-2008": "rulebase.ingest.crystalkeep.summary2008",
    "crystalkeep-1999": "rulebase.ingest.crystalkeep.summary1999",
    "alpha-rulebook": "rulebase.ingest.rulebooks.alpha",
    "tournament": "rulebase.ingest.tournament.release",  # one release of the MTR, IPG, JAR, DMTR or DIPG
}
# Formats of a container of many documents, read from its bytes rather than its text.
ARCHIVES: dict[str, str] = {"comprules-archive": "rulebase.ingest.comprules.archive"}  # every release in one tar.xz
# The tournament documents' releases (one source per document, all read from one tar.xz): parsed
# together by the builder (build/tournament.py), one by one here.
TOURNAMENT = "tournament-archive"
# Formats of one document read from its bytes (`parse_file(source) -> Parsed`): compressed data.
BINARY: dict[str, str] = {"oracle-cards": "rulebase.ingest.cards.oracle"}  # every card, xz-compressed JSON


class SourceReport(Value):
    __slots__ = ("source", "parsed", "encoding", "repairs", "segment")

    def __init__(self, source: Source, parsed: Parsed, encoding: str, repairs: list[str],
                 segment: Path | None = None) -> None:
        self.source = source
        self.parsed = parsed
        self.encoding = encoding
        self.repairs = repairs
        self.segment = segment  # an index segment already written for these records (cache.py)


class Ingested(Value):
    __slots__ = ("records", "reports", "links")

    def __init__(self, records: list[Record], reports: list[SourceReport] | None = None,
                 links: LinkReport | None = None) -> None:
        self.records = records
        self.reports = [] if reports is None else reports
        self.links = links


def parser_for(fmt: str, where: str) -> Callable[[str, Source], Parsed]:
    module = PARSERS.get(fmt)
    if module is None:
        raise SourceError(f"unknown format {fmt!r}", where,
                          "use one of " + ", ".join(sorted([*PARSERS, *ARCHIVES, *BINARY, TOURNAMENT])))
    return importlib.import_module(module).parse


def ingest_source(source: Source) -> SourceReport:
    if source.format == TOURNAMENT:
        # lazy: only a build that holds the tournament documents parses them
        from rulebase.ingest.tournament.archive import parse_all

        return SourceReport(source, parse_all([source])[source.id], "per file (see the notes)", [])
    if source.format in ARCHIVES:
        # lazy: tarfile and the worker pool cost a cold `lookup` 80 ms, and only a build reads the archive
        parse_archive = importlib.import_module(ARCHIVES[source.format]).parse_archive
        archived = parse_archive(source)
        encodings = ", ".join(f"{name} x{n}" for name, n in archived.encodings.most_common())
        return SourceReport(source, archived.parsed, f"per release: {encodings}", [])
    if source.format in BINARY:
        parsed = importlib.import_module(BINARY[source.format]).parse_file(source)
        if not parsed.records:
            raise SourceError(f"no records found by the {source.format!r} parser", str(source.path),
                              "check that 'format' in sources.toml matches the file")
        return SourceReport(source, parsed, "xz-compressed UTF-8 JSON", [])
    parse = parser_for(source.format, str(source.path))
    decoded = read_source(source.path)
    parsed = parse(decoded.text, source)
    if not parsed.records:
        raise SourceError(f"no records found by the {source.format!r} parser", str(source.path),
                          "check that 'format' in sources.toml matches the file")
    return SourceReport(source, parsed, decoded.encoding, decoded.repairs)


def ingest(sources: list[Source]) -> Ingested:
    """Parse every source and link the result; deterministic for the same inputs."""
    return assemble(sources, [ingest_source(s) for s in sources])


def assemble(sources: list[Source], reports: list[SourceReport], workers: int = 1) -> Ingested:
    """Sort and link the records of parsed sources (`reports`, in the order of `sources`); the
    cards' links on up to `workers` processes."""
    rank = {s.id: n for n, s in enumerate(sources)}
    records = sorted((r for rep in reports for r in rep.parsed.records), key=lambda r: sort_key(r, rank))
    # Archive versions resolve their references within their own release (archive.py); the
    # corpus-wide linker sees the other documents, then each is joined to the identical archive text.
    archived = {s.id for s in sources if s.format == "comprules-archive"}
    cards = {s.id for s in sources if s.format in BINARY}
    dated = archived | {s.id for s in sources if s.format == TOURNAMENT}
    linked = [r for r in records if r.source not in dated and r.source not in cards]
    report = link(linked, [s for s in sources if s.id not in dated and s.id not in cards])
    versions = [r for r in records if r.source in archived]
    join_archive(linked, versions)
    releases = {rep.source.id: [row["date"] for row in rep.parsed.meta["releases"]] for rep in reports
                if rep.source.id in dated and isinstance(rep.parsed.meta, dict) and "releases" in rep.parsed.meta}
    if len(releases) > len(archived & set(releases)):  # the tournament documents: their references by date
        # lazy: only a corpus with the tournament documents needs it
        from rulebase.ingest.tournament.links import link_dated

        link_dated(records, releases, next(iter(archived & set(releases)), None))
    if cards:
        _link_cards([rep for rep in reports if rep.source.id in cards], in_force_now(versions), workers)
    return Ingested(records, reports, report)


def _link_cards(reports: list[SourceReport], rules: list[Record], workers: int) -> None:
    """Link the cards to the rules in force now, unless their links are those rules' already (a
    cached parse: build/cards.py); freshly linked reports say so (`meta["linked"]`), to be cached."""
    # lazy: only a corpus with cards needs it
    import hashlib

    from rulebase.ingest.cards.rules import link_cards

    digest = hashlib.sha256("\n".join(sorted(r.id for r in rules)).encode()).hexdigest()[:24]
    for report in reports:
        if report.parsed.meta.get("rules") != digest:
            link_cards([r for r in report.parsed.records if r.kind == "card"], rules, workers)
            report.parsed.meta.update(rules=digest, linked=True)


def in_force_now(versions: list[Record]) -> list[Record]:
    """The archive's rules, chapters and glossary entries of its newest release (the rules the
    cards' links name)."""
    newest = max((v.span[1] for v in versions if v.span), default=None)
    return [v for v in versions if v.span and v.span[1] == newest and v.kind in ("rule", "chapter", "glossary")]


def foldable(source: Source) -> bool:
    """An added Comprehensive Rules release dated by its text: it can join an archive's timeline."""
    return source.format == "comprules" and not source.bundled and bool(re.match(r"^\d{4}-\d\d-\d\d$", source.date))


def join_archive(records: list[Record], versions: list[Record]) -> None:
    """'same-text' links between a document's numbered rule and the archive version with the same
    number and text (the bundled 2008 release, Crystal Keep's copies of its rules): history and
    search reach Crystal Keep through them, and search shows such twins once."""

    def key(record: Record) -> tuple[str, str] | None:
        if record.number:
            return (record.number, same_text_key(record.text))
        if record.kind == "glossary" and record.title:  # the 2008 release's glossary
            return ("glossary:" + record.title.lower(), same_text_key(record.text))
        return None

    by_text: dict[tuple[str, str], list[Record]] = {}
    for version in versions:
        if key(version):
            by_text.setdefault(key(version), []).append(version)
    for record in records:
        if not key(record):
            continue
        for version in by_text.get(key(record), []):
            record.links.append(Link("same-text", version.id))
            version.links.append(Link("same-text", record.id))
            if record.lineage is None:
                record.lineage = version.lineage
