#!/usr/bin/env python3
"""Held-out evaluation: the question sets other people wrote, each split once into a tuning part and
a test part, and the corpus's own breadth.

    python scripts/heldout.py [--index DIR] [--part tune|test|both] [--set NAME ...] [--verbose]

Sets (tests/eval/, byte-for-byte copies of ../shared/eval/):
- `realq`: real-questions-dev.tsv and real-questions-dev-2.tsv (89 real questions, scored as
  scripts/realq.py scores them: the cited rule's lineage on the answer's date, in the top 3),
  asked in the asker's words and as keywords, with no date (the way a user asks).
- `tournament`: tournament-questions-dev.tsv (60 questions a judge wrote from the newest releases):
  MRR@10 and recall@5 of the gold sections in force now ("IPG 2.3", "MTR Appendix C",
  "JAR: <heading>").
- `examples`: every "Example:" paragraph of the Comprehensive Rules in force now, asked as a
  scenario whose answer is its rule (the rule's examples, in any release or document, do not
  count as hits: they are the question's own text, reworded or copied).
- `stale`: of the top-3 hits of every question above that asks about the present (no date, no
  edition, no words asking for older rules: search/question.py), the share not in force now.

The split: a row is in the test part when the SHA-256 of "20261206:<set>:<id>" is odd, fixed
once and independent of the rows' order or number. Tune on `--part tune` only; `--verbose`
prints rows of the tuning part alone: the test part's rows are never shown one by one.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from eval import Fts5Baseline  # noqa: E402
from realq import Answers, read_questions  # noqa: E402

from rulebase.cli.common import check_filters  # noqa: E402
from rulebase.core.eras import today  # noqa: E402
from rulebase.core.records import fold_typography  # noqa: E402
from rulebase.library import Library  # noqa: E402
from rulebase.search.question import read_era  # noqa: E402
from rulebase.search.request import run_search  # noqa: E402

EVAL = ROOT / "tests" / "eval"
SEED = "20261206"
SETS = ("realq", "tournament", "examples")
DEPTH = 10
_EXAMPLE = re.compile(r"^\s*Example:\s*")


def part_of(name: str, row_id: str) -> str:
    """'tune' or 'test', fixed by the row's set and id alone."""
    digest = hashlib.sha256(f"{SEED}:{name}:{row_id}".encode()).digest()
    return "test" if digest[-1] & 1 else "tune"


@dataclass
class Tally:
    """Per part: each question's rank of its first answer (None beyond DEPTH), recall@5, and the
    top-3 hits of the present-tense questions with how many were not in force."""

    ranks: list
    recalls: list
    top3: int = 0
    stale: int = 0

    def line(self, label: str, recall: bool = False) -> str:
        n = len(self.ranks)
        if not n:
            return f"{label:<28} n=0"
        hit = {k: sum(1 for r in self.ranks if r is not None and r <= k) / n for k in (1, 3, 5)}
        mrr = sum(1 / r for r in self.ranks if r is not None) / n
        extra = f" recall@5 {sum(self.recalls) / n:.3f}" if recall else ""
        return (f"{label:<28} n={n:<4} hit@1 {hit[1]:.3f} hit@3 {hit[3]:.3f} hit@5 {hit[5]:.3f} "
                f"MRR@10 {mrr:.3f}{extra}")


