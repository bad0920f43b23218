"""An index folder and its generations: where it is, whose it is, which generation is current,
what failed last, and whether the inputs changed since the build.

Layout of an index directory:

    .rulebase-index      the marker: this directory is ours, so old generations and a killed
                         build's leftovers may be deleted here (and nowhere else)
    CURRENT              name of the generation in use (replaced atomically)
    .lock                held by a builder; readers never take it
    .build-failed        the last build ran out of space: its error and time (JSON), so readers
                         say so for FAILED_FOR seconds instead of retrying on every command
    gen-<fingerprint>-<stamp>/
        meta.json        what it was built from (fingerprint, counts) and the size, modification
                         time and CRC-32 of every other file: a reader notices truncation,
                         deletion or rewriting from stat calls alone
        report.json      what the build read: each source's report, the links' (`sources`,
                         `index status`); apart, since every command reads meta.json and none
                         of them this (164 KB of JSON, 1.5 ms to parse)
        records.db       SQLite: every record as JSON (the most numerous kinds zlib-packed), keyed
                         by id, number and page
        whoosh/          the full-text index of the rules documents
        cards/           the cards' full-text index, apart: the rules' ranking statistics stay theirs

A build writes a new generation beside the old one and only then swaps CURRENT, so a crash
or a kill mid-build leaves the previous generation answering. Generations are immutable once
published, which is why readers can open them read-only (and from read-only directories).
"""


from __future__ import annotations

import json
import os
import re
import time

from rulebase.core.errors import DamagedData, IndexError_
from rulebase.core.paths import package_parent, read_bytes, spelled, user_folder
from rulebase.core.value import Frozen

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path

SCHEMA_VERSION = "8"
POINTER = "CURRENT"
CARDS = "cards"
RULINGS = "rulings"  # the cards' official rulings: an index of their own, searched without a filter
REPORT = "report.json"
ENV_INDEX = "RULEBASE_INDEX"
MARKER = ".rulebase-index"
MARKER_TEXT = ("This directory is a rulebase index: rulebase creates, replaces and deletes CURRENT, .lock, "
               ".build-failed, gen-*, .building-* and .CURRENT.* here. Keep nothing else in it.\n")
FAILED = ".build-failed"  # beside the generations, never inside one (see remember_failure)
FAILED_FOR = 600  # seconds a failed build is remembered: reads say so instead of retrying
_FAILED_NS = 777  # the nanoseconds of .lock's mtime that mean "failed" when FAILED could not be written
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,200}")


def default_index_dir() -> str:
    """--index, else RULEBASE_INDEX, else the checkout's index/, else a per-user data dir."""
    env = os.environ.get(ENV_INDEX)
    if env:
        return spelled(env)
    checkout = checkout_index()
    if checkout is not None:
        return checkout
    return os.path.join(user_folder("XDG_DATA_HOME", ".local/share"), "index")


def checkout_index() -> str | None:
    """The index/ folder of a source checkout (it holds a README, and is ours by layout)."""
    checkout = package_parent()
    if os.path.isfile(os.path.join(checkout, "pyproject.toml")) and os.path.isdir(os.path.join(checkout, "corpus")):
        return os.path.join(checkout, "index")
    return None


def _is_checkout(index_dir: str | os.PathLike) -> bool:
    return spelled(index_dir) == checkout_index()


