"""What `add` accepts and what it keeps (issue 35, items 4, 5, 7 and 13): a date outside the
dates rulebase knows, a document the index cannot be built with, a release the archive already
holds, a file too large or too long a line are each refused in one line with nothing stored;
the last good index keeps answering whatever the corpus holds.

Runs on a one-document corpus (Crystal Keep 2008) through real processes, and in-process where
a build must be made to fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.core.errors import SourceError, UsageError

FIXTURES = Path(__file__).parent / "fixtures"
RELEASE = FIXTURES / "comprules-2025-11-14.txt"
runner = CliRunner()


@pytest.fixture
def mini(tmp_path, ck2008_corpus, monkeypatch):
    """A one-document index built through the CLI; the environment is also this process's."""
    _, env = ck2008_corpus(tmp_path, RULEBASE_USER_CORPUS=str(tmp_path / "user"),
                           RULEBASE_CACHE=str(tmp_path / "cache"), XDG_STATE_HOME=str(tmp_path / "state"))
    for key in ("RULEBASE_CORPUS", "RULEBASE_USER_CORPUS", "RULEBASE_CACHE", "XDG_STATE_HOME", "RULEBASE_WORKERS"):
        monkeypatch.setenv(key, env[key])
    index = tmp_path / "index"
    assert _run(env, index, "index", "build").returncode == 0
    lookup = _run(env, index, "lookup", "502.83a", "--json")
    assert lookup.returncode == 0
    return env, index, lookup.stdout


def _run(env: dict, index: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebase", "--index", str(index), *args], env=env,
                          capture_output=True, text=True, timeout=600)


def _stored(env: dict) -> list[str]:
    manifest = Path(env["RULEBASE_USER_CORPUS"]) / "sources.toml"
    if not manifest.is_file():
        return []
    return [s["id"] for s in tomllib.loads(manifest.read_text(encoding="utf-8")).get("source", [])]


def _dated(tmp_path: Path, when: str) -> Path:
    doc = tmp_path / f"release-{when.replace(' ', '-').replace(',', '')}.txt"
    doc.write_bytes(RELEASE.read_bytes().replace(b"November 14, 2025", when.encode()))
    return doc


@pytest.mark.parametrize("when", ["January 1, 2100", "December 31, 9999", "March 3, 1066"])
def test_a_date_outside_the_dates_rulebase_knows_is_refused_and_reads_go_on(mini, tmp_path, when):
    """Issue 35.4: `add --edition 4e` of a release dated 2100 was stored, its build failed, and
    then every lookup, search, define, sources and history exited 2, each retrying an 8 s build."""
    env, index, baseline = mini
    doc = _dated(tmp_path, when)
    added = _run(env, index, "add", str(doc), "--edition", "4e")
    assert (added.returncode, added.stdout) == (2, "")
    assert added.stderr == (f"error: {doc} line 3: 'effective as of {when}' is outside the dates rulebase knows "
                            "(1993-08-05, Magic's first rules, to 2099-12-31) - correct the date in a copy of the file "
                            "and add that copy\n")
    assert _stored(env) == []
    for args in (("lookup", "502.83a", "--json"), ("search", "exalted"), ("define", "exalted"), ("sources",)):
        read = _run(env, index, *args)
        assert (read.returncode, read.stderr) == (0, ""), args
    assert _run(env, index, "lookup", "502.83a", "--json").stdout == baseline


def test_a_document_the_index_cannot_be_built_with_is_not_kept(mini, tmp_path, monkeypatch):
    """What the checks before storing cannot see (a failure while the index is built with the
    document) takes the document out again: nothing is kept, the index answers as before."""
    env, index, baseline = mini
    doc = _dated(tmp_path, "May 2, 2025")
    from rulebase.build import builder

    real = builder.assemble

    def fails_with_the_added(sources, reports, *args):
        if any(not s.bundled for s in sources):
            raise SourceError("a record the linker cannot place", str(sources[-1].path))
        return real(sources, reports, *args)

    monkeypatch.setattr(builder, "assemble", fails_with_the_added)
    result = runner.invoke(app, ["--index", str(index), "add", str(doc)])
    assert (result.exit_code, result.stdout) == (2, "")
    stored = Path(env["RULEBASE_USER_CORPUS"]) / "cr2025.txt"
    assert result.stderr == (f"error: {doc} not added: the index cannot be built with it ({stored}: a record the "
                             "linker cannot place) - nothing was kept; the index answers as before\n")
    assert _stored(env) == [] and not stored.exists()
    monkeypatch.undo()
    read = _run(env, index, "lookup", "502.83a", "--json")
    assert (read.returncode, read.stdout, read.stderr) == (0, baseline, "")


