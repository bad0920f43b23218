from pathlib import Path

from rulebase.core.records import Record
from rulebase.core.sources import Source
from rulebase.index.generation import Generation
from rulebase.index.integrity import damage, file_sizes
from rulebase.index.store import RecordStore, write_db


def _db(tmp_path: Path) -> Path:
    rec = Record(id="d:1.1", source="d", edition="cr2025", lang="en", kind="rule", text="t", raw="t", number="1.1")
    src = Source(id="d", title="Doc", edition="cr2025", date="2025-11-14", lang="en", file="d.txt",
                 format="comprules", provenance="p", credit="c", path=tmp_path / "d.txt", bundled=False)
    write_db(tmp_path / "records.db", [rec], [src])
    return tmp_path / "records.db"


def test_documents_table(tmp_path):
    store = RecordStore(_db(tmp_path))
    assert store.documents() == {"d": {"id": "d", "title": "Doc", "edition": "cr2025", "date": "2025-11-14",
                                       "format": "comprules", "bundled": False}}
    assert store.numbers_like("x" * 100_000) == []
    assert store.numbers_like("1.%") == ["1.1"]


def test_damage_finds_truncated_missing_and_foreign_files(tmp_path):
    db = _db(tmp_path)
    (tmp_path / "whoosh").mkdir()
    (tmp_path / "whoosh" / "_MAIN_1.toc").write_bytes(b"x" * 10)
    generation = Generation(tmp_path, {"files": file_sizes(tmp_path)})
    assert sorted(generation.meta["files"]) == ["records.db", "whoosh/_MAIN_1.toc"]
    assert damage(generation) is None
    (tmp_path / "whoosh" / "_MAIN_1.toc").write_bytes(b"x" * 4)
    assert damage(generation) == "whoosh/_MAIN_1.toc is 4 bytes, expected 10"
    (tmp_path / "whoosh" / "_MAIN_1.toc").unlink()
    assert damage(generation) == "whoosh/_MAIN_1.toc is missing"
    db.write_bytes(b"not sqlite at all")
    assert damage(generation) == "records.db is not an SQLite database"
    db.unlink()
    assert damage(generation) == "records.db is missing"


def test_stamp_notices_changed_absent_and_unwatched_inputs(tmp_path):
    from rulebase.index.generation import stamp, stamp_matches

    source, manifest = tmp_path / "a.txt", tmp_path / "sources.toml"
    source.write_text("rules")
    recorded = stamp([source, manifest])
    assert recorded[1] == [str(manifest), -1, -1]  # absent when built
    assert stamp_matches(recorded, [manifest])
    assert not stamp_matches(recorded, [tmp_path / "elsewhere" / "sources.toml"])  # environment moved
    manifest.write_text("[[source]]")
    assert not stamp_matches(recorded, [manifest])  # a manifest appeared
    manifest.unlink()
    source.write_text("rules, changed")
    assert not stamp_matches(recorded)
    assert not stamp_matches(None) and not stamp_matches([])


def _rewrite(db: Path, rid: str, text: str, recompute_crc: bool = True) -> None:
    """Rewrite a row's text as an attacker would: its JSON replaced and, in place of the old CRC-32,
    a checksum recomputed to match (all a CRC column could ask of the row)."""
    import json
    import sqlite3
    import zlib

    from rulebase.index.packing import Packer, unpack

    conn = sqlite3.connect(db)
    (data, kind) = conn.execute("SELECT data, kind FROM records WHERE id = ?", (rid,)).fetchone()
    zdict = dict(conn.execute("SELECT kind, zdict FROM dictionaries")).get(kind)
    held = json.loads(unpack(data, zdict, 1 << 20) if isinstance(data, bytes) else data)
    held["text"] = text
    data = json.dumps(held).encode()
    data = Packer(zdict).pack(data) if zdict else data.decode()
    crc = zlib.crc32(data if isinstance(data, bytes) else data.encode())
    conn.execute("UPDATE records SET data = ?, mac = ? WHERE id = ?", (data, crc, rid))
    conn.commit()
    conn.close()


def test_a_rewritten_row_with_its_checksum_recomputed_is_damage_not_an_answer(tmp_path):
    """Issue: 'Trample is a TRIGGERED ability' was served, in force now, from a row rewritten with
    its CRC recomputed. A row's digest is keyed (the user's key): it cannot be recomputed."""
    import pytest

    from rulebase.core.errors import DamagedData

    db = _db(tmp_path)
    assert RecordStore(db).get("d:1.1").text == "t"
    _rewrite(db, "d:1.1", "Trample is a TRIGGERED ability.")
    with pytest.raises(DamagedData, match="the record 'd:1.1' in records.db fails its keyed digest"):
        RecordStore(db).get("d:1.1")


def test_a_row_moved_or_redated_fails_its_digest(tmp_path):
    import sqlite3

    import pytest

    from rulebase.core.errors import DamagedData

    db = _db(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE records SET first_day = 19930101, last_day = 99991231")
    conn.commit()
    conn.close()
    with pytest.raises(DamagedData, match="fails its keyed digest"):
        RecordStore(db).get("d:1.1")
    fresh = _db(tmp_path / "x") if not (tmp_path / "x").mkdir() else None
    assert RecordStore(fresh).get("d:1.1").text == "t"
    with pytest.raises(DamagedData, match="fails its keyed digest"):
        RecordStore(fresh, key=b"k" * 32).get("d:1.1")  # another user's key
