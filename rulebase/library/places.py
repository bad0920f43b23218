"""Where the index is, and whether it can be written: the checks every command makes before it
reads or builds, and the status `rulebase index status` reports."""

from __future__ import annotations

import os

from rulebase.core.errors import IndexError_
from rulebase.core.paths import parent
from rulebase.core.value import Frozen
from rulebase.index.generation import Generation


class Status(Frozen):
    __slots__ = ("index_dir", "generation", "expected", "writable", "problem")

    def __init__(self, index_dir: str, generation: Generation | None, expected: str, writable: bool,
                 problem: str | None = None):
        object.__setattr__(self, "index_dir", index_dir)
        object.__setattr__(self, "generation", generation)
        object.__setattr__(self, "expected", expected)
        object.__setattr__(self, "writable", writable)
        object.__setattr__(self, "problem", problem)  # damage found (a damaged index is never current)

    @property
    def current(self) -> bool:
        return (self.generation is not None and self.problem is None
                and self.generation.fingerprint == self.expected)


def check_directory(index_dir: str, given: bool = False) -> None:
    """Raise IndexError_ when the index path is a file or lies inside one (`--index notes.txt`
    used to be refused as 'no index, and the directory is not writable'), or, for a path the user
    gave (`given`), when the folder it would go in does not exist: a mistyped `--index
    /nonexistent/x` made that folder and built 150 MB there."""
    if given and not os.path.exists(index_dir) and not os.path.exists(parent(index_dir)):
        raise IndexError_(f"no such folder {parent(index_dir)}", index_dir,
                          "give --index (or RULEBASE_INDEX) a folder that exists or a new one inside an existing "
                          "folder (it is created there)")
    probe = index_dir
    while not os.path.isdir(probe):
        if os.path.exists(probe):
            hint = "point --index or RULEBASE_INDEX at a directory (one that does not exist yet is created)"
            if probe == index_dir:
                raise IndexError_("is a file, not a directory", index_dir, hint)
            raise IndexError_(f"not a directory: {probe} is a file", index_dir, hint)
        if parent(probe) == probe:
            return
        probe = parent(probe)


def ago(seconds: float) -> str:
    return f"{int(seconds)} s ago" if seconds < 90 else f"{round(seconds / 60)} minutes ago"


def writable(path: str) -> bool:
    """Whether the index can be built at `path`: its nearest existing folder is ours to write."""
    probe = path
    while not os.path.exists(probe):
        if parent(probe) == probe:
            return False
        probe = parent(probe)
    return os.access(probe, os.W_OK | os.X_OK)
