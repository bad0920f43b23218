"""Building on first use: the index a read needs, built when it is missing, stale or damaged.

`ensure` answers most reads from stat calls alone (the manifests' stamp, the generation's sizes
and times); otherwise it builds, or says why the last good generation answers instead (a
read-only folder, a build failing for these sources, another command building). A damaged
generation is rebuilt once per Library, never in a loop.
"""

from __future__ import annotations

import os

from rulebase.core.errors import (
    BuildExhausted,
    DiskFull,
    IndexBusy,
    IndexError_,
    ManifestError,
    RulebaseError,
    SourceError,
    UsageError,
)
from rulebase.core.sources import Source
from rulebase.index.generation import (
    FAILED_FOR,
    POINTER,
    Failure,
    Generation,
    current_generation,
    leftovers,
    recent_failure,
    refuse_foreign,
    remember_failure,
    stamp_matches,
)
from rulebase.index.integrity import damage as store_damage
from rulebase.library import places

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path

ADD_NICENESS = 10  # an add's build yields the CPU to the reads it runs beside (2 cores, a build uses both)
CORPUS_RETRIES = 3  # builds in a row whose corpus changed under them before the last one stands
SOURCES_HINT = "fix or 'rulebase remove' the document it names, then run 'rulebase index build'"


class Upkeep:
    """The building half of Library (rulebase/library/__init__.py), which holds the state it uses:
    index_dir, sources, stale_reason, notify, announce, _generation, _opened, _rebuilt."""

    def build(self, progress=None, force: bool = True, wait: bool = True, locked: bool = False) -> Generation:
        """Build for the corpus as it is; if an add or remove changed it meanwhile, again.

        The manifests are read before the build hashes and parses the files, so a concurrent
        `rulebase remove` can delete a file this build still lists (a "file not found"), or
        change the manifest after it was read (a generation of yesterday's corpus). Either way the
        sources are read again and, when they differ, built again: at most CORPUS_RETRIES times,
        each a second or two, as only the changed document is indexed anew."""
        # lazy: build code only when an index is built
        from rulebase.build.builder import build

        places.check_directory(self.index_dir, self._given)
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
        import contextlib

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
        # lazy: only an add needs it
        import contextlib

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

    def ensure(self, progress=None, beside: bool = False) -> Generation:
        """The generation to read, building it first if it is missing, stale or damaged.

        `beside` (a read): when only the corpus changed since the last good generation was built
        by this code, that generation answers now and the build runs in a process of its own
        (library/refresh.py); stale_reason says so.

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
        places.check_directory(self.index_dir, self._given)  # a file named by --index: said so, not 'not writable'
        refuse_foreign(self.index_dir)  # the user's own folder: never read, cleaned or built into
        status = self.status(checksums=False)
        generation = status.generation
        if status.writable:
            # lazy: build code only when an index is built
            from rulebase.build.builder import clean_leftovers

            clean_leftovers(self.index_dir)
        problem = status.problem
        if generation is None and os.path.isfile(os.path.join(self.index_dir, POINTER)):
            problem = "its CURRENT pointer names a generation that is missing or unreadable"
        elif generation is None and _built_generations(self.index_dir):
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
            self.stale_reason = (f"the index at {self.index_dir} is out of date and its rebuild {places.ago(failed.ago)} "
                                 f"failed ({failed.error}); showing the old index - {failed.hint}")
            self._generation = generation
            return generation
        # lazy: only a read whose index is not current asks (fcntl and the lock module: 0.6 ms)
        from rulebase.core.locking import held

        if generation is not None and held(self.index_dir):
            # another command is building (an add, a remove): the last good generation answers
            # now rather than after that build (3-26 s); the command that changed the corpus waits
            self.stale_reason = (f"the index at {self.index_dir} is being rebuilt by another command; answering "
                                 "from the previous build")
            self._generation = generation
            return generation
        if beside and generation is not None:
            # lazy: only a read of a stale index starts a build beside it (status() imported the builder)
            from rulebase.build.builder import same_code
            from rulebase.library import refresh

            if same_code(generation.fingerprint, status.expected) and refresh.start(self.index_dir, self.corpus_dir):
                self.stale_reason = (f"the index at {self.index_dir} is out of date (its documents changed); it is "
                                     "being rebuilt in the background, answering from the previous build")
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
        return IndexError_(f"{what}the last build, {places.ago(failed.ago)}, failed: {failed.error}; not retried {until}",
                           str(self.index_dir), failed.hint)

    def _rebuild_damaged(self, problem: str, progress=None, late: bool = False) -> Generation:
        """Rebuild a damaged index once. `late`: found while reading, after ensure() returned
        (and after the CLI printed its warnings), so `notify` is told."""
        if not places.writable(self.index_dir):
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


def _built_generations(index_dir: str) -> bool:
    """Whether the folder holds a generation with its meta.json (gen-*/meta.json)."""
    try:
        names = os.listdir(index_dir)
    except OSError:
        return False
    return any(name.startswith("gen-") and os.path.isfile(os.path.join(index_dir, name, "meta.json")) for name in names)


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
