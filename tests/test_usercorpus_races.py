"""`rulebase add` / `remove` run by real processes at once, killed half-way, or pointed at a device.

Issue 12: two adds of the same year took one id (and one file), two removes brought a removed
document back, /dev/zero and a FIFO were read until MemoryError or forever, and a killed add left
an orphan copy and a `.sources.toml.<pid>.tmp`. Each test runs real processes; where the race is
in the manifest and file writing, the workers call the usercorpus functions (no index rebuild).
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
from pathlib import Path

import pytest

from rulebase import usercorpus
from rulebase.core.sources import load_manifest

ROOT = Path(__file__).parent.parent
FIXTURES = Path(__file__).parent / "fixtures"
ARCHIVES = [ROOT / "corpus" / "comprules-archive-2003-2026.tar.xz"]
RELEASES = ("comprules-2009-02-01.txt", "comprules-2009-05-01.txt", "comprules-2009-07-11.txt")
RULEBASE = Path(sys.executable).parent / "rulebase"
ROUNDS = 3

# A worker does what the CLI does: read the sources first, then add or remove. The barrier makes
# both workers hold the same (soon stale) view before either writes, so the race always happens.
WORKER = r"""
import sys, time
from pathlib import Path
from rulebase import usercorpus
from rulebase.core.errors import RulebaseError
from rulebase.library import Library
op, arg, ready, go = sys.argv[1:5]
existing = Library(Path(ready).parent / "index").sources
Path(ready).touch()
deadline = time.monotonic() + 30
while not Path(go).exists() and time.monotonic() < deadline:
    time.sleep(0.005)
try:
    if op == "add":
        print(usercorpus.add_document(Path(arg), existing).source.id)
    else:
        print(usercorpus.remove_document(arg, existing).id)
except RulebaseError as exc:
    sys.exit(f"{exc.exit_code} {exc.message}")
"""

# Killed with SIGKILL when it is about to put a file named `sys.argv[2]`-something in place.
KILLED = r"""
import os, signal, sys
from pathlib import Path
from rulebase import usercorpus
from rulebase.core.sources import load_manifest
real = os.replace
def replace(src, dst):
    if str(dst).endswith(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)
    return real(src, dst)
usercorpus.os.replace = replace
usercorpus.add_document(Path(sys.argv[1]), load_manifest())
"""


@pytest.fixture(scope="module")
def releases(tmp_path_factory) -> dict[str, Path]:
    """Three 2009 Comprehensive Rules releases unpacked from the archive (two share 'cr2009'), as a
    user's copies: a word added to the title, since `add` refuses the archive's own texts (in any
    encoding or spacing: a space alone is the same release)."""
    archive = next((a for a in ARCHIVES if a.is_file()), None)
    if archive is None:
        pytest.skip("the Comprehensive Rules archive is not available")
    out = tmp_path_factory.mktemp("releases")
    with tarfile.open(archive) as tar:
        for name in RELEASES:
            member = tar.getmember(f"comprules-archive/{name}")
            (out / name).write_bytes(tar.extractfile(member).read().replace(b"Comprehensive Rules",
                                                                             b"Comprehensive Rules (copy)", 1))
    return {name[10:20]: out / name for name in RELEASES}


@pytest.fixture
def corpus(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    return tmp_path / "user"


def _env(user: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "RULEBASE_USER_CORPUS": str(user), "NO_COLOR": "1", **extra}


def _together(work: Path, user: Path, jobs: list[tuple[str, str]], in_order: bool = False,
              ) -> list[subprocess.CompletedProcess]:
    """Run one WORKER per job; they all read the sources, then all write at once (or, `in_order`,
    one after the other, each finishing before the next starts writing)."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, op, arg, str(work / f"ready{n}"), str(work / f"go{n}")],
                              env=_env(user), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for n, (op, arg) in enumerate(jobs)]
    deadline = time.monotonic() + 60
    while not all((work / f"ready{n}").exists() for n in range(len(jobs))) and time.monotonic() < deadline:
        time.sleep(0.01)
    outs = []
    for n, proc in enumerate(procs):
        (work / f"go{n}").touch()
        if in_order:
            outs.append(proc.communicate(timeout=120))
    if not in_order:
        outs = [proc.communicate(timeout=120) for proc in procs]
    return [subprocess.CompletedProcess(p.args, p.returncode, *out) for p, out in zip(procs, outs, strict=True)]


