"""A query's text as words, "quoted phrases" and card names, read without an index."""

from __future__ import annotations

from rulebase.search.question import split_query, weak_words


def test_split_query():
    assert split_query('flying "first strike" blocks') == (["flying", "first", "strike", "blocks"],
                                                          ["first strike"])
    assert split_query('"open quote') == (["open", "quote"], ["open quote"])


def test_a_run_of_capitalised_words_in_a_question_is_a_name():
    """ "Kodama's Reach" is a card, though "reach" is a keyword: weak evidence, not a rules term."""
    text = "The Kodama's Reach on the stack still resolved after March of the Machines left, with Flying"
    weak, names = weak_words(text, split_query(text)[0])
    assert names == {"Kodama's", "Reach", "March", "Machines"}
    assert weak == names | {"Flying"}  # a lone capital word is weak only when today's rules hardly use it
    assert weak_words("Kodama's Reach", ["Kodama's", "Reach"]) == (set(), set())  # a keyword query: as typed
