"""The guarded store and searchers: what a read calls, repaired when a read finds damage.

Callers get views (_Guarded) that forward every call through Library._call: a read error that is
not ours to report (SQLite, Whoosh's struct/zlib/EOF errors...) makes the library check the
generation's checksums; when they disagree the index is rebuilt once and the call made again on
the new one. Nothing is opened before its seal and keyed digests are checked (_trusted).
"""

from __future__ import annotations

import os
from functools import cached_property

from rulebase.core.eras import today
from rulebase.core.errors import (
    DamagedData,
    IndexError_,
    RulebaseError,
    Unreadable,
    UsageError,
)
from rulebase.index import digests
from rulebase.index.generation import (
    Generation,
)
from rulebase.index.integrity import verify
from rulebase.index.store import RecordStore


class Reading:
    """The reading half of Library (rulebase/library/__init__.py): opens the store and the
    searchers of the generation `ensure` (library/upkeep.py) returns."""

    def _open(self, name: str):
        """The open store or searcher; if opening finds it damaged, rebuild once and open again."""
        if name not in self._opened:
            opener = {"store": self._open_store, "searcher": self._open_searcher,
                      "cards": self._open_card_searcher, "rulings": self._open_ruling_searcher}[name]
            try:
                self._opened[name] = opener()
            except IndexError_ as exc:
                if self._rebuilt or isinstance(exc, Unreadable) or getattr(exc, "final", False):
                    raise  # already rebuilt once: do not loop; the user's permissions, not damage; or said
                self._rebuild_damaged(exc.what, late=True)
                self._opened[name] = opener()
        return self._opened[name]

    def _trusted(self) -> Generation:
        """The generation to read, once its seal and every file's keyed digest are checked
        (digests.py): before SQLite or Whoosh opens any of its files, once per Library."""
        generation = self.ensure()
        if self._verified is not generation:
            distrust = digests.trusted(generation.path, generation.meta)
            if distrust is not None:
                raise IndexError_(distrust, str(generation.path))
            self._verified = generation
        return generation

    def _open_store(self) -> RecordStore:
        return RecordStore(self._trusted().db_path)

    def _open_searcher(self):
        # lazy: a lookup never loads Whoosh
        from rulebase.search.parlance import VOCABULARY_FILE
        from rulebase.search.searcher import Searcher

        pairs = [(r.title or "", r.aliases) for r in self.store.of_kind("term")]
        return Searcher(self._trusted().whoosh_path, pairs, os.path.join(self.corpus_dir, VOCABULARY_FILE))

    def _open_card_searcher(self):
        """The cards' own index (build/builder.py): searched with the same Searcher and scorer."""
        # lazy: a lookup never loads Whoosh
        from rulebase.search.searcher import Searcher

        generation = self._trusted()
        if not os.path.isdir(generation.cards_path):
            raise UsageError("this corpus holds no cards", hint="search the rules without --kind card")
        return Searcher(generation.cards_path, [])

    def _open_ruling_searcher(self):
        """The cards' rulings' own index (build/builder.py), searched as the cards' is."""
        # lazy: a lookup never loads Whoosh
        from rulebase.index import seal
        from rulebase.search.searcher import Searcher

        generation = self.ensure()
        if not os.path.isdir(generation.rulings_path):
            raise UsageError("this corpus holds no card rulings", hint="search the rules without --kind card-ruling")
        distrust = seal.problem(generation.path, generation.meta)  # before Whoosh unpickles anything
        if distrust is not None:
            raise IndexError_(distrust, str(generation.path))
        return Searcher(generation.rulings_path, [])

    def _call(self, name: str, attr: str, args: tuple, kwargs: dict):
        """One call into the store or searcher. A failure that is not ours to report (not a
        RulebaseError) while reading is damage when the generation no longer matches its
        checksums: rebuild once, then make the call again on the new generation."""
        target = self._open(name)
        try:
            return getattr(target, attr)(*args, **kwargs)
        except DamagedData as exc:
            if self._rebuilt or target not in self._opened.values():
                raise
            self._rebuild_damaged(exc.what, late=True)
        except RulebaseError:
            raise
        except Exception as exc:
            if not self._recovered(exc, target):
                raise
        return getattr(self._open(name), attr)(*args, **kwargs)

    def _recovered(self, exc: Exception, target: object) -> bool:
        if target not in self._opened.values():
            return True  # opened before a rebuild that already happened: try the new one
        if self._rebuilt or self._generation is None:
            return False
        problem = verify(self._generation)
        if problem is None and not (self._generation.meta.get("integrity") or {}):
            problem = f"reading it failed: {type(exc).__name__}"  # no checksums to ask (an older build)
        if problem is None:
            return False  # the files are as built: a bug, not damage, and a rebuild would not help
        self._rebuild_damaged(problem, late=True)
        return True

    @cached_property
    def store(self) -> RecordStore:
        return _Guarded(self, "store")  # type: ignore[return-value] - forwards every RecordStore method

    @cached_property
    def searcher(self):
        return _Guarded(self, "searcher")

    @cached_property
    def programs(self) -> dict[str, str]:
        """The Rules Enforcement Level of each tournament program, as the MTR in force says
        (its Appendix F, read at build time: index/tables.py), read once."""
        return self.searcher.tables.programs(today())

    @cached_property
    def card_searcher(self):
        """The cards' index, searched as the rules' is (`search --kind card`)."""
        return _Guarded(self, "cards")

    @cached_property
    def ruling_searcher(self):
        """The cards' rulings' index (`search --kind card-ruling`, and beside the rules)."""
        return _Guarded(self, "rulings")


class _Guarded:
    """The store or searcher as callers see it: attributes read through, method calls go through
    Library._call, so a read error anywhere in a query can still be repaired and answered."""

    __slots__ = ("_library", "_name")

    def __init__(self, library: Reading, name: str):
        self._library = library
        self._name = name

    def __getattr__(self, attr: str):
        value = getattr(self._library._open(self._name), attr)
        if not callable(value):
            return value
        library, name = self._library, self._name
        return lambda *args, **kwargs: library._call(name, attr, args, kwargs)
