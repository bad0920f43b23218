"""Writing a built site into OUT: only a directory we wrote (or an empty one, or with --force), never
through a link out of it, our own stale pages removed.

The marker file lists every file a build wrote with its SHA-256. A file the previous build listed
and this one does not write is deleted only while it still holds the bytes written then: a file
the user changed since, or one a marker names that this tool never wrote (a hand-made or
planted marker; one written before the checksums were listed), is kept, and the build says so.
The marker is sealed (an HMAC under the user's key, index/seal.py, of its text and OUT's real
path, kept in the user's state folder): a marker this user's rulebase did not write there (forged,
edited, copied from another folder) deletes nothing. And only names a site build writes (SITE_NAME: the index, the
credits, terms/ and rules/ pages, assets/) are ever deleted, whatever a marker says.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import re
from collections.abc import Callable
from pathlib import Path

from rulebase.core.errors import UsageError
from rulebase.index import seal

MARKER = ".rulebase-glossary"
MARKER_HEAD = ("# written by 'rulebase glossary build'; the SHA-256 and name of each file it wrote (deleted by the "
               "next build only while it holds those bytes):")
OLD_HEADS = ("# written by 'rulebase glossary build'; files it wrote (deleted on the next build):",)  # names only
SEALS = "glossary-seals"  # under seal.state_dir(): each OUT's marker's HMAC
SITE_NAME = re.compile(r"(index|credits)\.(html|md)|(terms|rules)/[^/\\\x00-\x1f]+\.(html|md)|assets/[\w.-]+\.(js|css)")


def prepare(out: Path, force: bool) -> dict[str, str | None]:
    """Refuse a foreign OUT; create a missing one; return what our previous build wrote there
    (each file's SHA-256, None where the marker does not give one)."""
    try:
        if out.exists() and not out.is_dir():
            raise UsageError(f"{out} exists and is not a directory", hint="give a directory for the glossary")
        if not out.exists():
            out.mkdir(parents=True)
            return {}
        marker = out / MARKER
        if marker.is_file() and not marker.is_symlink():
            text = marker.read_text(encoding="utf-8", errors="replace")
            lines = text.splitlines()
            if lines[:1] == [MARKER_HEAD] or lines[:1] and lines[0] in OLD_HEADS:
                trusted = _sealed(out, text)  # else: OUT is ours to write, but nothing listed is deleted
                return {name: digest if trusted else None for name, digest in
                        (_listed(line) for line in lines[1:] if line and not line.startswith("#"))}
        if any(out.iterdir()) and not force:
            raise UsageError(f"{out} is not empty and was not written by 'rulebase glossary build'",
                             hint="choose a new or empty directory, or pass --force to write into it anyway")
    except OSError as exc:
        raise _unwritable(out, exc) from None
    return {}


def _listed(line: str) -> tuple[str, str | None]:
    digest, sep, name = line.partition("  ")
    if sep and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest):
        return name, digest
    return line, None  # a name alone: nothing says what it held


def _unwritable(out: Path, exc: OSError) -> UsageError:
    return UsageError(f"cannot write the glossary to {out} ({exc.strerror})",
                      hint="choose a directory you can write, outside any file")


def _inside(root: Path, name: str) -> Path:
    path = root / name
    if not name or Path(name).is_absolute() or ".." in Path(name).parts or not path.resolve().is_relative_to(root):
        raise UsageError(f"refusing to write {name!r} outside {root}")
    return path


def _seal_path(key: bytes, out: Path) -> Path:
    where = os.path.realpath(out).encode("utf-8", "surrogateescape")
    return Path(seal.state_dir(), SEALS, hmac.new(key, where, "sha256").hexdigest()[:32] + ".seal")


def _mac(key: bytes, out: Path, text: str) -> str:
    where = os.path.realpath(out).encode("utf-8", "surrogateescape")
    return hmac.new(key, b"rulebase glossary marker\0" + where + b"\0" + text.encode("utf-8", "surrogateescape"),
                    "sha256").hexdigest()


def _sealed(out: Path, text: str) -> bool:
    """Whether this user's rulebase wrote this marker text into this OUT: its seal, kept in the
    user's state folder (not in OUT, so the site's bytes stay the same for every user and folder)."""
    key = seal.user_key()
    if key is None:
        return False
    try:
        held = _seal_path(key, out).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return False
    return hmac.compare_digest(held, _mac(key, out, text))


def _marker_text(digests: dict[str, str | None]) -> str:
    return "\n".join([MARKER_HEAD, *(f"{d}  {n}" if d else n for n, d in sorted(digests.items()))]) + "\n"


def _write_marker(root: Path, digests: dict[str, str | None]) -> None:
    """Write the marker, and its seal beside this user's key (quietly not when the state folder is
    read-only: the next build then deletes nothing it lists, and says so)."""
    text = _marker_text(digests)
    (root / MARKER).write_text(text, encoding="utf-8")
    key = seal.user_key(create=True)
    path = _seal_path(key, root)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        path.write_text(_mac(key, root, text) + "\n", encoding="ascii")


def write(out: Path, files: dict[str, bytes], previous: dict[str, str | None],
          progress: Callable[[str, int, int], None] | None) -> list[str]:
    """Write `files` under OUT, never through a link out of it; delete our own stale pages.
    Returns the stale files kept because they no longer hold (or never held) what we wrote."""
    root = out.resolve()
    names = sorted(files)
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    kept: list[str] = []
    try:
        # first, so a crash mid-way still leaves OUT ours, its old files still listed
        _write_marker(root, {**previous, **digests})
        for stale in sorted(set(previous) - set(files)):
            try:
                path = _inside(root, stale)
            except UsageError:
                continue
            if not SITE_NAME.fullmatch(stale):  # never a name a site build writes: not ours, whatever it says
                if path.is_file() and not path.is_symlink():
                    kept.append(stale)
                continue
            if path.is_symlink() or not path.is_file():
                continue
            if previous[stale] is None or hashlib.sha256(path.read_bytes()).hexdigest() != previous[stale]:
                kept.append(stale)
                continue
            path.unlink()
        for n, name in enumerate(names, 1):
            path = _inside(root, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_symlink():
                path.unlink()
            _inside(root, name).write_bytes(files[name])
            if progress:
                progress("write", n, len(names))
        _write_marker(root, digests)
    except OSError as exc:
        raise _unwritable(out, exc) from None
    return kept
