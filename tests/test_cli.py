"""The command line end to end on the real corpus: exit codes, messages, JSON shapes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app

runner = CliRunner()

RECORD_FIELDS = ["id", "source", "edition", "lang", "kind", "number", "title", "text", "pages", "section",
                 "parent", "refs", "citations", "flags"]
HIT_FIELDS = {"id", "source", "edition", "lang", "kind", "number", "title", "text", "pages", "score"}


def run(index_dir, *args):
    return runner.invoke(app, ["--index", str(index_dir), *args])


def test_lookup_rule_shows_subrules_rulings_and_the_other_document(index_dir):
    result = run(index_dir, "lookup", "502.83")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("cr2008 502.83 Exalted\n")
    lines = out.splitlines()
    for child in ("502.83a  Exalted is a triggered ability.", "502.83b  A creature \"attacks alone\"",
                  "502.83.Ruling.1  Exalted bonuses stack.", "502.83.Ruling.6  If an effect puts a creature"):
        assert any(line.startswith("    " + child) for line in lines), child
    assert "    502.83a  = same text as cr2008:502.83a" in lines  # Crystal Keep's copy, not repeated
    assert "  = same text in ck2008:502.83, cr:502.83@2008-10-01" in lines
    assert "      cites [CompRules 2008/10/01] -> cr2008:502.83b" in lines
    full = run(index_dir, "lookup", "502.83", "--full").stdout  # every record in full, as before
    for child in ("cr2008 502.83a", "cr2008 502.83b", "ck2008 502.83.Ruling.1", "ck2008 502.83.Ruling.6"):
        assert child in full
    assert "= same rule in ck2008: ck2008:502.83" in full
    assert "cites [CompRules 2008/10/01] -> cr2008:502.83a" in full


def test_lookup_json_shape(index_dir):
    result = run(index_dir, "lookup", "502.83a", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data)[: len(RECORD_FIELDS)] == RECORD_FIELDS
    assert {"children", "refs_out", "refs_in", "same_rule", "also", "ref", "match"} <= set(data)
    assert data["id"] == "cr2008:502.83a"
    assert data["text"] == ('Exalted is a triggered ability. "Exalted" means "Whenever a creature you control '
                            'attacks alone, that creature gets +1/+1 until end of turn."')
    assert [s["id"] for s in data["same_rule"]] == ["ck2008:502.83a", "cr:502.83a@2008-10-01"]
    # compact: Crystal Keep's identical copy is named, not repeated under 'also'
    assert [t["id"] for t in data["twins"]] == ["ck2008:502.83a", "cr:502.83a@2008-10-01"]
    assert data["also"] == [] and data["truncated"]["twins"] == 1 and data["full"] is False
    data = json.loads(run(index_dir, "lookup", "502.83a", "--full", "--json").stdout)
    assert [a["id"] for a in data["also"]] == ["ck2008:502.83a"]
    assert data["also"][0]["citations"][0]["target"] == "cr2008:502.83a"


def test_lookup_reverse_references(index_dir):
    data = json.loads(run(index_dir, "lookup", "212.4k", "--json").stdout)
    assert "cr2008:212.4j" in [r["id"] for r in data["refs_in"]]
    refs = json.loads(run(index_dir, "lookup", "cr2008:212.4j", "--json").stdout)["refs_out"]
    assert [(r["key"], r["target"]) for r in refs] == [("212.4k", "cr2008:212.4k")]


def test_lookup_page(index_dir):
    result = run(index_dir, "lookup", "4e p11")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0].startswith("4e p11: ")
    assert "rb4e:basic-spellcasting " in result.stdout


def test_lookup_unknown_exits_1_with_candidates(index_dir):
    result = run(index_dir, "lookup", "502.83z")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "error: no rule, record or page matches '502.83z' - try 'rulebase search' for free text",
        "did you mean: 502.83, 502.83a, 502.83b, 502.83.Ruling.1, 502.83.Ruling.2",
    ]
    assert result.stdout == ""


def test_lookup_of_a_term_points_to_define_and_search(index_dir):
    """'lookup trample' said no match, then 'did you mean: trample, ...': the word it was given."""
    result = run(index_dir, "lookup", "mana burn")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == ("error: no rule, record or page matches 'mana burn' - it is a term: 'rulebase define "
                             "\"mana burn\"' gives its definitions, 'rulebase search \"mana burn\"' its rules\n")


def test_history_of_a_term_points_to_define_and_search(index_dir):
    """'history trample' suggested "trample, triple, rampage, transmute, templates"."""
    result = run(index_dir, "history", "trample")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == ("error: no rule 'trample' in any Comprehensive Rules release - it is a term: 'rulebase "
                             "define trample' gives its definitions, 'rulebase search trample' its rules\n")
    typo = run(index_dir, "history", "999.9z")  # not a term: its near numbers, as before
    assert typo.exit_code == 1 and typo.stderr.startswith("error: no rule '999.9z' in any Comprehensive Rules "
                                                           "release - try 'rulebase search' for free text")


def test_lookup_of_an_archive_id_without_its_date_is_its_version_then(index_dir):
    now = json.loads(run(index_dir, "lookup", "cr:glossary.trample", "--json").stdout)
    assert (now["id"], now["in_force"]["last"]) == ("cr:glossary.trample@2019-05-03", "now")
    then = json.loads(run(index_dir, "lookup", "cr:glossary.trample", "--as-of", "2005-12", "--json").stdout)
    assert then["id"] == "cr:glossary.trample@2005-10-01"


def test_lookup_offers_a_diff_only_of_one_rule(index_dir):
    """2008's 502 is Keyword Abilities, today's the Untap Step: no 'compare the versions' of the two."""
    assert "compare the versions" not in run(index_dir, "lookup", "502").stdout
    assert "compare the versions: rulebase diff cr2008:100.1 cr:100.1@2005-08-01" in run(index_dir, "lookup", "100.1").stdout


def test_lookup_page_outside_the_transcription(index_dir):
    result = run(index_dir, "lookup", "5e p20")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no 5e record is printed on page 20")


def test_search_json_shape_and_filters(index_dir):
    result = run(index_dir, "search", "damage prevention", "--edition", "4e", "--limit", "3", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert set(data) == {"query", "total", "hits", "suggestion"}
    assert data["query"] == "damage prevention" and data["suggestion"] is None
    assert len(data["hits"]) == 3 and data["total"] >= 3
    for hit in data["hits"]:
        assert set(hit) == HIT_FIELDS | {"snippet", "exact_number", "also", "in_force_now", "formerly"}  # the shape docs/reference.md documents
        assert hit["edition"] == "4e" and isinstance(hit["also"], list)
    twins = json.loads(run(index_dir, "search", "minimum deck size", "--source", "ck1999", "-n", "10",
                           "--json").stdout)["hits"]
    assert {"ck1999:D.13.5": ["ck1999:D.14.5", "ck1999:D.15.4", "ck1999:D.16.7"]}.items() <= {
        h["id"]: h["also"] for h in twins}.items()


def test_search_number_in_query_goes_first(index_dir):
    data = json.loads(run(index_dir, "search", "what does 306.5 say", "--json").stdout)
    # the rule that holds the number now first (a question with no date: only today's 306.5)
    first = data["hits"][0]
    assert first["id"].startswith("cr:306.5@") and first["exact_number"] is True and first["in_force_now"] is True
    assert not any(h["exact_number"] for h in data["hits"][1:])
    # only the number matches: no near spellings of it, or of 'say', and no respelled number
    alone = json.loads(run(index_dir, "search", "what does 702.2c say", "--json").stdout)
    assert [h["id"] for h in alone["hits"]] == ["cr:702.2c@2025-11-14"]
    assert (alone["total"], alone["suggestion"]) == (1, None)
    # a number that ends a sentence ("... See rule 702.2c.") is that number, not a version string
    ended = json.loads(run(index_dir, "search", "can deathtouch and trample do that? See rule 702.2c.", "--json").stdout)
    assert ended["hits"][0]["id"] == "cr:702.2c@2025-11-14" and ended["hits"][0]["exact_number"] is True


def test_search_no_hits_exit_1(index_dir):
    result = run(index_dir, "search", "zzzxqy", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {"query": "zzzxqy", "total": 0, "hits": [], "suggestion": None}


def test_search_typo_suggests_and_still_finds(index_dir):
    data = json.loads(run(index_dir, "search", "trampel", "--json").stdout)
    assert data["suggestion"] == "trample"
    assert any("rampl" in h["text"].lower() for h in data["hits"][:3])


def test_search_bad_limit_is_a_usage_error(index_dir):
    result = run(index_dir, "search", "trample", "--limit", "0")
    assert result.exit_code == 2


def test_search_unknown_filter_values_are_usage_errors(index_dir):
    """A misspelt filter used to find nothing (exit 1, like a real miss); now it lists the choices."""
    result = run(index_dir, "search", "trample", "--edition", "7e")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("error: unknown edition '7e' - choose from alpha, 4e, 5e, 6e, cr2001, cr2002, cr2003, cr2004, cr2005, "
                                    "cr2006, cr2007, 10e, cr2009, cr2010, ")
    assert result.stderr.count("\n") == 1
    result = run(index_dir, "search", "trample", "--lang", "de")
    assert (result.exit_code, result.stderr) == (2, "error: unknown language 'de' - choose from en, hu\n")
    result = run(index_dir, "search", "trample", "--kind", "rules")
    assert (result.exit_code, result.stderr) == (2, "error: unknown kind 'rules' - choose from document, note, "
                                                    "section, chapter, heading, passage, rule, ruling, example, "
                                                    "glossary, term, table, quiz, index, card, card-ruling\n")
    assert run(index_dir, "search", "trample", "-e", "4E", "-k", "Passage", "--lang", "EN").exit_code == 0


def test_define_across_editions_with_hungarian(index_dir):
    data = json.loads(run(index_dir, "define", "remove from game", "--json").stdout)
    assert [d["id"] for d in data["definitions"]] == [
        "cr:glossary.remove-from-the-game@2019-05-03", "cr:glossary.removed-from-the-game@2008-07-15",
        "cr:glossary.removed-from-the-game@2006-02-01", "cr:glossary.removed-from-the-game@2003-07-01",
        "cr:glossary.removed-from-the-game@2001-09-24", "cr:glossary.removed-from-the-game@1999-04-23",
        "hu-guide:glossary.jatekbol-eltavolitott", "ck1999:G.33.1", "rb4e:glossary.remove-from-game"]
    now, then = data["definitions"][:2]
    assert (now["era"], now["in_force"], now["in_force_now"], now["cited"]) == (
        "cr2009 to cr2026", {"first": "2009-07-11", "last": "now"}, True, False)
    assert then["same_text"] == ["cr2008:glossary.removed-from-the-game"] and then["in_force_now"] is False
    assert "cr:glossary.removed-from-the-game@2007-10-01" in then["versions"]
    assert [h["id"] for h in data["hungarian"]] == ["hu-guide:term.tavolitsd-el-a-jatekbol"]
    assert "rb4e:glossary.graveyard" in [r["id"] for r in data["referenced_by"]]


def test_define_unknown(index_dir):
    result = run(index_dir, "define", "flibbertigibbet")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no glossary definition of 'flibbertigibbet'")


def test_a_rule_in_force_now_says_since_when_its_text_is(index_dir, library):
    """'[cr2013 · in force now]', 'edition cr2018': a rule in force now was labelled with the release
    its text first appeared in, which reads as out of date; it says 'in force now, text since
    2013-07-13' (the words: a release that only retyped the quotes changed no rule)."""
    from rulebase.index.versions import text_since

    search = run(index_dir, "search", "trample", "-n", "5").stdout.splitlines()
    assert search[1] == (" 1. cr 702.19a  [in force now, text since 2013-07-13, was 702.18a until 2013-07-12 · rule · "
                         "cr:702.19a@2019-05-03]")  # (and the number it had before)
    old = run(index_dir, "search", "trample", "-e", "alpha").stdout.splitlines()
    assert old[1] == " 1. alpha p28 Trample  [alpha · history · passage · alpha:creature-abilities.7]"  # its era's label
    lookup = run(index_dir, "lookup", "702.19a").stdout.splitlines()
    assert lookup[1] == ("  [rule · in force now, text since 2013-07-13 · source cr · id cr:702.19a@2019-05-03 · "
                         "in releases 2019-05-03 to 2026-04-17]")
    define = run(index_dir, "define", "ward").stdout.splitlines()
    assert define[3] == ("  [glossary · in force now, text since 2021-04-22 · source cr · id cr:glossary.ward@2021-04-22 · "
                         "in releases 2021-04-22 to 2026-04-17]")
    old = run(index_dir, "lookup", "cr:502.9a@2003-07-01").stdout.splitlines()  # history keeps its era
    assert old[1].startswith("  [rule · edition cr2003 · source cr · id cr:502.9a@2003-07-01 · in force 2003-07-01 to ")
    record = library.store.get("cr:702.19a@2019-05-03")
    assert text_since(library.store, record, 20190503) == 20130713
    assert text_since(library.store, library.store.get("cr:702.21a@2021-04-22"), 20210422) == 20210422


