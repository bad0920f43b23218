"""`define` on the real corpus: the text that defines a term in each document, in every language."""

from __future__ import annotations

from rulebase.core.eras import day, show
from rulebase.rules.definitions import curated_names, define, loose_term, opening_keys


def ids(found):
    return [r.id for r in found.definitions]


def test_mana_burn_in_every_edition_and_in_hungarian(library):
    """4th Edition names mana burn inside its Mana pool entry; the Hungarian guide in a sentence
    ("Ezt manaégésnek hívjuk"), whose name only the curated topic pairs with 'mana burn'."""
    names = curated_names(library.corpus_dir, "mana burn")
    assert "manaégés" in names
    found = define(library.store, "mana burn", None, names)
    # today's glossary says the rule is gone; then every era's wording, newest to oldest
    assert ids(found) == ["cr:glossary.mana-burn@2019-05-03", "cr:glossary.mana-burn@2008-07-15",
                          "cr:glossary.mana-burn@2001-09-24", "cr:glossary.mana-burn@1999-04-23",
                          "hu-guide:altalanos-tudnivalok.1", "ck1999:G.25.1", "rb4e:glossary.mana-pool"]
    assert "That rule no longer exists." in found.definitions[0].text
    assert "This kind of damage is called mana burn." in found.definitions[-1].text
    assert found.definitions[4].text.endswith("Ezt manaégésnek hívjuk.")
    # the bundled 2008 release prints the 2003-2009 wording: named under it, not listed again
    assert found.entries[1].same_text == ["cr2008:glossary.mana-burn"]
    assert [(e.era, show(e.first), show(e.last), e.now) for e in found.entries[:2]] == [
        ("cr2009 to cr2026", "2009-07-11", "now", True), ("cr2003 to 10e", "2003-07-01", "2009-07-10", False)]


def test_without_the_curated_name_the_guide_is_not_guessed(library):
    assert "hu-guide:altalanos-tudnivalok.1" not in ids(define(library.store, "mana burn"))


def test_a_hungarian_term_finds_its_naming_sentence(library):
    assert ids(define(library.store, "manaégés")) == ["hu-guide:altalanos-tudnivalok.1"]
    assert ids(define(library.store, "manaeges")) == ["hu-guide:altalanos-tudnivalok.1"]


def test_a_rule_heading_is_defined_by_the_rule_that_says_what_it_does(library):
    found = ids(define(library.store, "trample"))
    assert "ck1999:A.27.2" in found and "ck1999:A.27.1" not in found  # 'The ability is written "Trample".'
    assert "ck1999:G.25.1" in ids(define(library.store, "mana burn"))  # G.25's first rule


def test_a_titled_paragraph_brings_the_paragraphs_that_continue_it(library):
    found = define(library.store, "trample")
    book = [r for r in found.definitions if r.source == "rb4e"]
    assert [r.id for r in book] == ["rb4e:creature-special-abilities.8", "rb4e:creature-special-abilities.9",
                                    "rb4e:creature-special-abilities.10"]
    assert book[1].text.startswith("If an attacking creature has trample ability, it can roll right over")
    # the next titled paragraph (Flying) ends the entry
    assert "rb4e:creature-special-abilities.11" not in ids(found)


def test_a_paragraph_opening_with_the_term_defines_it_where_nothing_else_does(library):
    """The 4th Edition rulebook has no entry for interrupts: "Interrupts always happen
    'faster-than-instantly' ..." opens the paragraph that explains them (`define interrupt` had no
    4th Edition entry, though `search` finds its interrupt passages)."""
    found = define(library.store, "interrupt")
    fourth = [e for e in found.entries if e.era == "4e"]
    assert [e.record.id for e in fourth] == ["rb4e:resolving-fast-effects.2"]
    assert fourth[0].record.text.startswith('Interrupts always happen "faster-than-instantly"')
    assert "alpha:spell-types.17" in ids(found)  # the 1993 book's titled paragraph, as before
    assert [r.id for r in define(library.store, "legend").definitions if r.source == "rb4e"] == ["rb4e:creatures.6"]
    # a paragraph whose subject only starts with the term, or that is no definition, is not one
    assert opening_keys(library.store.get("rb4e:creatures.1")) == set()  # "Summon spells bring creatures ..."
    assert opening_keys(library.store.get("alpha:spell-types.13")) == set()  # "An enchantment can even be used ..."
    # a document with a titled paragraph or a glossary entry keeps it
    assert [r.id for r in define(library.store, "trample").definitions if r.source == "rb4e"][0] == \
        "rb4e:creature-special-abilities.8"


def test_loose_terms_meet():
    assert loose_term("Removed from the game") == loose_term("remove from game")


def test_summoning_sickness_now_first_with_the_rule_it_cites_then_history(library):
    """Today's glossary entry is "Summoning Sickness Rule" (2009 on); it cites rule 302.6, shown
    as in force now right after it; then each era's entry, newest to oldest, down to 1995."""
    found = define(library.store, "summoning sickness")
    first, cited, *history = found.entries
    assert (first.record.id, first.now, first.cited) == ("cr:glossary.summoning-sickness-rule@2019-05-03", True, False)
    assert (cited.record.id, cited.now, cited.cited) == ("cr:302.6@2019-05-03", True, True)
    assert not any(e.now for e in history)
    assert [e.last for e in history] == sorted((e.last for e in history), reverse=True)
    assert [e.record.id for e in history][-2:] == ["ck1999:G.39.1", "rb4e:glossary.summoning-sickness"]
    assert history[0].record.id == "cr:glossary.summoning-sickness@2008-07-15"
    assert [e.era for e in history][-2:] == ["5e", "4e"]


def test_as_of_puts_that_days_rules_first_and_nothing_newer(library):
    found = define(library.store, "mana burn", day("2005-01-01"))
    assert [(e.record.id, e.now, e.cited) for e in found.entries[:2]] == [
        ("cr:glossary.mana-burn@2003-07-01", True, False), ("cr:300.3@2003-07-01", True, True)]
    assert all(e.first <= day("2005-01-01") for e in found.entries)
    assert "cr:glossary.mana-burn@2019-05-03" not in ids(found)


def test_an_unknown_term_suggests_each_name_once_and_an_abbreviations_term_first(library):
    """'trampel' listed "trample, trample, rampage, rampage" (one title per era); "ETB" is no
    glossary term, but the glossary's Enters the Battlefield is what it abbreviates."""
    import pytest

    from rulebase.core.errors import NotFound

    with pytest.raises(NotFound) as typo:
        define(library.store, "trampel")
    assert typo.value.suggestions == ["trample"]  # not "rampage, transmute, triple, tribal"
    with pytest.raises(NotFound) as nothing_like:  # 'define flurble' offered "double"
        define(library.store, "flurble")
    assert nothing_like.value.suggestions == []
    with pytest.raises(NotFound) as begun:
        define(library.store, "tramp")
    assert begun.value.suggestions == ["trample", "trample over planeswalkers"]
    with pytest.raises(NotFound) as abbreviation:
        define(library.store, "ETB")
    assert abbreviation.value.suggestions[0] == "enters the battlefield"
    with pytest.raises(NotFound) as two:  # double strike or draw step: both offered
        define(library.store, "DS")
    assert {"double strike", "draw step"} <= set(two.value.suggestions)
