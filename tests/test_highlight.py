"""Snippets: cut around the first matched word, matched words marked, the text read no further."""

from __future__ import annotations

import re

from rulebase.search.highlight import highlight
from rulebase.search.hits import MARK_CLOSE, MARK_OPEN


def test_highlight_reads_the_text_only_as_far_as_the_snippet():
    text = "Before combat. " * 4 + "Damage is dealt; damage is prevented. " + "After. " * 400
    read = []

    def spans(field, value):
        for m in re.finditer(r"\w+", value):
            read.append(m.end())
            yield m.group().lower(), m.start(), m.end()

    snippet = highlight(text, {("text", "damage")}, spans, width=60)
    assert snippet == ("…Before combat. \x02Damage\x03 is dealt; \x02damage\x03 is prevented. After. "
                       "…").replace("\x02", MARK_OPEN).replace("\x03", MARK_CLOSE)
    assert max(read) < 140 < len(text)
