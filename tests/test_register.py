"""Which body of rules a question is asked in (search/register.py): the tournament documents'
words put their sections first; the game's questions keep the game's rules."""

from __future__ import annotations

import math

import pytest

from rulebase.core.eras import OPEN_END
from rulebase.search.register import Register
from rulebase.search.request import run_search


class _Scorer:
    """Four documents: 0-1 tournament sections, 2-3 game rules, all in force. `terms`: each
    word's documents, a document listed once per time the word occurs in it."""

    def __init__(self, terms: dict[str, list[int]]):
        self.terms = terms

    def frequencies(self, field, token):
        held = self.terms.get(token, [])
        ids = sorted(set(held))
        return ids, [float(held.count(d)) for d in ids]


def _register(lengths: list[int], terms: dict[str, list[int]]) -> Register:
    # DOCMETA's columns: group, first and last day, the documents by last day and those days, the
    # tournament's mark (every document in force, the first two the tournament's)
    columns = [[0, 1, 2, 3], [0] * 4, [OPEN_END] * 4, [0, 1, 2, 3], [OPEN_END] * 4, [1, 1, 0, 0]]
    return Register(_Scorer(terms), lambda: columns, lambda: lengths)


def test_a_word_only_the_tournament_uses_leans_its_way_and_a_shared_word_does_not():
    register = _register([10, 10, 10, 10], {"penalti": [0, 1], "stack": [2, 3], "card": [0, 1, 2, 3]})
    assert register.leans(["card"]) == pytest.approx(0.0)  # two bodies of one size, a word both hold
    assert register.is_tournament(["penalti"])
    assert not register.is_tournament(["stack"])
    assert not register.is_tournament(["unknown"])  # a word neither holds says nothing, nor does the prior
    assert not register.is_tournament([])
    assert [register.body(w) for w in (["penalti"], ["stack"], ["card"], ["unknown"], [])] == [
        "tournament", "game", "game", None, None]  # (a tie is the game's: the larger body's)


def test_the_smaller_body_needs_more_words_that_lean_its_way():
    """Tournament text a quarter of the game's: the prior is log(1/4). A word in one section of
    each body is four times likelier per word of the tournament's text, and the prior takes it
    back: it reads as the game's; a word in both tournament sections and no game rule does not."""
    register = _register([5, 5, 20, 20], {"judg": [0, 2], "penalti": [0, 1]})
    assert register.leans(["judg"]) == pytest.approx(math.log(1 / 4) + math.log(4))
    assert not register.is_tournament(["judg"])
    assert register.is_tournament(["penalti"])


def test_a_word_counts_each_time_a_text_says_it():
    """The bodies are weighed by their words, so a word is counted by its occurrences too: a
    tournament section that says "deck" three times outweighs two game rules that say it once."""
    register = _register([10, 10, 10, 10], {"deck": [0, 0, 0, 2, 3]})
    assert register.leans(["deck"]) == pytest.approx(math.log(3.5 / 2.5))
    assert register.is_tournament(["deck"])


@pytest.mark.parametrize("question", [
    "penalty for drawing an extra card",
    "can I change a card on my decklist after I've handed it in",
    "my opponent forgot their trigger, do I have to remind them",
    "is it cheating if I notice my opponent made a mistake that helps me and I say nothing",
])
def test_tournament_questions_read_as_the_tournaments_on_the_real_index(library, question):
    assert _reads_as_tournament(library, question)


@pytest.mark.parametrize("question", [
    "trample deathtouch damage assignment",
    "what happens to a creature with summoning sickness that gains haste",
    "the stack",
    "can I respond to a triggered ability",
])
def test_game_questions_read_as_the_games_on_the_real_index(library, question):
    assert not _reads_as_tournament(library, question)


def _reads_as_tournament(library, question: str) -> bool:
    """The register's reading of a question's meaningful words, as the searcher reads them."""
    from rulebase.search import language
    from rulebase.search.question import split_query

    searcher = library.searcher
    words = language.content_words(split_query(question)[0], "en")
    return searcher.register.is_tournament([t for per in searcher.word_terms(words, "en")
                                            for f, t in per if f == "text"])


def test_a_forgotten_trigger_asked_as_a_player_finds_the_ipg_first(library):
    """The IPG's Missed Trigger used to come fifth, under Crystal Keep 1999 and CR rules that
    share the words "trigger" and "opponent"."""
    hits = run_search(library, "my opponent forgot their trigger, do I have to remind them", {}, 3).hits
    assert hits[0].id.startswith("ipg:2.1@")


def test_a_game_question_keeps_the_game_rules_first(library):
    hits = run_search(library, "what happens if I have to draw from an empty library", {}, 3).hits
    assert hits[0].id.startswith("cr:")


def test_a_game_question_lists_the_game_rules_before_a_tournament_section(library):
    """The register works both ways: a question in the game's words counts the tournament
    documents at half, as a tournament question counts the game's. The IPG's Missed Trigger
    shares "trigger", "order" and "ability" with this question and came third, above 603.7b."""
    hits = run_search(library, "who chooses the order of triggered abilities that trigger at the same time", {}, 3).hits
    assert [h.id.split(":")[0] for h in hits] == ["cr", "cr", "cr"]
    assert any(h.id.startswith("cr:603.3b@") for h in hits)


def test_the_title_of_a_game_text_reads_as_the_games(library):
    """"minimum deck size" leans to the MTR's words ("minimum", "deck"), but it is the title of a
    glossary entry of the Comprehensive Rules in force: the game's texts keep their full weight
    (Crystal Keep's 1999 "The Library size must be 40 or more cards" follows today's texts)."""
    results = run_search(library, "minimum deck size", {}, 5)
    assert results.hits[0].id.startswith("cr:glossary.minimum-deck-size@")
    assert all(h.id in results.now for h in results.hits)
