"""Reads while a writer works: the figures of the reliability targets for `rulebase add`.

    python scripts/during_add.py [--runs N] [--kill-after S]

On a fresh index, cache and user corpus in a scratch folder (built first, about two minutes), each
run adds a user's copy of the 2025-11-14 Comprehensive Rules (one word changed, as scripts/bench.py
adds it) and, while the add works, runs `rulebase lookup 702.19a` and `rulebase search trample` in
turn, one after the other, timing each whole process (wall clock). It samples the memory (PSS)
of the add and all its worker processes together every 20 ms from /proc (Linux). Then it adds the
same document again, kills the add's whole process group KILL_AFTER seconds in, and times the
first read after it: it must answer from the last generation, not rebuild in the foreground.

Targets (issue: reliability): every read during an add within 1 s; the add's processes together
within 1 GB; the first read after a killed add within 1 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench  # noqa: E402  (the same release and the same rulebase command as the bench)

READS = (["lookup", "702.19a"], ["search", "trample"])
READ_LIMIT, MEMORY_LIMIT = 1.0, 1024.0  # seconds, MB


def tree_memory_mb(root: int) -> float:
    """Proportional set size (PSS) of a process and all its descendants (MB), from /proc: pages a
    forked worker shares with its parent count once between them, not once for each (summed RSS
    counts the parent's whole heap again for every worker)."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                ppid = int(handle.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as handle:
                total += next(int(line.split()[1]) for line in handle if line.startswith("Pss:"))
        except (OSError, StopIteration, ValueError):
            continue
    return total / 1024


def read_once(env: dict) -> list[float]:
    times = []
    for args in READS:
        start = time.perf_counter()
        done = subprocess.run(bench.rulebase_command() + args, env=env, capture_output=True)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"read {' '.join(args)} failed during the add (exit {done.returncode}): "
                             f"{done.stderr.decode(errors='replace')[-300:]}")
    return times


def one_add(env: dict, document: Path, kill_after: float | None) -> dict:
    """Run one add with readers beside it; the figures of that run."""
    add = subprocess.Popen(bench.rulebase_command() + ["add", str(document)], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    peak, started = [0.0], time.perf_counter()

    def sample() -> None:
        while add.poll() is None:
            peak[0] = max(peak[0], tree_memory_mb(add.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    reads: list[float] = []
    killed = False
    while add.poll() is None:
        if kill_after is not None and time.perf_counter() - started >= kill_after:
            os.killpg(add.pid, signal.SIGKILL)
            killed = True
            break
        reads += read_once(env)
    add.wait()
    sampler.join()
    figures = {"add_s": time.perf_counter() - started, "add_exit": add.returncode, "peak_mb": peak[0],
               "reads": reads, "killed": killed}
    if killed:
        figures["after_kill"] = read_once(env)
    elif add.returncode != 0:
        raise SystemExit(f"the add failed (exit {add.returncode}): {add.stderr.read().decode(errors='replace')[-300:]}")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="adds with readers beside them")
    parser.add_argument("--kill-after", type=float, default=4.0, help="seconds into the killed add")
    args = parser.parse_args(argv)
    release = bench.release_text()
    if release is None:
        raise SystemExit("corpus/ lacks the archive of Comprehensive Rules releases this measures with")
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)
        env = dict(os.environ, RULEBASE_INDEX=str(tmp / "index"), RULEBASE_CACHE=str(tmp / "cache"),
                   RULEBASE_CORPUS=str(bench.ROOT / "corpus"), RULEBASE_USER_CORPUS=str(tmp / "users"))
        subprocess.run(bench.rulebase_command() + ["index", "build"], env=env, check=True, capture_output=True)
        document = tmp / "comprules-2025-11-14-mine.txt"
        document.write_bytes(release.replace(b"Trample is a static ability", b"Trample is a static keyword ability", 1))
        quiet = [t for _ in range(5) for t in read_once(env)]
        runs = []
        for n in range(args.runs):
            run = tmp / f"run-{n}"
            shutil.copytree(tmp / "index", run / "index")
            shutil.copytree(tmp / "cache", run / "cache")
            one = dict(env, RULEBASE_INDEX=str(run / "index"), RULEBASE_CACHE=str(run / "cache"),
                       RULEBASE_USER_CORPUS=str(run / "users"))
            runs.append(one_add(one, document, None))
            shutil.rmtree(run)
        killed = one_add(env, document, args.kill_after)
    reads = [t for r in runs for t in r["reads"]]
    over = sum(t > READ_LIMIT for t in reads)
    peak = max(r["peak_mb"] for r in runs)
    print(f"reads with no writer: median {statistics.median(quiet):.2f} s, max {max(quiet):.2f} s")
    print(f"adds: {len(runs)}, median {statistics.median(r['add_s'] for r in runs):.1f} s")
    print(f"reads during the adds: {len(reads)}, median {statistics.median(reads):.2f} s, "
          f"max {max(reads):.2f} s, over {READ_LIMIT:.0f} s: {over}  (target 0)")
    print(f"peak memory of an add, all its processes together: {peak:.0f} MB  (target <= {MEMORY_LIMIT:.0f})")
    after = killed.get("after_kill", [float("nan")])
    print(f"add killed {args.kill_after:.0f} s in: {'yes' if killed['killed'] else 'no (it finished first)'}; "
          f"first reads after it: {', '.join(f'{t:.2f} s' for t in after)}  (target <= {READ_LIMIT:.0f} s)")
    return 0 if not over and peak <= MEMORY_LIMIT and max(after) <= READ_LIMIT else 1


if __name__ == "__main__":
    sys.exit(main())
