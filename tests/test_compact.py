"""Compact lookups, the default: the rule and its direct subrules; copies elsewhere, other eras and
long lists one line each; --full (full=True) is the whole entry as before. Plain lines, the rich
terminal view and --json say the same, on the real bundled corpus."""

from __future__ import annotations

import io
import json
import re

import pytest

from rulebase.cli.console import SafeConsole
from rulebase.cli.render import render_lookup
from rulebase.cli.views.plain import lookup_lines
from rulebase.cli.views.shapes import dumps, lookup_json
from rulebase.core.records import fold_space
from rulebase.rules.lookup import lookup

SGR = re.compile("\x1b\\[[0-9;]*m")
EXALTED = ('Exalted is a triggered ability. "Exalted" means "Whenever a creature you control attacks alone, '
           'that creature gets +1/+1 until end of turn."')


def terminal(result, width: int = 100) -> list[str]:
    """What a terminal shows: the rich view rendered into a string, colour codes removed."""
    out = io.StringIO()
    console = SafeConsole(file=out, force_terminal=True, width=width, highlight=False, soft_wrap=False, emoji=False)
    render_lookup(console, result)
    text = out.getvalue()
    assert SGR.search(text)  # it is the coloured view
    return SGR.sub("", text).splitlines()


def entry_block(lines: list[str], head: str) -> list[str]:
    """The lines of one entry of plain output: from its label line to the blank line after it."""
    start = lines.index(head)
    return lines[start:lines.index("", start)]


# -- 502.83a: one rule, printed word for word by three documents ---------------------------------


def test_a_rule_names_its_identical_copies_in_one_line(library):
    lines = lookup_lines(lookup(library.store, "502.83a"))
    assert lines == [
        "cr2008 502.83a",
        "  [rule · edition 10e · source cr2008 · id cr2008:502.83a]",
        "  in: 5. Additional Rules > 502. Keyword Abilities > 502.83. Exalted",
        f"  {EXALTED}",
        "  = same text in ck2008:502.83a, cr:502.83a@2008-10-01",
        "  now: rule 702.83a, same text (cr:702.83a@2021-04-22)",
        "  history: rulebase history cr2008:502.83a",
        "",
        "--full shows everything (1 identical copy)",
    ]


def test_a_rule_on_a_terminal(library):
    assert terminal(lookup(library.store, "502.83a")) == [
        "╭─ cr2008 502.83a " + "─" * 81 + "╮",
        "│ rule · edition 10e · source cr2008 · id cr2008:502.83a" + " " * 43 + "│",
        "│ 5. Additional Rules › 502. Keyword Abilities › 502.83. Exalted" + " " * 35 + "│",
        '│ Exalted is a triggered ability. "Exalted" means "Whenever a creature you control attacks alone,  │',
        '│ that creature gets +1/+1 until end of turn."' + " " * 53 + "│",
        "│ = same text in ck2008:502.83a, cr:502.83a@2008-10-01" + " " * 45 + "│",
        "│ now: rule 702.83a, same text (cr:702.83a@2021-04-22)" + " " * 45 + "│",
        "│ history: rulebase history cr2008:502.83a" + " " * 57 + "│",
        "╰" + "─" * 98 + "╯",
        "--full shows everything (1 identical copy)",
    ]


OLD_502_83A = [  # the lookup before it was compact: what --full still prints
    "cr2008 502.83a",
    "  [rule · edition 10e · source cr2008 · id cr2008:502.83a]",
    "  in: 5. Additional Rules > 502. Keyword Abilities > 502.83. Exalted",
    f"  {EXALTED}",
    "  = same rule in ck2008: ck2008:502.83a",
    "  = same rule in cr: cr:502.83a@2008-10-01",
    "  history: rulebase history cr2008:502.83a",
    "",
    "ck2008 502.83a",
    "  [rule · edition 10e · source ck2008 · id ck2008:502.83a · changed since previous release (+)]",
    "  in: 5 - Additional Rules > 502 > 502.83 - Exalted",
    f"  {EXALTED}",
    "  cites [CompRules 2008/10/01] -> cr2008:502.83a",
    "  = same rule in cr2008: cr2008:502.83a",
    "  = same rule in cr: cr:502.83a@2008-10-01",
    "  history: rulebase history ck2008:502.83a",
    "",
    "compare the versions: rulebase diff ck2008:502.83a cr2008:502.83a",
]


