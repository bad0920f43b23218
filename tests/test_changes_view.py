"""`changes` of a tournament document for people, on the real corpus: the changed sentences only,
fitting 80 columns, the document's own changes appendix first, `--summary` a line a section,
`--full` the whole sections; and no changed sentence lost."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.cli.views.plain_changes import diff_pieces, ordered, reader_lines
from rulebase.rules.diff import ITEM_WORDS, sentence_diff
from rulebase.rules.history import changes_between

runner = CliRunner()


def run(index_dir, *args):
    return runner.invoke(app, ["--index", str(index_dir), *args], env={"COLUMNS": "80"})


@pytest.fixture(scope="module")
def mtr_2024(library):
    return changes_between(library.store, "2024-01", "2024-12", "mtr", ("section",))


def _flat(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


def test_the_mtr_of_2024_fits_80_columns_in_a_few_screens(index_dir):
    got = run(index_dir, "changes", "--source", "mtr", "--from", "2024-01", "--to", "2024-12")
    assert got.exit_code == 0
    lines = got.output.splitlines()
    assert len(lines) < 150  # 760 lines at 80 columns whole
    assert [line for line in lines if len(line) > 80] == []
    whole = run(index_dir, "changes", "--source", "mtr", "--from", "2024-01", "--to", "2024-12", "--full").output
    assert sum(max(1, -(-len(line) // 80)) for line in whole.splitlines()) > 3 * len(lines)


def lost(found, lines: list[str]) -> list[tuple]:
    """Each changed sentence's edits (or an added or removed sentence whole) missing from lines."""
    text = _flat(lines)
    own = ordered(found)[0]
    missing = []
    for change in found.changes:
        if change.old is None or change.new is None:
            continue
        for each in sentence_diff(change.old.text, change.new.text):
            if change is own and each.kind == "removed":
                continue  # the appendix's older entries roll off: what it adds is shown
            shown = [" ".join(t.split()) for k, t in diff_pieces(each.ops) if k != "equal"] \
                if each.kind == "changed" else [" ".join((each.new or each.old).split())]
            missing += [(change.new.number, each.kind, piece[:60]) for piece in shown if piece not in text]
    return missing


def test_no_changed_sentence_is_lost(mtr_2024):
    lines = reader_lines(mtr_2024, columns=80)
    assert lost(mtr_2024, lines) == []
    standard = lines.index("~ 6.3  Standard Format Deck Construction")
    assert lost(mtr_2024, lines[:standard + 1] + lines[standard + 2:])  # the check fails on a dropped line


def test_each_section_has_its_number_and_title_and_the_appendix_comes_first(mtr_2024):
    lines = reader_lines(mtr_2024, columns=80)
    heads = [line for line in lines[1:] if line[:2] in ("~ ", "+ ", "- ")]
    assert heads[0] == "~ Appendix A  Changes From Previous Versions"
    assert "~ 2.7  Deck Registration" in heads and "- 3.17  Supplementary Decks" in " ".join(heads)
    assert "~ Introduction" in heads  # its only change, a web address, right under it
    intro = lines.index("~ Introduction")
    assert "rules-documents" in " ".join(lines[intro + 1: intro + 4])


def test_summary_is_one_line_a_section(index_dir):
    got = run(index_dir, "changes", "-s", "ipg", "--from", "2024-04-15", "--to", "2024-09-23", "--summary")
    assert got.exit_code == 0
    lines = got.output.splitlines()
    assert lines == [
        "ipg 2024-04-15 -> 2024-09-23: 5 changed",
        "~ Appendix B  CHANGES FROM PREVIOUS VERSIONS: 6 added sentences",
        "~ 1.2  APPLYING PENALTIES: 1 changed, 1 removed sentences",
        "~ 2.1  Game Play Error \u2014 Missed Trigger: 3 added sentences",
        "~ 2.5  Game Play Error \u2014 Game Rule Violation: 1 changed, 1 added sentences",
        "~ 3.5  Tournament Error \u2014 Deck Problem: 1 changed, 1 added sentences"]


def test_json_has_each_sections_sentences(index_dir):
    got = run(index_dir, "changes", "-s", "ipg", "--from", "2024-04-15", "--to", "2024-09-23", "--json")
    data = json.loads(got.output)
    missed = next(c for c in data["changes"] if c["new_number"] == "2.1")
    assert missed["title"] == "Game Play Error \u2014 Missed Trigger"
    assert {s["kind"] for s in missed["sentences"]} == {"added"}
    assert any("lore counter on a Saga" in s["new"] for s in missed["sentences"])
    assert set(missed["sentences"][0]) == {"kind", "old", "new", "before"}


def test_short_items_are_one_flow(mtr_2024):
    lines = reader_lines(mtr_2024, columns=80)
    standard = lines.index("~ 6.3  Standard Format Deck Construction")
    assert lines[standard + 1].startswith("  + added: ") and "Bloomburrow" in _flat(lines[standard + 1: standard + 4])
    assert ITEM_WORDS >= 5


def test_a_sentence_one_release_broke_in_two_is_not_shown_removed(mtr_2024):
    """MTR 1.12's 2023 text broke "... what expectations they" / "can have of the ..." in two;
    2024 prints it whole: no change to show, and its first half is not 'removed'."""
    lines = reader_lines(mtr_2024, columns=80)
    rel = lines.index("~ 1.12  Rules Enforcement Levels")
    section = lines[rel + 1: next(n for n in range(rel + 1, len(lines)) if not lines[n].startswith(" "))]
    assert not any(line.lstrip().startswith("- ") for line in section)
    assert "means to communicate" not in _flat(section)


def test_a_tables_next_column_edited_alike_is_not_listed_again(mtr_2024):
    lines = _flat(reader_lines(mtr_2024, columns=80))
    assert "{+Innistrad Remastered+} in 5 sentences as above" in lines
    assert "located … (2)" in lines  # one lead twice: said once, counted


def test_an_added_sentence_right_after_the_one_shown_needs_no_anchor(mtr_2024):
    lines = reader_lines(mtr_2024, columns=80)
    shortcuts = lines.index("~ 4.2  Tournament Shortcuts")
    assert lines[shortcuts + 3].startswith("  + If an object has multiple mana abilities")


def test_sentence_halves_are_joined_before_they_are_compared():
    old = ("Levels are a means to tell players what they\n\ncan have of the event. "
           "Judges at the event help the players who call them to the table.")
    new = ("Levels are a means to tell players what they can have of the event. "
           "Judges at the event help all the players who call them to the table.")
    got = sentence_diff(old, new)
    assert [(c.kind, c.new) for c in got] == [("changed", new.split(". ")[1])]
