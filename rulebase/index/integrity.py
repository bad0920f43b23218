"""Whether a published generation can be trusted: every file's size, modification time and
CRC-32 are recorded in meta.json at build time and checked by readers (a stat call a file) and by
`index status` (every byte).
"""

from __future__ import annotations

import os
import zlib

from rulebase.index.generation import Generation
from rulebase.index.store import SQLITE_MAGIC, unreadable

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path


def file_sizes(root: Path) -> dict[str, int]:
    """Every file of a generation and its size, recorded in meta.json at build time."""
    return {p.relative_to(root).as_posix(): p.stat().st_size for p in sorted(root.rglob("*")) if p.is_file()
            and p.name != "meta.json"}


def file_checks(root: Path) -> dict[str, list[int]]:
    """Every file's modification time and CRC-32, recorded in meta.json at build time: damage
    that keeps a file's size (a garbled page, a zeroed file) changes its time, which readers see
    from the same stat call as the size; the CRC tells a copy that lost the times (cp without -p)
    from damage, and finds bit rot in `index status`."""
    return {p.relative_to(root).as_posix(): [p.stat().st_mtime_ns, _crc(p)] for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "meta.json"}


def _crc(path: str | Path) -> int:
    crc = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            crc = zlib.crc32(chunk, crc)
    return crc


def damage(generation: Generation) -> str | None:
    """Why a published generation cannot be trusted (meta.json wrong, a file missing, truncated,
    rewritten or not SQLite), or None. Costs a stat call per file: every reader runs it. A file
    whose time alone changed (a copy that did not keep times) is hashed once and, when its CRC
    still matches, given its recorded time back so the next reader is quick again."""
    if generation.problem:
        return generation.problem
    db = generation.db_path
    try:
        with open(db, "rb") as handle:
            if handle.read(16) != SQLITE_MAGIC:
                return "records.db is not an SQLite database"
    except FileNotFoundError:
        return "records.db is missing"
    except PermissionError as exc:  # not damage (a rebuild would hide it): the user's to fix
        raise unreadable(db, exc) from None
    except OSError as exc:
        return f"records.db is unreadable ({exc.strerror})"
    checks = generation.meta.get("integrity") or {}
    root = os.fspath(generation.path)
    for name, size in (generation.meta.get("files") or {}).items():
        path = os.path.join(root, name)  # (a string, not a Path: every command runs this loop)
        try:
            st = os.stat(path)
        except OSError:
            return f"{name} is missing"
        if st.st_size != size:
            return f"{name} is {st.st_size} bytes, expected {size}"
        if name in checks and st.st_mtime_ns != checks[name][0]:
            problem = _changed(path, name, checks[name][1])
            if problem:
                return problem
            try:
                os.utime(path, ns=(st.st_atime_ns, checks[name][0]))
            except OSError:  # read-only: hashed again next time, still correct
                continue
    return None


def verify(generation: Generation) -> str | None:
    """`damage`, plus every file's CRC against meta.json: what `index status` and a reader that hit
    a read error run (it reads the whole generation once)."""
    problem = damage(generation)
    if problem:
        return problem
    for name, (_, crc) in (generation.meta.get("integrity") or {}).items():
        problem = _changed(os.path.join(generation.path, name), name, crc)
        if problem:
            return problem
    return None


def _changed(path: str, name: str, crc: int) -> str | None:
    try:
        if _crc(path) == crc:
            return None
    except OSError as exc:
        return f"{name} is unreadable ({exc.strerror})"
    return f"{name} was changed since it was built (checksum mismatch)"
