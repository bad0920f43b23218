"""The 2008 Crystal Keep changes-only summary (one 37 KB line) and the shared citation parser."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from rulebase.core.records import Citation, fold_space
from rulebase.core.sources import Source, load_manifest
from rulebase.ingest import ingest_source
from rulebase.ingest.crystalkeep import summary2008 as crystalkeep
from rulebase.ingest.crystalkeep.citations import late_citation_flags, parse_citation, split_citations
from rulebase.ingest.text import decode

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def real():
    source = next(s for s in load_manifest() if s.id == "ck2008")
    report = ingest_source(source)
    text = decode(source.path.read_bytes(), str(source.path)).text
    return report.parsed, {r.id: r for r in report.parsed.records}, text


def _mini():
    path = FIXTURES / "ck-2008-mini.txt"
    source = Source(id="ck2008", title="t", edition="10e", date="2008-10-20", lang="en", file=path.name,
                    format="crystalkeep-2008", provenance="p", credit="c", path=path)
    parsed = crystalkeep.parse(path.read_text(), source)
    return parsed, {r.id: r for r in parsed.records}


# --- citations -------------------------------------------------------------------------------

@pytest.mark.parametrize(("label", "source", "date", "page"), [
    ("[CompRules 2008/10/01]", "CompRules", "2008-10-01", None),
    ("[Shards of Alara FAQ 2008/09/23]", "Shards of Alara FAQ", "2008-09-23", None),
    ("[Update 2008/09/01]", "Update", "2008-09-01", None),
    ("[Fifth Edition, Page 52]", "Fifth Edition", None, "52"),
    ("[Fifth Edition Page 47]", "Fifth Edition", None, "47"),
    ("[Mirage, Page 2-4]", "Mirage", None, "2-4"),
    ("[Duelist Magazine #12, Page 26]", "Duelist Magazine #12", None, "26"),
    ("[D'Angelo 02/03/98]", "D'Angelo", "1998-02-03", None),
    ("[WotC Rules Team 07/03/97]", "WotC Rules Team", "1997-07-03", None),
    ("[bethmo 1994]", "bethmo", "1994", None),
    ("[DCI Letter, Jan 1997]", "DCI Letter", "1997-01", None),
    ("[Legends Rulecards]", "Legends Rulecards", None, None),
])
def test_parse_citation(label, source, date, page):
    assert parse_citation(label) == Citation(label, source, date, page)


@pytest.mark.parametrize("label", ["[X]", "[Cost]", "[a specified player]", "[Play restriction (if any).]",
                                   "[Effect.]", "[does or doesn't]"])
def test_rules_text_brackets_are_not_citations(label):
    assert parse_citation(label) is None


def test_split_citations_strips_only_citations():
    text, cites = split_citations('Reads "[Cost]: [Effect]." [CompRules 2008/10/01]  [Update 2008/09/01]')
    assert text == 'Reads "[Cost]: [Effect]."'
    assert [c.date for c in cites] == ["2008-10-01", "2008-09-01"]
    mid, cites = split_citations("Only you. [bethmo 02/21/97] Exceptions exist. [D'Angelo 08/03/98]")
    assert mid == "Only you. Exceptions exist."
    assert [c.source for c in cites] == ["bethmo", "D'Angelo"]


def test_late_citation_flags():
    assert late_citation_flags([parse_citation("[CompRules 2010/08/01]")], "2008-10-20") == [
        "citation [CompRules 2010/08/01] is dated after the document (2008-10-20)"]
    assert late_citation_flags([parse_citation("[bethmo 04/30/99]")], "1999-04") == []


# --- the real file ---------------------------------------------------------------------------

_EXPECTED = (
    "100 100.5 102 102.3a 206 206.2 212.4 212.4j 212.4k 212.4m 217 217.1d 217.9 217.9a 306 306.1b "
    "306.1c 306.5 402 402.2 402.5 403 403.1 403.3 403.4 408.1 408.1i 408.2 408.2i 409 409.1b 419 419.5 "
    "419.6 419.6e 419.6g 419.9 419.9a 420 420.3 420.6 421 421.3 421.5 421.6 424 424.6 502.15 502.15m "
    "502.82 502.82a 502.82b 502.82.Ruling.1 502.82.Ruling.2 502.82.Ruling.3 502.82.Ruling.4 "
    "502.82.Ruling.5 502.83 502.83a 502.83b 502.83.Ruling.1 502.83.Ruling.2 502.83.Ruling.3 "
    "502.83.Ruling.4 502.83.Ruling.5 502.83.Ruling.6 502.84 502.84a 502.84.Ruling.1 502.84.Ruling.2 "
    "502.84.Ruling.3 502.84.Ruling.4 502.84.Ruling.5 503 503.Ruling.1 511 511.3 600 600.3 606 606.8c "
    "803 803.7 G1.1 G1.1b G1.2 G1.2b G1.4 G1.4a G1.5 G1.5a G1.19 G1.19b G1.24 G1.24a G2.8 G2.8a G3.37 "
    "G3.37b G4.15 G4.15a G5.7 G5.7b G5.19 G5.19a G5.21 G5.21a G5.21b G6.11 G6.11c G6.13 G6.13a G11.1 "
    "G11.1a G12.2 G12.2c G12.18 G12.18a G13.11 G13.11a G13.13 G13.13a G13.13.Ruling.1 G16.17 G16.17b "
    "G19.4 G19.4c G19.23 G19.23b G19.41 G19.41c G20.17 G20.17a G20.22 G20.22a G21.4 G21.4a G21.5 G21.5a"
)
EXPECTED_NUMBERS = _EXPECTED.split()


def test_every_entry_found_once_in_order(real):
    parsed, _, _ = real
    numbers = [r.number for r in parsed.records if r.number and r.kind != "section"]
    assert numbers == EXPECTED_NUMBERS
    assert len(numbers) == 139
    assert [r.number for r in parsed.records if r.kind == "section"] == list("123456789")
    assert parsed.warnings == []


def test_kind_counts(real):
    parsed, _, _ = real
    assert Counter(r.kind for r in parsed.records) == Counter(
        glossary=55, rule=39, chapter=27, ruling=18, section=9, example=7, note=6, document=1)


def test_coverage_every_chunk_lands_in_a_record(real):
    parsed, _, text = real
    ordered = sorted(parsed.records, key=lambda r: r.order)
    assert fold_space(" ".join(r.raw for r in ordered)) == fold_space(text)
    assert all(r.raw in text for r in ordered)
    assert all(r.line == 1 for r in ordered)
    offsets = parsed.meta["offsets"]
    assert all(text.startswith(r.raw, offsets[r.id]) for r in ordered)


def test_exalted_rule_text_and_citation(real):
    _, ids, _ = real
    rule = ids["ck2008:502.83a"]
    assert rule.kind == "rule"
    assert rule.number == "502.83a"
    assert rule.text == ('Exalted is a triggered ability. "Exalted" means "Whenever a creature you control '
                         'attacks alone, that creature gets +1/+1 until end of turn."')
    assert rule.raw == ('+ 502.83a - Exalted is a triggered ability. "Exalted" means "Whenever a creature you '
                        'control attacks alone, that creature gets +1/+1 until end of turn." '
                        '[CompRules 2008/10/01]')
    assert rule.citations == [Citation("[CompRules 2008/10/01]", "CompRules", "2008-10-01")]
    assert rule.changed is True
    assert rule.parent == "ck2008:502.83"
    assert rule.section == ["5 - Additional Rules", "502", "502.83 - Exalted"]


def test_exalted_rulings(real):
    _, ids, _ = real
    heading = ids["ck2008:502.83"]
    assert (heading.kind, heading.title, heading.parent) == ("chapter", "Exalted", "ck2008:5")
    for n in range(1, 7):
        ruling = ids[f"ck2008:502.83.Ruling.{n}"]
        assert ruling.kind == "ruling"
        assert ruling.parent == "ck2008:502.83"
        assert ruling.section[-1] == "502.83 - Exalted"
        assert ruling.citations[0].source == "Shards of Alara FAQ"
        assert ruling.citations[0].date == "2008-09-23"
    assert "ck2008:502.83.Ruling.7" not in ids
    assert ids["ck2008:502.83.Ruling.1"].text == ("Exalted bonuses stack. If you have three permanents with "
                                                  "Exalted in play and a creature attacks alone, it will get "
                                                  "+3/+3.")
    assert ids["ck2008:503.Ruling.1"].parent == "ck2008:503"
    assert ids["ck2008:G13.13.Ruling.1"].parent == "ck2008:G13.13"


def test_missing_ancestors_fall_back_and_stay_in_the_path(real):
    _, ids, _ = real
    assert ids["ck2008:102.3a"].parent == "ck2008:102"
    assert ids["ck2008:102.3a"].section == ["1 - The Game", "102 - Winning and Losing", "102.3"]
    assert ids["ck2008:212.4"].parent == "ck2008:2"


def test_refs(real):
    _, ids, _ = real
    assert [r.key for r in ids["ck2008:212.4j"].refs] == ["212.4k"]
    assert all(r.target is None for r in ids["ck2008:212.4j"].refs)
    assert [r.key for r in ids["ck2008:408.1i"].refs] == ["408.2d", "408.2h", "408.2i", "408.2j"]
    assert [r.key for r in ids["ck2008:502.83b"].refs] == ["306.5"]


def test_changed_entries(real):
    parsed, _, text = real
    changed = [r for r in parsed.records if r.changed]
    assert len(changed) == 88 == len(re.findall(r"(?<!\S)\+ ", text))
    assert all(r.raw.startswith("+ ") for r in changed)
    assert not any(r.raw.startswith("+") for r in parsed.records if not r.changed)


def test_glossary(real):
    _, ids, _ = real
    entry = ids["ck2008:G5.19"]
    assert (entry.kind, entry.number, entry.title, entry.parent) == ("glossary", "G5.19", "Exalted", "ck2008:9")
    part = ids["ck2008:G5.19a"]
    assert (part.kind, part.parent, part.title) == ("glossary", "ck2008:G5.19", None)
    note = ids["ck2008:G5.19a.Note.1"]
    assert (note.kind, note.parent, note.text) == ("note", "ck2008:G5.19a", 'Also see Rule 502.83, "Exalted."')
    assert [r.key for r in note.refs] == ["502.83"]
    assert note.changed is True


def test_examples_attach_to_the_entry_before(real):
    _, ids, _ = real
    example = ids["ck2008:424.6.Example.2"]
    assert (example.kind, example.parent, example.changed) == ("example", "ck2008:424.6", False)
    assert example.text.startswith("Your opponent has played Gather Specimens")
    assert example.citations[0].date == "2008-10-01"
    assert ids["ck2008:419.9a.Example.1"].citations[0].date == "2005-08-01"


def test_header_meta_and_front_back_matter(real):
    parsed, ids, _ = real
    meta = {k: v for k, v in parsed.meta.items() if k != "offsets"}
    assert meta == {"title": "General Rulings Summary (CHANGES ONLY)", "updated": "2008-10-20",
                    "rules": "TENTH EDITION", "previous_release": "2008-09-10"}
    doc = ids["ck2008:document"]
    assert (doc.kind, doc.title, doc.order) == ("document", "General Rulings Summary (CHANGES ONLY)", 0)
    assert "=" not in doc.text and "rules used by TENTH EDITION" in doc.text
    assert ids["ck2008:contents"].kind == "note"
    assert ids["ck2008:contents"].text == "No changes to this section."
    assert (ids["ck2008:7.note"].kind, ids["ck2008:7.note"].parent) == ("note", "ck2008:7")
    acks = ids["ck2008:acknowledgements"]
    assert acks.kind == "note" and acks.text.endswith("copyrighted by Wizards of the Coast.")


def test_odd_citations_are_kept_and_flagged(real):
    _, ids, _ = real
    assert ids["ck2008:419.5"].flags == [
        "citation [CompRules 2010/08/01] is dated after the document (2008-10-20)"]
    cards = ids["ck2008:803.7"]
    assert cards.text.endswith("These cards are: AEther Vial, Sensei's Divining Top, Skullclamp, "
                               "Disciple of the Vault.")
    assert cards.citations[0].source == "Update"


# --- fixture: the traps ----------------------------------------------------------------------

def test_number_inside_text_does_not_start_an_entry():
    parsed, ids = _mini()
    assert ids["ck2008:100.1"].text == "Scores from 100 - 200 are odd, see rule 401.3 for more."
    assert ids["ck2008:100.1"].kind == "rule"
    assert "ck2008:100~2" not in ids
    assert parsed.notes[0].startswith("1 number(s) followed by ' - '")


def test_fixture_structure():
    parsed, ids = _mini()
    assert ids["ck2008:100.2"].text == "A rule with [Cost]: [Effect] brackets and no citation."
    assert ids["ck2008:100.2"].citations == []
    assert ids["ck2008:100.2.Example.1"].parent == "ck2008:100.2"
    assert len(ids["ck2008:100.2a"].citations) == 2
    ruling = ids["ck2008:102.3.Ruling.1"]
    assert ruling.parent == "ck2008:1"
    assert ruling.section == ["1 - The Game", "102", "102.3"]
    assert [r.kind for r in parsed.records].count("section") == 3
    assert ids["ck2008:G5.19a"].flags


def test_garbage_does_not_crash():
    source = Source(id="x", title="t", edition="10e", date="2008-10-20", lang="en", file="x",
                    format="crystalkeep-2008", provenance="p", credit="c", path=Path("x"))
    for text in ["", "+", "Note - stray", "1 - ---------- ", "100 - ", "+ 100.1 - a + Note - b Example: c",
                 "Table of Contents: ----------- G1.1 - X"]:
        crystalkeep.parse(text, source)
