"""Crashes, concurrency, corruption and read-only directories: the index is never lost.

Every test works on its own copy of an index, through real subprocesses (`python -m rulebase`),
because kills and locks only mean something across processes: the session's real index
(conftest.py) where a test kills a build at random points of its middle, else a one-document
corpus's (`small`), whose rebuilds take seconds, killed at a point it is sure to be in the middle
of (its .building- folder made: _building).
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.core.locking import held

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def _env(user: Path, corpus: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "RULEBASE_INDEX"}
    env.update(RULEBASE_USER_CORPUS=str(user), NO_COLOR="1", PYTHONDONTWRITEBYTECODE="1")
    if corpus is not None:
        env["RULEBASE_CORPUS"] = str(corpus)
    return env


def _cmd(index: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "rulebase", "--index", str(index), *args]


def _run(index: Path, user: Path, *args: str, corpus: Path | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(_cmd(index, *args), env=_env(user, corpus), capture_output=True, text=True, timeout=300,
                          **kw)


@pytest.fixture(scope="module")
def built(index_dir, tmp_path_factory):
    """conftest's real index (built once per session: a second build here took two minutes of
    CPU), copied so these tests never change the shared one, with the answers it gives."""
    root = tmp_path_factory.mktemp("hard")
    user = root / "no-user-docs"
    shutil.copytree(index_dir, root / "index")
    baseline = _run(root / "index", user, "lookup", "502.83a", "--json")
    assert baseline.returncode == 0 and not baseline.stderr, baseline.stderr
    search = _run(root / "index", user, "search", "damage prevention", "--json")
    return root / "index", user, baseline.stdout, search.stdout


@pytest.fixture
def index(built, tmp_path):
    copy = tmp_path / "index"
    shutil.copytree(built[0], copy)
    return copy



@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A corpus of one document (the 2008 Comprehensive Rules) and its index: for the tests whose
    every step is a full rebuild (concurrent builds, rebuilds during reads, damage repaired),
    which mean the same on any corpus. On the real corpus each rebuild took one to two minutes of
    CPU, and these five tests about fifteen minutes; here a build takes about four seconds. A
    kill at a random point stays on the real index (test_sigkill_...), whose build is long enough
    to be killed in the middle."""
    root = tmp_path_factory.mktemp("small")
    corpus, user = root / "corpus", root / "no-user-docs"
    corpus.mkdir()
    shutil.copy(ROOT / "corpus" / "comprules-2008-10-01.txt", corpus)
    manifest = (ROOT / "corpus" / "sources.toml").read_text(encoding="utf-8")
    [block] = [b for b in manifest.split("[[source]]")[1:] if '"comprules-2008-10-01.txt"' in b]
    (corpus / "sources.toml").write_text("[[source]]" + block, encoding="utf-8")
    baseline = _run(root / "index", user, "lookup", "502.83a", "--json", corpus=corpus)
    assert baseline.returncode == 0, baseline.stderr
    search = _run(root / "index", user, "search", "damage prevention", "--json", corpus=corpus)
    assert search.returncode == 0 and json.loads(search.stdout)["hits"], search.stderr
    return root / "index", user, baseline.stdout, search.stdout, corpus


@pytest.fixture
def small_index(small, tmp_path):
    copy = tmp_path / "index"
    shutil.copytree(small[0], copy)
    return copy


def _state(index: Path) -> tuple[str, list[str]]:
    return (index / "CURRENT").read_text().strip(), sorted(p.name for p in index.iterdir())


