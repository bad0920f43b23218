"""The built artefacts: where they live, whether they are current, and the record database.

Layout of an index directory:

    .rulebase-index      the marker: this directory is ours, so old generations and a killed
                         build's leftovers may be deleted here (and nowhere else)
    CURRENT              name of the generation in use (replaced atomically)
    .lock                held by a builder; readers never take it
    .build-failed        the last build ran out of space: its error and time (JSON), so readers
                         say so for FAILED_FOR seconds instead of retrying on every command
    gen-<fingerprint>-<stamp>/
        meta.json        what it was built from (fingerprint, sources, counts, report) and the
                         size, modification time and CRC-32 of every other file: a reader notices
                         truncation, deletion or rewriting from stat calls alone
        records.db       SQLite: every record as JSON, keyed by id, number and page
        whoosh/          the full-text index

A build writes a new generation beside the old one and only then swaps CURRENT, so a crash
or a kill mid-build leaves the previous generation answering. Generations are immutable once
published, which is why readers can open them read-only (and from read-only directories).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from rulebase.core.eras import release_windows, windows
from rulebase.core.errors import DamagedData, IndexError_, Unreadable
from rulebase.core.records import Record, from_dict, to_dict

SCHEMA_VERSION = "5"
POINTER = "CURRENT"
ENV_INDEX = "RULEBASE_INDEX"
MARKER = ".rulebase-index"
MARKER_TEXT = ("This directory is a rulebase index: rulebase creates, replaces and deletes CURRENT, .lock, "
               ".build-failed, gen-*, .building-* and .CURRENT.* here. Keep nothing else in it.\n")
FAILED = ".build-failed"  # beside the generations, never inside one (see remember_failure)
FAILED_FOR = 600  # seconds a failed build is remembered: reads say so instead of retrying
_FAILED_NS = 777  # the nanoseconds of .lock's mtime that mean "failed" when FAILED could not be written
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,200}")


def default_index_dir() -> Path:
    """--index, else RULEBASE_INDEX, else the checkout's index/, else a per-user data dir."""
    env = os.environ.get(ENV_INDEX)
    if env:
        return Path(env)
    checkout = checkout_index()
    if checkout is not None:
        return checkout
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "rulebase" / "index"


def checkout_index() -> Path | None:
    """The index/ folder of a source checkout (it holds a README, and is ours by layout)."""
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "corpus").is_dir():
        return checkout / "index"
    return None


@dataclass(frozen=True, slots=True)
class Generation:
    path: Path
    meta: dict
    problem: str | None = None  # why its meta.json cannot be trusted (then meta is {})

    @property
    def fingerprint(self) -> str:
        return self.meta.get("fingerprint", "")

    @property
    def db_path(self) -> Path:
        return self.path / "records.db"

    @property
    def whoosh_path(self) -> Path:
        return self.path / "whoosh"


def current_generation(index_dir: Path) -> Generation | None:
    """The published generation, or None if there is none (or CURRENT is garbled, or names a
    generation that is gone). A meta.json that is not what a build writes gives a Generation whose
    `problem` says so: damage to repair, never a crash in whoever reads the meta next."""
    try:
        raw = (index_dir / POINTER).read_bytes()[:256]
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise IndexError_(f"cannot read the index pointer ({exc.strerror})", str(index_dir / POINTER)) from None
    name = raw.decode("ascii", "replace").strip()
    if not _NAME.fullmatch(name):
        return None
    path = index_dir / name
    try:
        meta = json.loads((path / "meta.json").read_bytes())
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return Generation(path, {}, f"meta.json is unreadable ({exc.strerror})")
    except ValueError:  # not JSON, not UTF-8
        return Generation(path, {}, "meta.json is not valid JSON")
    problem = meta_problem(meta)
    return Generation(path, {}, problem) if problem else Generation(path, meta)


_META_TYPES = {"fingerprint": str, "schema": str, "files": dict, "stamp": list, "sources": list,
               "records": int, "built_at": str, "links": dict}


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
    if not all(isinstance(s, dict) and isinstance(s.get("id"), str) for s in meta["sources"]):
        return "meta.json has a wrong 'sources' entry"
    checks = meta.get("integrity", {})
    if not isinstance(checks, dict) or not all(
            isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v) for v in checks.values()):
        return "meta.json has a wrong 'integrity' entry"
    return None


# -- whose directory ---------------------------------------------------------------------------


