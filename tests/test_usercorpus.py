"""`rulebase add` / `remove`: the user's own documents beside the bundled corpus."""

import json
import shutil
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebase import usercorpus
from rulebase.cli.app import app
from rulebase.core.errors import ManifestError, NotFound, UsageError
from rulebase.core.sources import load_manifest
from rulebase.index.versions import newest_first
from rulebase.library import Library
from rulebase.rules.lookup import diff_hint

FIXTURES = Path(__file__).parent / "fixtures"
CR2025 = FIXTURES / "comprules-2025-11-14.txt"
runner = CliRunner()


@pytest.fixture(scope="module")
def added(tmp_path_factory, corpus_without_archive):
    """A real index with the 2025 Comprehensive Rules added through the CLI, beside the bundled
    documents less the archive (which holds that release already: it stands for one it lacks)."""
    root = tmp_path_factory.mktemp("user")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULEBASE_CORPUS", str(corpus_without_archive))
        mp.setenv("RULEBASE_USER_CORPUS", str(root / "corpus"))
        mp.delenv("RULEBASE_INDEX", raising=False)
        result = runner.invoke(app, ["--index", str(root / "index"), "add", str(CR2025)])
        yield root, result


def _run(root: Path, *args: str):
    return runner.invoke(app, ["--index", str(root / "index"), *args])


def test_add_reports_what_it_read(added):
    root, result = added
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == ("added cr2025: Magic: The Gathering Comprehensive Rules (2025-11-14) "
                        "[cr2025, 2025-11-14, comprules]")
    assert lines[1] == "  read as utf-8; removed UTF-8 byte-order mark; converted 9250 CRLF line endings"
    assert lines[2] == "  detected from: 'effective as of November 14, 2025', numbered rules (100.1 ...)"
    assert lines[4].startswith("  4270 records (146 chapter, 1 document, 276 example, 725 glossary")
    assert lines[5] == f"  stored as {root / 'corpus' / 'cr2025.txt'}"


def test_copy_and_manifest_live_in_the_user_corpus(added):
    root, _ = added
    assert (root / "corpus" / "cr2025.txt").read_bytes() == CR2025.read_bytes()
    entry = tomllib.loads((root / "corpus" / "sources.toml").read_text())["source"][0]
    assert {k: entry[k] for k in ("id", "edition", "date", "format", "file", "lang")} == {
        "id": "cr2025", "edition": "cr2025", "date": "2025-11-14", "format": "comprules",
        "file": "cr2025.txt", "lang": "en"}
    bundled = load_manifest()
    assert "cr2025" not in {s.id for s in bundled}  # corpus/ untouched


def test_lookup_and_search_find_the_added_document(added):
    root, _ = added
    result = _run(root, "lookup", "702.83a", "--json")
    assert result.exit_code == 0
    assert json.loads(result.output)["id"] == "cr2025:702.83a"
    result = _run(root, "search", "exalted", "--edition", "cr2025", "--json", "-n", "3")
    ids = [h["id"] for h in json.loads(result.output)["hits"]]
    assert "cr2025:702.83a" in ids
    assert all(i.startswith("cr2025:") for i in ids)


def test_versions_newest_first_with_a_diff_hint(added):
    root, _ = added
    library = Library(root / "index")
    store = library.store
    docs = store.documents()
    assert docs["cr2025"] == {"id": "cr2025", "title": "Magic: The Gathering Comprehensive Rules (2025-11-14)",
                              "edition": "cr2025", "date": "2025-11-14", "format": "comprules", "bundled": False}
    versions = newest_first(store.by_number("100.1"), docs)
    assert [r.id for r in versions] == ["cr2025:100.1", "cr2008:100.1"]
    assert diff_hint(versions) == "rulebase diff cr2008:100.1 cr2025:100.1"
    ck = newest_first(store.by_number("502.83a"), docs)
    assert [r.source for r in ck] == ["cr2008", "ck2008"]  # official text first, then summaries
    assert diff_hint(versions[:1]) is None


def test_lookup_lists_both_releases_with_the_diff_command(added):
    root, _ = added
    result = _run(root, "lookup", "100.1")
    assert result.stdout.startswith("cr2025 100.1\n")
    lines = result.stdout.rstrip().splitlines()
    assert lines[-2:] == ["compare the versions: rulebase diff cr2008:100.1 cr2025:100.1",
                          "--full shows everything (1 identical copy)"]


