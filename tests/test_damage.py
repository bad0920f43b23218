"""Index damage that keeps file sizes, a full disk, and index directories that are not ours.

Works on a one-document corpus (Crystal Keep 2008, 162 records: it holds 502.83a and prevention
rules) so that each rebuild takes about a second; every damage is made on a fresh copy of one
index built at module start, and the commands run as real subprocesses (the piped fast path).
"""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.index import seal

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
runner = CliRunner()


@pytest.fixture(scope="module")
def mini(tmp_path_factory, ck2008_corpus):
    root = tmp_path_factory.mktemp("damage")
    corpus, env = ck2008_corpus(root, RULEBASE_USER_CORPUS=str(root / "no-user-docs"), PYTHONDONTWRITEBYTECODE="1")
    index = root / "index"
    done = _run(env, index, "index", "build", "--json")
    assert done.returncode == 0, done.stderr
    lookup = _run(env, index, "lookup", "502.83a", "--json")
    search = _run(env, index, "search", "damage prevention", "--json")
    assert lookup.returncode == search.returncode == 0
    return env, index, {"lookup": lookup.stdout, "search": search.stdout}


def _run(env: dict, index: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebase", "--index", str(index), *args], env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def index(mini, tmp_path):
    copy = tmp_path / "index"
    shutil.copytree(mini[1], copy)  # copy2: file times are kept, as by cp -p, rsync -a or tar
    return copy


@pytest.fixture
def cli_env(mini, monkeypatch):
    for key, value in mini[0].items():
        if key.startswith("RULEBASE_"):
            monkeypatch.setenv(key, value)


def _gen(index: Path) -> Path:
    return index / (index / "CURRENT").read_text().strip()


def _garble_db(index: Path) -> None:
    db = _gen(index) / "records.db"
    data = bytearray(db.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 4096] = random.Random(12).randbytes(4096)
    db.write_bytes(bytes(data))


def _zero_pst(index: Path) -> None:
    pst = next((_gen(index) / "whoosh").glob("*.pst"))
    pst.write_bytes(bytes(pst.stat().st_size))


def _meta(change):
    def damage(index: Path) -> None:
        path = _gen(index) / "meta.json"
        meta = json.loads(path.read_text())
        path.write_text(change(meta) if callable(change) else change)
    return damage


def _garble_report(index: Path) -> None:
    """report.json (the sources' reports) as JSON of the same size that says nothing."""
    path = _gen(index) / "report.json"
    path.write_text("[" + " " * (path.stat().st_size - 2) + "]", encoding="utf-8")


def _pointer(data: bytes):
    return lambda index: (index / "CURRENT").write_bytes(data)


DAMAGE = {
    "garbled-db": (_garble_db, "records.db "),
    "zeroed-pst": (_zero_pst, ".pst "),
    "junk-current": (_pointer(b"#!?* not a generation\n"), "CURRENT pointer"),
    "non-utf8-current": (_pointer(b"gen-\xff\xfe\x80\x00junk"), "CURRENT pointer"),
    "deleted-current": (lambda index: (index / "CURRENT").unlink(), "CURRENT pointer is missing"),  # issue 21.8
    "meta-files-int": (_meta(lambda m: json.dumps({**m, "files": 3})), "meta.json"),
    "meta-fingerprint-list": (_meta(lambda m: json.dumps({**m, "fingerprint": []})), "meta.json"),
    "meta-a-list": (_meta(lambda m: json.dumps(list(m.items()))), "meta.json"),
    "meta-invalid-json": (_meta('{"fingerprint": "x", '), "meta.json"),
    "garbled-report": (_garble_report, "report.json"),
}


@pytest.mark.parametrize("command", ["lookup", "search"])
@pytest.mark.parametrize("name", list(DAMAGE))
def test_damage_that_keeps_sizes_is_reported_once_and_rebuilt(mini, index, name, command):
    env, _, baseline = mini
    damage, named = DAMAGE[name]
    damage(index)
    args = ["lookup", "502.83a"] if command == "lookup" else ["search", "damage prevention"]
    result = _run(env, index, *args, "--json")
    assert (result.returncode, result.stdout) == (0, baseline[command]), result.stderr
    [warning] = result.stderr.splitlines()
    assert warning.startswith(f"warning: the index at {index} is damaged (")
    assert warning.endswith("); rebuilding from the corpus")
    assert named in warning
    again = _run(env, index, *args, "--json")
    assert (again.returncode, again.stdout, again.stderr) == (0, baseline[command], "")


@pytest.mark.parametrize("name", list(DAMAGE))
def test_status_does_not_call_a_damaged_index_current(mini, index, name):
    env = mini[0]
    assert json.loads(_run(env, index, "index", "status", "--json").stdout)["current"] is True
    DAMAGE[name][0](index)
    status = _run(env, index, "index", "status", "--json")
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["current"] is False


def test_status_checksums_find_damage_that_kept_size_and_time(mini, index, cli_env):
    """Bit rot: the bytes change, the size and modification time do not. Readers do not hash the
    index on every command; `index status` does."""
    from rulebase.library import Library

    db = _gen(index) / "records.db"
    times = db.stat()
    _garble_db(index)
    os.utime(db, ns=(times.st_atime_ns, times.st_mtime_ns))
    status = Library(index).status()
    assert status.current is False
    assert status.problem == "records.db was changed since it was built (checksum mismatch)"


def test_a_read_error_during_a_query_is_damage_rebuilt_once(mini, index, cli_env):
    """Damage the stat check cannot see, found only when a query reads it: rebuild once, answer."""
    from rulebase.library import Library
    from rulebase.rules.lookup import lookup

    db = _gen(index) / "records.db"
    times = db.stat()
    conn = sqlite3.connect(db)
    pages = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'records_number'").fetchone()[0]
    conn.close()
    with open(db, "r+b") as handle:  # the number index's root page: every lookup by number reads it
        handle.seek((root - 1) * pages)
        handle.write(random.Random(3).randbytes(pages))
    os.utime(db, ns=(times.st_atime_ns, times.st_mtime_ns))
    library = Library(index)
    said: list[str] = []
    library.notify = said.append
    library.ensure()
    assert library.stale_reason is None  # the cheap check sees nothing
    result = lookup(library.store, "502.83a")
    assert [e.record.id for e in result.entries] == ["ck2008:502.83a"]
    assert said == [f"the index at {index} is damaged (records.db differs from what was built (keyed digest "
                    "mismatch)); rebuilding from the corpus"]
    assert Library(index).status().current is True


def test_a_failure_that_is_not_damage_is_not_rebuilt(mini, index, cli_env, monkeypatch):
    """A bug in a query is not damage: the checksums match, so no rebuild hides it."""
    from rulebase.index.store import RecordStore
    from rulebase.library import Library

    def broken(self, number):
        raise ValueError("a bug")

    monkeypatch.setattr(RecordStore, "by_number", broken)
    library = Library(index)
    before = Path(library.ensure().path)
    with pytest.raises(ValueError, match="a bug"):
        library.store.by_number("502.83a")
    assert library.stale_reason is None and _gen(index) == before


# -- a full disk ------------------------------------------------------------------------------


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _edquot_after_a_file(path, *args, **kwargs):
    Path(path).mkdir()
    (Path(path) / "_MAIN_1.toc").write_bytes(b"half")
    raise OSError(errno.EDQUOT, os.strerror(errno.EDQUOT))


def _sqlite_full(*args, **kwargs):
    exc = sqlite3.OperationalError("database or disk is full")
    exc.sqlite_errorcode = sqlite3.SQLITE_FULL
    raise exc


@pytest.mark.parametrize(("target", "fail", "why"), [
    ("rulebase.build.builder.write_db", _enospc, "No space left on device"),
    ("rulebase.build.writer.write_index", _edquot_after_a_file, "Disk quota exceeded"),
    ("rulebase.build.builder.write_db", _sqlite_full, "database or disk is full"),
])
def test_a_full_disk_is_a_one_line_error_and_the_old_index_answers(mini, index, cli_env, monkeypatch,
                                                                   target, fail, why):
    _, _, baseline = mini
    before = sorted(os.listdir(index))
    monkeypatch.setattr(target, fail)
    result = runner.invoke(app, ["--index", str(index), "index", "build"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: {index}: no space left to build the index ({why}) - free some space or "
                             "point --index or RULEBASE_INDEX at another directory\n")
    assert sorted(os.listdir(index)) == sorted([*before, ".build-failed"])  # nothing half-written left
    monkeypatch.undo()
    for key, value in mini[0].items():
        if key.startswith("RULEBASE_"):
            monkeypatch.setenv(key, value)
    answer = runner.invoke(app, ["--index", str(index), "lookup", "502.83a", "--json"])
    assert (answer.exit_code, answer.stdout, answer.stderr) == (0, baseline["lookup"], "")


def _stale(index: Path) -> None:
    meta_path = _gen(index) / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta["fingerprint"] = "an-older-corpus"  # stale: the next reader rebuilds
    meta["stamp"] = []  # (else the stamp says no input changed, and nothing is re-hashed)
    meta_path.write_text(json.dumps(meta))
    seal.sign(_gen(index))  # (an older build of this user's: sealed, as every build is)


def test_a_failed_build_is_remembered_and_not_retried_by_every_read(mini, tmp_path, cli_env, monkeypatch):
    """Issue 21.8a: on a full disk every read command retried the build (3.5 s each). The failure
    is remembered beside the index for a while: a read says the build failed and why in one line
    and exits 2 at once; a later build (`index build`, `add`, `remove`) tries again and clears it."""
    index = tmp_path / "fresh"
    attempts = tmp_path / "attempts"  # a file: records.db is written in a forked worker

    def full(*args, **kwargs):
        with open(attempts, "a") as handle:
            handle.write("1")
        _enospc()

    monkeypatch.setattr("rulebase.build.builder.write_db", full)
    first = runner.invoke(app, ["--index", str(index), "lookup", "502.83a"])
    assert (first.exit_code, first.stdout) == (2, "")
    assert first.stderr == (f"note: building the index in {index} (first use: a few minutes)\n"
                            f"error: {index}: no space left to build the index (No space left on device) - free "
                            "some space or point --index or RULEBASE_INDEX at another directory\n")
    assert json.loads((index / ".build-failed").read_text())["error"].startswith("no space left")
    for args in (["lookup", "502.83a"], ["search", "damage"], ["lookup", "502.83a", "--json"]):
        again = runner.invoke(app, ["--index", str(index), *args])
        # (with --json the error is JSON on stdout too: {error, hint, suggestions, exit_code})
        assert again.exit_code == 2
        assert (json.loads(again.stdout)["exit_code"] if "--json" in args else again.stdout) == (2 if "--json" in args else "")
        [line] = again.stderr.splitlines()
        assert line.startswith(f"error: {index}: no index: the last build, ")
        assert line.endswith(" ago, failed: no space left to build the index (No space left on device); not "
                             "retried for 10 minutes - free some space and run 'rulebase index build'")
    assert attempts.read_text() == "1"  # the reads did not build
    monkeypatch.setattr("rulebase.build.builder.write_db", _sqlite_full)
    retried = runner.invoke(app, ["--index", str(index), "index", "build"])  # asked for: tried again
    assert retried.exit_code == 2 and "database or disk is full" in retried.stderr
    monkeypatch.undo()
    for key, value in mini[0].items():
        if key.startswith("RULEBASE_"):
            monkeypatch.setenv(key, value)
    assert runner.invoke(app, ["--index", str(index), "index", "build"]).exit_code == 0
    assert not (index / ".build-failed").exists()  # cleared by the build that worked
    answer = runner.invoke(app, ["--index", str(index), "lookup", "502.83a", "--json"])
    assert (answer.exit_code, answer.stdout, answer.stderr) == (0, mini[2]["lookup"], "")


def test_a_remembered_failure_expires_and_a_stale_index_keeps_answering(mini, index, cli_env, monkeypatch):
    from rulebase.index import generation

    _stale(index)
    generation.remember_failure(index, "no space left to build the index (No space left on device)")
    monkeypatch.setattr("rulebase.build.builder.write_db", lambda *a, **k: pytest.fail("a read retried the build"))
    answer = runner.invoke(app, ["--index", str(index), "lookup", "502.83a", "--json"])
    assert (answer.exit_code, answer.stdout) == (0, mini[2]["lookup"])
    [line] = answer.stderr.splitlines()
    assert line.startswith(f"warning: the index at {index} is out of date and its rebuild ")
    assert line.endswith(" failed (no space left to build the index (No space left on device)); showing the old "
                         "index - free some space and run 'rulebase index build'")
    generation.remember_failure(index, "no space left (old)", now=time.time() - generation.FAILED_FOR - 1)  # expired
    monkeypatch.undo()
    for key, value in mini[0].items():
        if key.startswith("RULEBASE_"):
            monkeypatch.setenv(key, value)
    answer = runner.invoke(app, ["--index", str(index), "lookup", "502.83a", "--json"])
    assert (answer.exit_code, answer.stdout, answer.stderr) == (0, mini[2]["lookup"], "")  # rebuilt quietly
    assert not (index / ".build-failed").exists()


def test_a_failure_kept_when_not_even_its_note_fits(mini, tmp_path, monkeypatch):
    """On a disk with no byte left the note cannot be written: the failure is kept in .lock's
    modification time (which takes no space) and reported the same way."""
    from rulebase.index import generation

    folder = tmp_path / "ix"
    folder.mkdir()
    (folder / ".lock").touch()
    monkeypatch.setattr(generation, "open", _enospc, raising=False)  # (the note is written with open())
    generation.remember_failure(folder, "no space left to build the index (No space left on device)")
    monkeypatch.undo()
    assert not (folder / ".build-failed").exists()
    failure = generation.recent_failure(folder)
    error, ago = failure.error, failure.ago
    assert error.startswith("no space left") and 0 <= ago < 5
    generation.forget_failure(folder)
    assert generation.recent_failure(folder) is None


def test_a_full_disk_while_rebuilding_a_stale_index_serves_the_old_one(mini, index, cli_env, monkeypatch):
    _, _, baseline = mini
    _stale(index)
    monkeypatch.setattr("rulebase.build.builder.write_db", _enospc)
    answer = runner.invoke(app, ["--index", str(index), "lookup", "502.83a", "--json"])
    assert (answer.exit_code, answer.stdout) == (0, baseline["lookup"])
    assert answer.stderr == (f"warning: the index at {index} is out of date and could not be rebuilt (no space "
                             "left: No space left on device); showing the old index\n")


# -- index directories that are not ours ------------------------------------------------------


def _snapshot(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): (p.is_dir(), p.stat().st_mtime_ns,
                                             None if p.is_dir() else p.read_bytes())
            for p in sorted(root.rglob("*"))}


@pytest.fixture
def home(tmp_path) -> Path:
    folder = tmp_path / "home"
    (folder / "gen-photos").mkdir(parents=True)
    (folder / "gen-photos" / "beach.jpg").write_bytes(b"\xff\xd8 a photo")
    (folder / ".building-plans").mkdir()
    (folder / ".building-plans" / "shed.txt").write_text("a shed")
    (folder / ".CURRENT.bak").write_text("my own backup\n")
    (folder / "notes.txt").write_text("mine\n")
    return folder


@pytest.mark.parametrize("args", [["lookup", "502.83a"], ["search", "damage prevention"], ["index", "build"]])
def test_a_folder_that_is_not_an_index_is_refused_untouched(mini, home, args):
    before = _snapshot(home)
    result = _run(mini[0], home, *args)
    assert result.returncode == 2
    assert result.stderr == (f"error: {home}: not a rulebase index (it holds other files and no .rulebase-index "
                             "marker) - point --index or RULEBASE_INDEX at an empty or new directory\n")
    assert _snapshot(home) == before


def test_a_new_or_empty_folder_becomes_a_marked_index(mini, tmp_path):
    env, _, baseline = mini
    for folder in (tmp_path / "new-index", tmp_path / "empty"):  # (a new one inside an existing folder)
        if folder.name == "empty":
            folder.mkdir()
        result = _run(env, folder, "lookup", "502.83a", "--json")
        note = f"note: building the index in {folder} (first use: a few minutes)\n"
        assert (result.returncode, result.stdout, result.stderr) == (0, baseline["lookup"], note)
        assert (folder / ".rulebase-index").read_text().startswith("This directory is a rulebase index")


def test_an_index_built_by_an_older_version_is_adopted(mini, index):
    env, _, baseline = mini
    (index / ".rulebase-index").unlink()
    (index / ".building-20200101000000-1").mkdir()  # a killed build's leftovers: cleaned once adopted
    (index / ".CURRENT.99").write_text("gen-x\n")
    result = _run(env, index, "lookup", "502.83a", "--json")
    assert (result.returncode, result.stdout, result.stderr) == (0, baseline["lookup"], "")
    assert (index / ".rulebase-index").is_file()
    assert not [p for p in os.listdir(index) if p.startswith((".building-", ".CURRENT."))]


def test_pruning_never_runs_in_an_unmarked_folder(home):
    from rulebase.build.builder import _clean_partial, _prune, clean_leftovers

    before = _snapshot(home)
    (home / "CURRENT").write_text("gen-photos\n")
    assert clean_leftovers(home) == 0
    _clean_partial(home)
    _prune(home, keep=set())
    (home / "CURRENT").unlink()
    assert _snapshot(home) == before


def _keep_time(path: Path, change) -> None:
    info = path.stat()
    path.write_bytes(change(path.read_bytes()))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def _rot_record(index: Path) -> None:
    """A byte changed inside the record of 502.83a (exalted) in records.db, size and mtime kept
    (issue 21.5); rules are stored packed (index/packing.py), so the change is to the packed bytes."""
    db = _gen(index) / "records.db"
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    packed = conn.execute("SELECT data FROM records WHERE id = 'ck2008:502.83a'").fetchone()[0]
    conn.close()
    assert isinstance(packed, bytes)
    rotten = packed[:10] + bytes([packed[10] ^ 0x20]) + packed[11:]
    _keep_time(db, lambda data: data.replace(packed, rotten, 1))
    assert rotten in db.read_bytes()


def _rot_docmeta(index: Path) -> None:
    path = _gen(index) / "whoosh" / "docmeta.bin"
    _keep_time(path, lambda data: data[:64] + random.Random(5).randbytes(256) + data[320:])


def _rot_concepts(index: Path) -> None:
    path = _gen(index) / "whoosh" / "concepts.json"
    _keep_time(path, lambda data: data[:1] + b"[" + data[2:])


@pytest.mark.parametrize(("damage", "command", "named"), [
    (_rot_concepts, ["search", "damage prevention"], "whoosh/concepts.json differs from what was built (keyed digest mismatch)"),
    (_rot_record, ["lookup", "502.83a"], "records.db differs from what was built (keyed digest mismatch)"),
    (_rot_record, ["search", "exalted"], "records.db differs from what was built (keyed digest mismatch)"),
    (_rot_docmeta, ["search", "damage prevention"], "whoosh/docmeta.bin differs from what was built (keyed digest mismatch)")])
def test_bit_rot_that_keeps_size_and_time_is_found_when_read(mini, index, damage, command, named):
    """Issue 21.5: 'Exalted is a STATIC ability', exit 0, no warning; docmeta.bin's random bytes
    gave duplicate hits. Every file of a generation carries a keyed digest verified before it is
    read (and every record and docmeta.bin a checksum of its own besides)."""
    env = mini[0]
    before = _run(env, index, *command, "--json")
    damage(index)
    result = _run(env, index, *command, "--json")
    assert (result.returncode, result.stdout) == (0, before.stdout)
    assert result.stderr == f"warning: the index at {index} is damaged ({named}); rebuilding from the corpus\n"
    assert "STATIC" not in result.stdout


def test_bit_rot_in_the_stored_postings_is_found_when_read(mini, tmp_path, cli_env, monkeypatch):
    """postings.bin (the common terms' decoded postings) had no checksum: garbled scores there
    were wrong rankings, exit 0. Each term's parts carry a CRC-32 checked when first read; a
    mismatch is damage: one warning, a rebuild, the right answer. (The one-document corpus has no
    term in 300 documents, so this index stores the terms in 10.)"""
    from rulebase.index import postings

    monkeypatch.setattr(postings, "COMMON", 10)
    index = tmp_path / "index"
    assert runner.invoke(app, ["--index", str(index), "index", "build"]).exit_code == 0
    before = runner.invoke(app, ["--index", str(index), "search", "exalted attacks", "--json"])
    assert before.exit_code == 0 and before.stderr == ""
    path = _gen(index) / "whoosh" / postings.FILE
    table = json.loads((path.parent / postings.TABLE).read_text())
    start, n, *_ = table["text\texalt"]
    _keep_time(path, lambda data: data[:start + 4 * n] + bytes(8) * 4 + data[start + 4 * n + 32:])  # 4 scores 0
    result = runner.invoke(app, ["--index", str(index), "search", "exalted attacks", "--json"])
    assert (result.exit_code, result.stdout) == (0, before.stdout)
    assert result.stderr == (f"warning: the index at {index} is damaged (whoosh/postings.bin differs from what was "
                             "built (keyed digest mismatch)); rebuilding from the corpus\n")
    assert runner.invoke(app, ["--index", str(index), "search", "exalted attacks", "--json"]).stderr == ""


def test_an_unreadable_record_database_is_reported_as_unreadable_not_missing(mini, index, tmp_path):
    """Issue 21.8c: records.db with mode 000 was reported as missing. It is reported as unreadable
    (permission), with its path and what to do, exit 2, and nothing is rebuilt over it. Root reads
    any file, so as root the reader runs as nobody (setpriv) on an index that user owns."""
    import tempfile

    env, _, _ = mini
    root = Path(tempfile.mkdtemp(prefix="rulebase-perm-"))  # (pytest's own folders are root's, 0700)
    index = shutil.copytree(index, root / "index")
    tmp_path = root
    db = _gen(index) / "records.db"
    cmd = [sys.executable, "-m", "rulebase", "--index", str(index), "lookup", "502.83a"]
    if os.geteuid() == 0:
        for path in [root, *root.rglob("*")]:
            os.chown(path, 65534, 65534)
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    db.chmod(0o000)
    before = sorted(os.listdir(index))
    answer = subprocess.run(cmd, env={**env, "XDG_STATE_HOME": str(tmp_path / "state")}, capture_output=True,
                            text=True, timeout=120, cwd="/")
    db.chmod(0o644)
    assert (answer.returncode, answer.stdout) == (2, "")
    assert answer.stderr == (f"error: {db}: the record database is unreadable (Permission denied) - make it "
                             f"readable (chmod u+r {db}) or run 'rulebase index build' to build a new one\n")
    assert sorted(os.listdir(index)) == before  # not "repaired" by a rebuild
    shutil.rmtree(root)
