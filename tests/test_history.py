"""The rules history on the real corpus: every Comprehensive Rules release 1999-2026 the three
bundled archives hold, each dated by its own text, stored once per distinct text, traced across renumberings,
and served by `history`, `changes --from/--to`, `--as-of` and one search hit per rule."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.core.errors import NotFound
from rulebase.rules.history import changes_between, history, outside_note

runner = CliRunner()


def run(index_dir, *args):
    return runner.invoke(app, ["--index", str(index_dir), *args])


def test_every_release_is_in_the_index_and_each_text_is_stored_once(library):
    releases = library.store.releases()["cr"]
    counts = next(s for s in library.ensure().report()["sources"] if s["id"] == "cr")["meta"]["releases"]
    # 133 files: five releases in two files each (2004-06-01, 2009-07-11, 2009-10-01, 2017-09-29, 2026-02-27)
    assert len(releases) == 128
    assert (releases[0]["date"], releases[-1]["date"]) == ("1999-04-23", "2026-04-17")
    dates = [r["date"] for r in releases]
    assert dates == sorted(dates) and len(set(dates)) == len(dates)
    assert {"2016-04-08", "2018-01-19", "2018-04-27", "2018-06-08", "2014-05-01"} <= set(dates)
    assert {"2023-06-16", "2023-09-01", "2024-04-12", "2024-09-20", "2026-02-27", "2026-04-17"} <= set(dates)
    assert [r["date"] for r in counts if r["printings"]] == [
        "2004-06-01", "2009-07-11", "2009-10-01", "2017-09-29", "2026-02-27"]
    february = next(r for r in counts if r["date"] == "2026-02-27")  # one release, both files named
    assert (february["member"], february["printings"]) == (
        "comprules-extra-2023-2026.tar.xz:HeliumOctahelide-magic-comp-rules-zh-cn/plain_text/20260227_En.txt",
        ["comprules-extra-2023-2026.tar.xz:LilBeaky-mtg-data/MagicCompRules 20260227.txt"])
    assert "2006-06-01" not in dates and "2004-06-01" in dates  # the 2004 file no longer poses as 2006
    versions = library.store.of_source("cr")
    keys = Counter((v.kind, v.id.split("@")[0], v.title or "", v.text, v.span[0]) for v in versions)
    assert max(keys.values()) == 1  # one record per distinct text and run of releases
    per_release = sum(r["records"] for r in counts)
    assert per_release > 300_000 and len(versions) < per_release / 8  # ~12x shared text
    # each release's rules are exactly the versions whose span covers it
    in_2008 = library.store.in_force(20081001, "cr")
    assert len(in_2008) == sum(1 for r in library.store.of_source("cr2008") if r.kind == "rule")


def test_a_rule_cited_as_judges_cite_it_has_the_same_history(library):
    """'history CR 702.19b' found another rule's lineage first (the number it ranked by kept the
    'CR ')."""
    plain = history(library.store, "702.19b")
    for ref in ("CR 702.19b", "rule 702.19b.", "§702.19b"):
        cited = history(library.store, ref)
        assert [lin.key for lin in cited.lineages] == [lin.key for lin in plain.lineages]


def test_exalted_is_traced_through_every_renumbering_with_dates(library):
    found = history(library.store, "502.83a")
    exalted = found.lineages[0]
    steps = [(s.record.number, s.change, s.record.span[0]) for s in exalted.steps]
    assert steps == [
        ("502.83a", "added", "2008-10-01"),
        ("702.80a", "renumbered", "2009-07-11"),
        ("702.81a", "renumbered", "2011-06-17"),
        ("702.82a", "renumbered", "2013-07-13"),
        ("702.82a", "typography", "2014-05-01"),
        ("702.82a", "typography", "2019-01-25"),
        ("702.82a", "typography", "2019-05-03"),
        ("702.83a", "renumbered", "2021-04-22"),
    ]
    assert exalted.current
    assert [r.id for r in exalted.linked] == ["cr2008:502.83a", "ck2008:502.83a"]


def test_deathtouchs_damage_rule_is_traced_through_its_2010_rewrite(library):
    """2009's 702.2b (divide deathtouch damage freely) was rewritten in place in 2010 ("any
    nonzero amount ... is lethal damage"), both citing 510.1c-d: one rule, today's 702.2c."""
    deathtouch = history(library.store, "702.2c").lineages[0]
    steps = [(s.record.number, s.change, s.record.span[0]) for s in deathtouch.steps[:3]]
    assert steps == [("702.2b", "added", "2009-07-11"), ("702.2b", "changed", "2010-07-16"),
                     ("702.2b", "typography", "2012-02-01")]  # "510.1c-d" printed "510.1c - d"
    assert "can divide that damage" in deathtouch.steps[0].record.text
    assert deathtouch.current and deathtouch.steps[-1].record.number == "702.2c"


