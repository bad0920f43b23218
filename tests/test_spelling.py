"""Spelling on the index's own vocabulary: the word a typing slip stood for."""

from __future__ import annotations

import pytest

from rulebase.search.spelling import Respellings, one_slip, respell


@pytest.mark.parametrize("word, other, expected", [
    ("deathtuch", "deathtouch", True),  # a letter dropped
    ("tramplee", "trample", True),  # one added
    ("graveyqrd", "graveyard", True),  # one changed
    ("trampel", "trample", True),  # two neighbours swapped
    ("cretaure", "creature", True),
    ("trample", "trample", False),  # no slip at all
    ("tarmpel", "trample", False),  # two slips
    ("blinked", "linked", True),  # one slip, if the first letter may be it (respell says no)
    ("abc", "cab", False),
])
def test_one_slip_is_one_edit_or_one_swap(word, other, expected):
    assert one_slip(word, other) is expected
    assert one_slip(other, word) is expected


@pytest.mark.parametrize("typed, meant", [
    ("deathtuch", "deathtouch"), ("trampel", "trample"), ("graveyrd", "graveyard"), ("cretaure", "creature"),
    ("oppoent", "opponent"), ("sacrficed", "sacrificed"),
])
def test_a_slip_is_respelled_as_the_rules_word(library, typed, meant):
    assert respell(library.searcher.reader, "exact", typed) == meant


@pytest.mark.parametrize("typed", [
    "blinked",  # "linked" is a first letter away: a first letter is rarely the slip
    "dude",  # "due": a short word is near too many
    "buddy", "yesterday",  # nothing near
    "qqqqqqqq",
])
def test_a_word_with_no_likely_respelling_is_left_alone(library, typed):
    assert respell(library.searcher.reader, "exact", typed) is None


def test_respellings_read_only_lowercase_words_no_document_holds(library):
    respellings = Respellings(library.searcher.reader, "exact", lambda word: library.searcher.reader.doc_frequency("exact", word))
    words = ["Altac", "deathtuch", "trample", "deathtuch", "buddy", "x2x2x2"]
    assert respellings.of(words) == [("deathtuch", "deathtouch")]  # each word once; names, words held, none near: kept
    assert respellings.of(["Deathtuch"]) == []  # capitalised: a name, as typed


def test_a_form_of_a_word_the_rules_say_is_no_slip(library):
    """No text says "shades" or "heated", but the rules say "Shade" (a creature type) and "heat":
    a form of a held word is the word, not "shares" or "headed". A slip's stem is held by no text
    ("taped", "deathtuch"): it is still respelled."""
    from rulebase.search.request import run_search

    results = run_search(library, "my shades got heated, do they shrink at end of turn", {}, 3)
    assert not any("read" in note for note in results.notes)
    results = run_search(library, "can I attack with a taped creature", {}, 3)
    assert "read 'taped' as 'tapped'" in results.notes
    assert library.searcher._inflected("deathtuch") == 0 and library.searcher._inflected("shades") > 0
