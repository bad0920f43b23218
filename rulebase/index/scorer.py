"""BM25F over the Whoosh index's own postings, summed per document in flat loops.

Why not `whoosh.searching.Searcher.search`: its matcher tree (unions of unions, intersections, span
matchers) makes several pure-Python calls per posting per clause, which put a three-word question
at 30-100 ms. Here each term's postings are read once through the public Matcher API, scored with
Whoosh's BM25 formula and statistics (its idf, its average field length, its quantised per-document
field lengths), and kept for the life of the searcher: a term's postings never change under an
open, read-only index.

The sums are those Whoosh's `Or`/`Term`/`Phrase` queries compute (a phrase scores as the sum of
its words' scores in the documents where they occur in order within `slop` positions);
tests/test_scorer.py holds the two equal on the real index. Postings and field lengths are read
a block (a column) at a time through the W3 codec's own decoders, falling back to the public
Matcher API for anything else. This module imports nothing from Whoosh at load time: index/schema.py owns
that import (and the shim that keeps it offline).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from functools import cache
from itertools import accumulate
from math import log

from rulebase.core.value import Frozen, Value


class Clause(Frozen):
    """One scored part of a query: a term (one token) or a phrase (several, `slop` apart)."""

    __slots__ = ("field", "tokens", "boost", "slop")

    def __init__(self, field: str, tokens: tuple[str, ...], boost: float = 1.0, slop: int = 1):
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "tokens", tokens)
        object.__setattr__(self, "boost", boost)
        object.__setattr__(self, "slop", slop)


class Postings(Value):
    """A term's documents, its BM25F score in each, and the raw positions (decoded on demand)."""

    __slots__ = ("ids", "scores", "values", "positions", "bit_sets", "_where")

    def __init__(self, ids: list[int], scores: list[float], values: list[bytes] | None):
        self.ids = ids
        self.scores = scores
        self.values = values  # raw positions, read when a phrase first needs them
        self.positions: dict[int, list[int]] = {}  # decoded, by index
        self.bit_sets: dict[int, int] = {}  # long lists, by index
        self._where: dict[int, int] | None = None

    def where(self) -> dict[int, int]:
        """Index into `ids` of each document (built on the first phrase that needs it)."""
        if self._where is None:
            self._where = {docnum: i for i, docnum in enumerate(self.ids)}
        return self._where