def test_a_reused_number_lists_the_rule_that_holds_it_now_first(library):
    found = history(library.store, "702.83a")
    firsts = [lin.steps[-1].record.text.split(" is ")[0] for lin in found.lineages]
    assert firsts[0] == "Exalted"
    assert {"Annihilator", "Cascade", "Unearth"} <= set(firsts[1:])
    back_then = history(library.store, "702.83a", when=20120101)
    assert back_then.lineages[0].steps[-1].record.text.startswith("Cascade")


def test_changes_between_the_renumbering_releases(library):
    found = changes_between(library.store, "2009-05-01", "2009-07-11")
    assert (found.old_release["date"], found.new_release["date"]) == ("2009-05-01", "2009-07-11")
    exalted = next(c for c in found.changes if c.new and c.new.number == "702.80a")
    assert (exalted.kind, exalted.old.number) == ("renumbered", "502.83a")
    mana_burn = [c for c in found.changes if c.kind == "removed" and "mana burn" in c.old.text.lower()]
    assert mana_burn, "the mana burn rule ends with the Magic 2010 rules"
    assert found.count("added") > 400 and found.count("renumbered") > 400


def test_the_2026_releases_renumber_and_history_follows(library):
    """2026-02-27 put a new 506.3d before three battle rules (506.3d-f became 506.3e-g); 2026-04-17
    inserted chapter 722, Preparation Cards, so 722-732 moved up by one (115 rules and chapters,
    'Controlling Another Player' among them, 722.1 now 723.1)."""
    control = history(library.store, "723.1").lineages[0]
    steps = [(s.record.number, s.change, s.record.span[0]) for s in control.steps]
    assert steps[0] == ("507.1", "added", "2003-10-01") and control.current
    assert steps[-2:] == [("722.1", "renumbered", "2025-07-25"), ("723.1", "renumbered", "2026-04-17")]
    preparation = history(library.store, "722.1").lineages[0]  # the number's rule now: a new one
    assert [(s.record.number, s.change, s.record.span[0]) for s in preparation.steps] == [
        ("722.1", "added", "2026-04-17")]
    assert preparation.steps[0].record.text.startswith("Preparation cards have a two-part card frame")
    battle = history(library.store, "506.3g").lineages[0]
    assert [(s.record.number, s.change, s.record.span[0]) for s in battle.steps] == [
        ("506.3f", "added", "2023-04-14"), ("506.3g", "renumbered", "2026-02-27")]
    found = changes_between(library.store, "2026-01-16", "2026-04-17")
    assert (found.old_release["date"], found.new_release["date"]) == ("2026-01-16", "2026-04-17")
    moved = {(c.old.number, c.new.number) for c in found.changes if c.kind.startswith("renumbered")}
    assert {("722.1", "723.1"), ("732.2", "733.2"), ("506.3f", "506.3g"), ("714.3b", "714.3c")} <= moved
    assert len(moved) == 107  # 101 renumbered, 6 renumbered and changed
    added = {c.new.number for c in found.changes if c.kind == "added"}
    assert {"506.3d", "702.190a", "722.1", "702.191a", "702.192a"} <= added  # Sneak 2026-02-27, then 2026-04-17's
    assert [c.old.number for c in found.changes if c.kind == "removed"] == ["714.3a"]  # split into 714.3a-b


