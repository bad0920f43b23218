"""rulebase.ingest.cards.mtgjson and supplement: the 2022 card file merged into the current one
(its faces, rulings and foreign names; the current text wins), on small files and the real ones."""

from __future__ import annotations

import json
import lzma
import re
from pathlib import Path

import pytest

from rulebase.core.sources import Source, load_manifest
from rulebase.ingest.cards.oracle import parse_file
from rulebase.ingest.cards.supplement import card_cost

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def write(path: Path, value: object) -> Path:
    path.write_bytes(lzma.compress(json.dumps(value).encode()))
    return path


def source(path: Path, *also: Path) -> Source:
    return Source(id="cards", title="t", edition="cr2026", date="2026-06", lang="en", file=path.name,
                  format="oracle-cards", provenance="p", credit="c", path=path, also=also)


def old_face(name, cost, type_line, text, **more):
    return {"faceName": name, "side": "a", "manaCost": cost, "type": type_line, "text": text, "types": [],
            "supertypes": [], "subtypes": [], "keywords": None, "power": None, "toughness": None, "loyalty": None,
            "defense": None, **more}


@pytest.fixture
def small(tmp_path):
    current = [
        {"name": "Fire // Ice", "manaCost": "{1}{R}", "type": "Instant", "types": ["Instant"], "layout": "split",
         "text": "Fire deals 2 damage divided as you choose among one or two targets."},
        {"name": "Badger // Frolic", "manaCost": "{3}{G}", "type": "Creature", "types": ["Creature"],
         "layout": "adventure", "text": "New text.", "power": "3", "toughness": "4"},
        {"name": "Wrath of God", "manaCost": "{2}{W}{W}", "type": "Sorcery", "types": ["Sorcery"],
         "text": "Destroy all creatures. They can't be regenerated."}]
    old = {"meta": {}, "data": [
        {"name": "Fire // Ice", "layout": "split", "faces": [
            old_face("Fire", "{1}{R}", "Instant", "Fire deals 2 damage (old wording)."),
            old_face("Ice", "{1}{U}", "Instant", "Tap target permanent.\nDraw a card.")],
         "rulings": [{"date": "2021-06-18", "text": "Later ruling."}, {"date": "2018-12-07", "text": "Early ruling."},
                     {"date": "2021-04-16", "text": ""}],
         "foreignNames": {"German": {"name": "Feuer // Eis"}, "Italian": {"name": "Fire // Ice"}}},
        {"name": "Wrath of God", "layout": "normal", "faces": [old_face(None, "{2}{W}{W}", "Sorcery", "Old.")],
         "rulings": [], "foreignNames": {"Japanese": {"name": "神の怒り"}}},
        {"name": "Old Only", "layout": "normal", "faces": [old_face(None, "{G}", "Creature — Elf", "Old text.",
                                                                    power="1", toughness="1")],
         "rulings": [{"date": "2020-01-01", "text": "A ruling."}], "foreignNames": {}},
        {"no": "name"}]}
    return parse_file(source(write(tmp_path / "now.json.xz", current), write(tmp_path / "old.json.xz", old)))


def test_the_current_text_wins_and_the_old_file_fills_the_missing_face(small):
    fire = next(r for r in small.records if r.title == "Fire // Ice")
    first, ice = fire.card["faces"]
    assert first["text"].startswith("Fire deals 2 damage divided") and first["from"] == "2026-06"
    assert ice["text"] == "Tap target permanent.\nDraw a card." and ice["from"] == "2022-04-25"
    assert fire.card["missing"] == [] and "Draw a card." in fire.text
    assert fire.card["mana_cost"] == "{1}{R} // {1}{U}" and fire.card["mana_value"] == 4  # 709.4b
    assert fire.card["rulings"] == [{"date": "2018-12-07", "id": "card:fire-ice:ruling-1"},
                                    {"date": "2021-06-18", "id": "card:fire-ice:ruling-2"}]  # oldest first
    rulings = [r for r in small.records if r.parent == fire.id]
    assert [(r.id, r.kind, r.title, r.text) for r in rulings] == [
        ("card:fire-ice:ruling-1", "card-ruling", "Fire // Ice — ruling of 2018-12-07", "Early ruling."),
        ("card:fire-ice:ruling-2", "card-ruling", "Fire // Ice — ruling of 2021-06-18", "Later ruling.")]
    assert fire.card["foreign"] == {"German": "Feuer // Eis"}  # the English name again is no other name


