"""The archive's versions, parsed once per archive and code: loaded from the build cache, or parsed
(rulebase.ingest.archive) and indexed now, then cached. The parser stays pure; keeping its result
between builds is the builder's business."""

from __future__ import annotations

from pathlib import Path

from rulebase.build import writer
from rulebase.build.cache import Entry, entry_key
from rulebase.build.digest import code_digest
from rulebase.core.eras import windows
from rulebase.core.errors import SourceError
from rulebase.core.pool import workers as default_workers
from rulebase.core.sources import Source
from rulebase.ingest import SourceReport, archive


def archive_report(source: Source) -> SourceReport:
    """The ingest report of an archive source, with the folder of its cached index segment."""
    archived, segment = load_or_parse(source)
    encodings = ", ".join(f"{name} x{n}" for name, n in archived.encodings.most_common())
    return SourceReport(source, archived.parsed, f"per release: {encodings}", [], segment)


def load_or_parse(source: Source) -> tuple[archive.ArchiveParsed, Path | None]:
    """The archive's versions and the folder of their index segment: from the build cache when
    it holds this archive for this code (cache.py), else parsed and indexed now and cached.
    The folder is None when the cache cannot be written (the builder indexes the versions)."""
    try:
        entry = Entry(source.id, entry_key(source.path, code_digest()))
    except OSError as exc:
        raise SourceError(f"cannot read the archive ({exc.strerror})", str(source.path),
                          "restore the file or remove it from sources.toml") from None
    cached = entry.load()
    if cached is not None:
        parsed, encodings = cached
        return archive.ArchiveParsed(parsed, [], encodings), entry.segment_dir
    archived = archive.parse_archive(source)
    spans = windows(archived.parsed.records, [source], {source.id: archived.parsed.meta["releases"]})

    def write_segment(folder: Path) -> None:
        writer.write_index(folder, archived.parsed.records, None, spans, default_workers(), common=False)

    saved = entry.save(archived.parsed, archived.encodings, write_segment)
    return archived, entry.segment_dir if saved else None
