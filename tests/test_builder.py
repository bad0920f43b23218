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


def test_the_cards_search_documents_do_not_hang_on_their_links(library):
    """A rebuild finds the cards' cached segment by their file's bytes and the code alone
    (cards.segment_key), without parsing them: that holds while a card's search document is the
    same whether the rules it uses have been linked or not."""
    from rulebase.build.writer import _document, documents_of, leads
    from rulebase.core.eras import OPEN_END
    from rulebase.ingest import BINARY, ingest_source

    def documents(records):
        lead = leads(records)
        spans = {r.id: (0, OPEN_END) for r in records}
        return [_document(r, lead.get(r.id), editions, spelled) for r, _, editions, spelled in documents_of(records, spans)]

    linked = library.store.of_kind("card")
    parsed = [r for s in library.sources if s.format in BINARY for r in ingest_source(s).parsed.records
              if r.kind == "card"]  # (the cards' rulings are records of their own, kind card-ruling)
    assert any(r.card["links"] for r in linked) and not any(r.card["links"] for r in parsed)
    assert documents(linked) == documents(parsed)


def test_a_build_with_no_cards_segment_to_write_writes_the_record_database_itself(tmp_path, monkeypatch,
                                                                                  one_source_corpus):
    """An add's index write is short, and a forked writer copies the build's heap as it reads every
    record (an add of a release peaked at 1.7 GB so): records.db is written in the build's process."""
    from rulebase.build import builder
    from rulebase.library import Library

    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / "cache"))
    corpus = one_source_corpus(tmp_path / "bundled", "ck-2008-mini.txt", "ck.txt", "ck2008", "CK mini", "10e",
                               "2008-10-20", "crystalkeep-2008")
    forked, written_by = [], []
    beside, write_db = builder.Beside, builder.write_db
    monkeypatch.setattr(builder, "Beside", lambda fn, *args, **kw: forked.append(fn) or beside(fn, *args, **kw))
    monkeypatch.setattr(builder, "write_db", lambda *args, **kw: written_by.append(os.getpid()) or write_db(*args, **kw))
    generation = Library(tmp_path / "index", corpus).ensure()
    assert written_by == [os.getpid()] and builder.write_db not in forked
    assert os.path.getsize(generation.db_path) > 0


def test_what_the_build_read_is_apart_from_the_meta_every_command_reads(library):
    """meta.json (read by every command) holds what a reader checks; the sources' reports and the
    links' (`sources`, `index status`, the site) are in report.json, listed and checked as the
    generation's other files are."""
    import json
    from pathlib import Path

    generation = library.ensure()
    meta = json.loads(Path(generation.path, "meta.json").read_text(encoding="utf-8"))
    assert not {"sources", "links"} & set(meta) and "report.json" in meta["files"] and "report.json" in meta["digests"]
    report = generation.report()
    assert [s["id"] for s in report["sources"]][:2] == ["alpha", "rb4e"] and report["links"]["resolved"] > 1000
    assert os.path.getsize(os.path.join(generation.path, "meta.json")) < os.path.getsize(
        os.path.join(generation.path, "report.json")) / 3
