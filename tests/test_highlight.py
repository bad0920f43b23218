"""Snippets: cut around the first matched word, matched words marked, the text read no further."""

from __future__ import annotations

import re

from rulebase.search.hits import MARK_CLOSE, MARK_OPEN, clip, unmark
from rulebase.search.listing import highlight


def test_highlight_reads_the_text_only_as_far_as_the_snippet():
    text = "Before combat. " * 4 + "Damage is dealt; damage is prevented. " + "After. " * 400
    read = []

    def spans(field, value):
        for m in re.finditer(r"\w+", value):
            read.append(m.end())
            yield m.group().lower(), m.start(), m.end()

    snippet = highlight(text, {("text", "damage")}, spans, width=60)
    assert snippet == ("…Before combat. \x02Damage\x03 is dealt; \x02damage\x03 is prevented. After."
                       "…").replace("\x02", MARK_OPEN).replace("\x03", MARK_CLOSE)
    assert max(read) < 140 < len(text)


def test_a_snippet_is_cut_at_a_word():
    """Exact-number hits were the text's first 200 characters ('... any excess damage is
    assigned as'), with no mark of the cut."""
    text = "The controller of an attacking creature with trample first assigns damage to the creatures"
    assert clip(text, 40) == "The controller of an attacking creature…"
    assert clip(text, len(text)) == text
    assert clip("x" * 50, 20) == "x" * 20 + "…"  # one long word: cut where it must be
    snippet = highlight(text, {("text", "trample")}, lambda f, v: ((m.group().lower(), m.start(), m.end())
                                                                  for m in re.finditer(r"\w+", v)), width=50)
    assert unmark(snippet) == "…creature with trample first assigns damage to the…"  # not '…to the cr'
