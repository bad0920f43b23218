"""The library facade: one object the CLI (and any script) talks to.

It knows where the corpus and the index are, builds the index on first use or when the corpus
or the code changed, and hands out the record store and the searcher. It never prints.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from rulebase.errors import IndexError_
from rulebase.sources import Source, default_corpus_dir, load_manifest
from rulebase.store import Generation, RecordStore, current_generation, default_index_dir


@dataclass(frozen=True, slots=True)
class Status:
    index_dir: Path
    generation: Generation | None
    expected: str
    writable: bool

    @property
    def current(self) -> bool:
        return self.generation is not None and self.generation.fingerprint == self.expected


class Library:
    def __init__(self, index_dir: Path | None = None, corpus_dir: Path | None = None):
        self.index_dir = Path(index_dir) if index_dir else default_index_dir()
        self.corpus_dir = Path(corpus_dir) if corpus_dir else default_corpus_dir()
        self.stale_reason: str | None = None  # set when a stale index is used read-only
        self._generation: Generation | None = None

    @cached_property
    def sources(self) -> list[Source]:
        from rulebase import usercorpus

        return load_manifest(self.corpus_dir) + usercorpus.load_user_sources()

    def status(self) -> Status:
        from rulebase.builder import expected_fingerprint

        return Status(self.index_dir, current_generation(self.index_dir),
                      expected_fingerprint(self.sources), _writable(self.index_dir))

    def build(self, progress=None, force: bool = True) -> Generation:
        from rulebase.builder import build

        self._generation = build(self.index_dir, self.sources, progress, force=force)
        self.__dict__.pop("store", None)
        self.__dict__.pop("searcher", None)
        return self._generation

    def ensure(self, progress=None) -> Generation:
        """The generation to read, building it first if it is missing, stale or damaged."""
        if self._generation is not None:
            return self._generation
        status = self.status()
        generation = status.generation
        if generation is not None and status.current and generation.db_path.is_file():
            self._generation = generation
            return generation
        if not status.writable:
            if generation is not None and generation.db_path.is_file():
                self.stale_reason = (f"the index at {self.index_dir} is out of date and the directory is "
                                     "read-only; showing the old index (point --index at a writable "
                                     "directory to rebuild)")
                self._generation = generation
                return generation
            raise IndexError_("no index, and the directory is not writable", str(self.index_dir),
                              "point --index or RULEBASE_INDEX at a writable directory")
        return self.build(progress, force=False)

    def repair(self, progress=None) -> Generation:
        """Rebuild after a reader found the published generation damaged."""
        self._generation = None
        return self.build(progress, force=True)

    @cached_property
    def store(self) -> RecordStore:
        return RecordStore(self.ensure().db_path)

    @cached_property
    def searcher(self):
        from rulebase.index import Searcher

        pairs = [(r.title or "", r.aliases) for r in self.store.of_kind("term")]
        return Searcher(self.ensure().whoosh_path, pairs)


def _writable(path: Path) -> bool:
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            return False
        probe = probe.parent
    return os.access(probe, os.W_OK | os.X_OK)
