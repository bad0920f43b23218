"""The Hungarian quick guide parser, on the real file and on small fixtures."""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from rulebase.core.sources import Source, load_manifest
from rulebase.ingest import ingest_source
from rulebase.ingest.guide.quickguide import heading_shaped, parse
from rulebase.ingest.text import read_source

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def guide():
    source = next(s for s in load_manifest() if s.id == "hu-guide")
    report = ingest_source(source)
    return source, read_source(source.path).text, report.parsed


@pytest.fixture(scope="module")
def by_id(guide):
    return {r.id: r for r in guide[2].records}


def _fixture_source(name: str) -> Source:
    path = FIXTURES / name
    return Source(id="fx", title="fixture", edition="6e", date="undated", lang="hu", file=name,
                  format="hu-guide", provenance="test", credit="test", path=path)


def test_counts_by_kind(guide):
    records = guide[2].records
    assert Counter(r.kind for r in records) == {
        "passage": 32, "heading": 22, "term": 15, "glossary": 11, "rule": 2, "note": 1}
    assert guide[2].warnings == []
    assert len({r.id for r in records}) == len(records)
    assert [r.order for r in records] == list(range(len(records)))
    assert all(r.source == "hu-guide" and r.lang == "hu" and r.edition == "6e" for r in records)


def test_top_level_headings(guide):
    tops = [(r.id, r.number, r.title) for r in guide[2].records if r.kind == "heading" and r.parent is None]
    assert tops == [
        ("hu-guide:a-pakli", None, "A pakli"),
        ("hu-guide:a-jatek-kezdete", None, "A játék kezdete"),
        ("hu-guide:gyozelem-es-vereseg", None, "Győzelem és Vereség"),
        ("hu-guide:a-magic-aranyszabalya", None, "A Magic aranyszabálya"),
        ("hu-guide:egy-magic-lap-felepitese", None, "Egy Magic lap felépítése"),
        ("hu-guide:zonak", None, "Zónák"),
        ("hu-guide:altalanos-tudnivalok", None, "Általános tudnivalók"),
        ("hu-guide:kezdo-fazis", "1", "Kezdő fázis"),
        ("hu-guide:fo-fazis", "2", "Fő fázis"),
        ("hu-guide:harc-fazis", "3", "Harc fázis"),
        ("hu-guide:fo-fazis-ujra", "4", "Fő fázis (újra)"),
        ("hu-guide:vege-fazis", "5", "Vége fázis"),
    ]


def test_five_phases(guide):
    phases = [r for r in guide[2].records if r.kind == "heading" and r.number]
    assert [(r.number, r.title, r.raw, r.line) for r in phases] == [
        ("1", "Kezdő fázis", "1. Kezdő fázis", 49),
        ("2", "Fő fázis", "2. Fő fázis", 61),
        ("3", "Harc fázis", "3. Harc fázis", 66),
        ("4", "Fő fázis (újra)", "4. Fő fázis (újra)", 86),
        ("5", "Vége fázis", "5. Vége fázis", 89),
    ]
    assert all(r.section == [] and r.parent is None for r in phases)


def _steps(records, phase_id):
    return [r for r in records if r.kind == "heading" and r.parent == phase_id]


def test_steps_of_each_phase(guide):
    records = guide[2].records
    first = _steps(records, "hu-guide:kezdo-fazis")
    assert [(r.id, r.title, r.line) for r in first] == [
        ("hu-guide:visszaforgatas", "Visszaforgatás", 51),
        ("hu-guide:fenntartas", "Fenntartás", 54),
        ("hu-guide:huzas", "Húzás", 58),
    ]
    assert all(r.section == ["1. Kezdő fázis"] and r.number is None for r in first)
    assert _steps(records, "hu-guide:fo-fazis") == []
    assert [r.title for r in _steps(records, "hu-guide:harc-fazis")] == [
        "A harc kezdete", "A támadók kijelölése", "A védők kijelölése", "Sebzések kiosztása", "Harc fázis vége"]
    assert [r.title for r in _steps(records, "hu-guide:vege-fazis")] == ["Kör vége", "Takarítás"]


def test_passages_under_a_step(by_id):
    fenntartas = [by_id["hu-guide:fenntartas.1"], by_id["hu-guide:fenntartas.2"]]
    assert [(r.kind, r.parent, r.section, r.line) for r in fenntartas] == [
        ("passage", "hu-guide:fenntartas", ["1. Kezdő fázis", "Fenntartás"], 55),
        ("passage", "hu-guide:fenntartas", ["1. Kezdő fázis", "Fenntartás"], 56),
    ]
    assert fenntartas[1].text == "A játékosok ebben a lépésben használhatnak trükköket és aktivált képességeket."
    assert "hu-guide:fenntartas.3" not in by_id
    assert [by_id[f"hu-guide:sebzesek-kiosztasa.{n}"].line for n in range(1, 5)] == [79, 80, 81, 82]