class Run:
    def __init__(self, library: Library, parts: tuple[str, ...], verbose: bool):
        self.library = library
        self.store = library.store
        self.answers = Answers(library.store)
        self.filters = check_filters(library, {"edition": [], "kind": [], "lang": [], "source": []})
        self.parts = parts
        self.verbose = verbose
        self.stale = {p: Tally([], []) for p in ("tune", "test")}
        self._fts5: Fts5Baseline | None = None

    def fts5(self, query: str) -> list:
        """SQLite FTS5 (bm25) over every rules record, the baseline beside rulebase."""
        if self._fts5 is None:
            self._fts5 = Fts5Baseline(self.store.all(without=("card", "card-ruling")))
        return self._fts5.search(query, None, DEPTH)

    def search(self, query: str, part: str):
        results = run_search(self.library, query, self.filters, DEPTH, None)
        era = read_era(query, today() // 10000)
        if not era.asks_for_history:
            top = results.hits[:3]
            self.stale[part].top3 += len(top)
            self.stale[part].stale += sum(1 for h in top if h.id not in results.now)
        return results, self.store.get_many([h.id for h in results.hits])

    def show(self, part: str, line: str) -> None:
        if self.verbose and part == "tune":
            print("  " + line)

    def realq(self) -> list[str]:
        questions = [q for name in ("real-questions-dev.tsv", "real-questions-dev-2.tsv")
                     for q in read_questions(EVAL / name)]
        out = []
        for mode in ("question", "keywords"):
            tallies = {p: Tally([], []) for p in ("tune", "test")}
            fts5 = {p: Tally([], []) for p in ("tune", "test")}
            left_out = 0
            for q in questions:
                part = part_of("realq", q.qid)
                if part not in self.parts:
                    continue
                wanted = self.answers.wanted(q)
                if not wanted:
                    left_out += 1
                    continue
                query = q.keywords if mode == "keywords" else q.question
                if not query.strip():
                    continue
                results, hits = self.search(query, part)
                rank = self.answers.rank(hits, wanted)
                tallies[part].ranks.append(rank)
                fts5[part].ranks.append(self.answers.rank(self.fts5(query), wanted))
                self.show(part, f"{q.qid} {mode}: {rank or '-'} [{' '.join(h.id for h in results.hits[:3])}]")
            out += [tallies[p].line(f"realq {mode} {p}") for p in self.parts]
            out += [fts5[p].line(f"  fts5 {mode} {p}") for p in self.parts]
            out.append(f"  (left out, the archive never held the cited rule: {left_out})")
        return out

    def _gold(self, item: str) -> set[str]:
        """The lineages (or ids) of the sections in force now that a gold item names."""
        item = item.strip()
        day = today()
        if item.startswith("JAR:"):
            heading = fold_typography(item[4:]).strip().casefold()
            # (the JAR's introduction is its document record's own text, before the first heading)
            kinds = ("document",) if heading == "introduction" else ("section",)
            return {r.lineage or r.id for r in self.store.in_force(day, "jar", kinds)
                    if heading == "introduction" or fold_typography(r.title or "").strip().casefold() == heading}
        source, _, number = item.partition(" ")
        wanted = number.strip().casefold().replace(" ", "-")
        return {r.lineage or r.id for r in self.store.in_force(day, source.lower(), ("section",))
                if (r.number or "").casefold().replace(" ", "-") == wanted}

    def tournament(self) -> list[str]:
        lines = (EVAL / "tournament-questions-dev.tsv").read_text(encoding="utf-8").splitlines()
        header = lines[0].split("\t")
        tallies = {p: Tally([], []) for p in ("tune", "test")}
        fts5 = {p: Tally([], []) for p in ("tune", "test")}
        kinds: dict[tuple[str, str], Tally] = {}  # (part, the question's style or its gold document)
        unresolved = 0
        for line in lines[1:]:
            if not line.strip():
                continue
            row = dict(zip(header, line.split("\t"), strict=True))
            part = part_of("tournament", row["id"])
            if part not in self.parts:
                continue
            golds = [self._gold(item) for item in row["gold"].split(";")]
            unresolved += sum(1 for g in golds if not g)
            results, hits = self.search(row["question"], part)
            for tally, ranked in ((tallies[part], hits), (fts5[part], self.fts5(row["question"]))):
                keys = [r.lineage or r.id for r in ranked]
                rank = next((n + 1 for n, k in enumerate(keys) if any(k in g for g in golds)), None)
                tally.ranks.append(rank)
                tally.recalls.append(sum(1 for g in golds if g and any(k in g for k in keys[:5])) / len(golds))
            rank = tallies[part].ranks[-1]
            for kind in {row["style"], *(item.split()[0].rstrip(":") for item in row["gold"].split(";"))}:
                kept = kinds.setdefault((part, kind), Tally([], []))
                kept.ranks.append(rank)
                kept.recalls.append(tallies[part].recalls[-1])
            self.show(part, f"{row['id']} {row['style']}: {rank or '-'} [{' '.join(h.id for h in results.hits[:3])}]")
        out = [tallies[p].line(f"tournament {p}", recall=True) for p in self.parts]
        out += [fts5[p].line(f"  fts5 tournament {p}", recall=True) for p in self.parts]
        # (by style and by gold document: a part's figures in aggregate, no row shown)
        out += [kinds[key].line(f"  {key[1]} {key[0]}", recall=True) for key in sorted(kinds, key=lambda k: (k[1], k[0]))]
        out.append(f"  (gold items naming no section in force: {unresolved})")
        return out

    def examples(self) -> list[str]:
        tallies = {p: Tally([], []) for p in ("tune", "test")}
        for example in self.store.of_kind("example", when=today()):
            if example.source != "cr" or not example.parent:
                continue
            part = part_of("examples", example.lineage or example.id)
            if part not in self.parts:
                continue
            parent = self.store.get(example.parent)
            if parent is None or not parent.lineage:
                continue
            query = _EXAMPLE.sub("", example.text)
            own = fold_typography(example.text)
            results, hits = self.search(query, part)
            # (the example's own versions in any release or document, and any copy of its text, are
            # the question, not its answer: an example of the rule counts through the rule only)
            hits = [h for h in hits if fold_typography(h.text or "") != own
                    and not (h.kind == "example" and parent.lineage in self.answers.keys(h))]
            rank = self.answers.rank(hits, {parent.lineage})
            tallies[part].ranks.append(rank)
            self.show(part, f"{example.id}: {rank or '-'} [{' '.join(h.id for h in hits[:3])}]")
        return [tallies[p].line(f"examples {p}") for p in self.parts]

    def stale_lines(self) -> list[str]:
        out = []
        for p in self.parts:
            t = self.stale[p]
            share = t.stale / t.top3 if t.top3 else 0.0
            out.append(f"{'stale top-3 (present tense) ' + p:<28} {t.stale} of {t.top3} = {share:.1%}")
        return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path)
    parser.add_argument("--part", choices=("tune", "test", "both"), default="tune")
    parser.add_argument("--set", choices=SETS, action="append", dest="sets")
    parser.add_argument("--verbose", action="store_true", help="rows of the tuning part, one by one")
    args = parser.parse_args(argv)
    parts = ("tune", "test") if args.part == "both" else (args.part,)
    library = Library(args.index)
    library.ensure()
    run = Run(library, parts, args.verbose)
    started = time.perf_counter()
    for name in args.sets or SETS:
        print("\n".join(getattr(run, name)()), flush=True)
    print("\n".join(run.stale_lines()))
    print(f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