def test_lookup_and_history_of_a_rule_changed_in_2026_04_17(index_dir):
    now = run(index_dir, "lookup", "107.3e")
    assert now.exit_code == 0
    assert "in force now, text since 2026-04-17 · source cr · id cr:107.3e@2026-04-17 · in release 2026-04-17]" in now.stdout
    assert "uses the value of X used by the other object." in now.stdout
    before = json.loads(run(index_dir, "lookup", "107.3e", "--as-of", "2026-03", "--json").stdout)
    assert (before["id"], before["span"]) == ("cr:107.3e@2020-09-25", ["2020-09-25", "2026-02-27"])
    lines = run(index_dir, "history", "107.3e").stdout.splitlines()
    assert "  2020-09-25 to 2026-04-16  107.3e  first appears  (cr:107.3e@2020-09-25)" in lines
    assert "  2026-04-17 to now  107.3e  text changed  (cr:107.3e@2026-04-17)" in lines
    unchanged = run(index_dir, "lookup", "704.5a").stdout
    assert "in force now, text since 2018-04-27 · source cr · id cr:704.5a@2018-04-27 · in releases 2018-04-27 to 2026-04-17]" in unchanged


def test_the_duskmourn_release_brings_the_room_rules(index_dir):
    """2024-09-20 (filed as 20240917) is on the timeline: Room cards' 709.5 and the glossary's Door
    take effect that day, not with the 2024-11-08 release."""
    room = json.loads(run(index_dir, "lookup", "709.5", "--json").stdout)
    assert room["id"] == "cr:709.5@2024-09-20" and room["text"].startswith("Some split cards are permanent cards")
    door = json.loads(run(index_dir, "lookup", "cr:glossary.door@2024-09-20", "--json").stdout)
    assert door["span"][0] == "2024-09-20" and door["text"].startswith("A door is one half of a Room permanent.")
    assert run(index_dir, "lookup", "709.5", "--as-of", "2024-09-19").exit_code == 1


def test_history_cli_text_and_json(index_dir):
    result = run(index_dir, "history", "502.83a")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "502.83a -> 702.80a -> 702.81a -> 702.82a -> 702.83a (8 versions, in force now)"
    assert lines[1] == "  2008-10-01 to 2009-07-10  502.83a  first appears  (cr:502.83a@2008-10-01)"
    assert "  2021-04-22 to now  702.83a  renumbered from 702.82a  (cr:702.83a@2021-04-22)" in lines
    assert "  = same text in ck2008: ck2008:502.83a" in lines
    data = json.loads(run(index_dir, "history", "502.83a", "--json").stdout)
    assert set(data) == {"ref", "lineages"}
    step = data["lineages"][0]["steps"][1]
    assert set(step) == {"id", "number", "from", "to", "change", "previous_number", "text", "diff"}
    assert (step["number"], step["previous_number"], step["from"]) == ("702.80a", "502.83a", "2009-07-11")


def test_changes_cli_between_dates(index_dir):
    result = run(index_dir, "changes", "--from", "2021-03-01", "--to", "2021-04-22", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["from"], data["to"]) == ("2021-02-15", "2021-04-22")
    moved = next(c for c in data["changes"] if c["new"] == "cr:702.83a@2021-04-22")
    assert (moved["kind"], moved["old_number"]) == ("renumbered", "702.82a")
    refs = next(c for c in data["changes"] if c["new"] == "cr:103.2b@2021-04-22")
    assert refs["kind"] == "references" and "[-702.138,-] {+702.139,+}" in refs["diff"]
    bad = run(index_dir, "changes", "--from", "2021-13-01")
    assert bad.exit_code == 2
    assert "not a date: '2021-13-01'" in bad.stderr


def test_lookup_shows_the_current_meaning_first_then_other_eras(index_dir):
    out = run(index_dir, "lookup", "702.83a").stdout
    heads = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert heads[0] == "cr 702.83a"
    assert "id cr:702.83a@2021-04-22" in out.split("\n\n")[0]
    assert "Exalted is a triggered ability." in out.split("\n\n")[0]
    assert "Annihilator" in out and "Cascade" in out  # what the number meant before


