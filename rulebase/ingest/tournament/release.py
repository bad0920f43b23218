"""One file of a tournament document: which reader it needs, which document it is, its records
and the date it prints (or the evidence for one).

`parse(text, source)` is the parser of the format 'tournament' (a release a user added that stays
a document of its own); the bundled archive's files and the added releases that join a timeline
go through `read_file`, which keeps what dating and merging need.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from rulebase.core.records import Record
from rulebase.core.sources import TOURNAMENT_DOCUMENTS, Source
from rulebase.core.value import replace
from rulebase.ingest.text import Parsed, Warning_
from rulebase.ingest.tournament import dating, sections
from rulebase.ingest.tournament.units import Read

FORMAT = "tournament"  # one release, as a file a user adds
ARCHIVE_FORMAT = "tournament-archive"  # the bundled tarball's releases of one document (Source.part)
DOCUMENTS = TOURNAMENT_DOCUMENTS  # id -> what the documents call themselves
_KIND = (  # which document a title names, most specific first
    ("dipg", re.compile(r"digital\s+infraction\s+procedure", re.IGNORECASE)),
    ("dmtr", re.compile(r"digital\s+(?:magic\s+)?tournament\s+rules|digital-mtr", re.IGNORECASE)),
    ("ipg", re.compile(r"infraction\s+procedure\s+guide", re.IGNORECASE)),
    ("jar", re.compile(r"judging\s+at\s+regular", re.IGNORECASE)),
    ("mtr", re.compile(r"tournament\s+rules", re.IGNORECASE)),
)


@dataclass(slots=True)
class FileParsed:
    """A file's records (local ids, no date yet) and what dating and merging need."""

    name: str
    document: str | None  # 'mtr', 'ipg' ...; None: the file does not say
    reader: str  # 'html', 'pdf-html', 'markdown', 'text'
    records: list[Record]
    printed: date | None  # the day it took effect, as printed
    how: str  # how that date was read ('Effective Feb 6, 2021'), or why there is none
    evidence: list[tuple[date, str]] = field(default_factory=list)  # for a file that prints no date
    warnings: list[Warning_] = field(default_factory=list)
    aside: dict[str, list[int]] = field(default_factory=dict)


def reader_of(text: str, name: str) -> str:
    """Which reader a file needs: 'markdown' (a .md file, or '#' headings), 'pdf-html' (absolutely
    positioned runs), 'html', else 'text' (copied from the PDF)."""
    head = text[:200_000]
    if name.endswith(".md") or (re.search(r"^#{1,3} \S", head, re.MULTILINE) and not re.search(r"<(?:p|div|html)\b", head)):
        return "markdown"
    if re.search(r"position:\s*absolute", head):
        return "pdf-html"
    if re.search(r"<(?:html|body|p|div|h[1-6]|br)\b", head, re.IGNORECASE):
        return "html"
    return "text"


def read_units(text: str, reader: str) -> Read:
    # lazy: only the reader a file needs (BeautifulSoup for the HTML ones)
    if reader == "pdf-html":
        from rulebase.ingest.tournament import pdfpage

        return pdfpage.read(text)
    if reader == "html":
        from rulebase.ingest.tournament import webpage

        return webpage.read(text)
    from rulebase.ingest.tournament import plain

    return plain.read_markdown(text) if reader == "markdown" else plain.read_text(text)


def document_of(titles: list[str]) -> str | None:
    """Which tournament document the first of `titles` that names one is ('Magic Infraction
    Procedure Guide' -> 'ipg'), else None."""
    for title in titles:
        for doc, pattern in _KIND:
            if pattern.search(title):
                return doc
    return None


def read_file(text: str, name: str, sid: str, meta: dict, document: str | None = None) -> FileParsed:
    """Read one file: its units, records and date. `document` when known (the archive's manifest
    says it); else from the file's title."""
    reader = reader_of(text, name)
    read = read_units(text, reader)
    titles = [u.text for u in read.units[:3]] + read.titles
    doc = document or document_of(titles)
    meta = dict(meta, document=DOCUMENTS.get(doc or ""))
    found = sections.records(read.units, text.split("\n"), sid, meta, numbered=False if doc == "jar" else None)
    when = dating.effective(found.dates)
    evidence: list[tuple[date, str]] = []
    if read.stamp:
        evidence += [(day, f"the app's date stamp '{read.stamp}'") for day in dating.stamp_readings(read.stamp)]
    changed = [d for d in (dating.parse_date(line) for line in found.changes) if d and not d[1]]
    if changed:
        newest = max(d[0] for d in changed)
        evidence.append((newest, f"the newest entry of its changes appendix ({newest:%B} {newest.day}, {newest.year})"))
    warnings = [Warning_(name, line, message) for line, message in found.warnings]
    return FileParsed(name, doc, reader, found.records, when[0] if when else None,
                      when[1] if when else "no date printed", evidence, warnings, read.aside)


def parse(text: str, source: Source) -> Parsed:
    """A tournament document release as a document of its own (format 'tournament')."""
    got = read_file(text, source.path.name, source.id, {"edition": source.edition, "lang": source.lang},
                    source.part)
    return as_parsed(got)


def as_parsed(got: FileParsed) -> Parsed:
    """A file's records as a parser's result, its set-aside lines counted and listed."""
    # lazy: only this rarer path needs it
    from collections import Counter

    notes = [f"{got.name}: read as {got.reader}; "
             + (f"dated {got.printed.isoformat()} from {got.how}" if got.printed else got.how)]
    meta = {"set_aside_lines": {k: list(v) for k, v in got.aside.items()}, "document": got.document,
            "effective": got.printed.isoformat() if got.printed else None}
    return Parsed([replace(r) for r in got.records], list(got.warnings),
                  Counter({k: len(v) for k, v in got.aside.items()}), notes, meta)


def file_dict(got: FileParsed) -> dict:
    """A file's parse as JSON (what a build cache keeps of it)."""
    # lazy: only this rarer path needs it
    from rulebase.core.records import to_dict

    return {"name": got.name, "document": got.document, "reader": got.reader,
            "records": [to_dict(r) for r in got.records],
            "printed": got.printed.isoformat() if got.printed else None, "how": got.how,
            "evidence": [[d.isoformat(), why] for d, why in got.evidence],
            "warnings": [[w.file, w.line, w.message] for w in got.warnings], "aside": got.aside}


def file_of(data: dict) -> FileParsed:
    """`file_dict` read back."""
    # lazy: only this rarer path needs it
    from rulebase.core.records import from_dict

    return FileParsed(data["name"], data["document"], data["reader"], [from_dict(r) for r in data["records"]],
                      date.fromisoformat(data["printed"]) if data["printed"] else None, data["how"],
                      [(date.fromisoformat(d), why) for d, why in data["evidence"]],
                      [Warning_(*w) for w in data["warnings"]], {k: list(v) for k, v in data["aside"].items()})
