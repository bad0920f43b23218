"""The archive's build cache: a rebuild (say after `rulebase add`) reuses the parsed versions and
the index segment instead of parsing and indexing every release again; a damaged entry is
ignored and rebuilt; the answers are the same either way. Runs on a three-release archive made
from the bundled one, so each build takes seconds."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest

from rulebase.core.records import to_dict
from rulebase.ingest.comprules import archive
from rulebase.library import Library
from rulebase.search.request import run_search

ROOT = Path(__file__).resolve().parent.parent
RELEASES = ("2009-05-01", "2009-07-11", "2009-09-04")  # conftest.three_release_archive


@pytest.fixture(scope="module")
def small_corpus(three_release_archive) -> Path:
    return three_release_archive


def answers(library: Library) -> list:
    hits = run_search(library, "exalted attacks alone", {}, 5).hits
    return [(h.id, h.score) for h in hits]


def test_a_second_build_reuses_the_cache_and_answers_the_same(small_corpus, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / "cache"))
    first = Library(tmp_path / "one", small_corpus)
    first.build()
    before = answers(first)
    assert before and all(hit.startswith("cr:") for hit, _ in before)
    assert len(list((tmp_path / "cache").glob("cr-*/whoosh/_MAIN_1.toc"))) == 1

    def no_parsing(*args, **kwargs):
        raise AssertionError("the cached archive was parsed again")

    monkeypatch.setattr(archive, "parse_archive", no_parsing)
    second = Library(tmp_path / "two", small_corpus)
    second.build()
    assert answers(second) == before
    assert second.store.get("cr:702.80a@2009-07-11").span == ["2009-07-11", "2009-09-04"]


def test_a_damaged_cache_entry_is_rebuilt(small_corpus, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / "cache"))
    Library(tmp_path / "one", small_corpus).build()
    entry = next((tmp_path / "cache").glob("cr-*"))
    (entry / "versions.json").write_text("{", encoding="utf-8")  # truncated: ignored
    library = Library(tmp_path / "two", small_corpus)
    library.build()
    assert answers(library) == answers(Library(tmp_path / "one", small_corpus))
    assert json.loads((entry / "versions.json").read_text())["records"]  # written again


def _stale_entries(cache: Path, n: int) -> list[Path]:
    """`n` archive entries of older code (SOURCE-KEY folders), oldest first, a day apart."""
    import os

    stale = []
    for age in range(n, 0, -1):
        folder = cache / f"cr-{age:020x}"
        (folder / "whoosh").mkdir(parents=True)
        (folder / "versions.json").write_text("{}", encoding="utf-8")
        os.utime(folder, (1e9 - age * 86400, 1e9 - age * 86400))
        stale.append(folder)
    return stale


def test_a_build_drops_the_archive_entries_of_older_code_beyond_two_spare(small_corpus, tmp_path, monkeypatch):
    """Each code change keys a new archive entry (80-90 MB for the bundled archive): a build keeps
    its own and the two most recently used others, and leaves segments and other files alone."""
    from rulebase.build.cache import ENTRY_SPARE

    cache = tmp_path / "cache"
    monkeypatch.setenv("RULEBASE_CACHE", str(cache))
    stale = _stale_entries(cache, 4)
    (cache / "notes.txt").write_text("mine", encoding="utf-8")
    segment = cache / f"segment-{0:024x}"
    segment.mkdir()
    Library(tmp_path / "one", small_corpus).build()
    entries = sorted(p.name for p in cache.glob("cr-*"))
    own = [name for name in entries if name not in {p.name for p in stale}]
    assert len(own) == 1 and (cache / own[0] / "whoosh" / "_MAIN_1.toc").is_file()
    assert [p.exists() for p in stale] == [False, False, True, True] and ENTRY_SPARE == 2
    assert (cache / "notes.txt").is_file() and segment.is_dir()
    before = answers(Library(tmp_path / "one", small_corpus))
    for folder in stale[2:]:  # used since: the build's own entry is kept even when it is the oldest
        import os

        os.utime(folder)
    Library(tmp_path / "two", small_corpus).build()
    assert (cache / own[0]).is_dir() and all(p.exists() for p in stale[2:])
    assert answers(Library(tmp_path / "two", small_corpus)) == before


def test_pruning_keeps_what_a_build_uses_and_the_most_recent(tmp_path):
    from rulebase.build.cache import prune_entries

    stale = _stale_entries(tmp_path, 5)
    unknown = tmp_path / "cr-notakey"
    unknown.mkdir()
    prune_entries({stale[0]}, tmp_path, spare=1)
    assert [p.exists() for p in stale] == [True, False, False, False, True] and unknown.is_dir()
    prune_entries(set(), tmp_path / "absent")  # no cache folder yet: nothing to do, no error


def test_pruning_leaves_what_another_build_may_be_using(tmp_path):
    """A folder used in the last hour may be another build's, chosen and not yet copied: kept
    beyond the spare ones; the others go."""
    import os

    from rulebase.build.cache import prune_entries, prune_segments

    stale = _stale_entries(tmp_path, 3)
    os.utime(stale[0])  # another build's, just now
    segments = [tmp_path / f"segment-{n:024x}" for n in range(3)]
    for n, segment in enumerate(segments):
        segment.mkdir()
        if n:
            os.utime(segment, (1e9, 1e9))
    prune_entries(set(), tmp_path, spare=0)
    prune_segments(set(), tmp_path, spare=0)
    assert [p.exists() for p in stale] == [True, False, False]
    assert [p.exists() for p in segments] == [True, False, False]


def test_an_added_release_joins_the_timeline(small_corpus, tmp_path, monkeypatch):
    """`rulebase add` of a release the archive lacks (2009-10-01 beside 2009-05-01, -07-11, -09-04):
    its rules become versions on the archive's timeline, in --as-of, history and changes alike."""
    from typer.testing import CliRunner

    from rulebase.cli.app import app

    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("RULEBASE_CORPUS", str(small_corpus))
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    with tarfile.open(ROOT / "corpus" / "comprules-archive-2003-2026.tar.xz", "r:xz") as tar:
        data = tar.extractfile("comprules-archive/comprules-2009-10-01.txt").read()
    (tmp_path / "october.txt").write_bytes(data)
    runner = CliRunner()
    index = ["--index", str(tmp_path / "index")]
    added = runner.invoke(app, [*index, "add", str(tmp_path / "october.txt")])
    assert added.exit_code == 0, added.output
    library = Library(tmp_path / "index", small_corpus)
    releases = [r["date"] for r in library.store.releases()["cr"]]
    assert releases == ["2009-05-01", "2009-07-11", "2009-09-04", "2009-10-01"]
    assert not library.store.of_source("cr2009")  # no document of its own: its rules are cr versions
    as_of = runner.invoke(app, [*index, "lookup", "702.80a", "--as-of", "2009-11-01"])
    assert as_of.exit_code == 0 and as_of.stdout.startswith("cr 702.80a\n")
    assert "in force now, text since 2009-07-11 · source cr · id cr:702.80a@2009-07-11 · in releases 2009-07-11 to 2009-10-01]" in as_of.stdout
    changes = runner.invoke(app, [*index, "changes", "--from", "2009-09-04", "--to", "2009-10-01"])
    assert changes.stdout.startswith("cr 2009-09-04 -> 2009-10-01: ")
    history = runner.invoke(app, [*index, "history", "702.80a"]).stdout
    assert history.splitlines()[0].endswith("in force now)")
    sources = runner.invoke(app, [*index, "sources"]).stdout
    assert "releases: 4 (4 files in small.tar.xz), 2009-05-01 to 2009-10-01" in sources
    own = sources[sources.index("\ncr2009 "):]  # its records are cr's, not "0 records:"
    assert "  records: in cr's timeline: its rules are cr:NUMBER@2009-10-01 versions, counted under cr\n" in own
    assert "0 records" not in own and "references:" not in own
    removed = runner.invoke(app, [*index, "remove", "cr2009"])
    assert removed.exit_code == 0, removed.output
    again = Library(tmp_path / "index", small_corpus)
    assert [r["date"] for r in again.store.releases()["cr"]] == ["2009-05-01", "2009-07-11", "2009-09-04"]


