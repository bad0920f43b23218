"""The library facade: one object the CLI (and any script) talks to.

It knows where the corpus and the index are, builds the index on first use or when the corpus
or the code changed, and hands out the record store and the searcher. It never prints.

Damage is found twice over: `ensure` compares each file's size and time with meta.json (stat
calls only), and a read error while a query runs (SQLite, Whoosh's struct/zlib/EOF errors...)
makes the library check the generation's checksums; when they disagree the index is rebuilt once
and the call answered from the new one.

Where to look: this module holds the Library and where the corpus and index are (with
library/places.py: the folder checks and the status); library/upkeep.py builds on first use
(`ensure`, `build`, `add`, the repair of a damaged index); library/guarded.py opens the store and
the searchers and guards every call into them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cached_property

from rulebase.core.paths import spelled
from rulebase.core.sources import Source, default_corpus_dir, load_manifest
from rulebase.index.generation import Generation, current_generation, default_index_dir
from rulebase.index.integrity import damage as store_damage
from rulebase.index.integrity import verify
from rulebase.library import places
from rulebase.library.guarded import Reading
from rulebase.library.places import Status as Status  # (re-exported: the CLI's `index status`)
from rulebase.library.places import check_directory as check_directory
from rulebase.library.upkeep import Upkeep


class Library(Upkeep, Reading):
    """Where the corpus and the index are (this module, library/places.py); building on first use
    (library/upkeep.py); the guarded store and searchers (library/guarded.py)."""

    def __init__(self, index_dir: str | os.PathLike | None = None, corpus_dir: str | os.PathLike | None = None,
                 typed: bool = False):
        # strings, spelled as pathlib would: a read that finds its index current imports no pathlib
        self.index_dir = spelled(index_dir) if index_dir else default_index_dir()
        self._given = typed  # a folder the user typed (--index, RULEBASE_INDEX): its parent must exist
        self.corpus_dir = spelled(corpus_dir) if corpus_dir else default_corpus_dir()
        self.stale_reason: str | None = None  # set when a stale index is used read-only
        self.notify: Callable[[str], None] | None = None  # told of damage found after ensure()
        self.announce: Callable[[str], None] | None = None  # told where a first build goes (a minute, 100 MB)
        self._generation: Generation | None = None
        self._opened: dict[str, object] = {}  # the store and searcher behind the guarded views
        self._rebuilt = False  # a damaged index is rebuilt once per Library, never in a loop
        self._verified: Generation | None = None  # the generation whose files digests.trusted passed

    @cached_property
    def sources(self) -> list[Source]:
        # lazy: each command loads only what it runs (cold start)
        from rulebase import usercorpus

        bundled = load_manifest(self.corpus_dir)
        return bundled + usercorpus.load_user_sources({s.id for s in bundled})

    def _watched(self) -> list[str]:
        """The manifests: adding or removing a document changes one of them."""
        # lazy: each command loads only what it runs (cold start)
        from rulebase.core.sources import MANIFEST_NAME, user_corpus_dir

        return [os.path.join(self.corpus_dir, MANIFEST_NAME), os.path.join(user_corpus_dir(), MANIFEST_NAME)]

    def spelled_out(self, text: str) -> str:
        """The text with the vocabulary file's abbreviations spelled out ("HCE" -> "hidden card
        error"): how `lookup "IPG HCE"` finds a section titled with the words a judge shortens."""
        return self._vocabulary.spell_out(text)[0]

    @cached_property
    def _vocabulary(self):
        """The vocabulary file, read once (a shorthand is spelled out as typed, then in capitals)."""
        # lazy: only a reference no title matched as typed reads the vocabulary
        from rulebase.search.parlance import VOCABULARY_FILE, load_parlance

        return load_parlance(os.path.join(self.corpus_dir, VOCABULARY_FILE))

    def reload(self) -> None:
        """Forget the sources and the open index: after `rulebase add` or `remove`."""
        for name in ("sources", "store", "searcher", "programs"):
            self.__dict__.pop(name, None)
        self._opened.clear()
        self._generation = None

    def status(self, checksums: bool = True) -> Status:
        """Where the index is and whether it is current. `checksums`: read every file against
        meta.json (what `index status` wants); without, damage is judged from stat calls."""
        # lazy: build code only when an index is built
        from rulebase.build.builder import expected_fingerprint

        places.check_directory(self.index_dir, self._given)
        generation = current_generation(self.index_dir)
        problem = None
        if generation is not None:
            problem = verify(generation) if checksums else store_damage(generation)
        return Status(self.index_dir, generation, expected_fingerprint(self.sources), places.writable(self.index_dir),
                      problem)