def test_compare_takes_the_added_edition_as_a_column(added):
    root, _ = added
    result = _run(root, "compare", "mana burn", "--editions", "10e,cr2025", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data["editions"]) == ["10e", "cr2025"]
    assert data["editions"]["cr2025"]["summary"] is None  # searched, not curated, for the new column
    assert "cr2025:glossary.mana-burn" in [c["id"] for c in data["editions"]["cr2025"]["citations"]]
    unknown = _run(root, "compare", "mana burn", "--editions", "7e")
    assert unknown.exit_code == 2
    assert unknown.stderr == ("error: unknown edition '7e' - choose from alpha, 4e, 5e, 6e, 10e, cr2025 "
                              "(comma-separated)\n")


def test_sources_lists_it_as_not_bundled(added):
    root, _ = added
    data = json.loads(_run(root, "sources", "--json").output)
    entry = next(s for s in data if s["id"] == "cr2025")
    assert (entry["bundled"], entry["edition"], entry["encoding"]) == (False, "cr2025", "utf-8")


def test_adding_the_same_file_twice_is_refused(added):
    root, _ = added
    result = _run(root, "add", str(CR2025))
    assert result.exit_code == 2
    assert result.output == f"error: {CR2025} is already in the corpus as 'cr2025'\n"


def test_bundled_documents_cannot_be_removed(added):
    root, _ = added
    result = _run(root, "remove", "cr2008")
    assert result.exit_code == 2
    assert result.output == ("error: 'cr2008' is part of the bundled corpus and cannot be removed - "
                             "only documents added with 'rulebase add' can be removed\n")


@pytest.mark.parametrize("bad", ["../etc", "a/b", "..", "CR2025", "x" * 41, "-x", ""])
def test_ids_from_user_input_cannot_escape(added, bad):
    root, _ = added
    result = _run(root, "remove", "--", bad)
    assert result.exit_code == 2
    assert result.output.startswith(f"error: invalid document id {bad!r}")
    result = _run(root, "add", str(CR2025), f"--id={bad}")
    assert result.exit_code == 2
    assert sorted(p.name for p in (root / "corpus").iterdir()) == [".lock", "cr2025.txt", "sources.toml"]


def test_unknown_user_document_is_not_found(added):
    root, _ = added
    result = _run(root, "remove", "cr1999")
    assert result.exit_code == 1
    assert result.output == ("error: no user-added document 'cr1999' - 'rulebase sources' lists every document; "
                             "added with 'rulebase add': cr2025\n")  # named, not offered as 'did you mean'
    again = _run(root, "remove", "cr2025-2")  # an id alike by construction: no other document is offered
    assert again.exit_code == 1 and "did you mean" not in again.output


def test_remove_takes_it_out_again(added):  # last: changes the module's index
    root, _ = added
    result = _run(root, "remove", "cr2025")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "removed cr2025: Magic: The Gathering Comprehensive Rules (2025-11-14)"
    assert not (root / "corpus" / "cr2025.txt").exists()
    assert _run(root, "lookup", "702.83a").exit_code == 1


# -- the library API, without index builds --------------------------------------------------------


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    return tmp_path / "user"


@pytest.mark.parametrize(("name", "encoding", "repairs"), [
    ("user-ck2008-utf16.txt", "utf-16-le", ["removed UTF-16 byte-order mark"]),
    ("user-ck1999-cp1252-cr.txt", "cp1252", ["converted 12 bare CR line endings"]),
    ("user-ck1999-fffd.txt", "utf-8", ["restored 1 apostrophe(s) and 2 quotation mark(s) from U+FFFD"]),
])
def test_add_reads_any_encoding_and_says_how(corpus, name, encoding, repairs):
    done = usercorpus.add_document(FIXTURES / name, load_manifest())
    assert (done.encoding, done.repairs) == (encoding, repairs)
    assert done.records > 0
    assert (corpus / done.source.file).read_bytes() == (FIXTURES / name).read_bytes()
    [source] = usercorpus.load_user_sources()
    assert (source.id, source.bundled, source.path) == (done.source.id, False, corpus / done.source.file)


def test_add_ids_and_overrides(corpus):
    bundled = load_manifest()
    first = usercorpus.add_document(FIXTURES / "ck-2008-mini.txt", bundled)
    assert (first.source.id, first.source.edition, first.source.date) == ("ck2008-1020", "10e", "2008-10-20")
    second = usercorpus.add_document(FIXTURES / "user-ck1999-cp1252-cr.txt", bundled + [first.source],
                                     edition="6e", doc_id="my-ck")
    assert (second.source.id, second.source.edition, second.source.edition_note) == ("my-ck", "6e", None)
    assert [s.id for s in usercorpus.load_user_sources()] == ["ck2008-1020", "my-ck"]
    with pytest.raises(UsageError, match="unknown edition '7e'"):
        usercorpus.add_document(FIXTURES / "ck-1999-mini.txt", bundled, edition="7e")
    with pytest.raises(UsageError, match="does not say which edition"):
        usercorpus.add_document(Path("corpus/003_0262e3a98fc56fa1.txt"), [])


