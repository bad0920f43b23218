import os

from rulebase.build.builder import clean_leftovers, leftovers


def test_leftovers_of_a_killed_build_are_cleaned_when_no_builder_runs(tmp_path):
    (tmp_path / ".building-20260101000000-1").mkdir()
    (tmp_path / ".building-20260101000000-1" / "records.db").write_bytes(b"half")
    (tmp_path / ".CURRENT.123").write_text("gen-x\n")
    (tmp_path / "gen-20250101000000-1").mkdir()  # current: kept
    (tmp_path / "gen-20250101000000-1" / "meta.json").write_text("{}")
    (tmp_path / "gen-20260101000001-2").mkdir()  # renamed but never published: an orphan
    (tmp_path / "CURRENT").write_text("gen-20250101000000-1\n")
    assert sorted(p.name for p in leftovers(tmp_path)) == [".CURRENT.123", ".building-20260101000000-1"]
    assert clean_leftovers(tmp_path) == 2
    assert sorted(os.listdir(tmp_path)) == [".lock", ".rulebase-index", "CURRENT", "gen-20250101000000-1"]
    assert clean_leftovers(tmp_path) == 0


def test_a_running_builder_keeps_its_work(tmp_path):
    import fcntl

    (tmp_path / ".building-x").mkdir()
    with open(tmp_path / ".lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        assert clean_leftovers(tmp_path) == 0
    assert (tmp_path / ".building-x").is_dir()
