"""The Comprehensive Rules parser on the real 2008 release, the 2025 fixture and small fixtures."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from rulebase.core.errors import SourceError
from rulebase.core.records import number_key
from rulebase.core.sources import Source, load_manifest
from rulebase.ingest import ingest_source
from rulebase.ingest.comprules.release import parse
from rulebase.ingest.text import Parsed, decode

FIXTURES = Path(__file__).parent / "fixtures"
CR2025 = FIXTURES / "comprules-2025-11-14.txt"


def _source(sid: str, path: Path) -> Source:
    return Source(id=sid, title="Magic: The Gathering Comprehensive Rules", edition="10e", date="x", lang="en",
                  file=path.name, format="comprules", provenance="test", credit="test", path=path)


def _parse(sid: str, path: Path) -> tuple[str, Parsed]:
    text = decode(path.read_bytes(), str(path)).text
    return text, parse(text, _source(sid, path))


@pytest.fixture(scope="module")
def cr2008() -> tuple[str, Parsed]:
    source = next(s for s in load_manifest() if s.id == "cr2008")
    return _parse("cr2008", source.path)


@pytest.fixture(scope="module")
def cr2025() -> tuple[str, Parsed]:
    return _parse("cr2025", CR2025)


def _by_id(parsed: Parsed) -> dict:
    return {r.id: r for r in parsed.records}


def _regions(text: str, first_heading: str) -> tuple[list[str], list[str]]:
    """(rules lines, glossary lines), found without the parser: the rules start where the first
    Contents entry is repeated, end at 'Glossary'; the glossary ends at 'Credits'."""
    lines = text.split("\n")
    body = [i for i, line in enumerate(lines) if line == first_heading][1]
    glossary = lines.index("Glossary", body)
    credits = lines.index("Credits", glossary)
    return lines[body:glossary], lines[glossary + 1:credits]


# -- 2008 -----------------------------------------------------------------------------------------


def test_2008_rule_count_equals_numbered_lines(cr2008):
    text, parsed = cr2008
    rules_part, _ = _regions(text, "1. The Game")
    numbered = [line for line in rules_part if re.match(r"^\d{3}\.\d+[a-z]?\.?\s", line)]
    misprinted = [line for line in rules_part if re.match(r"^\d{3}\.[a-z]\s", line)]  # '306.b If ...'
    assert len(numbered) == 1173
    assert len(misprinted) == 1
    rules = [r for r in parsed.records if r.kind == "rule"]
    assert len(rules) == len(numbered) + len(misprinted)
    chapters = [line for line in rules_part if re.match(r"^\d{3}\. ", line)]
    assert len([r for r in parsed.records if r.kind == "chapter"]) == len(chapters) == 85


def test_2008_counts_and_no_warnings(cr2008):
    _, parsed = cr2008
    assert parsed.warnings == []
    kinds = Counter(r.kind for r in parsed.records)
    assert kinds == {"rule": 1174, "glossary": 399, "example": 173, "chapter": 85, "section": 7,
                     "note": 4, "document": 1}
    assert len({r.id for r in parsed.records}) == len(parsed.records)
    assert [r.order for r in parsed.records] == list(range(1, len(parsed.records) + 1))


def test_2008_every_line_placed_once(cr2008):
    text, parsed = cr2008
    have = Counter(line for r in parsed.records for line in r.raw.split("\n") if line.strip())
    need = Counter(line for line in text.split("\n") if line.strip())
    assert have == need


def test_2008_document_and_effective_date(cr2008):
    _, parsed = cr2008
    doc = _by_id(parsed)["cr2008:document"]
    assert doc.kind == "document"
    assert doc.title == "Magic: The Gathering Comprehensive Rules"
    assert doc.text == "These rules are current as of October 1, 2008."
    assert parsed.meta["effective"] == "2008-10-01"
    notes = {r.id: r for r in parsed.records if r.kind == "note"}
    assert sorted(notes) == ["cr2008:contents", "cr2008:credits", "cr2008:introduction", "cr2008:questions"]
    assert notes["cr2008:introduction"].text.startswith(
        "This document is designed for people who've moved beyond the basics of the Magic: The Gathering(R) game.")
    assert notes["cr2008:contents"].text.split("\n\n")[:2] == ["1. The Game", "100. General"]
    assert "Email: custserv@hasbro.be" in notes["cr2008:questions"].text


def test_2008_sections_and_chapters(cr2008):
    _, parsed = cr2008
    by_id = _by_id(parsed)
    section = by_id["cr2008:1"]
    assert (section.kind, section.number, section.title, section.parent) == ("section", "1", "The Game", None)
    chapter = by_id["cr2008:100"]
    assert (chapter.kind, chapter.number, chapter.title, chapter.parent) == ("chapter", "100", "General", "cr2008:1")
    assert chapter.line == 128  # the body heading, not the Contents line
    golden = by_id["cr2008:103"]
    assert golden.title == "The Magic Golden Rules"
    assert golden.raw == "103. The _Magic_ Golden Rules"
    assert golden.flags == []
    assert by_id["cr2008:211"].flags == ["not listed in the Contents"]


def test_2008_exalted(cr2008):
    _, parsed = cr2008
    by_id = _by_id(parsed)
    exalted = by_id["cr2008:502.83"]
    assert (exalted.kind, exalted.number, exalted.title, exalted.parent) == ("rule", "502.83", "Exalted", "cr2008:502")
    assert exalted.section == ["5. Additional Rules", "502. Keyword Abilities"]
    children = [r for r in parsed.records if r.parent == "cr2008:502.83"]
    assert [r.id for r in children] == ["cr2008:502.83a", "cr2008:502.83b"]
    a = by_id["cr2008:502.83a"]
    assert a.text == ('Exalted is a triggered ability. "Exalted" means "Whenever a creature you control attacks '
                      'alone, that creature gets +1/+1 until end of turn."')
    assert a.number == "502.83a" and a.title is None and a.line == 2318
    assert a.section == ["5. Additional Rules", "502. Keyword Abilities", "502.83. Exalted"]
    assert [ref.key for ref in by_id["cr2008:502.83b"].refs] == ["306.5"]


def test_2008_sentence_rules_have_no_title(cr2008):
    _, parsed = cr2008
    rule = _by_id(parsed)["cr2008:100.1"]
    assert rule.title is None
    assert rule.text == ("These Magic rules apply to any Magic game with two or more players, including "
                         "two-player games and multiplayer games.")
    assert rule.raw.startswith("100.1. These _Magic_ rules")
    assert _by_id(parsed)["cr2008:100.1a"].section == ["1. The Game", "100. General", "100.1"]
    assert _by_id(parsed)["cr2008:408.1"].title == "Timing, Priority, and the Stack"


def test_2008_refs(cr2008):
    _, parsed = cr2008
    by_id = _by_id(parsed)
    assert "212.4k" in [ref.key for ref in by_id["cr2008:212.4j"].refs]
    assert all(ref.target is None for ref in by_id["cr2008:212.4j"].refs)
    assert [ref.key for ref in by_id["cr2008:418.5k"].refs] == ["409.1f", "418.5b-g"]
    assert [ref.key for ref in by_id["cr2008:502.16a"].refs] == ["409.1b", "409.1f-h"]
    assert [(r.kind, r.key) for r in by_id["cr2008:glossary.ability"].refs] == [
        ("section", "4"), ("rule", "403"), ("rule", "404"), ("rule", "405"), ("rule", "401.3")]


def test_2008_continuations_and_examples(cr2008):
    _, parsed = cr2008
    by_id = _by_id(parsed)
    rule = by_id["cr2008:418.5a"]
    paragraphs = rule.text.split("\n\n")
    assert len(paragraphs) == 2
    assert paragraphs[1].startswith("Inside each layer from 1 through 5, apply effects")
    examples = [r for r in parsed.records if r.parent == "cr2008:418.5a"]
    assert [r.id for r in examples] == ["cr2008:418.5a.example1", "cr2008:418.5a.example2"]
    first = examples[0]
    assert (first.kind, first.number, first.line) == ("example", None, 1383)
    assert first.text.startswith('Example: Crusade is an enchantment that reads "White creatures get +1/+1."')
    assert first.section[-1] == "418.5a"
    assert not any(r.kind == "rule" and "Example:" in r.text for r in parsed.records)


def test_2008_misprinted_numbers_kept_and_flagged(cr2008):
    _, parsed = cr2008
    by_id = _by_id(parsed)
    misprint = by_id["cr2008:306.b"]
    assert (misprint.number, misprint.parent, misprint.line) == ("306.b", "cr2008:306.3", 837)
    assert misprint.flags == ["misprinted number 306.b: placed under 306.3, the rule it follows"]
    wrong = by_id["cr2008:306.1c"]
    assert wrong.parent == "cr2008:306.1"
    assert wrong.flags == ["out of sequence: printed after 306.b"]
    assert by_id["cr2008:609.6"].flags == ["printed without the period after its number"]
    assert by_id["cr2008:212.1b"].flags == ["printed with a period after its number"]


def test_2008_numbers_sort_numerically(cr2008):
    _, parsed = cr2008
    rules = [r for r in parsed.records if r.kind == "rule"]
    numbers = sorted((r.number for r in rules if r.title), key=number_key)
    assert numbers.index("501.10") == numbers.index("501.9") + 1
    assert numbers.index("502.10") == numbers.index("502.9") + 1
    out_of_order = [r.number for r, nxt in zip(rules, rules[1:], strict=False)
                    if number_key(nxt.number) <= number_key(r.number)]
    assert out_of_order == ["306.b"]  # followed by the misprinted 306.1c, the only sequence break


def test_2008_glossary(cr2008):
    text, parsed = cr2008
    _, glossary_lines = _regions(text, "1. The Game")
    starts = [i for i, line in enumerate(glossary_lines) if line.strip() and i and not glossary_lines[i - 1].strip()]
    entries = [r for r in parsed.records if r.kind == "glossary"]
    # 'Floor Rules' follows the 'Flip Cards' entry with no blank line between them
    assert len(entries) == len(starts) + 1 == 399
    by_id = _by_id(parsed)
    floor = by_id["cr2008:glossary.floor-rules"]
    assert (floor.title, floor.line) == ("Floor Rules", 3318)
    assert by_id["cr2008:glossary.flip-cards"].text.count("\n\n") == 6
    ante = by_id["cr2008:glossary.ante"]
    assert (ante.title, ante.flags, ante.number, ante.parent) == ("Ante (Obsolete)", ["obsolete"], None,
                                                                   "cr2008:glossary")
    assert sum("obsolete" in r.flags for r in entries) == 22
    life = by_id["cr2008:glossary.life"]
    assert (life.title, life.aliases) == ("Life", ["Life Total"])
    banding = by_id["cr2008:glossary.banding"]
    assert banding.aliases == ["Bands with Other"]
    assert by_id["cr2008:glossary.respond"].title == "Respond (Informal)"
    whole = by_id["cr2008:glossary.active-player-nonactive-player-order"]
    assert (whole.title, whole.aliases) == ("Active Player, Nonactive Player Order", [])
    exchange = by_id["cr2008:glossary.exchange"]
    assert exchange.text.count("\n\n") == 5  # the indented paragraphs after the example are the entry's
    assert by_id["cr2008:glossary.exchange.example1"].parent == exchange.id
    as_though = by_id["cr2008:glossary.as-though"]
    assert as_though.title == "As Though" and as_though.raw.startswith('"As Though"\n')


def test_2008_glossary_see_refs(cr2008):
    _, parsed = cr2008
    by_id = _by_id(parsed)
    apnap = [r for r in by_id["cr2008:glossary.apnap-order"].refs if r.kind == "glossary"]
    assert [(r.key, r.target) for r in apnap] == [
        ("active player, nonactive player order", "cr2008:glossary.active-player-nonactive-player-order")]
    seealso = [r for r in parsed.records for ref in r.refs if ref.label == "See also Tap, Tapped, and Untap"]
    assert seealso
    keys = [ref.key for ref in seealso[0].refs if ref.kind == "glossary"]
    assert keys == ["tap", "tapped", "untap"]
    assert all(ref.target for r in parsed.records for ref in r.refs if ref.kind == "glossary")


def test_2008_via_manifest_registry():
    source = next(s for s in load_manifest() if s.id == "cr2008")
    report = ingest_source(source)
    assert len(report.parsed.records) == 1843
    assert report.parsed.records[0].id == "cr2008:document"
    assert all(r.edition == "10e" and r.lang == "en" and r.source == "cr2008" for r in report.parsed.records)


# -- 2025 -----------------------------------------------------------------------------------------


def test_2025_parses_cleanly(cr2025):
    text, parsed = cr2025
    assert parsed.warnings == []
    assert parsed.meta["effective"] == "2025-11-14"
    assert _by_id(parsed)["cr2025:document"].text == "These rules are effective as of November 14, 2025."
    rules_part, glossary_lines = _regions(text, "1. Game Concepts")
    numbered = [line for line in rules_part if re.match(r"^\d{3}\.\d+[a-z]?\.?\s", line)]
    assert len([r for r in parsed.records if r.kind == "rule"]) == len(numbered) == 3109
    starts = [i for i, line in enumerate(glossary_lines) if line.strip() and i and not glossary_lines[i - 1].strip()]
    assert len([r for r in parsed.records if r.kind == "glossary"]) == len(starts) == 725
    have = Counter(line for r in parsed.records for line in r.raw.split("\n") if line.strip())
    assert have == Counter(line for line in text.split("\n") if line.strip())


def test_2025_exalted_and_quotes(cr2025):
    _, parsed = cr2025
    by_id = _by_id(parsed)
    exalted = by_id["cr2025:702.83a"]
    assert exalted.text.startswith("Exalted is a triggered ability")
    assert "\u201cExalted\u201d means \u201cWhenever" in exalted.text
    assert exalted.parent == "cr2025:702.83" and by_id["cr2025:702.83"].title == "Exalted"
    numbers = sorted((r.number for r in parsed.records if r.kind == "rule" and r.title), key=number_key)
    assert numbers.index("701.10") == numbers.index("701.9") + 1


def test_2025_glossary_one_liners(cr2025):
    _, parsed = cr2025
    by_id = _by_id(parsed)
    entries = [r for r in parsed.records if r.kind == "glossary"]
    one_line = [r for r in entries if r.raw.count("\n") == 1]
    assert len(one_line) == 725 - 29
    abandon = by_id["cr2025:glossary.abandon"]
    assert abandon.text == ("To turn a face-up ongoing scheme card face down and put it on the bottom of its "
                            "owner\u2019s scheme deck. See rule 701.33, \u201cAbandon.\u201d")
    assert [r.key for r in abandon.refs] == ["701.33"]
    ability = by_id["cr2025:glossary.ability"]
    assert ability.text.split("\n\n")[0] == "1. Text on an object that explains what that object does or can do."
    removed = by_id["cr2025:glossary.remove-from-the-game"]
    assert removed.title == "Remove from the Game (Obsolete)"
    assert removed.aliases == ["Removed", "Removed-from-the-Game Zone"]
    assert by_id["cr2025:glossary.partner"].aliases == ["Partner\u2014[text]", "Partner with [name]"]
    y = by_id["cr2025:glossary.y"]
    assert [(r.kind, r.key, r.target) for r in y.refs] == [("glossary", "x", "cr2025:glossary.x")]


# -- small fixtures and odd input -----------------------------------------------------------------


def test_bare_cr_line_endings():
    text, parsed = _parse("crcr", FIXTURES / "cr-bare-cr.txt")
    assert "\r" not in text
    assert parsed.warnings == []
    assert parsed.meta["effective"] == "2021-03-03"
    by_id = _by_id(parsed)
    assert by_id["crcr:100.1a"].parent == "crcr:100.1"
    assert by_id["crcr:100.1a.example1"].text == "Example: A game with Alex and Bianca."
    assert by_id["crcr:introduction"].text == "A short introduction to these rules."
    turn = by_id["crcr:glossary.turn-player"]
    assert turn.flags == ["obsolete"]
    assert [(r.key, r.target) for r in turn.refs] == [("active player", "crcr:glossary.active-player")]
    assert by_id["crcr:credits"].text == "Rules by someone."
    assert [r.kind for r in parsed.records].count("chapter") == 1


def test_subrule_letters_skip_l_and_o():
    _, parsed = _parse("crl", FIXTURES / "cr-letters.txt")
    assert parsed.warnings == []
    subrules = [r for r in parsed.records if r.parent == "crl:100.1"]
    assert [r.number for r in subrules] == [f"100.1{c}" for c in "abcdefghijkmnp"]
    assert subrules[11].number == "100.1m" and subrules[11].flags == []
    by_id = _by_id(parsed)
    assert by_id["crl:100.1"].title == "Deck Rules"
    assert by_id["crl:100.2"].title == "Timing, Priority, and the Stack"
    assert by_id["crl:100.10"].flags == [] and by_id["crl:100.10"].title is None
    life = by_id["crl:glossary.life"]
    assert (life.title, life.aliases, [r.key for r in life.refs]) == ("Life", ["Life Total"], ["100.10"])


def test_no_contents_and_stray_text_warns():
    text = ("Comprehensive Rules\n\nThese rules are current as of May 5, 2005.\n\n1. Game\n\n"
            "Stray words.\n\n100. General\n\n100.1. A rule.\n\nExample: Fine.\n")
    parsed = parse(text, _source("t", Path("t.txt")))
    assert [(w.line, w.message[:20]) for w in parsed.warnings] == []
    assert _by_id(parsed)["t:1"].text == "Game\n\nStray words."
    parsed = parse("Rules\n\n100.1. A rule before any chapter.\n", _source("t", Path("t.txt")))
    assert [w.line for w in parsed.warnings] == [3]
    assert _by_id(parsed)["t:100.1"].parent is None


def test_not_comprules_raises_source_error():
    with pytest.raises(SourceError):
        parse("Just some prose.\n\nNo rules here.\n", _source("t", Path("t.txt")))


def test_damaged_input_never_raises_anything_else(cr2008):
    text, _ = cr2008
    lines = text.split("\n")
    rng = random.Random(7)
    for _ in range(25):
        kept = [line for line in lines if rng.random() > 0.3]
        try:
            parsed = parse("\n".join(kept), _source("d", Path("d.txt")))
        except SourceError:
            continue
        assert len({r.id for r in parsed.records}) == len(parsed.records)


# -- releases that end early, and bodies the Contents does not match ------------------------------

_SMALL = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of March 3, 2021.\n\n"
          "Contents\n\n1. Game Concepts\n100. General\nGlossary\nCredits\n\n"
          "1. The Game\n\n100. General\n\n100.1. These rules apply to any game.\n\n"
          "Example: A game with Alex and Bianca.\n\nGlossary\n\n"
          "Active Player\nThe player whose turn it is. See rule 100.1.\n\n"
          "Zone\nA place where objects can be. See rule 100.1.\n\n"
          "Credits\n\nRules by someone.\n")


def test_body_start_does_not_need_the_contents_heading_text():
    parsed = parse(_SMALL, _source("s", Path("s.txt")))
    by_id = _by_id(parsed)
    assert parsed.warnings == []
    assert (by_id["s:1"].title, by_id["s:1"].line, by_id["s:1"].flags) == (
        "The Game", 12, ["not listed in the Contents"])
    assert by_id["s:100.1"].parent == "s:100" and by_id["s:100"].parent == "s:1"
    assert by_id["s:credits"].text == "Rules by someone."


def test_glossary_cut_off_before_the_credits_warns_with_line():
    text = _SMALL.split("\nZone\n")[0] + "\nZone\n"
    parsed = parse(text, _source("s", Path("s.txt")))
    assert [(w.file, w.line) for w in parsed.warnings] == [("s.txt", 25)]
    assert parsed.warnings[0].message == (
        "the glossary runs to the end of the file (2 entries, letters A-Z, the last 'Zone' at line 25) "
        "with no 'Credits', which the Contents lists after it: the file looks truncated")


def test_glossary_whose_last_entry_has_no_definition_warns():
    text = _SMALL.replace("Zone\nA place where objects can be. See rule 100.1.\n", "Zone\n")
    parsed = parse(text, _source("s", Path("s.txt")))
    assert [(w.line, w.message.split(" (")[0]) for w in parsed.warnings] == [
        (25, "the last glossary entry has no definition")]


def test_glossary_entries_after_the_credits_warn():
    text = _SMALL + "\nZombie\nA creature type. See rule 100.1.\n"
    parsed = parse(text, _source("s", Path("s.txt")))
    assert [(w.line, w.message[:40]) for w in parsed.warnings] == [
        (33, "1 line(s) after the glossary cite rules ")]
    assert "Zombie" in _by_id(parsed)["s:credits"].raw  # still placed, and flagged


def test_rules_in_the_back_matter_warn():
    text = _SMALL + "\n100.2. A rule that slipped past the glossary.\n"
    parsed = parse(text, _source("s", Path("s.txt")))
    assert [(w.line, w.message) for w in parsed.warnings] == [
        (32, "1 numbered rule line(s) after the glossary, in the back matter")]


def test_a_parse_that_keeps_no_rules_is_an_error(monkeypatch):
    from rulebase.ingest.comprules import release as comprules

    monkeypatch.setattr(comprules._Body, "numbered", lambda self, *args, **kwargs: None)
    with pytest.raises(SourceError, match=r"no numbered rules found in the body \(lines 12-19\)"):
        parse(_SMALL, _source("s", Path("s.txt")))


def test_see_rule_wrapped_onto_a_numbered_line_is_not_a_rule():
    text = _SMALL.replace("100.1. These rules apply to any game.\n",
                          "100.1. These rules apply to any game. See rule\n100.1a for more.\n")
    parsed = parse(text, _source("s", Path("s.txt")))
    by_id = _by_id(parsed)
    assert "s:100.1a" not in by_id
    assert by_id["s:100.1"].text == "These rules apply to any game. See rule 100.1a for more."
    assert by_id["s:100.1"].raw == "100.1. These rules apply to any game. See rule\n100.1a for more."


def test_missing_or_empty_glossary_warns():
    start, rest = _SMALL.split("Glossary\n\nActive Player")
    no_glossary = start + "Credits" + rest.split("Credits", 1)[1]
    parsed = parse(no_glossary, _source("s", Path("s.txt")))
    assert [(w.line, w.message) for w in parsed.warnings] == [
        (18, "the Contents lists a Glossary but no 'Glossary' heading follows the rules")]
    empty = start + "Glossary\n\nCredits" + rest.split("Credits", 1)[1]
    parsed = parse(empty, _source("s", Path("s.txt")))
    assert [(w.line, w.message) for w in parsed.warnings] == [(20, "the glossary has no entries")]


class _Probes(dict):
    """A dict that counts membership tests: how much work finding a free id took."""

    probes = 0

    def __contains__(self, key) -> bool:
        _Probes.probes += 1
        return super().__contains__(key)


def test_repeated_rule_ids_cost_a_constant_number_of_probes_each():
    """Issue 21.3: 200,000 repeated '702.19a' lines took about an hour: each duplicate searched
    '~2', '~3', ... from 2 again. Now each takes a few probes, however many came before."""
    from rulebase.ingest.comprules.glossary import Builder

    source = _source("h", Path("h.txt"))
    for n in (2_000, 20_000):
        _Probes.probes = 0
        b = Builder(source, by_id=_Probes())
        for line in range(n):
            b.add("702.19a", "rule", line + 1, "702.19a Trample.")
        assert _Probes.probes <= 3 * n
    ids = [r.id for r in b.records]
    assert len(set(ids)) == n and ids[:3] == ["h:702.19a", "h:702.19a~2", "h:702.19a~3"]
    assert b.records[-1].flags == [f"duplicate id h:702.19a: stored as h:702.19a~{n}"]


HOSTILE_HEAD = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of November 14, 2025.\n\n"
                "1. Game Concepts\n\n100. General\n\n100.1. General.\n\n7. Additional Rules\n\n"
                "702. Keyword Abilities\n\n702.19. Trample\n\n")


def test_a_hostile_rules_file_keeps_every_line():
    text = HOSTILE_HEAD + "702.19a Trample is a static ability.\n" * 20_000
    parsed = parse(text, _source("h", Path("h.txt")))
    rules = [r for r in parsed.records if r.number == "702.19a"]
    assert len(rules) == 20_000 and len({r.id for r in rules}) == 20_000
    assert rules[-1].line == text.count("\n")


def test_one_endless_wrapped_paragraph_is_joined_once():
    """Continuation lines were joined one at a time (the paragraph copied per line: quadratic)."""
    from rulebase.ingest.comprules.glossary import Builder

    b = Builder(_source("h", Path("h.txt")))
    record = b.add("702.19a", "rule", 1, "702.19a Trample")
    b.para(record, "Trample")
    for n in range(20_000):
        b.extend(record, f"w{n}", f"w{n}")
    assert b.paras[record.id] == ["Trample"] and len(b.runs[record.id]) == 20_000  # not joined yet
    b.finish()
    assert record.text == "Trample " + " ".join(f"w{n}" for n in range(20_000))
    assert record.raw.count("\n") == 20_000
