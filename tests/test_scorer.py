"""The flat BM25F scorer gives exactly the scores Whoosh's own query matchers give."""

from __future__ import annotations

import pytest
from whoosh.query import Or, Phrase, Term
from whoosh.scoring import BM25F
from whoosh.searching import Searcher as WhooshSearcher

from rulebase.index import BM25_B, BM25_K1, split_query
from rulebase.scorer import Clause, Scorer, near


def as_whoosh(clauses: list[Clause]):
    return Or([Term(c.field, c.tokens[0], boost=c.boost) if len(c.tokens) == 1
               else Phrase(c.field, list(c.tokens), slop=c.slop, boost=c.boost) for c in clauses])


def clauses_for(searcher, text: str) -> list[Clause]:
    words, phrases = split_query(text)
    return searcher.build_query(words, phrases, searcher.word_terms(words))


@pytest.mark.parametrize("text", [
    "damage prevention", "mana burn", "first strike damage", '"first strike" damage', "the the of a",
    "sebzes kiosztasa", "Sebzések kiosztása", "trample", "Rules Step Rating", "summoning sickness",
    "what happens when a creature with banding attacks", '"end of turn" "mana pool"',
])
def test_scores_equal_whooshs_own_matchers(library, text):
    searcher = library.searcher
    clauses = clauses_for(searcher, text)
    whoosh = WhooshSearcher(searcher.reader, weighting=BM25F(B=BM25_B, K1=BM25_K1), closereader=False)
    expected = dict(whoosh.search(as_whoosh(clauses), limit=None).items())
    got = Scorer(searcher.reader, B=BM25_B, K1=BM25_K1).score(clauses)
    assert expected, text
    assert got.keys() == expected.keys()
    assert all(got[d] == pytest.approx(expected[d], rel=1e-9) for d in expected)


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
