#!/usr/bin/env python3
"""Speed and size figures for the issues' targets (measured here, never in timed tests).

    python scripts/bench.py [--queries 300] [--runs 15] [--bundled-only]
    python scripts/bench.py --cold-only INDEX [--runs 15]

Runs each measurement twice: on the whole corpus (with the Comprehensive Rules archive, 128
releases) and on the bundled documents without the archive, side by side. Prints: full index
build from scratch (empty build cache) and its peak memory (the largest single process, worker
processes included); the rebuild after `rulebase add` of one more release (the archive's cache
warm, the median and least of --add-runs, each on a fresh copy), of a release newer than the
archive's newest (it joins the archive's timeline), and of an MTR release newer than the MTR's;
the index size on disk; in-process lookup and search latency (p50/p95); whole-process cold time
of `rulebase lookup 502.83a`, `rulebase lookup "IPG 2.1"`, `rulebase card "Blood Moon"` and
`rulebase search "damage prevention"` (median of --runs, output piped as in a script); the whole
glossary site, `rulebase glossary build` as a new process on the built index (every term of every
era, a page with its history for every rule of the newest release). Targets on a 2-core machine
(whole corpus): build <= 60 s, peak RSS <= 1 GB, index <= 150 MB, add <= 10 s (any kind), lookup
p50 <= 1 ms, search p95 <= 20 ms, cold lookup and card <= 0.15 s, cold search <= 0.25 s, site <=
30 s; `rulebase check` of 10,000 generated files holding 100,000 citations <= 10 s (with
--check-only INDEX, that alone on a built index; its CPU time is printed too). The releases
added are made from the bundled archive's 2025-11-14 release and the tournament tarball's newest
MTR: a checkout needs nothing beside corpus/.

With --cold-only INDEX it prints only the cold-start ratios, in CPU time, each command taken in
turn with its floor: a cold `rulebase lookup 502.83a` against the same interpreter's `python -c
pass`, and a cold `rulebase search` of a short and of a 12-word question against a cold Python
process querying SQLite FTS5 (bm25) for the same words over the same records. Target: <= 3x each.

For scale it also prints the search p95 with the searcher's postings cache emptied before every
query (each term read from the index afresh) and the bare interpreter's start-up time: on a
shared virtual machine the same run can differ by a third from one minute to the next.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebase.library import Library  # noqa: E402
from rulebase.rules.lookup import lookup  # noqa: E402
from rulebase.search.request import run_search  # noqa: E402

TARGETS = {"build": 60.0, "rss": 1024.0, "size": 150.0, "add": 10.0, "add_new": 10.0, "add_tournament": 10.0,
           "lookup_p50": 0.001, "search_p95": 0.020, "cold_lookup": 0.15, "cold_lookup_ipg": 0.15, "cold_card": 0.15,
           "cold_search": 0.25,
           "site": 30.0, "check": 10.0}
UNITS = {"build": ("s", 1), "add": ("s", 1), "add_new": ("s", 1), "add_tournament": ("s", 1), "rss": ("MB", 1),
         "size": ("MB", 1), "site": ("s", 1), "check": ("s", 1)}  # the rest: ms


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def rulebase_command() -> list[str]:
    exe = Path(sys.executable).parent / "rulebase"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "rulebase"]


def cold(cmd: list[str], index: Path, runs: int) -> list[float]:
    """Wall times of `runs` new processes, as a user runs them: bytecode caching on (some shells
    here export PYTHONDONTWRITEBYTECODE, which would add a recompile of every module to each run),
    after one discarded warm-up run so the .pyc files exist."""
    env = dict(os.environ, RULEBASE_INDEX=str(index))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(cmd, env=env, capture_output=True, check=False)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return times


SHORT_QUERY = "damage prevention"
LONG_QUERY = "how does trample work when the blocking creature has protection from green"  # 12 words
_FTS5_QUERY = ("import sqlite3, sys; words = sys.argv[2].split(); db = sqlite3.connect(sys.argv[1]); "
               "print(db.execute('SELECT id FROM r WHERE r MATCH ? ORDER BY bm25(r) LIMIT 10', "
               "(' OR '.join(chr(34) + w + chr(34) for w in words),)).fetchall())")


def cpu_seconds(cmd: list[str], env: dict) -> float:
    """User plus system CPU time of one new process (its children's rusage): on a shared machine
    wall time measures the neighbours, CPU time the command."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fts5_floor(store, tmp: Path) -> Path:
    """The same records exported to an SQLite FTS5 table: what a cold query costs with no ranking,
    no spelling and no index of our own (the floor a cold `rulebase search` is held to)."""
    import sqlite3

    path = tmp / "fts5.db"
    db = sqlite3.connect(path)
    db.execute("CREATE VIRTUAL TABLE r USING fts5(id UNINDEXED, title, text)")
    db.executemany("INSERT INTO r VALUES (?, ?, ?)", ((r.id, r.title or "", r.text) for r in store.all()))
    db.commit()
    db.close()
    return path


def cold_ratios(index: Path, tmp: Path, runs: int) -> dict[str, tuple[float, float]]:
    """Median CPU seconds of each cold command beside its floor, taken in turn in one run:
    `rulebase lookup` vs `python -c pass`, `rulebase search` (short and 12-word) vs a cold FTS5
    query of the same words over the same records. Targets: each ratio <= 3."""
    env = dict(os.environ, RULEBASE_INDEX=str(index))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    db = fts5_floor(Library(index).store, tmp)
    pairs = {"lookup": (rulebase_command() + ["lookup", "502.83a"], [sys.executable, "-c", "pass"]),
             "search short": (rulebase_command() + ["search", SHORT_QUERY],
                              [sys.executable, "-c", _FTS5_QUERY, str(db), SHORT_QUERY]),
             "search long": (rulebase_command() + ["search", LONG_QUERY],
                             [sys.executable, "-c", _FTS5_QUERY, str(db), LONG_QUERY])}
    out = {}
    for name, (ours, floor) in pairs.items():
        cpu_seconds(ours, env), cpu_seconds(floor, env)  # warm-up: .pyc files and the page cache
        taken = [(cpu_seconds(ours, env), cpu_seconds(floor, env)) for _ in range(runs)]
        out[name] = (statistics.median(a for a, _ in taken), statistics.median(b for _, b in taken))
    return out


def corpus_without_archive(tmp: Path) -> Path:
    """A copy of corpus/ whose manifest leaves out the archive (the bundled-only figures)."""
    from rulebase.core.sources import copy_without

    return copy_without(ROOT / "corpus", tmp / "bundled-corpus", "comprules-archive")


_PEAK = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
         "subprocess.run(sys.argv[1:], check=True, capture_output=True); "
         "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def build_process(env: dict, *args: str) -> tuple[float, float]:
    """Wall time and peak RSS (MB, the largest of the process and its workers) of one command,
    run under a fresh parent so that its peak is not an earlier command's."""
    out = subprocess.run([sys.executable, "-c", _PEAK, *rulebase_command(), *args], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1]) / 1024


