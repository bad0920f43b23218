"""A tournament document at the judge's desk, on the real corpus: its table of contents
(`lookup IPG`, `lookup "MTR 4"`), the JAR's headings for a number it does not print, an IPG
infraction on one screen, and the notes that the newest release held is over a year old."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.core.errors import NotFound
from rulebase.rules import desk

runner = CliRunner()


def run(index_dir, *args, env=None):
    return runner.invoke(app, ["--index", str(index_dir), *args], env=env)


def test_lookup_of_a_document_lists_its_sections_in_force_with_numbers_and_titles(index_dir):
    got = run(index_dir, "lookup", "IPG")
    assert got.exit_code == 0
    lines = got.output.splitlines()
    assert lines[0] == ("IPG contents: Magic Infraction Procedure Guide, release 2024-09-23 (in force now)")
    assert "  2  GAME PLAY ERRORS" in lines and "    2.3  Game Play Error \u2014 Hidden Card Error" in lines
    assert lines.index("  2  GAME PLAY ERRORS") < lines.index("    2.1  Game Play Error \u2014 Missed Trigger") \
        < lines.index("  3  TOURNAMENT ERRORS") < lines.index("  Appendix B  CHANGES FROM PREVIOUS VERSIONS")
    mtr = run(index_dir, "lookup", "MTR").output.splitlines()
    assert mtr[0].startswith("MTR contents: Magic: The Gathering Tournament Rules, release 2025-11-10")
    assert "    2.2  Play/Draw Rule" in mtr


def test_contents_as_of_a_date_read_that_days_release(index_dir):
    got = run(index_dir, "lookup", "IPG", "--as-of", "2015-06-01")
    assert got.exit_code == 0
    assert got.output.splitlines()[0].endswith("release 2015-03-27 (in force on the day asked)")
    assert "Game Play Error \u2014 Hidden Card Error" not in got.output  # it came in 2016


def test_the_jar_lists_its_headings_and_says_it_numbers_none(index_dir):
    got = run(index_dir, "lookup", "JAR")
    assert got.exit_code == 0
    lines = got.output.splitlines()
    assert lines[1] == "  Common Issues" and any(line.startswith("    A player forgets a triggered ability") for line in lines)
    missing = run(index_dir, "lookup", "JAR 2.2")
    assert missing.exit_code == 1
    assert "the JAR numbers no sections, so there is no JAR 2.2" in missing.output
    assert "give a section number" not in missing.output and "'rulebase lookup JAR' lists its headings" in missing.output


@pytest.mark.parametrize("ref", ["MTR 4", "IPG 4"])
def test_a_chapter_lists_its_sections_by_title(index_dir, ref):
    got = run(index_dir, "lookup", ref)
    assert got.exit_code == 0
    want = {"MTR 4": "    4.2  Tournament Shortcuts", "IPG 4": "    4.1  Unsporting Conduct \u2014 Minor"}[ref]
    assert want in got.output.splitlines()


@pytest.mark.parametrize("ref", ["IPG 2.3", "ipg hidden card error"])
def test_an_infraction_on_one_screen_in_order(index_dir, ref):
    got = run(index_dir, "lookup", ref)
    assert got.exit_code == 0
    lines = got.output.splitlines()
    assert lines[0] == "IPG 2.3 Game Play Error \u2014 Hidden Card Error: Warning"
    heads = [line for line in lines if line and not line.startswith(" ")]
    order = [h.split(":")[0] for h in heads[1:]]
    assert order[:6] == ["Upgrades and downgrades", "Additional Remedy", "Definition", "Examples", "Philosophy",
                         "At Regular REL"]
    assert heads[7].startswith("penalty history: ")
    rules = lines[lines.index("Upgrades and downgrades") + 1:lines.index("Additional Remedy")]
    assert any(r.strip().startswith("IPG 2.3  Upgrade: If a face-down card") for r in rules)
    assert any("the third or subsequent Warning for a Game Play Error offense" in r for r in rules)  # IPG 2's path
    assert any("gives a player erroneous information" in r for r in rules)  # IPG 1's, for any infraction
    assert not any("deck is found to be illegal because of these cards" in r for r in rules)  # its example's case


def test_the_penalty_history_is_computed_from_the_versions(library):
    missed = desk.lookup(library.store, "IPG 2.1").infraction
    assert missed.history_line() == "Warning until 2016-01-21, No Penalty since 2016-01-22"
    assert desk.lookup(library.store, "IPG 2.1", 20150601).infraction.penalty == "Warning"


def test_every_quote_on_the_infraction_screen_is_in_its_source(library):
    found = desk.lookup(library.store, "IPG 2.1").infraction
    sources = {}
    for rule in found.rules:
        doc, number = rule.where.split(" ")
        record = sources.setdefault(rule.where, next(
            e.record for e in desk.lookup(library.store, rule.where).entries if not e.era))
        assert rule.text in record.text, (doc, number)
    assert found.jar is not None and found.jar.record.source == "jar"
    assert "forgets a triggered ability" in found.jar.record.title
    assert all(p in found.jar.record.text for p in found.jar.fix)


def test_the_infraction_json_shape(index_dir):
    got = run(index_dir, "lookup", "IPG 2.1", "--json")
    assert got.exit_code == 0
    data = json.loads(got.output)
    inf = data["infraction"]
    assert set(inf) == {"title", "number", "penalty", "rules", "additional_remedy", "definition", "examples",
                        "philosophy", "regular_rel", "penalty_history", "penalty_history_line"}
    assert inf["penalty"] == "No Penalty" and inf["number"] == "2.1"
    assert inf["penalty_history"][0] == {"penalty": "Warning", "first": "2013-02-08", "last": "2016-01-21"}
    assert set(inf["regular_rel"]) == {"id", "title", "problem", "fix", "likeness"}
    assert data["freshness"][0]["source"] == "ipg" and data["freshness"][0]["newest"] == "2024-09-23"
    contents = json.loads(run(index_dir, "lookup", "JAR", "--json").output)["contents"]
    assert contents["source"] == "jar" and {"depth", "id", "number", "title"} == set(contents["sections"][0])


def test_freshness_is_said_when_the_newest_release_is_over_a_year_old(index_dir):
    old = run(index_dir, "lookup", "IPG 3.4", env={"RULEBASE_TODAY": "2026-12-06"})
    assert "note: the newest IPG this corpus holds is of 2024-09-23, 26 months before today" in old.output
    fresh = run(index_dir, "lookup", "IPG 3.4", env={"RULEBASE_TODAY": "2025-03-01"})
    assert fresh.exit_code == 0 and "note: the newest" not in fresh.output
    assert "in releases 2024-04-15 to 2024-09-23" in fresh.output  # the answer names its releases
    sources = run(index_dir, "sources", env={"RULEBASE_TODAY": "2026-12-06"}).output
    assert "  newest: 2024-09-23, 26 months before today: a newer release may be in force" in sources
    assert "newest: 2024-09-23" not in run(index_dir, "sources", env={"RULEBASE_TODAY": "2025-03-01"}).output


def test_a_number_the_jar_does_not_print_is_not_found(library):
    with pytest.raises(NotFound) as caught:
        desk.lookup(library.store, "JAR 2.2")
    assert re.search(r"numbers no sections", str(caught.value))


def test_a_citation_means_the_rule_of_the_day_it_was_written(index_dir, library):
    """The MTR's 'rule 103.4' was written in 2013 about mulligans; the rules moved mulligans to
    103.5 in 2022 and the MTR kept its words: it cites the mulligan rule, now 103.5."""
    found = desk.lookup(library.store, "MTR 2.3")
    mulligans = next(c for c in found.cited if c.then.number == "103.4")
    assert mulligans.then.span[0] <= "2013-09-27" and "mulligan" in mulligans.then.text.lower()
    assert mulligans.now is not None and mulligans.now.number == "103.5"
    got = run(index_dir, "lookup", "MTR 2.3")
    assert "  cited as written: rule 103.4 (2013) \u2014 now 103.5 (cr:103.5@" in got.output


@pytest.mark.parametrize(("ref", "problem"), [
    ("IPG 2.1", "A player forgets a triggered ability"),
    ("IPG 2.3", "A player accidentally draws more cards"),
    ("IPG 3.9", "Inadequate shuffling"),
    ("IPG 4.6", "Theft"),
])
def test_the_jars_fix_is_found_by_its_own_words(library, ref, problem):
    jar = desk.lookup(library.store, ref).infraction.jar
    assert jar is not None and jar.problem.startswith(problem)
    assert jar.problem in jar.record.text or jar.problem == jar.record.title


def test_an_old_release_says_where_the_rules_it_cites_are_now(library):
    old = desk.lookup(library.store, "cr:glossary.rules-text@2009-07-11")
    assert [c.line().split(" (cr:")[0] for c in old.cited] == ["rule 206.1 (2009) \u2014 now 207.1"]
    assert desk.lookup(library.store, "702.19b").cited == []  # in force now: nothing to say


def test_a_search_hit_from_a_tournament_document_names_the_release_in_force(index_dir):
    got = run(index_dir, "search", "missed trigger", "--source", "ipg", "-n", "3")
    assert got.exit_code == 0
    assert "IPG 2.1 Game Play Error \u2014 Missed Trigger  [in force now (release 2024-09-23), text since" in got.output


@pytest.mark.parametrize(("ref", "head"), [
    ("IPG HCE", "IPG 2.3 Game Play Error \u2014 Hidden Card Error: Warning"),
    ("ipg grv", "IPG 2.5 Game Play Error \u2014 Game Rule Violation: Warning"),
    ("IPG FtMGS", "IPG 2.6 Game Play Error \u2014 Failure to Maintain Game State: Warning"),
    ("IPG D/L", "IPG 3.4 Tournament Error \u2014 Decklist Problem: Game Loss"),
])
def test_a_judges_shorthand_reaches_the_section_in_force(index_dir, ref, head):
    """The vocabulary file's abbreviations (corpus/vocabulary.toml), read when no title holds the
    letters as typed: the same screen as the section's number or title gives."""
    got = run(index_dir, "lookup", ref)
    assert got.exit_code == 0
    assert got.output.splitlines()[0] == head
    fast = subprocess.run([sys.executable, "-m", "rulebase", "--index", str(index_dir), "lookup", ref],
                          capture_output=True, text=True, timeout=120)
    assert (fast.returncode, fast.stdout) == (0, got.output)


def test_an_unknown_shorthand_and_a_title_the_jar_lacks_say_what_to_give(index_dir):
    unknown = run(index_dir, "lookup", "IPG zzz")
    assert unknown.exit_code == 1
    assert "no IPG section matches 'zzz'" in unknown.output and "give a section number ('IPG 2.2')" in unknown.output
    jar = run(index_dir, "lookup", "JAR FNM")
    assert jar.exit_code == 1
    assert "no JAR section matches 'FNM'" in jar.output and "give a section number" not in jar.output
    assert "'rulebase lookup JAR' lists its headings" in jar.output