def _killed() -> None:
    import signal

    os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's OOM killer ends a worker


@pytest.mark.parametrize("how", ["killed worker", "MemoryError"])
def test_an_add_whose_build_runs_out_of_memory_is_one_line_and_not_kept(mini, tmp_path, monkeypatch, how):
    """A worker killed during `add` (the OOM killer) was 'internal error: BrokenProcessPool' (exit 3);
    a MemoryError kept the document and every read then exited 3."""
    env, index, baseline = mini
    doc = _dated(tmp_path, "May 2, 2025")
    from rulebase.build import builder
    from rulebase.core.pool import pool

    real = builder.assemble

    def exhausts(sources, reports, *args):
        if any(not s.bundled for s in sources):
            if how == "MemoryError":
                raise MemoryError
            with pool(1) as running:
                running.submit(_killed).result()
        return real(sources, reports, *args)

    monkeypatch.setattr(builder, "assemble", exhausts)
    result = runner.invoke(app, ["--index", str(index), "add", str(doc)])
    assert (result.exit_code, result.stdout) == (2, "")
    kind = "BrokenProcessPool" if how == "killed worker" else "MemoryError"
    stored = Path(env["RULEBASE_USER_CORPUS"]) / "cr2025.txt"
    assert result.stderr == (f"error: {doc} not added: the index cannot be built with it ({index}: building the "
                             f"index ran out of memory or a build process was killed ({kind}) - free memory, or set "
                             "RULEBASE_WORKERS=1, and run the command again) - nothing was kept; the index answers "
                             "as before\n")
    assert _stored(env) == [] and not stored.exists()
    monkeypatch.undo()
    read = _run(env, index, "lookup", "502.83a", "--json")
    assert (read.returncode, read.stdout, read.stderr) == (0, baseline, "")


def test_a_corpus_that_cannot_be_built_leaves_the_last_good_index_answering(mini, tmp_path):
    """A stored copy that no longer parses (changed on disk after it was added): reads answer from
    the last good index at once with one warning while it is rebuilt beside them; the rebuild
    fails on the document, and reads then say so and do not build again until the sources change;
    `index build` says what failed; `remove` of the document repairs it."""
    env, index, _ = mini
    doc = _dated(tmp_path, "May 2, 2025")
    assert _run(env, index, "add", str(doc)).returncode == 0
    with_it = _run(env, index, "lookup", "cr2025:702.19a", "--json")
    assert with_it.returncode == 0
    stored = Path(env["RULEBASE_USER_CORPUS"]) / "cr2025.txt"
    stored.write_text("nothing a parser can read\n", encoding="utf-8")
    first = _run(env, index, "lookup", "cr2025:702.19a", "--json")
    assert (first.returncode, first.stdout) == (0, with_it.stdout)
    assert first.stderr == (f"warning: the index at {index} is out of date (its documents changed); it is being rebuilt "
                            "in the background, answering from the previous build\n")
    deadline = time.monotonic() + 120
    while True:  # the rebuild beside the reads, until it fails on the document
        again = _run(env, index, "search", "trample", "--json")
        assert again.returncode == 0
        [line] = again.stderr.splitlines()
        if "being rebuilt" not in line:
            break
        assert time.monotonic() < deadline, line
        time.sleep(0.5)
    assert line.startswith(f"warning: the index at {index} is out of date and its rebuild ")  # not tried again
    assert f"failed ({stored}: no numbered rules found - is this a Comprehensive Rules text file?" in line
    assert line.endswith("showing the old index - fix or 'rulebase remove' the document it names, then run "
                         "'rulebase index build'")
    later = _run(env, index, "lookup", "702.19a", "--json").stderr  # (the same, a second or so later)
    assert " ago failed (" in line and later.partition(" ago ")[2] == line.partition(" ago ")[2] + "\n"
    built = _run(env, index, "index", "build")
    assert built.returncode == 2 and "no numbered rules found" in built.stderr
    assert _run(env, index, "remove", "cr2025").returncode == 0
    after = _run(env, index, "lookup", "502.83a", "--json")
    assert (after.returncode, after.stderr) == (0, "")