@pytest.fixture(scope="module")
def archive_cache(small_corpus, tmp_path_factory) -> Path:
    """A build cache holding the three-release archive, built once: each _add_and_answer starts
    from a copy of it, as a user whose archive was built before adds a release (the first
    build's parse and index, 5 s each time, are no part of what those tests compare)."""
    folder = tmp_path_factory.mktemp("archive-cache")
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (("RULEBASE_CACHE", folder / "cache"), ("RULEBASE_CORPUS", small_corpus),
                            ("RULEBASE_USER_CORPUS", folder / "user"), ("RULEBASE_WORKERS", "1")):
            patch.setenv(name, str(value))
        Library(folder / "index", small_corpus).build()
    return folder / "cache"


def _add_and_answer(small_corpus, tmp_path: Path, name: str, data: bytes, monkeypatch, cached: Path,
                    damage=None) -> list[str]:
    """`rulebase add` of one release into a fresh index (built first on a copy of the `cached`
    archive's build cache, so its entry is there; then `damage(cache folder)`), then what export,
    history, lookup --as-of, changes and sources print."""
    import shutil

    from typer.testing import CliRunner

    from rulebase.cli.app import app

    shutil.copytree(cached, tmp_path / name / "cache")
    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / name / "cache"))
    monkeypatch.setenv("RULEBASE_CORPUS", str(small_corpus))
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / name / "user"))
    runner = CliRunner()
    index = ["--index", str(tmp_path / name / "index")]
    Library(tmp_path / name / "index", small_corpus).build()
    if damage is not None:
        damage(tmp_path / name / "cache")
    (tmp_path / name / "release.txt").write_bytes(data)
    added = runner.invoke(app, [*index, "add", str(tmp_path / name / "release.txt")])
    assert added.exit_code == 0, added.output
    out = []
    for args in (["export"], ["history", "702.80a"], ["lookup", "702.80a", "--as-of", "2009-11-01"],
                 ["lookup", "100.1", "--as-of", "2009-06-01"], ["changes", "--from", "2009-09-04", "--to", "2009-10-01"],
                 ["sources"]):
        result = runner.invoke(app, [*index, *args])
        assert result.exit_code == 0, result.output
        out.append(result.stdout)
    return out


