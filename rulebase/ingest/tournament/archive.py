"""The bundled tournament documents: one tar.xz of 66 files (MTR, IPG, JAR, DMTR, DIPG, 2013-2025),
MANIFEST.tsv inside naming each file's document, origin and checksum.

Each [[source]] of format 'tournament-archive' is one document (`part`: mtr, ipg, jar, dmtr,
dipg), all five read from the one file; `parse_all` reads the archive once and parses every
file (in worker processes: the PDF-converted files are a megabyte of HTML each) for the
documents asked for, and releases added with `rulebase add` join their document's timeline
(timeline.py).
"""

from __future__ import annotations

import csv
import hashlib
import io
import tarfile
from dataclasses import dataclass
from pathlib import Path

from rulebase.core.errors import SourceError
from rulebase.core.pool import pool
from rulebase.core.pool import workers as default_workers
from rulebase.core.sources import Source
from rulebase.ingest.text import Parsed, decode
from rulebase.ingest.tournament.release import FileParsed, read_file

MANIFEST = "MANIFEST.tsv"


@dataclass(frozen=True, slots=True)
class Member:
    """One file of the archive, as its manifest describes it."""

    document: str  # 'mtr', 'ipg', ... (the manifest's MTR, IPG ...)
    name: str  # its path inside the archive
    commit: str  # the repository commit it was taken from: files of one commit are one app update
    printed: str  # the manifest's 'effective_as_printed' (a check on our own reading)
    data: bytes


def members(path: Path) -> list[Member]:
    """Every file the manifest lists, in manifest order, each checked against its sha256."""
    try:
        with tarfile.open(path, "r:xz") as tar:
            files = {info.name.removeprefix("./"): tar.extractfile(info).read()  # type: ignore[union-attr]
                     for info in tar if info.isfile()}
    except (OSError, tarfile.TarError, EOFError) as exc:
        raise SourceError(f"cannot read the archive ({exc})", str(path),
                          "restore the file from shared/extra or remove it from sources.toml") from None
    manifest = files.get(MANIFEST)
    if manifest is None:
        raise SourceError(f"no {MANIFEST} in the archive", str(path), "check that 'format' in sources.toml matches the file")
    out: list[Member] = []
    for row in csv.DictReader(io.StringIO(manifest.decode("utf-8")), delimiter="\t"):
        name = row["file"]
        data = files.get(name)
        if data is None:
            raise SourceError(f"{MANIFEST} lists {name}, which the archive lacks", str(path),
                              "restore the archive from shared/extra")
        if hashlib.sha256(data).hexdigest() != row["sha256"]:
            raise SourceError(f"{name} does not match its {MANIFEST} checksum", str(path),
                              "restore the archive from shared/extra")
        out.append(Member(row["document"].lower(), name, row["commit"], row["effective_as_printed"], data))
    return out


_MEMO: dict[tuple, list[Member]] = {}


def cached_members(path: Path) -> list[Member]:
    """`members`, read once per process for the archive as it is (five sources share it)."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise SourceError(f"cannot read the archive ({exc.strerror})", str(path),
                          "restore the file or remove it from sources.toml") from None
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _MEMO:
        _MEMO.clear()
        _MEMO[key] = members(path)
    return _MEMO[key]


def _read(job: tuple[str, bytes, str, dict, str | None]) -> tuple[FileParsed, str]:
    name, data, sid, meta, document = job
    decoded = decode(data, name)
    return read_file(decoded.text, name, sid, meta, document), decoded.encoding


def parse_all(sources: list[Source], added: list[Source] = (), workers: int | None = None,
              known: dict[str, tuple[FileParsed, str]] | None = None) -> dict[str, Parsed]:
    """Every document of `sources` (format 'tournament-archive', one archive file), with the
    releases in `added` (format 'tournament', `part` naming their document) joining their
    document's timeline: Parsed versions per source id (timeline.py). `known`: the archive's
    files already read (by name, as a build cache keeps them); the files read now are added to it."""
    # lazy: the timeline only where a build parses the documents
    from rulebase.ingest.tournament import timeline

    if not sources:
        return {}
    by_doc = {s.part: s for s in sources if s.part}
    paths = {s.path for s in sources}
    if len(paths) != 1:
        raise SourceError("the tournament documents must be read from one archive", ", ".join(sorted(map(str, paths))),
                          "give every tournament-archive source the same 'file'")
    known = {} if known is None else known
    jobs, owners = [], []
    for member in cached_members(sources[0].path):
        source = by_doc.get(member.document)
        if source is not None:
            jobs.append((f"{source.path.name}:{member.name}", member.data, source.id,
                         {"edition": "dated", "lang": source.lang}, member.document))
            owners.append((member, source.id))
    for extra in added:
        source = by_doc.get(extra.part or "")
        if source is None:
            continue
        try:
            data = extra.path.read_bytes()
        except OSError as exc:
            raise SourceError(f"cannot read an added release ({exc.strerror})", str(extra.path),
                              "run 'rulebase remove' for it or restore the file") from None
        jobs.append((f"added:{extra.path.name}", data, source.id, {"edition": "dated", "lang": source.lang}, extra.part))
        owners.append((None, source.id))
    todo = [i for i, job in enumerate(jobs) if not (owners[i][0] is not None and job[0] in known)]
    n = max(1, min(workers or default_workers(), len(todo) // 8))
    if n > 1:
        with pool(n) as running:  # the biggest first: the two workers finish together
            order = sorted(todo, key=lambda i: -len(jobs[i][1]))
            done = dict(zip(order, running.map(_read, [jobs[i] for i in order], chunksize=1), strict=True))
    else:
        done = {i: _read(jobs[i]) for i in todo}
    for i, got in done.items():
        if owners[i][0] is not None:
            known[jobs[i][0]] = got
    results = [done[i] if i in done else known[job[0]] for i, job in enumerate(jobs)]
    files = [timeline.File(got, encoding, member.commit if member else None, member.printed if member else None,
                           added=member is None)
             for (got, encoding), (member, _) in zip(results, owners, strict=True)]
    out: dict[str, Parsed] = {}
    for source in sources:
        mine = [f for f, (_, sid) in zip(files, owners, strict=True) if sid == source.id]
        out[source.id] = timeline.build(source, mine, files)
    return out
