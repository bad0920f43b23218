"""rulebase/seal.py: Whoosh's pickles are loaded only from generations this user's rulebase built.

Issue 21.6: a crafted table-of-contents pickle, with meta.json updated to match, ran a shell
command when the index was opened. Each build now seals its meta.json with a per-user key kept
outside the index folder, checked (with the table of contents' CRC) before Whoosh opens anything.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from rulebase.index import seal

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture(scope="module")
def mini(tmp_path_factory, ck2008_corpus):
    """A one-document index (Crystal Keep 2008), built through the CLI with its own state folder."""
    root = tmp_path_factory.mktemp("seal")
    corpus, env = ck2008_corpus(root, RULEBASE_USER_CORPUS=str(root / "none"), XDG_STATE_HOME=str(root / "state"))
    index = root / "index"
    assert _run(env, index, "index", "build").returncode == 0
    baseline = _run(env, index, "search", "exalted", "--json")
    assert baseline.returncode == 0
    return env, index, baseline.stdout


def _run(env: dict, index: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebase", "--index", str(index), *args], env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def index(mini, tmp_path) -> Path:
    copy = tmp_path / "index"
    shutil.copytree(mini[1], copy)
    return copy


class _Payload:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _plant_pickle(generation: Path, marker: Path) -> None:
    """Replace the pickled schema in the table of contents with one that runs a command, and
    rewrite meta.json to match the new file (size, time, CRC), as an attacker would."""
    import pickle

    from whoosh.filedb.structfile import StructFile
    from whoosh.util.varints import varint

    toc = next((generation / "whoosh").glob("*.toc"))
    data = toc.read_bytes()
    stream = StructFile(io.BytesIO(data))
    for _ in range(3):
        stream.read_varint()
    stream.read_int(), stream.read_int()
    for _ in range(3):
        stream.read_varint()
    start = stream.tell()
    stream.read_string()
    end = stream.tell()
    payload = pickle.dumps(_Payload(marker))
    toc.write_bytes(data[:start] + varint(len(payload)) + payload + data[end:])
    meta_path = generation / "meta.json"
    meta = json.loads(meta_path.read_text())
    name = toc.relative_to(generation).as_posix()
    meta["files"][name] = toc.stat().st_size
    meta["integrity"][name] = [toc.stat().st_mtime_ns, zlib.crc32(toc.read_bytes())]
    meta_path.write_text(json.dumps(meta, indent=1, ensure_ascii=False), encoding="utf-8")


def _plant_toc(toc: Path, marker: Path) -> None:
    """A table of contents whose pickled schema runs `touch marker` (_plant_pickle's payload),
    written over `toc`: a planted build cache entry or generation."""
    work = toc.parent.parent / "plant"
    (work / "whoosh").mkdir(parents=True)
    shutil.copy(toc, work / "whoosh" / toc.name)
    (work / "meta.json").write_text(json.dumps({"files": {}, "integrity": {}}), encoding="utf-8")
    _plant_pickle(work, marker)
    shutil.copy(work / "whoosh" / toc.name, toc)
    shutil.rmtree(work)


def _generation(index: Path) -> Path:
    return index / (index / "CURRENT").read_text().strip()


def test_a_planted_pickle_never_runs_and_the_index_is_rebuilt(mini, index, tmp_path):
    env, _, baseline = mini
    marker = tmp_path / "pwned"
    _plant_pickle(_generation(index), marker)
    result = _run(env, index, "search", "exalted", "--json")
    assert not marker.exists()
    assert (result.returncode, result.stdout) == (0, baseline)
    assert result.stderr == (f"warning: the index at {index} is damaged (its meta.json is not sealed by this "
                             "user's rulebase: built elsewhere or altered); rebuilding from the corpus\n")
    again = _run(env, index, "search", "exalted", "--json")
    assert (again.returncode, again.stdout, again.stderr) == (0, baseline, "")
    assert not marker.exists()


def test_an_index_built_by_another_user_is_not_opened(mini, index, tmp_path):
    """Same files, another user's key (another XDG_STATE_HOME): rebuilt, not trusted."""
    env = {**mini[0], "XDG_STATE_HOME": str(tmp_path / "other-user")}
    result = _run(env, index, "search", "exalted", "--json")
    assert (result.returncode, result.stdout) == (0, mini[2])
    assert "is damaged (its meta.json is not sealed by this user's rulebase" in result.stderr


def test_a_swapped_table_of_contents_under_a_valid_seal_is_refused(mini, index, monkeypatch):
    """meta.json untouched (its seal holds), the pickle swapped, size and time kept."""
    from rulebase.index import digests

    monkeypatch.setenv("XDG_STATE_HOME", mini[0]["XDG_STATE_HOME"])
    generation = _generation(index)
    assert digests.trusted(generation, json.loads((generation / "meta.json").read_text())) is None
    toc = next((generation / "whoosh").glob("*.toc"))
    info = toc.stat()
    data = bytearray(toc.read_bytes())
    data[-8] ^= 0xFF
    toc.write_bytes(bytes(data))
    os.utime(toc, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert seal.problem(generation, json.loads((generation / "meta.json").read_text())) is None  # the seal holds
    assert digests.trusted(generation, json.loads((generation / "meta.json").read_text())) == (
        f"{toc.relative_to(generation).as_posix()} differs from what was built (keyed digest mismatch)")


def test_the_key_lives_outside_the_index_and_only_its_owner_reads_it(mini):
    env, index, _ = mini
    key = Path(env["XDG_STATE_HOME"]) / "rulebase" / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == seal.KEY_BYTES
    assert not any(p.name == "key" for p in index.rglob("*"))
    assert (_generation(index) / seal.SEAL).is_file()


def test_lookups_read_only_a_sealed_generation(mini, index):
    """SQLite opens records.db only once the seal and its keyed digest hold: a generation without
    its seal is damage for a lookup too (rebuilt, then answered)."""
    (_generation(index) / seal.SEAL).unlink()
    result = _run(mini[0], index, "lookup", "502.83a", "--json")
    assert result.returncode == 0
    assert result.stderr.startswith(f"warning: the index at {index} is damaged (it has no seal from this user's "
                                    "rulebase: built elsewhere or by an older version); rebuilding from the corpus\n")


def test_a_state_file_is_written_whole_or_quietly_not(tmp_path):
    """seal.keep: the verified stamps and the vocabulary's parse are shortcuts, never an error."""
    path = tmp_path / "state" / "rulebase" / "x" / "kept.json"
    seal.keep(path, b"first")
    seal.keep(path, b"second")
    assert path.read_bytes() == b"second" and [p.name for p in path.parent.iterdir()] == ["kept.json"]
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    seal.keep(blocked / "kept.json", b"x")  # its folder cannot be made: nothing written, nothing raised
    assert blocked.read_text() == "not a folder"
