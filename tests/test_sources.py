import pytest

from rulebase.core.errors import ManifestError
from rulebase.core.sources import EDITIONS, edition_rank, is_edition, load_manifest

GOOD = """
[[source]]
id = "x"
title = "T"
edition = "4e"
date = "1995"
lang = "en"
file = "x.txt"
format = "forum-rulebook"
provenance = "p"
credit = "c"
"""


def test_bundled_manifest_names_every_corpus_file_with_credit():
    sources = load_manifest()
    assert [s.id for s in sources] == ["alpha", "rb4e", "rb5e", "ck1999", "hu-guide", "cr2008", "ck2008", "cr",
                                       "mtr", "ipg", "jar", "dmtr", "dipg", "cards"]
    assert {s.edition for s in sources} == {*EDITIONS, "dated", "cr2026"}  # the archive: each release its own era;
    # the cards: the rules of their year
    for source in sources:
        assert source.path.is_file(), source.path
        assert source.credit and source.provenance
    hu = next(s for s in sources if s.id == "hu-guide")
    assert hu.edition == "6e" and hu.edition_note.startswith("inferred")
    ck = [s for s in sources if s.id.startswith("ck")]
    assert all("Stephen D'Angelo" in s.credit and "version" in s.credit for s in ck)
    tournament = [s for s in sources if s.format == "tournament-archive"]  # five documents, one tar.xz
    assert {s.path.name for s in tournament} == {"tournament-rules-2013-2025.tar.xz"}
    assert [s.part for s in tournament] == ["mtr", "ipg", "jar", "dmtr", "dipg"]
    assert all(s.gaps and "/" in s.date and "Wizards of the Coast" in s.credit for s in tournament)


def test_manifest_errors_say_where(tmp_path):
    (tmp_path / "sources.toml").write_text(GOOD.replace('edition = "4e"', 'edition = "7e"'))
    with pytest.raises(ManifestError) as err:
        load_manifest(tmp_path)
    assert err.value.message == (f"{tmp_path}/sources.toml [[source]] #1: unknown edition '7e' - "
                                 "use one of alpha, 4e, 5e, 6e, 10e or crYYYY ('dated' for a comprules-archive or tournament-archive)")


def test_manifest_missing_field(tmp_path):
    (tmp_path / "sources.toml").write_text(GOOD.replace('credit = "c"', ""))
    with pytest.raises(ManifestError, match="missing or empty field"):
        load_manifest(tmp_path)


def test_manifest_rejects_paths_outside_the_corpus(tmp_path):
    (tmp_path / "sources.toml").write_text(GOOD.replace('"x.txt"', '"../x.txt"'))
    with pytest.raises(ManifestError, match="plain file name"):
        load_manifest(tmp_path)


def test_manifest_bad_toml(tmp_path):
    (tmp_path / "sources.toml").write_text("[[source]\n")
    with pytest.raises(ManifestError, match="not valid TOML"):
        load_manifest(tmp_path)


def test_missing_manifest(tmp_path):
    with pytest.raises(ManifestError, match="manifest not found"):
        load_manifest(tmp_path)


def test_edition_labels_and_order():
    assert all(is_edition(x) for x in ("4e", "5e", "6e", "10e", "cr2025"))
    assert not any(is_edition(x) for x in ("7e", "cr25", "CR2025", "cr2025x", "../x", ""))
    labels = ["cr2025", "10e", "4e", "cr2010", "6e", "5e"]
    assert sorted(labels, key=edition_rank) == ["4e", "5e", "6e", "10e", "cr2010", "cr2025"]


def test_every_manifest_field_is_in_the_fingerprint(tmp_path):
    """The index's meta holds what `sources` prints (titles, credits, an archive's gaps): a
    manifest edit of any of them rebuilds, or `sources` would print the old words."""
    from rulebase.core.sources import fingerprint

    (tmp_path / "x.txt").write_text("text", encoding="utf-8")
    (tmp_path / "sources.toml").write_text(GOOD, encoding="utf-8")
    before = fingerprint(load_manifest(tmp_path))
    assert fingerprint(load_manifest(tmp_path)) == before
    for old, new in [('credit = "c"', 'credit = "c2"'), ('title = "T"', 'title = "T2"'),
                     ('credit = "c"', 'credit = "c"\ngaps = "none in 1996"')]:
        (tmp_path / "sources.toml").write_text(GOOD.replace(old, new), encoding="utf-8")
        assert fingerprint(load_manifest(tmp_path)) != before, new