def test_lookup_as_of_shows_only_what_was_in_force(index_dir):
    out = run(index_dir, "lookup", "502.83a", "--as-of", "2008-12-01", "--full").stdout
    heads = [line for line in out.splitlines() if line and not line.startswith(" ")]
    # the archive's 2008-10-01 version is the bundled 2008 release's text: shown once, as cr2008
    assert heads[:2] == ["cr2008 502.83a", "ck2008 502.83a"] and "cr 502.83a" not in heads
    compact = run(index_dir, "lookup", "502.83a", "--as-of", "2008-12-01").stdout.splitlines()
    assert compact[0] == "cr2008 502.83a"
    assert "  = same text in ck2008:502.83a, cr:502.83a@2008-10-01" in compact
    gone = run(index_dir, "lookup", "502.83a", "--as-of", "2020-01-01")
    assert gone.exit_code == 1
    assert gone.stderr.strip() == ("error: no rule 502.83a was in force on 2020-01-01 - "
                                   "'rulebase history 502.83a' shows when it was")
    bad = run(index_dir, "lookup", "502.83a", "--as-of", "yesterday")
    assert bad.exit_code == 2
    assert "not a date: 'yesterday'" in bad.stderr


def test_lookup_leads_with_the_rule_in_force_now_when_2008_printed_its_text(index_dir):
    """Today's 100.1 has the bundled 2008 release's words, but today's 100.1b says section 8,
    not 6: the lookup leads with the version in force now, its days and subrules, and names the
    2008 copy after it (it hid behind the 2008 copy, with no 'in force now')."""
    out = run(index_dir, "lookup", "100.1").stdout.splitlines()
    assert out[0] == "cr 100.1"
    assert out[1].startswith("  [rule · in force now, text since 2005-08-01 · source cr · id cr:100.1@2005-08-01 · ")
    first = out[:out.index("")]
    assert any("See section 8" in line for line in first) and not any("section 6" in line for line in first)
    assert "cr2008 100.1" in out
    data = json.loads(run(index_dir, "lookup", "100.1a", "--json").stdout)
    assert (data["id"], data["in_force"]) == ("cr:100.1a@2005-08-01", {"first": "2005-08-01", "last": "now"})


def test_search_gives_one_hit_per_rule_with_the_newest_text(index_dir, library):
    data = json.loads(run(index_dir, "search", "exalted", "-n", "20", "--json").stdout)
    ids = [h["id"] for h in data["hits"]]
    records = {r.id: r for r in library.store.get_many(ids)}
    lineages = [records[i].lineage for i in ids if records[i].lineage]
    assert len(lineages) == len(set(lineages))
    # the rule's newest text, once: a hit of its own or listed under the identical ck2008 ruling
    shown = ids + [i for h in data["hits"] for i in h["also"]]
    assert shown.count("cr:702.83a@2021-04-22") == 1
    assert not [i for i in ids if i.startswith("cr:7") and i.endswith("a@2009-07-11")]
    assert "cr2008:502.83a" not in ids  # the 2008 release's identical text is the same hit
    then = json.loads(run(index_dir, "search", "exalted", "--as-of", "2010-01-01", "--json").stdout)
    assert "cr:702.80a@2009-07-11" in [h["id"] for h in then["hits"]]


def test_define_as_of_gives_the_definition_in_force(index_dir):
    out = run(index_dir, "define", "mana burn", "--as-of", "2005").stdout
    lines = out.splitlines()
    assert lines[0] == "mana burn: 7 definition(s), in force then first, then history newest to oldest"
    assert lines[1] == ("-- in force on 2005-12-31 · cr2003 to 10e · 2003-07-01 to 2009-07-10 · "
                        "= same text in cr2008:glossary.mana-burn")
    assert "cr:glossary.mana-burn@2005-10-01" in out and "cr:glossary.mana-burn@2019-05-03" not in out