def test_define_names_the_rules_its_definitions_cite(index_dir):
    """`define ward` printed "-> rule 702.21: cr:702.21@2021-04-22 (cr:702.21@2021-04-22)": the id
    twice, where lookup names the rule."""
    lines = run(index_dir, "define", "ward").stdout.splitlines()
    assert "  -> rule 702.21: cr 702.21 Ward (cr:702.21@2021-04-22)" in lines
    trample = run(index_dir, "define", "trample").stdout.splitlines()
    assert "  -> rule 510: cr 510 Combat Damage Step (cr:510@2009-07-11)" in trample
    assert not [line for line in lines + trample if line.startswith("  -> ")
                and line.rsplit(" (", 1)[-1].rstrip(")") in line.rsplit(" (", 1)[0]]


def test_show_json_and_unknown(index_dir):
    data = json.loads(run(index_dir, "show", "rb4e:basic-spellcasting", "--json").stdout)
    assert data["pages"] == ["11"] and data["kind"] == "heading"
    result = run(index_dir, "show", "rb4e:nope")
    assert result.exit_code == 1 and result.stderr.startswith("error: no record with id 'rb4e:nope'")


def test_show_a_rule_number_shows_its_rule_in_force_now(index_dir):
    """`show 702.21a` said "no record with id '702.21a'" and "did you mean: 702.21a" (exit 1)."""
    result = run(index_dir, "show", "702.21a")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "id: cr:702.21a@2021-04-22"
    assert result.stderr == ("note: 702.21a is read as cr:702.21a@2021-04-22, the rule in force now; also numbered so: "
                             "cr:702.21a@2013-07-13, cr:702.21a@2011-06-17, cr:702.21a@2010-07-16 (give a record id "
                             "to choose)\n")
    old = run(index_dir, "show", "502.83a", "--json")  # in force no more: the official text
    assert old.exit_code == 0 and json.loads(old.stdout)["id"] == "cr2008:502.83a"
    assert old.stderr.startswith("note: 502.83a is read as cr2008:502.83a, the Comprehensive Rules' text; ")
    alone = run(index_dir, "show", "A.27.2")  # one record has the number: no note
    assert alone.exit_code == 0 and alone.stdout.startswith("id: ck1999:A.27.2\n") and alone.stderr == ""
    missing = run(index_dir, "show", "702.21z")
    assert missing.exit_code == 1 and missing.stderr.splitlines() == [
        "error: no record or rule numbered '702.21z'", "did you mean: 702.21, 702.21a, 702.21b, 702.21c, 702.21d"]


