#!/usr/bin/env python3
"""Query speed on hostile corpora (issue 12, item 2), measured here, never in timed tests.

    python scripts/hostile.py [--scale 1.0] [--timeout 60] [--runs 3] [--keep DIR]
    python scripts/hostile.py --parse [--scale 1.0]   # the parsers on 64 MB hostile documents
    python scripts/hostile.py --families [--scale 0.25] [--only NAME]   # issue 21's failure table

Builds, in a temporary directory, the bundled corpus plus hostile user documents added as
`rulebase add` adds them (RULEBASE_USER_CORPUS points into the temporary directory): a rule whose
text is "first strike" x20,000, and a rule of 7.5 MB of "trample" (in lines of 256 KiB, the longest
`add` takes: ingest/bounds.py). Then times hostile queries
(phrases, repeated words, 20 typos, long queries) and prints each one's time against the 1 s
target. Each query runs in its own process (index already open; postings cache and spelling
vocabulary emptied before each run, so every term is read afresh) and is abandoned after
--timeout seconds: the quadratic code this guards against takes minutes on some of them.
`--scale 0.1` shrinks the documents for a quick look; `--corpus DIR` builds beside another
bundled corpus (a stable copy while corpus/ is being changed).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET = 1.0
TYPOS = ("trampel creture dmaage prevnetion manna burnn summonning sicknes blokcing attakcer regenaration "
         "bandnig instnat sorcrey enchantmnet artifcat grveyard libary upkep cleanpu")
MORE_TYPOS = ("protectoin flyng deathtuoch lifelnk legnedary interupt phsae mulligna controllr abilitiees "
              "sacrifcie pemranent")
HEADER = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of November 14, 2025.\n\n"
          "1. Game Concepts\n\n100. General\n\n" + "".join(
              f"100.{n}. Rule {n} of a hostile document about combat damage.\n\n" for n in range(1, 22)))


def queries() -> list[tuple[str, str]]:
    """(label, query text): each aimed at a super-linear path."""
    return [
        ("words, hostile pair", "first strike"),
        ("quoted phrase", '"first strike"'),
        ("repeated word pair", "trample trample"),
        ("quoted repeated phrase", '"trample trample trample trample trample trample"'),
        ("2000-char quoted phrase", '"' + ("trample " * 250)[:1997] + '"'),
        ("2000 chars of one word", ("trample " * 250)[:2000]),
        ("long alternating words", "first strike " * 150),
        ("one typo", "trampel"),
        ("20 typos", TYPOS),
        ("one typo x20", "trampel " * 20),
        ("20 typos + hostile word", TYPOS + " trample"),
        ("32 typos", TYPOS + " " + MORE_TYPOS),
        ("typos of frequent words", "thw taht wiht whne frmo thier yuo cna thne hte"),
        ("one 2000-char word", "x" * 2000),
        ("32-word question", "what happens when a creature with first strike and trample is blocked by two "
                             "creatures and one of them has protection from red and the other can regenerate "
                             "before damage"),
        ("ordinary query", "damage prevention"),
    ]


def write_documents(folder: Path, scale: float) -> list[Path]:
    """The hostile user documents, as Comprehensive Rules files (`rulebase add` recognises them)."""
    # lazy: the script puts the checkout on sys.path first (see the top)
    from rulebase.ingest.bounds import MAX_LINE

    first = folder / "first-strike.txt"
    first.write_text(HEADER + "100.30. " + "first strike " * int(20_000 * scale) + "\n", encoding="utf-8")
    trample = folder / "trample.txt"
    line = ("trample " * (MAX_LINE // 8))[:MAX_LINE - 16].rstrip()  # as long as `add` takes a line
    lines = [line] * max(1, int(30 * scale))  # 7.5 MB at scale 1, under add's 8 MB
    trample.write_text(HEADER.replace("hostile", "trampling") + "100.30. " + "\n".join(lines) + "\n", encoding="utf-8")
    return [first, trample]


def build(tmp: Path, scale: float, corpus: Path | None) -> tuple[Path, float]:
    from rulebase.library import Library
    from rulebase.usercorpus import add_document

    index = tmp / "index"
    library = Library(index, corpus)
    for n, path in enumerate(write_documents(tmp, scale)):
        add_document(path, library.sources, doc_id=f"hostile{n}")
        library.reload()
    start = time.perf_counter()
    library.build()
    return index, time.perf_counter() - start


CHILD = """
import json, sys, time
from pathlib import Path
from rulebase.library import Library
from rulebase.search.request import run_search
from rulebase.index.generation import current_generation
library = Library(sys.argv[1], sys.argv[4] if sys.argv[4] else None)
library._generation = current_generation(Path(sys.argv[1]))  # as built: code edited since must not rebuild it
searcher = library.searcher
run_search(library, "damage", {}, 10)  # open the store and both searchers before timing
searcher._searcher()
times, results = [], None
for _ in range(int(sys.argv[3])):
    searcher.scorer.clear()  # every term read afresh, the spelling vocabulary too
    searcher.__dict__.pop("_vocabulary", None)
    start = time.perf_counter()
    results = run_search(library, sys.argv[2], {}, 10)
    times.append(time.perf_counter() - start)
print(json.dumps({"times": times, "total": results.total, "top": results.hits[0].id if results.hits else None,
                  "suggestion": results.suggestion}))
"""


def time_query(index: Path, text: str, runs: int, timeout: float, corpus: Path | None) -> dict | None:
    """The query's in-process times (first sight of every term), or None when it ran out of time."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(index), text, str(runs), str(corpus or "")], env=env,
                              capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(done.stdout)