def test_compare_damage_timing_has_the_stack_and_post_2009_columns(index_dir, library):
    data = json.loads(run(index_dir, "compare", "damage timing", "--json").stdout)
    # every stretch of the rules' text its own column, in time order (compare's periods.topic_columns)
    assert list(data["editions"]) == ["alpha", "4e", "5e", "6e", "cr2001", "cr2003", "cr2003-10-01", "10e",
                                      "cr2009-02-01", "cr2009", "cr2011", "cr2016", "cr2024"]
    for edition in ("cr2001", "cr2009", "cr2024"):
        for cite in data["editions"][edition]["citations"]:
            record = library.store.get(cite["id"])
            assert cite["quote"] in " ".join(record.text.split())
    assert "doesn't use the stack" in data["editions"]["cr2009"]["citations"][0]["quote"]
    as_of = json.loads(run(index_dir, "compare", "damage timing", "--as-of", "2005", "--json").stdout)
    assert list(as_of["editions"]) == ["alpha", "4e", "5e", "6e", "cr2001", "cr2003", "cr2003-10-01", "10e"]
    assert as_of["editions"]["10e"]["in_force"]["first"] == "2005-08-01"  # (in force on 2005-12-31)


def test_lookup_of_any_archive_number_lists_its_children_in_number_order(library):
    from rulebase.core.records import number_key
    from rulebase.rules.lookup import lookup

    for number in ("702", "702.83", "100.1", "510"):  # a chapter's children mix 702.1 and 702.1a
        entry = lookup(library.store, number).entries[0]
        keys = [number_key(c.number) for c in entry.children if c.number]
        assert keys == sorted(keys), number
    exalted = lookup(library.store, "702.83").entries[0]
    assert [c.number for c in exalted.children][:2] == ["702.83a", "702.83b"]


def test_history_of_a_bundled_record_no_longer_has_a_false_gap(index_dir):
    result = run(index_dir, "history", "cr2008:100.1")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    # the 2004-06-01 release filed as 2006-06-01 made 100.1 vanish and come back; dated by its
    # text, it sits in 2004 and 100.1 is one version from 2005-08-01 on
    assert lines[:2] == ["100.1 (1 version, in force now)", "  2005-08-01 to now  100.1  first appears  (cr:100.1@2005-08-01)"]
    assert "  = same text in cr2008: cr2008:100.1" in lines
    vigilance = run(index_dir, "history", "702.19a").stdout
    assert "back, unchanged" not in vigilance
    assert run(index_dir, "search", "vigilance", "--as-of", "2006-06-15").exit_code == 0
    first = run(index_dir, "changes", "--from", "2006-05-15", "--to", "2006-06-15").stdout.splitlines()[0]
    assert first.startswith("cr 2006-05-01 -> 2006-05-01: 0 added, 0 removed")


def test_history_reaches_the_1999_sixth_edition_rules(index_dir, library):
    found = history(library.store, "702.19a")
    trample = found.lineages[0]
    first = trample.steps[0]
    assert (first.record.id, first.change, first.first) == ("cr:502.9a@1999-04-23", "added", 19990423)
    assert [s.record.number for s in trample.steps][:1] == ["502.9a"] and trample.current
    out = run(index_dir, "lookup", "502.9a", "--as-of", "2000-01-01").stdout
    assert out.startswith("cr 502.9a\n") and "Trample is a static ability" in out
    search = json.loads(run(index_dir, "search", "trample", "--as-of", "2002-06-01", "--json").stdout)
    assert search["hits"] and all(h["source"] in ("cr", "ck1999", "hu-guide") for h in search["hits"])
    changed = run(index_dir, "changes", "--from", "1999-06-01", "--to", "2001-12-31").stdout.splitlines()[0]
    assert changed.startswith("cr 1999-04-23 -> 2001-09-24: ")


def test_characters_a_file_lost_are_not_changes(index_dir, library):
    """2008-05-01 printed '?' for every quote and apostrophe: into and out of it is not a change."""
    steps = {s.record.id: s for s in history(library.store, "502.9a").lineages[0].steps}
    assert steps["cr:502.9a@2008-05-01"].change == "lost" and steps["cr:502.9a@2008-07-15"].change == "lost"
    out = run(index_dir, "history", "502.9a").stdout.splitlines()
    at = out.index("  2008-05-01 to 2008-07-14  502.9a  same text but for characters a file lost ('?' for quotes)"
                   "  (cr:502.9a@2008-05-01)")
    assert out[at + 1].startswith("  2008-07-15 to 2009-07-10  502.9a  same text but for")  # one line each
    changes = changes_between(library.store, "2008-04-30", "2008-05-01")
    assert not [c for c in changes.changes if c.new and c.new.id == "cr:502.9a@2008-05-01"]
    diff = run(index_dir, "diff", "cr:502.9a@2006-02-01", "cr:502.9a@2008-05-01")
    assert diff.exit_code == 0 and "creature?s" in diff.stdout


