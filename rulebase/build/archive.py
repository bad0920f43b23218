"""The archive's versions, parsed once per archive, added releases and code: loaded from the
build cache, or parsed (rulebase.ingest.comprules.archive) and indexed now, then cached. The parser stays
pure; keeping its result between builds, and folding added releases into its timeline, is the
builder's business."""

from __future__ import annotations

from pathlib import Path

from rulebase.build import cards, writer
from rulebase.build.cache import Entry, entry_key, prune_entries
from rulebase.build.digest import code_digest
from rulebase.build.tournament import Pending
from rulebase.core.eras import windows
from rulebase.core.errors import SourceError
from rulebase.core.pool import workers as default_workers
from rulebase.core.sources import Source
from rulebase.ingest import ARCHIVES, BINARY, SourceReport, foldable, ingest_source
from rulebase.ingest.comprules import archive
from rulebase.ingest.text import Parsed


def reports(sources: list[Source], later: list | None = None) -> list[SourceReport]:
    """Every source's ingest report, in manifest order (the first unreadable document is the one
    reported). A release added with `rulebase add` that the archive lacks is parsed into the
    archive's versions, so it joins their spans, lineage, --as-of, history and changes like a
    bundled release; the added document itself then holds no records (its report says where
    they went). An added file of a release the archive holds stays a document of its own.
    `later`: where the work still running for them is appended (Pending.reports)."""
    pending = Pending(sources)  # the tournament documents and the releases that join them, read meanwhile
    archives = [s for s in sources if s.format in ARCHIVES]
    candidates = [s for s in sources if foldable(s)]
    fold: list[Source] = []
    first: SourceReport | None = None  # the archive as bundled: reused when nothing joins it (a second load is 1 s)
    if len(archives) == 1 and candidates:
        dates = _entry(archives[0]).dates()  # the cached archive's release dates, without loading it
        if dates is None:
            first = archive_report(archives[0])
            dates = [r["date"] for r in first.parsed.meta["releases"]]
        held = set(dates)
        fold = [s for s in candidates if s.date not in held]
    added = tuple((s.date, s.path) for s in fold)
    folded = {s.id for s in fold}
    out: list[SourceReport] = []
    for source in sources:
        if source.id in pending.ids:
            out.append(None)  # type: ignore[arg-type] - filled in below
        elif source.format in ARCHIVES:
            if source is archives[0] and first is not None and not added:
                out.append(first)
            else:
                out.append(archive_report(source, added if source is archives[0] else ()))
        elif source.id in folded:
            note = (f"{source.id}: the release of {source.date} joined {archives[0].id}'s timeline: its rules are "
                    f"{archives[0].id}:NUMBER@DATE versions")
            out.append(SourceReport(source, Parsed([], [], notes=[note], meta={"joined": archives[0].id}),
                                    "see " + archives[0].id, []))
        elif source.format in BINARY:
            out.append(cards.report(source))
        else:
            out.append(ingest_source(source))
    used = {_entry(a).path for a in archives} | ({_entry(archives[0], added).path} if added else set())
    prune_entries(used)  # the entries of older code, archives or added releases: 80-90 MB each
    tournament = pending.reports(later)
    return [tournament[s.id] if report is None else report for s, report in zip(sources, out, strict=True)]


def archive_report(source: Source, added: archive.Added = ()) -> SourceReport:
    """The ingest report of an archive source, with the folder of its cached index segment."""
    archived, segment = load_or_parse(source, added)
    encodings = ", ".join(f"{name} x{n}" for name, n in archived.encodings.most_common())
    return SourceReport(source, archived.parsed, f"per release: {encodings}", [], segment)


def _entry(source: Source, added: archive.Added = ()) -> Entry:
    """The archive's build cache entry, keyed by its files' (and the added files') bytes and the code."""
    try:
        return Entry(source.id, entry_key([*source.paths, *(path for _, path in added)], code_digest()))
    except OSError as exc:
        raise SourceError(f"cannot read the archive ({exc.strerror})", str(source.path),
                          "restore the file or remove it from sources.toml") from None


def load_or_parse(source: Source, added: archive.Added = ()) -> tuple[archive.ArchiveParsed, Path | None]:
    """The archive's versions and the folder of their index segment: from the build cache when
    it holds this archive (and these added releases) for this code (cache.py), else parsed and
    indexed now and cached. With added releases the parse starts from the archive's own cached
    parse (its entry's Resume) when there is one: only the added files are parsed when they are
    newer than the archive's releases (archive.extend; the same versions as parsing everything).
    The archive's own entry keeps its Resume. The folder is None when the cache cannot be
    written (the builder indexes the versions)."""
    entry = _entry(source, added)
    cached = entry.load()
    if cached is not None:
        parsed, encodings = cached
        return archive.ArchiveParsed(parsed, [], encodings), entry.segment_dir
    own = _entry(source) if added else None
    resume = own.load_resume() if own is not None else None
    archived = archive.parse_archive(source, added=added, resume=resume)
    releases = archived.parsed.meta["releases"]
    spans = windows(archived.parsed.records, [source], {source.id: releases})
    # the closed documents' segment of the archive's own entry: what a fold of a newer release leaves alone
    reuse = own.segment() if resume is not None else None

    def write_segment(folder: Path) -> None:
        writer.write_archive_index(folder, archived.parsed.records, spans, default_workers(),
                                   writer.archive_cut(releases), reuse)

    saved = entry.save(archived.parsed, archived.encodings, write_segment, archived.resume)
    return archived, entry.segment_dir if saved else None
