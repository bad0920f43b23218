"""`define` on the real corpus: the text that defines a term in each document, in every language."""

from __future__ import annotations

from rulebase.rules.definitions import curated_names, define, loose_term


def ids(found):
    return [r.id for r in found.definitions]


def test_mana_burn_in_every_edition_and_in_hungarian(library):
    """4th Edition names mana burn inside its Mana pool entry; the Hungarian guide in a sentence
    ("Ezt manaégésnek hívjuk"), whose name only the curated topic pairs with 'mana burn'."""
    names = curated_names(library.corpus_dir, "mana burn")
    assert "manaégés" in names
    found = define(library.store, "mana burn", None, names)
    assert ids(found) == ["rb4e:glossary.mana-pool", "ck1999:G.25.1", "hu-guide:altalanos-tudnivalok.1",
                          "cr2008:glossary.mana-burn", "cr:glossary.mana-burn@2019-05-03"]
    assert "This kind of damage is called mana burn." in found.definitions[0].text
    assert found.definitions[2].text.endswith("Ezt manaégésnek hívjuk.")


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


def test_loose_terms_meet():
    assert loose_term("Removed from the game") == loose_term("remove from game")
