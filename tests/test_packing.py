import sqlite3
import zlib

import pytest

from rulebase.core.errors import DamagedData
from rulebase.core.records import Record
from rulebase.index.packing import dictionary, pack, unpack
from rulebase.index.store import RecordStore, write_db


def _rule(n: int) -> Record:
    text = f"Exalted is a triggered ability. Rule {n} says what happens when a creature attacks alone."
    return Record(id=f"d:702.{n}", source="d", edition="cr2025", lang="en", kind="rule", text=text, raw=text,
                  number=f"702.{n}")


def test_packed_text_round_trips_and_a_wrong_dictionary_is_an_error():
    texts = [f'{{"id": "d:{n}", "text": "a creature attacks alone"}}'.encode() for n in range(50)]
    zdict = dictionary(texts)
    assert 0 < len(zdict) <= 16_384
    assert all(unpack(pack(t, zdict), zdict) == t for t in texts)
    assert len(pack(texts[7], zdict)) < len(zlib.compress(texts[7], 6))  # the point of the dictionary
    with pytest.raises(zlib.error):
        unpack(pack(texts[7], zdict), b"another dictionary entirely")
    with pytest.raises(zlib.error):
        unpack(pack(texts[7], zdict)[:-3], zdict)


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
