"""`rulebase compare`, `diff` and `changes` through the CLI: exit codes, messages, --json."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from rulebase.cli.app import app

runner = CliRunner()


def run(index_dir, *args: str):
    return runner.invoke(app, ["--index", str(index_dir), *args])


def test_compare_json_curated(index_dir):
    result = run(index_dir, "compare", "legends", "--editions", "6e,4e", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["topic"] == "legends" and data["curated"] is True
    assert list(data["editions"]) == ["4e", "6e"]
    sixth = data["editions"]["6e"]
    assert [c["id"] for c in sixth["citations"]] == [
        "cr:215.2@1999-04-23", "cr:215.1@1999-04-23", "cr:420.5e@1999-04-23", "cr:glossary.legend-legend-rule@1999-04-23"]
    assert sixth["summary"].endswith("The Hungarian guide does not mention legends.")
    assert {k: v for k, v in sixth.items() if k not in ("summary", "citations")} == {
        "in_force": {"first": "1999-04-23", "last": "1999-10-31"}, "in_force_now": False, "column": "6e", "removed": []}
    assert data["editions"]["4e"]["citations"][0]["id"] == "rb4e:creatures.6"
    assert data["editions"]["4e"]["citations"][0]["pages"] == ["30", "31"]


def test_compare_unknown_topic_still_returns_search_results(index_dir):
    result = run(index_dir, "compare", "first strike", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["curated"] is False and set(data["editions"]) == {"alpha", "4e", "5e", "6e", "10e", "cr2026"}
    assert all(column["summary"] is None for column in data["editions"].values())
    assert data["editions"]["10e"]["citations"]


def test_compare_plain_text(index_dir):
    result = run(index_dir, "compare", "ante", "--editions", "6e")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "ante: how the editions compare",
        "[6e]  in force 1999-04-23 to 2001-09-23",
        "  The Comprehensive Rules' glossary describes ante as an optional rule the game once included: each player "
        "puts one random card from the deck into the ante zone, and the winner becomes the owner of all cards in the "
        "ante. The Hungarian guide does not mention ante.",
        '  "The Magic game once included an optional ante rule. When using this rule, at the beginning of the game '
        'each player puts one random card from his or her deck into the ante zone. At the end of the game, the winner '
        'becomes the owner of all cards in the ante."',
        "    - cr:glossary.ante@1999-04-23",
    ]
    searched = run(index_dir, "compare", "zzqx flibber", "--editions", "4e")  # (near spellings: flier)
    assert searched.exit_code == 0
    assert searched.stdout.splitlines()[0] == "zzqx flibber: search results per edition (not a curated topic)"
    # no edition says anything about it: the columns say so, and the exit code is not found's
    nothing = run(index_dir, "compare", "zzzqqq")
    assert nothing.exit_code == 1 and "no passages found in this edition" in nothing.stdout
    shape = run(index_dir, "compare", "zzzqqq", "--json")
    editions = json.loads(shape.stdout)["editions"]
    assert shape.exit_code == 1 and editions and not any(e["citations"] for e in editions.values())


def test_compare_unknown_edition_is_a_usage_error(index_dir):
    result = run(index_dir, "compare", "mana burn", "--editions", "4e,7e")
    assert result.exit_code == 2
    assert result.stdout == ""
    eras = ", ".join(f"cr{year}" for year in range(2009, 2027))
    assert result.stderr == ("error: unknown edition '7e' - choose from alpha, 4e, 5e, 6e, cr2001, cr2002, cr2003, cr2004, cr2005, "
                             "cr2006, "
                             f"cr2007, 10e, {eras} (comma-separated)\n")


def test_diff_json_opcodes(index_dir):
    result = run(index_dir, "diff", "ck2008:306.5", "cr2008:306.5", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [op["op"] for op in data["ops"]] == ["replace", "equal", "replace", "equal", "replace", "equal"]
    assert data["ops"][2] == {"op": "replace", "a": "is attacking ", "b": "attacks "}


def test_diff_plain_text(index_dir):
    result = run(index_dir, "diff", "ck2008:306.5", "cr2008:310.4a")
    assert result.exit_code == 0
    assert result.stdout.startswith("ck2008:306.5 -> cr2008:310.4a: texts differ (similarity ")


def test_diff_rule_numbers_read_as_lookup_reads_them(index_dir):
    """A number several documents print is the rule in force now, else the Comprehensive Rules'
    text, and a note says so (it was a usage error: 'rule 502.83a is in 2 records')."""
    result = run(index_dir, "diff", "502.83a", "702.83a")
    assert result.exit_code == 0, result.output
    # only the quotes changed: diff says what history and lookup say of the two ("same text")
    assert result.stdout.splitlines()[0] == ("cr2008:502.83a -> cr:702.83a@2021-04-22: texts differ in quotes, "
                                             "dashes or spacing only (similarity 0.86)")
    assert result.stderr.splitlines() == [
        "note: 502.83a is read as cr2008:502.83a, the Comprehensive Rules' text; also numbered so: ck2008:502.83a "
        "(give a record id to choose)",
        "note: 702.83a is read as cr:702.83a@2021-04-22, the rule in force now; also numbered so: "
        "cr:702.83a@2019-05-03, cr:702.83a@2011-06-17, cr:702.83a@2010-04-23 (give a record id to choose)"]
    data = json.loads(run(index_dir, "diff", "502.83a", "702.83a", "--json").stdout)  # the note is not in the JSON
    assert (data["a"]["id"], data["b"]["id"]) == ("cr2008:502.83a", "cr:702.83a@2021-04-22")
    assert (data["changed"], data["typography_only"]) == (True, True)
    lookup = run(index_dir, "lookup", "502.83a").stdout
    assert "now: rule 702.83a, same text (cr:702.83a@2021-04-22)" in lookup
    worded = json.loads(run(index_dir, "diff", "ck2008:306.5", "cr2008:306.5", "--json").stdout)
    assert (worded["changed"], worded["typography_only"]) == (True, False)
    one = run(index_dir, "diff", "ck1999:A.27.2", "A.27.2")  # one record has the number: nothing to say
    assert one.exit_code == 0 and one.stderr == ""


def test_diff_unknown_record_exits_1(index_dir):
    result = run(index_dir, "diff", "ck2008:306.5", "cr2008:nope")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == ("error: no record with id or rule number 'cr2008:nope' - record ids "
                                             "look like cr2008:306.5 (see 'rulebase search')")


def test_diff_usage_errors_exit_2(index_dir):
    missing = run(index_dir, "diff", "ck2008:306.5")
    assert missing.exit_code == 2
    assert missing.stderr.startswith("error: give two records to diff, or --term")
    both = run(index_dir, "diff", "a:1", "b:2", "--term", "trample")
    assert both.exit_code == 2
    assert both.stderr == "error: give either two records or --term, not both\n"


def test_diff_term(index_dir):
    result = run(index_dir, "diff", "--term", "summoning sickness", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    # every era's definition, oldest first (define lists them newest first), without the cited rules
    assert [d["id"] for d in data["definitions"]] == [
        "rb4e:glossary.summoning-sickness", "ck1999:G.39.1", "cr:glossary.summoning-sickness@1999-04-23",
        "cr:glossary.summoning-sickness@2001-09-24", "cr:glossary.summoning-sickness@2002-10-07",
        "cr:glossary.summoning-sickness@2007-07-13", "cr:glossary.summoning-sickness@2008-07-15",
        "cr:glossary.summoning-sickness-rule@2019-05-03"]
    assert len(data["diffs"]) == 7 and all(d["changed"] for d in data["diffs"])
    plain = run(index_dir, "diff", "--term", "summoning sickness")
    assert plain.stdout.splitlines()[0] == "summoning sickness: 8 definition(s), in edition order"
    unknown = run(index_dir, "diff", "--term", "zzqx flibber")
    assert unknown.exit_code == 1
    assert unknown.stderr.startswith("error: no glossary definition of 'zzqx flibber'")


def test_diff_term_takes_a_definition_of_several_paragraphs_whole(index_dir, library):
    """The 4th Edition's trample is a titled paragraph and the two that continue it: one
    definition, not three listed backwards and diffed against each other (similarity 0.07-0.13)."""
    data = json.loads(run(index_dir, "diff", "--term", "trample", "--json").stdout)
    fourth = [d for d in data["definitions"] if d["edition"] == "4e"]
    parts = ["rb4e:creature-special-abilities.8", "rb4e:creature-special-abilities.9", "rb4e:creature-special-abilities.10"]
    assert [(d["id"], d["parts"]) for d in fourth] == [(parts[0], parts)]
    assert fourth[0]["text"] == "\n\n".join(library.store.get(i).text for i in parts)
    assert [d["id"] for d in data["definitions"]][:3] == ["alpha:creature-abilities.7", parts[0], "ck1999:A.27.2"]
    assert [(d["a"], d["b"]) for d in data["diffs"]][:2] == [("alpha:creature-abilities.7", parts[0]),
                                                             (parts[0], "ck1999:A.27.2")]
    assert all(d["parts"] == [d["id"]] for d in data["definitions"] if d["edition"] != "4e")
    plain = run(index_dir, "diff", "--term", "trample").stdout.splitlines()
    assert plain[2] == f"   4e  rb4e p34 Trample ({', '.join(parts)})"
    assert not any(line.startswith("rb4e:creature-special-abilities.10 ->") for line in plain)


def test_changes(index_dir):
    result = run(index_dir, "changes", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["total"] == 88 and len(data["chapters"]) == 28
    plain = run(index_dir, "changes")
    lines = plain.stdout.splitlines()
    assert lines[:3] == ["88 entries marked changed (+) in Crystal Keep's 2008/10/20 summary, by chapter",
                         "100 General",
                         "  + ck2008:100.5: Most Magic tournaments have special rules (not included here) and may "
                         "limit the use of some cards, including barring all cards from some older sets. See the mo…"]
    assert lines[3] == "    official cr2008:100.5: differs"


def test_an_insertion_after_the_last_equal_word_keeps_its_space():
    """'"mana burn."{+See rule 300.3.+}': the space before the new words was only in the newer text."""
    from rulebase.cli.views.plain_changes import diff_text
    from rulebase.rules.diff import word_diff

    assert diff_text(word_diff('called "mana burn."', 'called "mana burn." See rule 300.3.')) == (
        'called "mana burn." {+See rule 300.3.+}')
    assert diff_text(word_diff("a b c", "a x c")) == "a [-b-] {+x+} c"