def test_add_refuses_what_it_cannot_parse(corpus, tmp_path):
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\nworld\n")
    with pytest.raises(UsageError, match="cannot tell what kind of rules document"):
        usercorpus.add_document(junk, [])
    with pytest.raises(UsageError, match="unknown format 'pdf'"):
        usercorpus.add_document(junk, [], fmt="pdf")
    assert not corpus.exists()  # nothing written


def test_hand_edited_manifest_errors_are_typed(corpus):
    corpus.mkdir()
    (corpus / "sources.toml").write_text('[[source]]\nid = "x"\n')
    with pytest.raises(ManifestError, match="missing or empty field"):
        usercorpus.load_user_sources()
    entry = {k: "x" for k in ("title", "date", "lang", "format", "provenance", "credit")}
    body = "".join(f'{k} = "{v}"\n' for k, v in entry.items())
    (corpus / "sources.toml").write_text(f'[[source]]\nid = "cr2008"\nedition = "10e"\nfile = "a.txt"\n{body}')
    with pytest.raises(ManifestError, match="already used"):
        usercorpus.load_user_sources({"cr2008"})
    (corpus / "sources.toml").write_text(f'[[source]]\nid = "a"\nedition = "10e"\nfile = "../a.txt"\n{body}')
    with pytest.raises(ManifestError, match="must be a plain file name"):
        usercorpus.load_user_sources()


def test_toml_strings_round_trip():
    for value in ['a "quoted" \\ path', "tab\tnew\nline\x7f\x00", "emoji 🙂 and ű"]:
        assert tomllib.loads(f"v = {usercorpus.toml_string(value)}")["v"] == value


def test_remove_unknown_in_empty_corpus(corpus):
    with pytest.raises(NotFound):
        usercorpus.remove_document("nope", load_manifest())
    shutil.rmtree(corpus, ignore_errors=True)


# -- several files at once: all checked first, one manifest write, one rebuild ---------------------


MINI = FIXTURES / "ck-2008-mini.txt"
UTF16 = FIXTURES / "user-ck2008-utf16.txt"
CK1999 = FIXTURES / "user-ck1999-cp1252-cr.txt"


def test_add_several_files_gives_each_its_own_id(corpus, monkeypatch):
    writes = []
    real = usercorpus._write_atomic
    monkeypatch.setattr(usercorpus, "_write_atomic", lambda path, data: (writes.append(path.name), real(path, data)))
    done = usercorpus.add_documents([MINI, UTF16, CK1999], load_manifest())
    assert [a.source.id for a in done] == ["ck2008-1020", "ck2008-2", "ck5e"]
    assert writes == ["ck2008-1020.txt", "ck2008-2.txt", "ck5e.txt", "sources.toml"]  # one manifest write
    assert [(s.id, s.path.read_bytes()) for s in usercorpus.load_user_sources()] == [
        (a.source.id, p.read_bytes()) for a, p in zip(done, (MINI, UTF16, CK1999), strict=True)]


@pytest.mark.parametrize(("bad", "message"), [
    ("missing.txt", "{bad}: file not found"),
    ("junk.txt", "{bad}: cannot tell what kind of rules document this is"),
    ("dir", "{bad} is a directory"),
    ("twice", "{bad} has the same bytes as {MINI}"),
])
def test_one_bad_file_stops_the_whole_batch(corpus, tmp_path, bad, message):
    (tmp_path / "junk.txt").write_text("hello\n")
    (tmp_path / "dir").mkdir()
    path = MINI if bad == "twice" else tmp_path / bad
    with pytest.raises((UsageError, usercorpus.SourceError)) as caught:
        usercorpus.add_documents([MINI, CK1999, path], load_manifest())
    assert caught.value.message.startswith(message.format(bad=path, MINI=MINI))
    assert not corpus.exists()  # nothing written


def test_one_id_cannot_name_several_files(corpus):
    with pytest.raises(UsageError, match=r"^--id names one document, but 2 files were given"):
        usercorpus.add_documents([MINI, CK1999], load_manifest(), doc_id="mine")
    assert not corpus.exists()


@pytest.fixture
def tiny(tmp_path, monkeypatch, one_source_corpus):
    """A one-document bundled corpus: the rebuilds these CLI tests cause stay cheap."""
    bundled = one_source_corpus(tmp_path / "bundled", "ck-1999-mini.txt", "ck.txt", "ck1999", "Crystal Keep mini",
                                "5e", "1999-04", "crystalkeep-1999")
    monkeypatch.setenv("RULEBASE_CORPUS", str(bundled))
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    builds = []
    real = Library.build
    monkeypatch.setattr(Library, "build", lambda self, *a, **k: (builds.append(1), real(self, *a, **k))[1])
    return tmp_path, builds