def test_glossary_changes_are_named_by_their_term(index_dir):
    out = run(index_dir, "changes", "--from", "2013-12-31", "--to", "2014", "--kind", "glossary").stdout.splitlines()
    assert out[0].startswith("cr 2013-11-01 -> 2014-09-25: 13 added, 0 removed, 3 changed")
    assert "~ As Though  typography  (cr:glossary.as-though@2014-02-01)" in out


def test_a_year_or_month_from_is_its_first_day_and_to_its_last(index_dir):
    """'--from 2013' is the rules in force on 2013-01-01 (the help's 'glossary since 2020'), '--to
    2014' those on 2014-12-31; a month to itself holds that month's release (Magic 2010's)."""
    year = run(index_dir, "changes", "--from", "2013", "--to", "2014", "--kind", "glossary").stdout
    assert year.startswith("cr 2012-10-01 -> 2014-09-25: ")
    month = run(index_dir, "changes", "--from", "2009-07", "--to", "2009-07").stdout
    assert month.startswith("cr 2009-05-01 -> 2009-07-11: 524 added, 241 removed")


def test_sources_says_what_the_archive_holds(index_dir):
    result = run(index_dir, "sources")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("cr [dated, 1999-04-23/2026-04-17, en]"))
    block = lines[at:at + 8]
    assert ("  releases: 128 (133 files in comprules-archive-2003-2026.tar.xz, comprules-extra-1999-2018.tar.xz, "
            "comprules-extra-2023-2026.tar.xz), 1999-04-23 to 2026-04-17, each dated by its own text") in block
    gaps = next(line for line in block if line.startswith("  gaps: "))
    assert "September 2021" in gaps and "1999-11-01 and 2001-09-24" in gaps
    assert "2022-11-18 is followed by 2023-04-14" in gaps
    assert "September 2024" not in gaps and "Duskmourn" not in gaps  # 2024-09-20 is held
    assert "  a release it lacks can be added: rulebase add FILE" in block


NEWEST = ("note: {} is after the newest release in the index, the Comprehensive Rules release of 2026-04-17: "
          "these are its rules, the newest there are")


def test_a_date_after_the_newest_release_answers_with_a_note(index_dir):
    """Issue 19.7: --as-of 2099 and changes --from 2030 answered silently with the newest release's rules."""
    now = run(index_dir, "lookup", "702.83a", "--json")
    later = run(index_dir, "lookup", "702.83a", "--as-of", "2099", "--json")
    assert (later.exit_code, later.stderr) == (0, NEWEST.format("2099-12-31") + "\n")
    assert json.loads(later.stdout)["id"] == json.loads(now.stdout)["id"] == "cr:702.83a@2021-04-22"
    found = run(index_dir, "search", "trample", "--as-of", "2030-06-01", "-n", "1")
    assert (found.exit_code, found.stderr) == (0, NEWEST.format("2030-06-01") + "\n")
    changed = run(index_dir, "changes", "--from", "2030", "--to", "2099-12-31", "--json")
    assert changed.exit_code == 0
    assert changed.stderr.splitlines() == [NEWEST.format("2030-01-01"), NEWEST.format("2099-12-31")]
    assert (json.loads(changed.stdout)["from"], json.loads(changed.stdout)["to"]) == ("2026-04-17", "2026-04-17")
    inside = run(index_dir, "lookup", "702.83a", "--as-of", "2026-04-17")
    assert (inside.exit_code, inside.stderr) == (0, "")  # the newest release's own day: no note
    since = run(index_dir, "changes", "--from", "2025")  # --to defaults to today: not the user's date
    assert (since.exit_code, since.stderr) == (0, "")