def test_sigkill_at_random_points_leaves_the_previous_index_answering(built, index):
    _, user, baseline, _ = built
    before, _ = _state(index)
    rng = random.Random(7)
    for delay in sorted(rng.uniform(0.3, 6.0) for _ in range(4)):
        proc = subprocess.Popen(_cmd(index, "index", "build", "--json"), env=_env(user),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        answer = _run(index, user, "lookup", "502.83a", "--json")
        assert (answer.returncode, answer.stdout) == (0, baseline), f"after a kill at {delay:.1f} s"
    current, names = _state(index)
    assert not [n for n in names if n.startswith((".building-", ".CURRENT."))]  # the reader cleaned up
    assert (index / current / "meta.json").is_file()
    assert len([n for n in names if n.startswith("gen-")]) <= 2
    assert before in names or current != before


def _building(index: Path, proc: subprocess.Popen) -> None:
    """Returns once the build `proc` runs holds the index's lock and has made its .building-
    folder: from there until it publishes, it is in the middle of the build."""
    deadline = time.monotonic() + 120
    while not any(p.name.startswith(".building-") for p in index.iterdir()):
        assert proc.poll() is None, "the build ended before it began writing a generation"
        assert time.monotonic() < deadline, "the build did not begin writing a generation"
        time.sleep(0.005)


def _published(index: Path, seen: str) -> str:
    """Waits until CURRENT names another generation than `seen` (a build published) and returns
    it: read in this process, so the build beside is not slowed by a command asked every second."""
    deadline = time.monotonic() + 240
    while (current := (index / "CURRENT").read_text().strip()) == seen:
        assert time.monotonic() < deadline, "the rebuild started beside the read did not finish"
        time.sleep(0.05)
    return current


def test_killed_rebuild_of_a_stale_index_is_redone_on_next_use(small, small_index, tmp_path, one_source_corpus):
    """A build killed in its middle (after it took the lock and began a generation), on the
    one-document corpus: what is asserted is the same on any corpus, and its rebuild beside the
    read takes seconds where the real corpus's took half a minute to two."""
    _, _, baseline, _, corpus = small
    index = small_index
    user = one_source_corpus(tmp_path / "user", "ck-2008-mini.txt", "mine.txt", "mine", "Mine", "10e", "2008-10-20",
                             "crystalkeep-2008")
    proc = subprocess.Popen(_cmd(index, "index", "build"), env=_env(user, corpus),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _building(index, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    seen = _state(index)[0]
    status = json.loads(_run(index, user, "index", "status", "--json", corpus=corpus).stdout)
    assert status["current"] is False and "mine" not in status["sources"]
    answer = _run(index, user, "lookup", "502.83a", "--json", corpus=corpus)  # at once, from the last generation
    assert answer.returncode == 0
    assert json.loads(answer.stdout)["id"] == json.loads(baseline)["id"]
    assert "being rebuilt in the background, answering from the previous build" in answer.stderr
    # the rebuild it started, in a process of its own: asked again each time a generation is published
    while not (status := json.loads(_run(index, user, "index", "status", "--json", corpus=corpus).stdout))["current"]:
        seen = _published(index, seen)
    assert "mine" in status["sources"]
    again = _run(index, user, "lookup", "502.83a", "--json", corpus=corpus)
    assert again.stdout == answer.stdout and again.stderr == ""
    while held(index):  # (published; the builder may still be pruning)
        time.sleep(0.2)
    assert not [n for n in _state(index)[1] if n.startswith(".building-")]


def test_concurrent_searches_during_a_rebuild_all_succeed_alike(small, small_index):
    _, user, _, search, corpus = small
    index = small_index
    builder = subprocess.Popen(_cmd(index, "index", "build", "--json"), env=_env(user, corpus),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    outputs = []
    while builder.poll() is None or len(outputs) < 8:
        readers = [subprocess.Popen(_cmd(index, "search", "damage prevention", "--json"), env=_env(user, corpus),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
        outputs += [(r.wait(), *r.communicate()) for r in readers]
    assert builder.wait() == 0
    assert {rc for rc, _, _ in outputs} == {0}
    assert {out for _, out, _ in outputs} == {search}
    assert {err for _, _, err in outputs} == {""}


def test_two_concurrent_builds_do_not_corrupt_anything(small, small_index):
    _, user, baseline, _, corpus = small
    index = small_index
    procs = [subprocess.Popen(_cmd(index, "index", "build", "--json"), env=_env(user, corpus), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(), *p.communicate()) for p in procs]
    assert [rc for rc, _, _ in results] == [0, 0], results
    current, names = _state(index)
    assert json.loads(_run(index, user, "index", "status", "--json", corpus=corpus).stdout)["current"] is True
    assert not [n for n in names if n.startswith(".building-")]
    assert len([n for n in names if n.startswith("gen-")]) <= 2
    assert _run(index, user, "lookup", "502.83a", "--json", corpus=corpus).stdout == baseline


def _whoosh_file(index: Path, suffix: str) -> Path:
    current = (index / "CURRENT").read_text().strip()
    return next((index / current / "whoosh").glob(f"*{suffix}"))


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


@pytest.mark.parametrize(("damage", "expect"), [
    (lambda ix: _truncate(_whoosh_file(ix, ".pst")), "is {n} bytes, expected"),  # the postings
    (lambda ix: _whoosh_file(ix, ".toc").unlink(), "whoosh/_MAIN_1.toc is missing"),
    (lambda ix: (ix / (ix / "CURRENT").read_text().strip() / "records.db").write_bytes(b"garbage" * 100),
     "records.db is not an SQLite database"),
])
def test_a_damaged_index_is_reported_in_one_line_and_rebuilt(small, small_index, damage, expect, monkeypatch):
    _, user, baseline, _, corpus = small
    index = small_index
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(user))
    monkeypatch.setenv("RULEBASE_CORPUS", str(corpus))
    damage(index)
    result = runner.invoke(app, ["--index", str(index), "lookup", "502.83a"])
    assert result.exit_code == 0
    assert result.stdout.startswith("cr2008 502.83a\n")
    [warning] = result.stderr.splitlines()
    assert warning.startswith(f"warning: the index at {index} is damaged (")
    assert warning.endswith("); rebuilding from the corpus")
    assert expect.split("{n}")[-1] in warning
    again = runner.invoke(app, ["--index", str(index), "lookup", "502.83a", "--json"])
    assert (again.exit_code, again.stdout, again.stderr) == (0, baseline, "")


def test_a_deleted_generation_is_rebuilt(small, small_index):
    _, user, baseline, _, corpus = small
    index = small_index
    shutil.rmtree(index / (index / "CURRENT").read_text().strip())
    answer = _run(index, user, "lookup", "502.83a", corpus=corpus)
    assert (answer.returncode, answer.stdout.splitlines()[0]) == (0, "cr2008 502.83a")
    assert answer.stderr.startswith(f"warning: the index at {index} is damaged (its CURRENT pointer names")
    assert _run(index, user, "lookup", "502.83a", "--json", corpus=corpus).stdout == baseline


# -- read-only directories: run as an unprivileged user when we are root (root ignores modes) ----


def _readonly_copy(source: Path) -> Path:
    root = Path(tempfile.mkdtemp(prefix="rulebase-ro-"))
    shutil.copytree(source, root / "index")
    for path in [root, *root.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    return root


def _as_reader(index: Path, user: Path, *args: str, state: Path | None = None) -> subprocess.CompletedProcess:
    """Run as an unprivileged user; `state`: its XDG_STATE_HOME (default: a copy of the builder's
    sealing key it can read, as when the same user reads a read-only copy of their own index)."""
    env = {**_env(user), "XDG_STATE_HOME": str(state or _reader_state(index))}
    if os.geteuid() != 0:
        return subprocess.run(_cmd(index, *args), env=env, capture_output=True, text=True, timeout=120, cwd="/")
    return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *_cmd(index, *args)],
                          env=env, capture_output=True, text=True, timeout=120, cwd="/")


def _reader_state(index: Path) -> Path:
    from rulebase.index import seal

    state = Path(tempfile.mkdtemp(prefix="reader-state-"))
    (state / "rulebase").mkdir()
    shutil.copy(os.path.join(seal.state_dir(), "key"), state / "rulebase" / "key")
    for path in (state, state / "rulebase", state / "rulebase" / "key"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return state


@pytest.fixture
def readonly(built):
    root = _readonly_copy(built[0])
    yield root
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755)
    shutil.rmtree(root)


def test_read_only_index_reads(built, readonly):
    _, _, baseline, search = built
    user = readonly / "no-user-docs"
    answer = _as_reader(readonly / "index", user, "lookup", "502.83a", "--json")
    assert (answer.returncode, answer.stdout, answer.stderr) == (0, baseline, "")
    answer = _as_reader(readonly / "index", user, "search", "damage prevention", "--json")
    assert (answer.returncode, answer.stdout) == (0, search)


def test_read_only_index_of_another_user_is_not_opened(built, readonly, tmp_path):
    """Nothing of an index this user's rulebase did not seal is opened, by Whoosh (pickles) or by
    SQLite (rows shown as rules): another user's read-only index is refused in one line, for a
    lookup as for a search (index/digests.py)."""
    user, stranger = readonly / "no-user-docs", Path(tempfile.mkdtemp(prefix="stranger-state-"))
    stranger.chmod(0o777)
    refusal = (f"error: {readonly / 'index'}: the index is damaged (its meta.json is not sealed "
               "by this user's rulebase: built elsewhere or altered) and the directory is not writable, "
               "so it cannot be rebuilt here - point --index or RULEBASE_INDEX at a writable directory\n")
    for args in (("lookup", "502.83a", "--json"), ("search", "damage prevention")):
        answer = _as_reader(readonly / "index", user, *args, state=stranger)
        assert (answer.returncode, answer.stderr) == (2, refusal)
        if "--json" in args:  # (the error as JSON on stdout too, its exit code in it)
            assert json.loads(answer.stdout)["exit_code"] == 2 and "not sealed" in json.loads(answer.stdout)["error"]
        else:
            assert answer.stdout == ""


def test_read_only_stale_index_says_where_and_how(readonly):
    stale = _as_reader(readonly / "index", FIXTURES / "user-corpus", "lookup", "502.83a")  # one more document
    assert stale.returncode == 0
    assert stale.stderr == (f"warning: the index at {readonly / 'index'} is out of date and the directory is "
                            "read-only; showing the old index (point --index at a writable directory to rebuild)\n")


def test_read_only_without_index_or_damaged(readonly):
    user = readonly / "no-user-docs"
    empty = readonly / "empty"
    readonly.chmod(0o755)
    empty.mkdir(mode=0o555)
    readonly.chmod(0o555)
    answer = _as_reader(empty, user, "lookup", "502.83a")
    assert answer.returncode == 2
    assert answer.stderr == (f"error: {empty}: no index, and the directory is not writable - point --index or "
                             "RULEBASE_INDEX at a writable directory\n")
    db = readonly / "index" / (readonly / "index" / "CURRENT").read_text().strip() / "records.db"
    db.chmod(0o644)
    _truncate(db)
    db.chmod(0o444)
    answer = _as_reader(readonly / "index", user, "lookup", "502.83a")
    assert answer.returncode == 2
    assert answer.stderr.startswith(f"error: {readonly / 'index'}: the index is damaged (records.db is ")
    assert answer.stderr.endswith("cannot be rebuilt here - point --index or RULEBASE_INDEX at a writable "
                                  "directory\n")


def test_an_unreadable_user_corpus_is_a_one_line_error(built, readonly):
    answer = _as_reader(readonly / "index", built[1], "lookup", "502.83a")  # root's 0700 tmp dir
    if os.geteuid() != 0:
        pytest.skip("needs root to make a directory another user cannot read")
    assert answer.returncode == 2
    assert answer.stderr == (f"error: {built[1] / 'sources.toml'}: cannot read the user corpus (Permission denied) "
                             "- fix its permissions or set RULEBASE_USER_CORPUS to another folder\n")