def test_cli_adds_several_files_with_one_rebuild(tiny):
    root, builds = tiny
    result = _run(root, "add", str(MINI), str(UTF16), "--edition", "10e", "--json")
    assert result.exit_code == 0, result.output
    assert [(d["id"], d["edition"]) for d in json.loads(result.stdout)] == [("ck2008", "10e"), ("ck2008-1020", "10e")]
    assert builds == [1]
    text = _run(root, "lookup", "ck2008-1020:100.1")
    assert text.exit_code == 0, text.output
    assert builds == [1]  # the rebuild after the add covered both documents


def test_cli_refuses_id_with_several_files(tiny):
    root, builds = tiny
    result = _run(root, "add", str(MINI), str(UTF16), "--id", "mine")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == ("error: --id names one document, but 2 files were given - "
                             "add the files one at a time to choose each id\n")
    assert builds == [] and not (root / "user" / "sources.toml").exists()


def test_cli_names_the_bad_file_and_writes_nothing(tiny):
    root, builds = tiny
    result = _run(root, "add", str(MINI), str(root / "nope.txt"))
    assert (result.exit_code, result.stderr) == (2, f"error: {root / 'nope.txt'}: file not found\n")
    assert builds == [] and not (root / "user" / "sources.toml").exists()


def test_the_1999_crystal_keep_texts_can_be_added(tiny):
    """CR-1999-04-23 (date only at the end and in its '04/23/99' header, '=====' banner) and
    CR-1999-11-01 ('COMPREHENSIVE' / 'RULES' on two lines): detected, dated, labelled 6e, and
    with --format given the date is still read. (Beside a one-document bundled corpus: what is
    asserted is the added documents' reading, and each add rebuilds the index.)"""
    import tarfile

    tmp_path, builds = tiny
    folder = tmp_path / "files"
    folder.mkdir()
    with tarfile.open(Path(__file__).resolve().parent.parent / "corpus" / "comprules-extra-1999-2018.tar.xz") as tar:
        for date in ("1999-04-23", "1999-11-01"):
            data = tar.extractfile(f"comprules-extra-1999-2018/CR-{date}.txt").read()
            (folder / f"CR-{date}.txt").write_bytes(data)
    index = ["--index", str(tmp_path / "index")]
    result = runner.invoke(app, [*index, "add", str(folder / "CR-1999-04-23.txt")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "added cr1999: COMPREHENSIVE RULES (1999-04-23) [6e, 1999-04-23, comprules]"
    forced = runner.invoke(app, [*index, "add", str(folder / "CR-1999-11-01.txt"), "--format", "comprules"])
    assert forced.exit_code == 0, forced.output
    assert forced.output.splitlines()[0] == (
        "added cr1999-1101: COMPREHENSIVE RULES (1999-11-01) [6e, 1999-11-01, comprules]")
    library = Library(tmp_path / "index")
    rules = [r for r in library.store.of_source("cr1999") if r.kind == "rule"]
    assert len(rules) == 346 and library.store.get("cr1999:502.9g").parent == "cr1999:502.9"
    assert not [r for r in library.store.of_source("cr1999") if r.kind == "glossary" and "502.9" in (r.title or "")]
    assert library.store.get("cr1999-1101:100").title == "General"


@pytest.mark.parametrize(("data", "kind"), [
    (b"\x7fELF\x02\x01\x01\x00" + bytes(500), "a program (ELF)"),
    (b"\x1f\x8b\x08\x00" + bytes(range(256)), "a gzip archive"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"),
    (b"abc\x00def" * 10, "binary data"),
    (bytes(range(1, 32)) * 20 + b"text", "binary data"),
    ("100.1. Rules".encode("utf-16-le"), None),  # UTF-16 without a byte-order mark: text
    ("100.1. Rules".encode("utf-16"), None),
    ("100.1. Rules".encode("utf-32"), None),
    (b"MZ is how this rules text begins\n", None),  # a signature needs binary bytes after it
    (b"BZh and other words\n", None),
    ("Könyvtár \x1b[2J rules\n".encode(), None),  # control characters in a text: escaped when shown
])
def test_binary_kind_tells_programs_archives_and_images_from_text(data, kind):
    """Issue 20.5: `add /bin/ls` was read as UTF-16 and failed 'at byte 872'."""
    from rulebase.ingest.bounds import binary_kind

    assert binary_kind(data) == kind


def test_adding_a_program_raises_not_text(tmp_path):
    from rulebase.core.errors import NotText

    program = tmp_path / "ls"
    program.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(5000))
    with pytest.raises(NotText) as caught:
        usercorpus.add_document(program, [])
    assert (caught.value.path, caught.value.kind, caught.value.exit_code) == (str(program), "a program (ELF)", 2)
