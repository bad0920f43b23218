"""Older rules' names for today's terms, read from the glossary in force now."""

from __future__ import annotations

import pytest

from rulebase.search.term_history import older_names_in, read_renames, renamed_in, today_name

# As the 2026 glossary words them (its quotation marks included).
IN_PLAY = ("In Play (Obsolete)", "An obsolete term for the battlefield. Cards that were printed with text that "
           "contain the phrases “in play,” “from play,” “into play,” or the like are referring to the battlefield "
           "and have received errata in the Oracle card reference. See Battlefield.")
REMOVE = ("Remove from the Game (Obsolete)", "“Remove [something] from the game” is an obsolete term for “exile "
          "[something].” “The removed card” is an obsolete term for “the exiled card.” The removed-from-the-game "
          "zone is an obsolete term for the exile zone. Cards with that text have received errata in the Oracle "
          "card reference. See Exile.")
SUMMON = ("Summon (Obsolete)", "Older creature cards were printed with “Summon [creature type]” on their type "
          "lines. All such cards have received errata in the Oracle card reference to say “Creature — [creature "
          "type].” (Many of these cards’ creature types have also been updated.) See Creature.")
MANA_BURN = ("Mana Burn (Obsolete)", "Older versions of the rules stated that unspent mana caused a player to lose "
             "life; this was called “mana burn.” That rule no longer exists.")
BURY = ("Bury (Obsolete)", "A term that meant “put [a permanent] into its owner’s graveyard.” In general, cards "
        "that were printed with the term “bury” have received errata in the Oracle card reference to read, "
        "“Destroy [a permanent]. It can’t be regenerated,” or “Sacrifice [a permanent].”")


@pytest.mark.parametrize("text, name", [
    ("An obsolete term for mana value. Cards printed with this term have received errata in the Oracle card "
     "reference.", "mana value"),
    ("An obsolete keyword ability that has been renamed. See rule 702.89, “Umbra Armor.”", "Umbra Armor"),
    ("An older name for the Commander casual variant. See rule 903, “Commander.”", "Commander"),
    ("A term that meant “can’t be blocked.” Cards that used this term have received errata in the Oracle card "
     "reference.", "can’t be blocked"),
    (IN_PLAY[1], "battlefield"),
    (REMOVE[1], "exile"),
])
def test_the_entry_says_what_the_term_is_called_today(text, name):
    assert today_name(text) == name


@pytest.mark.parametrize("entry", [MANA_BURN, BURY])
def test_a_term_gone_from_the_rules_is_no_rename(entry):
    """Mana burn names nothing today; bury's "meaning" is a definition with a placeholder."""
    assert read_renames([entry]) == []


@pytest.mark.parametrize("question, found", [
    ("can I tap a creature for mana the turn it came into play", ("into play", "battlefield")),
    ("is a card removed from the game face down", ("removed from the game", "exile")),
    ("remove target creature from the game", ("remove target creature from the game", "exile")),
    ("does it summon a creature", ("summon a creature", "Creature")),
])
def test_a_question_in_the_older_words_is_found(question, found):
    assert renamed_in(question, read_renames([IN_PLAY, REMOVE, SUMMON])) == [found]


def test_a_question_in_todays_words_finds_the_older_name():
    """For a question about the rules of a day before the rename."""
    renames = read_renames([IN_PLAY, REMOVE])
    assert older_names_in("which cards are exiled", renames) == [("exiled", "Remove from the Game")]
    assert older_names_in("cards on the battlefield", renames) == [("battlefield", "In Play")]


@pytest.mark.parametrize("question", ["when does summoning sickness end", "can the player play a land",
                                      "is the exiled card face down", "instant played in response"])
def test_todays_words_are_no_older_term(question):
    """Inflections are few ("removed", "comes"): "summoning sickness" and "player" are today's
    words, and so is the new name an entry quotes ("the exiled card")."""
    assert renamed_in(question, read_renames([IN_PLAY, REMOVE, SUMMON])) == []


def test_the_real_glossary_renames(library):
    renames = {r.old: (r.today, r.since) for r in library.searcher.history.renames()}
    # (since: the first release whose glossary called it obsolete)
    assert {"Converted Mana Cost": ("mana value", 20210422), "In Play": ("battlefield", 20090711),
            "Tribal": ("Kindreds", 20240607), "Totem Armor": ("Umbra Armor", 20240607),
            "EDH": ("Commander", 20110204)}.items() <= renames.items()
    assert not {"Mana Burn", "Interrupt", "Bury", "Damage Assignment Order"} & set(renames)


def test_a_pattern_is_compiled_only_for_a_question_holding_its_words():
    from rulebase.search.term_history import _compiled

    rename = read_renames([REMOVE])[0]
    _compiled.cache_clear()
    assert rename.pattern.search("can i block with a bear") is None
    assert _compiled.cache_info().currsize == 0  # no word of the spelling: nothing compiled
    assert rename.pattern.search("remove it from the game").group(0) == "remove it from the game"
    assert _compiled.cache_info().currsize == 1


def test_a_spelling_with_a_curly_apostrophe_reads_a_question_with_either():
    unblockable = read_renames([("Unblockable (Obsolete)", "A term that meant “can’t be blocked.” Cards that used this "
                                 "term have received errata in the Oracle card reference.", 20150101)])
    for question in ("a creature that can’t be blocked", "a creature that can't be blocked"):
        assert older_names_in(question, unblockable) == [("can't be blocked", "Unblockable")]