@pytest.mark.parametrize("copy", ["as is", "CRLF, with a byte-order mark", "UTF-16", "trailing spaces"])
def test_a_release_the_archive_holds_is_refused(archive_index, tmp_path, copy):
    """Issue 35.7: `add` of the archive's own newest file was accepted as a document of its own,
    after which today's rules showed as its records, not in force now, with other ranks and totals."""
    import tarfile

    env, index = archive_index
    before = _run(env, index, "search", "exalted", "--json").stdout
    with tarfile.open(Path(env["RULEBASE_CORPUS"]) / "small.tar.xz", "r:xz") as tar:
        data = tar.extractfile("comprules-archive/comprules-2009-09-04.txt").read()
    if copy == "CRLF, with a byte-order mark":
        data = b"\xef\xbb\xbf" + data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    elif copy == "UTF-16":  # accepted as cr2026, relabelling today's rules
        data = data.decode("utf-8").encode("utf-16")
    elif copy == "trailing spaces":
        data = data.replace(b"\n", b"  \n")
    doc = tmp_path / "MagicCompRules.txt"
    doc.write_bytes(data)
    added = _run(env, index, "add", str(doc))
    assert (added.returncode, added.stdout) == (2, "")
    assert added.stderr == (f"error: {doc} is already in the corpus as 'cr' (its release comprules-2009-09-04.txt)\n")
    assert _stored(env) == []
    after = _run(env, index, "search", "exalted", "--json")
    assert (after.returncode, after.stdout, after.stderr) == (0, before, "")


def test_a_release_dated_after_today_is_upcoming_not_in_force(archive_index, tmp_path):
    """Issue 35.5: a release "effective as of March 3, 2031" became "now": its rules 'in force
    2031-03-03 to now', today's labelled history, no definition in force. It is upcoming until
    its day (RULEBASE_TODAY sets the day for this test; the real date is never read here)."""
    import json
    import tarfile

    env, index = archive_index
    env = {**env, "RULEBASE_TODAY": "2026-12-01"}
    with tarfile.open(Path(env["RULEBASE_CORPUS"]) / "small.tar.xz", "r:xz") as tar:
        assert "comprules-archive/comprules-2009-10-01.txt" not in tar.getnames()
    with tarfile.open(Path(__file__).resolve().parent.parent / "corpus" / "comprules-archive-2003-2026.tar.xz") as tar:
        data = tar.extractfile("comprules-archive/comprules-2009-10-01.txt").read()
    data = data.replace(b"effective as of October 1, 2009", b"effective as of March 3, 2031")
    data = data.replace(b"(usually with one fewer card)", b"(with one fewer card)")  # the glossary changes too
    doc = tmp_path / "MagicCompRules-2031.txt"
    doc.write_bytes(data)
    assert _run(env, index, "add", str(doc)).returncode == 0

    shown = json.loads(_run(env, index, "lookup", "103.4", "--json").stdout)
    assert shown["id"] == "cr:103.4@2009-07-11"
    assert shown["in_force"] == {"first": "2009-07-11", "last": "2031-03-02"}
    assert shown["upcoming"]["id"] == "cr:103.4@2031-03-03" and shown["upcoming"]["first"] == "2031-03-03"
    plain = _run(env, index, "lookup", "103.4").stdout
    assert "  upcoming: rule 103.4 from 2031-03-03, text changes (cr:103.4@2031-03-03)\n" in plain
    hits = json.loads(_run(env, index, "search", "mulligan", "--json").stdout)["hits"]
    assert [(h["id"], h["in_force_now"]) for h in hits if h["number"] == "103.4"] == [("cr:103.4@2009-07-11", True)]
    defined = json.loads(_run(env, index, "define", "mulligan", "--json").stdout)["definitions"]
    now = [d for d in defined if d["in_force_now"]]
    assert now and "(usually with one fewer card)" in now[0]["text"]
    assert not any("(with one fewer card)" in d["text"] for d in defined)  # not yet, and not history
    history = _run(env, index, "history", "103.4").stdout
    assert "  2031-03-03 on, upcoming  103.4  text changed  (cr:103.4@2031-03-03)\n" in history
    sources = _run(env, index, "sources").stdout
    assert "  upcoming: 2031-03-03: not in force until its day; the rules in force now are the release before\n" in sources
    assert "in cr's timeline (upcoming: in force from 2031-03-03)" in sources

    # labels around the upcoming release
    assert "[rule · in force now, " in _run(env, index, "lookup", "103.4").stdout  # today's text is in force now
    ahead = _run(env, index, "lookup", "103.4", "--as-of", "2031-06").stdout
    assert "cr:103.4@2031-03-03" in ahead and "in force now" not in ahead.split("\n", 2)[1]
    eras = [d["era"] for d in json.loads(_run(env, index, "define", "mulligan", "--json").stdout)["definitions"]
            if "era" in d]
    assert not any(e.startswith("cr2031 to") for e in eras), eras

    on_the_day = {**env, "RULEBASE_TODAY": "2031-03-03"}  # its day: in force, nothing upcoming
    shown = json.loads(_run(on_the_day, index, "lookup", "103.4", "--json").stdout)
    assert shown["id"] == "cr:103.4@2031-03-03" and "upcoming" not in shown
    defined = json.loads(_run(on_the_day, index, "define", "mulligan", "--json").stdout)["definitions"]
    assert "(with one fewer card)" in [d for d in defined if d["in_force_now"]][0]["text"]


