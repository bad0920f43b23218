"""usercorpus/held.py: what the corpus holds, as digests, and the archives' digests kept between adds."""

from __future__ import annotations

import shutil

import pytest

from rulebase.core.sources import load_manifest
from rulebase.usercorpus import held


@pytest.fixture
def small_corpus(tmp_path, monkeypatch, three_release_archive) -> list:
    """The three-release archive's corpus in a folder of its own, with a cache of its own."""
    folder = tmp_path / "corpus"
    shutil.copytree(three_release_archive, folder)
    monkeypatch.setenv("RULEBASE_CACHE", str(tmp_path / "cache"))
    return load_manifest(folder)


def _counting(monkeypatch) -> list[int]:
    """How many archive releases text_digest reads."""
    reads: list[int] = []
    real = held.text_digest
    monkeypatch.setattr(held, "text_digest", lambda data: (reads.append(1), real(data))[1])
    return reads


def test_the_archives_releases_are_read_once_and_named_alike_after(small_corpus, monkeypatch, tmp_path):
    reads = _counting(monkeypatch)
    first = held.held_digests(small_corpus, {"comprules"})
    assert len(reads) == 4  # the archive's three releases and the archive file itself
    named = sorted(v for v in first.values() if "its release" in v)
    assert named == [f"'cr' (its release comprules-{d}.txt)" for d in ("2009-05-01", "2009-07-11", "2009-09-04")]
    reads.clear()
    assert held.held_digests(small_corpus, {"comprules"}) == first
    assert reads == []  # kept: nothing decoded again
    assert sorted(p.suffix for p in (tmp_path / "cache" / "held").iterdir()) == [".json", ".txt"]


def test_a_changed_archive_is_read_again(small_corpus, monkeypatch, tmp_path):
    held.held_digests(small_corpus, {"comprules"})
    archive = small_corpus[0].path
    archive.write_bytes(archive.read_bytes() + b"\0" * 512)  # (a tar's end padding: the same members)
    reads = _counting(monkeypatch)
    held.held_digests(small_corpus, {"comprules"})
    assert len(reads) == 4


@pytest.mark.parametrize("damage", [b"", b"{not json", b'{"text:1": 2}', b"[]"])
def test_a_damaged_kept_file_is_read_again_and_mended(small_corpus, monkeypatch, tmp_path, damage):
    first = held.held_digests(small_corpus, {"comprules"})
    kept = next((tmp_path / "cache" / "held").glob("*.json"))
    kept.write_bytes(damage)
    reads = _counting(monkeypatch)
    assert held.held_digests(small_corpus, {"comprules"}) == first
    assert len(reads) == 3  # the releases again, the archive file's own digest still kept
    assert held.held_digests(small_corpus, {"comprules"}) == first and len(reads) == 3


def test_a_cache_folder_that_cannot_be_written_costs_time_not_the_add(small_corpus, monkeypatch, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("RULEBASE_CACHE", str(blocked))
    first = held.held_digests(small_corpus, {"comprules"})
    assert any("its release" in v for v in first.values())
    assert blocked.read_text() == "a file where the cache folder would be"


def test_the_archives_are_not_read_for_a_document_of_another_format(small_corpus, monkeypatch, tmp_path):
    reads = _counting(monkeypatch)
    found = held.held_digests(small_corpus, {"crystalkeep-2008"})
    assert len(reads) == 1 and not any("its release" in v for v in found.values())