def test_show_prints_values_not_python_reprs(index_dir):
    out = run(index_dir, "show", "rb4e:glossary.damage-prevention").stdout.splitlines()
    assert "number: -" in out and "pages: 59, 60" in out and "changed: no" in out
    at = out.index("refs:")  # each reference on its own line, its label last
    assert out[at + 1] == ('  kind=page key=p46 target=rb4e:resolving-fast-effects '
                           '("Resolving Fast Effects" on p. 46)')
    assert out[out.index("raw: _Damage prevention_") + 1].startswith("  Any time one of your creatures")
    section = run(index_dir, "show", "cr2008:502.83a").stdout
    assert "section: 5. Additional Rules > 502. Keyword Abilities > 502.83. Exalted\n" in section
    assert not any(bit in section for bit in ("None", "[]", "{'", "False"))


def test_sources_lists_every_document_with_credit(index_dir):
    data = json.loads(run(index_dir, "sources", "--json").stdout)
    assert [s["id"] for s in data] == ["alpha", "rb4e", "rb5e", "ck1999", "hu-guide", "cr2008", "ck2008", "cr", "mtr", "ipg", "jar", "dmtr", "dipg", "cards"]
    assert all(s["credit"] for s in data)
    plain = run(index_dir, "sources").stdout
    assert "credit: Rules summary by Stephen D'Angelo, Crystal Keep" in plain


