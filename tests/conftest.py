"""Shared fixtures: one real index built once per test run, isolated from the user's files.

The README's test command runs the tests in as many processes as there are cores, two on CI
(pytest-xdist, `-n auto --dist loadfile` in pyproject.toml: each file's tests in one process). The run's user folders, the real
index and the glossary site are made once for the whole run, by whichever process needs them
first, under a lock: the other waits and reads them, as a second command of the same user would.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    """Compile rulebase's modules once, before any test runs. The suite starts a few hundred
    Python processes (the CLI as users run it, builds and their workers); where the environment
    sets PYTHONDONTWRITEBYTECODE, as some CI images do, each of them would compile every module
    it imports afresh: 85 s of CPU in a run of 830. Python reads bytecode files under that setting;
    it only never writes them. Run once, in the controlling process."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    import compileall

    compileall.compile_dir(ROOT / "rulebase", quiet=1)


def shared(tmp_path_factory, name: str) -> Path:
    """A folder every test process of this run sees (one run of pytest-xdist's processes share
    their base temporary folder's parent; a run without workers has its own)."""
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    root.mkdir(exist_ok=True)
    (root / name).mkdir(exist_ok=True)
    return root / name


@contextlib.contextmanager
def once(folder: Path):
    """Held while one process makes what `folder` holds; the others wait, then find it made."""
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session", autouse=True)
def _isolated_user_dirs(tmp_path_factory):
    """Tests never read or write the developer's own per-user corpus or index. One user for the
    whole run: its key seals the shared index for every test process."""
    home = shared(tmp_path_factory, "user-data")
    old = {k: os.environ.get(k) for k in ("RULEBASE_USER_CORPUS", "XDG_DATA_HOME", "RULEBASE_INDEX",
                                          "RULEBASE_CACHE", "XDG_STATE_HOME")}
    os.environ["RULEBASE_USER_CORPUS"] = str(home / "corpus")
    os.environ["RULEBASE_CACHE"] = str(home / "cache")  # one archive build cache for the whole session
    os.environ["XDG_DATA_HOME"] = str(home)
    os.environ["XDG_STATE_HOME"] = str(home / "state")  # the index-sealing key (rulebase/seal.py)
    os.environ.pop("RULEBASE_INDEX", None)
    yield
    for key, value in old.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def corpus_without_archive(tmp_path_factory) -> Path:
    """The bundled corpus less the Comprehensive Rules archive, the tournament documents and the
    cards: the rules texts a user's added release stands beside (a release the archive lacks),
    without the minute of building the others would add to every add and remove."""
    from rulebase.core.sources import copy_without, default_corpus_dir

    return copy_without(default_corpus_dir(), tmp_path_factory.mktemp("bundled") / "corpus", "comprules-archive",
                        "tournament-archive", "oracle-cards")


@pytest.fixture(scope="session")
def index_dir(tmp_path_factory) -> Path:
    """The real corpus, built once (the first use builds it, as for a user)."""
    from rulebase.library import Library

    path = shared(tmp_path_factory, "index") / "index"
    with once(path.parent):
        Library(path).ensure()
    return path


@pytest.fixture(scope="session")
def library(index_dir):
    from rulebase.library import Library

    return Library(index_dir)


@pytest.fixture
def one_source_corpus():
    """Writes a corpus folder holding one fixture document and its manifest: a bundled or user
    corpus small enough that the index rebuilds a test causes stay cheap."""
    def write(folder: Path, fixture: str, file: str, source_id: str, title: str, edition: str, date: str,
              fmt: str) -> Path:
        import shutil

        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(Path(__file__).parent / "fixtures" / fixture, folder / file)
        (folder / "sources.toml").write_text(
            f'[[source]]\nid = "{source_id}"\ntitle = "{title}"\nedition = "{edition}"\ndate = "{date}"\n'
            f'lang = "en"\nfile = "{file}"\nformat = "{fmt}"\nprovenance = "test"\ncredit = "test"\n')
        return folder

    return write


