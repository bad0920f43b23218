"""The global options' values for one invocation (--index, --traceback), and the library they
open: set by the root callback, updated by the same options given after the command (usage.py).
"""

from __future__ import annotations

from pathlib import Path


class State:
    def __init__(self, index: Path | None, traceback: bool):
        self.index = index
        self.traceback = traceback
        self._library = None

    def override(self, index: Path | None = None, traceback: bool = False) -> None:
        """Global options given after the command: they win over those before it."""
        if index is not None:
            self.index, self._library = index, None
        self.traceback = self.traceback or traceback

    def library(self):
        if self._library is None:
            # lazy: each command loads only what it runs (cold start)
            from rulebase.library import Library

            self._library = Library(self.index, typed=self.index is not None)  # (--index or RULEBASE_INDEX)
            self._library.notify = _warn  # what a build refused or repaired: one line each, on stderr
        return self._library


def _warn(message: str) -> None:
    # lazy: each command loads only what it runs (cold start)
    import sys

    from rulebase.cli.plain import printable

    print(printable(f"warning: {message}"), file=sys.stderr)


_STATE = State(None, False)  # replaced by the root callback on every invocation


def start(index: Path | None, traceback: bool) -> State:
    """A new invocation's state (the root callback, before any command's options)."""
    global _STATE
    _STATE = State(index, traceback)
    return _STATE


def current() -> State:
    return _STATE