class Generation(Frozen):
    __slots__ = ("path", "meta", "problem")

    def __init__(self, path: str | os.PathLike, meta: dict, problem: str | None = None):
        object.__setattr__(self, "path", os.fspath(path))
        object.__setattr__(self, "meta", meta)
        object.__setattr__(self, "problem", problem)  # why its meta.json cannot be trusted (then meta is {})

    @property
    def fingerprint(self) -> str:
        return self.meta.get("fingerprint", "")

    @property
    def name(self) -> str:
        """The generation's folder name (gen-...)."""
        return os.path.basename(self.path)

    def report(self) -> dict:
        """What the build read (REPORT): each source's report ("sources") and the links'
        ("links"); damage when the file is missing or not what a build writes."""
        path = os.path.join(self.path, REPORT)
        try:
            report = json.loads(read_bytes(path))
        except (OSError, ValueError):
            report = None
        if not (isinstance(report, dict) and isinstance(report.get("links"), dict)
                and isinstance(report.get("sources"), list)
                and all(isinstance(s, dict) and isinstance(s.get("id"), str) for s in report["sources"])):
            raise DamagedData(f"{REPORT} is missing or is not what a build writes", path,
                              "run 'rulebase index build' to rebuild it")
        return report

    @property
    def db_path(self) -> str:
        return os.path.join(self.path, "records.db")

    @property
    def whoosh_path(self) -> str:
        return os.path.join(self.path, "whoosh")

    @property
    def cards_path(self) -> str:
        """The cards' full-text index (absent from a corpus without cards)."""
        return os.path.join(self.path, CARDS)

    @property
    def rulings_path(self) -> str:
        """The cards' rulings' full-text index (absent from a corpus without them)."""
        return os.path.join(self.path, RULINGS)


def built_from(generation: Generation | None) -> list[dict]:
    """The reports of the sources a generation was built from; [] for none, and for one whose
    meta.json or report is damaged (`index status` shows what it can)."""
    if generation is None or generation.problem:
        return []
    try:
        return generation.report()["sources"]
    except DamagedData:
        return []


def current_generation(index_dir: str | os.PathLike) -> Generation | None:
    """The published generation, or None if there is none (or CURRENT is garbled, or names a
    generation that is gone). A meta.json that is not what a build writes gives a Generation whose
    `problem` says so: damage to repair, never a crash in whoever reads the meta next."""
    pointer = os.path.join(index_dir, POINTER)
    try:
        raw = read_bytes(pointer)[:256]
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise IndexError_(f"cannot read the index pointer ({exc.strerror})", pointer) from None
    name = raw.decode("ascii", "replace").strip()
    if not _NAME.fullmatch(name):
        return None
    path = os.path.join(index_dir, name)
    try:
        meta = json.loads(read_bytes(os.path.join(path, "meta.json")))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return Generation(path, {}, f"meta.json is unreadable ({exc.strerror})")
    except ValueError:  # not JSON, not UTF-8
        return Generation(path, {}, "meta.json is not valid JSON")
    problem = meta_problem(meta)
    return Generation(path, {}, problem) if problem else Generation(path, meta)


_META_TYPES = {"fingerprint": str, "schema": str, "files": dict, "stamp": list, "records": int, "built_at": str}


def meta_problem(meta) -> str | None:
    """What is wrong with a parsed meta.json (a wrong type anywhere a reader looks), or None."""
    if not isinstance(meta, dict):
        return "meta.json is not a JSON object"
    for key, kind in _META_TYPES.items():
        if not isinstance(meta.get(key), kind) or isinstance(meta.get(key), bool):
            return f"meta.json has a wrong {key!r} entry"
    if not all(isinstance(k, str) and type(v) is int for k, v in meta["files"].items()):
        return "meta.json has a wrong 'files' entry"
    if not all(isinstance(e, list) and len(e) == 3 and isinstance(e[0], str) for e in meta["stamp"]):
        return "meta.json has a wrong 'stamp' entry"
    checks = meta.get("integrity", {})
    if not isinstance(checks, dict) or not all(
            isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v) for v in checks.values()):
        return "meta.json has a wrong 'integrity' entry"
    return None


# -- whose directory ---------------------------------------------------------------------------


def _refuse(index_dir: str | os.PathLike) -> IndexError_:
    return IndexError_(f"not a rulebase index (it holds other files and no {MARKER} marker)", os.fspath(index_dir),
                       "point --index or RULEBASE_INDEX at an empty or new directory")