class Scorer:
    """Scores clauses against one open Whoosh index reader; cheap to call again and again."""

    def __init__(self, reader, B: float = 0.75, K1: float = 1.2, cache_terms: int = 4096, stored=None):
        self.reader = reader
        self.stored = stored  # postings.Stored: the common terms' postings, decoded at build time
        self._leaves = reader.leaf_readers()  # [(segment reader, first document number)]
        self.doc_count = reader.doc_count_all()
        self.B, self.K1 = B, K1
        self.cache_terms = cache_terms
        self._terms: OrderedDict[tuple[str, str], Postings | None] = OrderedDict()
        self._lengths: dict[tuple[int, str], list[int]] = {}
        self._averages: dict[str, float] = {}
        # Fields that record positions: phrases need them, the others skip reading them.
        self._positional = {name: ftype.format.supports("positions") for name, ftype in reader.schema.items()}

    def clear(self) -> None:
        """Forget the kept postings (scripts/bench.py times a first sight of every term)."""
        self._terms.clear()

    def postings(self, field: str, token: str, positions: bool = False) -> Postings | None:
        """The term's postings, or None when the index lacks it (least recently used dropped);
        with `positions`, their raw positions too."""
        key = (field, token)
        if key in self._terms:
            self._terms.move_to_end(key)
            found = self._terms[key]
        else:
            kept = self.stored.get(field, token, positions) if self.stored is not None else None
            if kept is not None:
                found = Postings(kept[0], kept[1], kept[2])
            else:
                found = self._read(field, token, positions)
            self._terms[key] = found
            if len(self._terms) > self.cache_terms:
                self._terms.popitem(last=False)
        if positions and found is not None and found.values is None:
            kept = self.stored.get(field, token, True) if self.stored is not None else None
            found.values = kept[2] if kept is not None and kept[2] is not None else self._read_values(field, token)
        return found

    def close(self) -> None:
        if self.stored is not None:
            self.stored.close()

    def _read_values(self, field: str, token: str) -> list[bytes]:
        values: list[bytes] = []
        for leaf, _ in self._leaves:
            matcher = _leaf_postings(leaf, field, token)
            if matcher is not None:
                for _, _, block_values in _blocks(matcher, True):
                    values.extend(block_values)
        return values

    def _read(self, field: str, token: str, positions: bool = False) -> Postings | None:
        """None when no segment holds the term. Segment by segment: a multi-segment reader wraps
        every posting in an offsetting matcher, which doubled the cost of this loop, and asks each
        segment's table of terms four times a term (holds it? how many documents? holds it? its
        postings), here once (the documents counted are the postings read)."""
        positions = positions and self._positional[field]
        blocks, values = [], []
        for n, (leaf, offset) in enumerate(self._leaves):
            matcher = _leaf_postings(leaf, field, token)
            if matcher is not None:
                for block_ids, weights, block_values in _blocks(matcher, positions):
                    values.extend(block_values)
                    blocks.append((n, offset, block_ids, weights))
        if not blocks:
            return None
        # Whoosh's WeightingModel.idf, over the same counts, and the loop whoosh.scoring.bm25
        # inlined, the same operations in the same order; the average length is average_length's.
        idf = log(self.doc_count / (sum(len(block_ids) for _, _, block_ids, _ in blocks) + 1)) + 1
        avgfl = self.average_length(field)
        K1, K1_1, B, B_1 = self.K1, self.K1 + 1, self.B, 1 - self.B
        ids, scores = [], []
        for n, offset, block_ids, weights in blocks:
            lengths = self._field_lengths(n, field)
            ids.extend([local + offset for local in block_ids])
            scores.extend([idf * ((tf * K1_1) / (tf + K1 * (B_1 + B * lengths[local] / avgfl)))
                           for local, tf in zip(block_ids, weights, strict=True)])
        return Postings(ids, scores, values if positions else None)

    def frequencies(self, field: str, token: str) -> tuple[list[int], list[float]]:
        """The term's documents and how often it occurs in each (read from the index, not kept).
        A common term of a positional field is read from the stored postings, where it occurs as
        often as it has positions: "damage" in the text took 2.3 ms to decode from Whoosh's
        blocks, and a short question's register (register.py) read two or three such words."""
        kept = self.stored.get(field, token, True) if self.stored is not None and self._positional.get(field) else None
        if kept is not None and kept[2] is not None:
            return kept[0], kept[2].counts()
        ids: list[int] = []
        counts: list[float] = []
        for leaf, offset in self._leaves:
            matcher = _leaf_postings(leaf, field, token)
            if matcher is not None:
                for block_ids, weights, _ in _blocks(matcher, False):
                    ids.extend([local + offset for local in block_ids])
                    counts.extend(weights)
        return ids, counts

    def average_length(self, field: str) -> float:
        """The field's mean length over the documents that have it, as Lucene's BM25 takes it.
        Whoosh divides by every document: the Hungarian guide's 83 passages then averaged 0.08
        words in `text_hu` (21 over the passages), so a passage 23 words long scored as 277
        average ones and the shortest entry holding a word won (the glossary's "Kéz" over the
        mulligan passage). Measured with the title weight refitted (terms.TEXT_FIELDS 2.0 ->
        1.0: a heading's title averaged 0.59 words, now 1.9): judged MRR@10 / nDCG@10 0.947 /
        0.756 -> 0.949 / 0.765, Hungarian natural MRR@10 0.875 -> 0.900; the real questions level
        (keywords MRR@10 0.640 -> 0.645, keywords --as-of 0.536 -> 0.542)."""
        if field not in self._averages:
            # (a segment without the field holds none: its lengths are not read one by one)
            held = sum(sum(1 for length in self._field_lengths(n, field) if length)
                       for n, (leaf, _) in enumerate(self._leaves) if leaf.field_length(field))
            self._averages[field] = self.reader.field_length(field) / (held or 1) or 1
        return self._averages[field]

    def field_lengths(self, field: str) -> list[int]:
        """Every document's length in `field`, by document number (as BM25 reads it)."""
        lengths: list[int] = []
        for n, (_, base) in enumerate(self._leaves):
            lengths += [0] * (base - len(lengths)) + self._field_lengths(n, field)
        return lengths

    def _field_lengths(self, leaf: int, field: str) -> list[int]:
        """Every document's length in `field` in one segment, read at once from the segment's
        one-byte-per-document lengths column (as doc_field_length would, one by one)."""
        key = (leaf, field)
        if key not in self._lengths:
            reader = self._leaves[leaf][0]
            count = reader.doc_count_all()
            reader.doc_field_length(0, field, 1)  # opens the column reader Whoosh keeps
            column = getattr(getattr(reader, "_perdoc", None), "_readers", {}).get(f"_{field}_len")
            if column is not None and getattr(column, "_fixedlen", None) == 1 and hasattr(column, "_dbfile"):
                raw = column._dbfile.get(column._basepos, column._count)
                table = _length_table()
                self._lengths[key] = [table[b] for b in raw] + [0] * (count - len(raw))
            else:
                self._lengths[key] = [reader.doc_field_length(d, field, 0) for d in range(count)]
        return self._lengths[key]

    def docs(self, field: str, values: list[str]) -> set[int]:
        """Documents whose ID-type `field` holds any of `values` (filters)."""
        found: set[int] = set()
        for value in values:
            for leaf, offset in self._leaves:
                matcher = _leaf_postings(leaf, field, value)
                if matcher is not None:
                    found.update(offset + docnum for docnum in matcher.all_ids())
        return found

    def score(self, clauses: list[Clause], allowed: set[int] | None = None) -> dict[int, float]:
        """Each matching document's summed score over the clauses (added up in a list indexed
        by document number: twice as fast as a dict for the long lists of common words)."""
        acc = [0.0] * self.doc_count
        matched: set[int] = set()
        for clause in merged(clauses):
            if len(clause.tokens) == 1:
                self._add_term(acc, matched, clause, allowed)
            else:
                for docnum, score in self._phrase_matches(clause, allowed):
                    acc[docnum] += clause.boost * score
                    matched.add(docnum)
        return {docnum: acc[docnum] for docnum in sorted(matched)}

    def _add_term(self, acc: list[float], matched: set[int], clause: Clause, allowed: set[int] | None) -> None:
        postings = self.postings(clause.field, clause.tokens[0])
        if postings is None:
            return
        boost = clause.boost
        if allowed is None:
            for docnum, score in zip(postings.ids, postings.scores, strict=True):
                acc[docnum] += boost * score
            matched.update(postings.ids)
            return
        for docnum, score in zip(postings.ids, postings.scores, strict=True):
            if docnum in allowed:
                acc[docnum] += boost * score
                matched.add(docnum)

    def containing(self, field: str, tokens: tuple[str, ...], allowed: set[int] | None = None) -> set[int]:
        """The documents whose `field` holds the tokens in order, next to each other: what a
        "quoted phrase" requires."""
        if len(tokens) == 1:
            postings = self.postings(field, tokens[0])
            found = set(postings.ids) if postings else set()
            return found if allowed is None else found & allowed
        return {docnum for docnum, _ in self._phrase_matches(Clause(field, tokens), allowed)}

    def whole(self, field: str, tokens: tuple[str, ...], extra: int = 0) -> set[int]:
        """The documents whose `field` is the tokens, in order, and at most `extra` more (a title
        that is the query). The documents holding every token first (their postings without
        positions: a query has read them to score its words), then their lengths, then the
        phrase: a long question costs no phrase match (reading the title positions of a 36-word
        question took 16 ms)."""
        held: set[int] | None = None
        for token in dict.fromkeys(tokens):
            postings = self.postings(field, token)
            ids = set(postings.ids) if postings else set()
            held = ids if held is None else held & ids
            if not held:
                return set()
        fits = set()
        for n, (leaf, offset) in enumerate(self._leaves):
            end = offset + leaf.doc_count_all()
            mine = [d for d in held if offset <= d < end]
            if mine:
                lengths = self._field_lengths(n, field)
                fits.update(d for d in mine if len(tokens) <= lengths[d - offset] <= len(tokens) + extra)
        return self.containing(field, tokens, fits) if fits and len(tokens) > 1 else fits

    def _phrase_matches(self, clause: Clause, allowed: set[int] | None) -> Iterator[tuple[int, float]]:
        if not self._positional[clause.field]:
            return  # (Whoosh refuses a phrase on a field without positions; none is built here)
        parts = [self.postings(clause.field, token, positions=True) for token in clause.tokens]
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
            if near(positions, clause.slop,
                    bit_set=lambda k, at=at, positions=positions: _bit_set(parts[k], at[k], positions[k])):
                yield docnum, sum(p.scores[i] for p, i in zip(parts, at, strict=True))


