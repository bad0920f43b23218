"""The words people use (corpus/vocabulary.toml, rulebase.search.parlance)."""

from __future__ import annotations

import os

import pytest

from rulebase.core.errors import ManifestError
from rulebase.core.sources import default_corpus_dir
from rulebase.search.parlance import VOCABULARY_FILE, load_parlance
from rulebase.search.request import run_search

SMALL = '''
[[abbreviation]]
say = ["HCE"]
means = "hidden card error"
source = "IPG 2.3"

[[abbreviation]]
say = ["TO"]
means = "tournament organizer"
source = "MTR 1.2"

[[abbreviation]]
say = ["FtMGS"]
means = "failure to maintain game state"
source = "IPG 2.6"

[[phrase]]
say = ["chump", "chump blocked"]
means = "block"
source = "CR 509"

[[phrase]]
say = ["blocked"]
means = "blocking creature"
source = "CR 509"

[[digital]]
say = ["mtg arena", "mtgo"]
source = "the DMTR's title"

[[abbreviation]]
say = ["GL"]
means = "game loss"
source = "IPG 1.1"

[[abbreviation]]
say = ["DQ"]
means = "disqualification"
source = "IPG 1.1"

[[tournament]]
say = ["game loss", "decklist"]
source = "IPG 1.1, MTR 2.7"
'''


@pytest.fixture
def parlance(tmp_path):
    path = tmp_path / VOCABULARY_FILE
    path.write_text(SMALL, encoding="utf-8")
    return load_parlance(path)


def test_an_abbreviation_is_read_as_what_it_stands_for(parlance):
    assert parlance.spell_out("HCE at competitive") == ("hidden card error at competitive", [("HCE", "hidden card error")])
    assert parlance.spell_out("is ftmgs a warning")[0] == "is failure to maintain game state a warning"


def test_a_short_abbreviation_that_is_a_word_is_read_only_in_capitals(parlance):
    assert parlance.spell_out("I want to know")[0] == "I want to know"
    assert parlance.spell_out("ask the TO")[0] == "ask the tournament organizer"
    assert parlance.spell_out("hce")[0] == "hce"  # (three capitals: as typed only)


def test_abbreviations_are_whole_words(parlance):
    assert parlance.spell_out("HCEs and XHCE")[0] == "HCEs and XHCE"


def test_a_pattern_is_compiled_only_for_a_text_holding_a_first_word_whole(parlance):
    """"blocked" inside "unblocked" or "chump" inside "chumps" cannot begin a match: the entry's
    pattern is not compiled for it; standing whole, it is."""
    parlance.meanings("an unblocked attacker and two chumpsters")
    assert not parlance._compiled
    assert parlance.meanings("he chump blocked") == [("chump blocked", "block")] and parlance._compiled


def test_the_longest_phrase_wins_and_phrases_do_not_overlap(parlance):
    assert parlance.meanings("he chump blocked with a token") == [("chump blocked", "block")]
    assert parlance.meanings("it was blocked") == [("blocked", "blocking creature")]


def test_digital_words_name_digital_play(parlance):
    assert parlance.asks_digital("a disconnect on MTG Arena")
    assert parlance.asks_digital("on mtgo") and not parlance.asks_digital("at a paper event")


def test_tournament_words_name_a_tournament_question(parlance):
    assert parlance.asks_tournament("is that a game loss?") and parlance.asks_tournament("my DECKLIST was wrong")
    assert not parlance.asks_tournament("several judges disagreed: does the aura target?")  # (no tournament word)
    assert parlance.spell_out("DQ or GL?")[0] == "disqualification or game loss?"


def test_a_question_in_the_tournaments_words_is_answered_by_them_first(library):
    """'warning', 'game loss': only the tournament documents speak so; the rules in force follow."""
    hits = run_search(library, "my opponent forgot a trigger twice, do they get a warning", {}, 5).hits
    assert hits[0].id.split(":", 1)[0] in ("ipg", "jar", "mtr")
    assert any(h.id.startswith("ipg:2.1@") for h in hits[:3])  # Missed Trigger


def test_no_file_is_an_empty_vocabulary(tmp_path):
    empty = load_parlance(tmp_path / "missing.toml")
    assert empty.spell_out("HCE") == ("HCE", []) and empty.meanings("blink") == []


@pytest.mark.parametrize("text, message", [
    ("[[abbreviation]]\nsay = 'HCE'\nmeans = 'x'\nsource = 's'\n", "[[abbreviation]] entry 1: 'say' must be a list of words"),
    ("[[phrase]]\nsay = ['x']\nmeans = 'y'\n", "[[phrase]] entry 1: 'source' must say where the reading comes from"),
    ("[[slang]]\nsay = ['x']\n", "unknown table 'slang'"),
    ("[[phrase]\n", "not valid TOML")])