def test_full_is_the_old_lookup(library):
    result = lookup(library.store, "502.83a", full=True)
    assert lookup_lines(result) == OLD_502_83A
    assert result.full_hint() is None
    shown = terminal(result)
    assert sum(EXALTED[:40] in line for line in shown) == 2  # both copies, in full
    assert not any("--full" in line for line in shown)


def test_the_text_of_a_copy_is_never_repeated(library):
    for ref in ("502.83a", "502.83"):
        plain = "\n".join(lookup_lines(lookup(library.store, ref)))
        assert plain.count(EXALTED) == 1, ref
    lines = lookup_lines(lookup(library.store, "502.83"))
    crystal_keep = entry_block(lines, "ck2008 502.83 Exalted")
    assert "    502.83a  = same text as cr2008:502.83a" in crystal_keep
    assert "    502.83.Ruling.1  Exalted bonuses stack. If you have three permanents with Exalted in play and a " \
           "creature attacks alone, it will get +3/+3." in crystal_keep
    assert "      cites [CompRules 2008/10/01] -> cr2008:502.83b" in crystal_keep  # 'See Rule 306.5': not a copy
    assert lines[-2:] == ["compare the versions: rulebase diff ck2008:502.83 cr2008:502.83",
                          "--full shows everything (1 identical copy)"]


# -- 502: two rules by that number, one with 84 keyword subrules of its own ---------------------


def test_a_section_lists_each_direct_child_once_on_one_line(library):
    lines = lookup_lines(lookup(library.store, "502"))
    now = entry_block(lines, "cr 502 Untap Step")
    assert [line[:11] for line in now if line.startswith("    502.")] == [
        "    502.1  ", "    502.2  ", "    502.3  ", "    502.4  "]  # short: in full, word for word
    assert now[now.index(next(x for x in now if x.startswith("    502.2  "))) + 1] == "      (+1 subrule)"
    assert "  <- cited by cr 500.3, cr Untap Step, cr 724.2, cr 725.2, cr 726.2, cr 727.2 ... and 10 more" in now
    keywords = entry_block(lines, "cr2008 502 Keyword Abilities")
    listed = [line for line in keywords if line.startswith("    502.")]
    assert [line.split()[0] for line in listed] == [f"502.{n}" for n in range(1, 85)]
    assert listed[:3] == [
        "    502.1  Most abilities describe exactly what they do in the card's rules text. Some…",
        "    502.2  First Strike  (+4)",
        "    502.3  Flanking  (+2)"]
    assert "    502.83  Exalted  (+2)" in listed
    assert not any("502.2a" in line or "502.83a" in line for line in lines)  # grandchildren: counted only
    assert "  now: rule 702, same text (cr:702@2009-07-11)" in keywords
    # (two different rules share the number: no diff of them is offered)
    assert lines[-1] == "--full shows everything (84 subrules in full, 228 more subrules, 10 more references)"
    assert not any(line.startswith("compare the versions") for line in lines)
    assert len(lines) == 106  # was 1,295


def test_a_section_on_a_terminal_fits_about_a_screen(library):
    shown = terminal(lookup(library.store, "502"))
    assert len(shown) == 65  # was 2,224 at width 80
    text = "\n".join(shown)
    for n in range(1, 85):  # each direct child once, packed in columns
        assert len(re.findall(rf"(?<![\d.])502\.{n}  ", text)) == (2 if n <= 4 else 1), n
    assert "│ 502.2  First Strike  (+4)  " in text
    assert shown[-1] == "--full shows everything (84 subrules in full, 228 more subrules, 10 more references)"
    narrow = terminal(lookup(library.store, "502"), width=80)
    assert len(narrow) == 84 and max(len(line) for line in narrow) <= 80  # the last line wraps, at a space
    assert narrow[-2:] == ["--full shows everything (84 subrules in full, 228 more subrules, 10 more",
                           "references)"]