def _refuse(index_dir: Path) -> IndexError_:
    return IndexError_(f"not a rulebase index (it holds other files and no {MARKER} marker)", str(index_dir),
                       "point --index or RULEBASE_INDEX at an empty or new directory")


def _built_by_us(index_dir: Path) -> bool:
    """An index an older version built (no marker): CURRENT beside a generation whose meta.json
    carries our fingerprint and schema, or beside the meta.json of the generation it names; or
    a CURRENT naming a generation that is gone, alone in the directory (but for .lock)."""
    try:
        name = (index_dir / POINTER).read_bytes()[:256].decode("ascii", "replace").strip()
    except OSError:
        return False
    if not name.startswith("gen-") or not _NAME.fullmatch(name):
        return False
    for meta_path in [index_dir / name / "meta.json", *index_dir.glob("gen-*/meta.json")]:
        try:
            meta = json.loads(meta_path.read_bytes())
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and (meta_path.parent.name == name or {"fingerprint", "schema"} <= set(meta)):
            return True
    return {p.name for p in index_dir.iterdir()} <= {POINTER, ".lock", FAILED}


def _empty(index_dir: Path) -> bool:
    try:
        names = {p.name for p in index_dir.iterdir()} - {".lock", MARKER, FAILED}
    except FileNotFoundError:
        return True
    return not names or (index_dir == checkout_index() and names <= {"README.md"})


def foreign(index_dir: Path) -> bool:
    """True for a directory we must not write into: it exists, holds something, carries no marker
    and holds no index we built. Costs one stat when the marker is there."""
    if (index_dir / MARKER).is_file() or index_dir == checkout_index():
        return False
    try:
        return not _empty(index_dir) and not _built_by_us(index_dir)
    except OSError:
        return False  # unreadable: reading or writing will say so


