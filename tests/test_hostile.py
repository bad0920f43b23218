"""Hostile corpora (issue 12, item 2): a phrase repeated thousands of times, one word filling a
long line, many typos. Answers stay right and the work stays bounded; scripts/hostile.py has
the timings. Boundedness is shown by counting work (positions read, automaton walks), never by
the clock: the code this replaced did quadratically many reads here and fails these counts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulebase.index.scorer as scorer_module
from rulebase.build.writer import write_index
from rulebase.core.records import Record
from rulebase.search import spelling
from rulebase.search.question import split_query
from rulebase.search.searcher import Searcher

FIXTURE = Path(__file__).parent / "fixtures" / "comprules-2025-11-14.txt"
FIRST_STRIKE = 2000  # "first strike" repeats in one record (the is 20,000)
TRAMPLE = 5000  # "trample" repeats in one line (the 10 MB is 1,300,000)
TYPOS = ["trampel", "creture", "dmaage", "prevnetion", "blokcing", "attakcer", "regenaration", "bandnig",
         "enchantmnet", "artifcat", "grveyard", "libary", "upkep", "cleanpu", "sacrifcie", "contorller",
         "pemranent", "abilitiy", "spelsl", "lnads"]


def _record(rid: str, text: str, title: str | None = None) -> Record:
    return Record(id=f"h:{rid}", source="h", edition="10e", lang="en", kind="rule", text=text, raw=text,
                  title=title)


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    """A small index: 600 real rules for a real vocabulary, and the hostile records."""
    rules = re.findall(r"^(\d{3}\.\d+[a-z]?)\.? (.+)$", FIXTURE.read_text(encoding="utf-8-sig"), re.MULTILINE)
    records = [_record(number, text) for number, text in rules[:600]]
    records += [_record("first-strike", "first strike " * FIRST_STRIKE),
                _record("trample", " ".join(["trample"] * TRAMPLE)),
                _record("both", "A creature with trample deals first strike damage.", "Trample")]
    path = tmp_path_factory.mktemp("hostile") / "index"
    write_index(path, records)
    opened = Searcher(path)
    yield opened
    opened.close()


class Counted(list):
    """A position list that counts how often its items are read, and stops a runaway scan
    (the quadratic one took hours on the 250-word phrase) as soon as it passes the budget."""

    reads = 0
    budget = 200_000

    def __iter__(self):
        for item in super().__iter__():
            Counted.reads += 1
            if Counted.reads > Counted.budget:
                raise AssertionError(f"near() read more than {Counted.budget} positions")
            yield item


@pytest.fixture
def counted(searcher, monkeypatch):
    """Every decoded position list the scorer hands to near() counts its reads; near() calls
    are counted too. The searcher's kept postings are emptied so every term is read afresh."""
    calls, wrapped = [], {}
    original_positions, original_near = scorer_module._positions, scorer_module.near

    def positions(*args):
        found = original_positions(*args)  # kept per term and document: wrap each list once
        return wrapped.setdefault(id(found), (found, Counted(found)))[1]

    monkeypatch.setattr(scorer_module, "_positions", positions)
    monkeypatch.setattr(scorer_module, "near", lambda *a, **k: calls.append(1) or original_near(*a, **k))
    searcher.scorer.clear()
    Counted.reads = 0
    yield calls
    Counted.reads = 0


def _ids(searcher, text: str) -> set[str]:
    """The records the query's phrase clauses match (its words alone match far more)."""
    ids = searcher._column("id")
    words, phrases = split_query(text)
    clauses = searcher.build_query(words, phrases, searcher.word_terms(words))
    return {ids[d] for d in searcher.scorer.score([c for c in clauses if len(c.tokens) > 1])}


def test_phrases_match_where_the_words_are_in_order(searcher, counted):
    assert {"h:first-strike", "h:both"} <= _ids(searcher, '"first strike"')
    assert "h:first-strike" in _ids(searcher, '"strike first"')  # ... first strike first strike ...
    assert "h:both" not in _ids(searcher, '"strike first"') and "h:both" not in _ids(searcher, '"strike strike"')
    assert "h:trample" in _ids(searcher, '"' + "trample " * 250 + '"')
    assert "h:trample" not in _ids(searcher, '"trample first"')
    hits = [h.id for h in searcher.search('"first strike"', limit=50).hits]
    assert "h:first-strike" in hits and "h:both" in hits


def test_a_phrase_repeated_thousands_of_times_is_read_once_per_word(searcher, counted):
    """The pairwise scan read 2,000 x 2,000 positions for each pair clause here."""
    searcher.search("first strike")
    assert counted and Counted.reads <= 3 * 2 * FIRST_STRIKE * len(counted)


