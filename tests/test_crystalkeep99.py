"""The April 1999 Crystal Keep rules summary (final Fifth Edition release)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulebase.core.errors import SourceError
from rulebase.core.records import Citation, Ref, fold_space
from rulebase.core.sources import Source, load_manifest
from rulebase.ingest import ingest_source
from rulebase.ingest.crystalkeep import summary1999 as crystalkeep99
from rulebase.ingest.crystalkeep.summary1999 import _ends_group
from rulebase.ingest.text import decode

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def real():
    source = next(s for s in load_manifest() if s.id == "ck1999")
    report = ingest_source(source)
    text = decode(source.path.read_bytes(), str(source.path)).text
    return report.parsed, {r.id: r for r in report.parsed.records}, text


def _source(path: Path) -> Source:
    return Source(id="ck1999", title="CK 1999", edition="5e", date="1999-04", lang="en", file=path.name,
                  format="crystalkeep-1999", provenance="p", credit="c", path=path)


def _mini():
    path = FIXTURES / "ck-1999-mini.txt"
    parsed = crystalkeep99.parse(path.read_text(), _source(path))
    return parsed, {r.id: r for r in parsed.records}


def test_kind_counts_and_sections(real):
    parsed, _, _ = real
    assert Counter(r.kind for r in parsed.records) == Counter(
        rule=815, ruling=478, note=199, chapter=184, section=11, document=1)
    sections = [r for r in parsed.records if r.kind == "section"]
    assert [r.number for r in sections] == list("ACDEGKMPTUZ")
    assert sections[0].title == "Abilities" and sections[0].line == 217
    assert parsed.warnings == []


def test_coverage_every_line_lands_in_a_record(real):
    parsed, _, text = real
    ordered = sorted(parsed.records, key=lambda r: r.order)
    assert fold_space(" ".join(r.raw for r in ordered)) == fold_space(text)
    lines = text.split("\n")
    for record in ordered:
        assert lines[record.line - 1] == record.raw.split("\n")[0]


def test_rule_with_fifth_edition_citation_and_ref(real):
    _, ids, _ = real
    rule = ids["ck1999:G.12.1"]
    assert (rule.kind, rule.number, rule.parent) == ("rule", "G.12.1", "ck1999:G.12")
    assert rule.text == ("Spells and abilities which prevent damage can only be played during a Damage "
                         "Prevention Step (see Rule T.10).")
    assert rule.citations == [Citation("[Fifth Edition, Page 52]", "Fifth Edition", page="52")]
    assert rule.citations[0].target is None
    assert rule.refs == [Ref("Rule T.10", "rule", "T.10", target="ck1999:T.10")]
    assert rule.section == ["G - Game Terms and Rules", "G.12 - Damage Prevention"]


def test_headings(real):
    _, ids, _ = real
    heading = ids["ck1999:T.10"]
    assert (heading.kind, heading.number, heading.title, heading.parent) == (
        "chapter", "T.10", "Damage Prevention Step", "ck1999:T")
    trample = ids["ck1999:A.27"]
    assert trample.title == "Trample" and trample.raw == "A.27 - Trample:"
    assert ids["ck1999:A.5"].title == "Phase Abilities"
    assert ids["ck1999:A.5.2"].parent == "ck1999:A.5"


def test_rulings(real):
    _, ids, _ = real
    ruling = ids["ck1999:A.24.Ruling.3"]
    assert (ruling.kind, ruling.parent) == ("ruling", "ck1999:A.24")
    assert ruling.citations == [Citation("[D'Angelo 02/03/98]", "D'Angelo", "1998-02-03")]
    misprint = ids["ck1999:K.14.Rulings.7"]
    assert (misprint.kind, misprint.parent, misprint.flags) == (
        "ruling", "ck1999:K.14", ["printed 'Rulings' for 'Ruling'"])


def test_notes_attach_to_the_entry_before(real):
    _, ids, _ = real
    assert [ids[f"ck1999:A.1.17.Note.{n}"].text[:40] for n in (1, 2, 3)] == [
        'The text "Counts as a <-something->" is ',
        "Destroying the source of the ability aft",
        'Playing an ability is not considered as ']
    first = ids["ck1999:A.1.17.Note.1"]
    assert (first.kind, first.parent, first.line) == ("note", "ck1999:A.1.17", 236)
    assert [r.key for r in first.refs] == ["G.10.2"]
    on_heading = ids["ck1999:A.5.Note.1"]
    assert on_heading.parent == "ck1999:A.5"
    assert on_heading.refs == [Ref("Rule A.6", "rule", "A.6", target="ck1999:A.6")]


def test_mid_text_citations_are_lifted(real):
    _, ids, _ = real
    rule = ids["ck1999:A.1.6"]
    assert rule.text == ("Unless otherwise stated, the controller of the permanent generating the ability is "
                         'the only one who can play it. Exceptions are usually noted with text such as '
                         '"any/each player may".')
    assert [c.date for c in rule.citations] == ["1997-02-21", "1998-08-03"]


def test_duplicate_numbers_kept_apart(real):
    parsed, ids, _ = real
    assert ids["ck1999:D.18.5~2"].number == "D.18.5"
    assert ids["ck1999:D.18.5~2"].text.endswith("Memory Jar, Time Spiral, Windfall")
    assert ids["ck1999:T.5.2~2"].line == 1686
    assert parsed.notes[:2] == ["line 750: number D.18.5 appears twice; kept as ck1999:D.18.5~2",
                                "line 1686: number T.5.2 appears twice; kept as ck1999:T.5.2~2"]


def test_header_toc_and_back_matter(real):
    parsed, ids, _ = real
    meta = {k: v for k, v in parsed.meta.items() if k != "index"}
    assert meta == {"version_date": "1999-04", "release": "FINAL release under the FIFTH EDITION rules",
                    "rules": "FIFTH EDITION", "previous_release": "1999-04-21"}
    doc = ids["ck1999:document"]
    assert doc.kind == "document" and doc.line == 1
    assert "This is the FINAL release under the FIFTH EDITION rules." in doc.text.split("\n\n")
    contents = ids["ck1999:contents"]
    assert (contents.kind, contents.line) == ("note", 19)
    assert contents.raw.split("\n")[-1] == "Acknowledgements and Disclaimers"
    assert ids["ck1999:acknowledgements"].text.startswith("While this work is not officially issued")
    # the contents names two headings differently from the body: kept as aliases
    assert ids["ck1999:A.10"].title == "Untap Costs"
    assert "Untap Abilities" in ids["ck1999:A.10"].aliases
    assert ids["ck1999:M"].aliases == ["Multiplayer Rules"]


def test_index_aliases(real):
    parsed, ids, text = real
    assert "Trample" in ids["ck1999:A.27"].aliases
    assert "Abilities, Trample" in ids["ck1999:A.27"].aliases
    assert "Foresthome" in ids["ck1999:A.21"].aliases  # "Foresthome, see Landhome"
    assert "Artifact, Continuous" in ids["ck1999:K.6.Ruling.4"].aliases
    assert "Tournament, Deck Registration" in ids["ck1999:D.2"].aliases
    assert "Speed, Of effects" in ids["ck1999:T.2.Ruling.1"].aliases
    assert "Pitch Spells" in ids["ck1999:E.10"].aliases
    assert "Types of Abilities" in ids["ck1999:T.1"].aliases
    assert "Restricted Cards" in ids["ck1999:D.13.8"].aliases  # see Tournament, Restricted Cards
    entries = parsed.meta["index"]
    lines = text.split("\n")
    assert len(entries) == 378 == lines.index("Acknowledgements and Disclaimers", 1000) - lines.index("Index", 1000) - 1
    assert sum(1 for e in entries if e.get("group")) == 29
    assert [e["alias"] for e in entries if "see" in e and not e["resolved"]] == [
        "Attack", "Deck", "Draw, Pile"]
    assert ids["ck1999:index"].kind == "note"


@pytest.mark.parametrize(("label", "group", "last", "nxt", "ends"), [
    ("Announcing", "Abilities", "Activated", "Artifact", False),
    ("Activated Abilities", "Abilities", "Untap", "Artifact", True),
    ("Mana Burn", "Mana", "Generic", "Multi-Player", True),
    ("Pitch Spells", "Phasing", "Out", "Speed", True),
    ("Dealing", "Damage", "Combat Damage", "Damage Prevention", False),
    ("Deck Registration", "Tournament", "Extended Format", "Turn", False),
    ("Combat Damage", "Combat", None, "Cost", False),
])
def test_index_group_inference(label, group, last, nxt, ends):
    assert _ends_group(label, group, last, nxt) is ends


# --- fixture ---------------------------------------------------------------------------------

def test_fixture_continuation_missing_heading_and_bad_index_target():
    parsed, ids = _mini()
    rule = ids["ck1999:A.1.1"]
    assert rule.raw == ("A.1.1 - A rule. [Fifth Edition, Page 52] See Rule A.2.1.\n"
                        "this line continues rule A.1.1. [D'Angelo 02/03/98]")
    assert rule.text == "A rule. See Rule A.2.1. this line continues rule A.1.1."
    assert [c.page or c.date for c in rule.citations] == ["52", "1998-02-03"]
    assert rule.flags == ["continues on line 16"]
    assert [(r.key, r.target) for r in rule.refs] == [("A.2.1", "ck1999:A.2.1"), ("A.1.1", "ck1999:A.1.1")]
    orphan = ids["ck1999:A.3.1"]
    assert (orphan.parent, orphan.section, orphan.flags) == (
        "ck1999:A", ["A - Abilities", "A.3"], ["heading A.3 not found"])
    assert ids["ck1999:A.3.1.Note.2"].parent == "ck1999:A.3.1"
    assert ids["ck1999:A.2.1"].refs[0].target is None  # T.10 is not in this file
    assert ids["ck1999:A.2"].aliases == ["Abilities, Trample", "Stomp", "Trample"]
    assert ids["ck1999:A.1"].aliases == ["General Abilities", "Abilities, General"]
    assert [str(w) for w in parsed.warnings] == [
        f"{FIXTURES / 'ck-1999-mini.txt'}:30: index entry 'Zebra' names A.9, which is not in the summary"]
    assert ids["ck1999:A.1.1~2"].citations[0].date == "1994"


def test_garbage_input():
    source = _source(Path("x.txt"))
    for text in ["just some prose\nand more", "Table of Contents:", ""]:
        with pytest.raises(SourceError):
            crystalkeep99.parse(text, source)
    for text in ["A - X", "Table of Contents:\nA - X\nA - X\nIndex\nArtifact,\n,\n",
                 "Note - first\nA.1.1 - orphan\nIndex\nFoo, see Bar\n"]:
        crystalkeep99.parse(text, source)


def test_continuation_lines_are_joined_once_per_entry(monkeypatch):
    """Issue 21.3: each continuation line re-folded and re-scanned the whole entry (quadratic)."""
    text = (FIXTURES / "ck-1999-mini.txt").read_text(encoding="utf-8")
    calls = []
    real = crystalkeep99.find_rule_refs
    monkeypatch.setattr(crystalkeep99, "find_rule_refs", lambda t: calls.append(len(t)) or real(t))
    base = len(crystalkeep99.parse(text, _source(FIXTURES / "ck-1999-mini.txt")).records)
    calls.clear()
    entry = [line for line in text.splitlines() if crystalkeep99.ENTRY.match(line) and line.count(".") >= 2][-1]
    at = text.rfind(entry) + len(entry)  # the entry in the body, not its line in the contents
    long = text[:at] + "\n" + "\n".join(f"more words {n}, see rule A.1.2" for n in range(5_000)) + text[at:]
    parsed = crystalkeep99.parse(long, _source(FIXTURES / "ck-1999-mini.txt"))
    assert len(parsed.records) == base
    grown = next(r for r in parsed.records if "more words 4999" in r.text)
    assert grown.raw.count("\n") >= 5_000 and len([f for f in grown.flags if f.startswith("continues")]) == 5_000
    assert sum(calls) < 3 * len(long)  # each entry's text scanned about once
