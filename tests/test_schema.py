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