ARCHIVE = ROOT / "corpus" / "comprules-archive-2003-2026.tar.xz"
RELEASE = "comprules-archive/comprules-2025-11-14.txt"  # a release of the archive, added again as a user's copy


def release_text() -> bytes | None:
    """The 2025-11-14 release as the archive bundles it (None in a checkout without it)."""
    # lazy: only the add measurements need it
    import tarfile

    if not ARCHIVE.is_file():
        return None
    with tarfile.open(ARCHIVE, "r:xz") as tar:
        try:
            return tar.extractfile(RELEASE).read()  # type: ignore[union-attr]
        except KeyError:  # (an archive without it: the add rows print nan)
            return None


def add_times(env: dict, tmp: Path, runs: int, document: Path | None = None, name: str = "add") -> list[float]:
    """Wall times of `rulebase add DOCUMENT` (by default a user's copy of the 2025-11-14 release,
    one word changed: a document of its own, since `add` refuses the archive's own text), each on
    a fresh copy of the built index, the warm build cache and an empty user corpus, as a user's
    first add after the first build."""
    # lazy: only this rarer path needs it
    import shutil

    release = release_text() if document is None else None
    if release is not None:
        document = tmp / "in" / "comprules-2025-11-14-mine.txt"
        document.parent.mkdir(exist_ok=True)
        document.write_bytes(release.replace(b"Trample is a static ability", b"Trample is a static keyword ability", 1))
    if document is None or not document.is_file():
        return []
    times = []
    for n in range(runs):
        run = tmp / f"{name}-{n}"
        shutil.copytree(tmp / "index", run / "index")
        shutil.copytree(tmp / "cache", run / "cache")
        one = dict(env, RULEBASE_INDEX=str(run / "index"), RULEBASE_CACHE=str(run / "cache"),
                   RULEBASE_USER_CORPUS=str(run / "users"))
        times.append(build_process(one, "add", str(document))[0])
        shutil.rmtree(run)
    return times


