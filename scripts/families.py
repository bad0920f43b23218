"""The reliability families of issue 21: each run for real, counted as attempts and failures.

    python scripts/hostile.py --families [--scale 0.25] [--only NAME]

Called by scripts/hostile.py. Every family works in its own temporary folders on a small corpus
(the bundled Crystal Keep 2008 summary alone, or three releases of the archive for the timeline)
through real `python -m rulebase` processes, so kills, locks and races mean what they mean for a
user; the full disk is simulated in-process (the write raises ENOSPC), since filling a real disk
would fill the machine. An attempt fails when its command's exit code, output or the files left
behind are not what docs/architecture.md promises; each failure is printed with what was seen.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


class Family:
    def __init__(self, name: str, command: str):
        self.name, self.command = name, command
        self.attempts = self.failures = 0
        self.notes: list[str] = []

    def check(self, ok: bool, what: str) -> bool:
        self.attempts += 1
        if not ok:
            self.failures += 1
            self.notes.append(what)
        return ok


# -- a small corpus and its commands ------------------------------------------------------------


def small_corpus(root: Path) -> Path:
    """The bundled Crystal Keep 2008 summary alone: an index builds in about a second."""
    corpus = root / "corpus"
    corpus.mkdir(parents=True)
    shutil.copy(ROOT / "corpus" / "001_2b42a31cb864335c.txt", corpus)
    manifest = (ROOT / "corpus" / "sources.toml").read_text(encoding="utf-8")
    block = next(b for b in manifest.split("[[source]]") if 'id = "ck2008"' in b)
    (corpus / "sources.toml").write_text("[[source]]" + block, encoding="utf-8")
    return corpus


def environment(root: Path, corpus: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "RULEBASE_INDEX"}
    env.update(RULEBASE_CORPUS=str(corpus), RULEBASE_USER_CORPUS=str(root / "user"), RULEBASE_CACHE=str(root / "cache"),
               XDG_STATE_HOME=str(root / "state"), XDG_DATA_HOME=str(root / "data"), NO_COLOR="1",
               PYTHONPATH=str(ROOT), RULEBASE_WORKERS="1")
    return env


def rb(env: dict, index: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "rulebase", "--index", str(index), *args]


def run(env: dict, index: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(rb(env, index, *args), env=env, capture_output=True, text=True, timeout=timeout)


def setup(tmp: Path) -> tuple[dict, Path, str]:
    corpus = small_corpus(tmp)
    env = environment(tmp, corpus)
    index = tmp / "index"
    done = run(env, index, "index", "build")
    assert done.returncode == 0, done.stderr
    baseline = run(env, index, "lookup", "502.83a", "--json").stdout
    return env, index, baseline


def variant(folder: Path, n: int) -> Path:
    """A Crystal Keep 2008 document of its own bytes (`rulebase add` refuses the same bytes twice)."""
    path = folder / f"ck-{n:02d}.txt"
    path.write_text(FIXTURES.joinpath("ck-2008-mini.txt").read_text(encoding="utf-8")
                    + f" Note {n}: copy number {n}.", encoding="utf-8")
    return path


def one_line(result: subprocess.CompletedProcess, prefix: str) -> bool:
    lines = result.stderr.splitlines()
    return len(lines) == 1 and lines[0].startswith(prefix) and "Traceback" not in result.stderr


def listed_files(user: Path) -> set[str]:
    try:
        manifest = tomllib.loads((user / "sources.toml").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return set()
    return {s["file"] for s in manifest.get("source", [])}


def _gen(index: Path) -> Path:
    return index / (index / "CURRENT").read_text().strip()


# -- the families ------------------------------------------------------------------------------


def concurrency(tmp: Path, fam: Family) -> None:
    env, index, _ = setup(tmp)
    docs = [variant(tmp, n) for n in range(25)]
    writers = [subprocess.Popen(rb(env, index, "add", str(d)), env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True) for d in docs]
    readers = []
    for _ in range(40):
        readers.append(subprocess.Popen(rb(env, index, "search", "exalted", "--json"), env=env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        time.sleep(0.05)
    for n, proc in enumerate(writers):
        out, err = proc.communicate(timeout=900)
        fam.check(proc.returncode == 0, f"writer {n}: exit {proc.returncode}: {err.strip()[:200]}")
    for n, proc in enumerate(readers):
        out, err = proc.communicate(timeout=900)
        ok = proc.returncode == 0 and json.loads(out or "{}").get("hits")
        fam.check(bool(ok), f"search {n}: exit {proc.returncode}: {err.strip()[:200]}")
    manifest = tomllib.loads((tmp / "user" / "sources.toml").read_text(encoding="utf-8"))["source"]
    ids = [s["id"] for s in manifest]
    fam.check(len(ids) == 25 == len(set(ids)), f"manifest lists {len(ids)} documents, {len(set(ids))} ids")
    status = json.loads(run(env, index, "index", "status", "--json").stdout)
    fam.check(status["current"] and set(ids) <= set(status["sources"]), "the index is not current with all 25")


def kills(tmp: Path, fam: Family) -> None:
    env, index, baseline = setup(tmp)
    rng = random.Random(21)
    user = tmp / "user"
    for n in range(12):
        build = n % 2 == 0
        args = ("index", "build") if build else ("add", str(variant(tmp, n)))
        proc = subprocess.Popen(rb(env, index, *args), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 2.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        answer = run(env, index, "lookup", "502.83a", "--json")
        same = answer.returncode == 0 and json.loads(answer.stdout)["id"] == json.loads(baseline)["id"]
        leftovers = [p.name for p in index.iterdir() if p.name.startswith((".building-", ".CURRENT."))]
        orphans = {p.name for p in user.glob("*.txt")} - listed_files(user) if user.is_dir() else set()
        if not build:  # the next writer cleans what the killed add left
            run(env, index, "remove", "no-such-doc")
            orphans = {p.name for p in user.glob("*.txt")} - listed_files(user) if user.is_dir() else set()
        fam.check(same and not leftovers and not orphans,
                  f"kill {n} ({' '.join(args[:1])}): exit {answer.returncode}, leftovers {leftovers}, orphans {orphans}")


def disk_full(tmp: Path, fam: Family) -> None:
    """In-process: the write raises ENOSPC/EDQUOT/SQLite 'disk is full' (monkeypatched)."""
    from typer.testing import CliRunner

    from rulebase.build import builder, writer
    from rulebase.cli.app import app

    env, index, baseline = setup(tmp)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update({k: v for k, v in env.items() if k.startswith(("RULEBASE_", "XDG_"))})
    runner = CliRunner()

    def enospc(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def edquot(*a, **k):
        raise OSError(errno.EDQUOT, os.strerror(errno.EDQUOT))

    def sqlite_full(*a, **k):
        exc = sqlite3.OperationalError("database or disk is full")
        exc.sqlite_errorcode = sqlite3.SQLITE_FULL
        raise exc

    originals = (builder.write_db, writer.write_index)
    try:
        for target, fail in (("write_db", enospc), ("write_index", edquot), ("write_db", sqlite_full)):
            module = builder if target == "write_db" else writer
            setattr(module, target, fail)
            result = runner.invoke(app, ["--index", str(index), "index", "build"])
            builder.write_db, writer.write_index = originals
            answer = runner.invoke(app, ["--index", str(index), "lookup", "502.83a", "--json"])
            fam.check(result.exit_code == 2 and len(result.stderr.splitlines()) == 1
                      and "no space left" in result.stderr and answer.stdout == baseline
                      and not [p for p in index.iterdir() if p.name.startswith(".building-")],
                      f"{fail.__name__} in {target}: exit {result.exit_code}: {result.stderr.strip()}")
        fresh = tmp / "fresh"
        builder.write_db = enospc
        first = runner.invoke(app, ["--index", str(fresh), "lookup", "502.83a"])
        fam.check(first.exit_code == 2 and len(first.stderr.splitlines()) == 1, f"first build: {first.stderr}")
        for args in (["lookup", "502.83a"], ["search", "exalted"], ["lookup", "502.83a", "--json"]):
            start = time.perf_counter()
            again = runner.invoke(app, ["--index", str(fresh), *args])
            took = time.perf_counter() - start
            fam.check(again.exit_code == 2 and len(again.stderr.splitlines()) == 1 and "the last build" in again.stderr
                      and took < 0.5, f"read after a failed build ({took:.2f} s): {again.stderr.strip()}")
        builder.write_db = originals[0]
        rebuilt = runner.invoke(app, ["--index", str(fresh), "index", "build"])
        fam.check(rebuilt.exit_code == 0 and not (fresh / ".build-failed").exists(), "index build did not clear it")
    finally:
        builder.write_db, writer.write_index = originals
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _keep_time(path: Path, change: Callable[[bytes], bytes]) -> None:
    info = path.stat()
    path.write_bytes(change(path.read_bytes()))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def _meta(index: Path, key: str, value) -> None:
    path = _gen(index) / "meta.json"
    meta = json.loads(path.read_text())
    meta[key] = value
    path.write_text(json.dumps(meta))


def damage(tmp: Path, fam: Family) -> None:
    env, index, baseline = setup(tmp)
    search = run(env, index, "search", "damage prevention", "--json").stdout
    whoosh = lambda ix, suffix: next((_gen(ix) / "whoosh").glob(f"*{suffix}"))  # noqa: E731
    cases: list[tuple[str, Callable[[Path], None], str]] = [
        ("truncated .pst", lambda ix: whoosh(ix, ".pst").write_bytes(whoosh(ix, ".pst").read_bytes()[:100]), "lookup"),
        ("deleted .toc", lambda ix: whoosh(ix, ".toc").unlink(), "search"),
        ("records.db not SQLite", lambda ix: (_gen(ix) / "records.db").write_bytes(b"garbage" * 100), "lookup"),
        ("deleted generation", lambda ix: shutil.rmtree(_gen(ix)), "lookup"),
        ("4 KB garbled in records.db, size and time kept",
         lambda ix: _keep_time(_gen(ix) / "records.db", lambda d: d[:8192] + random.Random(1).randbytes(4096)
                               + d[12288:]), "lookup"),
        ("a word changed in a record, size and time kept",
         lambda ix: _keep_time(_gen(ix) / "records.db",
                               lambda d: d.replace(b"is a triggered ability", b"is a STATIC    ability", 1)), "lookup"),
        ("docmeta.bin bytes, size and time kept",
         lambda ix: _keep_time(_gen(ix) / "whoosh" / "docmeta.bin",
                               lambda d: d[:64] + random.Random(5).randbytes(256) + d[320:]), "search"),
        ("zeroed .pst, size kept", lambda ix: _keep_time(whoosh(ix, ".pst"), lambda d: bytes(len(d))), "search"),
        ("junk in CURRENT", lambda ix: (ix / "CURRENT").write_bytes(b"\xff\xfe../../etc\n"), "lookup"),
        ("wrong types in meta.json", lambda ix: _meta(ix, "files", ["not", "a", "dict"]), "lookup"),
    ]
    for label, hurt, command in cases:
        copy = tmp / f"copy-{len(fam.notes)}-{fam.attempts}"
        shutil.copytree(index, copy)
        hurt(copy)
        args = ("lookup", "502.83a", "--json") if command == "lookup" else ("search", "damage prevention", "--json")
        result = run(env, copy, *args)
        want = baseline if command == "lookup" else search
        fam.check(result.returncode == 0 and result.stdout == want and one_line(result, "warning: the index at")
                  and "STATIC" not in result.stdout, f"{label}: exit {result.returncode}: {result.stderr.strip()}")


def html(tmp: Path, fam: Family) -> None:
    env, index, _ = setup(tmp)
    payloads = ["<script>alert(1)</script>", '<img src=x onerror="alert(2)">', '"><svg onload=alert(3)>']
    text = FIXTURES.joinpath("ck-2008-mini.txt").read_text(encoding="utf-8")
    for n, payload in enumerate(payloads):
        doc = tmp / f"html-{n}.txt"
        doc.write_text(text.replace("Scores from 100 - 200 are odd", f"Scores {payload} are odd")
                       .replace("Exalted is a triggered ability.", f"Exalted {payload} is a triggered ability."),
                       encoding="utf-8")
        added = run(env, index, "add", str(doc), "--id", f"html{n}")
        out = tmp / f"site-{n}"
        built = run(env, index, "glossary", "build", str(out))
        pages = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*.html")) if out.is_dir() else ""
        escaped = payload.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        fam.check(added.returncode == built.returncode == 0 and payload not in pages and escaped.split('"')[0] in pages,
                  f"payload {payload!r}: add {added.returncode}, glossary {built.returncode}, raw in pages: "
                  f"{payload in pages}")
        run(env, index, "remove", f"html{n}")


def hostile(tmp: Path, fam: Family, scale: float) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import hostile as h

    corpus = small_corpus(tmp)
    os.environ["RULEBASE_USER_CORPUS"] = str(tmp / "user")
    index, _ = h.build(tmp, scale, corpus)
    for label, text in h.queries():
        got = h.time_query(index, text, 3, 60.0, corpus)  # the best of 3, as hostile.py reports
        took = "timed out" if got is None else f"{min(got['times']):.2f} s"
        fam.check(got is not None and min(got["times"]) <= h.TARGET, f"query {label}: {took}")
    parse = tmp / "parse"
    parse.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for label, path in h.parse_documents(parse, scale):
        try:
            subprocess.run([sys.executable, "-c", h.PARSE_CHILD, str(path)], env=env, capture_output=True,
                           timeout=60, check=True)
            fam.check(True, "")
        except (subprocess.TimeoutExpired, subprocess.CalledProcessError) as exc:
            fam.check(False, f"parse {label}: {type(exc).__name__}")


def bad_dates(tmp: Path, fam: Family) -> None:
    env, index, _ = setup(tmp)
    header = FIXTURES.joinpath("comprules-2025-11-14.txt").read_text(encoding="utf-8")
    for n, when in enumerate(["February 30, 2025", "Smarch 5, 2025", "November 0, 2025", "November 14, 20255"]):
        doc = tmp / f"date-{n}.txt"
        doc.write_text(header.replace("November 14, 2025", when), encoding="utf-8")
        result = run(env, index, "add", str(doc))
        fam.check(result.returncode == 2 and one_line(result, "error:"), f"add with {when!r}: {result.returncode}: "
                  f"{result.stderr.strip()[:200]}")
    for args in (["lookup", "502.83a", "--as-of", "2025-13-01"], ["lookup", "502.83a", "--as-of", "garbage"],
                 ["search", "exalted", "--as-of", "2025-02-30"], ["changes", "--from", "2025-02-30"],
                 ["history", "502.83a", "--as-of", "0000-01-01"]):
        result = run(env, index, *args)
        fam.check(result.returncode == 2 and "Traceback" not in result.stderr and result.stderr.strip(),
                  f"{' '.join(args)}: exit {result.returncode}: {result.stderr.strip()[:200]}")


def arguments(tmp: Path, fam: Family) -> None:
    env, index, _ = setup(tmp)
    cases = [["lookup", "\udcff\udcfe"], ["search", "x", "--edition", "99e"], ["search", "x", "-n", "0"],
             ["search", "x", "--kind", "nope"], ["search", "x", "--lang", "xx"], ["frobnicate"], ["lookup"],
             ["search", "x", "--limit", "many"], ["add", "/dev/zero"], ["add", str(tmp / "missing.txt")],
             ["add", str(tmp)], ["remove", "../etc"], ["remove", "ck2008"], ["compare", "x", "--editions", "9e"],
             ["diff", "502.83a"], ["glossary", "build", str(tmp / "out"), "--format", "pdf"]]
    for args in cases:
        result = subprocess.run(rb(env, index, *args), env=env, capture_output=True, timeout=120)
        err = result.stderr.decode("utf-8", "replace")
        fam.check(result.returncode == 2 and "Traceback" not in err and err.strip() and not result.stdout,
                  f"{' '.join(args)!r}: exit {result.returncode}: {err.strip()[:200]}")


def foreign(tmp: Path, fam: Family) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    import test_seal

    env, index, baseline = setup(tmp)
    search = run(env, index, "search", "exalted", "--json").stdout
    planted = tmp / "planted"
    shutil.copytree(index, planted)
    marker = tmp / "pwned"
    test_seal._plant_pickle(_gen(planted), marker)
    result = run(env, planted, "search", "exalted", "--json")
    fam.check(not marker.exists() and result.returncode == 0 and result.stdout == search
              and one_line(result, "warning:"), f"planted pickle: ran {marker.exists()}, {result.stderr.strip()}")
    other = tmp / "other"
    shutil.copytree(index, other)
    result = run({**env, "XDG_STATE_HOME": str(tmp / "another-user")}, other, "search", "exalted", "--json")
    fam.check(result.returncode == 0 and result.stdout == search and "not sealed by this user's" in result.stderr,
              f"another user's index: {result.stderr.strip()}")
    mine = tmp / "my-folder"
    mine.mkdir()
    (mine / "photo.jpg").write_bytes(b"\xff\xd8 my photo")
    (mine / "CURRENT").write_text("gen-photos\n")
    before = sorted((p.name, p.read_bytes()) for p in mine.iterdir())
    result = run(env, mine, "lookup", "502.83a")
    fam.check(result.returncode == 2 and one_line(result, "error:") and
              sorted((p.name, p.read_bytes()) for p in mine.iterdir()) == before, f"user's folder: {result.stderr}")


def user_files(tmp: Path, fam: Family) -> None:
    env, index, _ = setup(tmp)
    user = tmp / "user"
    user.mkdir(exist_ok=True)
    mine = {"my-notes.txt": b"my notes\n", "cr2009.txt": FIXTURES.joinpath("ck-2008-mini.txt").read_bytes(),
            ".hidden": b"x", "ck2008-1020.txt": b"a name add might pick\n"}
    for name, data in mine.items():
        (user / name).write_bytes(data)

    def intact() -> bool:
        return all((user / name).is_file() and (user / name).read_bytes() == data for name, data in mine.items())

    steps: list[tuple[str, Callable[[], object]]] = [
        ("add", lambda: run(env, index, "add", str(variant(tmp, 1)))),
        ("add a bad file", lambda: run(env, index, "add", str(tmp / "missing.txt"))),
        ("remove", lambda: run(env, index, "remove", "ck2008")),
        ("add two", lambda: run(env, index, "add", str(variant(tmp, 2)), str(variant(tmp, 3)))),
    ]
    rng = random.Random(4)
    for n in range(4):
        def killed(n=n):
            proc = subprocess.Popen(rb(env, index, "add", str(variant(tmp, 10 + n))), env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.1, 1.5))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        steps.append((f"add killed {n}", killed))
        steps.append((f"remove after kill {n}", lambda: run(env, index, "remove", "nothing-here")))
    for label, step in steps:
        step()
        fam.check(intact(), f"{label}: a user's file changed or went")
    ids = [s["id"] for s in tomllib.loads((user / "sources.toml").read_text(encoding="utf-8")).get("source", [])]
    for doc_id in ids:
        run(env, index, "remove", doc_id)
    fam.check(intact(), "after removing every added document")


def archive_corpus(tmp: Path) -> tuple[Path, dict[str, bytes]]:
    """A corpus of three releases of 2009 in one archive; the bytes of those and two later ones."""
    corpus = tmp / "archive-corpus"
    corpus.mkdir(parents=True)
    members = {}
    with tarfile.open(ROOT / "corpus" / "comprules-archive-2003-2026.tar.xz", "r:xz") as tar:
        for date in ("2009-05-01", "2009-07-11", "2009-09-04", "2009-10-01", "2010-04-23"):
            members[date] = tar.extractfile(f"comprules-archive/comprules-{date}.txt").read()
    held = {d: members[d] for d in ("2009-05-01", "2009-07-11", "2009-09-04")}
    sums = "".join(f"{hashlib.sha256(data).hexdigest()}  comprules-{d}.txt\n" for d, data in held.items())
    with tarfile.open(corpus / "small.tar.xz", "w:xz") as out:
        for name, data in [*((f"comprules-archive/comprules-{d}.txt", b) for d, b in held.items()),
                           ("comprules-archive/SHA256SUMS", sums.encode())]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            out.addfile(info, io.BytesIO(data))
    (corpus / "sources.toml").write_text(
        '[[source]]\nid = "cr"\ntitle = "three releases of 2009"\nedition = "dated"\ndate = "2009-05-01/2009-09-04"\n'
        'lang = "en"\nfile = "small.tar.xz"\nformat = "comprules-archive"\nprovenance = "t"\ncredit = "t"\n',
        encoding="utf-8")
    shutil.copy(ROOT / "corpus" / "topics.toml", corpus)  # (compare reads it)
    return corpus, members


def timeline(tmp: Path, fam: Family) -> None:
    corpus, members = archive_corpus(tmp)
    env = environment(tmp, corpus)
    index = tmp / "index"
    dates = ["2009-05-01", "2009-07-11", "2009-09-04"]
    for date in ("2009-10-01", "2010-04-23"):
        path = tmp / f"added-{date}.txt"
        path.write_bytes(members[date])
        added = run(env, index, "add", str(path))
        dates.append(date)
        sources = run(env, index, "sources").stdout
        as_of = run(env, index, "lookup", "702.80a", "--as-of", date)
        fam.check(added.returncode == 0 and f"releases: {len(dates)} " in sources and f"to {date}" in sources
                  and as_of.returncode == 0 and as_of.stdout.startswith("cr 702.80a"),
                  f"add {date}: exit {added.returncode}: {added.stderr.strip()[:200]}")
    changes = run(env, index, "changes", "--from", "2009-09-04", "--to", "2009-10-01")
    fam.check(changes.returncode == 0 and changes.stdout.startswith("cr 2009-09-04 -> 2009-10-01"),
              f"changes across the added release: {changes.stdout[:100]!r}")
    removed = run(env, index, "remove", "cr2009")
    sources = run(env, index, "sources").stdout
    fam.check(removed.returncode == 0 and "releases: 4 " in sources, f"remove cr2009: {removed.stderr.strip()}")


FAMILIES: list[tuple[str, str, Callable]] = [
    ("concurrency (25 writers, 40 searches)", "25 x `rulebase add ck-NN.txt` and 40 x `rulebase search exalted --json`"
     " at once", concurrency),
    ("kill -9 during add and build", "`rulebase index build` / `rulebase add FILE` SIGKILLed at 0.2-2.5 s, then "
     "`rulebase lookup 502.83a --json`", kills),
    ("disk full (ENOSPC, EDQUOT, SQLite full)", "`rulebase index build`, then reads, with the write raising ENOSPC",
     disk_full),
    ("size- and time-detectable damage", "10 damages to a copy, then `rulebase lookup 502.83a --json` or "
     "`search \"damage prevention\"`", damage),
    ("HTML escaping", "`rulebase add` a document with 3 HTML payloads, `rulebase glossary build DIR`", html),
    ("hostile documents", "16 hostile queries (< 1 s each) and 3 hostile parses (< 60 s)", None),
    ("bad dates", "`rulebase add` with impossible dates, `--as-of 2025-13-01`, `changes --from 2025-02-30`",
     bad_dates),
    ("argument errors", "16 malformed command lines (bad UTF-8, unknown option values, /dev/zero...)", arguments),
    ("foreign index (HMAC seal)", "a planted pickle, another user's index, a folder of the user's own files",
     foreign),
    ("user files never deleted", "add, remove, failed and SIGKILLed adds beside the user's own files", user_files),
    ("added releases on the timeline", "`rulebase add` of 2009-10-01 and 2010-04-23 beside a 3-release archive, "
     "`lookup --as-of`, `changes`, `remove`", timeline),
]


def run_families(scale: float, only: str = "") -> int:
    from trust_families import TRUST_FAMILIES  # issue 35's, in a module of their own
    results = []
    for name, command, fn in FAMILIES + TRUST_FAMILIES:
        if only and only not in name:
            continue
        fam = Family(name, command)
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="rulebase-family-") as scratch:
            try:
                if fn is None:
                    hostile(Path(scratch), fam, scale)
                else:
                    fn(Path(scratch), fam)
            except Exception as exc:  # noqa: BLE001 - a harness failure counts as one
                fam.check(False, f"the harness failed: {type(exc).__name__}: {exc}")
        results.append((fam, time.perf_counter() - start))
        print(f"  {name}: {fam.attempts} attempts, {fam.failures} failures ({results[-1][1]:.0f} s)", file=sys.stderr)
        for note in fam.notes:
            print(f"    FAILED {note}", file=sys.stderr)
    print("| family | attempts | failures | what runs |\n|---|---|---|---|")
    for fam, _ in results:
        print(f"| {fam.name} | {fam.attempts} | {fam.failures} | {fam.command} |")
    return 1 if any(fam.failures for fam, _ in results) else 0
