#!/usr/bin/env python3
"""Speed figures for the targets in the index/CLI issue (measured here, never in timed tests).

    python scripts/bench.py [--queries 300] [--runs 15]

Prints: full index build time; in-process lookup and search latency (p50/p95); whole-process
cold time of `rulebase lookup 502.83a` and `rulebase search "damage prevention"` (median of
--runs, output piped as in a script). Targets on a 2-core machine: build <= 10 s, lookup p50
<= 1 ms, search p95 <= 20 ms, cold lookup <= 0.15 s, cold search <= 0.25 s.

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
from rulebase.lookup import lookup  # noqa: E402
from rulebase.query import run_search  # noqa: E402

TARGETS = {"build": 10.0, "lookup_p50": 0.001, "search_p95": 0.020, "cold_lookup": 0.15, "cold_search": 0.25}


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index"
        library = Library(index)
        build = timed(lambda: library.build())
        store = library.store
        records = store.all()
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
        bare = cold([sys.executable, "-c", "pass"], index, args.runs)
    rows = [
        ("build", build, f"full index build ({len(records)} records)"),
        ("lookup_p50", pct(lookups, 0.5), f"in-process lookup p50 (p95 {pct(lookups, 0.95) * 1000:.2f} ms)"),
        ("search_p95", pct(searches, 0.95), f"in-process search p95 (p50 {pct(searches, 0.5) * 1000:.2f} ms)"),
        ("cold_lookup", statistics.median(cold_lookup),
         f"cold `rulebase lookup 502.83a` (median; min {min(cold_lookup) * 1000:.0f} ms)"),
        ("cold_search", statistics.median(cold_search),
         f"cold `rulebase search \"damage prevention\"` (median; min {min(cold_search) * 1000:.0f} ms)"),
    ]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for key, value, what in rows:
        ok = "ok  " if value <= TARGETS[key] else "SLOW"
        print(f"{ok} {what:<62} {value * 1000:9.2f} ms  (target {TARGETS[key] * 1000:.0f} ms)")
    print("for scale (no target):")
    print(f"     {'in-process search p95, postings cache emptied before each query':<62} {pct(fresh, 0.95) * 1000:9.2f} ms")
    print(f"     {'cold `python -c pass` (median; the interpreter alone)':<62} {statistics.median(bare) * 1000:9.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