def new_release_times(env: dict, tmp: Path, runs: int) -> list[float]:
    """add_times of a release newer than every one the archive holds (the 2025-11-14 file, its
    effective date made today's): it joins the archive's timeline (only it is parsed and traced;
    the archive's closed documents' segments are copied, the rest indexed again)."""
    # lazy: only this rarer path needs it
    import datetime

    release = release_text()
    if release is None:
        return []
    today = datetime.date.today()
    text = release.decode("utf-8-sig").replace(
        "effective as of November 14, 2025", f"effective as of {today:%B} {today.day}, {today.year}")
    newer = tmp / "in" / "comprules-new.txt"
    newer.parent.mkdir(exist_ok=True)
    newer.write_text(text, encoding="utf-8")
    return add_times(env, tmp, runs, newer, "add-new")


TOURNAMENT = ROOT / "corpus" / "tournament-rules-2013-2025.tar.xz"
NEWEST_MTR = "AEFeinstein-mtg-familiar/MTR/fad8917d-mtr.html"  # the MTR of 2025-11-10 (HTML from the PDF)


def tournament_times(env: dict, tmp: Path, runs: int) -> list[float]:
    """add_times of an MTR release newer than the archive's newest (the 2025-11-10 file, its
    effective date made today's): it joins the MTR's timeline; the tournament documents' cached
    parse is not reused (its key holds the added file), so every file is read again."""
    # lazy: only this rarer path needs it
    import datetime
    import tarfile

    if not TOURNAMENT.is_file():
        return []
    with tarfile.open(TOURNAMENT, "r:xz") as tar:
        text = tar.extractfile(NEWEST_MTR).read().decode("utf-8")  # type: ignore[union-attr]
    today = datetime.date.today()
    newer = tmp / "in" / "mtr-new.html"
    newer.parent.mkdir(exist_ok=True)
    newer.write_text(text.replace("Effective November 10, 2025", f"Effective {today:%B} {today.day}, {today.year}"),
                     encoding="utf-8")
    return add_times(env, tmp, runs, newer, "add-tournament")


CHECK_FILES, CHECK_PER_FILE = 10_000, 10


def check_files(folder: Path, numbers: list[str], rng) -> int:
    """CHECK_FILES source-like files of CHECK_PER_FILE citations each, in the forms `check` reads
    (rule numbers of the corpus, some made up, tournament sections), among lines of code and
    prose with version numbers, addresses and decimals that are no citations. Returns how many."""
    forms = ("rule {}", "CR {}", "[{}]", "see §{}", "{}", "rules {} and {}")
    made_up = [f"{rng.randint(100, 999)}.{rng.randint(1, 99)}z" for _ in range(50)]
    shaped = [n for n in numbers if n[-1].isalpha() and "." in n]  # 702.19b: a citation even alone
    count = 0
    for n in range(CHECK_FILES):
        lines = []
        for _ in range(CHECK_PER_FILE):
            form = rng.choice(forms)
            pool = shaped if form == "{}" else numbers
            picks = [rng.choice(made_up if rng.random() < 0.02 else pool) for _ in range(form.count("{}"))]
            cited = form.format(*picks) if rng.random() > 0.05 else f"MTR {rng.choice(['2.3', '1.10', '3.2', '9.9'])}"
            count += len(picks) if not cited.startswith("MTR") else 1
            lines.append(f"    check(state)  # {cited}: version 1.2.{n % 10}, host 10.0.0.{n % 250}, ratio 3.14")
            lines.append(f"    assert total == {rng.randint(0, 999)}.5  # ok")
        folder.joinpath(f"part{n // 1000}").mkdir(exist_ok=True)
        folder.joinpath(f"part{n // 1000}", f"test_{n}.py").write_text("def test():\n" + "\n".join(lines) + "\n")
    return count


