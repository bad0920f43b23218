"""The cards, parsed and linked once per card file, code and rules in force: loaded from the build
cache, or parsed (rulebase.ingest.cards) now and cached once ingest has linked them.

Reading the card file and finding the rules 35,000 cards use take about 20 s of CPU; a rebuild
after `rulebase add` of anything but a newer Comprehensive Rules release finds the same cards and
the same rules, so the build keeps the linked records (one JSON file, sealed like every cache entry:
cache.read_trusted) and loads them in about a second. The entry is keyed by the card files' bytes
(the current file and the 2022 one) and the code; the rules its links were found in are named inside it (`rules`), and links found in
other rules are found again (ingest.assemble compares them).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from rulebase.build.cache import cache_root, entry_key, publish, read_trusted, touch
from rulebase.build.digest import code_digest
from rulebase.core.records import from_dict, to_dict
from rulebase.core.sources import Source
from rulebase.ingest import BINARY, SourceReport, ingest_source
from rulebase.ingest.text import Parsed, Warning_

FILE = "cards.json"


def report(source: Source) -> SourceReport:
    """The cards' ingest report: from the cache (their links in `meta["rules"]`'s rules), else parsed."""
    folder = _folder(source)
    held = read_trusted(folder, FILE) if folder is not None else None
    if held is not None:
        try:
            data = json.loads(held.decode("utf-8"))
            parsed = Parsed([from_dict(r) for r in data["records"]], [Warning_(*w) for w in data["warnings"]],
                            notes=list(data["notes"]), meta=dict(data["meta"]))
            touch(folder)
            return SourceReport(source, parsed, data["encoding"], [])
        except (ValueError, KeyError, TypeError):
            pass  # not what a build writes: parsed again, and written anew
    return ingest_source(source)


def fresh(reports: list[SourceReport]) -> list[SourceReport]:
    """The cards' reports whose links were found in this build (ingest.assemble marks them
    `meta["linked"]`; the mark is taken off): the ones to `keep`."""
    return [rep for rep in reports if rep.source.format in BINARY and rep.parsed.meta.pop("linked", False)]


def keep(reports: list[SourceReport]) -> None:
    """Cache the cards once linked (1.3 s for 35,000 cards: the builder runs it beside the rest)."""
    for report in reports:
        _keep(report)


def _keep(report: SourceReport) -> None:
    meta = report.parsed.meta
    folder = _folder(report.source)
    if folder is None:
        return
    data = {"records": [to_dict(r) for r in report.parsed.records], "encoding": report.encoding,
            "warnings": [[w.file, w.line, w.message] for w in report.parsed.warnings],
            "notes": report.parsed.notes, "meta": meta}
    blob = json.dumps(data, ensure_ascii=False).encode("utf-8")
    if publish(folder, lambda tmp: (tmp / FILE).write_bytes(blob)):
        for old in folder.parent.glob("cards-*"):  # older code's or files' entries: 40 MB each, never read again
            if old != folder and old.is_dir():
                shutil.rmtree(old, ignore_errors=True)


def segment_key(sources: list[Source]) -> str:
    """The key of the cards' cached index segment: their files' bytes and the code, which make
    their search documents (the rules they link are not in them), so a rebuild finds the segment
    without parsing the cards again (1.5 s of CPU). "" when a file cannot be read."""
    try:
        return "cards-" + entry_key([p for s in sources for p in s.paths], code_digest())
    except OSError:
        return ""


def _folder(source: Source) -> Path | None:
    try:
        return cache_root() / f"cards-{entry_key(source.paths, code_digest())[:24]}"
    except OSError:
        return None  # an unreadable card file: the parse says so
