"""Reading the era a question names (rulebase.search.question)."""

from __future__ import annotations

import pytest

from rulebase.search.question import read_era


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
    # Seventh to Ninth Edition have no label: the rules in force the day before the next edition
    ("how did damage on the stack work in 8th edition", 20050728, "how did damage on the stack work in"),
    ("seventh edition mana burn", 20030727, "mana burn"),
    ("9th ed legend rule", 20070712, "legend rule"),
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


@pytest.mark.parametrize(("question", "rest"), [
    ("I've played since 4th edition, can a creature with summoning sickness block?",
     "I've played , can a creature with summoning sickness block?"),
    ("playing since 2003, how does the stack work", "playing , how does the stack work"),
    ("since alpha I wonder about walls", "I wonder about walls"),
    ("back in 2012 a friend told me deathtouch and trample assign 1 to each blocker, is that still true?",
     "a friend told me deathtouch and trample assign 1 to each blocker, is that still true?"),
    ("4th edition said walls can't attack; does that still apply?", "said walls can't attack; does that still apply?"),
    ("in 2005 this worked, how does it work nowadays", "this worked, how does it work nowadays"),
    ("I have a 4th edition Serra Angel, does it have vigilance?", "I have a Serra Angel, does it have vigilance?"),
    ("can I use my alpha Black Lotus in commander", "can I use my Black Lotus in commander"),
    ("a card printed in 2003 says remove from the game", "a card says remove from the game"),
])
def test_an_era_in_the_askers_story_asks_for_the_rules_in_force_now(question, rest):
    """An old player's "since 4th edition" is when they started, and "is that still true?" asks
    about today: the era's words leave the query, and nothing older is asked for."""
    era = read_era(question, 2026)
    assert (era.text, era.asks_for_history) == (rest, False)


@pytest.mark.parametrize(("question", "edition"), [
    ("what did the 4th Edition Rulebook say about walls", "4e"),  # the rulebook itself is asked about
    ("in 4th edition Serra Angel had no vigilance", "4e"),
    ("the 5th edition rules for banding", "5e"),
])
def test_an_edition_before_a_name_is_asked_about_unless_it_names_a_printing(question, edition):
    assert read_era(question, 2026).edition == edition


@pytest.mark.parametrize(("question", "edition"), [
    ("can I have an unlimited number of copies of Relentless Rats", None),  # an English word
    ("in beta, could walls attack", None),  # (a program's beta, in a bug report)
    ("does Alpha Authority give hexproof", None),  # a card's name
    ("in Beta, could walls attack", "alpha"),
    ("the Unlimited rules on banding", "alpha"),
    ("unlimited edition rules for banding", "alpha"),
    ("what did the alpha rules say about walls", "alpha"),
    ("alpha walls", "alpha"),
])
def test_the_first_editions_are_read_as_players_name_them(question, edition):
    assert read_era(question, 2026).edition == edition


def test_what_changed_since_an_edition_asks_about_every_era():
    assert read_era("what changed since 4th edition", 2026).old
    assert read_era("what has changed about mana burn", 2026).old


@pytest.mark.parametrize(("question", "old"), [
    ("if the creature is no longer on the battlefield does the ability resolve", False),
    ("my creature no longer has flying after the effect ends, can it block a flyer?", False),
    ("the spell originally targeted my creature, but it changed control", False),
    ("mana burn no longer exists?", True),
    ("is banding a thing anymore", True),
    ("how did it work originally", True),
    ("trample originally worked differently", True),
])
def test_no_longer_and_originally_ask_about_older_rules_only_when_said_of_the_rules(question, old):
    """A game's story says "no longer" and "originally" too; read as a question about older rules,
    today's rules lost their lead."""
    assert read_era(question, 2026).old is old