def owned(index_dir: Path) -> bool:
    """True when deleting gen-*, .building-* and .CURRENT.* entries here is ours to do: the
    directory carries the marker, or holds an index an older version built (the marker is
    written now, adopting it)."""
    if (index_dir / MARKER).is_file():
        return True
    try:
        if index_dir != checkout_index() and not _built_by_us(index_dir):
            return False
        (index_dir / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
    except OSError:
        return False
    return True


def claim(index_dir: Path) -> None:
    """Make `index_dir` ours before a build writes into it: create it, or take it when it is empty
    or holds an index we built. Anything else is the user's folder, refused before a byte is
    written (no .lock either)."""
    if owned(index_dir):
        return
    try:
        index_dir.mkdir(parents=True, exist_ok=True)
        if not _empty(index_dir):
            raise _refuse(index_dir)
        (index_dir / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
    except OSError as exc:
        raise IndexError_(f"cannot write the index directory ({exc.strerror})", str(index_dir),
                          "point --index or RULEBASE_INDEX at a writable directory") from None


def refuse_foreign(index_dir: Path) -> None:
    """Raise the one-line refusal for a folder that is not an index (see `foreign`)."""
    if foreign(index_dir):
        raise _refuse(index_dir)


def remember_failure(index_dir: Path, error: str, now: float | None = None) -> None:
    """Note beside the generations that a build failed for lack of space, with its error and
    time: for FAILED_FOR seconds read commands report it instead of building again (3.5 s each
    on a full disk). Written atomically; when even that finds no space, the failure is kept in
    the nanoseconds of .lock's modification time (which takes no space; the error is then the
    generic one). Never raises: remembering is a courtesy."""
    now = time.time() if now is None else now
    tmp = index_dir / f"{FAILED}.{os.getpid()}"
    try:
        tmp.write_text(json.dumps({"error": error, "at": now}), encoding="utf-8")
        os.replace(tmp, index_dir / FAILED)
        return
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
    stamp_ns = int(now) * 1_000_000_000 + _FAILED_NS
    with contextlib.suppress(OSError):
        os.utime(index_dir / ".lock", ns=(stamp_ns, stamp_ns))


def recent_failure(index_dir: Path, now: float | None = None) -> tuple[str, float] | None:
    """(error, seconds ago) of a build that failed less than FAILED_FOR seconds ago, else None."""
    now = time.time() if now is None else now
    try:
        data = json.loads((index_dir / FAILED).read_bytes())
        error, at = data["error"], float(data["at"])
        if isinstance(error, str) and 0 <= now - at < FAILED_FOR:
            return error, now - at
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        mtime = (index_dir / ".lock").stat().st_mtime_ns
    except OSError:
        return None
    if mtime % 1_000_000_000 == _FAILED_NS and 0 <= now - mtime / 1e9 < FAILED_FOR:
        return "no space left to build the index (No space left on device)", now - mtime / 1e9
    return None


def forget_failure(index_dir: Path) -> None:
    """A build succeeded (or the user asked for one): reads build again when they need to."""
    with contextlib.suppress(OSError):
        (index_dir / FAILED).unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        st = (index_dir / ".lock").stat()
        if st.st_mtime_ns % 1_000_000_000 == _FAILED_NS:
            os.utime(index_dir / ".lock")


def leftovers(index_dir: Path) -> list[Path]:
    """What a killed build leaves behind: a half-written generation, a pointer temp file."""
    try:
        return [p for p in index_dir.iterdir() if p.name.startswith((".building-", f".{POINTER}."))]
    except OSError:
        return []


def stamp(paths: list[Path]) -> list[list]:
    """Size and modification time of every input of a build (-1 for a file that is absent)."""
    out = []
    for path in sorted(set(paths)):
        try:
            st = path.stat()
            out.append([str(path), st.st_size, st.st_mtime_ns])
        except FileNotFoundError:
            out.append([str(path), -1, -1])
        except OSError:  # unreadable: never matches, so the full check reports it
            out.append([str(path), -2, -2])
    return out


def stamp_matches(recorded: list | None, watched: list[Path] = ()) -> bool:
    """True when no input changed since the build: a few stat calls, so the common case (nothing
    changed) neither parses the manifest nor hashes the corpus; any difference falls back to the
    full fingerprint. `watched` are inputs that must have been recorded (the manifests this run
    reads, which the environment may point elsewhere)."""
    if not recorded or not {str(p) for p in watched} <= {p for p, _, _ in recorded}:
        return False
    return stamp([Path(p) for p, _, _ in recorded]) == recorded


# -- the record database ---------------------------------------------------------------------

_DDL = """
CREATE TABLE records (
    id TEXT PRIMARY KEY, source TEXT, edition TEXT, lang TEXT, kind TEXT, number TEXT,
    number_lc TEXT, title TEXT, title_lc TEXT, parent TEXT, rank INTEGER, data TEXT,
    lineage TEXT, first_day INTEGER, last_day INTEGER,  -- in force from/to (eras.py), YYYYMMDD
    archived INTEGER, latest INTEGER,  -- an archive version; the newest version of its lineage
    crc INTEGER  -- CRC-32 of data (UTF-8), checked on every read: bit rot is damage, not an answer
);
CREATE INDEX records_lineage ON records(lineage);
CREATE INDEX records_number ON records(number_lc);
CREATE INDEX records_parent ON records(parent);
CREATE INDEX records_title ON records(title_lc);
CREATE INDEX records_kind ON records(kind, rank);  -- term map and glossaries, without a scan
CREATE TABLE pages (page TEXT, edition TEXT, source TEXT, id TEXT, rank INTEGER);
CREATE INDEX pages_key ON pages(edition, page);
CREATE TABLE documents (id TEXT PRIMARY KEY, title TEXT, edition TEXT, date TEXT, format TEXT,
                        bundled INTEGER, rank INTEGER);
CREATE TABLE releases (source TEXT, idx INTEGER, date TEXT, effective TEXT, member TEXT,
                       first_day INTEGER, last_day INTEGER, PRIMARY KEY (source, idx));
"""
SQLITE_MAGIC = b"SQLite format 3\x00"


def write_db(path: Path, records: list[Record], sources: list | None = None,
             releases: dict[str, list[dict]] | None = None,
             window: dict[str, tuple[int, int]] | None = None) -> None:
    """Write the record database; `sources` (manifest entries) fill the documents table,
    `releases` (per archive source, archive.py's release list) the releases table, `window`
    (eras.windows) when each record was in force."""

    releases = releases or {}
    window = window or windows(records, sources or [], releases)
    newest: dict[str, tuple[int, str]] = {}
    for r in records:
        if r.span and r.lineage:
            newest[r.lineage] = max(newest.get(r.lineage, (0, "")), (window[r.id][1], r.id))
    latest = {rid for _, rid in newest.values()}
    conn = sqlite3.connect(path)
    try:
        conn.executescript(_DDL)
        conn.executemany(
            "INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(r.id, r.source, r.edition, r.lang, r.kind, r.number, (r.number or "").lower() or None,
              r.title, (r.title or "").lower() or None, r.parent, n, data, r.lineage, *window[r.id],
              int(bool(r.span)), int(r.id in latest or not r.span), zlib.crc32(data.encode("utf-8")))
             for n, r in enumerate(records) for data in (json.dumps(to_dict(r), ensure_ascii=False),)],
        )
        for source_id, rows in releases.items():
            spans = release_windows([row["date"] for row in rows])
            conn.executemany("INSERT INTO releases VALUES (?,?,?,?,?,?,?)",
                             [(source_id, row["index"], row["date"], row.get("effective"), row.get("member"),
                               *spans[n]) for n, row in enumerate(rows)])
        conn.executemany(
            "INSERT INTO pages VALUES (?,?,?,?,?)",
            [(p, r.edition, r.source, r.id, n) for n, r in enumerate(records) for p in r.pages],
        )
        conn.executemany(
            "INSERT INTO documents VALUES (?,?,?,?,?,?,?)",
            [(s.id, s.title, s.edition, s.date, s.format, int(s.bundled), n)
             for n, s in enumerate(sources or [])],
        )
        conn.commit()
    finally:
        conn.close()