def test_export_is_deterministic_jsonl(index_dir):
    first = run(index_dir, "export").stdout
    assert first == run(index_dir, "export").stdout
    lines = first.splitlines()
    records = [json.loads(line) for line in lines]
    assert list(records[0])[: len(RECORD_FIELDS)] == RECORD_FIELDS
    assert records[0]["source"] == "alpha" and records[-1]["source"] == "cards"  # the manifest's order
    assert len({r["id"] for r in records}) == len(records)


def test_index_status(index_dir):
    data = json.loads(run(index_dir, "index", "status", "--json").stdout)
    assert data["current"] is True and data["index"] == str(index_dir)
    assert data["sources"] == ["alpha", "rb4e", "rb5e", "ck1999", "hu-guide", "cr2008", "ck2008", "cr", "mtr", "ipg", "jar", "dmtr", "dipg", "cards"]


def test_empty_query_is_a_usage_error(index_dir):
    result = run(index_dir, "search", "   ")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: empty query")


@pytest.mark.parametrize("args", [["lookup", "502.83a"], ["lookup", "502.83a", "--json"],
                                  ["search", "damage prevention", "-n", "3"],
                                  ["search", "sebzes kiosztasa", "--json", "--lang", "hu"],
                                  ["lookup", "no-such-thing"], ["search", "trample", "-e", "7e", "-k", "rules"]])
