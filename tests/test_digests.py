"""rulebase/index/digests.py: no byte of a generation is opened before its keyed digest is checked.

A sealed meta.json used to bind the other files by size, modification time and CRC-32, and
readers checked size and time only, and strays only in whoosh/: a table of contents replaced by a
pickle forged to the recorded size and CRC-32 (four bytes fix a CRC), a stray `cards/_MAIN_2.toc`,
or a same-size pickle in a postings file ran code with meta.json untouched. Every file now carries
an HMAC under the user's key, checked (once per file state: dev, inode, size, times, ctime)
before Whoosh or SQLite opens anything.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from rulebase.index import digests, seal


def _run(env: dict, index: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebase", "--index", str(index), *args], env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def mini(tmp_path_factory, ck2008_corpus):
    root = tmp_path_factory.mktemp("digests")
    _, env = ck2008_corpus(root, RULEBASE_USER_CORPUS=str(root / "none"), XDG_STATE_HOME=str(root / "state"),
                           RULEBASE_CACHE=str(root / "cache"))
    index = root / "index"
    assert _run(env, index, "index", "build").returncode == 0
    search = _run(env, index, "search", "exalted", "--json")
    lookup = _run(env, index, "lookup", "306.5", "--json")
    assert search.returncode == 0 and lookup.returncode == 0
    return env, index, search.stdout, lookup.stdout


@pytest.fixture
def index(mini, tmp_path) -> Path:
    copy = tmp_path / "index"
    shutil.copytree(mini[1], copy)
    return copy


def _generation(index: Path) -> Path:
    return index / (index / "CURRENT").read_text().strip()


class _Payload:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _fix_crc(data: bytes, at: int, crc: int) -> bytes:
    """`data` with its four bytes at `at` chosen so that its CRC-32 is `crc` (CRC is affine in
    the bits of a fixed-length input: solve 32 linear equations over GF(2))."""
    base = bytearray(data)
    base[at:at + 4] = b"\0\0\0\0"
    zero = zlib.crc32(bytes(base))
    columns = []
    for bit in range(32):
        probe = bytearray(base)
        probe[at + bit // 8] ^= 1 << (bit % 8)
        columns.append(zlib.crc32(bytes(probe)) ^ zero)
    rows = [(columns[b], 1 << b) for b in range(32)]  # (effect on the CRC, bits that make it)
    basis: dict[int, tuple[int, int]] = {}
    for effect, bits in rows:
        for top in sorted(basis, reverse=True):
            if effect >> top & 1:
                effect, bits = effect ^ basis[top][0], bits ^ basis[top][1]
        if effect:
            basis[effect.bit_length() - 1] = (effect, bits)
    target, choice = crc ^ zero, 0
    for top in sorted(basis, reverse=True):
        if target >> top & 1:
            target, choice = target ^ basis[top][0], choice ^ basis[top][1]
    assert target == 0
    base[at:at + 4] = choice.to_bytes(4, "little")
    assert zlib.crc32(bytes(base)) == crc
    return bytes(base)


def _forge_toc(toc: Path, marker: Path) -> None:
    """Replace the pickled schema in a table of contents with one that runs `touch marker`,
    padded to the same length, with four bytes fixing the file's CRC-32 and its time restored:
    size, time and CRC as meta.json recorded them."""
    from whoosh.filedb.structfile import StructFile

    info, data = toc.stat(), toc.read_bytes()
    stream = StructFile(io.BytesIO(data))
    for _ in range(3):
        stream.read_varint()
    stream.read_int(), stream.read_int()
    for _ in range(3):
        stream.read_varint()
    length = stream.read_varint()
    start = stream.tell()
    payload = pickle.dumps(_Payload(marker), protocol=2)
    assert len(payload) + 8 <= length
    body = payload + b"\0" * (length - len(payload))  # after STOP: never read
    forged = _fix_crc(data[:start] + body + data[start + length:], start + len(payload) + 2, zlib.crc32(data))
    toc.write_bytes(forged)
    os.utime(toc, ns=(info.st_atime_ns, info.st_mtime_ns))


def test_a_table_of_contents_forged_to_its_size_time_and_crc_never_runs(mini, index, tmp_path):
    env, _, search, _ = mini
    marker = tmp_path / "pwned"
    toc = next((_generation(index) / "whoosh").glob("*.toc"))
    _forge_toc(toc, marker)
    result = _run(env, index, "search", "exalted", "--json")
    assert not marker.exists()
    assert (result.returncode, result.stdout) == (0, search)
    assert result.stderr == (f"warning: the index at {index} is damaged (whoosh/{toc.name} differs from what "
                             "was built (keyed digest mismatch)); rebuilding from the corpus\n")


def test_a_stray_table_of_contents_in_any_subfolder_is_refused(mini, index, tmp_path):
    env, _, search, _ = mini
    generation = _generation(index)
    (generation / "cards").mkdir(exist_ok=True)
    shutil.copy(next((generation / "whoosh").glob("*.toc")), generation / "cards" / "_MAIN_2.toc")
    result = _run(env, index, "search", "exalted", "--json")
    assert (result.returncode, result.stdout) == (0, search)
    assert "damaged (cards/_MAIN_2.toc is not a file its build wrote)" in result.stderr


def test_a_same_size_postings_file_is_refused_before_sqlite_or_whoosh(mini, index, monkeypatch):
    """A postings file and records.db rewritten in place with their times kept: both refused,
    before a lookup (SQLite) or a search (Whoosh) reads them."""
    env, _, _, lookup = mini
    monkeypatch.setenv("XDG_STATE_HOME", env["XDG_STATE_HOME"])
    generation = _generation(index)
    meta = json.loads((generation / "meta.json").read_text())
    assert digests.trusted(generation, meta) is None
    for name in (next((generation / "whoosh").glob("*.pst")), generation / "records.db"):
        info, data = name.stat(), bytearray(name.read_bytes())
        original = bytes(data)
        data[len(data) // 2] ^= 0x5A
        name.write_bytes(bytes(data))
        os.utime(name, ns=(info.st_atime_ns, info.st_mtime_ns))
        relative = name.relative_to(generation).as_posix()
        assert digests.trusted(generation, meta) == f"{relative} differs from what was built (keyed digest mismatch)"
        name.write_bytes(original)
        os.utime(name, ns=(info.st_atime_ns, info.st_mtime_ns))
        assert digests.trusted(generation, meta) is None  # the same bytes: hashed again, trusted
    result = _run(env, index, "lookup", "306.5", "--json")
    assert (result.returncode, result.stdout, result.stderr) == (0, lookup, "")


def test_a_verified_generation_is_not_hashed_again(mini, index, monkeypatch):
    """One stat call a file when nothing changed since the last check (the cold-start cost)."""
    monkeypatch.setenv("XDG_STATE_HOME", mini[0]["XDG_STATE_HOME"])
    generation = _generation(index)
    meta = json.loads((generation / "meta.json").read_text())
    assert digests.trusted(generation, meta) is None  # a copy: new inodes, hashed once

    def refuse(*_):
        raise AssertionError("hashed again")

    monkeypatch.setattr(digests, "keyed_digest", refuse)
    assert digests.trusted(generation, meta) is None
    toc = next((generation / "whoosh").glob("*.toc"))
    os.utime(toc, ns=(toc.stat().st_atime_ns, toc.stat().st_mtime_ns))  # same times: a new ctime
    with pytest.raises(AssertionError, match="hashed again"):
        digests.trusted(generation, meta)


def test_a_forged_verified_stamp_is_ignored(mini, index, monkeypatch):
    """The stamp is sealed too: one that claims a changed file was verified is not believed."""
    monkeypatch.setenv("XDG_STATE_HOME", mini[0]["XDG_STATE_HOME"])
    generation = _generation(index)
    meta = json.loads((generation / "meta.json").read_text())
    assert digests.trusted(generation, meta) is None
    pst = next((generation / "whoosh").glob("*.pst"))
    data = bytearray(pst.read_bytes())
    data[0] ^= 1
    pst.write_bytes(bytes(data))
    (stamp,) = Path(seal.state_dir(), digests.STAMPS).glob(os.path.basename(digests._stamp_path(seal.user_key(), generation)))
    mark, _, body = stamp.read_bytes().partition(b"\n")
    held = json.loads(body)
    st = pst.stat()
    held["files"][pst.relative_to(generation).as_posix()] = [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns,
                                                             st.st_ctime_ns]
    stamp.write_bytes(mark + b"\n" + json.dumps(held, sort_keys=True).encode())
    assert "keyed digest mismatch" in digests.trusted(generation, meta)


def test_flipped_bytes_in_the_cards_length_columns_are_found(tmp_path, monkeypatch):
    """two flipped bytes in cards/*_len.col changed `search --kind card flying` with no
    warning (only the rules' columns were checked). Every file of every subfolder is digested."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    generation = tmp_path / "gen"
    (generation / "cards").mkdir(parents=True)
    column = generation / "cards" / "CARDS_abc_text_len.col"
    column.write_bytes(bytes(range(256)) * 8)
    (generation / "records.db").write_bytes(b"SQLite format 3\0" + b"\0" * 100)
    meta = {"digests": digests.file_digests(generation)}
    assert digests.problem(generation, meta) is None
    info, data = column.stat(), bytearray(column.read_bytes())
    data[100] ^= 0xFF
    data[1000] ^= 0xFF
    column.write_bytes(bytes(data))
    os.utime(column, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert digests.problem(generation, meta) == ("cards/CARDS_abc_text_len.col differs from what was built "
                                                 "(keyed digest mismatch)")
