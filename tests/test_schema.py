"""The index's schema (index/schema.py): how its English fields read a word's forms."""

from __future__ import annotations

import pytest

from rulebase.index.schema import make_schema


@pytest.fixture(scope="module")
def analyse():
    analyser = make_schema()["text"].analyzer
    return lambda text: [t.text for t in analyser(text)]


@pytest.mark.parametrize("forms", [
    "tap taps tapped tapping",  # Whoosh's Porter stemmer: "tapp" for tapped, "tap" for tap
    "die dies died dying",  # "die", "di", "di", "dy": "does it die" missed "dies"
    "activate activates activated activating",  # "activ" and "activat"
    "untap untapped untapping",
    "block blocks blocked blocking",
    "exile exiles exiled exiling",
])
def test_a_words_forms_are_one_term(analyse, forms):
    """A player's "does it die?" and "can I tap it" are the rules' "dies" and "tapped"."""
    assert len(set(analyse(forms))) == 1, analyse(forms)


def test_forms_that_mean_other_things_stay_apart(analyse):
    assert len(set(analyse("tap untap"))) == 2
    assert len(set(analyse("counter counters")) | set(analyse("count"))) == 2


def test_the_columns_a_search_reads_keep_their_offsets(library):
    """The id, lead and kind columns are written with their table of offsets in every segment of
    every index: without it Whoosh rebuilds the table in Python each time a column is opened, three
    times on every cold search."""
    for searcher in (library.searcher, library.card_searcher, library.ruling_searcher):
        for leaf, _ in searcher.scorer._leaves:
            for name in ("id", "lead", "kind"):
                if leaf.has_column(name):
                    assert leaf.column_reader(name, translate=False).had_stored_offsets, name


def test_the_documents_in_force_on_a_day_are_read_from_their_last_days(library):
    """DOCMETA keeps the documents in order of their last day: a day's documents in force are a
    bisection and a short filter, the same set as a pass over every document, on days before,
    between and after the releases (the real index), and with nothing in force."""
    from rulebase.index.schema import DOCMETA_COLUMNS, in_force_on

    columns = library.searcher.docmeta(DOCMETA_COLUMNS)
    _, first, last = columns[:3]
    for day in (19930804, 19950401, 20090710, 20090711, 20150315, 20240923, 20990101):
        assert in_force_on(columns, day) == {d for d in range(len(first)) if first[d] <= day <= last[d]}, day
    assert in_force_on(columns, 19930804) == set()  # (before Alpha)


def test_a_document_ending_on_the_day_is_still_in_force_that_day():
    from array import array

    from rulebase.index.schema import in_force_on

    first, last = array("I", [10, 10, 20, 30]), array("I", [19, 20, 40, 99])
    ending = array("I", sorted(range(4), key=lambda d: (last[d], d)))
    columns = [array("I", [0, 1, 2, 3]), first, last, ending, array("I", (last[d] for d in ending))]
    assert in_force_on(columns, 20) == {1, 2}
    assert in_force_on(columns, 19) == {0, 1}
    assert in_force_on(columns, 29) == {2}
    assert in_force_on(columns, 9) == set()