# -- huge files (issue 35.13) ---------------------------------------------------------------------


def _rules_shaped(path: Path, lines: int, text: str = " of a rules-shaped file about combat damage.") -> Path:
    head = RELEASE.read_text(encoding="utf-8-sig")[:300]
    body = "".join(f"{100 + n % 900}.{n // 900 + 1}. Rule {n}{text}\n" for n in range(lines))
    path.write_text(head + "\n\n" + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(("shape", "said"), [
    ("50 MB", "is larger than 8 MB - give a rules text file"),
    ("one 10 MB line", "is larger than 8 MB - give a rules text file"),
    ("one 300,000-character line", "line 8 is 300,008 characters long; rulebase add takes lines of at most 262,144 - "
                                   "check that this is a rules text, or break the line"),
    ("200,000 lines", "has 200,004 lines of text; rulebase add takes documents of at most 20,000 - check that this is "
                      "one rules document, or split it"),
])
def test_add_refuses_what_would_take_minutes_and_gigabytes_at_once(mini, tmp_path, shape, said):
    """Issue 35.13: a 50 MB rules-shaped file took 4 min 46 s and 3.1 GB, one 10 MB line 45 s and
    1.17 GB, a 200,000-line release 202 s. Each is refused before it is parsed, in one line."""
    import time

    env, index, baseline = mini
    doc = tmp_path / "huge.txt"
    if shape == "50 MB":
        _rules_shaped(doc, 600_000, text=" of a rules-shaped file about combat damage and trample.")
    elif shape == "200,000 lines":
        _rules_shaped(doc, 200_000, text=".")
    else:
        words = "trample " * ((10 * 2**20 if "10 MB" in shape else 300_000) // 8)
        doc.write_text(RELEASE.read_text(encoding="utf-8-sig")[:300] + "\n100.30. " + words + "\n", encoding="utf-8")
    start = time.perf_counter()
    result = _run(env, index, "add", str(doc))
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"error: {doc} {said}\n")
    assert time.perf_counter() - start < 60 and _stored(env) == []
    assert _run(env, index, "lookup", "502.83a", "--json").stdout == baseline


def test_add_refuses_a_document_of_too_many_records(mini, tmp_path, monkeypatch):
    """Records are counted after the parse (Crystal Keep's summary holds hundreds on one line)."""
    from rulebase import usercorpus

    monkeypatch.setattr(usercorpus, "MAX_RECORDS", 100)
    doc = _rules_shaped(tmp_path / "many.txt", 150)
    with pytest.raises(UsageError) as err:
        usercorpus.add_document(doc, [])
    assert str(err.value) == (f"{doc} holds 152 records; rulebase add takes documents of at most 100 (a "
                              "Comprehensive Rules release has at most 4,275) - check that this is one rules document, "
                              "or split it")
    assert _stored(mini[0]) == []


def test_reads_answer_from_the_last_generation_while_a_build_runs(mini):
    """Searches that overlapped an `add` waited 3-26 s for its build. While another process builds
    (holds the index's lock), a read of a stale index answers at once from the generation there,
    with one line saying so."""
    import fcntl
    import time

    env, index, baseline = mini
    manifest = Path(env["RULEBASE_CORPUS"]) / "sources.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("Crystal Keep", "Crystal  Keep", 1),
                        encoding="utf-8")  # the corpus changed: the index is stale
    with open(index / ".lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a build is running
        start = time.perf_counter()
        read = _run(env, index, "lookup", "502.83a", "--json")
        took = time.perf_counter() - start
        fcntl.flock(lock, fcntl.LOCK_UN)
    assert (read.returncode, read.stdout) == (0, baseline)
    assert read.stderr == (f"warning: the index at {index} is being rebuilt by another command; answering from the "
                           "previous build\n")
    assert took < 60  # (it waited for the lock before: for ever, here)
    after = _run(env, index, "lookup", "502.83a", "--json")  # no build running: this read starts one beside it
    assert (after.returncode, after.stdout) == (0, baseline)
    assert after.stderr == (f"warning: the index at {index} is out of date (its documents changed); it is being "
                            "rebuilt in the background, answering from the previous build\n")
    deadline = time.monotonic() + 120
    while (last := _run(env, index, "lookup", "502.83a", "--json")).stderr:  # until that build is published
        assert time.monotonic() < deadline, last.stderr
        time.sleep(0.5)
    assert (last.returncode, last.stdout) == (0, baseline)