def test_fast_path_prints_the_same_bytes_as_the_typer_path(index_dir, args):
    """Piped lookups/searches skip typer and rich; the output must not differ."""
    env = dict(os.environ, RULEBASE_INDEX=str(index_dir))
    fast = subprocess.run([sys.executable, "-m", "rulebase", *args], capture_output=True, text=True, env=env)
    slow = runner.invoke(app, ["--index", str(index_dir), *args])
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.exit_code, slow.stdout, slow.stderr)


def test_define_falls_back_to_defining_paragraphs_and_rules(index_dir):
    data = json.loads(run(index_dir, "define", "trample", "--json").stdout)
    # the 4th Edition's entry is its titled paragraph and the two that continue it; Crystal Keep's
    # is the rule that says what trample does, not A.27.1 'The ability is written "Trample".'
    assert [d["id"] for d in data["definitions"]] == [
        "cr:glossary.trample@2019-05-03", "cr:702.19a@2019-05-03",  # today's entry, then the rule it cites
        "cr:glossary.trample@2008-07-15", "cr:glossary.trample@2006-02-01", "cr:glossary.trample@1999-04-23",
        "ck1999:A.27.2",
        "rb4e:creature-special-abilities.8", "rb4e:creature-special-abilities.9", "rb4e:creature-special-abilities.10",
        "alpha:creature-abilities.7"]  # the 1993 book's titled paragraph, alone: 'Protection' follows
    assert data["definitions"][1]["cited"] is True  # (a heading, 702.19: its first rule says it)
    data = json.loads(run(index_dir, "define", "library", "--json").stdout)
    assert [d["id"] for d in data["definitions"]] == [
        "cr:glossary.library@2019-05-03", "cr:401.1@2019-05-03", "cr:glossary.library@2008-07-15",
        "hu-guide:glossary.konyvtar", "cr:glossary.library@1999-04-23", "ck1999:Z.5.1"]
    plain = run(index_dir, "define", "library").stdout.splitlines()
    assert plain[:2] == ["library: 6 definition(s), in force now first, then history newest to oldest",
                         "-- in force now · cr2009 to cr2026 · 2009-07-11 to now"]


