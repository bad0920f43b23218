"""The flat BM25F scorer gives exactly the scores Whoosh's own query matchers give, with a field's
average length taken over the documents that have the field (as Lucene does; Whoosh divides by
every document)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh.query import Or, Phrase, Term
from whoosh.scoring import BM25F
from whoosh.searching import Searcher as WhooshSearcher

from rulebase.index.postings import BM25_B, BM25_K1
from rulebase.index.scorer import Clause, Scorer, as_bits, merged, near
from rulebase.search.question import split_query


def as_whoosh(clauses: list[Clause]):
    return Or([Term(c.field, c.tokens[0], boost=c.boost) if len(c.tokens) == 1
               else Phrase(c.field, list(c.tokens), slop=c.slop, boost=c.boost) for c in clauses])


class FieldAverages(WhooshSearcher):
    """Whoosh's searcher, averaging a field's length over the documents that have it, counted
    one document at a time through Whoosh's public reader (not the scorer's column read). The
    count of a field's documents is made once per reader and field (_HELD), not once per term of
    every query: the same reader gives the same count."""

    def avg_field_length(self, fieldname, default=None):
        reader = self.reader()
        key = (id(reader), fieldname)
        if key not in _HELD:
            _HELD[key] = (reader, sum(1 for d in range(reader.doc_count_all())
                                      if reader.doc_field_length(d, fieldname, 0)))
        held = _HELD[key][1]
        return reader.field_length(fieldname) / held if held else default


_HELD: dict[tuple[int, str], tuple[object, int]] = {}  # (reader, its count): the reader kept, so its id is not reused


def clauses_for(searcher, text: str) -> list[Clause]:
    words, phrases = split_query(text)
    return searcher.build_query(words, phrases, searcher.word_terms(words))


@pytest.mark.parametrize("text", [
    "damage prevention", "mana burn", "first strike damage", '"first strike" damage', "the the of a",
    "sebzes kiosztasa", "Sebzések kiosztása", "trample", "Rules Step Rating", "summoning sickness",
    "what happens when a creature with banding attacks", '"end of turn" "mana pool"',
    "trample trample creature trample", '"first strike" "first strike" first strike',
])
def test_scores_equal_whooshs_own_matchers(library, text):
    searcher = library.searcher
    clauses = clauses_for(searcher, text)
    whoosh = FieldAverages(searcher.reader, weighting=BM25F(B=BM25_B, K1=BM25_K1), closereader=False)
    expected = dict(whoosh.search(as_whoosh(clauses), limit=None).items())
    got = Scorer(searcher.reader, B=BM25_B, K1=BM25_K1).score(clauses)
    assert expected, text
    assert got.keys() == expected.keys()
    assert all(got[d] == pytest.approx(expected[d], rel=1e-9) for d in expected)


def test_a_sparse_fields_average_counts_only_the_documents_that_have_it(library):
    """The Hungarian guide's few passages set `text_hu`'s average length, not the whole corpus: a
    passage of average length scores a term as BM25 means, not as hundreds of average ones."""
    scorer = library.searcher.scorer
    reader = library.searcher.reader
    held = [d for d in range(reader.doc_count_all()) if reader.doc_field_length(d, "text_hu", 0)]
    assert 0 < len(held) < reader.doc_count_all() / 10
    assert scorer.average_length("text_hu") == pytest.approx(reader.field_length("text_hu") / len(held))
    assert scorer.average_length("text_hu") > 10 * reader.field_length("text_hu") / reader.doc_count_all()


def test_a_whole_field_is_the_tokens_and_nothing_more(library):
    searcher = library.searcher
    ids = searcher._column("id")
    whole = {ids[d] for d in searcher.scorer.whole("title", ("legend", "rule"))}
    holding = {ids[d] for d in searcher.scorer.containing("title", ("legend", "rule"))}
    assert whole and whole < holding
    assert any(i.startswith("cr:glossary.legend-rule@") for i in whole)
    assert "cr:glossary.legend-legend-rule@1999-04-23" in holding - whole
    nearly = {ids[d] for d in searcher.scorer.whole("title", ("summon", "sick"), 1)}
    assert any(i.startswith("cr:glossary.summoning-sickness-rule@") for i in nearly)
    assert not any(i.startswith("cr:glossary.summoning-sickness-rule@")
                   for i in (ids[d] for d in searcher.scorer.whole("title", ("summon", "sick"))))


def test_filters_restrict_to_allowed_documents(library):
    searcher = library.searcher
    scorer = Scorer(searcher.reader)
    fourth = scorer.docs("edition", ["4e"])
    clauses = clauses_for(searcher, "damage prevention")
    every = scorer.score(clauses)
    only = scorer.score(clauses, fourth)
    assert only and set(only) == set(every) & fourth
    assert all(only[d] == every[d] for d in only)
    assert scorer.docs("edition", ["7e"]) == set()


def test_term_cache_keeps_the_most_recent_terms_only(library):
    scorer = Scorer(library.searcher.reader, cache_terms=2)
    first = scorer.postings("text", "damag")
    scorer.postings("text", "prevent")
    assert scorer.postings("text", "damag") is first  # a hit refreshes it
    scorer.postings("text", "creatur")
    assert list(scorer._terms) == [("text", "damag"), ("text", "creatur")]
    assert scorer.postings("text", "zzzzqx") is None
    scorer.clear()
    assert not scorer._terms and scorer.postings("text", "damag").ids == first.ids  # read afresh


@pytest.mark.parametrize(("positions", "slop", "expected"), [
    ([[3], [4]], 1, True),           # adjacent, in order
    ([[4], [3]], 1, False),          # wrong order
    ([[3], [5]], 1, False),          # one word between
    ([[3], [5]], 2, True),           # ... allowed with slop 2
    ([[3], [3]], 2, False),          # the same position is not "after"
    ([[1, 9], [2, 20], [3]], 1, True),
    ([[1, 9], [2, 20], [21]], 1, False),
    ([[1, 9], [10, 20], [21]], 1, False),
    ([[1, 9], [10, 20], [11]], 1, True),
])
def test_near_follows_whooshs_ordered_span_rule(positions, slop, expected):
    assert near(positions, slop) is expected
    assert near(positions, slop, dense=0) is expected  # the bit-set path


def test_bit_sets_and_merged_clauses():
    assert (as_bits([0, 3, 3]), as_bits([5]), as_bits([])) == (0b1001, 0b100000, 0)
    a, b = Clause("text", ("trampl",)), Clause("text", ("trampl", "trampl"), 1.5, slop=2)
    assert merged([a, b, a, b, a]) == [Clause("text", ("trampl",), 3.0), Clause("text", ("trampl", "trampl"), 3.0, 2)]
    assert merged([a, Clause("title", ("trampl",))]) == [a, Clause("title", ("trampl",))]


def brute_near(positions: list[list[int]], slop: int) -> bool:
    """The rule as first written: every span against every position of the next word."""
    spans = {(p, p) for p in positions[0]}
    for following in positions[1:]:
        spans = {(start, p) for start, end in spans for p in following if 1 <= p - end <= slop}
        if not spans:
            return False
    return True


POSITIONS = st.lists(st.lists(st.integers(0, 40), max_size=12), min_size=1, max_size=5)


@settings(max_examples=400, deadline=None)
@given(POSITIONS, st.integers(-1, 4))
def test_near_agrees_with_the_brute_force_rule(positions, slop):
    """Unsorted lists, duplicates, empty lists, slop 0 and below: both paths give the brute-force answer."""
    expected = brute_near(positions, slop)
    assert near(positions, slop) is expected
    assert near(positions, slop, dense=0) is expected


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 30), st.lists(st.integers(0, 3), min_size=2, max_size=6), st.integers(1, 3))
def test_near_agrees_on_dense_repetitive_lists(length, pattern, slop):
    """Hostile shapes: a text of a few distinct words repeated, and a phrase repeating words
    (the same list object more than once, as the scorer passes a repeated word)."""
    text = [(i * 7 + i // 3) % 4 for i in range(length)]
    where = {w: [i for i, t in enumerate(text) if t == w] for w in range(4)}
    positions = [where[w] for w in pattern]
    expected = brute_near(positions, slop)
    assert near(positions, slop) is expected
    assert near(positions, slop, dense=0) is expected


class Counted(list):
    """A position list that counts how often its items are read."""

    reads = 0

    def __iter__(self):
        for item in super().__iter__():
            Counted.reads += 1
            yield item


@pytest.mark.parametrize("dense", [10**9, 0], ids=["merge", "bits"])
def test_near_reads_each_position_a_bounded_number_of_times(dense):
    """Issue 12's hostile shapes, small: a two-word phrase repeated 2,000 times, and a 10-word
    phrase of one word over a text of 1,000 copies of it. The pairwise scan read 4,000,000 and
    9,000,000 positions here (and took 15 s at 20,000 repeats); merging reads each list once
    per word, the bit sets once in all."""
    first, strike = Counted(range(0, 4000, 2)), Counted(range(1, 4000, 2))
    Counted.reads = 0
    assert near([first, strike], 1, dense) and not near([strike, strike], 1, dense)
    assert Counted.reads <= 3 * 2 * 4000
    one = Counted(range(1000))
    Counted.reads = 0
    assert near([one] * 10, 1, dense) and near([one] * 10, 2, dense) and not near([one] * 10 + [[0]], 1, dense)
    assert Counted.reads <= 3 * 2 * 10 * 1000
