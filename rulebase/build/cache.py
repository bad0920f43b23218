"""A build cache for the Comprehensive Rules archive: its versions and its index segment.

The archive is most of the corpus (128 releases in three files) and never changes unless its files
or our code do, so a build keeps what it made of it: the versions (JSON) and a Whoosh index holding only
them (the segments of its closed versions, then the rest: writer.write_archive_index). The next build, say after `rulebase add` of one release, parses and indexes the other
documents and copies the segment in: seconds, not a minute. Entries are keyed by the archive's
bytes and the code digest, written to a temporary folder and renamed into place, and checked
against the file sizes they recorded; a damaged or unreadable entry is ignored and rebuilt.
A build keeps the entries and segments it used and a few of the most recently used others
(prune_entries, prune_segments): older code's entries do not pile up.
Copies, not hard links: damage to a generation must never reach the cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path

from rulebase.core.pool import Beside
from rulebase.core.records import from_dict, to_dict
from rulebase.ingest.comprules.archive import Resume
from rulebase.ingest.comprules.lineage import Traced
from rulebase.ingest.text import Parsed, Warning_

ENV_CACHE = "RULEBASE_CACHE"


def cache_root() -> Path:
    """RULEBASE_CACHE, else $XDG_CACHE_HOME/rulebase, else ~/.cache/rulebase."""
    env = os.environ.get(ENV_CACHE)
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rulebase"


def entry_key(path: Path | list[Path], code: str) -> str:
    """The digest of the code and of every archive file's bytes (a source's `paths`)."""
    digest = hashlib.sha256(code.encode())
    for one in [path] if isinstance(path, Path) else path:
        digest.update(one.name.encode())
        with open(one, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:20]


class Entry:
    """One archive's cached versions and index segment."""

    def __init__(self, source_id: str, key: str, root: Path | None = None):
        self.path = (root or cache_root()) / f"{source_id}-{key}"

    @property
    def segment_dir(self) -> Path:
        return self.path / "whoosh"

    def _sizes_ok(self) -> bool:
        try:
            sizes = json.loads((self.path / "sizes.json").read_text(encoding="utf-8"))
            return isinstance(sizes, dict) and all(
                (self.path / name).stat().st_size == size for name, size in sizes.items())
        except (OSError, ValueError, TypeError):
            return False

    def load(self) -> tuple[Parsed, Counter] | None:
        """The cached versions, or None (absent, damaged, unreadable, or without their segment)."""
        if not (self._sizes_ok() and (self.segment_dir / "_MAIN_1.toc").is_file()):
            return None
        try:
            data = json.loads((self.path / "versions.json").read_text(encoding="utf-8"))
            records = [from_dict(r) for r in data["records"]]
            warnings = [Warning_(*w) for w in data["warnings"]]
            parsed = Parsed(records, warnings, notes=list(data["notes"]), meta=dict(data["meta"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        touch(self.path)
        return parsed, Counter(data["encodings"])

    def save(self, parsed: Parsed, encodings: Counter, write_segment, resume: Resume | None = None) -> bool:
        """Store the versions and, through `write_segment(folder)`, their index segment (and, of
        the archive without added releases, the Resume that folding a newer release into it
        starts from). False (and nothing kept) when the cache cannot be written: the build goes
        on without it."""
        def fill(tmp: Path) -> None:
            beside = Beside(_write_versions, tmp, parsed, encodings, resume)  # while the segment is written
            try:
                write_segment(tmp / "whoosh")
            finally:
                beside.wait()

        return _publish(self.path, fill)

    def dates(self) -> list[str] | None:
        """The dates of the archive's releases, from an entry with a Resume (a small file: which
        added releases the archive lacks is known without loading its versions), or None."""
        if not self._sizes_ok():
            return None
        try:
            dates = json.loads((self.path / "dates.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return dates if isinstance(dates, list) and all(isinstance(d, str) for d in dates) else None

    def load_resume(self) -> Resume | None:
        """The cached Resume (archive.Resume), or None (absent, damaged or unreadable)."""
        if not self._sizes_ok():
            return None
        try:
            resume = _resume_of(json.loads((self.path / "resume.json").read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return None
        touch(self.path)
        return resume


def _write_versions(tmp: Path, parsed: Parsed, encodings: Counter, resume: Resume | None) -> None:
    data = {"records": [to_dict(r) for r in parsed.records],
            "warnings": [[w.file, w.line, w.message] for w in parsed.warnings],
            "notes": parsed.notes, "meta": parsed.meta, "encodings": dict(encodings)}
    (tmp / "versions.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    if resume is not None:
        (tmp / "resume.json").write_text(json.dumps(_resume_dict(resume), ensure_ascii=False), encoding="utf-8")
        (tmp / "dates.json").write_text(json.dumps(resume.dates), encoding="utf-8")


def _resume_dict(resume: Resume) -> dict:
    traced = resume.traced
    return {"records": [to_dict(r) for r in resume.records],
            "files": [[date, name, effective, encoding, seq, [[w.file, w.line, w.message] for w in warns]]
                      for date, name, effective, encoding, seq, warns in resume.files],
            "dates": resume.dates, "ids": resume.ids,
            "traced": {"prev": traced.prev, "prev_ids": traced.prev_ids,
                       "lost": [[lineage, entry, step] for lineage, (entry, step) in traced.lost.items()],
                       "next_id": traced.next_id, "steps": traced.steps}}


def _resume_of(data: dict) -> Resume:
    """A Resume from its JSON, checked for shape: indexes within the records, one id list per release."""
    records = [from_dict(r) for r in data["records"]]
    files = [(date, name, effective, encoding, [int(i) for i in seq], [Warning_(*w) for w in warns])
             for date, name, effective, encoding, seq, warns in data["files"]]
    if any(not 0 <= i < len(records) for *_, seq, _ in files for i in seq):
        raise ValueError("a file's record index out of range")
    dates, ids = [str(d) for d in data["dates"]], [[int(i) for i in row] for row in data["ids"]]
    t = data["traced"]
    traced = Traced([(str(number), str(text)) for number, text in t["prev"]], [int(i) for i in t["prev_ids"]],
                    {int(lineage): ((str(entry[0]), str(entry[1])), int(step)) for lineage, entry, step in t["lost"]},
                    int(t["next_id"]), int(t["steps"]))
    if len(ids) != len(dates) or len(traced.prev) != len(traced.prev_ids):
        raise ValueError("the lineage ids do not match the releases")
    return Resume(records, files, dates, ids, traced)



class Segment:
    """A Whoosh index holding one group of documents (the bundled documents besides the archive,
    or one added document), keyed by the digest of exactly the documents it indexes (writer.py):
    a rebuild whose documents for that group are the same copies it instead of indexing them
    again. Written to a temporary folder and renamed into place, checked against its sizes."""

    def __init__(self, key: str = "", root: Path | None = None, path: Path | None = None):
        self.path = path or (root or cache_root()) / f"segment-{key}"

    @property
    def segment_dir(self) -> Path:
        return self.path / "whoosh"

    def ready(self) -> bool:
        return _sizes_ok(self.path) and (self.segment_dir / "_MAIN_1.toc").is_file()

    def save(self, write_segment) -> bool:
        """Write the segment through `write_segment(folder)`; False when the cache cannot be written."""
        return _publish(self.path, lambda tmp: write_segment(tmp / "whoosh"))


def _sizes_ok(folder: Path) -> bool:
    try:
        sizes = json.loads((folder / "sizes.json").read_text(encoding="utf-8"))
        return isinstance(sizes, dict) and all((folder / name).stat().st_size == size for name, size in sizes.items())
    except (OSError, ValueError, TypeError):
        return False


def _publish(path: Path, fill) -> bool:
    """Fill a temporary folder beside `path` (`fill(folder)`), record its files' sizes and rename
    it into place; False, and nothing left behind, when the cache cannot be written."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        fill(tmp)
        _write_sizes(tmp)
        shutil.rmtree(path, ignore_errors=True)
        os.replace(tmp, path)
        return True
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        return False


def _write_sizes(folder: Path) -> None:
    sizes = {p.relative_to(folder).as_posix(): p.stat().st_size for p in sorted(folder.rglob("*")) if p.is_file()}
    (folder / "sizes.json").write_text(json.dumps(sizes), encoding="utf-8")


def touch(path: Path) -> None:
    """Mark a cache folder as just used: pruning drops the least recently used first."""
    with contextlib.suppress(OSError):  # a read-only cache is still a cache
        os.utime(path)


def prune_segments(keep: set[Path], root: Path | None = None, spare: int = 8) -> None:
    """Keep the segments a build just used (`keep`) and the `spare` most recently used others."""
    _prune((root or cache_root()).glob("segment-*"), keep, spare)


ENTRY_SPARE = 2  # archive entries kept beyond a build's own: one is 80-90 MB (the bundled archive)


def prune_entries(keep: set[Path], root: Path | None = None, spare: int = ENTRY_SPARE) -> None:
    """Keep the archive entries (Entry) a build just used (`keep`) and the `spare` most recently
    used others. Each change of the code or of the archive's files, and each set of added releases,
    keys a new entry: without this the cache grows by one archive per upgrade, unbounded."""
    _prune((p for p in (root or cache_root()).glob("*-*") if _ENTRY.fullmatch(p.name)), keep, spare)


_ENTRY = re.compile(r"(?!segment-)[\w.-]+-[0-9a-f]{20}")  # Entry's folder: SOURCE-KEY (entry_key)


def _prune(found, keep: set[Path], spare: int) -> None:
    try:
        found = sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:  # one vanished under us (another build pruning): next time
        return
    for path in [p for p in found if p not in keep][spare:]:
        shutil.rmtree(path, ignore_errors=True)
