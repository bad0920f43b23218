"""Building a generation: ingest, write records and the full-text index, publish atomically.

Concurrency: one builder at a time (an exclusive flock on .lock; a second builder waits, then
finds the work done). Readers never lock: they follow CURRENT, which is swapped with
os.replace only after the new generation is complete on disk.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from rulebase.build import cards as card_cache
from rulebase.build import writer as indexer
from rulebase.build.archive import reports as archive_reports
from rulebase.build.cache import Segment
from rulebase.build.digest import code_digest, code_files
from rulebase.core.eras import windows
from rulebase.core.errors import DiskFull, IndexBusy, IndexError_
from rulebase.core.locking import folder_lock
from rulebase.core.pool import Beside, workers
from rulebase.core.sources import Source, fingerprint
from rulebase.index import digests, seal
from rulebase.index import schema as index
from rulebase.index.generation import (
    CARDS,
    MARKER,
    POINTER,
    REPORT,
    RULINGS,
    SCHEMA_VERSION,
    Generation,
    claim,
    current_generation,
    forget_failure,
    leftovers,
    owned,
    remember_failure,
    stamp,
)
from rulebase.index.integrity import damage, file_checks, file_sizes
from rulebase.index.store import write_db
from rulebase.ingest import ARCHIVES, BINARY, TOURNAMENT, assemble

Progress = Callable[[str, int, int], None]  # (stage, done, total)
def expected_fingerprint(sources: list[Source]) -> str:
    return f"{fingerprint(sources)}-{code_digest()}"


def same_code(built: str, expected: str) -> bool:
    """Whether a generation's fingerprint names the same code as `expected` (both made by
    expected_fingerprint): its files are then read as this code wrote them."""
    return bool(built) and built.rpartition("-")[2] == expected.rpartition("-")[2]


def build_lock(index_dir: Path, wait: bool = True):
    """The index's build lock; without `wait`, IndexBusy at once when another command holds it."""
    return folder_lock(index_dir, lambda exc: IndexError_(
        f"cannot write the index directory ({exc.strerror})", str(index_dir),
        "point --index or RULEBASE_INDEX at a writable directory"),
        None if wait else lambda: IndexBusy("another command is building the index", str(index_dir)))


def build(index_dir: Path, sources: list[Source], progress: Progress | None = None,
          force: bool = False, watch: list[Path] = (), wait: bool = True, locked: bool = False) -> Generation:
    """Build and publish a generation for `sources`; returns the one now current. `watch` are
    further inputs (the manifests) whose change should make the next reader look again.
    Only into a directory that is ours (generation.claim); a full disk is a DiskFull error, with
    nothing half-written left and the previous generation still published, and is remembered
    beside the generations (generation.remember_failure) until a build succeeds."""
    index_dir = Path(index_dir)
    claim(index_dir)
    try:
        built = _build(index_dir, sources, progress, force, watch, wait, locked)
    except Exception as exc:
        why = disk_full(exc)
        if why is None:
            raise
        what = f"no space left to build the index ({why})"
        remember_failure(index_dir, what)  # readers say so for a while instead of retrying
        raise DiskFull(what, str(index_dir),
                       "free some space or point --index or RULEBASE_INDEX at another directory") from None
    forget_failure(index_dir)
    return built


