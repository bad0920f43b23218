"""Record diffs, glossary-term diffs and Crystal Keep 2008's changed entries, on the real corpus."""

from __future__ import annotations

import pytest
from rich.console import Console

from rulebase.cli.render_changes import render_changes, render_diff
from rulebase.cli.views.plain_changes import diff_text
from rulebase.core.errors import NotFound, UsageError
from rulebase.rules.changes import changes, changes_json, diff_refs, record_diff_json, resolve, term_diffs
from rulebase.rules.diff import DiffOp

REST_306_5 = ("alone if it's the only creature declared as an attacker during the declare attackers step. "
              "A creature is attacking alone if it's attacking but no other ")
BLOCKS_306_5 = ("A creature blocks alone if it's the only creature declared as a blocker during the declare "
                "blockers step. A creature is blocking alone if it's blocking but no other creatures are.")


def test_diff_opcodes_on_306_5(library):
    result = diff_refs(library.store, "ck2008:306.5", "cr2008:306.5")
    assert result.ops == [
        DiffOp("replace", "An attacking ", "A "),
        DiffOp("equal", "creature ", "creature "),
        DiffOp("replace", "is attacking ", "attacks "),
        DiffOp("equal", REST_306_5, REST_306_5),
        DiffOp("replace", "creatures. ", "creatures are. "),
        DiffOp("equal", BLOCKS_306_5, BLOCKS_306_5),
    ]
    assert result.changed and result.similarity == 0.928
    assert "".join(op.a for op in result.ops) == result.a.text
    assert "".join(op.b for op in result.ops) == result.b.text
    assert diff_text(result.ops).startswith("[-An attacking-] {+A+} creature [-is attacking-] {+attacks+} alone")
    data = record_diff_json(result)
    assert data["a"]["id"] == "ck2008:306.5" and data["b"]["id"] == "cr2008:306.5"
    assert data["ops"][0] == {"op": "replace", "a": "An attacking ", "b": "A "}
    assert data["changed"] is True and data["similarity"] == 0.928


def test_identical_records_diff_to_one_equal_run(library):
    result = diff_refs(library.store, "ck2008:102.3a", "cr2008:102.3a")
    assert not result.changed and len(result.ops) == 1 and result.similarity == 1.0


def test_resolve_ids_and_rule_numbers(library):
    assert resolve(library.store, "cr2008:306.5").id == "cr2008:306.5"
    notes: list[str] = []
    assert resolve(library.store, "310.4a", notes).id == "cr:310.4a@2023-04-14"  # the rule in force now
    assert resolve(library.store, "306.5", notes).id == "cr:306.5@2009-07-11"
    assert resolve(library.store, "502.83a", notes).id == "cr2008:502.83a"  # none now: the official text
    assert resolve(library.store, "ck1999:A.27.2", notes).id == "ck1999:A.27.2"
    assert [n.split(",")[0] for n in notes] == ["310.4a is read as cr:310.4a@2023-04-14",
                                                "306.5 is read as cr:306.5@2009-07-11",
                                                "502.83a is read as cr2008:502.83a"]
    with pytest.raises(NotFound, match="no record with id or rule number 'cr2008:999.9'"):
        resolve(library.store, "cr2008:999.9")
    with pytest.raises(UsageError, match="empty record reference"):
        resolve(library.store, " ")


def test_term_definitions_are_diffed_in_edition_order(library):
    """Every era's definition (define's, oldest first, without the rules they cite)."""
    result = term_diffs(library.store, "summoning sickness")
    ids = [r.id for r in result.definitions]
    assert ids[:3] == ["rb4e:glossary.summoning-sickness", "ck1999:G.39.1", "cr:glossary.summoning-sickness@1999-04-23"]
    assert ids[-2:] == ["cr:glossary.summoning-sickness@2008-07-15", "cr:glossary.summoning-sickness-rule@2019-05-03"]
    assert [(d.a.id, d.b.id) for d in result.diffs][:2] == [
        ("rb4e:glossary.summoning-sickness", "ck1999:G.39.1"),
        ("ck1999:G.39.1", "cr:glossary.summoning-sickness@1999-04-23")]
    assert result.diffs[0].changed and result.skipped == []
    with pytest.raises(NotFound):
        term_diffs(library.store, "zzqx flibber")


def test_changes_grouped_by_chapter_with_official_counterparts(library):
    groups = changes(library.store)
    entries = {c.record.id: c for g in groups for c in g.changes}
    assert len(entries) == 88
    assert all(c.record.source == "ck2008" and c.record.changed for c in entries.values())
    assert [g.chapter.id for g in groups[:4]] == ["ck2008:100", "ck2008:102", "ck2008:206", "ck2008:212.4"]
    assert groups[-1].chapter.id == "ck2008:9" and groups[-1].chapter.title == "Glossary"
    diffs_306_5 = entries["ck2008:306.5"]
    assert diffs_306_5.relation == "same-rule" and diffs_306_5.counterpart.id == "cr2008:306.5"
    assert diffs_306_5.diff is not None and diffs_306_5.diff.ops[0] == DiffOp("replace", "An attacking ", "A ")
    assert entries["ck2008:102.3a"].identical and entries["ck2008:102.3a"].diff is None
    assert entries["ck2008:502.83.Ruling.1"].counterpart is None
    # the official text misprints 306.1b as "306.b": the linker joins them by identical text
    assert entries["ck2008:306.1b"].counterpart.id == "cr2008:306.b" and entries["ck2008:306.1b"].identical
    assert entries["ck2008:G1.4a"].relation == "glossary-entry"
    assert entries["ck2008:G1.4a"].counterpart.id == "cr2008:glossary.activated-ability"
    assert entries["ck2008:G1.4a"].contained is True
    assert entries["ck2008:G1.1b"].contained is False
    same = [c for c in entries.values() if c.relation == "same-rule"]
    assert (len(same), sum(c.identical for c in same)) == (38, 19)


def test_changes_json_shape(library):
    data = changes_json(changes(library.store))
    assert data["total"] == 88
    first = data["chapters"][0]
    assert (first["id"], first["number"], first["title"]) == ("ck2008:100", "100", "General")
    entry = first["entries"][0]
    assert entry["id"] == "ck2008:100.5" and entry["relation"] == "same-rule"
    assert entry["counterpart"]["id"] == "cr2008:100.5" and entry["identical"] is False
    assert {"op": "replace", "a": "DCI(r) ", "b": "DCI(R) "} in entry["ops"]


def test_rich_diff_and_changes_render_into_a_string_console(library):
    console = Console(width=80, force_terminal=True, record=True, color_system="standard")
    render_diff(console, diff_refs(library.store, "ck2008:306.5", "cr2008:306.5"))
    styled = console.export_text(styles=True, clear=False)
    assert "\x1b[1;9;31mAn attacking\x1b[0m" in styled and "\x1b[1;4;32mattacks\x1b[0m" in styled
    assert "ck2008:306.5 → cr2008:306.5" in console.export_text()
    narrow = Console(width=60, force_terminal=True, record=True, color_system=None)
    render_changes(narrow, changes(library.store))
    out = narrow.export_text()
    assert out.startswith("88 entries marked changed (+) in Crystal Keep")
    assert "╭─ 306 Combat Phase ─" in out
    assert "no official counterpart" in out and "official cr2008:102.3a: identical" in out
