"""A build cache for the Comprehensive Rules archive: its versions and its index segment.

The archive is most of the corpus (128 releases in three files) and never changes unless its files
or our code do, so a build keeps what it made of it: the versions (JSON) and a Whoosh index holding only
them (the segments of its closed versions, then the rest: writer.write_archive_index). The next build, say after `rulebase add` of one release, parses and indexes the other
documents and copies the segment in: seconds, not a minute. Entries are keyed by the archive's
bytes and the code digest, written to a temporary folder and renamed into place.

The cache is held to the promise the index's generations keep (index/seal.py): Whoosh unpickles
what it opens, and the versions are shown as the rules' text, so nothing in an entry is used
before it is verified. Each entry lists every file's size and SHA-256 in `sums.json`, sealed
(`sums.seal`) with an HMAC under the per-user key over the list and the entry's name, which holds
its key (an entry replayed under another key fails); a reader checks the seal, then the bytes of
each file it uses (and that the index folder holds no file the list lacks) before Whoosh or
json sees them, and Whoosh opens only a verified copy (copy_verified). An entry that fails is
ignored and rebuilt from the sources, and said so once (refusals): a damaged, planted or altered
entry is never trusted, whoever wrote it.
A build keeps the entries and segments it used and a few of the most recently used others
(prune_entries, prune_segments): older code's entries do not pile up.
Copies, not hard links: damage to a generation must never reach the cache.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import time
from collections import Counter
from pathlib import Path

from rulebase.core.errors import IndexError_
from rulebase.core.locking import folder_lock
from rulebase.core.pool import Beside
from rulebase.core.records import from_dict, to_dict
from rulebase.index import seal
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

    def load(self) -> tuple[Parsed, Counter] | None:
        """The cached versions, or None (absent, damaged, unreadable, not sealed by this user, or
        without their verified segment)."""
        sums = _trusted(self.path)
        data = _read_verified(self.path, "versions.json", sums)
        if data is None or not _segment_ok(self.path, sums):
            return None
        try:
            data = json.loads(data)
            records = [from_dict(r) for r in data["records"]]
            warnings = [Warning_(*w) for w in data["warnings"]]
            parsed = Parsed(records, warnings, notes=list(data["notes"]), meta=dict(data["meta"]))
            encodings = Counter(data["encodings"])
        except (ValueError, KeyError, TypeError):
            _refuse(self.path, "versions.json is not what a build writes")
            return None
        touch(self.path)
        return parsed, encodings

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
        data = _read_verified(self.path, "dates.json", _trusted(self.path))
        try:
            dates = json.loads(data) if data is not None else None
        except ValueError:
            return None
        return dates if isinstance(dates, list) and all(isinstance(d, str) for d in dates) else None

    def load_resume(self) -> Resume | None:
        """The cached Resume (archive.Resume), or None (absent, damaged, unreadable or unsealed)."""
        data = _read_verified(self.path, "resume.json", _trusted(self.path))
        if data is None:
            return None
        try:
            resume = _resume_of(json.loads(data))
        except (ValueError, KeyError, TypeError, IndexError):
            _refuse(self.path, "resume.json is not what a build writes")
            return None
        touch(self.path)
        return resume

    def segment(self) -> Path | None:
        """The entry's index folder once verified (Whoosh then opens a verified copy of it), else None."""
        return self.segment_dir if _segment_ok(self.path, _trusted(self.path)) else None


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
    again. Written to a temporary folder and renamed into place, verified as an Entry is."""

    def __init__(self, key: str = "", root: Path | None = None, path: Path | None = None):
        self.path = path or (root or cache_root()) / f"segment-{key}"

    @property
    def segment_dir(self) -> Path:
        return self.path / "whoosh"

    def ready(self) -> bool:
        return _segment_ok(self.path, _trusted(self.path))

    def save(self, write_segment) -> bool:
        """Write the segment through `write_segment(folder)`; False when the cache cannot be written."""
        return _publish(self.path, lambda tmp: write_segment(tmp / "whoosh"))


SUMS, SUMS_SEAL = "sums.json", "sums.seal"  # every file's [size, SHA-256], and its HMAC (index/seal.py)
_REFUSED: dict[Path, str] = {}  # entries found altered or damaged by this process, and why


def _refuse(folder: Path, why: str) -> None:
    _REFUSED.setdefault(folder, why)


def refusals() -> list[str]:
    """What this process refused of the cache since last asked, one line an entry (the builder's
    caller shows them as warnings)."""
    lines = [f"the build cache entry {folder} is not as this user's rulebase wrote it ({why}); not used, "
             "rebuilt from the sources" for folder, why in _REFUSED.items()]
    _REFUSED.clear()
    return lines


def _trusted(folder: Path, quiet: bool = False) -> dict[str, list] | None:
    """The entry's file list when this user's rulebase sealed it, else None (an absent entry
    quietly; one that is there but unsealed, altered or unreadable is refused, unless `quiet`)."""

    def refuse(why: str) -> None:
        if not quiet:
            _refuse(folder, why)

    try:
        data = (folder / SUMS).read_bytes()
        mark = (folder / SUMS_SEAL).read_text(encoding="ascii")
    except FileNotFoundError:
        if folder.is_dir():
            refuse(f"it has no sealed {SUMS}")
        return None
    except (OSError, UnicodeDecodeError) as exc:
        refuse(f"its {SUMS} is unreadable ({getattr(exc, 'strerror', None) or exc})")
        return None
    if not seal.sealed(_bound(folder.name, data), mark):
        refuse(f"its {SUMS} is not sealed by this user's rulebase under its name: written elsewhere, "
               "altered, or copied from another entry")
        return None
    try:
        sums = json.loads(data)
    except ValueError:
        sums = None
    if not isinstance(sums, dict) or not all(isinstance(v, list) and len(v) == 2 for v in sums.values()):
        refuse(f"its {SUMS} is not what a build writes")
        return None
    return sums


def _digest(path: Path) -> tuple[int, str]:
    digest, size = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest()


def _read_verified(folder: Path, name: str, sums: dict | None) -> bytes | None:
    """The bytes of `name` in the entry when they are what its sealed list says, else None."""
    if sums is None:
        return None
    if name not in sums:
        return None  # an entry without it (an archive's with added releases has no Resume)
    try:
        data = (folder / name).read_bytes()
    except OSError as exc:
        _refuse(folder, f"{name} is unreadable ({exc.strerror})")
        return None
    if [len(data), hashlib.sha256(data).hexdigest()] != sums[name]:
        _refuse(folder, f"{name} differs from its sealed checksum")
        return None
    return data


def _segment_ok(folder: Path, sums: dict | None) -> bool:
    """Whether the entry's Whoosh folder holds exactly the files its sealed list names, each with
    its recorded SHA-256 (a stray _MAIN_2.toc would be the one Whoosh opens)."""
    if sums is None:
        return False
    whoosh = folder / "whoosh"
    try:
        found = {f"whoosh/{p.name}" for p in whoosh.iterdir()}
    except OSError:
        _refuse(folder, "its index folder is missing or unreadable")
        return False
    listed = {name for name in sums if name.startswith("whoosh/")}
    if found != listed or "whoosh/_MAIN_1.toc" not in listed:
        stray = sorted(found - listed) or sorted(listed - found) or ["whoosh/_MAIN_1.toc"]
        _refuse(folder, f"{stray[0]} is {'not in' if stray[0] in found else 'missing from'} its sealed list")
        return False
    for name in sorted(listed):
        try:
            got = list(_digest(folder / name))
        except OSError as exc:
            _refuse(folder, f"{name} is unreadable ({exc.strerror})")
            return False
        if got != sums[name]:
            _refuse(folder, f"{name} differs from its sealed checksum")
            return False
    return True


def copy_verified(whoosh: Path, into: Path) -> None:
    """Copy a cache entry's Whoosh folder (verified by Entry.segment, Entry.load or
    Segment.ready) into `into`, checking every byte against the sealed list again as it is
    copied: what Whoosh then opens is the checked copy, never the cache folder, so a file swapped
    after the check is never read. A mismatch is an IndexError_ (the entry is dropped: the next
    build writes it again)."""
    folder = whoosh.parent
    sums = _trusted(folder)
    try:
        names = sorted(p.name for p in whoosh.iterdir())
        if sums is None or {f"whoosh/{n}" for n in names} != {n for n in sums if n.startswith("whoosh/")}:
            raise ValueError("its files changed")
        into.mkdir(parents=True, exist_ok=True)
        for name in names:
            digest, size = hashlib.sha256(), 0
            with open(whoosh / name, "rb") as source, open(into / name, "wb") as target:
                for block in iter(lambda: source.read(1 << 20), b""):  # noqa: B023 - read before the next file
                    digest.update(block)
                    size += len(block)
                    target.write(block)
            if [size, digest.hexdigest()] != sums[f"whoosh/{name}"]:
                raise ValueError(f"whoosh/{name} changed")
    except (OSError, ValueError) as exc:
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise  # a full disk, said as such by the builder
        shutil.rmtree(folder, ignore_errors=True)
        raise IndexError_(f"a build cache entry changed while it was read ({exc})", str(folder),
                          "run the command again: the entry is written anew") from None


def _publish(path: Path, fill) -> bool:
    """Fill a temporary folder beside `path` (`fill(folder)`), record and seal its files'
    sizes and checksums and rename it into place; False, and nothing left behind, when the cache
    cannot be written.

    Two builds into different index folders can make one entry at once (a first build and an
    add's, each finding it missing). The second to finish keeps the first's: an entry's name is
    its key (the documents' bytes and the code), so an intact one is the same entry, and a build
    may be reading it (replacing it under that reader made it refuse the entry with a warning
    and index those documents again). Publishers take the cache folder's lock for the check and
    the rename; readers take none."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        fill(tmp)
        seal_entry(tmp, path.name)
        with folder_lock(path.parent, lambda exc: exc):
            if _intact(path):
                shutil.rmtree(tmp, ignore_errors=True)
                return True
            shutil.rmtree(path, ignore_errors=True)  # (damaged, unsealed or half there: made again)
            os.replace(tmp, path)
        return True
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        return False


def _intact(folder: Path) -> bool:
    """Whether the entry is there, sealed under its name, and holds exactly the files its sealed
    list names with their sizes and SHA-256 (asked quietly: nothing is refused or reported)."""
    sums = _trusted(folder, quiet=True)
    try:
        return sums is not None and _sums(folder) == sums
    except OSError:
        return False


def _bound(name: str, data: bytes) -> bytes:
    """What an entry's seal covers: its folder's name (which holds its key: the source and the
    digest of the bytes and code it was made from) and its list. An entry copied over another's
    folder (the bundled archive's over the one an `add` made) fails its seal there."""
    return b"rulebase cache entry\0" + name.encode("utf-8", "surrogateescape") + b"\0" + data


def seal_entry(folder: Path, name: str | None = None) -> None:
    """Write the entry's sealed list: every file's size and SHA-256 (SUMS), and its HMAC
    (SUMS_SEAL) bound to the entry's name (`name`: the folder it is renamed to; default its own)."""
    data = json.dumps(_sums(folder), sort_keys=True).encode("utf-8")
    (folder / SUMS).write_bytes(data)
    (folder / SUMS_SEAL).write_text(seal.seal_of(_bound(name or folder.name, data)) + "\n", encoding="ascii")


def _sums(folder: Path) -> dict[str, list]:
    """Every file of the entry (but its list and seal) by relative name: [size, SHA-256]."""
    return {p.relative_to(folder).as_posix(): list(_digest(p)) for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in (SUMS, SUMS_SEAL)}


def read_trusted(folder: Path, name: str) -> bytes | None:
    """A file of a cache folder of another kind (the tournament documents'), its bytes checked
    against the folder's sealed list; None when the folder or the file fails (then it is rebuilt)."""
    return _read_verified(folder, name, _trusted(folder))


def publish(path: Path, fill) -> bool:
    """Fill, seal and publish a cache folder of another kind (`_publish`): False when it cannot be written."""
    return _publish(path, fill)


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


IN_USE = 3600  # seconds: a cache folder used this recently may be another build's, not pruned


def _prune(found, keep: set[Path], spare: int) -> None:
    """Remove the folders `found`, keeping those in `keep`, the `spare` most recently used others
    and any used in the last IN_USE seconds: another build may have chosen it and not yet copied
    it (a build touches its segments, then writes its own index for a while before it copies
    them). Removed under such a build, a segment can be made again by a third one, and the first
    then read one publication's list beside the other's seal: 'not as this user's rulebase wrote
    it', and the segment indexed again."""
    try:
        found = sorted(((p.stat().st_mtime, p) for p in found), reverse=True)
    except OSError:  # one vanished under us (another build pruning): next time
        return
    recent = time.time() - IN_USE
    for used, path in [(used, p) for used, p in found if p not in keep][spare:]:
        if used < recent:
            shutil.rmtree(path, ignore_errors=True)
