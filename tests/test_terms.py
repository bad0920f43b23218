"""The bilingual term map: the parenthesis rule, term records on the real guide, and lookups."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebase.core.records import Ref
from rulebase.core.sources import load_manifest
from rulebase.ingest import ingest_source
from rulebase.ingest.guide.terms import english_terms, find_terms
from rulebase.ingest.text import read_source
from rulebase.rules.compare import TermEntry, default_term_map, english_for, hungarian_for, term_map

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def guide():
    source = next(s for s in load_manifest() if s.id == "hu-guide")
    return read_source(source.path).text, ingest_source(source).parsed.records


@pytest.fixture(scope="module")
def entries(guide):
    return term_map(guide[1])


def test_term_records_on_the_real_guide(guide):
    terms = [r for r in guide[1] if r.kind == "term"]
    assert [(r.id, r.title, r.aliases, r.parent) for r in terms] == [
        ("hu-guide:term.varazstargy", "varázstárgy", ["artifact"], "hu-guide:glossary.kartyatipus"),
        ("hu-guide:term.eleven-varazstargy", "eleven varázstárgy", ["artifact creature"],
         "hu-guide:glossary.kartyatipus"),
        ("hu-guide:term.teremtmeny", "teremtmény", ["creature", "summon"], "hu-guide:glossary.kartyatipus"),
        ("hu-guide:term.bubaj", "bűbáj", ["enchantment"], "hu-guide:glossary.kartyatipus"),
        ("hu-guide:term.fold", "föld", ["land"], "hu-guide:glossary.kartyatipus"),
        ("hu-guide:term.trukk", "trükk", ["instant"], "hu-guide:glossary.kartyatipus"),
        ("hu-guide:term.rituale", "rituálé", ["sorcery"], "hu-guide:glossary.kartyatipus"),
        ("hu-guide:term.konyvtar", "Könyvtár", ["library"], "hu-guide:glossary.konyvtar"),
        ("hu-guide:term.kez", "Kéz", ["hand"], "hu-guide:glossary.kez"),
        ("hu-guide:term.temeto", "Temető", ["graveyard"], "hu-guide:glossary.temeto"),
        ("hu-guide:term.megsemmisult", "megsemmisült", ["destroy", "bury"], "hu-guide:glossary.temeto"),
        ("hu-guide:term.jatekban", "Játékban", ["in play"], "hu-guide:glossary.jatekban"),
        ("hu-guide:term.varolista", "Várólista", ["stack"], "hu-guide:glossary.varolista"),
        ("hu-guide:term.jatekbol-eltavolitott", "Játékból eltávolított", ["out of play"],
         "hu-guide:glossary.jatekbol-eltavolitott"),
        ("hu-guide:term.tavolitsd-el-a-jatekbol", "távolítsd el a játékból", ["remove from game"],
         "hu-guide:glossary.jatekbol-eltavolitott"),
    ]
    by_id = {r.id: r for r in guide[1]}
    assert by_id["hu-guide:term.teremtmeny"].text == "teremtmény (creature, régen: summon)"
    assert by_id["hu-guide:term.tavolitsd-el-a-jatekbol"].text == "`… távolítsd el a játékból…`(remove from game)"
    assert by_id["hu-guide:term.konyvtar"].section == ["Zónák", "Könyvtár"]
    assert by_id["hu-guide:term.konyvtar"].line == 35
    assert by_id["hu-guide:term.megsemmisult"].refs == [
        Ref("destroy", "glossary", "destroy"), Ref("bury", "glossary", "bury")]


def test_term_texts_are_verbatim(guide):
    text, records = guide
    lines = text.split("\n")
    by_id = {r.id: r for r in records}
    for r in (r for r in records if r.kind == "term"):
        assert r.text == r.raw and r.text in text, r.id
        assert r.text in lines[r.line - 1], r.id
        assert r.text in by_id[r.parent].raw, r.id
        assert [ref.key for ref in r.refs] == [a.lower() for a in r.aliases]
        assert all(ref.kind == "glossary" and ref.target is None and ref.label in r.aliases for ref in r.refs)
        parent_index = records.index(by_id[r.parent])
        assert records.index(r) > parent_index and r.order > by_id[r.parent].order


def test_term_map_entries(entries):
    assert TermEntry("Könyvtár", "library", "hu-guide:term.konyvtar") in entries
    assert TermEntry("Temető", "graveyard", "hu-guide:term.temeto") in entries
    assert TermEntry("Várólista", "stack", "hu-guide:term.varolista") in entries
    assert TermEntry("teremtmény", "summon", "hu-guide:term.teremtmeny") in entries
    english = {e.en for e in entries}
    for term in ("library", "graveyard", "stack", "hand", "instant", "sorcery", "artifact", "creature",
                 "enchantment", "land", "remove from game"):
        assert term in english, term
    assert len(entries) == 17
    # card-text quotes and Hungarian parentheses are not pairings
    assert not english & {"eket", "pl. egy szigetből", "upkeep", "újra"}


def test_lookups(entries):
    assert english_for("teremtmény", entries) == ["creature", "summon"]
    assert english_for("TEREMTMENY", entries) == ["creature", "summon"]
    assert english_for("könyvtáradból", entries) == ["library"]  # inflected: the stem matches
    assert english_for("varázstárgyakat", entries) == ["artifact"]
    assert english_for("eleven varázstárgy", entries) == ["artifact creature"]
    assert english_for("kéz", entries) == ["hand"]
    assert english_for("kezdő", entries) == []  # 'kéz' is too short to match as a stem
    assert english_for("", entries) == []
    assert hungarian_for("library", entries) == ["Könyvtár"]
    assert hungarian_for("Creatures", entries) == ["teremtmény"]
    assert hungarian_for("artifact", entries) == ["varázstárgy"]
    assert hungarian_for("mana burn", entries) == []


def test_default_map_is_the_bundled_guide(entries):
    assert list(default_term_map()) == entries
    assert english_for("Temető") == ["graveyard"]
    assert hungarian_for("stack") == ["Várólista"]


@pytest.mark.parametrize(("content", "english", "why"), [
    ("library", ["library"], None),
    ("destroy, bury", ["destroy", "bury"], None),
    ("creature, régen: summon", ["creature", "summon"], None),
    ("remove from game", ["remove from game"], None),
    ("pl. egy szigetből", [], "not English-looking: 'pl. egy szigetből'"),
    ("eket", [], "Hungarian word or suffix: 'eket'"),
    ("`At the beginning of your upkeep…`", [], "quote"),
    ("újra", [], "not English-looking: 'újra'"),
    ("2U", [], "not English-looking: '2U'"),
    ("Creature", [], "not English-looking: 'Creature'"),
    ("x y z w v", [], "not English-looking: 'x y z w v'"),
    ("", [], "empty"),
])
def test_parenthesis_rule(content, english, why):
    assert english_terms(content) == (english, why)


def test_fixture_parentheses():
    text = (FIXTURES / "hu-parens.txt").read_text(encoding="utf-8")
    found = [(s.hu, s.en, text[s.start:s.end]) for s in find_terms(text)]
    assert found == [
        ("varázstárgy", ("artifact",), "varázstárgy (artifact)"),
        ("eleven varázstárgy", ("artifact creature",), "eleven varázstárgy (artifact creature)"),
        ("rituálé", ("sorcery",), "rituálé (sorcery)"),
        ("teremtmény", ("creature", "summon"), "teremtmény (creature, régen: summon)"),
        ("megsemmisült", ("destroy", "bury"), "megsemmisült (destroy, bury)"),
        ("Könyvtár", ("library",), "Könyvtár (library)"),
        ("távolítsd el a játékból", ("remove from game",), "`… távolítsd el a játékból…`(remove from game)"),
    ]
