"""Paths on the read path: strings joined by os.path, spelled as pathlib would spell them.

A command that finds its index current imports no pathlib: with its urllib.parse and ipaddress
it cost 5 ms of every cold command (CPU time, `import pathlib` beside the same imports without
it, medians of 41), about a tenth of a cold `lookup`. The build and the parsers, which run for
seconds, keep pathlib.
"""

from __future__ import annotations

import os


def spelled(path: str | os.PathLike) -> str:
    """`path` as str(Path(path)) writes it: no doubled or trailing slash and no "." part, ".."
    kept (a lexical ".." would step out of a symbolic link's target). Messages and the inputs
    recorded by a build name a folder the same way whichever side made its string."""
    text = os.fspath(path)
    lead = "//" if text.startswith("//") and not text.startswith("///") else "/" if text.startswith("/") else ""
    return lead + "/".join(part for part in text.split("/") if part and part != ".") or "."


def parent(path: str) -> str:
    """The folder holding `path` (a path as `spelled` writes it), as Path.parent gives it."""
    return os.path.dirname(path) or "."


def user_folder(variable: str, fallback: str) -> str:
    """rulebase's folder in one of the user's XDG base folders: $`variable`/rulebase, else
    ~/`fallback`/rulebase ("XDG_DATA_HOME", ".local/share": the index and the added documents;
    "XDG_STATE_HOME", ".local/state": the signing key and what is kept beside it)."""
    base = os.environ.get(variable) or os.path.join(os.path.expanduser("~"), *fallback.split("/"))
    return spelled(os.path.join(base, "rulebase"))


def read_bytes(path: str | os.PathLike, limit: int = -1) -> bytes:
    """The file's bytes (the first `limit` of them), as Path.read_bytes."""
    with open(path, "rb") as handle:
        return handle.read(limit)


def package_parent() -> str:
    """The folder holding the rulebase package: a source checkout's root (corpus/, index/)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
