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
from rulebase.store import (
    POINTER,
    Generation,
    RecordStore,
    current_generation,
    default_index_dir,
    leftovers,
    stamp_matches,
)
from rulebase.store import damage as store_damage


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

        bundled = load_manifest(self.corpus_dir)
        return bundled + usercorpus.load_user_sources({s.id for s in bundled})

    def _watched(self) -> list[Path]:
        """The manifests: adding or removing a document changes one of them."""
        from rulebase.sources import MANIFEST_NAME, user_corpus_dir

        return [self.corpus_dir / MANIFEST_NAME, user_corpus_dir() / MANIFEST_NAME]

    def reload(self) -> None:
        """Forget the sources and the open index: after `rulebase add` or `remove`."""
        for name in ("sources", "store", "searcher"):
            self.__dict__.pop(name, None)
        self._generation = None

    def status(self) -> Status:
        from rulebase.builder import expected_fingerprint

        return Status(self.index_dir, current_generation(self.index_dir),
                      expected_fingerprint(self.sources), _writable(self.index_dir))

    def build(self, progress=None, force: bool = True) -> Generation:
        from rulebase.builder import build

        self._generation = build(self.index_dir, self.sources, progress, force=force, watch=self._watched())
        self.__dict__.pop("store", None)
        self.__dict__.pop("searcher", None)
        return self._generation

    def ensure(self, progress=None) -> Generation:
        """The generation to read, building it first if it is missing, stale or damaged.

        Damage (a file missing or truncated, records.db not SQLite) is found by comparing the
        generation with the file sizes its meta.json recorded; it is reported in `stale_reason`
        (the CLI prints it as one warning line) and repaired by rebuilding from the corpus."""
        if self._generation is not None:
            return self._generation
        quick = current_generation(self.index_dir)
        if (quick is not None and stamp_matches(quick.meta.get("stamp"), self._watched())
                and store_damage(quick) is None and not leftovers(self.index_dir)):
            self._generation = quick  # nothing the build read has changed: no need to re-hash
            return quick
        status = self.status()
        generation = status.generation
        if status.writable:
            from rulebase.builder import clean_leftovers

            clean_leftovers(self.index_dir)
        problem = store_damage(generation) if generation is not None else None
        if generation is None and (self.index_dir / POINTER).is_file():
            problem = "its CURRENT pointer names a generation that is missing or unreadable"
        if problem:
            return self._rebuild_damaged(problem, progress)
        if generation is not None and status.current:
            self._generation = generation
            return generation
        if not status.writable:
            if generation is not None:
                self.stale_reason = (f"the index at {self.index_dir} is out of date and the directory is "
                                     "read-only; showing the old index (point --index at a writable "
                                     "directory to rebuild)")
                self._generation = generation
                return generation
            raise IndexError_("no index, and the directory is not writable", str(self.index_dir),
                              "point --index or RULEBASE_INDEX at a writable directory")
        return self.build(progress, force=False)

    def _rebuild_damaged(self, problem: str, progress=None) -> Generation:
        if not _writable(self.index_dir):
            raise IndexError_(f"the index is damaged ({problem}) and the directory is not writable, so it "
                              "cannot be rebuilt here", str(self.index_dir),
                              "point --index or RULEBASE_INDEX at a writable directory")
        self.stale_reason = f"the index at {self.index_dir} is damaged ({problem}); rebuilding from the corpus"
        return self.repair(progress)

    def repair(self, progress=None) -> Generation:
        """Rebuild after a reader found the published generation damaged."""
        self._generation = None
        return self.build(progress, force=True)

    def _open(self, opener):
        """Open part of the index; if it turns out damaged, rebuild once and open it again."""
        try:
            return opener()
        except IndexError_ as exc:
            if self.stale_reason and "damaged" in self.stale_reason:
                raise  # already rebuilt once: do not loop
            self._rebuild_damaged(exc.what)
            return opener()

    @cached_property
    def store(self) -> RecordStore:
        return self._open(lambda: RecordStore(self.ensure().db_path))

    @cached_property
    def searcher(self):
        from rulebase.index import Searcher

        pairs = [(r.title or "", r.aliases) for r in self.store.of_kind("term")]
        return self._open(lambda: Searcher(self.ensure().whoosh_path, pairs))


def _writable(path: Path) -> bool:
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            return False
        probe = probe.parent
    return os.access(probe, os.W_OK | os.X_OK)
