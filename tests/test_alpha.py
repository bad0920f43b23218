"""The 1993 Alpha rulebook (rulebase/ingest/alpha.py): the real transcription parsed whole, small
Markdown fixtures for the edge cases, and the commands a reader uses on it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.core.errors import SourceError
from rulebase.core.records import KINDS
from rulebase.core.sources import default_corpus_dir, edition_rank, load_manifest
from rulebase.ingest.rulebooks.alpha import BETA_FLAG, UNPLACED_FLAG, parse, stem, symbols
from rulebase.ingest.text import read_source

runner = CliRunner()
FILE = "alpha-rulebook-1993-transcription-2004.md"


@pytest.fixture(scope="module")
def source():
    return next(s for s in load_manifest(default_corpus_dir()) if s.id == "alpha")


@pytest.fixture(scope="module")
def text(source) -> str:
    return read_source(source.path).text


@pytest.fixture(scope="module")
def parsed(source, text):
    return parse(text, source)


@pytest.fixture(scope="module")
def records(parsed):
    return {r.id: r for r in parsed.records}


def test_the_bundled_copy_is_the_shared_file_byte_for_byte(source):
    shared = Path("/work/shared/extra") / FILE
    if not shared.exists():
        pytest.skip("the shared source folder is not on this machine")
    assert source.path.read_bytes() == shared.read_bytes()
    assert source.edition == "alpha" and source.format == "alpha-rulebook"
    assert edition_rank("alpha") < edition_rank("4e")


def test_every_nonblank_line_is_in_a_record_set_aside_or_warned(parsed, text):
    """Computed from the records: each raw line is the source line at or after the record's line."""
    lines = text.split("\n")
    covered: set[int] = set()
    for record in parsed.records:
        assert record.kind in KINDS, record.id
        at = record.line - 1
        for raw_line in record.raw.split("\n"):
            while at < len(lines) and lines[at] != raw_line:
                at += 1
            assert at < len(lines), (record.id, raw_line)
            covered.add(at + 1)
            at += 1
    aside = parsed.meta["set_aside_lines"]
    assert Counter({k: len(v) for k, v in aside.items()}) == parsed.set_aside
    set_aside = {n for numbers in aside.values() for n in numbers}
    assert not covered & set_aside
    warned = {w.line for w in parsed.warnings}
    missing = [n for n, line in enumerate(lines, 1) if line.strip() and n not in covered | set_aside | warned]
    assert missing == []
    assert parsed.warnings == []  # the real file has no inline image that is not a mana symbol


def test_front_matter_and_byline_are_counted_not_records(parsed, records):
    assert parsed.set_aside["front matter"] == 11
    assert parsed.set_aside["byline"] == 4  # Posted in, the date, the author's picture, By John Carter
    assert parsed.set_aside["article title"] == 2 and parsed.set_aside["article introduction"] == 1
    assert parsed.set_aside["page markers"] == 40
    assert parsed.meta["author"] == "John Carter" and parsed.meta["publish_date"] == "2004-12-25"
    assert not any("John Carter" in r.text or "holiday nostalgia" in r.text for r in parsed.records)


def test_pages_come_from_the_markers_that_end_them(records):
    assert records["alpha:mana-chart"].pages == ["13"]  # "The chart on page 13"
    assert records["alpha:timing"].pages == ["29"]  # '"Timing" on pp.29-32'
    assert records["alpha:timing.1"].pages == ["29", "30"]  # a paragraph across a page break, joined
    assert "conflicts of timing when both players" in records["alpha:timing.1"].text
    assert records["alpha:front.1"].pages == ["2"]
    credits = next(r for r in records.values() if r.title == "With Art By")
    assert credits.pages == [] and "Dameon Willich" in credits.text
    ref = next(f for f in records["alpha:game-turn.12"].refs if f.kind == "page")
    assert ref.target == "alpha:timing" and ref.reason is None