def test_a_newer_release_is_folded_from_the_cached_parse_as_a_full_parse_would(small_corpus, archive_cache, tmp_path,
                                                                               monkeypatch):
    """`rulebase add` of a release newer than the archive's (2009-10-01, one rule changed) parses
    only the added file, starting from the archive's cached parse (archive.extend), and the
    records, history, --as-of, changes and sources are byte for byte those of parsing every
    release again; a damaged cached parse falls back to the full parse."""
    with tarfile.open(ROOT / "corpus" / "comprules-archive-2003-2026.tar.xz", "r:xz") as tar:
        data = tar.extractfile("comprules-archive/comprules-2009-10-01.txt").read()
    assert b"Exalted is a triggered ability." in data
    data = data.replace(b"Exalted is a triggered ability.", b"Exalted is a triggered ability that works.")
    monkeypatch.setenv("RULEBASE_WORKERS", "1")  # parsed here, so that the files parsed are seen
    parsed: list[str] = []
    real_parse, real_extend = archive._parse_chunk, archive.extend
    monkeypatch.setattr(archive, "_parse_chunk", lambda source, chunk: (parsed.extend(n for _, n, _ in chunk),
                                                                        real_parse(source, chunk))[1])
    fast = _add_and_answer(small_corpus, tmp_path, "fast", data, monkeypatch, archive_cache)
    assert parsed[-1].startswith("added:") and len(parsed) == 1  # the archive's parse is cached: the add alone
    assert len(list((tmp_path / "fast" / "cache").glob("cr-*/resume.json"))) == 1  # only the archive's own entry

    monkeypatch.setattr(archive, "extend", lambda *args: None)  # the full parse, as before the Resume
    full = _add_and_answer(small_corpus, tmp_path, "full", data, monkeypatch, archive_cache)
    assert fast == full
    assert '"id": "cr:702.80a@2009-10-01"' in fast[0] and "that works" in fast[0]

    monkeypatch.setattr(archive, "extend", real_extend)

    def truncate(cache: Path) -> None:
        next(cache.glob("cr-*/resume.json")).write_text("{", encoding="utf-8")

    parsed.clear()
    damaged = _add_and_answer(small_corpus, tmp_path, "damaged", data, monkeypatch, archive_cache, truncate)
    assert damaged == full
    assert len(parsed) == len(RELEASES) + 1  # the damaged entry parsed again, then the add

    def unfit(cache: Path) -> None:  # intact (sealed again) but not this archive's: extend declines it
        from rulebase.build.cache import seal_entry

        resume = next(cache.glob("cr-*/resume.json"))
        text = resume.read_text(encoding="utf-8")
        resume.write_text(text.replace('"2009-07-11", "2009-09-04"]', '"2009-07-11", "2009-09-05"]'), encoding="utf-8")
        seal_entry(resume.parent)

    parsed.clear()
    assert _add_and_answer(small_corpus, tmp_path, "unfit", data, monkeypatch, archive_cache, unfit) == full
    assert len(parsed) == len(RELEASES) + 2  # the added file, then every release with it