def unreadable(path: Path, exc: OSError) -> Unreadable:
    """The one-line error for an index file this user may not read (mode 000, another owner)."""
    return Unreadable(f"the record database is unreadable ({exc.strerror or 'Permission denied'})", str(path),
                       f"make it readable (chmod u+r {path}) or run 'rulebase index build' to build a new one")


class RecordStore:
    """Read-only access to one generation's records (cheap to open: no Whoosh import)."""

    def __init__(self, db_path: Path):
        if not db_path.is_file():
            raise IndexError_("record database missing", str(db_path), "run 'rulebase index build'")
        if not os.access(db_path, os.R_OK):  # SQLite would say only "unable to open database file"
            raise unreadable(db_path, PermissionError(13, "Permission denied"))
        uri = f"file:{db_path}?mode=ro&immutable=1"
        try:
            self.conn = sqlite3.connect(uri, uri=True)
            self.conn.execute("SELECT 1 FROM records LIMIT 1")
        except sqlite3.DatabaseError as exc:
            raise IndexError_(f"record database unreadable ({exc})", str(db_path),
                              "run 'rulebase index build' to rebuild it") from None

    def _many(self, sql: str, args: tuple = ()) -> list[Record]:
        """Records from a 'SELECT data FROM ...' query, each checked against its stored CRC-32
        (a microsecond a record): a row that fails is damage (DamagedData), never an answer."""
        rows = self.conn.execute(sql.replace("SELECT data FROM", "SELECT data, crc FROM", 1), args)
        out = []
        for data, crc in rows:
            if zlib.crc32(data.encode("utf-8")) != crc:
                raise DamagedData("a record in records.db fails its checksum")
            out.append(from_dict(json.loads(data)))
        return out

    def get(self, record_id: str) -> Record | None:
        rows = self._many("SELECT data FROM records WHERE id = ?", (record_id,))
        return rows[0] if rows else None

    def get_many(self, ids: list[str]) -> list[Record]:
        found = {r.id: r for r in self._many(
            f"SELECT data FROM records WHERE id IN ({','.join('?' * len(ids))})", tuple(ids))} if ids else {}
        return [found[i] for i in ids if i in found]

    def by_number(self, number: str) -> list[Record]:
        return self._many("SELECT data FROM records WHERE number_lc = ? ORDER BY rank", (number.lower(),))

    def by_number_prefix(self, prefix: str, source: str) -> list[Record]:
        """Everything filed under a rule number: 502.83 -> 502.83a, 502.83b, 502.83.Ruling.1."""
        low = prefix.lower()  # a range on the indexed column: LIKE could not use the index
        return self._many(
            "SELECT data FROM records WHERE number_lc > ? AND number_lc < ? AND source = ? ORDER BY rank",
            (low, low + "\uffff", source))

    def children(self, record_id: str) -> list[Record]:
        return self._many("SELECT data FROM records WHERE parent = ? ORDER BY rank", (record_id,))

    def by_page(self, edition: str, page: str) -> list[Record]:
        ids = [row[0] for row in self.conn.execute(
            "SELECT id FROM pages WHERE edition = ? AND page = ? ORDER BY rank", (edition, page))]
        return self.get_many(ids)

    def pages_of(self, edition: str) -> list[str]:
        """The page labels printed in an edition's rulebook, in book order."""
        return [row[0] for row in self.conn.execute(
            "SELECT page FROM pages WHERE edition = ? GROUP BY page ORDER BY MIN(rank)", (edition,))]

    def of_kind(self, kind: str, when: int | None = None, like: tuple[str, ...] = ()) -> list[Record]:
        """Records of a kind: of the archive's versions only the newest of each rule (its text
        now, or when it was last in force); with `when`, only what was in force that day. `like`:
        only records whose stored data matches one of these SQL LIKE patterns (a cheap prefilter
        for a scan that would otherwise parse thousands of records)."""
        extra = " AND (" + " OR ".join(["data LIKE ?"] * len(like)) + ")" if like else ""
        if when is not None:
            return self._many(f"SELECT data FROM records WHERE kind = ? AND first_day <= ? AND last_day >= ?{extra} "
                              "ORDER BY rank", (kind, when, when, *like))
        return self._many(f"SELECT data FROM records WHERE kind = ? AND latest = 1{extra} ORDER BY rank", (kind, *like))

    def all(self, latest: bool = False) -> list[Record]:
        """Every record; with `latest`, of the archive's versions only the newest of each rule."""
        where = " WHERE latest = 1" if latest else ""
        return self._many(f"SELECT data FROM records{where} ORDER BY rank")

    def of_source(self, source: str) -> list[Record]:
        return self._many("SELECT data FROM records WHERE source = ? ORDER BY rank", (source,))

    def numbers_like(self, pattern: str, limit: int = 200) -> list[str]:
        if len(pattern) > 64:  # no rule number is that long; SQLite refuses very long patterns
            return []
        return [row[0] for row in self.conn.execute(
            "SELECT DISTINCT number FROM records WHERE number_lc LIKE ? LIMIT ?", (pattern, limit))]

    def numbers(self) -> list[str]:
        """Every rule number in the corpus, once (for 'did you mean')."""
        return [row[0] for row in self.conn.execute("SELECT DISTINCT number FROM records WHERE number IS NOT NULL")]

    def ids_like(self, prefix: str, limit: int = 500) -> list[str]:
        """Record ids starting with `prefix` (a source's ids, for 'did you mean')."""
        return [row[0] for row in self.conn.execute(
            "SELECT id FROM records WHERE id >= ? AND id < ? ORDER BY id LIMIT ?", (prefix, prefix + "\uffff", limit))]

    def titles(self) -> list[str]:
        return [row[0] for row in self.conn.execute("SELECT DISTINCT title FROM records WHERE title IS NOT NULL")]

    def documents(self) -> dict[str, dict]:
        """Each source document's title, edition, date, format and whether it is bundled."""
        try:
            rows = self.conn.execute("SELECT id, title, edition, date, format, bundled FROM documents ORDER BY rank")
        except sqlite3.OperationalError:  # a database written before the table existed
            return {}
        return {row[0]: {"id": row[0], "title": row[1], "edition": row[2], "date": row[3], "format": row[4],
                         "bundled": bool(row[5])} for row in rows}

    # -- versions in time (the Comprehensive Rules archive; eras.py) ---------------------------

    def windows(self, ids: list[str]) -> dict[str, tuple[int, int]]:
        """When each record was in force (YYYYMMDD days)."""
        if not ids:
            return {}
        rows = self.conn.execute(
            f"SELECT id, first_day, last_day FROM records WHERE id IN ({','.join('?' * len(ids))})", tuple(ids))
        return {row[0]: (row[1], row[2]) for row in rows}

    def lineage(self, key: str, day: int | None = None) -> list[Record]:
        """Every version of one rule, oldest first (across edits and renumberings); with `day`,
        only those in force that day (eras.OPEN_END: today)."""
        if day is not None:
            return self._many("SELECT data FROM records WHERE lineage = ? AND first_day <= ? AND last_day >= ? "
                              "ORDER BY first_day, rank", (key, day, day))
        return self._many("SELECT data FROM records WHERE lineage = ? ORDER BY first_day, rank", (key,))

    def versions(self, source: str, kinds: tuple[str, ...]) -> list[Record]:
        """Every version of a source's records of these kinds, lineage by lineage as lineage()
        orders them (first day, then document order)."""
        marks = ",".join("?" * len(kinds))
        return self._many(f"SELECT data FROM records WHERE source = ? AND kind IN ({marks}) "
                          "ORDER BY first_day, rank", (source, *kinds))

    def source_windows(self, source: str) -> dict[str, tuple[int, int]]:
        """When each of a source's records was in force (windows() for a whole source, in one query)."""
        rows = self.conn.execute("SELECT id, first_day, last_day FROM records WHERE source = ?", (source,))
        return {row[0]: (row[1], row[2]) for row in rows}

    def in_force(self, day: int, source: str, kinds: tuple[str, ...] = ("rule",)) -> list[Record]:
        """A source's records of these kinds in force on `day`, in document order."""
        marks = ",".join("?" * len(kinds))
        return self._many(f"SELECT data FROM records WHERE source = ? AND kind IN ({marks}) AND first_day <= ? "
                          "AND last_day >= ? ORDER BY rank", (source, *kinds, day, day))

    def releases(self) -> dict[str, list[dict]]:
        """Each archive source's releases, oldest first, with the days each was in force."""
        try:
            rows = self.conn.execute("SELECT source, idx, date, effective, member, first_day, last_day "
                                     "FROM releases ORDER BY source, idx")
        except sqlite3.OperationalError:
            return {}
        out: dict[str, list[dict]] = {}
        for row in rows:
            out.setdefault(row[0], []).append({"index": row[1], "date": row[2], "effective": row[3],
                                               "member": row[4], "first_day": row[5], "last_day": row[6]})
        return out

    def close(self) -> None:
        self.conn.close()


