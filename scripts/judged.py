#!/usr/bin/env python3
"""Graded search evaluation: pooled relevance judgments (0/1/2) for questions the ranking was not
tuned on, scored as MRR@10, nDCG@10 and recall@5 per slice, for rulebase and two baselines.

    python scripts/judged.py pool NAME [--depth 10]   # write NAME.pool.tsv: unjudged pooled hits
    python scripts/judged.py score [NAME ...]         # metrics per slice and system
    python scripts/judged.py unjudged [NAME ...]      # rulebase top-10 hits nobody has graded

Files live in tests/eval/judged/:
  NAME.questions.tsv  qid, lang (en|hu), style (keyword|natural), edition ("-" for none), query
  NAME.qrels.tsv      qid, record id, grade (0 not relevant, 1 partly, 2 answers it), note

A hit's grade is its record's grade; a record nobody graded takes the grade of a graded record of
the same question whose text is the same word for word (the same rule in two documents), else 0.
MRR@10 and recall@5 count grade >= 1; nDCG@10 uses gains 2^grade - 1. One answer is worth one
place: a hit that repeats a rule already listed (another release's version of it, or the same
text from another document) gains nothing, and the ideal list holds each rule once, at its best
grade. Otherwise ten releases of one rule would be a perfect page.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from eval import Fts5Baseline, GrepBaseline, baselines, fold  # noqa: E402

from rulebase.library import Library  # noqa: E402
from rulebase.search.request import run_search  # noqa: E402

DIR = ROOT / "tests" / "eval" / "judged"
SYSTEMS = ("rulebase", "fts5", "grep")


def read_questions(name: str) -> list[dict]:
    rows = []
    for line in (DIR / f"{name}.questions.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        qid, lang, style, edition, query = line.split("\t")
        rows.append({"qid": qid, "lang": lang, "style": style,
                     "edition": None if edition == "-" else edition, "query": query})
    return rows


def read_qrels(name: str) -> dict[str, dict[str, int]]:
    grades: dict[str, dict[str, int]] = defaultdict(dict)
    path = DIR / f"{name}.qrels.tsv"
    if not path.is_file():
        return grades
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        qid, record_id, grade = line.split("\t")[:3]
        grades[qid][record_id] = int(grade)
    return grades


def names() -> list[str]:
    return sorted(p.name.removesuffix(".questions.tsv") for p in DIR.glob("*.questions.tsv"))


class Systems:
    def __init__(self, library: Library, built: tuple[list, GrepBaseline, Fts5Baseline] | None = None):
        """`built`: eval.baselines(library) made before (the rules documents, grep and FTS5 over
        them), else made here."""
        self.library = library
        self.records, self.grep, self.fts5 = built or baselines(library)  # the rules documents: no cards
        self.by_id = {r.id: r for r in self.records}
        self._text_keys: dict[str, str] = {}

    def ranked(self, system: str, question: dict, depth: int = 10) -> list[str]:
        query, edition = question["query"], question["edition"]
        if system == "rulebase":
            filters = {"edition": [edition] if edition else []}
            return [h.id for h in run_search(self.library, query, filters, depth).hits]
        return [r.id for r in getattr(self, system).search(query, edition, depth)]

    def record(self, record_id: str):
        return self.by_id.get(record_id) or self.library.store.get(record_id)

    def text_key(self, record_id: str) -> str:
        if record_id not in self._text_keys:
            record = self.record(record_id)
            self._text_keys[record_id] = fold(f"{record.title or ''} {record.text}") if record else record_id
        return self._text_keys[record_id]

    def rule_key(self, record_id: str) -> str:
        """What makes two hits one answer: the rule's lineage across releases, else its text."""
        record = self.record(record_id)
        return (record.lineage if record and record.lineage else None) or self.text_key(record_id)


def grade_of(systems: Systems, judged: dict[str, int], record_id: str) -> int | None:
    if record_id in judged:
        return judged[record_id]
    key = systems.text_key(record_id)
    same = [g for rid, g in judged.items() if systems.text_key(rid) == key]
    return max(same) if same else None