def test_a_malformed_vocabulary_is_refused_with_where_and_what(tmp_path, text, message):
    path = tmp_path / VOCABULARY_FILE
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ManifestError) as caught:
        load_parlance(path)
    assert message in str(caught.value) and str(path) in str(caught.value.where)


def test_the_bundled_vocabulary_loads_and_every_entry_has_its_source():
    parlance = load_parlance(os.path.join(default_corpus_dir(), VOCABULARY_FILE))
    assert len(parlance.entries) > 40 and all(e.source for e in parlance.entries)


def test_every_phrase_means_words_a_text_in_force_says(library):
    """A player's phrase of several words is scored as the documents' phrase it means
    (Searcher._meant: the words in order, one apart at most): a meaning no text in force says
    matches nothing, and the phrase counted for nothing ("respond" meant "priority stack", which
    the rules never say together)."""
    from rulebase.core.eras import today
    from rulebase.index.scorer import Clause

    searcher = library.searcher
    current = searcher.in_force(today())
    said = {e.means for e in searcher.parlance.entries if e.kind == "phrase"}
    unsaid = []
    for means in sorted(said):
        toks = tuple(searcher._tokens("text", means))
        if len(toks) > 1 and not any(current(d) for d in searcher.scorer.score([Clause("text", toks, 1.0, slop=1)])):
            unsaid.append(means)
    assert len(said) > 20 and unsaid == []


@pytest.mark.parametrize("query, section", [("HCE", "ipg:2.3@"), ("GRV", "ipg:2.5@"), ("LEC", "ipg:2.2@"),
                                            ("FtMGS", "ipg:2.6@"), ("CPV", "ipg:3.7@")])
def test_judges_shorthand_finds_the_ipg_section_in_force_first(library, query, section):
    results = run_search(library, query, {}, 3)
    assert results.hits[0].id.startswith(section) and results.hits[0].id in results.now
    assert any(query in note for note in results.notes)  # said: "read 'HCE' as 'hidden card error'"


@pytest.mark.parametrize("query, rule", [
    ("can I look at my opponent's graveyard", "cr:404.2@"),  # the rules: "examine the cards in any graveyard"
    ("how much extra time does the match get after a deck check", "mtr:2.6@"),  # Time Extensions
    ("can we ID in the last round", "mtr:2.5@"),  # an intentional draw
])
def test_a_players_words_find_the_text_that_says_it_otherwise(library, query, rule):
    results = run_search(library, query, {}, 3)
    assert any(h.id.startswith(rule) and h.id in results.now for h in results.hits)


def test_a_paper_question_is_not_answered_by_the_digital_documents_first(library):
    """The DMTR has an End-of-Match Procedure of its own; a paper question gets the MTR's."""
    paper = run_search(library, "end of match procedure", {}, 3)
    digital = run_search(library, "end of match procedure on mtg arena", {}, 3)
    assert paper.hits[0].id.startswith("mtr:2.4@")
    assert not any(h.id.startswith(("dipg:", "dmtr:")) for h in paper.hits)
    assert any(h.id.startswith("dmtr:2.5@") for h in digital.hits)


def test_a_version_of_the_file_is_parsed_once_and_an_edit_is_read_at_once(tmp_path, monkeypatch):
    """The parse is kept in the state folder by the file's place, size and times (tomllib and the
    parse cost a cold search 12 ms); any edit is read on the next search, a broken one refused."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = tmp_path / VOCABULARY_FILE
    path.write_text(SMALL, encoding="utf-8")
    assert load_parlance(path).spell_out("HCE")[0] == "hidden card error"
    (kept,) = (tmp_path / "state" / "rulebase" / "vocabulary").glob("*.json")
    import tomllib

    monkeypatch.setattr(tomllib, "loads", lambda _: pytest.fail("parsed again"))
    assert load_parlance(path).spell_out("HCE")[0] == "hidden card error"  # from the kept parse
    monkeypatch.undo()
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path.write_text(SMALL.replace("hidden card error", "hidden card mistake"), encoding="utf-8")
    assert load_parlance(path).spell_out("HCE")[0] == "hidden card mistake"
    path.write_text("[[phrase]\n", encoding="utf-8")
    with pytest.raises(ManifestError, match="not valid TOML"):
        load_parlance(path)
    kept.write_text("{not json", encoding="utf-8")  # a damaged kept parse is parsed anew
    path.write_text(SMALL, encoding="utf-8")
    assert load_parlance(path).spell_out("HCE")[0] == "hidden card error"
