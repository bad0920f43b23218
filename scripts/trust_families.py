"""The reliability families of issue 35, run for real as scripts/families.py runs issue 21's.

    python scripts/hostile.py --families [--only NAME]

Each family works in its own temporary folders on the small corpora of families.py (the bundled
Crystal Keep 2008 summary alone; three archive releases of 2009) through real `python -m rulebase`
processes, terminals under a pseudo-terminal. An attempt fails when its exit code, its output or
the files it leaves are not what docs/architecture.md promises: no traceback (exit 3) on any of them, no
code run from the build cache or the index, nothing of the user's deleted, the last good index
answering.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from families import FIXTURES, ROOT, Family, archive_corpus, environment, one_line, rb, run, setup, variant

sys.path.insert(0, str(ROOT / "tests"))  # the tests' planted pickle and terminal runner
from test_hostile_io import _on_a_terminal  # noqa: E402
from test_seal import _plant_toc  # noqa: E402


def _flip(path: Path, at: tuple[int, ...] = (-3, -9, -17), keep_time: bool = False) -> None:
    info = path.stat()
    data = bytearray(path.read_bytes())
    for n in at:
        data[n] ^= 0x5A
    path.write_bytes(bytes(data))
    if keep_time:
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def _warned(result: subprocess.CompletedProcess) -> bool:
    return result.returncode == 0 and "Traceback" not in result.stderr and "warning: " in result.stderr


def cache(tmp: Path, fam: Family) -> None:
    env, index, _ = setup(tmp)
    search = run(env, index, "search", "exalted", "--json").stdout
    entry = next((tmp / "cache").glob("segment-*"))
    marker = tmp / "pwned"
    toc = entry / "whoosh" / "_MAIN_1.toc"
    _plant_toc(toc, marker)
    sums = json.loads((entry / "sums.json").read_text())
    sums["whoosh/_MAIN_1.toc"] = [toc.stat().st_size, hashlib.sha256(toc.read_bytes()).hexdigest()]
    (entry / "sums.json").write_text(json.dumps(sums, sort_keys=True))
    built = run(env, index, "index", "build")
    fam.check(not marker.exists() and _warned(built), f"planted pickle in a cached segment: ran {marker.exists()}, "
              f"exit {built.returncode}: {built.stderr.strip()[:200]}")
    entry = next((tmp / "cache").glob("segment-*"))
    shutil.copy(entry / "whoosh" / "_MAIN_1.toc", entry / "whoosh" / "_MAIN_2.toc")
    _plant_toc(entry / "whoosh" / "_MAIN_2.toc", marker)
    built = run(env, index, "index", "build")
    fam.check(not marker.exists() and _warned(built), f"a stray _MAIN_2.toc in a cached segment: ran "
              f"{marker.exists()}, exit {built.returncode}")
    for command in (("index", "build"), ("ingest",), ("add", str(variant(tmp, 1)))):
        for found in (tmp / "cache").glob("segment-*/whoosh/_MAIN_1.toc"):
            _flip(found)
        done = run(env, index, *command)
        reads = [run(env, index, *args) for args in (("lookup", "502.83a"), ("search", "exalted"))]
        fam.check(_warned(done) and all(r.returncode == 0 and not r.stderr for r in reads),
                  f"3 flipped bytes in each cached table of contents, then {command[0]}: exit {done.returncode}: "
                  f"{done.stderr.strip()[:200]}; reads {[r.returncode for r in reads]}")
    run(env, index, "remove", "ck2008-1020")
    other = run({**env, "XDG_STATE_HOME": str(tmp / "another-user")}, tmp / "theirs", "search", "exalted", "--json")
    fam.check(_warned(other) and other.stdout == search, f"another user's cache: exit {other.returncode}")
    generation = index / (index / "CURRENT").read_text().strip()
    shutil.copy(generation / "whoosh" / "_MAIN_1.toc", generation / "whoosh" / "_MAIN_2.toc")
    _plant_toc(generation / "whoosh" / "_MAIN_2.toc", marker)
    read = run(env, index, "search", "exalted", "--json")
    fam.check(not marker.exists() and _warned(read) and read.stdout == search,
              f"a stray _MAIN_2.toc in a generation: ran {marker.exists()}, exit {read.returncode}")
    generation = index / (index / "CURRENT").read_text().strip()
    _flip(max((generation / "whoosh").glob("*_text_len.col"), key=lambda p: p.stat().st_size), (40, 80), True)
    read = run(env, index, "search", "exalted", "--json")
    fam.check(one_line(read, "warning: the index at") and read.stdout == search,
              f"bit rot in a length column (size and time kept): exit {read.returncode}: {read.stderr.strip()}")
    corpus, _ = archive_corpus(tmp / "archive")
    cr = environment(tmp / "archive", corpus)
    assert run(cr, tmp / "archive" / "index", "index", "build").returncode == 0
    before = run(cr, tmp / "archive" / "index", "lookup", "702.80a", "--json").stdout
    for name in ("versions.json", "resume.json"):
        path = next((tmp / "archive" / "cache").glob(f"cr-*/{name}"))
        path.write_bytes(path.read_bytes().replace(b"Exalted is a triggered ability", b"Exalted is a STATIC!!! ability"))
    built = run(cr, tmp / "archive" / "index", "index", "build")
    after = run(cr, tmp / "archive" / "index", "lookup", "702.80a", "--json").stdout
    fam.check(_warned(built) and after == before and "STATIC" not in after,
              f"altered text in the cached versions: exit {built.returncode}, served {'STATIC' in after}")


def _release(tmp: Path, when: str) -> Path:
    doc = tmp / f"release-{len(list(tmp.glob('release-*')))}.txt"
    doc.write_bytes(FIXTURES.joinpath("comprules-2025-11-14.txt").read_bytes().replace(b"November 14, 2025",
                                                                                        when.encode()))
    return doc


def dates(tmp: Path, fam: Family) -> None:
    env, index, baseline = setup(tmp)
    for when in ("January 1, 2100", "December 31, 9999", "March 3, 1066"):
        added = run(env, index, "add", str(_release(tmp, when)), "--edition", "4e")
        reads = [run(env, index, *args) for args in (("lookup", "502.83a", "--json"), ("search", "exalted"),
                                                    ("define", "exalted"), ("sources",))]
        fam.check(added.returncode == 2 and one_line(added, "error:") and not (tmp / "user" / "sources.toml").exists()
                  and all(r.returncode == 0 and not r.stderr for r in reads) and reads[0].stdout == baseline,
                  f"add dated {when}: exit {added.returncode}: {added.stderr.strip()[:200]}; reads "
                  f"{[r.returncode for r in reads]}")
    corpus, members = archive_corpus(tmp / "archive")
    cr = {**environment(tmp / "archive", corpus), "RULEBASE_TODAY": "2026-12-01"}
    index = tmp / "archive" / "index"
    future = tmp / "future.txt"
    future.write_bytes(members["2009-10-01"].replace(b"effective as of October 1, 2009", b"effective as of March 3, 2031"))
    added = run(cr, index, "add", str(future))
    shown = run(cr, index, "lookup", "103.4")
    fam.check(added.returncode == 0 and shown.stdout.startswith("cr 103.4\n  [rule · edition cr2009")
              and "upcoming: rule 103.4 from 2031-03-03, text changes" in shown.stdout,
              f"a release dated 2031-03-03, today 2026-12-01: {shown.stdout[:120]!r}")
    on_the_day = run({**cr, "RULEBASE_TODAY": "2031-03-03"}, index, "lookup", "103.4")
    fam.check(on_the_day.stdout.startswith("cr 103.4\n  [rule · edition cr2031") and "upcoming" not in on_the_day.stdout,
              f"the same on 2031-03-03: {on_the_day.stdout[:120]!r}")


def readd(tmp: Path, fam: Family) -> None:
    corpus, members = archive_corpus(tmp)
    env = environment(tmp, corpus)
    index = tmp / "index"
    assert run(env, index, "index", "build").returncode == 0
    own = members["2009-09-04"]
    copies = {"the archive's own 2009-09-04 file": own,
              "the same with CRLF and a byte-order mark": b"\xef\xbb\xbf" + own.replace(b"\r\n", b"\n").replace(
                  b"\n", b"\r\n")}
    for label, data in copies.items():
        doc = tmp / "readd.txt"
        doc.write_bytes(data)
        added = run(env, index, "add", str(doc))
        fam.check(added.returncode == 2 and one_line(added, "error:") and "already in the corpus" in added.stderr,
                  f"{label}: exit {added.returncode}: {added.stderr.strip()[:200]}")
    mine = tmp / "mine.txt"
    mine.write_bytes(members["2010-04-23"])
    first, second = run(env, index, "add", str(mine)), run(env, index, "add", str(mine))
    fam.check(first.returncode == 0 and second.returncode == 2 and one_line(second, "error:"),
              f"an added release added again: exits {first.returncode}, {second.returncode}")


def streams(tmp: Path, fam: Family) -> None:
    env, index, _ = setup(tmp)
    for args in (("lookup", "502.83a"), ("search", "exalted"), ("export",), ("define", "exalted"), ("sources",)):
        closed = subprocess.run(rb(env, index, *args), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True, timeout=300, preexec_fn=lambda: os.close(1))
        fam.check(closed.returncode == 2 and one_line(closed, "error: standard output is closed"),
                  f"{args[0]} >&-: exit {closed.returncode}: {closed.stderr.strip()[:200]}")
        with open("/dev/full", "w") as full:
            filled = subprocess.run(rb(env, index, *args), env=env, stdout=full, stderr=subprocess.PIPE, text=True,
                                    timeout=300)
        fam.check(filled.returncode == 2 and one_line(filled, "error: cannot write the answer to standard output"),
                  f"{args[0]} > /dev/full: exit {filled.returncode}: {filled.stderr.strip()[:200]}")



def widths(tmp: Path, fam: Family) -> None:
    env, index, _ = setup(tmp)
    env = {k: v for k, v in env.items() if k != "NO_COLOR"}
    for columns in ("0", "1", "100000"):
        for args in (("lookup", "502.83a"), ("search", "exalted"), ("define", "exalted")):
            start = time.perf_counter()
            code, shown = _on_a_terminal({**env, "COLUMNS": columns, "PAGER": "cat"}, rb(env, index, *args))
            took = time.perf_counter() - start  # (colours taken out, lines ended by \n)
            widest = max((len(line) for line in shown.split("\n")), default=0)
            fam.check(code == 0 and shown.strip() and widest <= 500 and took < 30,
                      f"COLUMNS={columns} {args[0]}: exit {code}, {len(shown)} characters, widest line {widest}")


def site(tmp: Path, fam: Family) -> None:
    env, index, _ = setup(tmp)
    head = "# written by 'rulebase glossary build'; files it wrote (deleted on the next build):\n"
    for label, marker in (("a marker naming the user's file", f"{head}precious.txt\n"),
                          ("a marker with a forged checksum",
                           "# written by 'rulebase glossary build'; the SHA-256 and name of each file it wrote (deleted "
                           f"by the next build only while it holds those bytes):\n{'0' * 64}  precious.txt\n")):
        out = tmp / f"site-{len(fam.notes)}-{fam.attempts}"
        out.mkdir()
        (out / "precious.txt").write_text("x\n", encoding="utf-8")
        (out / ".rulebase-glossary").write_text(marker, encoding="utf-8")
        built = run(env, index, "glossary", "build", str(out))
        fam.check(built.returncode == 0 and (out / "precious.txt").read_text(encoding="utf-8") == "x\n",
                  f"{label}: exit {built.returncode}, precious.txt kept: {(out / 'precious.txt').exists()}")
    (tmp / "file.txt").write_text("x", encoding="utf-8")
    under = run(env, index, "glossary", "build", str(tmp / "file.txt" / "sub"))
    fam.check(under.returncode == 2 and one_line(under, "error: cannot write the glossary"),
              f"a path under a file: exit {under.returncode}: {under.stderr.strip()[:200]}")


def huge(tmp: Path, fam: Family) -> None:
    env, index, baseline = setup(tmp)
    head = FIXTURES.joinpath("comprules-2025-11-14.txt").read_text(encoding="utf-8-sig")[:300] + "\n\n"
    rule = " of a rules-shaped file about combat damage and trample."
    shapes = {"50 MB rules-shaped": head + "".join(f"{100 + n % 900}.{n // 900 + 1}. Rule {n}{rule}\n"
                                                   for n in range(600_000)),
              "one 10 MB line": head + "100.30. " + "trample " * (10 * 2**20 // 8) + "\n",
              "200,000 lines": head + "".join(f"{100 + n % 900}.{n // 900 + 1}. Rule {n}.\n" for n in range(200_000))}
    for label, text in shapes.items():
        doc = tmp / "huge.txt"
        doc.write_text(text, encoding="utf-8")
        start = time.perf_counter()
        added = run(env, index, "add", str(doc))
        took = time.perf_counter() - start
        fam.check(added.returncode == 2 and one_line(added, "error:") and took < 60,
                  f"add of {label}: exit {added.returncode} in {took:.1f} s: {added.stderr.strip()[:200]}")
    from hostile import write_documents

    doc = write_documents(tmp, 1.0)[1]  # 7.5 MB of "trample" in one rule, lines as long as add takes
    writer = subprocess.Popen(rb(env, index, "add", str(doc)), env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    start, reads = time.perf_counter(), []
    time.sleep(3)
    while writer.poll() is None and len(reads) < 5:
        began = time.perf_counter()
        read = run(env, index, "lookup", "502.83a", "--json")
        reads.append((read.returncode, read.stdout == baseline, round(time.perf_counter() - began, 2)))
    writer.wait()
    took = time.perf_counter() - start
    fam.check(writer.returncode == 0 and took < 120, f"add of 7.5 MB of words in one rule: exit {writer.returncode}, "
              f"{took:.1f} s")
    fam.check(all(code == 0 and same for code, same, _ in reads),
              f"reads during that add (exit, answer as before, seconds): {reads}")
    term = run(env, index, "define", "x" * 50_000)
    fam.check(term.returncode == 2 and one_line(term, "error:"), f"define of a 50,000-character term: exit "
              f"{term.returncode}")


def verified(tmp: Path, fam: Family) -> None:
    """Bytes verified before they are trusted (A, B, C, K) and bounded output (I, N)."""
    import sqlite3
    import zlib

    from test_digests import _forge_toc

    env, index, baseline = setup(tmp)
    search = run(env, index, "search", "exalted", "--json").stdout
    marker = tmp / "pwned"
    generation = index / (index / "CURRENT").read_text().strip()
    _forge_toc(next((generation / "whoosh").glob("*.toc")), marker)
    read = run(env, index, "search", "exalted", "--json")
    fam.check(not marker.exists() and _warned(read) and read.stdout == search,
              f"a table of contents forged to its size, time and CRC-32: ran {marker.exists()}, exit {read.returncode}")
    generation = index / (index / "CURRENT").read_text().strip()
    (generation / "cards").mkdir(exist_ok=True)
    shutil.copy(next((generation / "whoosh").glob("*.toc")), generation / "cards" / "_MAIN_2.toc")
    read = run(env, index, "lookup", "502.83a", "--json")
    fam.check(_warned(read) and read.stdout == baseline, f"a stray cards/_MAIN_2.toc: exit {read.returncode}")
    generation = index / (index / "CURRENT").read_text().strip()
    db = generation / "records.db"
    info = db.stat()
    conn = sqlite3.connect(db)
    rid, data = conn.execute("SELECT id, data FROM records WHERE kind = 'passage' OR kind = 'section' LIMIT 1").fetchone()
    forged = data.replace("the", "THE") if isinstance(data, str) else data
    conn.execute("UPDATE records SET data = ?, mac = ? WHERE id = ?", (forged, zlib.crc32(str(forged).encode()), rid))
    conn.commit()
    conn.close()
    os.utime(db, ns=(info.st_atime_ns, info.st_mtime_ns))
    read = run(env, index, "lookup", "502.83a", "--json")
    fam.check(_warned(read) and read.stdout == baseline, f"a rewritten records.db row: exit {read.returncode}")
    entries = sorted((tmp / "cache").glob("segment-*"))
    if len(entries) >= 2:
        shutil.rmtree(entries[1])
        shutil.copytree(entries[0], entries[1])
        built = run(env, index, "index", "build")
        fam.check(built.returncode == 0 and "copied from another entry" in built.stderr,
                  f"a cache entry replayed under another key: exit {built.returncode}")
    out = tmp / "site"
    out.mkdir()
    (out / "precious.txt").write_text("x\n", encoding="utf-8")
    (out / ".rulebase-glossary").write_text(
        "# written by 'rulebase glossary build'; the SHA-256 and name of each file it wrote (deleted by the next "
        f"build only while it holds those bytes):\n{hashlib.sha256(b'x' + bytes([10])).hexdigest()}  precious.txt\n",
        encoding="utf-8")
    built = run(env, index, "glossary", "build", str(out))
    fam.check(built.returncode == 0 and (out / "precious.txt").is_file(),
              f"a marker naming the user's file with its true SHA-256: exit {built.returncode}")
    for args in (("--version",), ("-h",), ("lookup", "-h")):
        with open("/dev/full", "w") as full:
            done = subprocess.run([sys.executable, "-m", "rulebase", *args], env=env, stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=120)
        fam.check(done.returncode == 2 and one_line(done, "error: cannot write the answer"),
                  f"{' '.join(args)} > /dev/full: exit {done.returncode}: {done.stderr.strip()[:200]}")
    for command in ("lookup", "history", "show"):
        done = run(env, index, command, "x" * 100_000)
        fam.check(done.returncode == 1 and len(done.stderr) < 1_000, f"{command} of 100 kB: {len(done.stderr)} bytes")


TRUST_FAMILIES = [
    ("planted and damaged cache", "a planted pickle, a stray table of contents, flipped bytes, another user's key and "
     "altered text in the build cache; a stray table of contents and a rotten length column in a generation", cache),
    ("future and far dates", "`rulebase add` of releases dated 2100, 9999 and 1066, and of one dated 2031 "
     "(RULEBASE_TODAY=2026-12-01), then reads", dates),
    ("identical re-add", "`rulebase add` of the archive's own release file, a CRLF copy, an added one twice", readd),
    ("closed and full stdout", "lookup, search, export, define and sources with stdout closed and on /dev/full",
     streams),
    ("terminal widths", "lookup, search and define on a terminal of COLUMNS=0, 1 and 100000", widths),
    ("forged site marker", "`rulebase glossary build` into a folder whose marker names the user's file, and under a "
     "file", site),
    ("huge files", "`rulebase add` of 50 MB, one 10 MB line, 200,000 lines, 7.5 MB of words (with reads during "
     "it); a 50,000-character term", huge),
    ("verified before trusted", "a table of contents forged to its size, time and CRC-32; a stray cards/_MAIN_2.toc; "
     "a records.db row with its CRC recomputed; a cache entry replayed under another key; a site marker with the "
     "user's file's true SHA-256; --version and -h to /dev/full; 100 kB inputs echoed", verified),
]
