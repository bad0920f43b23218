"""Spelling on the index's own vocabulary: the word a typing slip stood for, and the two words a
word typed closed up stands for."""

from __future__ import annotations

import pytest

from rulebase.search.spelling import Respellings, joined_words, one_slip, respell, split_word


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


def test_a_closed_up_word_is_split_only_where_the_documents_say_the_two_words_together():
    counts = {"face": 400, "down": 300, "faced": 120, "own": 150, "off": 90, "hand": 500}
    together = {("face", "down"): 700, ("faced", "own"): 0, ("off", "hand"): 0}
    frequency = counts.get

    def phrase(first, second):
        return together.get((first, second), 0)

    assert split_word("facedown", lambda w: frequency(w, 0), phrase) == "face down"
    assert split_word("offhand", lambda w: frequency(w, 0), phrase) is None  # never said apart
    together[("off", "hand")] = 4  # below TYPO_MIN_DOCS documents: not enough
    assert split_word("offhand", lambda w: frequency(w, 0), phrase) is None


@pytest.mark.parametrize("query, typed, read, rule", [
    ("can a facedown creature be turned face up", "facedown", "face down", "708.2"),
    ("what happens at endstep", "endstep", "end step", "513"),
    ("how does firststrike work", "firststrike", "first strike", "702.7a"),
    ("manaburn", "manaburn", "mana burn", None),  # one word of no known language: split all the same
])
def test_a_closed_up_word_is_searched_as_the_rules_write_it(library, query, typed, read, rule):
    """No text says "facedown" or "endstep": searched as typed, a question lost its main word
    ("facedown creature dies" was answered by 700.4, "dies"); the rules write "face-down", "end step"."""
    from rulebase.search.request import run_search

    results = run_search(library, query, {}, 3)
    assert f"read {typed!r} as {read!r}" in results.notes
    numbers = [library.store.get(h.id).number or "" for h in results.hits]
    assert rule is None or any(n.startswith(rule) for n in numbers), numbers
    assert results.hits


def test_a_hyphenated_pair_is_joined_where_the_documents_write_it_closed_up_more_often():
    counts = {"nonland": 20, "noncreature": 21, "twoheaded": 0, "facedown": 0}
    together = {("non", "land"): 6, ("non", "creature"): 20, ("two", "headed"): 300, ("face", "down"): 700}

    def joined(text):
        return joined_words(text, lambda w: counts.get(w, 0), lambda a, b: together.get((a, b), 0))

    assert joined("a non-land permanent or a Non-creature spell") == [("non-land", "nonland"),
                                                                      ("Non-creature", "noncreature")]
    assert joined("two-headed giant, face-down, non-land-based") == []  # written apart, or no pair of two
    counts["noncreature"] = 20
    assert joined("non-creature") == []  # as often apart as closed up: as typed


def test_a_hyphenated_pair_is_searched_as_the_rules_write_it(library):
    """The rules write "precombat" and "nontoken"; searched as typed, "pre-combat main phase"
    put the Postcombat Main Phase first."""
    from rulebase.search.request import run_search

    results = run_search(library, "pre-combat main phase", {}, 3)
    assert "read 'pre-combat' as 'precombat'" in results.notes
    assert library.store.get(results.hits[0].id).title == "Precombat Main Phase"


def test_a_contraction_typed_without_its_apostrophe_is_a_function_word_not_a_slip(library):
    """"doesnt" is "doesn't" (a function word, as the typed contraction is), not the index's
    token "doesn": it was respelled so and searched."""
    from rulebase.search.request import run_search

    typed = run_search(library, "my creature doesnt have flying, can it block", {}, 5)
    apostrophe = run_search(library, "my creature doesn't have flying, can it block", {}, 5)
    assert not any("doesnt" in note for note in typed.notes)
    assert [h.id for h in typed.hits] == [h.id for h in apostrophe.hits]