def test_full_section_has_every_record(library):
    full = lookup(library.store, "502", full=True)
    lines = lookup_lines(full)
    assert len(lines) == 1295  # (no diff of two rules that share the number)
    text = "\n".join(lines)
    assert [len(entry.children) for entry in full.entries] == [5, 311]
    for child in (c for entry in full.entries for c in entry.children):
        assert f"\n      [{child.kind} · edition {child.edition} · source {child.source} · id {child.id}" in text


# -- other eras, JSON, verbatim ---------------------------------------------------------------------


def test_other_eras_are_one_line_each(library):
    result = lookup(library.store, "702.19")
    lines = lookup_lines(result)
    assert lines[-5:] == [
        "702.19 in other eras:",
        # the days the number meant that rule, as `history` gives them (not its first and last release)
        "  2011-06-17 to 2013-07-12  cr:702.19@2011-06-17 (now rule 702.20, same text)  Vigilance",
        "  2009-07-11 to 2011-06-16  cr:702.19@2009-07-11 (now rule 702.22, same text)  Banding",
        "",
        "--full shows everything (3 more references, 2 other eras in full)",
    ]
    assert terminal(result)[-4:] == ["702.19 in other eras:"] + [line for line in lines[-4:-2]] + [lines[-1]]
    data = lookup_json(result)
    assert [(a["id"], a["era"], a["children"], a["truncated"]["children"]) for a in data["also"]] == [
        ("cr:702.19@2011-06-17", True, [], 3), ("cr:702.19@2009-07-11", True, [], 12)]
    assert data["also"][0]["in_force"] == {"first": "2011-06-17", "last": "2013-07-12"}


def test_json_counts_what_was_left_out(library):
    data = json.loads(dumps(lookup_json(lookup(library.store, "502"))))
    keys = ["children", "refs_out", "refs_in", "same_rule", "also", "ref", "match", "diff_hint"]
    assert [k for k in data if k in keys] == ["refs_in", "children", "refs_out", "same_rule", "ref", "match",
                                              "also", "diff_hint"]  # the keys, in their old order
    assert list(data)[-10:] == ["truncated", "era", "in_force", "outline", "twins", "copies", "now", "cards", "full",
                                  "full_hint"]
    assert data["truncated"] == {"children": 1, "refs_out": 0, "refs_in": 10, "same_rule": 0, "twins": 0, "text": 0}
    assert (len(data["children"]), len(data["refs_in"]), data["outline"], data["full"]) == (4, 6, False, False)
    keywords = data["also"][0]
    assert keywords["id"] == "cr2008:502" and keywords["outline"] is True
    assert keywords["truncated"] == {"children": 227, "refs_out": 0, "refs_in": 0, "same_rule": 0, "twins": 0, "text": 0}
    assert len(keywords["children"]) == 84
    assert keywords["now"]["id"] == "cr:702@2009-07-11" and keywords["now"]["same_text"] is True
    assert data["full_hint"] == "--full shows everything (84 subrules in full, 228 more subrules, 10 more references)"
    twins = lookup_json(lookup(library.store, "502.83a"))
    assert twins["truncated"]["twins"] == 1 and twins["also"] == []
    assert [t["id"] for t in twins["twins"]] == ["ck2008:502.83a", "cr:502.83a@2008-10-01"]
    full = lookup_json(lookup(library.store, "502", full=True))
    assert full["truncated"] == dict.fromkeys(full["truncated"], 0) and full["full_hint"] is None
    assert (len(full["children"]), len(full["also"][0]["children"]), full["full"]) == (5, 311, True)


@pytest.mark.parametrize("ref", ["502", "702.19", "100.1", "502.83", "101", "cr2008:502.2"])
def test_every_shortened_quote_is_verbatim_and_marked(library, ref):
    result = lookup(library.store, ref)
    records = {r.id: r for e in result.entries for r in (e.record, *e.children)}
    for entry in result.entries:
        for rid, lead in entry.leads.items():
            text = fold_space(records[rid].text.split("\n\n")[0])
            assert lead == text or (lead.endswith("…") and text.startswith(lead[:-1])), rid