PARSE_CHILD = r"""
import sys, time
from pathlib import Path
from rulebase.ingest.detect import detect
from rulebase.ingest import parser_for
from rulebase.core.sources import Source
text = Path(sys.argv[1]).read_text(encoding="utf-8")
start = time.perf_counter()
found = detect(text, sys.argv[1])
source = Source(id="h", title="h", edition="cr2025", date="2025-11-14", lang=found.lang, file="h.txt",
                format=found.format, provenance="t", credit="t", path=Path(sys.argv[1]), part=found.part)
parsed = parser_for(found.format, sys.argv[1])(text, source)
print(f"{time.perf_counter() - start:.2f} {len(parsed.records)}")
"""


def parse_documents(folder: Path, scale: float) -> list[tuple[str, Path]]:
    """Hostile documents for the parsers (issue 21.3), 64 MB at scale 1: one repeated rule number,
    one endless wrapped paragraph, one endless line of Hungarian term pairings."""
    size = int(64 * 2**20 * scale)
    head = HEADER + "7. Additional Rules\n\n702. Keyword Abilities\n\n702.19. Trample\n\n"
    shapes = {"702.19a x N": (head, "702.19a Trample is a static ability.\n"),
              "one wrapped paragraph": (head + "702.19a Trample\n", "and more words of the same rule\n"),
              "hu terms, one line": ("Bevezetés\n\nA játékos és a lapot kör fázis varázslat sebzés\n\n",
                                     "kör (turn) és lap (card) ")}
    out = []
    for n, (label, (top, unit)) in enumerate(shapes.items()):
        path = folder / f"parse{n}.txt"
        path.write_text(top + unit * (size // len(unit)), encoding="utf-8")
        out.append((label, path))
    # a 320 KB HTML MTR of 9,500 short sections (quadratic in sections.py: 73 s an add)
    sections = max(100, int(9_500 * scale))
    mtr = folder / "parse-mtr.html"
    mtr.write_text("<html><body><h1>Magic: The Gathering Tournament Rules</h1>\n<p>Effective February 27, 2026</p>\n"
                   + "\n".join(f"<h3>{n // 99 + 1}.{n % 99 + 1} S{n}</h3><p>x {n}</p>" for n in range(sections))
                   + "\n</body></html>\n", encoding="utf-8")
    out.append((f"HTML MTR, {sections:,} sections", mtr))
    return out


def time_parses(tmp: Path, scale: float, timeout: float) -> int:
    """Detect and parse each hostile document in its own process; count those over `timeout`."""
    over = 0
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    print(f"{'document (parse)':<26} {'s':>8} {'limit':>7}  records")
    for label, path in parse_documents(tmp, scale):
        try:
            done = subprocess.run([sys.executable, "-c", PARSE_CHILD, str(path)], env=env, capture_output=True,
                                  text=True, timeout=timeout, check=True)
            seconds, records = done.stdout.split()
            print(f"{label:<26} {float(seconds):>8.2f} {timeout:>7.0f}  {records}")
        except subprocess.TimeoutExpired:
            over += 1
            print(f"{label:<26} {'>' + format(timeout, '.0f'):>8} {timeout:>7.0f}  TIMED OUT")
    return over


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="document size relative to the issue's")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a query is abandoned")
    parser.add_argument("--runs", type=int, default=3, help="runs per query (the best is reported)")
    parser.add_argument("--keep", type=Path, help="build here and keep it (reused when present)")
    parser.add_argument("--only", default="", help="run only the queries whose label contains this")
    parser.add_argument("--corpus", type=Path, help="the bundled corpus folder to build beside (default corpus/)")
    parser.add_argument("--parse", action="store_true", help="time the parsers on 64 MB hostile documents instead")
    parser.add_argument("--families", action="store_true",
                        help="run every reliability family (scripts/families.py) and print attempts and failures")
    args = parser.parse_args(argv)
    if args.families:
        sys.path.insert(0, str(ROOT / "scripts"))
        from families import run_families

        return run_families(args.scale, args.only)
    if args.parse:
        with tempfile.TemporaryDirectory() as scratch:
            return 1 if time_parses(Path(scratch), args.scale, args.timeout) else 0
    from rulebase.index.generation import current_generation

    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or Path(scratch)
        tmp.mkdir(parents=True, exist_ok=True)
        os.environ["RULEBASE_USER_CORPUS"] = str(tmp / "corpus")
        os.environ.pop("RULEBASE_INDEX", None)
        if args.keep and current_generation(tmp / "index") is not None:
            index = tmp / "index"
            print(f"reusing the index in {index}")
        else:
            index, seconds = build(tmp, args.scale, args.corpus)
            print(f"built the bundled corpus + hostile documents (scale {args.scale}) in {seconds:.1f} s")
        print(f"{'query':<26} {'best s':>8} {'target':>7}  {'total':>6}  top hit / suggestion")
        chosen = [(label, text) for label, text in queries() if args.only in label]
        over = 0
        for label, text in chosen:
            got = time_query(index, text, args.runs, args.timeout, args.corpus)
            if got is None:
                over += 1
                print(f"{label:<26} {'>' + format(args.timeout, '.0f'):>8} {TARGET:>7.1f}  {'-':>6}  TIMED OUT")
                continue
            best = min(got["times"])
            over += best > TARGET
            note = got["top"] or "-"
            if got["suggestion"]:
                note += f" / did you mean: {got['suggestion'][:40]}"
            flag = "" if best <= TARGET else "  OVER"
            print(f"{label:<26} {best:>8.3f} {TARGET:>7.1f}  {got['total']:>6}  {note}{flag}")
        print(f"{over} of {len(chosen)} queries over the {TARGET:.0f} s target")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