def test_a_date_before_the_oldest_document_says_what_the_oldest_is(index_dir):
    before = run(index_dir, "define", "trample", "--as-of", "1992")
    assert before.exit_code == 1
    assert before.stderr.splitlines()[0] == (
        "note: 1992-12-31 is before the oldest document in the index, Magic: The Gathering rulebook, Alpha edition "
        "(1993), with Beta updates (1993-08), in force from 1993-08-05: nothing older is known")
    assert run(index_dir, "define", "trample", "--as-of", "1993-09").exit_code == 0


def test_dates_outside_the_known_range_are_not_called_malformed(index_dir):
    """Issue 21.7: 0001-01-01 and 9999-12-31 were 'not a date ... write YYYY-MM-DD'."""
    for date in ("0001-01-01", "9999-12-31"):
        result = run(index_dir, "lookup", "502.83a", "--as-of", date)
        assert (result.exit_code, result.stderr) == (2, (
            f"error: '{date}' is outside the dates rulebase knows - give a date from 1900-01-01 to 2099-12-31 "
            "(Magic's rules begin in 1993)\n"))
    assert "not a date: '2021-13-01'" in run(index_dir, "lookup", "1", "--as-of", "2021-13-01").stderr
    assert "not a date: 'soon'" in run(index_dir, "changes", "--from", "soon").stderr


def test_a_step_that_only_moves_a_space_is_typography(library, index_dir):
    """One release spaces "cards -- even" that the next prints "cards--even": the rule did
    not change (208 such steps in the archive were "text changed")."""
    from rulebase.rules.history import classify, typography_only

    old, new = library.store.get("cr:108.2@2011-09-30"), library.store.get("cr:108.2@2012-06-01")
    assert old.text != new.text and "cards -- even" in old.text and "cards--even" in new.text
    assert classify(old, new) == "typography"
    assert typography_only("a permanent- type-changing ability", "a permanent-type-changing ability")
    assert not typography_only("can't attack", "can attack") and not typography_only("play", "lay")
    out = run(index_dir, "history", "cr:108.2@2012-06-01").stdout
    assert "  2012-06-01 to " in out and "108.2  quotes, dashes or spacing changed only  (cr:108.2@2012-06-01)" in out


def test_a_date_past_the_newest_release_is_told_of_the_documents_searched(library, index_dir):
    """`search -s ipg --as-of 2026` was told of the Comprehensive Rules release of 2026-04-17, a
    document the filter left out: the note names the IPG's newest release."""
    from rulebase.core.eras import day

    when = day("2026", end=True)
    assert "Comprehensive Rules release of 2026-04-17" in outside_note(library.store, when)
    assert outside_note(library.store, when, ["ipg"]) == (
        "2026-12-31 is after the newest release in the index, the IPG release of 2024-09-23: these are its "
        "rules, the newest there are")
    result = CliRunner().invoke(app, ["--index", str(index_dir), "search", "missed trigger", "-s", "ipg",
                                      "--as-of", "2026", "-n", "1"])
    assert result.exit_code == 0
    assert "Comprehensive Rules" not in result.stderr and "the IPG release of 2024-09-23" in result.stderr


def test_a_tournament_section_by_a_judges_shorthand_has_its_sections_history(index_dir, library):
    """`history "IPG HCE"` is `history "IPG 2.3"` (the vocabulary file spells HCE out), as a lookup
    of the shorthand is; a shorthand the vocabulary lacks is still a one-line error."""
    by_number = run(index_dir, "history", "IPG 2.3")
    by_shorthand = run(index_dir, "history", "IPG HCE")
    assert by_shorthand.exit_code == 0 and by_shorthand.output == by_number.output
    assert by_number.output.startswith("IPG 2.3 Game Play Error \u2014 Hidden Card Error (")
    with pytest.raises(NotFound):  # the letters alone name no title: the vocabulary spells them out
        history(library.store, "IPG HCE")
    assert history(library.store, "IPG HCE", spell_out=library.spelled_out).lineages[0].key.startswith("ipg:")
    unknown = run(index_dir, "history", "IPG zzz")
    assert unknown.exit_code == 1 and "no IPG section matches 'zzz'" in unknown.output
