"""The forum-thread rulebook parser on the real corpus (rb4e, rb5e) and on small fixtures."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from rulebase.core.sources import Source, load_manifest
from rulebase.ingest import ingest_source
from rulebase.ingest.rulebooks.markup import LOST_SYMBOL_FLAG
from rulebase.ingest.rulebooks.rulebook import parse
from rulebase.ingest.text import Parsed

FIXTURES = Path(__file__).parent / "fixtures"
CHROME = ["Private Mod Note", "The Collection", "Goblins have poor impulse control", "Every English card",
          "Rollback Post", "@Savage_Dream_Lord", "ebay", "4th Edition Part 1", "Wayward Soul"]
GLOSSARY_4E = ["Attack", "Bury", "Basic land", "Casting cost", "Color", "Controller", "Counter (verb)",
               "Counter (noun)", "Damage prevention", "Graveyard", "Land", "Mana pool", "Permanents",
               "Play (in play)", "Power", "Remove from game", "Sacrifice", "Source of damage",
               "Summoning sickness", "Target", "Token", "Toughness", "Winning"]


@cache
def parsed(source_id: str) -> Parsed:
    source = next(s for s in load_manifest() if s.id == source_id)
    return ingest_source(source).parsed


def by_id(source_id: str) -> dict:
    return {r.id: r for r in parsed(source_id).records}


def fixture_source(name: str = "forum-thread.txt") -> Source:
    return Source(id="fx", title="fixture", edition="4e", date="1995", lang="en", file=name,
                  format="forum-rulebook", provenance="test", credit="test", path=FIXTURES / name, part="4e")


def test_glossary_4e_has_exactly_the_23_terms_in_order():
    gloss = [r for r in parsed("rb4e").records if r.kind == "glossary"]
    assert [r.title for r in gloss] == GLOSSARY_4E
    assert gloss[0].id == "rb4e:glossary.attack"
    assert gloss[0].parent == "rb4e:glossary-and-notes"
    assert by_id("rb4e")["rb4e:glossary.counter-verb"].aliases == ["Counter"]
    attack = by_id("rb4e")["rb4e:glossary.attack"]
    assert attack.text.startswith("The attack is one possible action you can take during your main phase.")
    assert "\n\n1. Announce your attack. This is your opponent's last chance to use pre-attack effects." in attack.text
    assert [(ref.key, ref.target) for ref in attack.refs] == [("damage-prevention", "rb4e:glossary.damage-prevention")]


def test_basic_spellcasting_heading_on_page_11():
    rec = by_id("rb4e")["rb4e:basic-spellcasting"]
    assert (rec.kind, rec.title, rec.pages, rec.line) == ("heading", "BASIC SPELLCASTING", ["11"], 195)
    first = by_id("rb4e")["rb4e:basic-spellcasting.1"]
    assert first.parent == "rb4e:basic-spellcasting" and first.section == ["BASIC SPELLCASTING"]


def test_more_on_the_turn_sequence_recovered_once_from_second_copy():
    recs = [r for r in parsed("rb4e").records if "MORE ON THE TURN SEQUENCE" in r.raw]
    assert [(r.id, r.kind, r.line, r.pages) for r in recs] == [
        ("rb4e:more-on-the-turn-sequence", "heading", 2759, ["40"])]
    nxt = by_id("rb4e")["rb4e:more-on-the-turn-sequence.1"]
    assert nxt.text == ("We outlined the phases of a turn earlier; now it's time to examine each of them "
                        "a little more closely.")
    assert any("'MORE ON THE TURN SEQUENCE'" in n and "829-836" in n for n in parsed("rb4e").notes)


def test_token_sentence_in_one_record_across_the_page_break():
    # `--63` ENDS page 63 (the book's own "see p. 11" references confirm the convention), so the
    # sentence runs from page 63 onto page 64 in this numbering.
    recs = [r for r in parsed("rb4e").records
            if "If any effect takes a token out of play, remove it from the game." in r.text]
    assert [(r.id, r.pages) for r in recs] == [("rb4e:glossary.token", ["63", "64"])]
    assert "remove it from the\n--63\ngame." in recs[0].raw


@pytest.mark.parametrize("source_id", ["rb4e", "rb5e"])
def test_no_forum_chrome_in_any_record(source_id):
    for rec in parsed(source_id).records:
        for chrome in CHROME:
            assert chrome.lower() not in rec.text.lower(), (rec.id, chrome)
            if rec.kind != "note" or rec.id != "rb5e:part-2-missing":
                assert chrome.lower() not in rec.raw.lower(), (rec.id, chrome)


@pytest.mark.parametrize("source_id", ["rb4e", "rb5e"])
def test_no_long_sentence_twice(source_id):
    counts: Counter = Counter()
    for rec in parsed(source_id).records:
        for sentence in re.split(r"(?<=[.!?])\s+", rec.text.replace("\n", " ")):
            if len(sentence) > 60:
                counts[sentence] += 1
    assert [s for s, n in counts.items() if n > 1] == []
    assert len(counts) > (700 if source_id == "rb4e" else 150)


def test_set_aside_counts():
    assert parsed("rb4e").set_aside == Counter({"duplicate-copy": 1498, "signature": 23, "mod-chrome": 10,
                                                "bbcode": 6, "reply": 2, "post-title": 1})
    assert parsed("rb5e").set_aside == Counter({"duplicate-copy": 363, "signature": 37, "reply": 33,
                                                "mod-chrome": 11, "post-title": 1, "transcriber-markup": 1})


def test_rb5e_pages_and_missing_part_two():
    recs = parsed("rb5e").records
    pages = []
    for rec in recs:
        pages.extend(p for p in rec.pages if p not in pages)
    # document order: the paragraph cut by the tip sheet (pp. 12-13) gets page 14 before the sheet
    assert sorted(pages, key=lambda p: -1 if p == "ii" else int(p)) == ["ii"] + [str(n) for n in range(1, 16)]
    assert len(pages) == 16
    note = by_id("rb5e")["rb5e:part-2-missing"]
    assert note.kind == "note" and note.line == 3840 and "stops at the end of page 15" in note.text
    assert any("part 2 of this rulebook was never posted" in n for n in parsed("rb5e").notes)
    last = by_id("rb5e")["rb5e:playing-spells-and-abilities.2"]
    assert last.number == "1" and last.text.startswith("1. Review your hand")
    assert "text stops here, at the end of page 15: part 2 was never posted" in last.flags


def test_rb5e_structure():
    recs = by_id("rb5e")
    assert recs["rb5e:front.1"].pages == ["ii"] and recs["rb5e:front.1"].kind == "note"
    assert recs["rb5e:welcome-to-magic-the-gathering"].title == "Welcome to Magic: The Gathering!"
    assert recs["rb5e:object-of-the-game"].section == ["Welcome to Magic: The Gathering!", "Object of the Game"]
    assert recs["rb5e:section-i-learning-the-game"].kind == "section"
    assert recs["rb5e:summary-of-play"].kind == "heading"
    assert recs["rb5e:playing-spells-and-abilities"].pages == ["15"]
    example = recs["rb5e:here-critter-critter.2"]
    assert example.kind == "example" and example.parent == "rb5e:here-critter-critter.1"
    assert example.text.startswith("EXAMPLE: If you use the Hurloon Minotaur")
    table = recs["rb5e:other-types-of-spells.4"]
    assert (table.kind, table.title, table.pages) == ("table", "DON'T FORGET...", ["12", "13"])
    assert table.text.split("\n\n")[1] == ("Life Total\nEach player starts the game with 20 life. If a creature "
                                           "damages you, deduct the damage from your life total. If you drop to "
                                           "0 life or less, you lose the game.")
    cut = recs["rb5e:other-types-of-spells.3"]  # cut by the two-page tip sheet
    assert cut.pages == ["11", "14"]
    assert "take effect once and are then put into your graveyard. Each of these spells" in cut.text


def test_raise_dead_record_flagged_and_uses_wrapped_copy():
    recs = [r for r in parsed("rb4e").records if "Raise Dead, a sorcery" in r.text]
    assert len(recs) == 1
    rec = recs[0]
    assert LOST_SYMBOL_FLAG in rec.flags
    assert rec.line == 2443 and rec.raw.startswith(
        "Keisha really wishes she had a Raise Dead, a sorcery with a casting cost of\n. Raise Dead")
    flagged = sorted(r.line for r in parsed("rb4e").records if LOST_SYMBOL_FLAG in r.flags)
    assert flagged == [196, 212, 313, 452, 807, 1048, 1138, 1504, 2443]


def test_page_refs_and_glossary_refs_resolved():
    refs = {(r.id, ref.label): ref for r in parsed("rb4e").records for ref in r.refs}
    ref = refs[("rb4e:the-cards-continued.5", '"Basic Spellcasting" on p. 11')]
    assert (ref.kind, ref.key, ref.target) == ("page", "p11", "rb4e:basic-spellcasting")
    ref = refs[("rb4e:glossary.damage-prevention", '"Resolving Fast Effects" on p. 46')]
    assert ref.target == "rb4e:resolving-fast-effects"
    ref = refs[("rb4e:sample-game-continued-2.7", 'see "mana pool" in the glossary')]
    assert (ref.kind, ref.key, ref.target) == ("glossary", "mana-pool", "rb4e:glossary.mana-pool")
    ref = refs[("rb4e:glossary.target", "permanent")]
    assert ref.target == "rb4e:glossary.permanents"
    refs5 = {ref.label: ref for r in parsed("rb5e").records for ref in r.refs}
    assert refs5['"More About Permanents", p. 14'].target == "rb5e:more-about-permanents"
    assert refs5['"Regeneration", p. 19'].target is None
    assert refs5['"Regeneration", p. 19'].reason == "page 19 is beyond the end of this transcription (page 15)"


def test_skipped_page_marker_spans_two_pages():
    rec = by_id("rb4e")["rb4e:creature-special-abilities.14"]
    assert rec.text.startswith("Banding: Creatures with the ability")
    assert rec.pages == ["36", "37"]
    assert "page marker --36 missing: text spans pages 36-37" in rec.flags
    ad = [r for r in parsed("rb4e").records if r.text.startswith("[two page advertisement")][0]
    assert ad.pages == ["70", "71"]
    back = [r for r in parsed("rb4e").records if r.text.startswith("[fold-out back page")][0]
    assert back.pages == ["72"] and back.text.endswith("a two-page subscription form]")


def test_paragraph_breaks_sample():
    recs = by_id("rb4e")
    assert recs["rb4e:learning-the-rules.3"].text == ("Occasionally, you may run across a card that contradicts "
                                                      "the rules. In such a situation, the card always takes "
                                                      "precedence.")
    assert recs["rb4e:creature-combat.4"].text == "* Declare attackers\n* Declare defenders\n* Resolve damage"
    assert recs["rb4e:creature-combat.5"].text.startswith("To begin the attack, you must announce")
    quizzes = [r.text[:16] for r in parsed("rb4e").records if r.kind == "quiz"]
    assert quizzes[-5:] == ["Quiz, part two: ", "Quiz, part three", "Quiz, part four:", "Quiz, part five:",
                            "Quiz, part six: "]
    assert recs["rb4e:credits.17"].text == "--Our condolences to everyone who has been killed by an Ornithopter.--"
    assert recs["rb4e:glossary.summoning-sickness"].text.endswith("Creatures suffering from summoning sickness "
                                                                  "can be used to defend.")
    assert "stress-testing every aspect" in recs["rb4e:credits.13"].text


def test_markup_and_symbols_in_real_records():
    recs = by_id("rb4e")
    minotaur = recs["rb4e:the-cards-continued.5"]
    assert "The cost to bring the Hurloon Minotaur into play is {1}{R}{R}." in minotaur.text
    assert "<1RR>" in minotaur.raw
    assert recs["rb4e:learning-the-rules.1"].text.startswith("Like most games, Magic: The Gathering\u2122 is easier")
    assert recs["rb4e:getting-started.3"].terms == ["library", "graveyard", "territory"]
    email = recs["rb4e:getting-help.3"]
    assert "send e-mail to questions@wizards.com and we'll show you" in email.text


def test_every_text_is_derivable_and_raw_is_in_the_source():
    source = next(s for s in load_manifest() if s.id == "rb4e")
    text = source.path.read_text(encoding="utf-8")
    for rec in parsed("rb4e").records:
        for line in rec.raw.split("\n"):
            assert line in text, rec.id


def test_fixture_thread():
    source = fixture_source()
    result = parse(source.path.read_text(encoding="utf-8"), source)
    recs = {r.id: r for r in result.records}
    assert list(recs) == ["fx:front.1", "fx:first-heading", "fx:first-heading.1", "fx:first-heading.2",
                          "fx:spells", "fx:spells.1", "fx:spells.2", "fx:spells.3", "fx:spells.4", "fx:glossary",
                          "fx:glossary.attack", "fx:glossary.token", "fx:glossary.1"]
    para = recs["fx:spells.1"]
    assert para.text == ('A spell with a casting cost of {1}{R}{R} needs two red mana, and the {T} symbol means '
                         'tap. A card with and {R} in its cost is black and red. Keep on reading the creatures '
                         'section and the stress-testing notes. See "First Heading" on p. 1 for more.')
    assert para.pages == ["1", "2", "3"]
    assert para.flags == ["page marker --2 missing: text spans pages 2-3", LOST_SYMBOL_FLAG]
    assert para.refs[0].target == "fx:first-heading"
    assert recs["fx:first-heading.1"].terms == ["graveyard", "library"]
    assert recs["fx:spells.3"].text == "--Our condolences to the Ornithopter.--"
    assert recs["fx:glossary.token"].pages == ["4"]
    assert recs["fx:spells"].line == 53
    assert result.set_aside == Counter({"duplicate-copy": 27, "signature": 10, "mod-chrome": 5, "reply": 2,
                                        "post-title": 2})


def test_paragraphs_that_open_on_their_subject_take_it_as_title():
    rb4e, rb5e = by_id("rb4e"), by_id("rb5e")
    assert rb4e["rb4e:creature-special-abilities.30"].title == "Rampage"
    assert rb4e["rb4e:creature-special-abilities.30"].text.startswith("Rampage: After defense is chosen")
    assert rb4e["rb4e:enchantments.4"].title == "Enchant world"
    assert rb4e["rb4e:the-cards-continued.4"].title == "Card Name"
    assert rb5e["rb5e:the-flow-of-the-game.2"].title == "Untap"
    assert rb5e["rb5e:object-of-the-game.1"].title is None  # "Magic: The Gathering" is not a label
