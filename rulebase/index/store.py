"""The record database of a generation (records.db, SQLite): written once by the build, then
read through RecordStore, every row's keyed digest checked as it is read (row_mac: a BLAKE2b MAC
under the user's key, seal.py, of the row's id, kind, lineage, days and data; a CRC could be
recomputed by whoever rewrote a row), and a packed row inflated no further than MAX_RECORD. The folder and its
generations are generation.py's; whether a generation is intact, integrity.py's.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator

try:
    # The sqlite3 package is this C module plus datetime adapters rulebase never registers (dates are
    # YYYYMMDD integers): importing the package as well cost 3.6 ms of every cold command (its
    # datetime and collections.abc, CPU time, medians of 41). The connections, rows and exceptions
    # are the same objects either way.
    import _sqlite3 as sqlite3
except ImportError:  # an interpreter whose sqlite3 is not built on _sqlite3
    import sqlite3

from rulebase.core.eras import release_windows, windows
from rulebase.core.errors import DamagedData, IndexError_, Unreadable
from rulebase.core.records import Record, from_dict, stored_form
from rulebase.index import seal
from rulebase.index.packing import PACKED_KINDS, Packer, dictionary, sample, unpack

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path

# -- the record database ---------------------------------------------------------------------

_TABLES = """
CREATE TABLE records (
    id TEXT PRIMARY KEY, source TEXT, edition TEXT, lang TEXT, kind TEXT, number TEXT,
    number_lc TEXT, title TEXT, title_lc TEXT, parent TEXT, rank INTEGER, data TEXT,
    lineage TEXT, first_day INTEGER, last_day INTEGER,  -- in force from/to (eras.py), YYYYMMDD
    archived INTEGER, latest INTEGER,  -- an archive version; the newest version of its lineage
    mac INTEGER  -- row_mac of the row as stored, checked on every read: a changed row is damage, not an answer
);
-- data is JSON text, or for the kinds packing.py names a zlib blob packed against its kind's dictionary
CREATE TABLE dictionaries (kind TEXT PRIMARY KEY, zdict BLOB);
CREATE TABLE pages (page TEXT, edition TEXT, source TEXT, id TEXT, rank INTEGER);
CREATE TABLE documents (id TEXT PRIMARY KEY, title TEXT, edition TEXT, date TEXT, format TEXT,
                        bundled INTEGER, rank INTEGER);
CREATE TABLE releases (source TEXT, idx INTEGER, date TEXT, effective TEXT, member TEXT,
                       first_day INTEGER, last_day INTEGER, PRIMARY KEY (source, idx));
-- cards: every name a card is found by (folded: core/cardnames.py), and the rules it uses;
-- card: the card's rank in records (records_kind finds its row), not its id: 34,000 ids repeated
-- in 410,000 rows took 11 MB
-- kind: name, face, short (before a comma), foreign (a printing's name in another language: 180,000 of
-- the 220,000 rows, so keyed without a rowid and a second index beside it: 6 MB less)
CREATE TABLE card_names (key TEXT, card INTEGER, kind TEXT, PRIMARY KEY (key, card)) WITHOUT ROWID;
-- keyed by the rule's lineage (what "used by N cards" asks), so the table is its own index;
-- links: how many the card has; direct: the card *is* what the rule is about (its keyword, type, layout)
CREATE TABLE card_rules (lineage TEXT, card INTEGER, links INTEGER, arena INTEGER, direct INTEGER,
                         PRIMARY KEY (lineage, card)) WITHOUT ROWID;
