"""Patterns compiled on first use, and tried only where their words are (rulebase/core/pattern.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulebase.core.pattern import LazyPattern, lazy
from rulebase.search import question

ROOT = Path(__file__).resolve().parent.parent
NEEDING = sorted(name for name, value in vars(question).items() if isinstance(value, LazyPattern) and value.needs)
# what the patterns' own comments give as what they find
EXAMPLES = ["4th edition", "fourth edition", "the 5e rules", "alpha", "Unlimited rules", "before the 2009 rules",
            "in 2005", "back in 2012", "is that still true?", "does it still work that way nowadays",
            "the old rules", "it used to work", "what changed", "no longer exists", "originally ruled",
            "how did mana burn change", "before they changed it", "historically", "obsolete"]


def _texts():
    """Real questions (every evaluation set's), the rules' own sentences (the 2008 release) and
    the examples."""
    for path in sorted((ROOT / "tests" / "eval").glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            yield from line.split("\t")
    yield from (ROOT / "corpus" / "comprules-2008-10-01.txt").read_text(encoding="utf-8", errors="replace").splitlines()
    yield from EXAMPLES


def test_the_question_reader_names_words_for_its_era_patterns():
    assert NEEDING == ["_ALPHA", "_BEFORE", "_EDITION", "_IN_YEAR", "_NOW", "_OLD"]


@pytest.mark.parametrize("name", NEEDING)
def test_every_text_a_pattern_matches_holds_a_word_it_needs(name):
    pattern = getattr(question, name)
    compiled = re.compile(pattern.source, pattern.flags)
    matched = [text for text in _texts() if compiled.search(text)]
    assert matched, "the texts try the pattern"
    assert [text for text in matched if not pattern.may_match(text)] == []
    assert all(pattern.search(text) for text in matched)


def test_a_text_without_the_words_is_not_searched_and_the_pattern_not_compiled():
    pattern = lazy(r"\bobsolete\b", re.IGNORECASE, needs=("obsolete",))
    assert pattern.search("damage prevention") is None and pattern._compiled is None
    assert pattern.search("an Obsolete term").group() == "Obsolete"


def test_a_pattern_without_needs_is_compiled_on_first_use():
    pattern = lazy(r"\d+")
    assert pattern._compiled is None
    assert pattern.search("rule 702") and pattern._compiled is not None
