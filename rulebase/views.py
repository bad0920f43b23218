"""The documented --json shapes, built from core results (no rich, no Whoosh)."""

from __future__ import annotations

from rulebase.hits import Results, unmark
from rulebase.lookup import Definitions, Entry, Lookup
from rulebase.records import Record, to_dict

HIT_FIELDS = ("id", "source", "edition", "lang", "kind", "number", "title", "text", "pages")


def brief(record: Record) -> dict:
    return {"id": record.id, "source": record.source, "edition": record.edition, "kind": record.kind,
            "number": record.number, "title": record.title, "pages": record.pages}


def entry_json(entry: Entry) -> dict:
    """Record fields plus children (full records), refs_out and refs_in."""
    data = to_dict(entry.record)
    titles = {r.id: r for r in entry.refs_out}
    data["children"] = [to_dict(c) for c in entry.children]
    data["refs_out"] = [
        {"label": ref.label, "kind": ref.kind, "key": ref.key, "target": ref.target, "reason": ref.reason,
         "target_record": brief(titles[ref.target]) if ref.target in titles else None}
        for ref in entry.record.refs
    ]
    data["refs_in"] = [brief(r) for r in entry.refs_in]
    data["same_rule"] = [brief(r) for r in entry.same]
    return data


def lookup_json(result: Lookup) -> dict:
    """The first match in full; other documents' matches under 'also' (same shape)."""
    first, *rest = result.entries
    data = entry_json(first)
    data["ref"] = result.ref
    data["match"] = result.kind
    data["also"] = [entry_json(e) for e in rest]
    data["diff_hint"] = result.diff_hint
    return data


def search_json(results: Results, records: dict[str, Record]) -> dict:
    hits = []
    for hit in results.hits:
        record = records[hit.id]
        row = {name: getattr(record, name) for name in HIT_FIELDS}
        row["score"] = hit.score
        row["snippet"] = unmark(hit.snippet)
        row["exact_number"] = hit.exact_number
        hits.append(row)
    return {"query": results.query, "total": results.total, "hits": hits, "suggestion": results.suggestion}


def define_json(found: Definitions) -> dict:
    return {
        "term": found.term,
        "definitions": [to_dict(r) for r in found.definitions],
        "hungarian": [{"id": t.id, "term": t.title, "english": t.aliases} for t in found.hungarian],
        "referenced_by": [brief(r) for r in found.referrers],
    }
