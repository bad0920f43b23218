"""The library facade: one object the CLI (and any script) talks to.

It knows where the corpus and the index are, builds the index on first use or when the corpus
or the code changed, and hands out the record store and the searcher. It never prints.

Damage is found twice over: `ensure` compares each file's size and time with meta.json (stat
calls only), and a read error while a query runs (SQLite, Whoosh's struct/zlib/EOF errors...)
makes the library check the generation's checksums; when they disagree the index is rebuilt once
and the call answered from the new one.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from rulebase.core.errors import (
    BuildExhausted,
    DamagedData,
    DiskFull,
    IndexBusy,
    IndexError_,
    ManifestError,
    RulebaseError,
    SourceError,
    Unreadable,
    UsageError,
)
from rulebase.core.locking import held
from rulebase.core.sources import Source, default_corpus_dir, load_manifest
from rulebase.index import digests
from rulebase.index.generation import (
    FAILED_FOR,
    POINTER,
    Failure,
    Generation,
    current_generation,
    default_index_dir,
    leftovers,
    recent_failure,
    refuse_foreign,
    remember_failure,
    stamp_matches,
)
from rulebase.index.integrity import damage as store_damage
from rulebase.index.integrity import verify
from rulebase.index.store import RecordStore

ADD_NICENESS = 10  # an add's build yields the CPU to the reads it runs beside (2 cores, a build uses both)
CORPUS_RETRIES = 3  # builds in a row whose corpus changed under them before the last one stands
SOURCES_HINT = "fix or 'rulebase remove' the document it names, then run 'rulebase index build'"


@dataclass(frozen=True, slots=True)
class Status:
    index_dir: Path
    generation: Generation | None
    expected: str
    writable: bool
    problem: str | None = None  # damage found (a damaged index is never current)

    @property
    def current(self) -> bool:
        return (self.generation is not None and self.problem is None
                and self.generation.fingerprint == self.expected)


class Library:
    def __init__(self, index_dir: Path | None = None, corpus_dir: Path | None = None, typed: bool = False):
        self.index_dir = Path(index_dir) if index_dir else default_index_dir()
        self._given = typed  # a folder the user typed (--index, RULEBASE_INDEX): its parent must exist
        self.corpus_dir = Path(corpus_dir) if corpus_dir else default_corpus_dir()
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

    def _watched(self) -> list[Path]:
        """The manifests: adding or removing a document changes one of them."""
        # lazy: each command loads only what it runs (cold start)
        from rulebase.core.sources import MANIFEST_NAME, user_corpus_dir

        return [self.corpus_dir / MANIFEST_NAME, user_corpus_dir() / MANIFEST_NAME]

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

        check_directory(self.index_dir, self._given)
        generation = current_generation(self.index_dir)
        problem = None
        if generation is not None:
            problem = verify(generation) if checksums else store_damage(generation)
        return Status(self.index_dir, generation, expected_fingerprint(self.sources), _writable(self.index_dir),
                      problem)

    def build(self, progress=None, force: bool = True, wait: bool = True, locked: bool = False) -> Generation:
        """Build for the corpus as it is; if an add or remove changed it meanwhile, again.

        The manifests are read before the build hashes and parses the files, so a concurrent
        `rulebase remove` can delete a file this build still lists (a "file not found"), or
        change the manifest after it was read (a generation of yesterday's corpus). Either way the
        sources are read again and, when they differ, built again: at most CORPUS_RETRIES times,
        each a second or two, as only the changed document is indexed anew."""
        # lazy: build code only when an index is built
        from rulebase.build.builder import build

        check_directory(self.index_dir, self._given)
        try:
            for attempt in range(1, CORPUS_RETRIES + 1):
                sources = self.sources
                try:
                    self._generation = _exhaustion_said(build, self.index_dir, sources, progress, force=force,
                                                        watch=self._watched(), wait=wait, locked=locked)
                except SourceError:
                    if not self._corpus_changed(sources) or attempt == CORPUS_RETRIES:
                        raise  # the corpus did not move under the build: the error is the file's
                    continue
                if not self._corpus_changed(sources) or attempt == CORPUS_RETRIES:
                    break
        finally:
            self._tell_refusals()
        self._opened.clear()
        self.__dict__.pop("programs", None)  # (read from the generation just built)
        return self._generation

    def _tell_refusals(self) -> None:
        """Say which build cache entries the build refused (altered, damaged, not this user's)."""
        # lazy: build code only when an index is built
        from rulebase.build.cache import refusals

        for line in refusals():
            if self.notify is not None:
                self.notify(line)

    def add(self, paths: list[Path], fmt: str | None = None, edition: str | None = None,
            doc_id: str | None = None, progress=None) -> tuple[list, Generation]:
        """`rulebase add`: store the documents (usercorpus.add_documents), then build. A build the
        documents themselves make fail (a SourceError or UsageError: what the checks before
        storing could not see) takes them out again: a document that cannot be built is not kept,
        and the last good index keeps answering. A build that fails for want of space or a
        writable index keeps them (the next build with room takes them in)."""
        # lazy: each command loads only what it runs (cold start)
        from rulebase import usercorpus
        from rulebase.build.builder import build_lock
        from rulebase.index.generation import claim

        checked = usercorpus.check_documents(paths, fmt, edition, doc_id)  # (a bad file touches no index folder)
        with contextlib.ExitStack() as held_lock:
            try:  # held from before the manifest changes: a read meanwhile answers from the last generation
                claim(self.index_dir)  # (instead of starting a build of its own, 40-80 s, before ours takes the lock)
                held_lock.enter_context(build_lock(self.index_dir))
                locked = True
            except IndexError_:
                locked = False  # not writable: stored now, built on next use of a writable --index (below)
            return self._add_locked(usercorpus, paths, fmt, edition, doc_id, progress, locked, checked)

    def _add_locked(self, usercorpus, paths, fmt, edition, doc_id, progress, locked: bool,
                    checked: list) -> tuple[list, Generation]:
        added = usercorpus.add_documents(paths, self.sources, fmt, edition, doc_id, checked=checked)
        self.reload()
        with contextlib.suppress(OSError):  # reads during the build (the last generation) come first on the cores
            os.nice(ADD_NICENESS)
        try:
            return added, self.build(progress, force=False, locked=locked)
        except (SourceError, UsageError) as exc:
            for one in added:
                usercorpus.remove_document(one.source.id, self.sources)
                self.reload()
            them = "it" if len(added) == 1 else "them"
            raise UsageError(f"{', '.join(map(str, paths))} not added: the index cannot be built with {them} "
                             f"({exc.message})", hint="nothing was kept; the index answers as before") from None
        except RulebaseError as exc:
            raise IndexError_(f"added {', '.join(a.source.id for a in added)}, but the index was not rebuilt: "
                              f"{exc.message}", hint="it rebuilds on next use of a writable --index") from None

    def _corpus_changed(self, sources: list[Source]) -> bool:
        """Whether the manifests now list other sources than `sources` (re-read, as `reload`)."""
        self.__dict__.pop("sources", None)
        return self.sources != sources

    def ensure(self, progress=None) -> Generation:
        """The generation to read, building it first if it is missing, stale or damaged.

        Damage (a file missing, truncated or rewritten, records.db not SQLite, CURRENT or
        meta.json garbled) is found by comparing the generation with the sizes and times its
        meta.json recorded (stat calls; a changed time alone is settled by the file's CRC); it is
        reported in `stale_reason` (the CLI prints it as one warning line) and repaired by
        rebuilding from the corpus. A folder that is not an index is refused untouched; a full
        disk while rebuilding a stale index leaves the old one answering, with a warning."""
        if self._generation is not None:
            return self._generation
        quick = current_generation(self.index_dir)
        if (quick is not None and stamp_matches(quick.meta.get("stamp"), self._watched())
                and store_damage(quick) is None and not leftovers(self.index_dir)):
            self._generation = quick  # nothing the build read has changed: no need to re-hash
            return quick
        check_directory(self.index_dir, self._given)  # a file named by --index: said so, not 'not writable'
        refuse_foreign(self.index_dir)  # the user's own folder: never read, cleaned or built into
        status = self.status(checksums=False)
        generation = status.generation
        if status.writable:
            # lazy: build code only when an index is built
            from rulebase.build.builder import clean_leftovers

            clean_leftovers(self.index_dir)
        problem = status.problem
        if generation is None and (self.index_dir / POINTER).is_file():
            problem = "its CURRENT pointer names a generation that is missing or unreadable"
        elif generation is None and any(self.index_dir.glob("gen-*/meta.json")):
            problem = "its CURRENT pointer is missing, beside built generations"  # deleted: not a first build
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
        failed = recent_failure(self.index_dir, fingerprint=status.expected)
        if failed is not None:  # a full disk a minute ago, or these sources: say so, do not fail again
            if generation is None:
                raise self._failed(failed)
            self.stale_reason = (f"the index at {self.index_dir} is out of date and its rebuild {_ago(failed[1])} "
                                 f"failed ({failed[0]}); showing the old index - {failed[2]}")
            self._generation = generation
            return generation
        if generation is not None and held(self.index_dir):
            # another command is building (an add, a remove): the last good generation answers
            # now rather than after that build (3-26 s); the command that changed the corpus waits
            self.stale_reason = (f"the index at {self.index_dir} is being rebuilt by another command; answering "
                                 "from the previous build")
            self._generation = generation
            return generation
        if generation is None and self.announce is not None and all(
                path.is_file() for source in self.sources for path in source.paths):  # (else: its one-line error)
            self.announce(f"building the index in {self.index_dir} (first use: a few minutes)")
        try:
            return self.build(progress, force=False, wait=generation is None)
        except IndexBusy:  # an add took the lock since held() was asked: its build answers later, this read now
            self.stale_reason = (f"the index at {self.index_dir} is being rebuilt by another command; answering "
                                 "from the previous build")
            self._generation = generation
            return generation
        except DiskFull as exc:
            if generation is None:
                raise
            self.stale_reason = (f"the index at {self.index_dir} is out of date and could not be rebuilt "
                                 f"(no space left: {exc.what.rpartition('(')[2].rstrip(')')}); showing the old index")
            self._generation = generation
            return generation
        except (SourceError, UsageError, ManifestError) as exc:
            if generation is None:
                raise
            # the corpus as it stands cannot be built (a stored copy changed, a manifest edited):
            # the last good index answers, and reads do not try again until the sources change
            remember_failure(self.index_dir, exc.message, fingerprint=status.expected, hint=SOURCES_HINT)
            self.stale_reason = (f"the index at {self.index_dir} is out of date and could not be rebuilt "
                                 f"({exc.message}); showing the old index - {SOURCES_HINT}")
            self._generation = generation
            return generation

    def _failed(self, failed: Failure, problem: str | None = None) -> IndexError_:
        """The one-line error of a read that needs a build while the last one failed recently."""
        what = f"the index is damaged ({problem}) and " if problem else "no index: "
        until = "until the sources change" if failed.lasting else f"for {FAILED_FOR // 60} minutes"
        return IndexError_(f"{what}the last build, {_ago(failed[1])}, failed: {failed[0]}; not retried {until}",
                           str(self.index_dir), failed.hint)

    def _rebuild_damaged(self, problem: str, progress=None, late: bool = False) -> Generation:
        """Rebuild a damaged index once. `late`: found while reading, after ensure() returned
        (and after the CLI printed its warnings), so `notify` is told."""
        if not _writable(self.index_dir):
            refused = IndexError_(f"the index is damaged ({problem}) and the directory is not writable, so it "
                                  "cannot be rebuilt here", str(self.index_dir),
                                  "point --index or RULEBASE_INDEX at a writable directory")
            refused.final = True  # (said once: a searcher opening the store that refused is not damage again)
            raise refused
        failed = recent_failure(self.index_dir)
        if failed is not None:
            raise self._failed(failed, problem)
        self.stale_reason = f"the index at {self.index_dir} is damaged ({problem}); rebuilding from the corpus"
        self._rebuilt = True
        if late and self.notify is not None:
            self.notify(self.stale_reason)
        return self.repair(progress)

    def repair(self, progress=None) -> Generation:
        """Rebuild after a reader found the published generation damaged."""
        self._generation = None
        return self.build(progress, force=True)

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
        return Searcher(self._trusted().whoosh_path, pairs, self.corpus_dir / VOCABULARY_FILE)

    def _open_card_searcher(self):
        """The cards' own index (build/builder.py): searched with the same Searcher and scorer."""
        # lazy: a lookup never loads Whoosh
        from rulebase.search.searcher import Searcher

        generation = self._trusted()
        if not generation.cards_path.is_dir():
            raise UsageError("this corpus holds no cards", hint="search the rules without --kind card")
        return Searcher(generation.cards_path, [])

    def _open_ruling_searcher(self):
        """The cards' rulings' own index (build/builder.py), searched as the cards' is."""
        # lazy: a lookup never loads Whoosh
        from rulebase.index import seal
        from rulebase.search.searcher import Searcher

        generation = self.ensure()
        if not generation.rulings_path.is_dir():
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
        (search/register.py), read once."""
        from rulebase.search.register import current_programs  # lazy: only a search reads it

        return current_programs(self.store)

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

    def __init__(self, library: Library, name: str):
        self._library = library
        self._name = name

    def __getattr__(self, attr: str):
        value = getattr(self._library._open(self._name), attr)
        if not callable(value):
            return value
        library, name = self._library, self._name
        return lambda *args, **kwargs: library._call(name, attr, args, kwargs)


def _exhaustion_said(build, index_dir: Path, *args, **kwargs) -> Generation:
    """`build(index_dir, ...)`, its running out of memory or losing a worker (killed: the OOM
    killer) said as BuildExhausted, one line, instead of 'internal error: BrokenProcessPool'."""
    # lazy: only a build needs it
    from rulebase.core.pool import exhausted

    try:
        return build(index_dir, *args, **kwargs)
    except RulebaseError:
        raise
    except BaseException as exc:
        if not exhausted(exc):
            raise
        raise BuildExhausted("building the index ran out of memory or a build process was killed "
                             f"({type(exc).__name__})", str(index_dir),
                             "free memory, or set RULEBASE_WORKERS=1, and run the command again") from None


def check_directory(index_dir: Path, given: bool = False) -> None:
    """Raise IndexError_ when the index path is a file or lies inside one (`--index notes.txt`
    used to be refused as 'no index, and the directory is not writable'), or, for a path the user
    gave (`given`), when the folder it would go in does not exist: a mistyped `--index
    /nonexistent/x` made that folder and built 150 MB there."""
    if given and not index_dir.exists() and not index_dir.parent.is_dir() and not index_dir.parent.exists():
        raise IndexError_(f"no such folder {index_dir.parent}", str(index_dir),
                          "give --index (or RULEBASE_INDEX) a folder that exists or a new one inside an existing "
                          "folder (it is created there)")
    probe = index_dir
    while not probe.is_dir():
        if probe.exists():
            hint = "point --index or RULEBASE_INDEX at a directory (one that does not exist yet is created)"
            if probe == index_dir:
                raise IndexError_("is a file, not a directory", str(index_dir), hint)
            raise IndexError_(f"not a directory: {probe} is a file", str(index_dir), hint)
        if probe.parent == probe:
            return
        probe = probe.parent


def _ago(seconds: float) -> str:
    return f"{int(seconds)} s ago" if seconds < 90 else f"{round(seconds / 60)} minutes ago"


def _writable(path: Path) -> bool:
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            return False
        probe = probe.parent
    return os.access(probe, os.W_OK | os.X_OK)