def _manifest(user: Path) -> list[dict]:
    return tomllib.loads((user / "sources.toml").read_text(encoding="utf-8")).get("source", [])


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _assert_consistent(user: Path, expected: dict[str, Path]) -> None:
    """The manifest lists exactly `expected` (id -> the file added), each copy holds its bytes,
    the manifest loads, and nothing else lies in the folder."""
    entries = _manifest(user)
    assert sorted(e["id"] for e in entries) == sorted(expected)
    for entry in entries:
        assert _digest(user / entry["file"]) == _digest(expected[entry["id"]]), entry["id"]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULEBASE_USER_CORPUS", str(user))
        assert [s.id for s in usercorpus.load_user_sources()] == [e["id"] for e in entries]
    assert sorted(p.name for p in user.iterdir()) == sorted([".lock", "sources.toml", *(e["file"] for e in entries)])


# -- concurrent add ---------------------------------------------------------------------------------


def test_concurrent_adds_of_one_year_get_distinct_ids_and_files(tmp_path, releases):
    feb, may = releases["2009-02-01"], releases["2009-05-01"]
    for n in range(ROUNDS):
        user = tmp_path / f"user{n}"
        runs = _together(tmp_path / f"work{n}", user, [("add", str(feb)), ("add", str(may))])
        assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
        ids = [r.stdout.strip() for r in runs]
        assert sorted(ids) in (["cr2009", "cr2009-0501"], ["cr2009", "cr2009-0201"])
        _assert_consistent(user, dict(zip(ids, (feb, may), strict=True)))


def test_concurrent_adds_of_the_same_file_keep_one_copy(tmp_path, releases):
    feb = releases["2009-02-01"]
    user = tmp_path / "user"
    runs = _together(tmp_path / "work", user, [("add", str(feb)), ("add", str(feb))])
    assert sorted(r.returncode for r in runs) == [0, 1]
    assert sorted(r.stderr for r in runs) == ["", f"2 {feb} is already in the corpus as 'cr2009'\n"]
    _assert_consistent(user, {"cr2009": feb})


# -- concurrent remove ------------------------------------------------------------------------------


def _fill(user: Path, count: int) -> dict[str, Path]:
    """A user corpus of `count` small documents written directly (removing parses nothing)."""
    user.mkdir(parents=True)
    sources: dict[str, Path] = {}
    text = ""
    for n in range(count):
        (user / f"doc{n}.txt").write_text(f"document {n}\n")
        fields = {"id": f"doc{n}", "title": "t", "edition": "10e", "date": "2008", "lang": "en",
                  "file": f"doc{n}.txt", "format": "comprules", "provenance": "p", "credit": "c"}
        text += "[[source]]\n" + "".join(f'{k} = "{v}"\n' for k, v in fields.items()) + "\n"
        sources[f"doc{n}"] = user / f"doc{n}.txt"
    (user / "sources.toml").write_text(text)
    return sources


def test_concurrent_removes_never_bring_a_document_back(tmp_path):
    for n in range(ROUNDS):
        user = tmp_path / f"user{n}"
        docs = _fill(user, 4)
        keep = {k: tmp_path / f"keep{n}-{k}" for k in ("doc2", "doc3")}
        for k, path in keep.items():
            shutil.copy(docs[k], path)
        runs = _together(tmp_path / f"work{n}", user, [("remove", "doc0"), ("remove", "doc1")])
        assert [(r.returncode, r.stdout.strip()) for r in runs] == [(0, "doc0"), (0, "doc1")], runs
        _assert_consistent(user, keep)


def test_concurrent_add_and_remove_both_stay_done(tmp_path, releases):
    user = tmp_path / "user"
    kept = tmp_path / "doc1.txt"
    shutil.copy(_fill(user, 2)["doc1"], kept)
    shutil.rmtree(user)
    jobs = [("add", str(releases["2009-07-11"])), ("remove", "doc0")]
    for order in (jobs, jobs[::-1]):
        _fill(user, 2)
        runs = _together(tmp_path / "work", user, order, in_order=True)  # each writer's view is stale
        assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
        _assert_consistent(user, {"doc1": kept, "cr2009": releases["2009-07-11"]})
        shutil.rmtree(user)


def test_concurrent_removes_of_one_document_remove_it_once(tmp_path):
    user = tmp_path / "user"
    _fill(user, 2)
    kept = tmp_path / "doc1.txt"
    shutil.copy(user / "doc1.txt", kept)
    runs = _together(tmp_path / "work", user, [("remove", "doc0"), ("remove", "doc0")])
    assert sorted(r.stderr for r in runs) == [
        "", "1 no user-added document 'doc0' - 'rulebase sources' lists every document; added with 'rulebase add': "
            "doc1\n"]
    _assert_consistent(user, {"doc1": kept})