@pytest.mark.parametrize("ref", ["502", "502.83", "502.83a", "702.19", "100.1"])
def test_plain_terminal_and_json_name_the_same_records(library, ref):
    result = lookup(library.store, ref)
    plain = "\n".join(lookup_lines(result))
    shown = " ".join(" ".join(terminal(result, width=200)).replace("│", " ").split())
    data = lookup_json(result)
    for entry in [data, *data["also"]]:
        now = entry["now"] or {}
        named = [entry["id"], *(t["id"] for t in entry["twins"]), now.get("number" if entry["era"] else "id")]
        for rid in filter(None, named):  # an era's line names the rule now by its number only
            assert rid in plain and rid in shown, rid
        for child in (c for c in entry["children"] if c["number"]):
            assert re.search(rf"^    {re.escape(child['number'])}  ", plain, re.MULTILINE), child["id"]
            assert f" {child['number']} " in shown, child["id"]
    hint = result.full_hint()
    assert hint == data["full_hint"] and (hint is None or (hint in plain and hint in shown))


def test_every_segment_reaching_the_terminal_is_escaped():
    """SafeConsole's last check: data that escaped `printable` is still shown, not acted on."""
    from rich.panel import Panel
    from rich.text import Text

    out = io.StringIO()
    console = SafeConsole(file=out, force_terminal=True, width=40)
    console.print(Panel(Text("a\x1b[2Jb")), Text("c\x9bd"))
    with console.capture() as capture:
        console.print(Text("e\x1b]0;x"))
    text = out.getvalue() + capture.get()
    assert "\\x1b[2J" in text and "\\x9b" in text and "\\x1b]0;x" in text
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", SGR.sub("", text))


def test_a_huge_record_is_cut_in_the_compact_lookup(ck2008_corpus, tmp_path, monkeypatch):
    """Issue 21.8b: a compact lookup of a rule whose text is one 10 MB line printed all of it. It
    prints TEXT_CAP characters and says what was cut and how to see it all; --full (and --json
    --full, and `show`) still give every character."""
    from typer.testing import CliRunner

    from rulebase.cli.app import app
    from rulebase.rules.lookup import TEXT_CAP

    corpus, env = ck2008_corpus(tmp_path)
    for key, value in env.items():
        if key.startswith("RULEBASE_"):
            monkeypatch.setenv(key, value)
    monkeypatch.setenv("RULEBASE_USER_CORPUS", str(tmp_path / "user"))
    words = "trample " * (200_000 // 8)  # ten times TEXT_CAP, inside what `add` takes (a line of 256 KiB)
    huge = tmp_path / "huge.txt"
    huge.write_text("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of November 14, 2025."
                    "\n\n1. Game Concepts\n\n100. General\n\n" + "".join(f"100.{n}. Rule {n} about combat damage.\n\n"
                                                               for n in range(3, 22)) + "100.2. " + words + "\n",
                    encoding="utf-8")
    runner = CliRunner()
    index = ["--index", str(tmp_path / "index")]
    added = runner.invoke(app, [*index, "add", str(huge), "--id", "huge"])
    assert added.exit_code == 0, added.output
    compact = runner.invoke(app, [*index, "lookup", "huge:100.2"])
    assert compact.exit_code == 0
    assert TEXT_CAP < len(compact.stdout) < TEXT_CAP + 2000
    lines = compact.stdout.splitlines()
    assert lines[3].endswith("trample …")
    cut = len(words.strip()) - len(lines[3].strip()) + 2
    assert lines[-1] == f"--full shows everything ({cut:,} more characters of huge:100.2's text)"
    data = json.loads(runner.invoke(app, [*index, "lookup", "huge:100.2", "--json"]).stdout)
    assert data["truncated"]["text"] == cut and len(data["text"]) < TEXT_CAP + 10 and len(data["raw"]) < TEXT_CAP + 10
    full = runner.invoke(app, [*index, "lookup", "huge:100.2", "--full", "--json"])
    assert json.loads(full.stdout)["text"] == words.strip()
    assert json.loads(runner.invoke(app, [*index, "show", "huge:100.2", "--json"]).stdout)["text"] == words.strip()
