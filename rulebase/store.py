"""The built artefacts: where they live, whether they are current, and the record database.

Layout of an index directory:

    CURRENT              name of the generation in use (replaced atomically)
    .lock                held by a builder; readers never take it
    gen-<fingerprint>-<stamp>/
        meta.json        what it was built from (fingerprint, sources, counts, report) and the
                         size of every other file, so a reader notices truncation or deletion
        records.db       SQLite: every record as JSON, keyed by id, number and page
        whoosh/          the full-text index

A build writes a new generation beside the old one and only then swaps CURRENT, so a crash
or a kill mid-build leaves the previous generation answering. Generations are immutable once
published, which is why readers can open them read-only (and from read-only directories).
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from rulebase.errors import IndexError_
from rulebase.records import Record, from_dict

SCHEMA_VERSION = "4"
POINTER = "CURRENT"
ENV_INDEX = "RULEBASE_INDEX"


def default_index_dir() -> Path:
    """--index, else RULEBASE_INDEX, else the checkout's index/, else a per-user data dir."""
    env = os.environ.get(ENV_INDEX)
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "corpus").is_dir():
        return checkout / "index"
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "rulebase" / "index"


@dataclass(frozen=True, slots=True)
class Generation:
    path: Path
    meta: dict

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
    """The published generation, or None if there is none (or it is unreadable)."""
    try:
        name = (index_dir / POINTER).read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise IndexError_(f"cannot read the index pointer ({exc.strerror})", str(index_dir / POINTER)) from None
    if not name or "/" in name or name.startswith("."):
        return None
    path = index_dir / name
    try:
        meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return Generation(path, meta)


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
    number_lc TEXT, title TEXT, title_lc TEXT, parent TEXT, rank INTEGER, data TEXT
);
CREATE INDEX records_number ON records(number_lc);
CREATE INDEX records_parent ON records(parent);
CREATE INDEX records_title ON records(title_lc);
CREATE INDEX records_kind ON records(kind, rank);  -- term map and glossaries, without a scan
CREATE TABLE pages (page TEXT, edition TEXT, source TEXT, id TEXT, rank INTEGER);
CREATE INDEX pages_key ON pages(edition, page);
CREATE TABLE documents (id TEXT PRIMARY KEY, title TEXT, edition TEXT, date TEXT, format TEXT,
                        bundled INTEGER, rank INTEGER);
"""
SQLITE_MAGIC = b"SQLite format 3\x00"


def write_db(path: Path, records: list[Record], sources: list | None = None) -> None:
    """Write the record database; `sources` (manifest entries) fill the documents table."""
    from rulebase.records import to_dict

    conn = sqlite3.connect(path)
    try:
        conn.executescript(_DDL)
        conn.executemany(
            "INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            [(r.id, r.source, r.edition, r.lang, r.kind, r.number, (r.number or "").lower() or None,
              r.title, (r.title or "").lower() or None, r.parent, n,
              json.dumps(to_dict(r), ensure_ascii=False)) for n, r in enumerate(records)],
        )
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


class RecordStore:
    """Read-only access to one generation's records (cheap to open: no Whoosh import)."""

    def __init__(self, db_path: Path):
        if not db_path.is_file():
            raise IndexError_("record database missing", str(db_path), "run 'rulebase index build'")
        uri = f"file:{db_path}?mode=ro&immutable=1"
        try:
            self.conn = sqlite3.connect(uri, uri=True)
            self.conn.execute("SELECT 1 FROM records LIMIT 1")
        except sqlite3.DatabaseError as exc:
            raise IndexError_(f"record database unreadable ({exc})", str(db_path),
                              "run 'rulebase index build' to rebuild it") from None

    def _many(self, sql: str, args: tuple = ()) -> list[Record]:
        return [from_dict(json.loads(row[0])) for row in self.conn.execute(sql, args)]

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

    def of_kind(self, kind: str) -> list[Record]:
        return self._many("SELECT data FROM records WHERE kind = ? ORDER BY rank", (kind,))

    def all(self) -> list[Record]:
        return self._many("SELECT data FROM records ORDER BY rank")

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

    def close(self) -> None:
        self.conn.close()


# -- integrity --------------------------------------------------------------------------------


def file_sizes(root: Path) -> dict[str, int]:
    """Every file of a generation and its size, recorded in meta.json at build time."""
    return {p.relative_to(root).as_posix(): p.stat().st_size for p in sorted(root.rglob("*")) if p.is_file()
            and p.name != "meta.json"}


def damage(generation: Generation) -> str | None:
    """Why a published generation cannot be trusted (a file missing, truncated or not SQLite),
    or None. Costs a few stat calls: every reader runs it."""
    db = generation.db_path
    try:
        with open(db, "rb") as handle:
            if handle.read(16) != SQLITE_MAGIC:
                return "records.db is not an SQLite database"
    except OSError:
        return "records.db is missing"
    for name, size in (generation.meta.get("files") or {}).items():
        try:
            actual = (generation.path / name).stat().st_size
        except OSError:
            return f"{name} is missing"
        if actual != size:
            return f"{name} is {actual} bytes, expected {size}"
    return None
