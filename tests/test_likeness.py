"""Names alike (core/likeness.py): the names that hold the words typed, for a card's 'did you mean'."""

from __future__ import annotations

import pytest

from rulebase.core.errors import NotFound
from rulebase.core.likeness import holding_words
from rulebase.rules.cards import find


def test_the_names_holding_every_word_typed_shortest_first():
    names = ["lightning bolt", "jolt", "boil", "bolt of keranos", "boltwave", "tax bolt"]
    assert holding_words("bolt", names) == ["tax bolt", "lightning bolt", "bolt of keranos"]
    assert holding_words("bolt lightning", names) == ["lightning bolt"]
    assert holding_words("", names) == [] and holding_words("zzq", names) == []
    assert holding_words("bolt", names, limit=1) == ["tax bolt"]


@pytest.mark.parametrize("typed, meant", [("bolt", "Lightning Bolt"), ("ancestral", "Ancestral Recall"),
                                          ("Lightening Bolt", "Lightning Bolt")])
def test_a_word_of_a_card_name_offers_the_cards_holding_it(library, typed, meant):
    """`card bolt` offered 'Jolt, Boil' (one slip from 'bolt'), `card ancestral` three other
    Ancestral cards, never the ones meant."""
    with pytest.raises(NotFound) as missing:
        find(library.store, typed)
    assert meant in missing.value.suggestions
