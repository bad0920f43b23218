"""A term's history in the index (search/term_history.py): a word of older rules asks about
them; a word of the tournament documents' newest release does not."""

from __future__ import annotations

from rulebase.search import language
from rulebase.search.question import split_query
from rulebase.search.request import run_search


def _asks_old(library, question: str) -> bool:
    searcher = library.searcher
    words = language.content_words(split_query(question)[0], "en")  # as the searcher asks it
    terms = [set(per) for per in searcher.word_terms(words, "en")]
    return searcher.history.asks_old(words, terms)


def test_a_term_only_older_rules_use_asks_about_them(library):
    assert _asks_old(library, "mana burn")
    assert _asks_old(library, "fast effect")


def test_a_players_word_the_vocabulary_reads_is_how_people_speak_today(library):
    """"fizzle" was the rules' own word until 2009, and older texts say it; players still do, for
    today's "doesn't resolve" (corpus/vocabulary.toml): spoken, it asks nothing about the past."""
    searcher = library.searcher
    words = ["spell", "fizzled"]
    terms = [set(per) for per in searcher.word_terms(words, "en")]
    assert searcher.history.asks_old(words, terms)
    assert not searcher.history.asks_old(words, terms, spoken=["fizzled"])
    results = run_search(library, "my spell fizzled", {}, 3)
    assert results.hits and all(h.id in results.now for h in results.hits)


def test_a_players_word_older_texts_use_as_flavor_is_today_s(library):
    """The 1993 rulebook names each color's "traditional enemies"; no rule in force says "enemy".
    Players coming from video games call the opponent that, and the vocabulary reads it so:
    the question is about today's rules."""
    assert _asks_old(library, "the enemy creature blocked mine")
    results = run_search(library, "the enemy creature blocked mine, does it still deal damage", {}, 3)
    assert results.hits and all(h.id in results.now for h in results.hits)


def test_words_of_many_versions_of_one_tournament_section_are_no_old_terms(library):
    """Counted by document, "forgot" and "remind" were old words: each IPG section has up to twenty
    releases' versions, one in force. Counted by rule, they are today's."""
    assert not _asks_old(library, "my opponent forgot their trigger, do I have to remind them")
    assert not _asks_old(library, "regular REL forgot to draw")
    held, current = library.searcher.history.rules_holding("text", "forgot")
    documents = len(library.searcher.scorer.postings("text", "forgot").ids)
    assert current > 0 and held < documents  # versions of one rule count once


def test_two_words_only_older_rules_say_side_by_side_ask_about_them(library):
    """Each of "damage", "prevention", "step" is a word of today's rules; "prevention step" is the
    4th and 5th Editions' (25 rules say it, none in force). A phrase fewer older rules say is how
    players still talk ("upkeep phase", 11), not a question about the past."""
    assert _asks_old(library, "damage prevention step")
    assert not _asks_old(library, "what can I do during my upkeep phase")
    assert not _asks_old(library, "clone copy transformed double-faced card")  # (a rule in force says it)
    assert not _asks_old(library, "can I write stuff down during my match")  # ("stuff": a function word)
    results = run_search(library, "damage prevention step", {}, 5)
    assert not results.now or results.hits[0].id not in results.now  # the older rules answer first