def _built_by_us(index_dir: str | os.PathLike) -> bool:
    """An index an older version built (no marker): CURRENT beside a generation whose meta.json
    carries our fingerprint and schema, or beside the meta.json of the generation it names; or
    a CURRENT naming a generation that is gone, alone in the directory (but for .lock)."""
    try:
        name = read_bytes(os.path.join(index_dir, POINTER))[:256].decode("ascii", "replace").strip()
    except OSError:
        return False
    if not name.startswith("gen-") or not _NAME.fullmatch(name):
        return False
    entries = os.listdir(index_dir)
    for folder in [name, *sorted(entry for entry in entries if entry.startswith("gen-"))]:
        try:
            meta = json.loads(read_bytes(os.path.join(index_dir, folder, "meta.json")))
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and (folder == name or {"fingerprint", "schema"} <= set(meta)):
            return True
    return set(entries) <= {POINTER, ".lock", FAILED}


def _empty(index_dir: str | os.PathLike) -> bool:
    try:
        names = set(os.listdir(index_dir)) - {".lock", MARKER, FAILED}
    except FileNotFoundError:
        return True
    return not names or (_is_checkout(index_dir) and names <= {"README.md"})


def foreign(index_dir: str | os.PathLike) -> bool:
    """True for a directory we must not write into: it exists, holds something, carries no marker
    and holds no index we built. Costs one stat when the marker is there."""
    if os.path.isfile(os.path.join(index_dir, MARKER)) or _is_checkout(index_dir):
        return False
    try:
        return not _empty(index_dir) and not _built_by_us(index_dir)
    except OSError:
        return False  # unreadable: reading or writing will say so


def _mark(index_dir: str | os.PathLike) -> None:
    with open(os.path.join(index_dir, MARKER), "w", encoding="utf-8") as handle:
        handle.write(MARKER_TEXT)


def owned(index_dir: str | os.PathLike) -> bool:
    """True when deleting gen-*, .building-* and .CURRENT.* entries here is ours to do: the
    directory carries the marker, or holds an index an older version built (the marker is
    written now, adopting it)."""
    if os.path.isfile(os.path.join(index_dir, MARKER)):
        return True
    try:
        if not _is_checkout(index_dir) and not _built_by_us(index_dir):
            return False
        _mark(index_dir)
    except OSError:
        return False
    return True


def claim(index_dir: str | os.PathLike) -> None:
    """Make `index_dir` ours before a build writes into it: create it, or take it when it is empty
    or holds an index we built. Anything else is the user's folder, refused before a byte is
    written (no .lock either)."""
    if owned(index_dir):
        return
    try:
        os.makedirs(index_dir, exist_ok=True)
        if not _empty(index_dir):
            raise _refuse(index_dir)
        _mark(index_dir)
    except OSError as exc:
        raise IndexError_(f"cannot write the index directory ({exc.strerror})", os.fspath(index_dir),
                          "point --index or RULEBASE_INDEX at a writable directory") from None


def refuse_foreign(index_dir: str | os.PathLike) -> None:
    """Raise the one-line refusal for a folder that is not an index (see `foreign`)."""
    if foreign(index_dir):
        raise _refuse(index_dir)


SPACE_HINT = "free some space and run 'rulebase index build'"


class Failure(Frozen):
    """A build that failed (recent_failure): its error, how long ago, what to do, and whether it
    stands until the sources change (the sources could not be built) rather than FAILED_FOR."""

    __slots__ = ("error", "ago", "hint", "lasting")

    def __init__(self, error: str, ago: float, hint: str = SPACE_HINT, lasting: bool = False):
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "ago", ago)
        object.__setattr__(self, "hint", hint)
        object.__setattr__(self, "lasting", lasting)