def test_both_beta_inserts_keep_their_repeated_pages(parsed, records):
    beta = [r for r in parsed.records if BETA_FLAG in r.flags]
    assert [r.id for r in beta if r.kind == "section"] == ["alpha:beta-rulebook", "alpha:beta-rulebook-2"]
    assert records["alpha:beta-playing-your-first-game"].parent == "alpha:beta-rulebook"
    assert records["alpha:beta-playing-your-first-game.2"].section == ["Beta Rulebook", "Playing Your First Game"]
    for page in ("4", "5", "38"):
        on_page = [r for r in parsed.records if page in r.pages]
        assert any(BETA_FLAG in r.flags for r in on_page) and any(BETA_FLAG not in r.flags for r in on_page), page
    assert records["alpha:beta-clarification-to-rules.1"].title == "Banding"
    assert records["alpha:beta-clarification-to-rules.12"].pages == ["38"]
    assert "pages 4, 5, 38 are printed twice" in " ".join(parsed.notes)
    assert any("never closed" in n for n in parsed.notes)  # the second insert's cell has no closing '|'


def test_headings_titled_paragraphs_and_examples(parsed, records):
    headings = [r.title for r in parsed.records if r.kind == "heading" and BETA_FLAG not in r.flags]
    assert headings[:4] == ["Introduction", "Game Description", "Equipment", "The Duel"]
    assert headings[-2:] == ["Some Questions and Answers", "Important References"]
    trample = records["alpha:creature-abilities.7"]
    assert trample.title == "Trample" and trample.pages == ["28"] and trample.section == ["Creature Abilities"]
    assert trample.terms == ["trample", "trample damage"]
    assert records["alpha:game-turn.3"].title == "Upkeep"
    example = records["alpha:the-attack.13"]  # "**Example: An Ogre ..." across pages 26-27
    assert example.kind == "example" and example.parent == "alpha:the-attack.12" and example.pages == ["26", "27"]


def test_questions_and_answers_are_quiz_records(parsed, records):
    quiz = [r for r in parsed.records if r.kind == "quiz"]
    assert len(quiz) == 5
    assert quiz[0].title == "Can I use my Giant to kill my rival's Goblin?"
    assert quiz[0].text.startswith("Q: Can I use my Giant") and "\n\nA: Not unless your rival" in quiz[0].text
    circles = records["alpha:some-questions-and-answers.4"]  # an answer of two paragraphs
    assert circles.text.endswith("vary your card mix so your opponent doesn't always know what to expect.")
    assert records["alpha:some-questions-and-answers.3"].pages == ["34", "35"]


def test_important_references_are_index_entries_pointing_to_the_book(parsed, records):
    entries = [r for r in parsed.records if r.kind == "index"]
    assert len(entries) == 58 and all(r.pages == ["38"] for r in entries)
    assert entries[0].title == "Ante" and entries[-1].title == "Winning"
    trample = records["alpha:index.trample"]
    assert [(f.target, f.reason) for f in trample.refs] == [("alpha:creature-abilities.7", None)]
    banding = {f.target for f in records["alpha:index.banding"].refs}  # 'Bands' and Beta's 'Banding'
    assert banding == {"alpha:creature-abilities.4", "alpha:beta-clarification-to-rules.1"}
    sub = records["alpha:index.colors-of-mana"]
    assert sub.parent == "alpha:index.colors" and sub.title == "Colors, of mana"
    assert records["alpha:index.enhanced-power-or-toughness"].raw.count("\n") == 1  # one entry on two lines
    walls = records["alpha:index.walls"].refs  # no heading: the paragraphs that mention walls
    assert [f.target for f in walls] == ["alpha:creatures.1", "alpha:the-attack.8"]
    assert "lost the index's page numbers" in walls[0].reason
    unplaced = [r.title for r in entries if UNPLACED_FLAG in r.flags]
    assert "Attack sequence" in unplaced and len(unplaced) == 12
    assert all(not r.refs for r in entries if UNPLACED_FLAG in r.flags)
    assert all(f.target for r in entries for f in r.refs)


def test_mana_symbols_and_figures(parsed, records):
    assert records["alpha:mana-chart.1"].text.startswith("{B} Black Magic: ")
    assert records["alpha:mana-chart.1"].title == "Black Magic"
    assert "For example, {1}{W}{W} means the spell costs 2 white mana plus 1 mana" in records["alpha:mana-chart.8"].text
    assert "which costs X{R} and does X damage" in records["alpha:mana-chart.9"].text
    assert not any("![" in r.text or "](http" in r.text for r in parsed.records)
    figures = [r for r in parsed.records if r.title and r.title.startswith("Figure")]
    assert len(figures) == 7 and all(r.kind == "note" for r in figures)
    assert figures[0].title == "Figure 1—Table Layout" and figures[0].raw.startswith("![](")
    assert parsed.set_aside["pictures without a caption"] == 1  # the cover


