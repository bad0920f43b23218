import pytest

from rulebase.core.errors import IndexError_, ManifestError
from rulebase.library import Library


def test_user_sources_join_the_bundled_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    library = Library(tmp_path / "index")
    ids = [s.id for s in library.sources]
    assert ids == ["alpha", "rb4e", "rb5e", "ck1999", "hu-guide", "cr2008", "ck2008", "cr", "mtr", "ipg", "jar", "dmtr",
                   "dipg", "cards"]
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
    monkeypatch.setattr("rulebase.library.places.writable", lambda path: False)
    with pytest.raises(IndexError_) as err:
        Library(tmp_path).ensure()
    assert err.value.message == (
        f"{tmp_path}: the index is damaged (its CURRENT pointer names a generation that is missing or "
        "unreadable) and the directory is not writable, so it cannot be rebuilt here - point --index or "
        "RULEBASE_INDEX at a writable directory")


# -- a corpus that changes while the index builds (two `rulebase remove` at once) -------------------


def _two_user_documents(tmp_path, monkeypatch, one_source_corpus) -> Library:
    """A one-document bundled corpus and a user corpus of two small Comprehensive Rules files."""
    import shutil
    from pathlib import Path

    user = tmp_path / "user"
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(user))
    bundled = one_source_corpus(tmp_path / "bundled", "ck-2008-mini.txt", "ck.txt", "ck2008", "CK mini", "10e",
                                "2008-10-20", "crystalkeep-2008")
    user.mkdir()
    text = ""
    for n in (1, 2):
        shutil.copy(Path(__file__).parent / "fixtures" / "cr-letters.txt", user / f"doc{n}.txt")
        text += (f'[[source]]\nid = "doc{n}"\ntitle = "t"\nedition = "cr2020"\ndate = "2020-06-01"\nlang = "en"\n'
                 f'file = "doc{n}.txt"\nformat = "comprules"\nprovenance = "p"\ncredit = "c"\n\n')
    (user / "sources.toml").write_text(text)
    return Library(tmp_path / "index", bundled)


def test_a_document_removed_while_the_sources_were_read_is_built_without(tmp_path, monkeypatch, one_source_corpus):
    from rulebase import usercorpus

    library = _two_user_documents(tmp_path, monkeypatch, one_source_corpus)
    assert [s.id for s in library.sources] == ["ck2008", "doc1", "doc2"]  # read: now another process removes
    usercorpus.remove_document("doc1", library.sources)
    built = library.build(force=False)  # before the fix: 'doc1.txt: file not found'
    assert [s["id"] for s in built.report()["sources"]] == ["ck2008", "doc2"]
    assert [s.id for s in library.sources] == ["ck2008", "doc2"]


def test_a_document_added_during_the_build_is_built_again_with(tmp_path, monkeypatch, one_source_corpus):
    import shutil

    from rulebase.build import builder

    library = _two_user_documents(tmp_path, monkeypatch, one_source_corpus)
    user = tmp_path / "user"
    real, calls = builder.build, []

    def racing(index_dir, sources, *args, **kwargs):
        calls.append([s.id for s in sources])
        if len(calls) == 1:  # another `rulebase add` lands after the manifest was read
            shutil.copy(user / "doc2.txt", user / "doc3.txt")
            with open(user / "sources.toml", "a") as manifest:
                manifest.write('[[source]]\nid = "doc3"\ntitle = "t"\nedition = "cr2020"\ndate = "2020-06-01"\n'
                               'lang = "en"\nfile = "doc3.txt"\nformat = "comprules"\nprovenance = "p"\n'
                               'credit = "c"\n')
        return real(index_dir, sources, *args, **kwargs)

    monkeypatch.setattr(builder, "build", racing)
    built = library.build(force=False)
    assert calls == [["ck2008", "doc1", "doc2"], ["ck2008", "doc1", "doc2", "doc3"]]
    assert [s["id"] for s in built.report()["sources"]] == ["ck2008", "doc1", "doc2", "doc3"]


def test_a_missing_file_in_a_corpus_that_did_not_change_is_the_error(tmp_path, monkeypatch, one_source_corpus):
    from rulebase.build import builder
    from rulebase.core.errors import SourceError

    library = _two_user_documents(tmp_path, monkeypatch, one_source_corpus)
    (tmp_path / "user" / "doc2.txt").unlink()
    real, calls = builder.build, []
    monkeypatch.setattr(builder, "build", lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    with pytest.raises(SourceError, match="doc2.txt: file not found"):
        library.build(force=False)
    assert calls == [1]  # not retried: nothing moved under the build


def test_an_input_changed_while_the_build_read_it_leaves_the_stamp_stale(tmp_path, monkeypatch, one_source_corpus):
    """The stamp is taken before the inputs are read: a later change is seen by the next reader."""
    from rulebase.build import builder
    from rulebase.index.generation import stamp_matches

    library = _two_user_documents(tmp_path, monkeypatch, one_source_corpus)
    real = builder.assemble

    def touching(sources, *args):
        out = real(sources, *args)
        (tmp_path / "user" / "doc2.txt").write_text("edited after it was read\n")
        return out

    monkeypatch.setattr(builder, "assemble", touching)
    built = library.build(force=False)
    assert not stamp_matches(built.meta["stamp"], library._watched())


def test_an_index_folder_whose_parent_does_not_exist_is_refused(tmp_path):
    """A mistyped `--index /nonexistent/x` made the folders and built 150 MB there: refused in one
    line, exit 2, nothing created; a new folder inside an existing one is still made."""
    from typer.testing import CliRunner

    from rulebase.cli.app import app

    missing = tmp_path / "nonexistent" / "x"
    with pytest.raises(IndexError_, match="no such folder"):
        Library(missing, typed=True).ensure()
    result = CliRunner().invoke(app, ["--index", str(missing), "lookup", "702.19b"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: {missing}: no such folder {missing.parent} - give --index (or RULEBASE_INDEX) a "
                             "folder that exists or a new one inside an existing folder (it is created there)\n")
    assert not missing.parent.exists()
    assert Library(tmp_path / "new", typed=True).status().generation is None  # (its parent exists: made on build)


def test_a_read_never_waits_for_a_build_that_took_the_lock_after_it_looked(tmp_path, monkeypatch, one_source_corpus):
    """A read that found the index stale while an add had written its manifest but not
    yet taken the build lock built in the foreground, or waited for the add's build (40-80 s). Now
    `add` holds the lock from before the manifest changes, and a read's own build never waits:
    it answers from the last generation."""
    import threading

    from rulebase.build.builder import build_lock
    from rulebase.core import locking

    first = _two_user_documents(tmp_path, monkeypatch, one_source_corpus)
    old = first.build()
    manifest = tmp_path / "user" / "sources.toml"
    manifest.write_text(manifest.read_text().split("[[source]]\nid = \"doc2\"")[0])  # an add or remove's change
    monkeypatch.setattr(locking, "held", lambda _: False)  # the lock was free when the read looked
    got: list = []
    with build_lock(tmp_path / "index"):  # ... and taken just after
        reader = threading.Thread(target=lambda: got.append(Library(tmp_path / "index", first.corpus_dir).ensure()))
        reader.start()
        reader.join(timeout=60)
        alive = reader.is_alive()
    reader.join()
    assert not alive, "the read waited for the build lock"
    assert got[0].path == old.path