def _closed_of(cache: Path) -> tuple[dict, dict]:
    """The closed.json (writer.write_archive_index) of the archive's own cache entry and of the
    entry with the added release."""
    own = next(cache.glob("cr-*/resume.json")).parent
    added = next(p for p in cache.glob("cr-*") if p != own)
    return tuple(json.loads((entry / "whoosh" / "closed.json").read_text(encoding="utf-8")) for entry in (own, added))


def _searches(tmp_path: Path, name: str) -> list:
    """DOCMETA (document numbers follow the segments) and what a few searches print."""
    from typer.testing import CliRunner

    from rulebase.cli.app import app

    index = tmp_path / name / "index"
    out: list = [(index / (index / "CURRENT").read_text().strip() / "whoosh" / "docmeta.bin").read_bytes()]
    for query in ("exalted", "trample", "damage prevention", "mulligan", "legend rule", "702.80a"):
        for when in ([], ["--as-of", "2009-12-01"], ["--as-of", "2009-06-01"]):
            result = CliRunner().invoke(app, ["--index", str(index), "search", query, *when])
            out.append((result.exit_code, result.stdout))  # 1: no results
    return out


def test_a_folded_release_copies_the_closed_segment_and_indexes_as_a_build_from_scratch(
        small_corpus, archive_cache, tmp_path, monkeypatch):
    """The archive's index is two parts (writer.write_archive_index): the documents closed
    before its newest release, then the rest. A fold of a newer release copies the closed
    segment of the archive's own entry (the same documents: the same key) and indexes only the
    rest; the records, document numbers and search answers are byte for byte those of a build
    that parses and indexes every release (no cached parse, the closed segment written again),
    and of a fold whose cached closed segment does not match (written again)."""
    from rulebase.build import cache

    with tarfile.open(ROOT / "corpus" / "comprules-archive-2003-2026.tar.xz", "r:xz") as tar:
        data = tar.extractfile("comprules-archive/comprules-2009-10-01.txt").read()
    data = data.replace(b"Exalted is a triggered ability.", b"Exalted is a triggered ability that works.")
    monkeypatch.setenv("RULEBASE_WORKERS", "1")
    fast = _add_and_answer(small_corpus, tmp_path, "fast", data, monkeypatch, archive_cache)
    fast.extend(_searches(tmp_path, "fast"))
    own, added = _closed_of(tmp_path / "fast" / "cache")
    assert own == added and own["docs"] > 0  # copied: the same segment

    def rekey(cache_folder: Path) -> None:  # intact (sealed again) but another key: written again
        closed = next(cache_folder.glob("cr-*/whoosh/closed.json"))
        held = json.loads(closed.read_text(encoding="utf-8"))
        closed.write_text(json.dumps({**held, "key": "x" + held["key"][1:]}), encoding="utf-8")
        cache.seal_entry(closed.parent.parent)

    rekeyed = _add_and_answer(small_corpus, tmp_path, "rekeyed", data, monkeypatch, archive_cache, rekey)
    rekeyed.extend(_searches(tmp_path, "rekeyed"))
    own, added = _closed_of(tmp_path / "rekeyed" / "cache")
    assert own["segments"] != added["segments"] and own["docs"] == added["docs"]

    monkeypatch.setattr(archive, "extend", lambda *args: None)
    monkeypatch.setattr(cache.Entry, "load_resume", lambda self: None)  # from scratch: nothing to fold from
    full = _add_and_answer(small_corpus, tmp_path, "full", data, monkeypatch, archive_cache)
    full.extend(_searches(tmp_path, "full"))
    own, added = _closed_of(tmp_path / "full" / "cache")
    assert own["segments"] != added["segments"] and own["key"] == added["key"]
    assert fast == full and rekeyed == full
    assert "that works" in fast[0] and sum(code == 0 for code, _ in fast[7:]) > 12


