import sqlite3
import zlib

import pytest

from rulebase.core.errors import DamagedData
from rulebase.core.records import Record
from rulebase.index import store as store_module
from rulebase.index.packing import Packer, dictionary, unpack
from rulebase.index.store import RecordStore, write_db


def _rule(n: int) -> Record:
    text = f"Exalted is a triggered ability. Rule {n} says what happens when a creature attacks alone."
    return Record(id=f"d:702.{n}", source="d", edition="cr2025", lang="en", kind="rule", text=text, raw=text,
                  number=f"702.{n}")


def test_packed_text_round_trips_and_a_wrong_dictionary_is_an_error():
    texts = [f'{{"id": "d:{n}", "text": "a creature attacks alone"}}'.encode() for n in range(50)]
    zdict = dictionary(texts)
    assert 0 < len(zdict) <= 16_384
    assert all(unpack(Packer(zdict).pack(t), zdict, 1 << 20) == t for t in texts)
    assert len(Packer(zdict).pack(texts[7])) < len(zlib.compress(texts[7], 6))  # the point of the dictionary
    with pytest.raises(zlib.error):
        unpack(Packer(zdict).pack(texts[7]), b"another dictionary entirely", 1 << 20)
    with pytest.raises(zlib.error):
        unpack(Packer(zdict).pack(texts[7])[:-3], zdict, 1 << 20)


def test_rules_are_stored_packed_and_read_back_whole(tmp_path):
    records = [_rule(n) for n in range(1, 40)]
    write_db(tmp_path / "records.db", records)
    conn = sqlite3.connect(tmp_path / "records.db")
    stored = conn.execute("SELECT data FROM records WHERE id = 'd:702.7'").fetchone()[0]
    conn.close()
    assert isinstance(stored, bytes) and b"attacks alone" not in stored
    store = RecordStore(tmp_path / "records.db")
    assert store.get("d:702.7").text == records[6].text
    assert [r.id for r in store.of_kind("rule", like=("%no such words%",))] == [r.id for r in records]


def test_a_packed_record_that_does_not_unpack_is_damage(tmp_path):
    write_db(tmp_path / "records.db", [_rule(n) for n in range(1, 5)])
    conn = sqlite3.connect(tmp_path / "records.db")
    conn.execute("UPDATE dictionaries SET zdict = ?", (b"not the dictionary",))
    conn.commit()
    conn.close()
    with pytest.raises(DamagedData, match="a packed rule record in records.db does not unpack"):
        RecordStore(tmp_path / "records.db").get("d:702.2")


def test_packed_records_without_their_dictionaries_are_damage(tmp_path):
    write_db(tmp_path / "records.db", [_rule(n) for n in range(1, 5)])
    conn = sqlite3.connect(tmp_path / "records.db")
    conn.execute("DROP TABLE dictionaries")
    conn.commit()
    conn.close()
    with pytest.raises(DamagedData, match="records.db holds packed records and no dictionaries"):
        RecordStore(tmp_path / "records.db").get("d:702.2")


def test_a_primed_packer_gives_the_bytes_of_a_compressor_primed_for_each_record():
    texts = [f'{{"id": "d:{n}", "text": "a creature attacks alone {n}"}}'.encode() for n in range(50)]
    zdict = dictionary(texts)
    packer = Packer(zdict)
    for text in texts:
        fresh = zlib.compressobj(6, zdict=zdict)
        assert packer.pack(text) == fresh.compress(text) + fresh.flush()  # records.db's format is unchanged


def _rows(path):
    conn = sqlite3.connect(path)
    try:
        return {table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()  # noqa: S608 - our tables
                for table in ("records", "dictionaries", "card_names", "card_rules")}
    finally:
        conn.close()


def test_records_packed_by_workers_are_stored_as_by_one_process(tmp_path, monkeypatch):
    records = [_rule(n) for n in range(1, 120)] + [
        Record(id=f"d:g.{n}", source="d", edition="cr2025", lang="en", kind="glossary", text=f"Term {n}.",
               raw=f"Term {n}.", title=f"Term {n}") for n in range(30)]
    write_db(tmp_path / "one.db", records)
    monkeypatch.setattr(store_module, "MIN_PART", 10)  # the real threshold is 10,000 records
    write_db(tmp_path / "two.db", records, workers=2)
    assert _rows(tmp_path / "two.db") == _rows(tmp_path / "one.db")
    assert RecordStore(tmp_path / "two.db").get("d:702.77").text == records[76].text


def test_a_record_that_inflates_past_the_limit_is_refused_not_inflated():
    """A 600 kB blob of zeros inflates to 600 MB: unpack stops at its limit (bounded memory)."""
    zdict = dictionary([b"x" * 100])
    bomb = Packer(zdict).pack(b"\0" * (64 << 20))
    assert len(bomb) < 100_000
    with pytest.raises(zlib.error, match="inflates past 1048576 bytes"):
        unpack(bomb, zdict, 1 << 20)


def test_a_packed_row_over_the_record_limit_is_damage_named_in_one_line(tmp_path, monkeypatch):
    write_db(tmp_path / "records.db", [_rule(n) for n in range(1, 5)])
    monkeypatch.setattr(store_module, "MAX_RECORD", 20)
    with pytest.raises(DamagedData, match=r"a packed rule record in records.db does not unpack \(it inflates past "
                                          r"20 bytes\)"):
        RecordStore(tmp_path / "records.db").get("d:702.2")
