"""The Rules Enforcement Level a question names (search/register.py), read from the MTR's own
Appendix F; the document that does not apply at that level counts for less."""

from __future__ import annotations

from rulebase.index.tables import programs
from rulebase.search.register import level_named
from rulebase.search.request import run_search

# MTR 2025-11-10 Appendix F as its PDF-converted HTML reads (one line), and 2018's (a row a line)
FLAT = ("The following chart indicates the appropriate (minimum) Rules Enforcement level for various programs:\n\n"
        "Program Rules Enforcement Level\n\nEternal Weekend Competitive Friday Night Magic Regular Game Day Regular "
        "(Competitive recommended) Prerelease Regular Pro Tour Professional Pro Tour Qualifier Competitive "
        "Spotlight Series – Day 1 Competitive")
ROWS = ("The following chart indicates the appropriate Rules Enforcement level for various programs:\n\nProgram\n\n"
        "Rules Enforcement Level\n\nFriday Night Magic\n\nRegular\n\nGrand Prix Day 2*\n\nProfessional\n\n"
        "Grand Prix Trial\n\nRegular*\n")


def test_the_chart_is_read_in_either_layout():
    assert programs(FLAT) == {"eternal weekend": "Competitive", "friday night magic": "Regular",
                              "game day": "Regular", "prerelease": "Regular", "pro tour": "Professional",
                              "pro tour qualifier": "Competitive", "spotlight series day 1": "Competitive"}
    assert programs(ROWS) == {"friday night magic": "Regular", "grand prix day 2": "Professional",
                              "grand prix trial": "Regular"}


def test_a_question_names_its_level_by_name_or_by_its_event():
    table = programs(FLAT)
    assert level_named("regular REL forgot to draw", table) == "Regular"
    assert level_named("at a Prerelease I saw the top card of my library", table) == "Regular"
    assert level_named("at FRIDAY NIGHT MAGIC my opponent forgot a trigger", table) == "Regular"
    assert level_named("at a Pro Tour Qualifier I drew an extra card", table) == "Competitive"  # the longer name
    assert level_named("DDLP at Reg REL: GL or just fix the deck?", table) == "Regular"  # judges' shorthand
    assert level_named("comp REL, drew 8 for the opener", table) == "Competitive"
    assert level_named("Pro. REL", table) == "Professional"
    assert level_named("a pro deck at rel", table) is None  # ("pro" names a level only right before "REL")
    assert level_named("the stack", table) is None
    assert level_named("a prerelease, then a competitive REL event", table) is None  # two levels: neither


def test_the_real_mtr_gives_the_programs_of_today(library):
    table = library.programs
    assert table["friday night magic"] == "Regular"
    assert table["prerelease"] == "Regular"
    assert {"Regular", "Competitive", "Professional"} == set(table.values())


def test_the_document_that_does_not_apply_at_the_level_counts_half_and_is_set_apart(library):
    """The IPG applies at Competitive and Professional REL; at a prerelease the JAR does. The
    words that named the level leave the question; the vocabulary's "FNM" names one too."""
    from rulebase.search.request import _at_level

    scorer = library.searcher.scorer
    ipg, jar = scorer.docs("source", ["ipg", "dipg"]), scorer.docs("source", ["jar"])
    query, regular, apart, leads = _at_level(library, "at a prerelease I drew an extra card", {})
    assert set(regular) == ipg == apart and set(regular.values()) == {0.5}
    assert leads(library.store.titled("jar", ["serious problems"])[-1])
    assert query == "at a I drew an extra card"
    query, competitive, apart, leads = _at_level(library, "at a Pro Tour Qualifier I drew an extra card", {7: 2.0})
    assert set(competitive) == jar | {7} and competitive[7] == 2.0 * (0.5 if 7 in jar else 1.0) and apart == jar
    assert not leads(library.store.titled("ipg", ["hidden card error"])[-1])
    # (the MTR and the IPG both apply there: neither leads)
    assert _at_level(library, "I drew an extra card", {7: 2.0}) == ("I drew an extra card", {7: 2.0}, set(), None)
    assert _at_level(library, "drew too many cards at FNM", {})[2] == ipg
    assert _at_level(library, "what REL is FNM", {})[0] == "what REL is FNM"  # (nothing else to ask)
    table = library.store.titled("mtr", ["rules enforcement levels of programs"])[-1]
    assert _at_level(library, "what REL is FNM", {})[3](table)  # (the level is the question: its table leads)


def test_a_question_naming_regular_rel_lists_the_jar_before_the_ipg(library):
    results = run_search(library, "at a prerelease my opponent forgot a trigger", {}, 3)
    assert results.hits[0].id.startswith("jar:")
    assert not any(h.id.startswith("ipg:") for h in results.hits)


def test_a_question_naming_regular_rel_leads_with_the_jar_before_the_mtr(library):
    """The MTR applies at every level; the JAR is written for Regular REL, where a judge reads it
    first: its best answer leads, the MTR's after it."""
    results = run_search(library, "my opponent insulted me during our match at a prerelease", {}, 3)
    assert results.hits[0].id.startswith("jar:") and any(h.id.startswith("mtr:") for h in results.hits)
    plain = run_search(library, "my opponent insulted me during our match", {}, 3)
    assert not plain.hits[0].id.startswith("jar:")  # (no level named: no document leads)


def test_a_source_filter_reads_no_level(library, monkeypatch):
    """`--source ipg` asks for the IPG: the level a question names does not count it down."""
    import rulebase.search.request as request

    read = []
    monkeypatch.setattr(request, "_at_level", lambda *args: read.append(args) or (args[1], args[2], set(), None))
    hits = run_search(library, "at a prerelease I drew an extra card", {"source": ["ipg"]}, 3).hits
    assert hits and all(h.id.startswith("ipg:") for h in hits) and read == []
    run_search(library, "at a prerelease I drew an extra card", {}, 3)
    assert len(read) == 1


def test_a_named_level_lists_the_documents_that_apply_there_first(library):
    """The game's rules are the same at every level: a question naming one asks how a tournament
    handles it, so the tournament documents that apply there lead, the rules in force after them."""
    hits = run_search(library, "player drew an extra card at competitive REL", {}, 5).hits
    assert hits[0].id.startswith("ipg:2.3@")  # today's Hidden Card Error, not Looking at Extra Cards
    hits = run_search(library, "DDLP at Reg REL: GL or just fix the deck?", {}, 5).hits
    assert hits[0].id.startswith("jar:")
    hits = run_search(library, "at an RCQ my opponent attacked with a summoning sick creature", {}, 5).hits
    assert hits[0].id.startswith("ipg:2.5@")  # Game Rule Violation, and beside it the rule it broke:
    assert any(h.id.startswith("cr:302.6@") for h in hits[:3])  # (the question's term, search/ranking.cover)