def metrics(grades: list[int], ideal: list[int]) -> tuple[float, float, float]:
    rr = next((1 / (i + 1) for i, g in enumerate(grades[:10]) if g >= 1), 0.0)
    dcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(grades[:10]))
    best = sorted(ideal, reverse=True)[:10]
    idcg = sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(best))
    return rr, (dcg / idcg if idcg else 0.0), float(any(g >= 1 for g in grades[:5]))


def pool(systems: Systems, name: str, depth: int) -> Path:
    questions, qrels = read_questions(name), read_qrels(name)
    out = DIR / f"{name}.pool.tsv"
    lines = ["# qid\trecord id\tgrade (fill in 0/1/2)\tsystems\tquery\ttitle: text"]
    for q in questions:
        found: dict[str, list[str]] = defaultdict(list)
        for system in SYSTEMS:
            for rid in systems.ranked(system, q, depth):
                found[rid].append(system)
        for rid, where in found.items():
            if grade_of(systems, qrels.get(q["qid"], {}), rid) is not None:
                continue
            record = systems.record(rid)
            text = " ".join(f"{record.title or ''}: {record.text}".split())
            lines.append(f"{q['qid']}\t{rid}\t\t{','.join(where)}\t{q['query']}\t{text}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def score(systems: Systems, sets: list[str], show_unjudged: bool = False) -> dict[tuple[str, str], tuple]:
    """(slice, system) -> (questions, MRR@10, nDCG@10, recall@5); slices: all, en, hu, en-keyword..."""
    table: dict[tuple[str, str], list[tuple[float, float, float]]] = defaultdict(list)
    holes = 0
    for name in sets:
        qrels = read_qrels(name)
        for q in read_questions(name):
            judged = qrels.get(q["qid"], {})
            best: dict[str, int] = {}
            for rid, g in judged.items():
                key = systems.rule_key(rid)
                best[key] = max(g, best.get(key, 0))
            ideal = list(best.values())
            for system in SYSTEMS:
                ranked = systems.ranked(system, q)
                grades, listed = [], set()
                for rid in ranked:
                    g = grade_of(systems, judged, rid)
                    if g is None:
                        if system == "rulebase":
                            holes += 1
                            if show_unjudged:
                                print(f"{q['qid']}\t{rid}\t{q['query']}")
                        g = 0
                    key = systems.rule_key(rid)
                    grades.append(0 if key in listed else g)
                    listed.add(key)
                m = metrics(grades, ideal)
                for slice_ in ("all", q["lang"], f"{q['lang']}-{q['style']}"):
                    table[(slice_, system)].append(m)
    out = {key: (len(rows), *(sum(col) / len(rows) for col in zip(*rows, strict=True)))
           for key, rows in table.items()}
    out[("all", "unjudged")] = (holes,)
    return out


def show(table: dict[tuple[str, str], tuple]) -> None:
    slices = sorted({s for s, system in table if system in SYSTEMS}, key=lambda s: (s != "all", s))
    print(f"{'slice':<14} {'n':>3}  {'system':<9} {'MRR@10':>7} {'nDCG@10':>8} {'recall@5':>9}")
    for slice_ in slices:
        for system in SYSTEMS:
            n, mrr, ndcg, rec = table[(slice_, system)]
            print(f"{slice_:<14} {n:>3}  {system:<9} {mrr:>7.3f} {ndcg:>8.3f} {rec:>9.3f}")
    print(f"unjudged rulebase hits in the top 10 (counted as 0): {table[('all', 'unjudged')][0]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("pool", "score", "unjudged"))
    parser.add_argument("names", nargs="*")
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--index", type=Path)
    args = parser.parse_args(argv)
    library = Library(args.index)
    library.ensure()
    systems = Systems(library)
    sets = args.names or names()
    if args.action == "pool":
        for name in sets:
            print(pool(systems, name, args.depth))
    elif args.action == "unjudged":
        score(systems, sets, show_unjudged=True)
    else:
        show(score(systems, sets))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
