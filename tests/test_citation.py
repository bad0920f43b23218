"""Citations resolved through the rules' lineages (rules/citation.py) and `rulebase cite`: what a
number meant on the day it was written and what it is now, on the real corpus and on small
timelines made here."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.core.errors import UsageError
from rulebase.rules.citation import CR, Timeline, cite, parse

runner = CliRunner()


def run(index_dir, *args):
    return runner.invoke(app, ["--index", str(index_dir), *args])


# -- the written forms ---------------------------------------------------------------------------


@pytest.mark.parametrize("written", ["702.19b", "CR 702.19b", "rule 702.19b", "Rule 702.19b", "702.19b.",
                                     "[702.19b]", "§702.19b", "§ 702.19b", "(CR 702.19b)", "  702.19B  "])
def test_the_forms_people_write_name_one_rule(written):
    assert parse(written) == (CR, "702.19b")


@pytest.mark.parametrize("written,expected", [("MTR 2.3", ("mtr", "2.3")), ("IPG 2.1", ("ipg", "2.1")),
                                              ("IPG 2.1.", ("ipg", "2.1")), ("mtr section 3.2", ("mtr", "3.2")),
                                              ("DTR 1.10", ("dmtr", "1.10")), ("[IPG 4.2]", ("ipg", "4.2"))])
def test_tournament_sections_are_their_documents(written, expected):
    assert parse(written) == expected


@pytest.mark.parametrize("written", ["trample", "", "1.2.3", "3.14", "99.1", "1000.1", "ipg missed trigger",
                                     "cr2008:502.83a", "192.168.1.1"])
def test_anything_else_is_a_usage_error(written):
    with pytest.raises(UsageError):
        parse(written)


# -- a timeline made here: every state ------------------------------------------------------------

ROWS = [  # (id, lineage, number, first, last): made up, in the archive's shape
    ("cr:100.1@2001-01-01", "A", "100.1", 20010101, 20051231),
    ("cr:200.1@2006-01-01", "A", "200.1", 20060101, 20101231),  # A renumbered 2006
    ("cr:300.1@2011-01-01", "A", "300.1", 20110101, 99991231),  # ... and 2011, in force now
    ("cr:100.1@2006-01-01", "B", "100.1", 20060101, 20081231),  # B took 100.1, removed 2009
    ("cr:100.1@2009-01-01", "C", "100.1", 20090101, 99991231),  # C holds 100.1 now
    ("cr:400.1@2001-01-01", "D", "400.1", 20010101, 20071231),
    ("cr:400.1@2008-01-01", "D", "400.1", 20080101, 99991231),  # D edited in place
]
TODAY = 20260101


def test_a_renumbered_rule_names_each_move_and_who_holds_the_number_now():
    status = Timeline(CR, ROWS).status("100.1", 20030601, TODAY)
    assert status.state == "renumbered" and not status.holds
    assert status.then.id == "cr:100.1@2001-01-01" and status.now.id == "cr:300.1@2011-01-01"
    assert status.moves == ((20060101, "200.1"), (20110101, "300.1"))
    assert status.taken_by.id == "cr:100.1@2009-01-01"


def test_a_removed_rule_says_when_and_its_last_version():
    status = Timeline(CR, ROWS).status("100.1", 20070101, TODAY)
    assert status.state == "removed" and status.then.lineage == "B"
    assert status.removed == 20090101 and status.last.id == "cr:100.1@2006-01-01"


def test_the_same_rule_edited_in_place_still_holds():
    status = Timeline(CR, ROWS).status("400.1", 20050101, TODAY)
    assert status.state == "current" and status.holds
    assert status.then.id != status.now.id and status.moves == () and status.taken_by is None
    assert status.era == (20010101, 99991231)  # both versions: the days the rule held the number


def test_a_number_nobody_held_that_day_is_unknown_with_its_nearest_era():
    timeline = Timeline(CR, ROWS)
    before = timeline.status("300.1", 20050101, TODAY)  # only later a rule
    assert before.state == "unknown" and before.then.id == "cr:300.1@2011-01-01"
    gone = timeline.status("200.1", 20200101, TODAY)  # once a rule, not that day
    assert gone.state == "unknown" and gone.then.id == "cr:200.1@2006-01-01" and gone.now.number == "300.1"
    never = timeline.status("999.9z", 20200101, TODAY)
    assert never.state == "unknown" and never.then is None and never.now is None


# -- the real corpus -------------------------------------------------------------------------------


def test_trample_of_2010_is_now_702_19(library):
    found = cite(library.store, "702.17", 20100601)
    assert found.status.state == "renumbered"
    assert found.then.title == "Trample" and found.then.id == "cr:702.17@2009-07-11"
    assert found.now.number == "702.19" and found.now.title == "Trample"
    assert [day for day, _ in found.status.moves] == [20110617, 20130713]
    assert found.taken_by is not None and found.taken_by.title == "Reach"  # 702.17 is reach now


def test_exalted_of_2008_is_now_702_83a_with_its_words(library):
    found = cite(library.store, "CR 502.83a", 20081001)
    assert found.status.state == "renumbered" and found.now.number == "702.83a"
    assert found.then.text.startswith("Exalted is a triggered ability.") and found.parent.title == "Exalted"
    assert not found.text_changed  # only the quotes were retyped
    assert [number for _, number in found.status.moves] == ["702.80a", "702.81a", "702.82a", "702.83a"]


def test_a_rule_edited_since_carries_its_word_diff(library):
    found = cite(library.store, "702.19b", 20100601)  # banding's 'bands with other' of 2009-2011
    assert found.status.state == "renumbered" and found.now.number == "702.22b"
    current = cite(library.store, "704.3", 20100101)  # state-based actions: its cross-reference changed
    assert current.status.state == "current" and current.text_changed and current.change == "references"
    assert any(op.op != "equal" and "117" in op.b for op in current.diff)


def test_a_number_never_a_rule_is_unknown(library):
    found = cite(library.store, "999.9z")
    assert found.status.state == "unknown" and found.then is None and found.now is None


def test_a_tournament_section_resolves_through_its_own_releases(library):
    found = cite(library.store, "IPG 2.1", 20140101)
    assert found.status.source == "ipg" and found.status.state == "current"
    assert found.then.id.startswith("ipg:2.1@") and "Missed Trigger" in found.now.title


# -- the command ---------------------------------------------------------------------------------


def test_cite_says_trample_now_702_19(index_dir):
    result = run(index_dir, "cite", "702.17", "--as-of", "2010-06-01")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "702.17 (2010-06-01) is now 702.19: renumbered 2011-06-17 and 2013-07-13; same text"
    assert lines[1] == "  then: 702.17 Trample, in force 2009-07-11 to 2011-06-16  (cr:702.17@2009-07-11)"
    assert lines[2].startswith("  now: 702.19 Trample, in force 2013-07-13 to ")
    assert lines[3] == "  the number now: 702.17 Reach  (cr:702.17@2013-07-13)"


def test_cite_says_exalted_now_702_83a(index_dir):
    result = run(index_dir, "cite", "502.83a", "--as-of", "2008-10-01")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == ("502.83a (2008-10-01) is now 702.83a: renumbered 2009-07-11, "
                                             "2011-06-17, 2013-07-13 and 2021-04-22; same text")
    assert "  then: 502.83a (Exalted), in force 2008-10-01 to 2009-07-10  (cr:502.83a@2008-10-01)" in result.stdout


def test_cite_of_a_number_never_a_rule_exits_1(index_dir):
    result = run(index_dir, "cite", "999.9z", "--as-of", "2020-01-01")
    assert result.exit_code == 1
    assert result.stdout == "999.9z (2020-01-01) was never a rule: no Comprehensive Rules release has it\n"


def test_cite_of_a_number_that_was_a_rule_another_day_exits_1_saying_when(index_dir):
    result = run(index_dir, "cite", "CR 502.83a", "--as-of", "2010-06-01")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == ("502.83a (2010-06-01) was not a rule that day (502.83a was "
                                             "2008-10-01 to 2009-07-10; now 702.83a)")


def test_cite_of_words_is_a_usage_error(index_dir):
    result = run(index_dir, "cite", "trample")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: 'trample' is not a rule number or a tournament document's section - ")


def test_cite_json_has_the_documented_shape(index_dir):
    result = run(index_dir, "cite", "[702.17]", "--as-of", "2010-06-01", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == ["ref", "source", "number", "as_of", "state", "holds", "then", "now", "last", "renumbered",
                          "text_changed", "change", "diff", "removed", "taken_by", "headline"]
    assert (data["source"], data["number"], data["as_of"], data["state"], data["holds"]) == (
        "cr", "702.17", "2010-06-01", "renumbered", False)
    assert data["then"]["id"] == "cr:702.17@2009-07-11" and data["then"]["in_force_now"] is False
    assert data["then"]["in_force"] == {"first": "2009-07-11", "last": "2011-06-16"}
    assert data["now"]["number"] == "702.19" and data["now"]["in_force_now"] is True
    assert data["renumbered"] == [{"on": "2011-06-17", "to": "702.18"}, {"on": "2013-07-13", "to": "702.19"}]
    assert data["last"] is None and data["removed"] is None and data["taken_by"]["title"] == "Reach"


def test_lookup_as_of_a_day_says_where_the_rule_went(index_dir):
    result = run(index_dir, "lookup", "702.17", "--as-of", "2010-06-01")
    assert result.exit_code == 0
    assert "note: 702.17 (2010-06-01) is now 702.19: renumbered 2011-06-17 and 2013-07-13; same text" in result.stderr
    assert result.stdout.startswith("cr 702.17 Trample")
    data = json.loads(run(index_dir, "lookup", "702.17", "--as-of", "2010-06-01", "--json").stdout)
    assert data["citation"].startswith("702.17 (2010-06-01) is now 702.19")
    assert "citation" not in json.loads(run(index_dir, "lookup", "702.19", "--json").stdout)