def test_one_word_filling_a_line_stays_linear(searcher, counted):
    """'trample trample', and a 250-word quoted phrase of it: the list becomes a bit set once,
    reading each position twice (the old scan read 25,000,000 per pair, and 250 times that for
    the phrase)."""
    searcher.search("trample trample")
    assert Counted.reads <= 3 * TRAMPLE
    Counted.reads = 0
    searcher.search('"' + "trample " * 250 + '"')
    assert Counted.reads <= 3 * TRAMPLE  # one bit set, for the phrase and the pair of its first words


def test_repeated_words_are_scored_once_with_the_same_sums(searcher, counted):
    words, phrases = split_query("trample " * 40)
    clauses = searcher.build_query(words, phrases, searcher.word_terms(words))
    merged = scorer_module.merged(clauses)
    assert len(merged) < len(clauses) / 10
    assert len({(c.field, c.tokens, c.slop) for c in merged}) == len(merged)
    one_by_one: dict[int, float] = {}
    for clause in clauses:
        for doc, score in searcher.scorer.score([clause]).items():
            one_by_one[doc] = one_by_one.get(doc, 0.0) + score
    together = searcher.scorer.score(clauses)
    assert together.keys() == one_by_one.keys()
    assert all(together[d] == pytest.approx(one_by_one[d], rel=1e-12) for d in together)
    counted.clear()
    Counted.reads = 0
    searcher.search("trample " * 40)
    repeated = len(counted)
    counted.clear()
    searcher.search("trample trample")
    assert repeated == len(counted)  # the same near() checks as for the word once repeated


def test_vocabulary_finds_what_whooshs_own_term_walk_finds(searcher):
    """The in-memory walk (length and character filters, then Whoosh's automaton) returns
    exactly Whoosh's `terms_within`, and the suggestion is its corrector's."""
    vocabulary = spelling.Vocabulary(searcher.reader, "exact")
    corrector = searcher._searcher().corrector("exact")
    words = [*TYPOS, "trample", "cat", "zzzzzz", "a", "ab", "x" * 41, "first", "strikes", "ükör"]
    for word in words:
        for maxdist in (1, 2):
            for prefix in (0, 1):
                expected = list(searcher.reader.terms_within("exact", word, maxdist, prefix))
                assert vocabulary.within(word, maxdist, prefix) == expected, (word, maxdist, prefix)
        suggested = corrector.suggest(word, limit=1, maxdist=2)
        assert vocabulary.suggest(word) == (suggested[0] if suggested else None), word


def test_fuzzy_hits_equal_whooshs_fuzzy_terms(searcher):
    """Ordinary typo queries keep their answers: the same hits and scores as Whoosh's FuzzyTerm."""
    from whoosh.query import FuzzyTerm, Or

    for text in ["trampel", "trampel creture", "frist strkie", "trampel trampel dmaage"]:
        words, _ = split_query(text)
        top, _, total, _ = spelling.near_spellings(searcher, words, None, 50)
        parts = [FuzzyTerm("exact", w, maxdist=2 if len(w) > 5 else 1, prefixlength=1) for w in words]
        hits = searcher._searcher().search(Or(parts), limit=50, terms=True)
        assert top == list(hits.items()) and total == len(hits) and top, text
    assert searcher.search("trampel").suggestion == "trample"
    assert searcher.search("frist strkie").suggestion == "first strike"


def test_twenty_typos_walk_the_vocabulary_a_bounded_number_of_times(searcher, monkeypatch):
    """Whoosh walked its on-disk term table for each word's suggestion and twice more for its
    fuzzy spellings (60 walks for 20 typos, seconds in all). Now: no on-disk walk, at most one
    in-memory walk per distinct word (MAX_SPELLED of them; the fuzzy spellings reuse the
    suggestion's), and a typo repeated twenty times is looked up once."""
    import whoosh.automata.lev as lev

    walks = []
    original = lev.levenshtein_automaton
    monkeypatch.setattr(lev, "levenshtein_automaton", lambda *a: walks.append(a[0]) or original(*a))
    monkeypatch.setattr(searcher.reader, "terms_within", None)  # any disk walk would raise
    searcher.__dict__.pop("_spelling_vocabulary", None)
    results = searcher.search(" ".join(TYPOS))
    assert results.hits
    spelled = TYPOS[:spelling.MAX_SPELLED]
    assert results.suggestion.split()[len(spelled):] == TYPOS[len(spelled):]  # the rest as typed
    assert results.suggestion.split()[:2] == ["trample", "creature"]
    short = [w for w in spelled if len(w) <= 5]  # their fuzzy spellings are one edit: a walk of their own
    assert set(walks) <= set(spelled) and len(walks) <= len(spelled) + len(short)
    walks.clear()
    searcher.__dict__.pop("_spelling_vocabulary", None)
    assert searcher.search("trampel " * 20).suggestion == " ".join(["trample"] * 20)
    assert walks == ["trampel"]