"""
# made once the rows are in: building an index from sorted rows beats updating it per row (0.2 s of 0.9 s)
# (none on title_lc: `titled` finds words inside titles, LIKE '%word%', which no index serves; the
# cards' and their rulings' titles are not asked for there, and are left out of it: 4 MB with the index)
_INDEXES = """
CREATE INDEX records_lineage ON records(lineage);
CREATE INDEX records_number ON records(number_lc);
CREATE INDEX records_parent ON records(parent);
CREATE INDEX records_kind ON records(kind, rank);  -- term map and glossaries, without a scan
CREATE INDEX pages_key ON pages(edition, page);
"""
SQLITE_MAGIC = b"SQLite format 3\x00"
CARD_KINDS = ("card", "card-ruling")  # found by card_names and their own index, never by title
LIKE_LIMIT = 50_000  # bytes: SQLITE_MAX_LIKE_PATTERN_LENGTH, beyond which LIKE raises "pattern too complex"


def write_db(path: Path, records: list[Record], sources: list | None = None,
             releases: dict[str, list[dict]] | None = None,
             window: dict[str, tuple[int, int]] | None = None, workers: int = 1) -> None:
    """Write the record database; `sources` (manifest entries) fill the documents table,
    `releases` (per archive source, archive.py's release list) the releases table, `window`
    (eras.windows) when each record was in force. `workers`: processes that serialise and pack
    the records (_stored: 4 s of CPU for the whole corpus, two thirds of this step)."""

    releases = releases or {}
    window = window or windows(records, sources or [], releases)
    newest: dict[str, tuple[int, str]] = {}
    for r in records:
        if r.span and r.lineage:
            newest[r.lineage] = max(newest.get(r.lineage, (0, "")), (window[r.id][1], r.id))
    latest = {rid for _, rid in newest.values()}
    zdicts = {kind: dictionary([_json(r).encode("utf-8") for r in sample([r for r in records if r.kind == kind])])
              for kind in sorted(PACKED_KINDS & {r.kind for r in records})}
    stored, names = _stored(records, zdicts, workers, window)
    conn = sqlite3.connect(path)
    try:
        conn.executescript(_TABLES)
        conn.executemany("INSERT INTO dictionaries VALUES (?,?)", sorted(zdicts.items()))
        conn.executemany(
            "INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(r.id, r.source, r.edition, r.lang, r.kind, r.number, (r.number or "").lower() or None,
              r.title, None if r.kind in CARD_KINDS else (r.title or "").lower() or None, r.parent, n, data, r.lineage, *window[r.id],
              int(bool(r.span)), int(r.id in latest or not r.span), mac)
             for n, (r, (data, mac)) in enumerate(zip(records, stored, strict=True))],
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
        rank = {r.id: n for n, r in enumerate(records) if r.kind == "card" and r.card is not None}
        conn.executemany("INSERT INTO card_names VALUES (?,?,?)",  # (in key order: one pass)
                         sorted((key, rank[cid], kind) for key, cid, kind in names))
        conn.executemany("INSERT OR IGNORE INTO card_rules VALUES (?,?,?,?,?)", sorted(
            (link["lineage"], n, len(records[n].card["links"]), int(records[n].card["arena"]),
             int(link["reason"].startswith(("keyword:", "type line:", "layout:"))))
            for n in rank.values() for link in records[n].card["links"]))
        conn.executemany(
            "INSERT INTO documents VALUES (?,?,?,?,?,?,?)",
            [(s.id, s.title, s.edition, s.date, s.format, int(s.bundled), n)
             for n, s in enumerate(sources or [])],
        )
        conn.executescript(_INDEXES)
        conn.commit()
    finally:
        conn.close()


def _json(record: Record) -> str:
    return json.dumps(stored_form(record), ensure_ascii=False)


MAX_RECORD = 64 << 20  # bytes a packed record may inflate to: 8x the largest document `add` accepts
MIN_PART = 10_000  # records: fewer per worker and one process is faster than forking


def _stored(records: list[Record], zdicts: dict[str, bytes], workers: int,
            window: dict[str, tuple[int, int]]) -> tuple[list, list]:
    """Each record as records.db keeps it (its JSON, packed for packing.py's kinds) with its
    row_mac, and the names the cards among them are found by; on up to `workers` processes."""
    # lazy: a reader never writes (concurrent.futures is 15 ms of a cold start)
    from rulebase.core.pool import map_inherited

    packers = {kind: Packer(zdict) for kind, zdict in zdicts.items()}
    key = seal.user_key(create=True)

    def stored(record: Record) -> tuple[str | bytes, int, list[tuple[str, str, str]]]:
        text = _json(record)
        data = packers[record.kind].pack(text.encode("utf-8")) if record.kind in packers else text
        names = card_names(record) if record.kind == "card" and record.card is not None else []
        return data, row_mac(key, record.id, record.kind, record.lineage, *window[record.id], data), names

    rows = map_inherited(stored, records, workers, MIN_PART)
    return [(data, mac) for data, mac, _ in rows], [name for _, _, names in rows for name in names]


def row_mac(key: bytes, rid: str, kind: str, lineage: str | None, first: int, last: int, data: str | bytes) -> int:
    """A row's keyed digest (BLAKE2b, 64 bits, as a signed SQLite integer) over what a reader
    shows or dates from it: a row moved to another id, or redated, fails as a rewritten one does.
    The columns go in length-prefixed, so no two rows' columns read alike (0.6 microseconds a row;
    as a JSON list, 4.5: 0.4 s of reading every record)."""
    mac = seal.keyed(key, size=8)
    held = -1 if lineage is None else len(lineage)
    mac.update(f"{len(rid)}:{rid},{len(kind)}:{kind},{held}:{lineage or ''},{first},{last}\0".encode())
    mac.update(data.encode("utf-8") if isinstance(data, str) else data)
    return int.from_bytes(mac.digest(), "big", signed=True)


def card_names(card: Record) -> list[tuple[str, str, str]]:
    """(folded name, card id, kind) for each name a card is found by: its own, each face's, the
    part of its name before a comma ("thalia"), and its names in other languages, whole and by face."""
    # lazy: only a build writes card names; importing the ingest package for it cost every cold
    # lookup about a fifth of its imports (-X importtime: 100 of 495 ms at load 17)
    from rulebase.core.cardnames import before_comma, face_names, fold_name

    rows = {(fold_name(card.title or ""), "name")}
    for face in [*face_names(card.title or ""), *card.aliases]:
        rows.add((fold_name(face), "face"))
    short = before_comma(face_names(card.title or "")[0])
    if short:
        rows.add((fold_name(short), "short"))
    for name in (card.card or {}).get("foreign", {}).values():
        rows.update((fold_name(part), "foreign") for part in {name, *face_names(name)})
    kinds = {}
    for key, kind in sorted(rows, key=lambda row: ("name", "face", "short", "foreign").index(row[1])):
        if key:
            kinds.setdefault(key, kind)
    return [(key, card.id, kind) for key, kind in kinds.items()]


def unreadable(path: Path, exc: OSError) -> Unreadable:
    """The one-line error for an index file this user may not read (mode 000, another owner)."""
    return Unreadable(f"the record database is unreadable ({exc.strerror or 'Permission denied'})", str(path),
                       f"make it readable (chmod u+r {path}) or run 'rulebase index build' to build a new one")


class RecordStore:
    """Read-only access to one generation's records (cheap to open: no Whoosh import)."""

    def __init__(self, db_path: Path, key: bytes | None = None):
        self._key = key or seal.user_key() or b""  # no key: nothing was sealed, every row fails
        if not os.path.isfile(db_path):
            raise IndexError_("record database missing", str(db_path), "run 'rulebase index build'")
        if not os.access(db_path, os.R_OK):  # SQLite would say only "unable to open database file"
            raise unreadable(db_path, PermissionError(13, "Permission denied"))
        self._dictionaries: dict[str, bytes] | None = None  # kind -> zdict, read on the first packed record
        uri = f"file:{db_path}?mode=ro&immutable=1"
        try:
            self.conn = sqlite3.connect(uri, uri=True)
            self.conn.execute("SELECT 1 FROM records LIMIT 1")
        except sqlite3.DatabaseError as exc:
            raise IndexError_(f"record database unreadable ({exc})", str(db_path),
                              "run 'rulebase index build' to rebuild it") from None

    def _many(self, sql: str, args: tuple = ()) -> list[Record]:
        """Records from a 'SELECT data FROM ...' query, each checked against its keyed digest
        (row_mac: a microsecond a record) before it is unpacked or parsed: a row that fails is
        damage (DamagedData), never an answer."""
        return [from_dict(data) for data in self._checked(sql, args)]

    def stored_forms(self) -> Iterator[dict]:
        """Every record's stored form (records.stored_form), checked as every read is, one at a
        time in export order: `export` writes them without holding or building 95,000 Records."""
        return self._checked("SELECT data FROM records ORDER BY rank")

    def _checked(self, sql: str, args: tuple = ()) -> Iterator[dict]:
        rows = self.conn.execute(sql.replace(
            "SELECT data FROM", "SELECT data, mac, kind, id, lineage, first_day, last_day FROM", 1), args)
        for data, mac, kind, rid, lineage, first, last in rows:
            if not self._key or row_mac(self._key, rid, kind, lineage, first, last, data) != mac:
                raise DamagedData(f"the record {rid[:80]!r} in records.db fails its keyed digest")
            if isinstance(data, bytes):
                try:
                    data = unpack(data, self._zdicts()[kind], MAX_RECORD)
                except (KeyError, zlib.error) as exc:
                    raise DamagedData(f"a packed {kind} record in records.db does not unpack ({exc})") from None
            yield json.loads(data)

    def _zdicts(self) -> dict[str, bytes]:
        if self._dictionaries is None:
            try:
                self._dictionaries = dict(self.conn.execute("SELECT kind, zdict FROM dictionaries"))
            except sqlite3.OperationalError:  # packed rows and no dictionaries: not as written
                raise DamagedData("records.db holds packed records and no dictionaries") from None
        return self._dictionaries

    def get(self, record_id: str) -> Record | None:
        rows = self._many("SELECT data FROM records WHERE id = ?", (record_id,))
        return rows[0] if rows else None

    def get_many(self, ids: list[str]) -> list[Record]:
        found = {r.id: r for r in self._many(
            f"SELECT data FROM records WHERE id IN ({','.join('?' * len(ids))})", tuple(ids))} if ids else {}
        return [found[i] for i in ids if i in found]

    def by_number(self, number: str) -> list[Record]:
        return self._many("SELECT data FROM records WHERE number_lc = ? ORDER BY rank", (number.lower(),))

    def titled(self, source: str, words: list[str], kind: str = "section", day: int | None = None) -> list[Record]:
        """A source's records of a kind whose title holds every one of `words` (lower case), in
        document order: the tournament documents' sections found by their titles. With `day`,
        only those in force that day (the others are neither read nor parsed)."""
        like = "".join([" AND title_lc LIKE ?"] * len(words))
        dated = " AND first_day <= ? AND last_day >= ?" if day is not None else ""
        return self._many(f"SELECT data FROM records WHERE source = ? AND kind = ?{like}{dated} ORDER BY rank",
                          (source, kind, *(f"%{w}%" for w in words), *((day, day) if day is not None else ())))

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
        for a scan that would otherwise parse thousands of records; a packed kind's data is no
        text to match, so it is scanned whole and the caller's own test decides)."""
        if kind in PACKED_KINDS or any(len(pattern.encode("utf-8")) > LIKE_LIMIT for pattern in like):
            like = ()  # packed, or a pattern SQLite refuses: a prefilter only saves time, so scan them all
        extra = " AND (" + " OR ".join(["data LIKE ?"] * len(like)) + ")" if like else ""
        if when is not None:
            return self._many(f"SELECT data FROM records WHERE kind = ? AND first_day <= ? AND last_day >= ?{extra} "
                              "ORDER BY rank", (kind, when, when, *like))
        return self._many(f"SELECT data FROM records WHERE kind = ? AND latest = 1{extra} ORDER BY rank", (kind, *like))

    def all(self, latest: bool = False, without: tuple[str, ...] = ()) -> list[Record]:
        """Every record; with `latest`, of the archive's versions only the newest of each rule;
        `without` the kinds named, which are then neither read nor parsed (the 34,655 cards are
        half the time of reading every record)."""
        where = [*(["latest = 1"] if latest else []), *([f"kind NOT IN ({','.join('?' * len(without))})"] if without else [])]
        return self._many(f"SELECT data FROM records{' WHERE ' + ' AND '.join(where) if where else ''} ORDER BY rank",
                          tuple(without))

    def of_source(self, source: str, without: tuple[str, ...] = ()) -> list[Record]:
        """A source's records, in document order; `without` the kinds named (neither read nor parsed)."""
        kinds = f" AND kind NOT IN ({','.join('?' * len(without))})" if without else ""
        return self._many(f"SELECT data FROM records WHERE source = ?{kinds} ORDER BY rank", (source, *without))

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
        """The titles of the rules documents' records (cards are found by card_named)."""
        return [row[0] for row in self.conn.execute(
            "SELECT DISTINCT title FROM records WHERE title IS NOT NULL AND kind NOT IN ('card', 'card-ruling')")]

    # -- cards -------------------------------------------------------------------------------------

    def card_named(self, key: str) -> list[tuple[str, str]]:
        """(card id, how the name names it: name, face or short) for a folded name."""
        try:
            return [(row[0], row[1]) for row in self.conn.execute(
                "SELECT records.id, card_names.kind FROM card_names "  # (CROSS: the names first, then each card's row)
                "CROSS JOIN records ON records.kind = 'card' AND records.rank = card_names.card WHERE key = ? "
                "ORDER BY card_names.kind = 'foreign', card_names.kind = 'short', card_names.kind = 'face', records.id",
                (key,))]
        except sqlite3.OperationalError:  # an index without cards
            return []

    def cards_total(self) -> int:
        """How many cards the index holds."""
        return self.conn.execute("SELECT COUNT(*) FROM records WHERE kind = 'card'").fetchone()[0]

    def lineages_within(self, number: str, source: str, day: int) -> list[str]:
        """The lineages of a rule and its subrules (702.19: 702.19a-d; 603: 603.1 ... 603.12b) in
        force on `day`: a range on the number's index, cut to what the number holds."""
        low = number.lower()
        rows = self.conn.execute(
            "SELECT number_lc, lineage FROM records WHERE number_lc >= ? AND number_lc < ? AND source = ? "
            "AND first_day <= ? AND last_day >= ? AND lineage IS NOT NULL", (low, low + "\uffff", source, day, day))
        return list(dict.fromkeys(lineage for held, lineage in rows
                                  if held == low or held[len(low)] == "." or held[len(low):].isalpha()))

    def links_per_card(self) -> list[int]:
        """How many rules each card's text uses, one number per card (scripts/cardlinks.py)."""
        counts = dict(self.conn.execute("SELECT card, COUNT(*) FROM card_rules GROUP BY card"))
        return [counts.get(rank, 0) for (rank,) in self.conn.execute("SELECT rank FROM records WHERE kind = 'card'")]

    def card_keys(self) -> list[str]:
        """Every folded card name, once (for 'did you mean')."""
        try:
            return [row[0] for row in self.conn.execute("SELECT DISTINCT key FROM card_names WHERE kind IN ('name', 'face')")]
        except sqlite3.OperationalError:
            return []

    def cards_using(self, lineages: list[str], examples: int = 3) -> tuple[int, list[str]]:
        """How many cards link one of these lineages' rules, and the ids of a few: cards that are
        what the rule is about (its keyword, type or layout) and use the fewest other rules, the
        plainest example (a vanilla creature with trample, for trample)."""
        if not lineages:
            return 0, []
        marks = ",".join("?" * len(lineages))
        try:
            count = self.conn.execute(f"SELECT COUNT(DISTINCT card) FROM card_rules WHERE lineage IN ({marks})",
                                      tuple(lineages)).fetchone()[0]
            ids = [row[0] for row in self.conn.execute(  # (CROSS: the links first, then each card's row)
                f"SELECT records.id FROM card_rules CROSS JOIN records ON records.kind = 'card' AND records.rank = card_rules.card "
                f"WHERE card_rules.lineage IN ({marks}) GROUP BY card_rules.card "
                f"ORDER BY MAX(card_rules.direct) DESC, MAX(card_rules.arena), MIN(card_rules.links), records.id LIMIT ?",
                (*lineages, examples))]
        except sqlite3.OperationalError:
            return 0, []
        return count, ids

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
        only those in force that day (eras.today: now)."""
        if day is not None:
            return self._many("SELECT data FROM records WHERE lineage = ? AND first_day <= ? AND last_day >= ? "
                              "ORDER BY first_day, rank", (key, day, day))
        return self._many("SELECT data FROM records WHERE lineage = ? ORDER BY first_day, rank", (key,))

    def lineage_days(self, keys: list[str]) -> list[tuple[str, str, str | None, int, int]]:
        """(id, lineage, number, first day, last day) of every version of these lineages, oldest
        first: their days without reading their texts."""
        if not keys:
            return []
        return self.conn.execute(f"SELECT id, lineage, number, first_day, last_day FROM records WHERE lineage IN "
                                 f"({','.join('?' * len(keys))}) ORDER BY first_day, rank", tuple(keys)).fetchall()

    def numbered_days(self, source: str, number: str | None = None) -> list[tuple[str, str, str, int, int]]:
        """(id, lineage, number, first day, last day) of a dated document's numbered versions, oldest
        first, without their texts: every one, or with `number` those of the lineages that ever held
        it (who held a number on which day, and where it went: rules/citation.py)."""
        sql = ("SELECT id, lineage, number, first_day, last_day FROM records WHERE source = ? "
               "AND lineage IS NOT NULL AND number IS NOT NULL AND first_day IS NOT NULL")
        args: tuple = (source,)
        if number is not None:
            sql += " AND lineage IN (SELECT lineage FROM records WHERE number_lc = ? AND source = ?)"
            args = (source, number.lower(), source)
        return self.conn.execute(sql + " ORDER BY first_day, rank", args).fetchall()

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