# -- integrity --------------------------------------------------------------------------------


def file_sizes(root: Path) -> dict[str, int]:
    """Every file of a generation and its size, recorded in meta.json at build time."""
    return {p.relative_to(root).as_posix(): p.stat().st_size for p in sorted(root.rglob("*")) if p.is_file()
            and p.name != "meta.json"}


def file_checks(root: Path) -> dict[str, list[int]]:
    """Every file's modification time and CRC-32, recorded in meta.json at build time: damage
    that keeps a file's size (a garbled page, a zeroed file) changes its time, which readers see
    from the same stat call as the size; the CRC tells a copy that lost the times (cp without -p)
    from damage, and finds bit rot in `index status`."""
    return {p.relative_to(root).as_posix(): [p.stat().st_mtime_ns, _crc(p)] for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "meta.json"}


def _crc(path: Path) -> int:
    crc = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            crc = zlib.crc32(chunk, crc)
    return crc


def damage(generation: Generation) -> str | None:
    """Why a published generation cannot be trusted (meta.json wrong, a file missing, truncated,
    rewritten or not SQLite), or None. Costs a stat call per file: every reader runs it. A file
    whose time alone changed (a copy that did not keep times) is hashed once and, when its CRC
    still matches, given its recorded time back so the next reader is quick again."""
    if generation.problem:
        return generation.problem
    db = generation.db_path
    try:
        with open(db, "rb") as handle:
            if handle.read(16) != SQLITE_MAGIC:
                return "records.db is not an SQLite database"
    except FileNotFoundError:
        return "records.db is missing"
    except PermissionError as exc:  # not damage (a rebuild would hide it): the user's to fix
        raise unreadable(db, exc) from None
    except OSError as exc:
        return f"records.db is unreadable ({exc.strerror})"
    checks = generation.meta.get("integrity") or {}
    for name, size in (generation.meta.get("files") or {}).items():
        path = generation.path / name
        try:
            st = path.stat()
        except OSError:
            return f"{name} is missing"
        if st.st_size != size:
            return f"{name} is {st.st_size} bytes, expected {size}"
        if name in checks and st.st_mtime_ns != checks[name][0]:
            problem = _changed(path, name, checks[name][1])
            if problem:
                return problem
            with contextlib.suppress(OSError):  # read-only: hashed again next time, still correct
                os.utime(path, ns=(st.st_atime_ns, checks[name][0]))
    return None


def verify(generation: Generation) -> str | None:
    """`damage`, plus every file's CRC against meta.json: what `index status` and a reader that hit
    a read error run (it reads the whole generation once)."""
    problem = damage(generation)
    if problem:
        return problem
    for name, (_, crc) in (generation.meta.get("integrity") or {}).items():
        problem = _changed(generation.path / name, name, crc)
        if problem:
            return problem
    return None


def _changed(path: Path, name: str, crc: int) -> str | None:
    try:
        if _crc(path) == crc:
            return None
    except OSError as exc:
        return f"{name} is unreadable ({exc.strerror})"
    return f"{name} was changed since it was built (checksum mismatch)"
