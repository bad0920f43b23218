"""Reading the era a question names (rulebase.search.reading)."""

from __future__ import annotations

import pytest

from rulebase.search.reading import read_era


@pytest.mark.parametrize(("question", "edition", "rest"), [
    ("what did 4th edition say about interrupts", "4e", "what did say about interrupts"),
    ("Fourth Edition damage prevention", "4e", "damage prevention"),
    ("trample 5e", "5e", "trample"),
    ("10th edition legend rule", "10e", "legend rule"),
    ("alpha rules for walls", "alpha", "for walls"),
])
def test_a_named_edition_is_read_and_leaves_the_words(question, edition, rest):
    era = read_era(question, 2026)
    assert (era.edition, era.text, era.asks_for_history) == (edition, rest, True)


@pytest.mark.parametrize(("question", "day", "rest"), [
    ("mana burn in 2005", 20051231, "mana burn"),
    ("before the 2009 rules damage on the stack", 20081231, "damage on the stack"),
    ("the 2010 rules for mulligans", 20101231, "the for mulligans"),
])
def test_a_year_is_the_rules_in_force_then(question, day, rest):
    era = read_era(question, 2026)
    assert (era.day, era.text, era.edition) == (day, rest, None)


@pytest.mark.parametrize("question", ["how did mana burn change?", "old rules banding", "third edition ante",
                                      "what trample used to do", "how did the legend rule work before they changed it",
                                      "what did it do before the change"])
def test_older_rules_asked_for_without_naming_them(question):
    era = read_era(question, 2026)
    assert era.old and era.edition is None and era.day is None


@pytest.mark.parametrize("question", ["deals 10 damage to each blocker", "can deathtouch and trample",
                                      "what happens in 2099", "a 4/4 with 2 counters", "13th edition"])
def test_numbers_that_name_no_era_are_left_alone(question):
    era = read_era(question, 2026)
    assert not era.asks_for_history and era.text == question