def test_what_neither_file_holds_is_said_per_card_and_counted(small):
    badger = next(r for r in small.records if r.title == "Badger // Frolic")
    assert badger.card["faces"][1]["missing"] is True
    assert badger.card["missing"][0].startswith("second half's text (Frolic): in neither card file")
    assert "rulings (only the 2022 file has rulings, and it does not hold the card)" in badger.card["missing"]
    assert badger.card["mana_value"] == 4  # an adventurer card's: its main characteristics' (715.4)
    assert "faces in neither file 1" in small.notes[1] and small.notes[1].endswith("; rulings 3")
    assert "the files lack, per card: second half's text x1" in small.notes


def test_a_card_only_the_old_file_holds_is_a_card_said_so(small):
    only = next(r for r in small.records if r.title == "Old Only")
    assert only.text == "Old text." and only.card["text_of"] == "2022-04-25"
    assert only.card["missing"][0].startswith("current Oracle text (not in the current file")
    assert only.order > max(r.order for r in small.records if r.kind == "card" and r.title != "Old Only")


def test_what_the_old_file_cannot_give_is_a_warning_with_its_place(small):
    messages = [str(w) for w in small.warnings]
    assert "old.json.xz:1: data[0] (Fire // Ice): 1 ruling(s) without a date or text: skipped" in messages
    assert "old.json.xz:1: data[3]: not a card (no name or faces): skipped" in messages


def test_a_split_card_with_a_half_unknown_has_no_mana_value():
    faces = [{"mana_cost": "{1}{R}"}, {"mana_cost": None, "missing": True}]
    assert card_cost("split", faces, "{1}{R}") == ("{1}{R}", None)
    assert card_cost("transform", faces, "{U}") == ("{U}", 1)


@pytest.fixture(scope="module")
def real():
    cards = next(s for s in load_manifest() if s.id == "cards")
    parsed = parse_file(cards)
    return parsed, {r.title: r for r in parsed.records if r.kind == "card"}


def test_the_real_files_merged(real):
    parsed, by_name = real
    assert len(by_name) == 34632 + 23  # the 2022 file's cards the current one lacks (9 Arena, 14 Secret Lair)
    records = {r.id: r for r in parsed.records if r.kind == "card-ruling"}  # one per text
    held = [(card, ruling) for card in by_name.values() for ruling in card.card["rulings"]]
    assert len(held) == 45079 and len({card.id for card, _ in held}) == 13287 and len(records) == 23596
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d", ruling["date"]) for _, ruling in held)
    assert all(card.id in (records[ruling["id"]].parent, *records[ruling["id"]].refs_in) for card, ruling in held)
    names = records["card:fire-ice:ruling-5"]  # "Each split card has two names...", on every split card
    assert names.title == "Fire // Ice — ruling of 2021-06-18" and names.parent == "card:fire-ice"
    assert [str(w) for w in parsed.warnings] == [
        "mtgjson-cards-2022-04-25.json.xz:1: data[22714] (Wandering Archaic // Explore the Vastlands): "
        "1 ruling(s) without a date or text: skipped"]
    fire, commit = by_name["Fire // Ice"], by_name["Commit // Memory"]
    assert fire.card["mana_value"] == 4 and fire.card["faces"][1]["text"] == "Tap target permanent.\nDraw a card."
    assert commit.card["mana_value"] == 10 and commit.card["faces"][1]["mana_value"] == 6
    borrower = by_name["Brazen Borrower // Petty Theft"]
    assert borrower.card["faces"][1]["type_line"] == "Instant — Adventure" and borrower.card["mana_value"] == 3
    delver = by_name["Delver of Secrets // Insectile Aberration"]
    assert "transform this creature" in delver.text and delver.card["faces"][1]["mana_value"] == 1  # 202.3b
    bruna = by_name["Bruna, the Fading Light // Brisela, Voice of Nightmares"]  # a meld back: its own entry
    assert bruna.card["faces"][1]["power"] == "9" and bruna.card["faces"][1]["from"] == "2026-06"
    assert by_name["Wrath of God"].card["foreign"]["German"] == "Zorn Gottes"
    filled = parsed.meta["filled"]
    assert filled["faces filled from the 2022-04-25 file"] == 217 and filled["faces in neither file"] == 235
    assert filled["rulings"] == 45079 and parsed.meta["missing"]["second half's text"] == 235