def _leaf_postings(leaf, field: str, token: str):
    """The term's matcher in one segment, or None: one look in its table of terms (asking
    `term in leaf` first was a second look, for each of a search's hundreds of terms and each of
    an index's seven segments)."""
    try:
        return leaf.postings(field, token)
    except _term_not_found():  # (evaluated only when something is raised)
        return None


@cache
def _term_not_found() -> type[Exception]:
    # lazy: Whoosh's reading module is imported by whoever opened the reader
    from whoosh.reading import TermNotFound

    return TermNotFound


def _blocks(matcher, positional: bool):
    """A term's postings in one segment as (ids, weights, values) lists, a block at a time:
    Whoosh's W3 matcher decodes a block into arrays at once, and reading them whole skips four
    method calls per posting. Other matchers (an inlined short list) go posting by posting."""
    if hasattr(matcher, "_read_data") and hasattr(matcher, "_next_block") and hasattr(matcher, "_byteids"):
        while matcher.is_active():
            if matcher._data is None:
                matcher._read_data()
            # (_read_ids decodes the deltas with a Python generator; accumulate is the same sums)
            ids = matcher._data[0] if matcher._byteids else list(accumulate(matcher._data[0]))
            matcher._read_weights()
            if positional:
                matcher._read_values()
            yield ids, matcher._weights, matcher._values if positional else ()
            matcher._next_block()
        return
    ids, weights, values = [], [], []
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        if positional:
            values.append(matcher.value())
        matcher.next()
    yield ids, weights, values