def check_time(index: Path, tmp: Path, runs: int, rng, store=None) -> tuple[float, int, str]:
    """`rulebase check` of the generated files as a new process, as written in 2010 (median), how
    many citations were written, and the summary line `check` printed (how many it found)."""
    import re

    store = store or Library(index).store
    numbers = [n for n in store.numbers() if re.fullmatch(r"[1-9]\d\d(?:\.\d{1,3}[a-z]?)?", n)]
    folder = tmp / "check"
    folder.mkdir(exist_ok=True)
    cited = check_files(folder, numbers, rng)
    command = rulebase_command() + ["check", str(folder), "--as-of", "2010"]
    times = cold(command, index, runs)
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, env=dict(os.environ, RULEBASE_INDEX=str(index)), capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime  # (what a shared machine's load leaves out)
    summary = (out.stdout.strip().splitlines() or [""])[-1]
    return statistics.median(times), cited, f"{summary}\n  its CPU time: {cpu:.2f} s (user and system)"


def size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 2**20


def measure(corpus: Path, tmp: Path, args, rng) -> dict[str, float]:
    index, cache, users = tmp / "index", tmp / "cache", tmp / "users"
    env = dict(os.environ, RULEBASE_INDEX=str(index), RULEBASE_CACHE=str(cache), RULEBASE_CORPUS=str(corpus),
               RULEBASE_USER_CORPUS=str(users))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    build, rss = build_process(env, "index", "build")
    size = size_mb(index)
    os.environ.update({k: env[k] for k in ("RULEBASE_CACHE", "RULEBASE_CORPUS", "RULEBASE_USER_CORPUS")})
    library = Library(index, corpus)
    store = library.store
    records = store.all(latest=True)
    numbers = [r.number for r in records if r.number]
    sample = [rng.choice(numbers) for _ in range(args.queries)]
    lookups = [timed(lambda n=n: lookup(store, n)) for n in sample]
    words = [w for r in records if r.title for w in r.title.split() if len(w) > 3]
    queries = [" ".join(rng.sample(words, k=rng.randint(1, 3))) for _ in range(args.queries)]
    run_search(library, "warm up", {}, 10)
    searches = [timed(lambda q=q: run_search(library, q, {}, 10)) for q in queries]
    scorer = library.searcher.scorer
    fresh = [timed(lambda q=q: (scorer.clear(), run_search(library, q, {}, 10))) for q in queries]
    cold_lookup = cold(rulebase_command() + ["lookup", "502.83a"], index, args.runs)
    cold_search = cold(rulebase_command() + ["search", "damage prevention"], index, args.runs)
    cold_ipg = cold(rulebase_command() + ["lookup", "IPG 2.1"], index, args.runs)
    cold_card = cold(rulebase_command() + ["card", "Blood Moon"], index, args.runs)
    bare = cold([sys.executable, "-c", "pass"], index, args.runs)
    site = build_process(env, "glossary", "build", str(tmp / "site"))[0]  # before `add` changes the index
    check = check_time(index, tmp, 3, rng, store)[0]
    pages = sum(1 for p in (tmp / "site").rglob("*.html"))
    adds = add_times(env, tmp, args.add_runs)
    add = statistics.median(adds) if adds else float("nan")
    news = new_release_times(env, tmp, args.add_runs)
    add_new = statistics.median(news) if news else float("nan")
    tours = tournament_times(env, tmp, args.add_runs) if (corpus / TOURNAMENT.name).is_file() else []
    return {"records": len(store.all()), "build": build, "rss": rss, "size": size, "add": add,
            "add_min": min(adds) if adds else float("nan"), "add_runs": len(adds), "add_new": add_new,
            "add_tournament": statistics.median(tours) if tours else float("nan"),
            "cold_lookup_ipg": statistics.median(cold_ipg), "cold_card": statistics.median(cold_card),
            "lookup_p50": pct(lookups, 0.5), "lookup_p95": pct(lookups, 0.95),
            "search_p95": pct(searches, 0.95), "search_p50": pct(searches, 0.5),
            "cold_lookup": statistics.median(cold_lookup), "cold_lookup_min": min(cold_lookup),
            "cold_search": statistics.median(cold_search), "cold_search_min": min(cold_search),
            "fresh_p95": pct(fresh, 0.95), "bare": statistics.median(bare), "site": site, "site_pages": pages,
            "check": check}


