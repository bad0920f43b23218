"""rulebase.rules.cards and the `card` command: a card by any of its names, its text, the rules it
uses (on another day, their numbers then), and cards read in questions."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.core.errors import NotFound
from rulebase.rules.cards import find, strip_brackets

runner = CliRunner()
CARD_FIELDS = {"name", "mana_cost", "mana_value", "type_line", "supertypes", "types", "subtypes", "power",
               "toughness", "loyalty", "text", "layout", "faces", "keywords", "aliases", "missing", "links",
               "rulings", "foreign_names", "text_of"}
FACE_FIELDS = {"name", "mana_cost", "mana_value", "type_line", "text", "power", "toughness", "loyalty", "defense",
               "missing", "from"}


def run(index_dir, *args):
    return runner.invoke(app, ["--index", str(index_dir), *args])


@pytest.mark.parametrize("typed, name", [
    ("Blood Moon", "Blood Moon"), ("blood moon", "Blood Moon"), ("urzas saga", "Urza's Saga"),
    ("aether vial", "Aether Vial"), ("Æther Vial", "Aether Vial"), ("[[Blood Moon]]", "Blood Moon"),
    ("Delver of Secrets", "Delver of Secrets // Insectile Aberration"),
    ("Insectile Aberration", "Delver of Secrets // Insectile Aberration"),
    ("Petty Theft", "Brazen Borrower // Petty Theft"), ("Uro", "Uro, Titan of Nature's Wrath"),
    ("Stomp", "Bonecrusher Giant // Stomp"), ("Zorn Gottes", "Wrath of God"), ("神の怒り", "Wrath of God"),
    ("colère de dieu", "Wrath of God"), ("Hielo", "Fire // Ice")])
def test_a_card_by_any_name_a_player_types(library, typed, name):
    found = find(library.store, typed)
    assert [card.name for card in found.cards] == [name]


def test_a_short_name_lists_every_card_it_names(library):
    found = find(library.store, "Thalia")
    assert found.several and [c.name for c in found.cards] == ["Thalia, Guardian of Thraben", "Thalia, Heretic Cathar"]


def test_a_typo_gets_the_nearest_names_and_nothing_close_says_so(library):
    with pytest.raises(NotFound) as typo:
        find(library.store, "Blod Mon")
    assert typo.value.suggestions[0] == "Blood Moon"
    with pytest.raises(NotFound) as none:
        find(library.store, "zzqqxx")
    assert none.value.suggestions == [] and "search --kind card" in none.value.message


def test_brackets():
    assert strip_brackets("[[Blood Moon]]") == "Blood Moon" and strip_brackets("Blood Moon") == "Blood Moon"


def test_card_command(index_dir):
    result = run(index_dir, "card", "urzas", "saga")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Urza's Saga"
    assert lines[1] == "  Enchantment Land — Urza's Saga  ·  mana value 0"
    assert lines[2] == "  (As this Saga enters and after your draw step, add a lore counter. Sacrifice after III.)"
    assert lines[3] == "  I — This Saga gains \"{T}: Add {C}.\""
    assert "Rules it uses:" in lines
    assert any(line.startswith("  714 ") and "Saga Cards" in line and "<- layout: saga" in line for line in lines)


def test_card_command_shows_every_face_and_the_mana_value_its_layout_gives(index_dir):
    out = run(index_dir, "card", "Fire // Ice").stdout.splitlines()
    assert out[:7] == [
        "Fire // Ice  {1}{R} // {1}{U}",
        "  Instant  ·  mana value 4 (its halves' total, 709.4b)",
        "  // Fire  {1}{R}  ·  Instant  ·  mana value 2",
        "     Fire deals 2 damage divided as you choose among one or two targets.",
        "  // Ice  {1}{U}  ·  Instant  ·  mana value 2  (text of 2022-04-25: the current file lacks this face)",
        "     Tap target permanent.",
        "     Draw a card."]
    assert run(index_dir, "card", "Commit // Memory").stdout.splitlines()[1] == \
        "  Instant  ·  mana value 10 (its halves' total, 709.4b)"
    theft = run(index_dir, "card", "Petty Theft").stdout
    assert "  // Petty Theft  {1}{U}  ·  Instant — Adventure  ·  mana value 2" in theft
    assert "     Return target nonland permanent an opponent controls to its owner's hand." in theft


def test_card_command_says_what_neither_file_holds(index_dir):
    out = run(index_dir, "card", "Fungus Frolic").stdout
    assert "  // Fungus Frolic: its text is in neither card file" in out
    assert "  the sources lack: second half's text (Fungus Frolic): in neither card file" in out
    assert "rulings (only the 2022 file has rulings, and it does not hold the card)" in out


def test_card_command_shows_the_rulings_with_their_dates(index_dir):
    lines = run(index_dir, "card", "Fire // Ice").stdout.splitlines()
    at = lines.index("Rulings (9):")
    assert lines[at + 1] == ("  2018-12-07  If Fire targets two creatures and one becomes an illegal target, the "
                             "remaining target is dealt 1 damage, not 2.")
    assert all(line[2:12].count("-") == 2 for line in lines[at + 1:at + 10]) and lines[at + 10] == ""


def test_card_command_errors(index_dir):
    typo = run(index_dir, "card", "Blod", "Mon")
    assert typo.exit_code == 1
    assert typo.stderr.splitlines() == ["error: no card named 'Blod Mon'", "did you mean: Blood Moon, Blood Money, Bad Moon"]
    none = run(index_dir, "card", "zzqqxx")
    assert none.exit_code == 1 and none.stderr.startswith("error: no card named 'zzqqxx'")


def test_card_json_shape(index_dir):
    result = run(index_dir, "card", "[[Delver of Secrets]]", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) >= CARD_FIELDS
    assert data["name"] == "Delver of Secrets // Insectile Aberration" and data["aliases"] == ["Delver of Secrets", "Insectile Aberration"]
    assert {"rule", "id", "title", "lineage", "reason"} <= set(data["links"][0])
    assert all(set(face) == FACE_FIELDS for face in data["faces"]) and data["faces"][1]["power"] == "3"
    assert data["rulings"][0] == {"date": "2011-09-22", "text": "You may reveal the card even if it's not an "
                                  "instant or sorcery. Whether or not you reveal it, the card stays on top of your library.",
                                  "id": "card:delver-of-secrets-insectile-aberration:ruling-1"}
    shared = json.loads(run(index_dir, "card", "Fire // Ice", "--json").stdout)["rulings"]
    assert [r["date"] for r in shared] == ["2018-12-07"] * 3 + ["2021-06-18"] * 6
    assert data["foreign_names"]["German"] == "Geheimnisstöberer // Insekten-Scheußlichkeit" and data["text_of"] is None
    several = json.loads(run(index_dir, "card", "Thalia", "--json").stdout)
    assert several["several"] is True and len(several["cards"]) == 2


def test_card_as_of_shows_each_rule_number_of_that_day(index_dir):
    data = json.loads(run(index_dir, "card", "Akrasan Squire", "--as-of", "2008-10-01", "--json").stdout)
    exalted = next(link for link in data["links"] if link["title"] == "Exalted")
    assert exalted["rule"] == "502.83" and exalted["now"] == "702.83" and data["as_of"] == "2008-10-01"


def test_lookup_says_how_many_cards_use_a_rule(index_dir):
    out = run(index_dir, "lookup", "702.19").stdout
    line = next(line for line in out.splitlines() if line.strip().startswith("used by "))
    assert line.strip().startswith("used by 1,") and ", e.g. " in line
    data = json.loads(run(index_dir, "lookup", "702.19", "--json").stdout)
    assert data["cards"]["count"] > 1000 and len(data["cards"]["examples"]) == 3


def test_search_reads_the_cards_a_question_names(index_dir):
    result = run(index_dir, "search", "what happens to Urza's Saga under Blood Moon", "--json")
    data = json.loads(result.stdout)
    assert [c["name"] for c in data["cards"]] == ["Urza's Saga", "Blood Moon"]
    plain = run(index_dir, "search", "what happens to Urza's Saga under Blood Moon").stdout
    assert plain.startswith("Cards named:\nUrza's Saga\n")
    assert all(hit["kind"] != "card" for hit in data["hits"])


def test_search_does_not_read_rules_words_as_cards(index_dir):
    data = json.loads(run(index_dir, "search", "can I cast out of exile with flashback", "--json").stdout)
    assert "cards" not in data


def test_search_kind_card_finds_cards_by_their_text(index_dir):
    data = json.loads(run(index_dir, "search", "--kind", "card", "creatures lose all abilities", "--json").stdout)
    assert data["hits"][0]["title"] == "Humility" and data["hits"][0]["kind"] == "card"
    mixed = run(index_dir, "search", "--kind", "card", "--kind", "rule", "trample")
    assert mixed.exit_code == 2 and "--kind card searches the cards alone" in mixed.stderr


def test_search_kind_card_keeps_every_card_apart_and_reads_a_quoted_phrase_whole(index_dir):
    """Wrath of God and Damnation print the same words: two cards, two hits, none folded under another."""
    data = json.loads(run(index_dir, "search", "--kind", "card", '"destroy all creatures"', "-n", "200",
                          "--json").stdout)
    titles = [hit["title"] for hit in data["hits"]]
    assert {"Wrath of God", "Damnation"} <= set(titles) and not any(hit["also"] for hit in data["hits"])
    assert len(titles) == data["total"] < 200  # the phrase, not every card saying 'destroy' or 'creatures'
    assert all("destroy all creatures" in hit["text"].lower() for hit in data["hits"])


def test_search_finds_a_card_ruling_named_by_its_card_and_date(index_dir):
    question = "if Fire // Ice targets two creatures and one becomes illegal, is the remaining target dealt 1 damage"
    data = json.loads(run(index_dir, "search", question, "--json").stdout)
    first = data["rulings"][0]
    assert first["title"] == "Fire // Ice — ruling of 2018-12-07" and first["parent"] == "card:fire-ice"
    assert first["kind"] == "card-ruling" and "remaining target is dealt 1 damage" in first["text"]
    assert all(hit["kind"] != "card-ruling" for hit in data["hits"])  # the rules' ranking is the rules'
    plain = run(index_dir, "search", question).stdout.splitlines()
    at = plain.index("Card rulings (more: rulebase search --kind card-ruling WORDS):")
    assert plain[at + 1] == " 1. Fire // Ice — ruling of 2018-12-07  [card:fire-ice:ruling-1]"
    found = json.loads(run(index_dir, "search", "--kind", "card-ruling", "the remaining target is dealt 1 damage, "
                           "not 2", "-n", "20", "--json").stdout)
    assert "card:fire-ice:ruling-1" in [hit["id"] for hit in found["hits"]]
    assert "rulings" not in json.loads(run(index_dir, "search", "damage prevention", "--json").stdout)


def test_search_kind_card_ruling_searches_the_rulings_alone(index_dir):
    data = json.loads(run(index_dir, "search", "--kind", "card-ruling", "split card", "--json").stdout)
    assert data["hits"] and all(hit["kind"] == "card-ruling" for hit in data["hits"])
    assert len({hit["text"] for hit in data["hits"]}) == len(data["hits"])  # a ruling on many cards: one hit
    cards = json.loads(run(index_dir, "search", "--kind", "card", "split card", "--json").stdout)
    assert all(hit["kind"] == "card" for hit in cards["hits"])


def test_search_for_a_name_several_cards_share_names_them(index_dir):
    """"Thalia" is two cards and no word of the rules: the search says so and where to look,
    rather than correcting it to a word the rules hold."""
    result = run(index_dir, "search", "[[Thalia]]")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "note: 2 cards are called 'Thalia' (Thalia, Guardian of Thraben; Thalia, Heretic Cathar): "
        'rulebase card "Thalia" lists them']
    assert result.stdout == "No results for '[[Thalia]]'.\n"
    assert json.loads(run(index_dir, "search", "Thalia", "--json").stdout)["suggestion"] is None
    many = run(index_dir, "search", "lulu?").stderr
    assert many.startswith("note: 8 cards are called 'lulu' (Lulu, Curious Hollyphant; ") and " and 4 more)" in many
    assert 'rulebase card "lulu" lists them' in many
    # a keyword and a planeswalker type (205.3j) are the rules' words, whatever cards are called so
    assert not any("cards are called" in run(index_dir, "search", word).stderr for word in ("storm", "chandra"))
