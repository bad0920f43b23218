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