@pytest.fixture(scope="session")
def ck2008_corpus():
    """Writes a corpus of the bundled Crystal Keep 2008 summary alone under `root` and returns it
    with an environment for CLI runs on it: a one-document index builds in a second or two."""
    def write(root: Path, **extra: str) -> tuple[Path, dict[str, str]]:
        import shutil

        bundled = Path(__file__).resolve().parent.parent / "corpus"
        corpus = root / "corpus"
        corpus.mkdir()
        shutil.copy(bundled / "001_2b42a31cb864335c.txt", corpus)
        manifest = bundled.joinpath("sources.toml").read_text(encoding="utf-8")
        block = next(b for b in manifest.split("[[source]]") if 'id = "ck2008"' in b)
        (corpus / "sources.toml").write_text("[[source]]" + block, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "RULEBASE_INDEX"}
        env.update(RULEBASE_CORPUS=str(corpus), NO_COLOR="1", RULEBASE_WORKERS="1", **extra)
        return corpus, env

    return write


THREE_RELEASES = ("2009-05-01", "2009-07-11", "2009-09-04")


@pytest.fixture(scope="session")
def three_release_archive(tmp_path_factory) -> Path:
    """A corpus of one Comprehensive Rules archive holding three releases of 2009, made from the
    bundled archive (with its own SHA256SUMS): the archive's build, cache and timeline in seconds."""
    import hashlib
    import io
    import tarfile

    folder = tmp_path_factory.mktemp("small-archive")
    members = {}
    bundled = Path(__file__).resolve().parent.parent / "corpus" / "comprules-archive-2003-2026.tar.xz"
    with tarfile.open(bundled, "r:xz") as tar:
        for date in THREE_RELEASES:
            name = f"comprules-archive/comprules-{date}.txt"
            members[name] = tar.extractfile(name).read()
    sums = "".join(f"{hashlib.sha256(data).hexdigest()}  {Path(name).name}\n" for name, data in members.items())
    with tarfile.open(folder / "small.tar.xz", "w:xz") as out:
        for name, data in [*members.items(), ("comprules-archive/SHA256SUMS", sums.encode())]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            out.addfile(info, io.BytesIO(data))
    (folder / "sources.toml").write_text('''[[source]]
id = "cr"
title = "Comprehensive Rules, three releases of 2009"
edition = "dated"
date = "2009-05-01/2009-09-04"
lang = "en"
file = "small.tar.xz"
format = "comprules-archive"
provenance = "three members of the bundled archive"
credit = "Comprehensive Rules (C) Wizards of the Coast"
''', encoding="utf-8")
    return folder


@pytest.fixture
def archive_index(tmp_path, three_release_archive) -> tuple[dict[str, str], Path]:
    """An index of the three-release archive with its own user corpus, cache and key: (the
    environment for `python -m rulebase` runs, the index folder)."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "RULEBASE_INDEX"}
    env.update(RULEBASE_CORPUS=str(three_release_archive), RULEBASE_USER_CORPUS=str(tmp_path / "user"),
               RULEBASE_CACHE=str(tmp_path / "cache"), XDG_STATE_HOME=str(tmp_path / "state"), NO_COLOR="1")
    index = tmp_path / "index"
    built = subprocess.run([sys.executable, "-m", "rulebase", "--index", str(index), "index", "build"], env=env,
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    return env, index


@pytest.fixture(scope="session")
def html_site(library, tmp_path_factory):
    """The glossary site of the real index, built once (16 s of CPU a build): (its folder, the
    summary, the progress stages). Tests read it; one that changes a site copies it first."""
    from rulebase.glossary.plan import build_from_library

    folder = shared(tmp_path_factory, "glossary")
    out, made = folder / "site", folder / "built.pickle"
    with once(folder):
        if made.is_file():
            return out, *pickle.loads(made.read_bytes())
        stages = []
        summary = build_from_library(library, out, progress=lambda *a: stages.append(a))
        made.write_bytes(pickle.dumps((summary, stages)))
    return out, summary, stages
