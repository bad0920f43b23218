import pytest

from rulebase.core.errors import IndexError_, ManifestError
from rulebase.library import Library


def test_user_sources_join_the_bundled_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    library = Library(tmp_path / "index")
    ids = [s.id for s in library.sources]
    assert ids == ["alpha", "rb4e", "rb5e", "ck1999", "hu-guide", "cr2008", "ck2008", "cr"]
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "sources.toml").write_text(
        '[[source]]\nid = "cr2008"\ntitle = "t"\nedition = "10e"\ndate = "d"\nlang = "en"\nfile = "f.txt"\n'
        'format = "comprules"\nprovenance = "p"\ncredit = "c"\n')
    library.reload()
    with pytest.raises(ManifestError, match="id 'cr2008' is invalid or already used"):
        library.sources  # noqa: B018 - the property raises


def test_a_dangling_pointer_in_a_read_only_place_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    (tmp_path / "CURRENT").write_text("gen-gone\n")
    monkeypatch.setattr("rulebase.library._writable", lambda path: False)
    with pytest.raises(IndexError_) as err:
        Library(tmp_path).ensure()
    assert err.value.message == (
        f"{tmp_path}: the index is damaged (its CURRENT pointer names a generation that is missing or "
        "unreadable) and the directory is not writable, so it cannot be rebuilt here - point --index or "
        "RULEBASE_INDEX at a writable directory")