# -- the real CLI, twice at once, then every later command ------------------------------------------


@pytest.fixture
def tiny_bundled(tmp_path, one_source_corpus) -> Path:
    """A one-document bundled corpus, so the index rebuilds these tests cause take a moment."""
    return one_source_corpus(tmp_path / "bundled", "ck-2008-mini.txt", "ck.txt", "ck2008", "Crystal Keep mini",
                             "10e", "2008-10-20", "crystalkeep-2008")


def test_cli_adds_and_removes_at_once_leave_every_command_working(tmp_path, releases, tiny_bundled):
    user, index = tmp_path / "user", tmp_path / "index"
    env = _env(user, RULEBASE_CORPUS=str(tiny_bundled), RULEBASE_INDEX=str(index))
    feb, may = releases["2009-02-01"], releases["2009-05-01"]

    def together(*commands: list[str]) -> list[subprocess.CompletedProcess]:
        procs = [subprocess.Popen([str(RULEBASE), *c], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True) for c in commands]
        outs = [p.communicate(timeout=300) for p in procs]
        return [subprocess.CompletedProcess(p.args, p.returncode, *out) for p, out in zip(procs, outs, strict=True)]

    adds = together(["add", str(feb), "--json"], ["add", str(may), "--json"])
    assert [r.returncode for r in adds] == [0, 0], [r.stderr for r in adds]
    ids = [json.loads(r.stdout)["id"] for r in adds]
    assert len(set(ids)) == 2
    _assert_consistent(user, dict(zip(ids, (feb, may), strict=True)))
    listed = subprocess.run([str(RULEBASE), "sources", "--json"], env=env, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert sorted(s["id"] for s in json.loads(listed.stdout)) == sorted(["ck2008", *ids])
    for doc in ids:
        found = subprocess.run([str(RULEBASE), "lookup", f"{doc}:100.1", "--json"], env=env, capture_output=True,
                               text=True)
        assert (found.returncode, json.loads(found.stdout)["id"]) == (0, f"{doc}:100.1"), found.stderr

    removes = together(["remove", ids[0]], ["remove", ids[1]])
    assert [r.returncode for r in removes] == [0, 0], [r.stderr for r in removes]
    _assert_consistent(user, {})
    listed = subprocess.run([str(RULEBASE), "sources", "--json"], env=env, capture_output=True, text=True)
    assert (listed.returncode, [s["id"] for s in json.loads(listed.stdout)]) == (0, ["ck2008"])
    gone = subprocess.run([str(RULEBASE), "lookup", f"{ids[0]}:100.1"], env=env, capture_output=True, text=True)
    assert gone.returncode == 1


# -- devices and FIFOs ------------------------------------------------------------------------------


def _limited() -> None:
    """Before the fix /dev/zero was read until MemoryError: cap the damage at 1 GB."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "fifo"])
def test_add_refuses_devices_and_fifos_at_once(tmp_path, device):
    if device == "fifo":
        device = str(tmp_path / "rules.txt")
        os.mkfifo(device)
    elif not Path(device).exists():
        pytest.skip(f"{device} is missing")
    user = tmp_path / "user"
    run = subprocess.run([str(RULEBASE), "--index", str(tmp_path / "index"), "add", device], env=_env(user),
                         capture_output=True, text=True, timeout=30, preexec_fn=_limited)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"error: {device} is not a regular file (a device, FIFO or socket) - give a rules text file\n"
    assert not (user / "sources.toml").exists()


def test_read_stops_at_the_size_limit(tmp_path, monkeypatch):
    """A file that grows (or a /proc file whose size says 0) is read only up to the limit."""
    monkeypatch.setattr(usercorpus, "MAX_BYTES", 1000)
    proc_file = Path("/proc/self/maps")
    if proc_file.is_file() and len(proc_file.read_bytes()) > 1000:
        with pytest.raises(usercorpus.UsageError, match="is larger than"):
            usercorpus._read(proc_file)
    small = tmp_path / "small.txt"
    small.write_bytes(b"x" * 1000)
    assert usercorpus._read(small) == b"x" * 1000


# -- a killed add -----------------------------------------------------------------------------------


@pytest.mark.parametrize("stage", ["sources.toml", ".txt"])
def test_what_a_killed_add_leaves_is_cleaned_by_the_next_write(corpus, releases, stage):
    kill = subprocess.run([sys.executable, "-c", KILLED, str(releases["2009-02-01"]), stage],
                          env=_env(corpus), capture_output=True, text=True, timeout=60)
    assert kill.returncode == -9, kill.stderr
    leftovers = sorted(p.name for p in corpus.iterdir() if p.name != ".lock")
    assert any(n.endswith(".tmp") for n in leftovers), leftovers  # the crash did leave debris
    done = usercorpus.add_document(FIXTURES / "ck-2008-mini.txt", load_manifest())
    _assert_consistent(corpus, {done.source.id: FIXTURES / "ck-2008-mini.txt"})
    # the interrupted file can be added again, under the id it would have had
    again = usercorpus.add_document(releases["2009-02-01"], load_manifest())
    assert again.source.id == "cr2009"


def test_a_killed_add_is_cleaned_by_a_remove_too(corpus, releases):
    done = usercorpus.add_document(FIXTURES / "ck-2008-mini.txt", load_manifest())
    kill = subprocess.run([sys.executable, "-c", KILLED, str(releases["2009-05-01"]), "sources.toml"],
                          env=_env(corpus), capture_output=True, text=True, timeout=60)
    assert kill.returncode == -9, kill.stderr
    assert (corpus / "cr2009.txt").is_file()  # an orphan copy the manifest does not list
    usercorpus.remove_document(done.source.id, load_manifest() + usercorpus.load_user_sources())
    _assert_consistent(corpus, {})


def test_cleaning_spares_listed_copies_and_foreign_files(corpus):
    corpus.mkdir()
    (corpus / "notes.md").write_text("mine")
    (corpus / "Upper.txt").write_text("not an id")
    (corpus / "cr2010.txt").write_text("named like an id, but no writer said it would create it")
    (corpus / ".cr2010.txt.7.tmp").write_text("named like debris, but not on a pending list")
    (corpus / ".cr2009.txt.123.tmp").write_text("debris")
    (corpus / "cr2009.txt").write_text("orphan")
    (corpus / usercorpus.PENDING).write_text(json.dumps(["cr2009.txt", ".cr2009.txt.123.tmp"]))
    assert usercorpus.clean_leftovers(corpus, []) == [".cr2009.txt.123.tmp", "cr2009.txt"]
    assert sorted(p.name for p in corpus.iterdir()) == [".cr2010.txt.7.tmp", "Upper.txt", "cr2010.txt", "notes.md"]


def test_a_pending_list_cut_short_deletes_nothing(corpus):
    """Killed while writing the list itself: nothing was created after it, so nothing goes."""
    corpus.mkdir()
    (corpus / "cr2009.txt").write_text("the user's")
    (corpus / usercorpus.PENDING).write_text('["cr2009.t')
    assert usercorpus.clean_leftovers(corpus, []) == []
    assert sorted(p.name for p in corpus.iterdir()) == ["cr2009.txt"]


def test_add_and_remove_never_touch_the_users_own_files(corpus, releases):
    """Issue 21.1: my-notes.txt, todo.txt and a rules file already in the folder (named as the
    add would name its copy) were taken for orphans and deleted by add and by remove."""
    corpus.mkdir()
    own = {"my-notes.txt": b"my notes\n", "todo.txt": b"buy sleeves\n",
           "cr2009.txt": releases["2009-07-11"].read_bytes()}
    for name, data in own.items():
        (corpus / name).write_bytes(data)
    added = usercorpus.add_document(releases["2009-02-01"], load_manifest())
    assert added.source.id == "cr2009-0201" and added.source.file == "cr2009-0201.txt"  # not the user's cr2009.txt
    assert {name: (corpus / name).read_bytes() for name in own} == own
    assert _digest(corpus / "cr2009-0201.txt") == _digest(releases["2009-02-01"])
    usercorpus.remove_document(added.source.id, load_manifest() + usercorpus.load_user_sources())
    assert {name: (corpus / name).read_bytes() for name in own} == own
    assert sorted(p.name for p in corpus.iterdir()) == sorted([".lock", "sources.toml", *own])


def test_a_killed_add_cleans_its_copy_but_not_the_users_files(corpus, releases):
    corpus.mkdir()
    (corpus / "my-notes.txt").write_text("mine")
    kill = subprocess.run([sys.executable, "-c", KILLED, str(releases["2009-05-01"]), "sources.toml"],
                          env=_env(corpus), capture_output=True, text=True, timeout=60)
    assert kill.returncode == -9, kill.stderr
    assert (corpus / "cr2009.txt").is_file() and (corpus / usercorpus.PENDING).is_file()
    done = usercorpus.add_document(FIXTURES / "ck-2008-mini.txt", load_manifest())
    assert not (corpus / "cr2009.txt").exists()
    assert sorted(p.name for p in corpus.iterdir()) == sorted([".lock", "sources.toml", "my-notes.txt",
                                                               done.source.file])