def test_an_added_release_inside_the_timeline_is_parsed_with_every_release(small_corpus, tmp_path):
    """extend declines a release that took effect on or before the archive's newest: the fold
    then parses everything (parse_archive)."""
    from rulebase.core.sources import load_manifest

    source = load_manifest(small_corpus)[0]
    base = archive.parse_archive(source, workers=1)
    assert base.resume is not None and base.resume.dates == list(RELEASES)
    with tarfile.open(ROOT / "corpus" / "comprules-archive-2003-2026.tar.xz", "r:xz") as tar:
        (tmp_path / "feb.txt").write_bytes(tar.extractfile("comprules-archive/comprules-2009-02-01.txt").read())
        (tmp_path / "oct.txt").write_bytes(tar.extractfile("comprules-archive/comprules-2009-10-01.txt").read())
    older = (("2009-02-01", tmp_path / "feb.txt"),)
    assert archive.extend(source, base.resume, older) is None
    newer = (("2009-10-01", tmp_path / "oct.txt"),)
    extended = archive.extend(source, base.resume, newer)
    full = archive.parse_archive(source, workers=2, added=newer)
    assert extended is not None and extended.resume is None and full.resume is None
    assert [to_dict(r) for r in extended.parsed.records] == [to_dict(r) for r in full.parsed.records]
    assert (extended.parsed.notes, extended.parsed.meta, extended.parsed.warnings, extended.encodings) == (
        full.parsed.notes, full.parsed.meta, full.parsed.warnings, full.encodings)
    both = archive.parse_archive(source, workers=1, added=older + newer, resume=base.resume)
    assert [r["date"] for r in both.parsed.meta["releases"]][:2] == ["2009-02-01", "2009-05-01"]


