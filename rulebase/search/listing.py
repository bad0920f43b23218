"""The result list: ranked (id, score, terms) triples filled into hits, one per text.

A rule's versions across releases, and identical copies of it in other documents (a 2008 ruling
quoting the rules, a twin rule), are one hit: the first listed, named by the copy in the newest
release, with the others in its `also`. Kept apart from the Searcher because it reads records,
not the index: the library's `texts` fetches them, and snippets are cut from their text
(listing.py) with the index's analyzers (`spans`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import chain

from rulebase.core.records import Record
from rulebase.search.hits import MARK_CLOSE, MARK_OPEN, Hit, Results, same_text_key

FILL_BATCH = 20  # records read at a time while filling the result list


def fill(results: Results, numbered: list[Hit], found: list[tuple], limit: int,
         texts: Callable[[list[str]], dict[str, Record]] | None,
         pick: Callable[[list[str]], dict[str, str]] | None,
         spans: Callable[[str, str], Iterator[tuple[str, int, int]]], count_all: bool = False) -> int:
    """Hits in order, up to `limit`: a text already shown (the same rule in another document,
    or a twin rule) becomes one more id in that hit's `also`, and the hit is named by the copy in
    the newest release (the rules in force now, over a 2008 ruling that quotes them). Read in
    fixed batches, so what a hit lists does not depend on `limit` within a batch. With
    `count_all`, reads on to the end of `found` and returns how many distinct hits it holds (an
    exact total)."""
    seen: set[str] = set()
    by_text: dict[str, Hit] = {}
    fetched: dict[str, Record] = {}

    def fetch(ids: list[str]) -> dict[str, Record]:
        found = texts(ids) if texts else {}
        fetched.update(found)
        return found
    distinct = 0

    newest: dict[str, tuple[int, str]] = {}  # text -> (batch, latest release of the hit's record)

    def place(hit: Hit, record: Record | None, batch: int = -1) -> bool:
        nonlocal distinct
        key = same_text_key(record) if record else hit.id
        last = record.span[1] if record and record.span else ""
        if key in by_text:
            held = by_text[key]
            # the rules in force now name it; only a twin read in the same batch, so that
            # no --limit shows another name
            if (batch, last) > newest[key] and batch == newest[key][0] and not held.exact_number:
                held.also.append(held.id)
                held.id, newest[key] = hit.id, (batch, last)
            else:
                held.also.append(hit.id)
            return False
        by_text[key], newest[key] = hit, (batch, last)
        distinct += 1
        if len(results.hits) < limit:
            results.hits.append(hit)
        return True

    records = fetch([h.id for h in numbered])
    for hit in numbered:
        if hit.id not in seen:
            seen.add(hit.id)
            place(hit, records.get(hit.id))
    for start in range(0, len(found), FILL_BATCH):
        if len(results.hits) >= limit and not count_all:
            break
        batch = found[start:start + FILL_BATCH]
        chosen = pick([f[0] for f in batch]) if pick else {}
        batch = [(chosen.get(rid, rid), score, terms) for rid, score, terms in batch]
        records = fetch([f[0] for f in batch])
        for rid, score, terms in batch:
            if rid in seen or not rid:
                continue
            seen.add(rid)
            record = records.get(rid)
            hit = Hit(rid, round(score, 4), "")
            if place(hit, record, start) and record and results.hits and results.hits[-1] is hit:
                hit.snippet = highlight(record.text, terms, spans)
    results.records = {h.id: fetched[h.id] for h in results.hits if h.id in fetched}
    return distinct


# --- Snippets: a stretch of a hit's text around its first matched word, matched words marked.
#
#
# The index stores no text, so a snippet is cut from the record the library fetches, with the
# field's own analyzer telling which words matched; MARK_OPEN and MARK_CLOSE (hits.py) are styled
# by the renderer.
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
