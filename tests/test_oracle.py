"""rulebase.ingest.cards.oracle and mana: the bundled card file read into one record per card."""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest

from rulebase.core.cardnames import before_comma, face_names, fold_name
from rulebase.core.errors import SourceError
from rulebase.core.sources import Source
from rulebase.ingest.cards.mana import kinds, mana_value
from rulebase.ingest.cards.oracle import parse_file

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def source(path: Path) -> Source:
    return Source(id="cards", title="t", edition="cr2026", date="2026-06", lang="en", file=path.name,
                  format="oracle-cards", provenance="p", credit="c", path=path)


@pytest.fixture(scope="module")
def parsed():
    return parse_file(source(CORPUS / "oracle-cards-2026.json.xz"))


@pytest.fixture(scope="module")
def by_name(parsed):
    return {r.title: r for r in parsed.records}


def test_every_entry_is_a_card_or_a_face_of_one(parsed):
    entries = json.loads(lzma.decompress((CORPUS / "oracle-cards-2026.json.xz").read_bytes()))
    assert len(entries) == 35033
    backs = sum(1 for e in entries if e.get("face") == "back")
    assert backs == 401
    assert len(parsed.records) == len(entries) - backs and not parsed.warnings
    faces = {alias for r in parsed.records for alias in r.aliases}
    assert all(e["name"] in faces for e in entries if e.get("face") == "back")
    assert parsed.notes[0].startswith("34632 cards from 35033 entries (401 back faces joined")


def test_a_transform_card_holds_its_back_face(by_name):
    delver = by_name["Delver of Secrets // Insectile Aberration"]
    assert [f["name"] for f in delver.card["faces"]] == ["Delver of Secrets", "Insectile Aberration"]
    assert delver.card["faces"][1]["text"] == "Flying" and delver.card["faces"][1]["power"] == "3"
    assert delver.card["missing"] == [] and "Insectile Aberration" in delver.aliases


def test_what_the_file_lacks_is_said_per_card_never_invented(by_name, parsed):
    fire = by_name["Fire // Ice"]
    assert fire.card["missing"] == ["second half's text (Ice)"]
    assert fire.card["faces"][1] == {"name": "Ice", "mana_cost": None, "type_line": "", "text": "", "power": None,
                                     "toughness": None, "loyalty": None, "defense": None, "mana_value": None,
                                     "missing": True, "from": None}
    assert "Ice" not in fire.text.split()
    battle = next(r for r in parsed.records if "Battle" in r.card["types"])
    assert "defense (a battle's)" in battle.card["missing"]
    assert any(note.startswith("the files lack, per card: second half's text x") for note in parsed.notes)


def test_arena_versions_are_cards_of_their_own(by_name, parsed):
    arena = [r for r in parsed.records if r.card["arena"]]
    assert len(arena) == 217 and all(r.title.startswith("A-") for r in arena)
    assert not by_name["Humility"].card["arena"]


def test_card_fields(by_name):
    saga = by_name["Urza's Saga"]
    assert saga.card["types"] == ["Enchantment", "Land"] and saga.card["subtypes"] == ["Urza's", "Saga"]
    assert saga.card["layout"] == "saga" and saga.card["mana_value"] == 0 and saga.raw == ""
    assert saga.text.startswith("(As this Saga enters and after your draw step, add a lore counter.")
    assert by_name["Blood Moon"].card["mana_cost"] == "{2}{R}" and by_name["Blood Moon"].card["mana_value"] == 3
    assert by_name["Dismember"].card["mana_value"] == 3  # each Phyrexian symbol counts 1 (202.3g)


@pytest.mark.parametrize("cost, value, found", [
    ("{X}{G}{G}{G}", 3, ["X"]), ("{1}{B/P}{B/P}", 3, ["Phyrexian"]), ("{2/W}{2/W}", 4, ["hybrid"]),
    ("{1}{G/W}{G/W}", 3, ["hybrid"]), ("{S}{S}", 2, ["snow"]), (None, 0, []), ("{HW}", 0.5, [])])
def test_mana_value_as_202_3_reads_it(cost, value, found):
    assert mana_value(cost) == value and kinds(cost) == found


def test_names_as_players_type_them():
    assert fold_name("Urza's Saga") == "urzas saga" and fold_name("Æther Vial") == "aether vial"
    assert fold_name("Lim-Dûl's Vault") == "lim duls vault"
    assert face_names("Brazen Borrower // Petty Theft") == ["Brazen Borrower", "Petty Theft"]
    assert before_comma("Thalia, Guardian of Thraben") == "Thalia" and before_comma("Humility") is None


def test_an_entry_that_cannot_be_placed_is_reported_with_its_place(tmp_path):
    entries = [{"name": "Good Card", "manaCost": "{1}", "type": "Artifact", "types": ["Artifact"], "text": "Hi."},
               {"no": "name"},
               {"name": "Lost Back", "face": "back", "front": "Nobody", "type": "Creature", "types": ["Creature"]},
               {"name": "Odd", "types": "Creature"}]
    path = tmp_path / "cards.json.xz"
    text = json.dumps(entries)
    path.write_bytes(lzma.compress(text.encode()))
    parsed = parse_file(source(path))
    assert [r.title for r in parsed.records] == ["Good Card", "Lost Back", "Odd"]
    messages = [str(w) for w in parsed.warnings]
    offset = text.index('{"no"')
    assert messages[0] == f"cards.json.xz:1: entry 2 at offset {offset}: not a card (no name): skipped"
    assert "entry 4 at offset" in messages[1] and "(Odd): unexpected value in types" in messages[1]
    assert "back face 'Lost Back' of 'Nobody', which the file does not hold: kept as a card" in messages[2]


def test_a_damaged_file_is_one_error(tmp_path):
    path = tmp_path / "cards.json.xz"
    path.write_bytes(b"\xfd7zXZ\x00garbage")
    with pytest.raises(SourceError, match="not an xz-compressed UTF-8 JSON file"):
        parse_file(source(path))
    path.write_bytes(lzma.compress(b'[{"name": "A"}, {"name": '))
    with pytest.raises(SourceError, match=r"invalid JSON at line 1, column"):
        parse_file(source(path))