@cache
def _length_table() -> list[int]:
    # lazy: Whoosh (~140 ms) only where this path reads the index
    from whoosh.util.numeric import byte_to_length

    return [byte_to_length(b) for b in range(256)]


def merged(clauses: list[Clause]) -> list[Clause]:
    """Equal clauses as one, their boosts added: the same sums for a query that repeats a word
    or a word pair ("trample trample ..."), each term and phrase scored once."""
    boosts: dict[tuple[str, tuple[str, ...], int], float] = {}
    for clause in clauses:
        key = (clause.field, clause.tokens, clause.slop)
        boosts[key] = boosts.get(key, 0.0) + clause.boost
    return [Clause(field, tokens, boost, slop) for (field, tokens, slop), boost in boosts.items()]


def _positions(postings: Postings, i: int, decode) -> list[int]:
    if i not in postings.positions:
        values = postings.values  # Whoosh's encoded lists, or postings.py's arrays (Values)
        postings.positions[i] = values.positions(i) if hasattr(values, "positions") else decode(values[i])
    return postings.positions[i]


def _bit_set(postings: Postings, i: int, positions: list[int]) -> int:
    """A long position list as a bit set, kept beside it: the phrase and the pair clauses of
    one query (and later queries) convert it once."""
    if i not in postings.bit_sets:
        postings.bit_sets[i] = as_bits(positions)
    return postings.bit_sets[i]


DENSE = 4096  # positions in one list from which near() works on bit sets instead of merging


def near(positions: list[list[int]], slop: int, dense: int = DENSE,
         bit_set: Callable[[int], int] | None = None) -> bool:
    """Whether the words occur in order, each 1..slop positions after the span before it
    (Whoosh's SpanNear2 with ordered=True and mindist=1).

    Only where a span ends matters to the next word, so each step keeps the set of reachable
    ends: a word's position p is reachable when an end lies in [p - slop, p - 1]. Two sorted
    lists are merged in one pass (a quadratic scan of every pair took 15 s for "first strike"
    in a document that repeats it 20,000 times). Past `dense` positions the lists become bit
    sets and each word is a few big-integer shifts, done in C: a 250-word phrase over a 10 MB
    document of one word stays linear in the document, not in words times positions.
    `bit_set(k)`, when given, returns positions[k] as_bits() (the scorer keeps them)."""
    if len(positions) > 1 and max(map(len, positions)) >= dense:
        if bit_set is None:
            made: dict[int, int] = {}  # a word repeated in the phrase is one list: convert it once

            def bit_set(k: int) -> int:
                key = id(positions[k])
                if key not in made:
                    made[key] = as_bits(positions[k])
                return made[key]

        return _near_bits(len(positions), slop, bit_set)
    ends = sorted(positions[0])
    for following in positions[1:]:
        grown: list[int] = []
        keep = grown.append
        i, n = 0, len(ends)
        for p in sorted(following):
            low = p - slop
            while i < n and ends[i] < low:
                i += 1
            if i < n and ends[i] < p:
                keep(p)
        if not grown:
            return False
        ends = grown
    return True


def as_bits(positions: list[int]) -> int:
    """Positions (>= 0) as an integer with bit p set for each position p, built in one pass."""
    top = max(positions, default=-1)
    digits = bytearray(b"0") * (top + 1)
    for p in positions:
        digits[top - p] = 49  # "1": int() reads the most significant digit first
    return int(digits, 2) if digits else 0


def _near_bits(count: int, slop: int, bit_set: Callable[[int], int]) -> bool:
    """near() on bit sets: bit p of `ends` is set when a span can end at position p."""
    ends = bit_set(0)
    for k in range(1, count):
        reach, width = 0, 0  # bits within `width` positions after an end
        if slop >= 1:
            reach, width = ends << 1, 1
            while width < slop:
                step = min(width, slop - width)
                reach |= reach << step
                width += step
        ends = bit_set(k) & reach
        if not ends:
            return False
    return True