def show(key: str, value: float) -> str:
    unit, scale = UNITS.get(key, ("ms", 1000))
    return f"{value * scale:9.2f} {unit}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--bundled-only", action="store_true", help="skip the whole-corpus run")
    parser.add_argument("--add-runs", type=int, default=5, help="`rulebase add` measurements (median, min)")
    parser.add_argument("--check-only", metavar="INDEX", type=Path,
                        help="only `rulebase check` of the generated files, on this built index")
    parser.add_argument("--cold-only", metavar="INDEX", type=Path,
                        help="only the cold-start ratios (CPU time, median of --runs) on this built index")
    args = parser.parse_args(argv)
    if args.cold_only:
        with tempfile.TemporaryDirectory() as tmp:
            ratios = cold_ratios(args.cold_only, Path(tmp), args.runs)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; CPU time, median of {args.runs}")
        for name, (ours, floor) in ratios.items():
            ok = "ok  " if ours <= 3 * floor else "SLOW"
            against = "`python -c pass`" if name == "lookup" else "a cold FTS5 query"
            print(f"{ok} cold {name:<13} {ours * 1000:7.1f} ms   {against} {floor * 1000:6.1f} ms   "
                  f"ratio {ours / floor:4.1f}x   target 3x")
        return 0
    if args.check_only:
        with tempfile.TemporaryDirectory() as tmp:
            seconds, cited, summary = check_time(args.check_only, Path(tmp), 3, random.Random(7))
        ok = "ok  " if seconds <= TARGETS["check"] else "SLOW"
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
        print(f"{ok} `rulebase check` of {CHECK_FILES:,} files, {cited:,} citations (median of 3): "
              f"{seconds:.2f} s   target {TARGETS['check']:.0f} s")
        print(f"  it printed: {summary}")
        return 0
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if not args.bundled_only:
            (root / "all").mkdir()
            results["whole corpus"] = measure(ROOT / "corpus", root / "all", args, random.Random(7))
        (root / "bundled").mkdir()
        results["bundled only"] = measure(corpus_without_archive(root), root / "bundled", args, random.Random(7))
    names = list(results)
    rows = [("build", "full index build from scratch"), ("rss", "peak RSS of the build (largest process)"),
            ("size", "index size on disk"), ("add", "`rulebase add` of one release (median)"),
            ("add_new", "`add` of a release newer than the archive (median)"),
            ("add_tournament", "`add` of an MTR release newer than the MTR's (median)"),
            ("lookup_p50", "in-process lookup p50"), ("search_p95", "in-process search p95"),
            ("cold_lookup", "cold `rulebase lookup 502.83a` (median)"),
            ("cold_lookup_ipg", "cold `rulebase lookup \"IPG 2.1\"` (median)"),
            ("cold_card", "cold `rulebase card \"Blood Moon\"` (median)"),
            ("cold_search", "cold `rulebase search \"damage prevention\"` (median)"),
            ("site", "`rulebase glossary build` (the whole site)"),
            ("check", "`rulebase check` of 10,000 files, 100,000 citations"),
            ("fresh_p95", "for scale: search p95, postings cache emptied"),
            ("bare", "for scale: cold `python -c pass` (median)")]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; "
          + "; ".join(f"{n}: {int(results[n]['records'])} records" for n in names))
    print(f"{'':4} {'measurement':<52}" + "".join(f"{n:>16}" for n in names) + "   target")
    for key, what in rows:
        target = TARGETS.get(key)
        first = results[names[0]][key]
        ok = "    " if target is None else ("ok  " if first <= target else "SLOW")
        goal = "" if target is None else show(key, target).strip()
        print(f"{ok} {what:<52}" + "".join(f"{show(key, results[n][key]):>16}" for n in names) + f"   {goal}")
    for n in names:
        r = results[n]
        print(f"  {n}: add min {r['add_min']:.1f} s of {r['add_runs']}, lookup p95 {r['lookup_p95'] * 1000:.2f} ms, "
              f"search p50 {r['search_p50'] * 1000:.2f} ms, "
              f"cold lookup min {r['cold_lookup_min'] * 1000:.0f} ms, cold search min {r['cold_search_min'] * 1000:.0f} ms, "
              f"site {int(r['site_pages'])} pages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
