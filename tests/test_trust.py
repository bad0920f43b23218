"""Nothing the tool did not write itself, or that changed since, is trusted (issue 35, items 1-3).

The build cache is held to the promise the index's generations keep: every entry lists its
files' sizes and SHA-256 in a list sealed under the per-user key (build/cache.py), and nothing in
it is unpickled by Whoosh or shown as rules text before it is verified. A planted pickle never
runs, flipped bytes or altered text are never used: the entry is rebuilt from the sources with
one warning line, and the answers are those of a clean build. A stray table of contents in a
generation is refused the same way.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_seal import _plant_toc


def _run(env: dict, index: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebase", "--index", str(index), *args], env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def mini(tmp_path, ck2008_corpus):
    """A one-document index built through the CLI, with its own build cache and key."""
    _, env = ck2008_corpus(tmp_path, RULEBASE_USER_CORPUS=str(tmp_path / "user"),
                           RULEBASE_CACHE=str(tmp_path / "cache"), XDG_STATE_HOME=str(tmp_path / "state"))
    index = tmp_path / "index"
    assert _run(env, index, "index", "build").returncode == 0
    baseline = _run(env, index, "search", "exalted", "--json")
    assert baseline.returncode == 0
    return env, index, baseline.stdout


def _segment(env: dict) -> Path:
    (found,) = Path(env["RULEBASE_CACHE"]).glob("segment-*")
    return found


def _warned(result: subprocess.CompletedProcess, entry: Path, why: str) -> bool:
    return (f"warning: the build cache entry {entry} is not as this user's rulebase wrote it ({why}); not used, "
            "rebuilt from the sources\n") in result.stderr



def _rewrite_list(entry: Path, name: str) -> None:
    """Make the entry's file list match the file as it is now, as an attacker would (the sealed
    sums.json; sizes.json, all an entry had before it was sealed)."""
    import hashlib

    path = entry / name
    for listing in ("sums.json", "sizes.json"):
        if (entry / listing).is_file():
            held = json.loads((entry / listing).read_text())
            size = path.stat().st_size
            held[name] = [size, hashlib.sha256(path.read_bytes()).hexdigest()] if listing == "sums.json" else size
            (entry / listing).write_text(json.dumps(held, sort_keys=True))


def test_a_planted_pickle_in_a_cached_segment_never_runs(mini, tmp_path):
    """Issue 35.1: the pickle planted in segment-*/whoosh/_MAIN_1.toc, with the entry's file list
    rewritten to match, ran its command during `index build`."""
    env, index, baseline = mini
    entry = _segment(env)
    marker = tmp_path / "pwned"
    toc = entry / "whoosh" / "_MAIN_1.toc"
    _plant_toc(toc, marker)
    _rewrite_list(entry, "whoosh/_MAIN_1.toc")
    built = _run(env, index, "index", "build")
    assert not marker.exists()
    assert built.returncode == 0 and built.stderr.count("\n") == 1
    assert _warned(built, entry, "its sums.json is not sealed by this user's rulebase under its name: written "
                                 "elsewhere, altered, or copied from another entry")
    assert _run(env, index, "search", "exalted", "--json").stdout == baseline
    again = _run(env, index, "index", "build")  # rebuilt: sealed again, used again without a word
    assert (again.returncode, again.stderr, marker.exists()) == (0, "", False)


def test_a_stray_table_of_contents_in_a_cached_segment_is_never_opened(mini, tmp_path):
    """Whoosh opens the newest table of contents in a folder: a _MAIN_2.toc beside the sealed
    _MAIN_1.toc would be the one unpickled."""
    env, index, baseline = mini
    entry = _segment(env)
    marker = tmp_path / "pwned"
    shutil.copy(entry / "whoosh" / "_MAIN_1.toc", entry / "whoosh" / "_MAIN_2.toc")
    _plant_toc(entry / "whoosh" / "_MAIN_2.toc", marker)
    built = _run(env, index, "index", "build")
    assert (built.returncode, marker.exists()) == (0, False)
    assert _warned(built, entry, "whoosh/_MAIN_2.toc is not in its sealed list")
    assert _run(env, index, "search", "exalted", "--json").stdout == baseline


def _flip(path: Path, at: tuple[int, ...] = (-3, -9, -17)) -> None:
    data = bytearray(path.read_bytes())
    for n in at:
        data[n] ^= 0x5A
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("command", [("index", "build"), ("ingest",), ("add", "ADDED")], ids=" ".join)
def test_flipped_bytes_in_the_cached_tables_of_contents_are_rebuilt(mini, tmp_path, command):
    """Issue 35.2: three flipped bytes (same size) in each cached segment's _MAIN_1.toc made
    `index build`, `ingest` and `add` exit 3 ('pickle data was truncated'), and every read after
    that `add` too, until the cache was deleted by hand."""
    env, index, baseline = mini
    added = tmp_path / "ck-copy.txt"
    added.write_text(Path(__file__).parent.joinpath("fixtures", "ck-2008-mini.txt").read_text(encoding="utf-8")
                     + " A copy of my own.", encoding="utf-8")
    assert _run(env, index, "add", str(added)).returncode == 0  # a second cached segment, of the added document
    entries = sorted(Path(env["RULEBASE_CACHE"]).glob("segment-*"))
    assert len(entries) == 2
    for entry in entries:
        _flip(entry / "whoosh" / "_MAIN_1.toc")
    other = tmp_path / "ck-other.txt"
    other.write_text(added.read_text(encoding="utf-8") + " And another.", encoding="utf-8")
    result = _run(env, index, *[str(other) if arg == "ADDED" else arg for arg in command])
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    for entry in entries:
        assert _warned(result, entry, "whoosh/_MAIN_1.toc differs from its sealed checksum")
    for args in (("lookup", "502.83a", "--json"), ("search", "exalted", "--json"), ("define", "exalted")):
        after = _run(env, index, *args)
        assert (after.returncode, after.stderr) == (0, ""), args
    import tomllib

    for added in tomllib.loads((tmp_path / "user" / "sources.toml").read_text(encoding="utf-8"))["source"]:
        assert _run(env, index, "remove", added["id"]).returncode == 0
    assert _run(env, index, "search", "exalted", "--json").stdout == baseline


def test_another_users_cache_is_not_trusted(mini, tmp_path):
    """Another key (another user sharing RULEBASE_CACHE): rebuilt, never opened."""
    env, index, baseline = mini
    other = {**env, "XDG_STATE_HOME": str(tmp_path / "another-user")}
    built = _run(other, tmp_path / "theirs", "index", "build")
    assert built.returncode == 0
    assert _warned(built, _segment(env), "its sums.json is not sealed by this user's rulebase under its name: "
                                         "written elsewhere, altered, or copied from another entry")
    assert _run(other, tmp_path / "theirs", "search", "exalted", "--json").stdout == baseline


def test_a_stray_table_of_contents_in_a_generation_is_never_opened(mini, tmp_path):
    """meta.json and its seal untouched, a _MAIN_2.toc added beside the sealed one: Whoosh would
    open it first."""
    env, index, baseline = mini
    generation = index / (index / "CURRENT").read_text().strip()
    marker = tmp_path / "pwned"
    shutil.copy(generation / "whoosh" / "_MAIN_1.toc", generation / "whoosh" / "_MAIN_2.toc")
    _plant_toc(generation / "whoosh" / "_MAIN_2.toc", marker)
    result = _run(env, index, "search", "exalted", "--json")
    assert not marker.exists()
    assert (result.returncode, result.stdout) == (0, baseline)
    assert result.stderr == (f"warning: the index at {index} is damaged (whoosh/_MAIN_2.toc is not a file its build "
                             "wrote); rebuilding from the corpus\n")




def test_altered_text_in_the_cached_versions_is_never_served(archive_index):
    """Issue 35.3: "Exalted is a triggered ability" made "Exalted is a STATIC!!! ability" (same
    size, valid JSON) in the archive entry's versions.json and resume.json was shown by lookup
    after `index build`, and kept by `ingest`, with `index status` saying "current"."""
    env, index = archive_index
    before = _run(env, index, "lookup", "702.80a", "--json").stdout
    assert "Exalted is a triggered ability" in before
    (entry,) = Path(env["RULEBASE_CACHE"]).glob("cr-*")
    for name in ("versions.json", "resume.json"):
        path = entry / name
        data = path.read_bytes()
        assert b"Exalted is a triggered ability" in data
        path.write_bytes(data.replace(b"Exalted is a triggered ability", b"Exalted is a STATIC!!! ability"))
    for command in (("index", "build"), ("ingest",)):
        result = _run(env, index, *command)
        assert result.returncode == 0
        if command == ("index", "build"):
            assert _warned(result, entry, "versions.json differs from its sealed checksum")
        shown = _run(env, index, "lookup", "702.80a", "--json")
        assert shown.stdout == before and "STATIC!!!" not in shown.stdout
    status = json.loads(_run(env, index, "index", "status", "--json").stdout)
    assert status["current"] is True
    assert b"STATIC!!!" not in (entry / "versions.json").read_bytes()  # written anew


@pytest.mark.parametrize("column", ["_title_len.col", "_text_len.col", ".kind.col"])
def test_bit_rot_in_a_column_the_searcher_reads_is_found(mini, column):
    """Issue 35.11: flipped bytes in a length column, size and time kept, changed the order of
    "mana burn" --as-of 2005 without a word; only `index status` noticed."""
    import os

    env, index, baseline = mini
    generation = index / (index / "CURRENT").read_text().strip()
    path = max((generation / "whoosh").glob(f"*{column}"), key=lambda p: p.stat().st_size)
    info = path.stat()
    data = bytearray(path.read_bytes())
    for at in (len(data) // 3, len(data) // 2):
        data[at] ^= 0x3C
    path.write_bytes(bytes(data))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    result = _run(env, index, "search", "exalted", "--json")
    assert (result.returncode, result.stdout) == (0, baseline)
    name = path.relative_to(generation).as_posix()
    assert result.stderr == (f"warning: the index at {index} is damaged ({name} differs from what was built "
                             "(keyed digest mismatch)); rebuilding from the corpus\n")