def test_accents_preserved_exactly(by_id):
    record = by_id["hu-guide:sebzesek-kiosztasa.2"]
    expected = ("Ha egy támadó teremtményt védte valaki a védők kijelölése lépésben, de a védő már nincs "
                "a helyén, a támadó teremtmény nem okoz sebzést.")
    assert record.text == expected and record.raw == expected
    assert by_id["hu-guide:sebzesek-kiosztasa"].title == "Sebzések kiosztása"
    heading = by_id["hu-guide:gyozelem-es-vereseg"]
    assert heading.title == "Győzelem és Vereség"
    assert unicodedata.is_normalized("NFC", heading.title)


def test_lettered_rules_and_intro(by_id):
    a, b = by_id["hu-guide:a-pakli.A"], by_id["hu-guide:a-pakli.B"]
    assert (a.kind, a.number, a.parent, a.line) == ("rule", "A", "hu-guide:a-pakli", 6)
    assert a.text == "A. A pakli minimális mérete 60 lap legyen, maximális mérete nincs megszabva."
    assert (b.number, b.line) == ("B", 7)
    intro = by_id["hu-guide:intro.1"]
    assert (intro.kind, intro.parent, intro.section, intro.text) == (
        "note", None, [], "Ez is egy izgalmas kártyajáték, szabályok:")


def test_consecutive_lines_are_separate_definitions(by_id):
    in_play, stack = by_id["hu-guide:glossary.jatekban"], by_id["hu-guide:glossary.varolista"]
    assert (in_play.kind, in_play.title, in_play.line, in_play.parent) == (
        "glossary", "Játékban", 41, "hu-guide:zonak")
    assert (stack.kind, stack.title, stack.line, stack.section) == ("glossary", "Várólista", 42, ["Zónák"])
    assert stack.raw.startswith("Várólista (stack): Ha egy varázslatot") and "\n" not in stack.raw
    assert stack.aliases == []  # the English name lives on the term record (see guide.py)
    glossary = [by_id[i].title for i in by_id if by_id[i].kind == "glossary"]
    assert glossary == ["Név", "Varázslási költség", "Kártyatípus", "Szövegmező", "Életerő/sebzés",
                        "Könyvtár", "Kéz", "Temető", "Játékban", "Várólista", "Játékból eltávolított"]


def test_no_source_line_lost(guide):
    _, text, parsed = guide
    lines = text.split("\n")
    covered: set[int] = set()
    for record in parsed.records:
        if record.kind == "term":
            continue
        for k, raw_line in enumerate(record.raw.split("\n")):
            assert lines[record.line - 1 + k] == raw_line, record.id
            covered.add(record.line + k)
    warned = {w.line for w in parsed.warnings}
    missing = [n for n, line in enumerate(lines, 1) if line.strip() and n not in covered | warned]
    assert missing == []
    assert len(covered) == 68 == sum(1 for line in lines if line.strip())


def test_heading_shape():
    assert heading_shaped("Zónák:")
    assert heading_shaped("4. Fő fázis (újra)")
    assert not heading_shaped("Ez két lépésből áll: kör vége, takarítás")
    assert not heading_shaped("Ez is egy izgalmas kártyajáték, szabályok:")
    assert not heading_shaped("A. Rövid szabály")
    assert not heading_shaped("kisbetűs sor")


