"""Snippets: a stretch of a hit's text around its first matched word, matched words marked.

The index stores no text, so a snippet is cut from the record the library fetches, with the
field's own analyzer telling which words matched; MARK_OPEN and MARK_CLOSE (hits.py) are styled
by the renderer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import chain

from rulebase.search.hits import MARK_CLOSE, MARK_OPEN


def highlight(text: str, matched, spans: Callable[[str, str], Iterator[tuple[str, int, int]]],
              width: int = 220) -> str:
    """A snippet around the first matched word, with matched words wrapped in markers. The text
    is analysed only as far as the snippet reaches: stemming every word of a long passage would
    cost more than the search."""
    wanted = {(f, t.decode() if isinstance(t, bytes) else t) for f, t in matched}
    fields = {f for f, _ in wanted} & {"text", "text_hu", "exact"} or {"text"}
    streams = {field: spans(field, text) for field in sorted(fields)}
    read: dict[str, list[tuple[str, int, int]]] = {field: [] for field in streams}
    firsts = []
    for field, stream in streams.items():
        for token in stream:
            read[field].append(token)
            if (field, token[0]) in wanted:
                firsts.append(token[1])
                break
    first = min(firsts, default=None)
    start = max(0, (first or 0) - width // 3)
    if start:
        start = text.find(" ", start) + 1 or start
    end = min(len(text), start + width)
    space = text.rfind(" ", start + width // 2, end) if end < len(text) else -1
    end = space if space > 0 else end  # cut at a word: 'is assigned as…', not 'assigned a…'
    out = set()
    for field, stream in streams.items():
        for tok, s, e in chain(read[field], stream):
            if s > end:
                break
            if (field, tok) in wanted and s >= start and e <= end:
                out.add((s, e))
    piece, cursor = [], start
    for s, e in sorted(out):
        piece += [text[cursor:s], MARK_OPEN, text[s:e], MARK_CLOSE]
        cursor = e
    piece.append(text[cursor:end])
    return ("…" if start else "") + "".join(piece) + ("…" if end < len(text) else "")