def test_a_broken_corpus_is_one_line_and_leaves_no_index(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    manifest = (Path(__file__).resolve().parent.parent / "corpus" / "sources.toml").read_text()
    (corpus / "sources.toml").write_text(manifest)  # names files that are not there
    monkeypatch.setenv("RULEBASE_CORPUS", str(corpus))
    index = tmp_path / "index"
    result = runner.invoke(app, ["--index", str(index), "lookup", "502.83a"])
    assert result.exit_code == 2
    assert result.stderr == (f"error: {corpus / 'alpha-rulebook-1993-transcription-2004.md'}: file not found - "
                             "restore it or fix 'file' in sources.toml\n")
    assert not (index / "CURRENT").exists() and not list(index.glob("gen-*")) and not list(index.glob(".building-*"))


@pytest.mark.parametrize("args", [["lookup", b"\xff\xfe"], ["history", b"\xff\xfe"], ["show", b"\xff\xfe"],
                                  ["diff", b"\xff\xfe", b"cr2008:502.83a"], ["search", b"tr\xffample"],
                                  ["search", "trample", "-e", b"4\xffe"]])
def test_invalid_utf8_in_an_argument_is_a_usage_error(index_dir, args):
    """Issue 21.7: a non-UTF-8 argument was an internal error (exit 3, UnicodeEncodeError)."""
    argv = [sys.executable, "-m", "rulebase", "--index", str(index_dir),
            *(a if isinstance(a, bytes) else a.encode() for a in args)]
    bad = next(a for a in args if isinstance(a, bytes))
    result = subprocess.run(argv, capture_output=True, env={**os.environ, "NO_COLOR": "1"}, timeout=60)
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr == (b"error: argument " + repr(bad)[1:].encode() + b" is not valid UTF-8 text - write rule "
                             b"numbers, ids, terms and queries in UTF-8 (check the terminal's encoding)\n")


def test_file_names_need_not_be_utf8(tmp_path):
    """`add FILE` and `--index DIR` take any bytes a file name may have: no UTF-8 check there."""
    env = {**os.environ, "NO_COLOR": "1", "RULEBASE_USER_CORPUS": str(tmp_path / "user")}
    missing = os.fsencode(tmp_path) + b"/r\xe9gles.txt"
    result = subprocess.run([sys.executable, "-m", "rulebase", "--index", str(tmp_path / "i"), "add", missing],
                            capture_output=True, env=env, timeout=60)
    assert result.returncode == 2 and b"file not found" in result.stderr


def test_a_query_too_long_keeps_its_words_once_and_says_what_it_left_out(index_dir):
    """Issue 21.7: a query past 2,000 characters was cut there silently and found nothing."""
    repeated = run(index_dir, "search", "the " * 700 + "trample", "-n", "1", "--json")
    assert (repeated.exit_code, repeated.stderr) == (0, "")  # each word once: 'trample' is kept
    assert json.loads(repeated.stdout)["query"] == "the trample"
    words = " ".join(f"w{n}" for n in range(600)) + " trample"
    cut = run(index_dir, "search", words, "-n", "1", "--json")
    assert cut.stderr == ("note: the query is 2,897 characters: searched its words once each up to 'w421' "
                          "(1,999 characters, the most a query takes); the words after it were left out\n")
    assert json.loads(cut.stdout)["query"] == " ".join(f"w{n}" for n in range(422))


def test_a_typo_in_a_question_is_searched_respelled_and_said_on_stderr(index_dir):
    """Issue 17.3: the typo question lists what the question spelled right lists; stdout stays
    the results (and --json stays JSON), the reading goes to stderr."""
    typed = run(index_dir, "search", "can deathtuch and trampel assign 1 damage to each blocker", "-n", "3", "--json")
    spelled = run(index_dir, "search", "can deathtouch and trample assign 1 damage to each blocker", "-n", "3", "--json")
    assert (typed.exit_code, spelled.exit_code, spelled.stderr) == (0, 0, "")
    assert typed.stderr == "note: read 'deathtuch' as 'deathtouch'\nnote: read 'trampel' as 'trample'\n"
    assert [h["id"] for h in json.loads(typed.stdout)["hits"]] == [h["id"] for h in json.loads(spelled.stdout)["hits"]]


def test_an_abbreviation_is_read_as_its_term_and_said_on_stderr(index_dir):
    typed = run(index_dir, "search", "SBA check timing", "-n", "3", "--json")
    assert (typed.exit_code, typed.stderr) == (0, "note: read 'SBA' as 'state-based actions'\n")
    assert json.loads(typed.stdout)["query"] == "SBA check timing"


def test_a_link_pasted_into_a_question_changes_nothing_but_the_echoed_query(index_dir):
    """A bug report's link to a card page: its pieces ("card", "146") are not the asker's words."""
    question = "Lightning Bolt deals damage to a creature with protection from red, is it prevented?"
    linked = question.replace("Bolt", "Bolt (https://scryfall.com/card/m10/146/lightning-bolt)")
    plain, pasted = (run(index_dir, "search", q, "-n", "5", "--json") for q in (question, linked))
    assert (plain.exit_code, pasted.exit_code, pasted.stderr) == (0, 0, "")
    assert json.loads(pasted.stdout)["query"] == linked
    assert [h["id"] for h in json.loads(pasted.stdout)["hits"]] == [h["id"] for h in json.loads(plain.stdout)["hits"]]


def test_english_words_filtered_to_the_hungarian_guide_say_why_nothing_matched(index_dir):
    """Issue 17.6: the guide pairs only some of its terms with English ones ("Könyvtár (library)"),
    so English words filtered to it can match nothing; the user is told why, and what to do."""
    english = run(index_dir, "search", "--source", "hu-guide", "how many cards must a deck have")
    assert english.exit_code == 1 and english.stdout == "No results for 'how many cards must a deck have'.\n"
    assert english.stderr == ("note: every document these filters pass is in Hungarian, and the query is in "
                              "English: ask in Hungarian, or drop the filter\n")
    paired = run(index_dir, "search", "--source", "hu-guide", "library", "-n", "1", "--json")
    assert paired.exit_code == 0 and paired.stderr == "" and json.loads(paired.stdout)["hits"]
    hungarian = run(index_dir, "search", "--source", "hu-guide", "hány lap lehet a pakliban", "-n", "1")
    assert (hungarian.exit_code, hungarian.stderr) == (0, "") and "hu-guide:" in hungarian.stdout
    nothing = run(index_dir, "search", "--source", "hu-guide", "zzqqxx")  # no language to read: no note
    assert nothing.exit_code == 1 and "Hungarian" not in nothing.stderr


# -- errors in one or two lines (issue 20.5) ---------------------------------------------------


def _usage(command: str) -> str:
    what = "lists the commands" if command in ("", "index", "glossary") else "shows its options and examples"
    path = f"rulebase {command}".strip()
    usage = {"": "rulebase [OPTIONS] COMMAND [ARGS]...", "index": "rulebase index [OPTIONS] COMMAND [ARGS]...",
             "lookup": "rulebase lookup [OPTIONS] REF", "search": "rulebase search [OPTIONS] QUERY",
             "changes": "rulebase changes [OPTIONS]", "history": "rulebase history [OPTIONS] REF",
             "show": "rulebase show [OPTIONS] ID"}[command]
    return f"usage: {usage} ('{path} -h' {what})\n"


@pytest.mark.parametrize(("args", "message", "command"), [
    (["lokup", "702.19b"], "no command 'lokup' - did you mean 'lookup'?", ""),
    (["serch", "trample"], "no command 'serch' - did you mean 'search'?", ""),
    (["frobnicate"], "no command 'frobnicate'", ""),
    (["lookup"], "missing argument 'REF'", "lookup"),
    (["history"], "missing argument 'REF'", "history"),
    (["show", "502.83a", "702.83a"], "unexpected extra argument '702.83a' (a name that has spaces goes in quotes)",
     "show"),
    (["search", "trample", "--bogus"], "no option '--bogus'", "search"),
    (["search", "-1/-1 counters"], "no option '-1' - a query that starts with '-' goes after '--' (the options "
                                   'before it), e.g. rulebase search -n 3 -- "-1/-1 counters"', "search"),
    (["--indx", "/tmp/x", "lookup", "702.19b"], "no option '--indx' - did you mean '--index'?", ""),
    (["search", "trample", "-n", "0"], "invalid value for '--limit' / '-n': 0 is not in the range 1<=x<=500",
     "search"),
    (["changes", "--from"], "option --from needs a value", "changes"),
    (["lookup", "702.19b", "--index"], "option --index needs a value", "lookup"),
    (["index", "--index", "/tmp/x"], "missing command - choose from build, status", "index"),
    (["index", "frob"], "no command 'frob'", "index"),
])
def test_usage_errors_say_what_was_wrong_and_point_to_the_help(args, message, command):
    """Issue 20.5: `rulebase lokup 702.19b` printed four lines of usage ending "Did you mean
    'lookup'? Did you mean 'lookup'?"."""
    result = runner.invoke(app, args, prog_name="rulebase")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: {message}\n" + _usage(command)


@pytest.mark.parametrize(("words", "quoted"), [
    (["search", "deathtouch", "trample", "-n", "3"], ["search", "deathtouch trample", "-n", "3"]),
    (["define", "mana", "burn"], ["define", "mana burn"]),
    (["compare", "damage", "timing", "--editions", "4e"], ["compare", "damage timing", "--editions", "4e"]),
    (["history", "rule", "702.19b"], ["history", "rule 702.19b"]),
    (["lookup", "4e", "p11"], ["lookup", "4e p11"]),
])
def test_several_words_are_one_query(index_dir, words, quoted):
    """`search deathtouch trample` and `define mana burn` were usage errors ("put an argument that
    has spaces in quotes"): several words are one query, as the same words in quotes."""
    result, expected = run(index_dir, *words), run(index_dir, *quoted)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == expected.stdout and result.stdout


def test_a_usage_error_echoes_input_escaped():
    result = runner.invoke(app, ["lokup\x1b]0;x\x07"], prog_name="rulebase")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: no command 'lokup\\x1b]0;x\\x07'")
    assert "\x1b" not in result.stderr and result.stderr.count("\n") == 2


def test_no_arguments_still_show_the_help():
    result = runner.invoke(app, [], prog_name="rulebase")
    assert result.exit_code == 2 and "Commands:" in result.output and "error:" not in result.output


@pytest.mark.parametrize(("content", "kind"), [
    (b"\x7fELF\x02\x01\x01\x00" + bytes(2000), "a program (ELF)"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n", "a PDF document"),
    (b"PK\x03\x04\x14\x00\x06\x00" + bytes(100), "a ZIP archive (or a Word or OpenDocument file)"),
    (bytes(range(256)) * 8, "binary data"),
])
def test_add_of_a_binary_file_says_it_is_not_a_text_file(tmp_path, content, kind):
    """Issue 20.5: `add /bin/ls` said "not valid utf-16-le at byte 872"."""
    path = tmp_path / "rules.bin"
    path.write_bytes(content)
    result = runner.invoke(app, ["--index", str(tmp_path / "index"), "add", str(path)], prog_name="rulebase")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (f"error: {path} is not a text file (it looks like {kind}) - 'rulebase add' reads rules "
                             "documents saved as plain text\n")
    assert not (tmp_path / "index").exists()


HINT = "point --index or RULEBASE_INDEX at a directory (one that does not exist yet is created)"


@pytest.mark.parametrize("args", [["--index", "{f}", "lookup", "702.19b"], ["lookup", "702.19b", "--index", "{f}"],
                                  ["history", "702.19b", "--index", "{f}"], ["index", "status", "--index", "{f}"],
                                  ["--index", "{f}", "sources"]])
def test_index_naming_a_file_says_it_is_a_file(tmp_path, args):
    """Issue 20.5: it said "no index, and the directory is not writable"."""
    blocker = tmp_path / "notes.txt"
    blocker.write_text("my notes")
    result = runner.invoke(app, [a.format(f=blocker) for a in args], prog_name="rulebase")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: {blocker}: is a file, not a directory - {HINT}\n"
    inside = runner.invoke(app, [a.format(f=blocker / "index") for a in args], prog_name="rulebase")
    assert inside.exit_code == 2
    assert inside.stderr == f"error: {blocker / 'index'}: not a directory: {blocker} is a file - {HINT}\n"
    assert blocker.read_text() == "my notes"


def test_index_naming_a_file_on_the_fast_path(tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("my notes")
    for argv in (["--index", str(blocker), "lookup", "702.19b"], ["search", "trample", "--index", str(blocker)]):
        result = subprocess.run([sys.executable, "-m", "rulebase", *argv], capture_output=True, text=True,
                                env={**os.environ, "NO_COLOR": "1"}, timeout=60)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr == f"error: {blocker}: is a file, not a directory - {HINT}\n"


def test_a_first_build_says_where_it_goes(ck2008_corpus, tmp_path, monkeypatch):
    """`--index /nonexistent/x` built a 100 MB index there with nothing said when piped: a first
    build says where it goes, on stderr, on both paths (a new folder inside an existing one is still
    made: a new --index is how a user starts a second index; one whose parent does not exist is
    refused, tests/test_library.py)."""
    corpus, env = ck2008_corpus(tmp_path)
    for key, value in env.items():
        if key.startswith("RULEBASE_"):
            monkeypatch.setenv(key, value)
    index = tmp_path / "not-yet-index"
    first = runner.invoke(app, ["--index", str(index), "lookup", "306.5"])
    assert first.exit_code == 0, first.output
    assert first.stderr == f"note: building the index in {index} (first use: a few minutes)\n"
    again = runner.invoke(app, ["--index", str(index), "lookup", "306.5"])
    assert (again.exit_code, again.stderr, again.stdout) == (0, "", first.stdout)
    fast = tmp_path / "fast"  # lookup's and search's path without typer
    done = subprocess.run([sys.executable, "-m", "rulebase", "--index", str(fast), "search", "exalted"], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"note: building the index in {fast} (first use: a few minutes)\n"