def disk_full(exc: BaseException) -> str | None:
    """The reason when `exc` (or what caused it) is a full disk or quota, else None."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return exc.strerror or os.strerror(exc.errno)
        if isinstance(exc, sqlite3.OperationalError) and getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
            return str(exc)
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None


def _build(index_dir: Path, sources: list[Source], progress: Progress | None, force: bool,
           watch: list[Path], wait: bool = True, locked: bool = False) -> Generation:
    # first: from here readers answer from the last generation (`locked`: the caller holds it, as add does)
    with contextlib.nullcontext() if locked else build_lock(index_dir, wait):
        want = expected_fingerprint(sources)  # (hashes the corpus: seconds, for an add beside the archives)
        current = current_generation(index_dir)
        if current and not force and current.fingerprint == want and _healthy(current):
            return current  # another builder finished while we waited
        _clean_partial(index_dir)
        stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime()) + f"-{os.getpid()}"
        again = 1
        while (index_dir / f"gen-{stamp}").exists():  # a second build of this process within the second
            again += 1
            stamp = stamp.rsplit(".", 1)[0] + f".{again}"
        tmp = index_dir / f".building-{stamp}"
        final = index_dir / f"gen-{stamp}"
        tmp.mkdir()
        try:
            meta = _populate(tmp, sources, want, progress, watch)
            os.replace(tmp, final)
            digests.stamp_built(final)  # verified as written: the first read hashes nothing
            _publish(index_dir, final.name)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            if final.exists() and _pointer(index_dir) != final.name:
                shutil.rmtree(final, ignore_errors=True)  # renamed but never published
            raise
        _prune(index_dir, keep={final.name, current.name if current else ""})
        return Generation(final, meta)


def _populate(tmp: Path, sources: list[Source], want: str, progress: Progress | None,
              watch: list[Path] = ()) -> dict:

    started = time.perf_counter()
    # before the inputs are read: one changed while this build reads it makes the stamp stale
    inputs = stamp(code_files() + [p for s in sources for p in s.paths] + list(watch))
    if progress:
        progress("ingest", 0, len(sources))

    cards = [s for s in sources if s.format in BINARY]
    card_key = card_cache.segment_key(cards) if cards else ""
    # their index needs no rules: begun now, unless the cache holds it (the card file and code unchanged)
    ahead = Beside(_card_segment, cards, card_key) if card_key and not Segment(card_key).ready() else None
    later: list[Beside] = []  # the tournament documents' segment, when they were read again
    try:
        ingested = assemble(sources, archive_reports(sources, later), workers())
    except BaseException:
        for running in [r for r in (ahead, *later) if r]:
            with contextlib.suppress(Exception):
                running.wait()
        raise
    if progress:
        progress("ingest", len(sources), len(sources))
    fresh = card_cache.fresh(ingested.reports)  # linked now: the next build loads them
    keeping = Beside(card_cache.keep, fresh) if fresh else None

    releases = {rep.source.id: rep.parsed.meta["releases"] for rep in ingested.reports
                if isinstance(rep.parsed.meta, dict) and "releases" in rep.parsed.meta}
    spans = windows(ingested.records, sources, releases)
    cached = {rep.source.id: rep.segment for rep in ingested.reports if rep.segment is not None}
    # records.db in one process: beside the index write when the cards' segment is written too (a
    # first build, or one after the code changed: a long index write to share the cores with; 12 s
    # of 70 s), else here after the index (an add, whose index write is short). A forked writer
    # copies the build's heap as it reads every record: with a pool of packers of its own beside,
    # an add of a release peaked at 1.7 GB; here, 0.8 GB and 2 s slower (scripts/during_add.py)
    db_args = (tmp / "records.db", ingested.records, sources, releases, spans)
    records_db = Beside(write_db, *db_args) if ahead is not None else None
    # the bundled documents besides the archives in one cached segment, the tournament documents in
    # another, each added one in its own: after `rulebase add` only the added document (or, when it
    # joins a tournament document's timeline, the tournament documents) is indexed again (writer._grouped)
    others = [s for s in sources if s.id not in cached and s.format not in ARCHIVES and s.format not in BINARY]
    groups = [tuple(s.id for s in others if s.bundled and s.format != TOURNAMENT),
              tuple(s.id for s in others if s.format == TOURNAMENT)] + [(s.id,) for s in others if not s.bundled]
    card_ids = {s.id for s in sources if s.format in BINARY}
    rules = [r for r in ingested.records if r.source not in card_ids]
    try:
        for running in later:  # (a failure to write it is the writer's to mend: it indexes them itself)
            with contextlib.suppress(Exception):
                running.wait()
        indexer.write_index(tmp / "whoosh", rules, progress, spans, workers(), cached, groups=groups,
                            cuts={sid: indexer.archive_cut(rows) for sid, rows in releases.items()})
        if card_ids:  # an index of their own: the rules' ranking statistics stay the rules'
            if ahead:
                ahead.wait()
            group = tuple(sorted(card_ids))
            indexer.write_index(tmp / CARDS, [r for r in ingested.records if r.source in card_ids and r.kind == "card"],
                                None, spans, workers(), groups=[group], stored=False,
                                keys={group: card_key} if card_key else None)
            # their rulings in one of their own: searched beside the rules without a filter (a kind
            # filter over the cards' 80,000 documents read a posting list per query: 60 ms)
            rulings = [r for r in ingested.records if r.source in card_ids and r.kind == "card-ruling"]
            if rulings:
                indexer.write_index(tmp / RULINGS, rulings, None, spans, workers(), groups=[group], stored=False)
        if records_db is None:
            write_db(*db_args, workers=workers())
    finally:
        try:
            if records_db is not None:
                records_db.wait()
        finally:
            if keeping:
                keeping.wait()
    meta = {
        "fingerprint": want,
        "stamp": inputs,
        "schema": SCHEMA_VERSION,
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "build_seconds": round(time.perf_counter() - started, 2),
        "records": len(ingested.records),
    }
    report = {
        "sources": [_source_meta(rep) for rep in ingested.reports],
        "links": {
            "resolved": ingested.links.resolved,
            "joined": ingested.links.joined,
            "unresolved": [list(u) for u in ingested.links.unresolved],
            "differences": [list(d) for d in ingested.links.differences],
        },
    }
    (tmp / REPORT).write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    meta["files"] = file_sizes(tmp)
    meta["integrity"] = file_checks(tmp)
    meta["digests"] = digests.file_digests(tmp)  # keyed: checked before Whoosh or SQLite opens a file
    (tmp / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")
    seal.sign(tmp)  # readers open Whoosh (which unpickles) only in a generation this user sealed
    _fsync_tree(tmp)
    return meta


def _card_segment(sources: list[Source], key: str) -> None:
    """The cards' index segment, into the build cache under `key`, from a parse of their own (a
    forked worker beside the archive's parse: the cards' part of the build runs while the rules
    are read)."""
    # lazy: only this rarer path needs it
    from rulebase.core.eras import OPEN_END
    from rulebase.ingest import ingest_source

    records = [r for source in sources for r in ingest_source(source).parsed.records if r.kind == "card"]
    indexer.cache_group(records, {r.id: (0, OPEN_END) for r in records}, key)


def _source_meta(report) -> dict:
    source = report.source
    parsed = report.parsed
    kinds = Counter(r.kind for r in parsed.records)
    pages: list[str] = []
    for r in parsed.records:
        pages.extend(p for p in r.pages if p not in pages)
    refs = [ref for r in parsed.records for ref in r.refs]
    return {
        "id": source.id, "title": source.title, "edition": source.edition, "date": source.date,
        "lang": source.lang, "file": source.file, "format": source.format, "credit": source.credit,
        "provenance": source.provenance, "edition_note": source.edition_note, "gaps": source.gaps,
        "files": [p.name for p in source.paths],
        "bundled": source.bundled,
        "encoding": report.encoding, "repairs": report.repairs,
        "records": len(parsed.records), "kinds": dict(sorted(kinds.items())),
        "pages": pages,
        "refs": len(refs), "unresolved": sum(1 for ref in refs if ref.target is None),
        "set_aside": dict(parsed.set_aside), "notes": list(parsed.notes),
        "warnings": [str(w) for w in parsed.warnings],
        "flags": sum(len(r.flags) for r in parsed.records),
        "meta": parsed.meta if _jsonable(parsed.meta) else {},
    }


def _jsonable(value) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _publish(index_dir: Path, name: str) -> None:
    tmp = index_dir / f".{POINTER}.{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(name + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, index_dir / POINTER)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(index_dir)


def _pointer(index_dir: Path) -> str:
    try:
        return (index_dir / POINTER).read_bytes()[:256].decode("ascii", "replace").strip()
    except OSError:
        return ""


def _healthy(generation: Generation) -> bool:

    return (damage(generation) is None and digests.trusted(generation.path, generation.meta) is None
            and index.check(generation.whoosh_path)
            and (not os.path.exists(generation.cards_path) or index.check(generation.cards_path))
            and (not os.path.exists(generation.rulings_path) or index.check(generation.rulings_path)))


def clean_leftovers(index_dir: Path) -> int:
    """Remove a killed build's leftovers unless a builder is running; returns how many went.
    Only in a directory that is ours (generation.owned): elsewhere those names are the user's files."""
    index_dir = Path(index_dir)
    found = leftovers(index_dir)
    if not found or not owned(index_dir):
        return 0
    try:
        handle = open(index_dir / ".lock", "a+")  # noqa: SIM115 - closed below
    except OSError:
        return 0
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return 0  # a builder holds the lock: its .building- directory is live
    try:
        _clean_partial(index_dir)
        current = current_generation(index_dir)
        _prune(index_dir, keep={current.name} if current else set(), orphans_only=True)
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()
    return len(found)


def _clean_partial(index_dir: Path) -> None:
    """Leftovers of a killed build: safe to delete, we hold the lock (and the directory is ours)."""
    if not (index_dir / MARKER).is_file():
        return
    for path in leftovers(index_dir):
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def _prune(index_dir: Path, keep: set[str], orphans_only: bool = False) -> None:
    """Drop old generations, keeping the new one and the one readers may still have open.
    `orphans_only`: drop only generations newer than the current one (renamed into place by a
    build killed before it switched CURRENT); older ones may still have readers."""
    if not (index_dir / MARKER).is_file():
        return  # not ours: a gen-* here is the user's
    newest_kept = max(keep, default="")
    for path in index_dir.glob("gen-*"):
        if path.name not in keep and (not orphans_only or path.name > newest_kept):
            shutil.rmtree(path, ignore_errors=True)


def _fsync_tree(root: Path) -> None:
    for path in root.rglob("*"):
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    _fsync_dir(root)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