def remember_failure(index_dir: str | os.PathLike, error: str, now: float | None = None, fingerprint: str | None = None,
                     hint: str | None = None) -> None:
    """Note beside the generations that a build failed, with its error and time: for FAILED_FOR
    seconds read commands report it instead of building again (3.5 s each on a full disk). With
    `fingerprint` (the sources' and code's, builder.expected_fingerprint) the sources themselves
    failed: reads say so, without building, until the sources change. Written atomically; when
    even that finds no space, the failure is kept in the nanoseconds of .lock's modification time
    (which takes no space; the error is then the generic one). Never raises: remembering is a
    courtesy."""
    # lazy: a read never writes or removes these files
    import contextlib

    now = time.time() if now is None else now
    tmp = os.path.join(index_dir, f"{FAILED}.{os.getpid()}")
    record: dict = {"error": error, "at": now}
    if fingerprint is not None:
        record.update(fingerprint=fingerprint, hint=hint or SPACE_HINT)
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(record))
        os.replace(tmp, os.path.join(index_dir, FAILED))
        return
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    if fingerprint is not None:
        return  # (.lock's time says 'no space': not this failure)
    stamp_ns = int(now) * 1_000_000_000 + _FAILED_NS
    with contextlib.suppress(OSError):
        os.utime(os.path.join(index_dir, ".lock"), ns=(stamp_ns, stamp_ns))


def recent_failure(index_dir: str | os.PathLike, now: float | None = None, fingerprint: str | None = None) -> Failure | None:
    """The build that failed less than FAILED_FOR seconds ago, or whose sources (`fingerprint`)
    are those a build now would read; else None."""
    now = time.time() if now is None else now
    try:
        data = json.loads(read_bytes(os.path.join(index_dir, FAILED)))
        error, at = data["error"], float(data["at"])
        if isinstance(error, str) and "fingerprint" in data:
            if data["fingerprint"] == fingerprint and isinstance(data.get("hint"), str):
                return Failure(error, max(0.0, now - at), data["hint"], True)
        elif isinstance(error, str) and 0 <= now - at < FAILED_FOR:
            return Failure(error, now - at)
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        mtime = os.stat(os.path.join(index_dir, ".lock")).st_mtime_ns
    except OSError:
        return None
    if mtime % 1_000_000_000 == _FAILED_NS and 0 <= now - mtime / 1e9 < FAILED_FOR:
        return Failure("no space left to build the index (No space left on device)", now - mtime / 1e9)
    return None


def forget_failure(index_dir: str | os.PathLike) -> None:
    """A build succeeded (or the user asked for one): reads build again when they need to."""
    # lazy: a read never writes or removes these files
    import contextlib

    with contextlib.suppress(OSError):
        os.unlink(os.path.join(index_dir, FAILED))
    lock = os.path.join(index_dir, ".lock")
    with contextlib.suppress(OSError):
        if os.stat(lock).st_mtime_ns % 1_000_000_000 == _FAILED_NS:
            os.utime(lock)


def leftovers(index_dir: str | os.PathLike) -> list[Path]:
    """What a killed build leaves behind: a half-written generation, a pointer temp file."""
    try:
        names = [name for name in os.listdir(index_dir) if name.startswith((".building-", f".{POINTER}."))]
    except OSError:
        return []
    if not names:
        return []
    from pathlib import Path  # (only when there is something to clean: core/paths.py)

    return [Path(index_dir, name) for name in names]


def stamp(paths: list[str | os.PathLike]) -> list[list]:
    """Size and modification time of every input of a build (-1 for a file that is absent)."""
    return [[path, *_size_and_time(path)] for path in sorted({os.fspath(p) for p in paths})]


def _size_and_time(path: str | Path) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return -1, -1
    except OSError:  # unreadable: never matches, so the full check reports it
        return -2, -2
    return st.st_size, st.st_mtime_ns


def stamp_matches(recorded: list | None, watched: list[str | os.PathLike] = ()) -> bool:
    """True when no input changed since the build: a few stat calls, so the common case (nothing
    changed) neither parses the manifest nor hashes the corpus; any difference falls back to the
    full fingerprint. `watched` are inputs that must have been recorded (the manifests this run
    reads, which the environment may point elsewhere). (os.stat of the recorded names, no Path
    made: 0.25 ms for the real index's 87 inputs.)"""
    if not recorded or not {os.fspath(p) for p in watched} <= {p for p, _, _ in recorded}:
        return False
    return all(_size_and_time(name) == (size, mtime) for name, size, mtime in recorded)