def test_stem_meets_the_index_and_the_titles():
    assert stem("Casting spells") == stem("Casting Spells")
    assert stem("Bands") == stem("Banding") and stem("Attacking") == stem("The Attack")
    assert stem("Sorcery") == stem("Sorceries")


def _fixture(tmp_path: Path, source, body: str):
    path = tmp_path / "a.md"
    path.write_text(body, encoding="utf-8")
    from rulebase.core.value import replace

    return parse(body, replace(source, path=path))


def test_small_book_and_an_unknown_inline_image(tmp_path, source):
    body = ("\n---\n[_metadata_:author]:- \"X\"\n---\n\nTitle\n=====\n\nBy X\n\n---\n\n### Play\n\n"
            "Cast it for ![Purple Mana](http://x/p.gif) and\n\n-1-\n\n---\n\nthen rest.\n\n-2-\n")
    parsed = _fixture(tmp_path, source, body)
    play = parsed.records[1]
    assert play.text == "Cast it for Purple Mana and then rest." and play.pages == ["1", "2"]
    assert [(w.line, w.message) for w in parsed.warnings] == [
        (15, "inline image 'Purple Mana' is not a mana symbol; kept as its alt text")]
    assert symbols("![Green Mana](u)![3 Mana](u)", lambda m: None) == "{G}{3}"


def test_bad_documents_are_one_line_errors(tmp_path, source):
    with pytest.raises(SourceError, match="front matter opened at line 1 is never closed"):
        _fixture(tmp_path, source, "---\n[_metadata_:a]:- \"b\"\n")
    with pytest.raises(SourceError, match="no -N- page marker follows"):
        _fixture(tmp_path, source, "Some text\n\n---\n\n### Heading\n\nNo markers here.\n")


# ---- the commands ----------------------------------------------------------------------------------
def run(index_dir, *args):
    return runner.invoke(app, ["--index", str(index_dir), *args])


def test_lookup_an_alpha_page_lists_both_beta_and_alpha_records(index_dir):
    result = run(index_dir, "lookup", "alpha p4")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "alpha p4: 10 records"
    ids = [line.split()[0] for line in lines[1:]]
    assert ids[:2] == ["alpha:introduction", "alpha:introduction.1"]
    assert "alpha:beta-rulebook" in ids and "alpha:beta-playing-your-first-game.4" in ids
    assert run(index_dir, "lookup", "alpha p38").stdout.startswith("alpha p38: 62 records\n")
    missing = run(index_dir, "lookup", "alpha p39")
    assert missing.exit_code == 1
    assert missing.stderr.splitlines() == [
        "error: no alpha record is printed on page 39 - the alpha text in the corpus covers pages 2-38"]


def test_search_trample_in_the_alpha_edition(index_dir):
    result = run(index_dir, "search", "trample", "--edition", "alpha", "--json")
    assert result.exit_code == 0
    hits = json.loads(result.stdout)["hits"]
    assert hits[0]["id"] == "alpha:creature-abilities.7" and hits[0]["pages"] == ["28"]
    assert {h["edition"] for h in hits} == {"alpha"}


def test_define_trample_ends_with_the_alpha_definition(index_dir):
    """define lists the rules in force now first and the history newest to oldest: the 1993 book last."""
    result = run(index_dir, "define", "trample", "--json")
    assert result.exit_code == 0
    definitions = json.loads(result.stdout)["definitions"]
    assert definitions[-1]["id"] == "alpha:creature-abilities.7"
    assert definitions[-1]["text"].startswith("Trample: A creature with trample can do damage to the defender")
    assert definitions[-1]["era"] == "alpha" and definitions[-1]["in_force"] == {"first": "1993-08-05",
                                                                                 "last": "1995-03-31"}
    assert [d["edition"] for d in definitions][-2:] == ["4e", "alpha"]


def test_compare_shows_the_alpha_column_first(index_dir):
    result = run(index_dir, "compare", "who plays first", "--json")
    assert result.exit_code == 0
    editions = json.loads(result.stdout)["editions"]
    assert next(iter(editions)) == "alpha"
    assert editions["alpha"]["citations"][0] == {
        "id": "alpha:setting-up.2", "pages": ["7"],
        "quote": "The loser of the previous game takes the first turn; if there was no previous game, "
                 "decide who goes first randomly."}
