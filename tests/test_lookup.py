"""'Did you mean' for rule numbers: slips inside a number, and numbers that run past a real one."""

from __future__ import annotations

import pytest

from rulebase.rules.lookup import cited_number, lookup, slips, suggest


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("502.83a", "502.83a", 0),
    ("520.83a", "502.83a", 1),   # two neighbours swapped
    ("5028.3a", "502.83a", 1),
    ("502.8a", "502.83a", 1),    # a character missing
    ("502.833a", "502.83a", 1),  # one too many
    ("502.84a", "502.83a", 1),   # a wrong one
    ("a.42.3", "a.24.3", 1),
    ("205.38a", "502.83a", 3),   # two wrong, one swap
    ("", "abc", 3),
])
def test_slips_count_typing_mistakes(a, b, expected):
    assert slips(a, b) == expected == slips(b, a)


@pytest.mark.parametrize(("ref", "expected"), [
    ("502.83z", ["502.83", "502.83a", "502.83b", "502.83.Ruling.1", "502.83.Ruling.2"]),
    # numbers from every release: 120.3a and 208.3a are rules of later releases
    ("520.83a", ["502.83a", "120.3a", "208.3a", "500.3a", "502.3a"]),
    ("5028.3a", ["502.3a", "502.83a", "508.3a", "102.3a", "108.3a"]),
    ("G5.91a", ["G5.19a", "G5.21a", "G5.19", "G5.21", "G5.21b"]),
    ("trampel", ["trample"]),  # not "rampage, transmute, team play, triple"
    ("flurble", []),  # not "double"
])
def test_suggestions_on_the_real_corpus(library, ref, expected):
    assert suggest(library.store, ref) == expected


@pytest.mark.parametrize("ref", ["702.19b", "702.19b.", "rule 702.19b", "Rule 702.19b", "CR 702.19b", "cr702.19b",
                                 "Comprehensive Rules 702.19b", "§702.19b", "§ 702.19b", "702.19 b", "702.19B"])
def test_a_rule_is_found_however_a_judge_cites_it(library, ref):
    """"CR 702.19b" and "§702.19b" said no rule matched; "702.19 b" offered near numbers."""
    assert cited_number(ref).lower() == "702.19b"
    assert lookup(library.store, ref).entries[0].record.id.startswith("cr:702.19b@")


@pytest.mark.parametrize("ref", ["crater", "rules of thumb", "cr:702.19b", "702.19 bb"])
def test_words_and_ids_are_not_read_as_cited_numbers(ref):
    assert cited_number(ref) == ref


@pytest.mark.parametrize(("word", "expected"), [
    ("flurble", []),  # three slips from "double": nothing
    ("trampel", ["trample"]),  # two neighbours swapped
    ("mana burm", ["mana burn"]),
    ("tramp", ["trap", "trample", "trample over planeswalkers"]),  # one slip, then the names it begins
    ("ta", []),  # two letters: exact only
    ("tap", ["tap", "trap"]),
])
def test_close_names_are_what_the_user_may_have_meant(word, expected):
    from rulebase.core.likeness import close_names

    names = ["Trample", "Double", "Rampage", "Transmute", "Triple", "Mana Burn", "Mana Source", "Tap", "Trap",
             "Trample Over Planeswalkers", "Team"]
    assert close_names(word, names) == expected
