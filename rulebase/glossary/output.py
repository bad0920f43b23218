"""Writing a built site into OUT: only a directory we wrote (or an empty one, or with --force), never
through a link out of it, our own stale pages removed (the marker file lists what we wrote)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rulebase.core.errors import UsageError

MARKER = ".rulebase-glossary"
MARKER_HEAD = "# written by 'rulebase glossary build'; files it wrote (deleted on the next build):"


def prepare(out: Path, force: bool) -> list[str]:
    """Refuse a foreign OUT; create a missing one; return what our previous build wrote there."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} exists and is not a directory", hint="give a directory for the glossary")
    if not out.exists():
        out.mkdir(parents=True)
        return []
    marker = out / MARKER
    if marker.is_file() and not marker.is_symlink():
        lines = marker.read_text(encoding="utf-8", errors="replace").splitlines()
        if lines[:1] == [MARKER_HEAD]:
            return lines[1:]
    if any(out.iterdir()) and not force:
        raise UsageError(f"{out} is not empty and was not written by 'rulebase glossary build'",
                         hint="choose a new or empty directory, or pass --force to write into it anyway")
    return []


def _inside(root: Path, name: str) -> Path:
    path = root / name
    if not name or Path(name).is_absolute() or ".." in Path(name).parts or not path.resolve().is_relative_to(root):
        raise UsageError(f"refusing to write {name!r} outside {root}")
    return path


def write(out: Path, files: dict[str, bytes], previous: list[str], progress: Callable[[str, int, int], None] | None) -> None:
    """Write `files` under OUT, never through a link out of it; delete our own stale pages."""
    root = out.resolve()
    names = sorted(files)
    (root / MARKER).write_text("\n".join([MARKER_HEAD, *sorted(set(names) | set(previous))]) + "\n",
                               encoding="utf-8")  # first, so a crash mid-way still leaves OUT ours
    for stale in sorted(set(previous) - set(files)):
        try:
            path = _inside(root, stale)
        except UsageError:
            continue
        if path.is_symlink() or path.is_file():
            path.unlink()
    for n, name in enumerate(names, 1):
        path = _inside(root, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink():
            path.unlink()
        _inside(root, name).write_bytes(files[name])
        if progress:
            progress("write", n, len(names))
    (root / MARKER).write_text("\n".join([MARKER_HEAD, *names]) + "\n", encoding="utf-8")
