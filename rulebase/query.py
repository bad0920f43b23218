"""A search request end to end: rule numbers first, then ranked full text."""

from __future__ import annotations

import re

from rulebase.errors import UsageError
from rulebase.hits import Hit, Results

NUMBER_IN_QUERY = re.compile(
    r"(?<![\w.])(?:\d{3}\.\d+[a-z]?(?:\.Ruling\.\d+)?|\d{3}\.Ruling\.\d+|G\d+\.\d+[a-z]?|[A-Z]\.\d+(?:\.\d+)?)(?![\w.])")
MAX_QUERY = 2000


def run_search(library, query: str, filters: dict[str, list[str]], limit: int = 10,
               when: int | None = None) -> Results:
    """Numbers in the query ('what does 306.5 say') go straight to that rule, ahead of text hits
    (one version per rule: the one in force on `when`, else the newest)."""
    if not query.strip():
        raise UsageError("empty query", hint='give some words, e.g. rulebase search "damage prevention"')
    query, note = shorten(query)
    numbered: list[Hit] = []
    for number in dict.fromkeys(NUMBER_IN_QUERY.findall(query)):
        found = library.store.by_number(number)
        if any(r.span for r in found) or when is not None:
            from rulebase.lookup import by_era

            found = by_era(library.store, found, when)
        for record in found:
            if all(not values or getattr(record, name) in values for name, values in filters.items()):
                numbered.append(Hit(record.id, 0.0, record.text[:200], exact_number=True))
    store = library.store
    pick = None
    editions = set(filters.get("edition") or ())
    if when is not None or editions:
        from rulebase.eras import labels_between
        from rulebase.history import in_force
        from rulebase.records import fold_typography

        def fits(records: list) -> list:
            records = [r for r in records if r.span]  # archive versions (a lineage may hold twins)
            if when is not None:
                records = in_force(store, records, when)
            return [r for r in records if not editions or editions & set(labels_between(*r.span))]

        def pick(ids: list[str]) -> dict[str, str]:
            """For a hit that stands for several versions (indexer.documents_of), the newest one in
            force on `when` and in the editions asked for: the one whose text is shown; "" when
            none is (a heading matched in that era, shown as its first rule of a later one)."""
            out = {}
            for record in store.get_many(ids):
                if record.span and record.lineage and not fits([record]):
                    same = fold_typography(record.text)
                    chosen = [r for r in fits(store.lineage(record.lineage)) if fold_typography(r.text) == same]
                    # none: a heading's lead child from another era ("" drops the hit)
                    out[record.id] = chosen[-1].id if chosen else ""
            return out
    results = library.searcher.search(query, filters, limit, numbered,
                                      texts=lambda ids: {r.id: r for r in store.get_many(ids)}, when=when, pick=pick)
    if note:
        results.notes.append(note)
    return results


_TOKEN = re.compile(r'"[^"]*"?|\S+')


def shorten(query: str) -> tuple[str, str | None]:
    """A query of at most MAX_QUERY characters, and what was left out (None: nothing).

    A pasted page repeats its words: each word (and quoted phrase) is kept once, in order, and
    only when those still run past the limit are the last ones dropped, whole, with a note. A
    query cut at a fixed length lost the words after the limit, and with them its answer."""
    if len(query) <= MAX_QUERY:
        return query, None
    tokens: dict[str, str] = {}
    for token in _TOKEN.findall(query):
        tokens.setdefault(token.casefold(), token)  # each word once, first spelling, in order
    kept: list[str] = []
    size = -1
    for token in tokens.values():
        if size + 1 + len(token) > MAX_QUERY:
            if not kept:  # one giant token (an unclosed quote): its first words
                head = token[:MAX_QUERY]
                kept.append(head.rsplit(" ", 1)[0] if " " in head else head)
            break
        kept.append(token)
        size += 1 + len(token)
    searched = " ".join(kept)
    if len(kept) == len(tokens) and kept[-1] in tokens.values():
        return searched, None
    last = searched.split()[-1] if searched.split() else ""
    return searched, (f"the query is {len(query):,} characters: searched its words once each up to {last[:40]!r} "
                      f"({len(searched):,} characters, the most a query takes); the words after it were left out")