def test_fixture_structure_rules():
    source = _fixture_source("hu-structure.txt")
    parsed = parse(read_source(source.path).text, source)
    got = [(r.kind, r.id, r.parent, r.line) for r in parsed.records]
    assert got == [
        ("note", "fx:intro.1", None, 1),
        ("heading", "fx:elso-fejezet", None, 3),
        ("passage", "fx:elso-fejezet.1", "fx:elso-fejezet", 4),
        ("passage", "fx:elso-fejezet.2", "fx:elso-fejezet", 6),
        ("rule", "fx:elso-fejezet.A", "fx:elso-fejezet", 7),
        ("glossary", "fx:glossary.szo", "fx:elso-fejezet", 8),
        ("term", "fx:term.szo", "fx:glossary.szo", 8),
        ("glossary", "fx:glossary.masik-szo", "fx:elso-fejezet", 9),
        ("passage", "fx:elso-fejezet.3", "fx:elso-fejezet", 11),
        ("heading", "fx:elso-fazis", None, 12),
        ("passage", "fx:elso-fazis.1", "fx:elso-fazis", 13),
        ("heading", "fx:egyik-lepes", "fx:elso-fazis", 14),
        ("passage", "fx:egyik-lepes.1", "fx:egyik-lepes", 15),
        ("passage", "fx:egyik-lepes.2", "fx:egyik-lepes", 17),
        ("heading", "fx:meg-egy-cim", "fx:elso-fazis", 18),
        ("passage", "fx:meg-egy-cim.1", "fx:meg-egy-cim", 19),
        ("heading", "fx:masodik-fazis-ujra", None, 21),
        ("passage", "fx:masodik-fazis-ujra.1", "fx:masodik-fazis-ujra", 22),
        ("passage", "fx:masodik-fazis-ujra.2", "fx:masodik-fazis-ujra", 23),
    ]
    by_id = {r.id: r for r in parsed.records}
    wrapped = by_id["fx:elso-fejezet.1"]
    assert wrapped.text == "Ez egy bekezdés, amely nem ér véget itt hanem a következő sorban folytatódik."
    assert wrapped.raw == "Ez egy bekezdés, amely nem ér véget itt\nhanem a következő sorban folytatódik."
    assert by_id["fx:masodik-fazis-ujra"].number == "2"
    assert by_id["fx:egyik-lepes.1"].section == ["1. Első fázis", "Egyik lépés"]
    assert [(w.line, w.message) for w in parsed.warnings] == [
        (11, "heading-shaped line followed by another heading-shaped line: kept as a paragraph"),
        (17, "heading-shaped line followed by another heading-shaped line: kept as a paragraph"),
        (23, "heading-shaped line followed by end of file: kept as a paragraph"),
    ]
    assert all(w.file == str(source.path) for w in parsed.warnings)
    assert by_id["fx:elso-fejezet.3"].flags == [parsed.warnings[0].message]


@pytest.mark.parametrize("text", ["x", "(", "1.", "A.\n\n:", "Cím\n", "Cím\nCím\nCím", "((a) (b))\n(c)"])
def test_odd_input_never_raises(text):
    parsed = parse(text, _fixture_source("hu-structure.txt"))
    lines = [n for n, line in enumerate(text.split("\n"), 1) if line.strip()]
    assert sorted({r.line for r in parsed.records if r.kind != "term"}) == lines


def test_a_heading_repeated_thousands_of_times_gets_ids_in_linear_time():
    """Issue 21.3: every parser linear. Each repeat searched '-2', '-3', ... from the start."""
    from rulebase.ingest.guide.quickguide import _Ids

    class Counting(set):
        probes = 0

        def __contains__(self, key) -> bool:
            Counting.probes += 1
            return super().__contains__(key)

    ids = _Ids("fx")
    ids.seen = Counting()
    made = [ids.make("tamadas") for _ in range(20_000)]
    assert made[:3] == ["fx:tamadas", "fx:tamadas-2", "fx:tamadas-3"] and len(set(made)) == 20_000
    assert Counting.probes <= 2 * 20_000


def test_term_pairings_on_one_endless_line_are_found_looking_back_a_bounded_way(monkeypatch):
    from rulebase.ingest.guide import terms

    seen: list[int] = []
    word = terms._WORD

    class Watch:
        def finditer(self, text):
            seen.append(len(text))
            return word.finditer(text)

    monkeypatch.setattr(terms, "_WORD", Watch())
    spans = terms.find_terms("kör (turn) és lap (card) " * 5_000)
    assert [s.hu for s in spans[:2]] == ["kör", "lap"] and len(spans) == 10_000
    assert max(seen) <= terms._REACH


def test_a_pairing_stated_again_and_again_is_one_term_record_and_a_flag():
    """Issue 21.3: a 64 MB line repeating 'kör (turn) és lap (card)' made 5 million term records
    (minutes to parse and index). The passage keeps every word; the term map keeps each pairing once."""
    text = "Bevezetés\n\nA játékos és a lapot kör fázis varázslat sebzés\n\n" + "kör (turn) és lap (card) " * 3000
    parsed = parse(text, _fixture_source("hu-structure.txt"))
    terms = [r for r in parsed.records if r.kind == "term"]
    assert [(t.title, t.aliases) for t in terms] == [("kör", ["turn"]), ("lap", ["card"])]
    passage = next(r for r in parsed.records if r.id == terms[0].parent)
    assert passage.text.count("kör (turn)") == 3000
    assert passage.flags[-2:] == ["term pairing kör (turn) stated 3,000 times: one term record",
                                  "term pairing lap (card) stated 3,000 times: one term record"]
