#!/usr/bin/env python3
"""Search quality: MRR@10 and recall@5 of rulebase search against judged queries, beside two
baselines on the same records (grep-style term counting, and SQLite FTS5 bm25).

    python scripts/eval.py [QUERIES.tsv ...] [--index DIR] [--verbose]

A QUERIES file has three tab-separated columns: query, filter ("-" for none; an edition label, or
"source:ID" for one document, e.g. "source:ipg"), and the acceptable answers separated by " || ". A hit is relevant when its title + text, lower-cased with
punctuation and markup folded to single spaces, contains one of the answers folded the same way.
"""

from __future__ import annotations

import argparse
import heapq
import re
import sqlite3
import sys
import unicodedata
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebase.core.records import Record  # noqa: E402
from rulebase.library import Library  # noqa: E402
from rulebase.search.request import run_search  # noqa: E402

DEFAULT_SETS = [ROOT / "tests" / "eval" / "dev-queries.tsv", ROOT / "tests" / "eval" / "queries.tsv"]


def fold(text: str) -> str:
    text = unicodedata.normalize("NFC", text).lower()
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


def read_queries(path: Path) -> list[tuple[str, str | None, list[str]]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        query, edition, answers = line.split("\t")
        rows.append((query, None if edition == "-" else edition, [fold(a) for a in answers.split(" || ")]))
    return rows


def relevant(record: Record, answers: list[str]) -> bool:
    hay = fold(f"{record.title or ''} {record.text}")
    return any(a in hay for a in answers)


def metrics(ranked: list[list[bool]]) -> tuple[float, float]:
    mrr = sum(next((1 / (i + 1) for i, ok in enumerate(r[:10]) if ok), 0.0) for r in ranked) / len(ranked)
    recall = sum(1 for r in ranked if any(r[:5])) / len(ranked)
    return mrr, recall


class GrepBaseline:
    """Rank by how often the query's words occur: what a user with grep gets. A record scores
    100 for each query word it holds and 1 for each time it holds one; ties go by document order.

    The words' occurrences are read once into a table (0.9 s for the real corpus's 60,477 records),
    so a query counts only the records that hold one of its words: the real questions' 66 queries
    took 0.3-0.5 s each when every record's words were read, and take 50 ms each; the ranking is
    the same, hit for hit."""

    def __init__(self, records: list[Record], folded: list[list[str]] | None = None):
        self.records = records
        self.folded = folded if folded is not None else [fold(f"{r.title or ''} {r.text}").split() for r in records]
        self._table: tuple[dict[str, list[int]], dict[str, list[int]]] | None = None
        self._kept: set[int] | None = None  # (a view of another baseline: the records it keeps)

    def among(self, keep) -> GrepBaseline:
        """The same baseline over the records `keep(record)` passes: a view sharing this one's
        table (folding every record's text is most of building one: 0.7 s for the real corpus)."""
        view = GrepBaseline(self.records, self.folded)
        view._table = self._words()
        view._kept = {n for n, r in enumerate(self.records) if (self._kept is None or n in self._kept) and keep(r)}
        return view

    def _words(self) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """Each word's records, and each record again for each further time it holds the word:
        a query's tallies are then counted in C (Counter.update of a list)."""
        if self._table is None:
            held: dict[str, list[int]] = {}
            again: dict[str, list[int]] = {}
            for n, tokens in enumerate(self.folded):
                for word, count in Counter(tokens).items():
                    held.setdefault(word, []).append(n)
                    if count > 1:
                        again.setdefault(word, []).extend([n] * (count - 1))
            self._table = (held, again)
        return self._table

    def search(self, query: str, edition: str | None, limit: int = 10) -> list[Record]:
        (held, again), kept = self._words(), self._kept
        words, more = Counter(), Counter()  # record -> query words it holds; their further occurrences
        for word in set(fold(query).split()):
            words.update(held.get(word, ()))
            more.update(again.get(word, ()))
        edition, source = scope(edition)
        scored = []
        for n, count in words.items():
            record = self.records[n]
            if (kept is not None and n not in kept) or (edition and record.edition != edition) or (
                    source and record.source != source):
                continue
            scored.append((-(count * 100 + count + more[n]), record.order, n))
        return [self.records[n] for _, _, n in heapq.nsmallest(limit, scored)]


class Fts5Baseline:
    """SQLite FTS5 with its bm25() ranking and the porter stemmer: the off-the-shelf choice."""

    def __init__(self, records: list[Record]):
        self.records = records
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute("CREATE VIRTUAL TABLE f USING fts5(title, text, edition UNINDEXED, source UNINDEXED, "
                          "tokenize='porter unicode61 remove_diacritics 2')")
        self.conn.executemany("INSERT INTO f(rowid, title, text, edition, source) VALUES (?,?,?,?,?)",
                              [(n, r.title or "", r.text, r.edition, r.source) for n, r in enumerate(records)])

    def search(self, query: str, edition: str | None, limit: int = 10) -> list[Record]:
        words = fold(query).split()
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        edition, source = scope(edition)
        sql = "SELECT rowid FROM f WHERE f MATCH ?" + (" AND edition = ?" if edition else "")
        sql += (" AND source = ?" if source else "") + " ORDER BY bm25(f) LIMIT ?"
        args = (match, *(x for x in (edition, source) if x), limit)
        return [self.records[row[0]] for row in self.conn.execute(sql, args)]


def scope(value: str | None) -> tuple[str | None, str | None]:
    """A query's filter column as (edition, source): 'cr2024' -> ('cr2024', None), 'source:ipg' ->
    (None, 'ipg')."""
    if value and value.startswith("source:"):
        return None, value.split(":", 1)[1]
    return value, None


def baselines(library: Library) -> tuple[list[Record], GrepBaseline, Fts5Baseline]:
    """The rules documents (every record but the cards) and grep and FTS5 over them: built once,
    they serve every evaluation of the same index (tests/test_index.py shares them)."""
    records = library.store.all(without=("card",))
    return records, GrepBaseline(records), Fts5Baseline(records)


def evaluate(library: Library, queries, verbose: bool = False,
             built: tuple[list[Record], GrepBaseline, Fts5Baseline] | None = None) -> dict[str, tuple[float, float]]:
    """rulebase, grep and FTS5 on `queries`: (MRR@10, recall@5) each; `built`: baselines(library)
    made before, else made here."""
    records, grep, fts5 = built or baselines(library)
    by_id = {r.id: r for r in records}

    def ours(query: str, value: str | None) -> list[Record]:
        edition, source = scope(value)
        filters = {"edition": [edition] if edition else [], "source": [source] if source else []}
        return [by_id[h.id] for h in run_search(library, query, filters, 10).hits]

    systems = {
        "rulebase": ours,
        "grep": grep.search,
        "fts5": fts5.search,
    }
    out = {}
    for name, search in systems.items():
        ranked = []
        for query, edition, answers in queries:
            hits = search(query, edition)
            flags = [relevant(r, answers) for r in hits]
            ranked.append(flags)
            if verbose and name == "rulebase" and not any(flags[:5]):
                print(f"  miss: {query!r} -> {[h.id for h in hits[:5]]}", file=sys.stderr)
        out[name] = metrics(ranked)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--index", type=Path)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    files = args.files or [p for p in DEFAULT_SETS if p.is_file()]
    library = Library(args.index)
    library.ensure()
    for path in files:
        queries = read_queries(path)
        print(f"{path.name}: {len(queries)} queries")
        for name, (mrr, recall) in evaluate(library, queries, args.verbose).items():
            print(f"  {name:<9} MRR@10 {mrr:.3f}  recall@5 {recall:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
