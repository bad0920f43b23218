"""BM25F over the Whoosh index's own postings, summed per document in flat loops.

Why not `whoosh.searching.Searcher.search`: its matcher tree (unions of unions, intersections, span
matchers) makes several pure-Python calls per posting per clause, which put a three-word question
at 30-100 ms. Here each term's postings are read once through the public Matcher API, scored with
Whoosh's BM25 formula and statistics (its idf, its average field length, its quantised per-document
field lengths), and kept for the life of the searcher: a term's postings never change under an
open, read-only index.

The sums are those Whoosh's `Or`/`Term`/`Phrase` queries compute (a phrase scores as the sum of
its words' scores in the documents where they occur in order within `slop` positions);
tests/test_scorer.py holds the two equal on the real index. This module imports nothing from
Whoosh: index.py owns that import (and the shim that keeps it offline).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from math import log


@dataclass(frozen=True, slots=True)
class Clause:
    """One scored part of a query: a term (one token) or a phrase (several, `slop` apart)."""

    field: str
    tokens: tuple[str, ...]
    boost: float = 1.0
    slop: int = 1


@dataclass(slots=True)
class Postings:
    """A term's documents, its BM25F score in each, and the raw positions (decoded on demand)."""

    ids: list[int]
    scores: list[float]
    values: list[bytes]
    positions: dict[int, list[int]] = field(default_factory=dict, init=False, repr=False)  # decoded, by index
    _where: dict[int, int] | None = field(default=None, init=False, repr=False)

    def where(self) -> dict[int, int]:
        """Index into `ids` of each document (built on the first phrase that needs it)."""
        if self._where is None:
            self._where = {docnum: i for i, docnum in enumerate(self.ids)}
        return self._where


class Scorer:
    """Scores clauses against one open Whoosh index reader; cheap to call again and again."""

    def __init__(self, reader, B: float = 0.75, K1: float = 1.2, cache_terms: int = 4096):
        self.reader = reader
        self.doc_count = reader.doc_count_all()
        self.B, self.K1 = B, K1
        self.cache_terms = cache_terms
        self._terms: OrderedDict[tuple[str, str], Postings | None] = OrderedDict()
        self._lengths: dict[str, dict[int, int]] = {}
        # Fields that record positions: phrases need them, the others skip reading them.
        self._positional = {name: ftype.format.supports("positions") for name, ftype in reader.schema.items()}

    def clear(self) -> None:
        """Forget the kept postings (scripts/bench.py times a first sight of every term)."""
        self._terms.clear()

    def postings(self, field: str, token: str) -> Postings | None:
        """The term's postings, or None when the index lacks it (least recently used dropped)."""
        key = (field, token)
        if key in self._terms:
            self._terms.move_to_end(key)
            return self._terms[key]
        found = self._read(field, token) if key in self.reader else None
        self._terms[key] = found
        if len(self._terms) > self.cache_terms:
            self._terms.popitem(last=False)
        return found

    def _read(self, field: str, token: str) -> Postings:
        # Whoosh's WeightingModel.idf and Searcher.avg_field_length, over the same counts; the
        # loop is whoosh.scoring.bm25 inlined, the same operations in the same order.
        idf = log(self.doc_count / (self.reader.doc_frequency(field, token) + 1)) + 1
        avgfl = self.reader.field_length(field) / (self.doc_count or 1) or 1
        K1, K1_1, B, B_1 = self.K1, self.K1 + 1, self.B, 1 - self.B
        lengths = self._lengths.setdefault(field, {})
        field_length = self.reader.doc_field_length
        positional = self._positional[field]
        ids, scores, values = [], [], []
        matcher = self.reader.postings(field, token)
        active, docid, weight, value, step = matcher.is_active, matcher.id, matcher.weight, matcher.value, matcher.next
        while active():
            docnum = docid()
            length = lengths.get(docnum)
            if length is None:
                length = lengths[docnum] = field_length(docnum, field, 1)
            tf = weight()
            ids.append(docnum)
            scores.append(idf * ((tf * K1_1) / (tf + K1 * (B_1 + B * length / avgfl))))
            if positional:
                values.append(value())
            step()
        return Postings(ids, scores, values)

    def docs(self, field: str, values: list[str]) -> set[int]:
        """Documents whose ID-type `field` holds any of `values` (filters)."""
        found: set[int] = set()
        for value in values:
            if (field, value) in self.reader:
                found.update(self.reader.postings(field, value).all_ids())
        return found

    def score(self, clauses: list[Clause], allowed: set[int] | None = None) -> dict[int, float]:
        """Each matching document's summed score over the clauses."""
        total: dict[int, float] = {}
        for clause in clauses:
            if len(clause.tokens) == 1:
                self._add_term(total, clause, allowed)
            else:
                self._add_phrase(total, clause, allowed)
        return total

    def _add_term(self, total: dict[int, float], clause: Clause, allowed: set[int] | None) -> None:
        postings = self.postings(clause.field, clause.tokens[0])
        if postings is None:
            return
        boost = clause.boost
        for docnum, score in zip(postings.ids, postings.scores, strict=True):
            if allowed is None or docnum in allowed:
                total[docnum] = total.get(docnum, 0.0) + boost * score

    def _add_phrase(self, total: dict[int, float], clause: Clause, allowed: set[int] | None) -> None:
        if not self._positional[clause.field]:
            return  # (Whoosh refuses a phrase on a field without positions; none is built here)
        parts = [self.postings(clause.field, token) for token in clause.tokens]
        if any(p is None for p in parts):
            return
        by_doc = [p.where() for p in parts]
        common = set(by_doc[0]).intersection(*by_doc[1:])
        if allowed is not None:
            common &= allowed
        decode = self.reader.schema[clause.field].format.decoder("positions")
        for docnum in common:
            at = [index[docnum] for index in by_doc]
            positions = [_positions(p, i, decode) for p, i in zip(parts, at, strict=True)]
            if near(positions, clause.slop):
                score = sum(p.scores[i] for p, i in zip(parts, at, strict=True))
                total[docnum] = total.get(docnum, 0.0) + clause.boost * score


def _positions(postings: Postings, i: int, decode) -> list[int]:
    if i not in postings.positions:
        postings.positions[i] = decode(postings.values[i])
    return postings.positions[i]


def near(positions: list[list[int]], slop: int) -> bool:
    """Whether the words occur in order, each 1..slop positions after the span before it
    (Whoosh's SpanNear2 with ordered=True and mindist=1)."""
    spans = sorted({(p, p) for p in positions[0]})
    for following in positions[1:]:
        grown = set()
        for start, end in spans:
            for p in following:
                if p < start:
                    continue
                distance = p - end if p > end else 0
                if 1 <= distance <= slop:
                    grown.add((start, p))
        if not grown:
            return False
        spans = sorted(grown)
    return True