def test_after_add_only_the_added_document_is_indexed(ck2008_corpus, tmp_path, monkeypatch):
    """Issue 21.9: a rebuild after `rulebase add` indexed every bundled document again. Their
    segment is cached, keyed by the digest of their search documents: the rebuild indexes only the
    added file, and answers exactly as a build without any cache."""
    from rulebase.build import writer
    from rulebase.usercorpus import add_document

    corpus, env = ck2008_corpus(tmp_path)
    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    Library(tmp_path / "one", corpus).build()
    written = []
    real = writer._write_segment
    monkeypatch.setattr(writer, "_write_segment", lambda path, docs: (written.append({d["source"] for d in docs}),
                                                                       real(path, docs))[1])
    mine = tmp_path / "mine.txt"
    mine.write_text((ROOT / "tests" / "fixtures" / "ck-2008-mini.txt").read_text(encoding="utf-8") + " Mine.",
                    encoding="utf-8")
    library = Library(tmp_path / "one", corpus)
    add_document(mine, library.sources, doc_id="mine")
    library.reload()
    library.build(force=False)
    assert written == [{"mine"}]
    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / "no-cache"))
    fresh = Library(tmp_path / "two", corpus)
    fresh.build()
    for query in ("exalted attacks alone", "damage prevention", "scores odd"):
        ours = [(h.id, h.score) for h in run_search(library, query, {}, 10).hits]
        assert ours == [(h.id, h.score) for h in run_search(fresh, query, {}, 10).hits] and ours


def test_an_entry_replayed_under_another_key_is_refused(tmp_path, monkeypatch):
    """An entry's seal names its key (its folder's name): the bundled archive's entry copied over
    the one an `add` made (both sealed by this user) was trusted, and the added release vanished
    from a build that said the index was current. Now refused there, and rebuilt."""
    import shutil

    from rulebase.build import cache

    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / "cache"))
    bundled, added = tmp_path / "cache" / f"cr-{'a' * 20}", tmp_path / "cache" / f"cr-{'b' * 20}"
    for folder, text in ((bundled, "2019 text"), (added, "the added release")):
        assert cache.publish(folder, lambda tmp, text=text: (tmp / "versions.json").write_text(text, encoding="utf-8"))
        assert cache.read_trusted(folder, "versions.json") == text.encode()
    cache.refusals()
    shutil.rmtree(added)
    shutil.copytree(bundled, added)  # sums.json and its seal copied whole: sealed by this user
    assert cache.read_trusted(added, "versions.json") is None
    assert cache.refusals() == [f"the build cache entry {added} is not as this user's rulebase wrote it (its sums.json "
                                "is not sealed by this user's rulebase under its name: written elsewhere, altered, or "
                                "copied from another entry); not used, rebuilt from the sources"]
    assert cache.read_trusted(bundled, "versions.json") == b"2019 text"


def test_an_entry_another_build_published_meanwhile_is_kept_and_a_damaged_one_replaced(tmp_path, monkeypatch):
    """Two builds into different index folders can make one entry at once. The second to publish
    keeps the first's, which a build may be reading (it was replaced under that reader, which then
    refused it with a warning); a damaged entry under the name is replaced."""
    from rulebase.build import cache

    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "cache" / f"cr-{'c' * 20}"
    assert cache.publish(folder, lambda tmp: (tmp / "versions.json").write_text("first", encoding="utf-8"))
    first = (folder / "versions.json").stat().st_ino
    assert cache.publish(folder, lambda tmp: (tmp / "versions.json").write_text("second", encoding="utf-8"))
    assert (folder / "versions.json").stat().st_ino == first and cache.read_trusted(folder, "versions.json") == b"first"
    assert cache.refusals() == [] and sorted(p.name for p in folder.parent.iterdir()) == [".lock", folder.name]
    (folder / "versions.json").write_text("firsT", encoding="utf-8")  # damaged: same size, other bytes
    assert cache.publish(folder, lambda tmp: (tmp / "versions.json").write_text("third", encoding="utf-8"))
    assert cache.read_trusted(folder, "versions.json") == b"third" and cache.refusals() == []
