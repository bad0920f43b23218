"""The documented --json shapes, built from core results (no rich, no Whoosh)."""

from __future__ import annotations

import json
import re

from rulebase.core.records import brief, to_dict
from rulebase.rules.definitions import Definitions
from rulebase.rules.lookup import LEFT_OUT, Entry, Lookup
from rulebase.search.hits import Results, unmark

# What json.dumps(ensure_ascii=False) leaves raw that a terminal would act on: DEL, C1 and the bidi
# controls (it escapes C0 itself). They occur only inside strings, so \u escapes keep the JSON exact.
_RAW = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def dumps(data) -> str:
    """The --json text both output paths print: UTF-8 kept readable, every control character escaped."""
    return escape_raw(json.dumps(data, ensure_ascii=False, indent=2))


def escape_raw(text: str) -> str:
    """JSON text with every control and bidi character (U+202E) written as a \\uXXXX escape: the
    same data, safe on a terminal."""
    return _RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if _RAW.search(text) else text


HIT_FIELDS = ("id", "source", "edition", "lang", "kind", "number", "title", "text", "pages")


def entry_json(entry: Entry) -> dict:
    """Record fields plus children (full records), refs_out and refs_in."""
    data = to_dict(entry.record)
    titles = {r.id: r for r in entry.refs_out}
    data["children"] = [to_dict(c) for c in entry.children]
    data["refs_out"] = [
        {"label": ref.label, "kind": ref.kind, "key": ref.key, "target": ref.target, "reason": ref.reason,
         "target_record": brief(titles[ref.target]) if ref.target in titles else None}
        for ref in entry.cited()
    ]
    data["refs_in"] = [brief(r) for r in entry.refs_in]
    data["same_rule"] = [brief(r) for r in entry.same]
    return data


def _shown(entry: Entry, data: dict) -> dict:
    """`data` (entry_json) plus what a compact lookup decided about the entry (see lookup_json)."""
    data["truncated"] = {key: entry.left_out.get(key, 0) for key in LEFT_OUT}
    data["era"] = entry.era
    # the days an archive version is in force (an era: the whole period its rule held the number)
    data["in_force"] = _days(entry.days)
    data["outline"] = entry.outline
    data["twins"] = [brief(r) for r in entry.twins]
    data["copies"] = dict(entry.copies)
    data["now"] = dict(brief(entry.now), same_text=entry.now_same) if entry.now else None
    if entry.upcoming is not None:  # (only then: a release dated after today)
        data["upcoming"] = dict(brief(entry.upcoming), first=entry.upcoming.span[0])
    data["cards"] = {"count": entry.cards[0], "examples": entry.cards[1]} if entry.cards else None
    return data


def _days(days: tuple[int, int] | None) -> dict | None:
    """{"first", "last"} ("now": open-ended), and "upcoming": true for days that have not begun."""
    from rulebase.core.eras import show, upcoming

    if not days:
        return None
    return {"first": show(days[0]), "last": show(days[1]), **({"upcoming": True} if upcoming(days[0]) else {})}


def lookup_json(result: Lookup) -> dict:
    """The first match; other documents' matches and other eras under 'also' (same shape).

    Each entry has the record's fields and "children" (full records), "refs_out", "refs_in" and
    "same_rule", as `show --json`; by default they hold what the compact lookup shows (see
    lookup.compact), with --full everything. Added per entry (also in each 'also' item):

      "truncated": {"children", "refs_out", "refs_in", "same_rule", "twins"}: how many were left
          out: records of the children, references out and in, same-rule links, and whole
          entries of other documents with the identical text (folded in, named under "twins");
          all 0 with --full
      "era": true for another era of the number, shown as one line (its lists left out)
      "outline": true when the children are listed one line each (number and first words)
      "twins": brief records elsewhere with the identical text (named once, not repeated)
      "copies": {child id: id of the identical text shown above it} (a child not repeated)
      "now": the brief record of the rule's version in force today, plus "same_text", when it
          is another record that the lookup does not show; else null
      "cards": {"count", "examples"}: how many cards' text uses the rule and a few of their
          names (the cards using fewest rules first); null when none does

    and at the top: "full" (the --full flag) and "full_hint", the line saying what --full would
    add (null when nothing was shortened). Page matches ("match": "page") are always complete."""
    first, *rest = result.entries
    data = entry_json(first)
    data["ref"] = result.ref
    data["match"] = result.kind
    data["also"] = [_shown(e, entry_json(e)) for e in rest]
    data["diff_hint"] = result.diff_hint
    _shown(first, data)
    data["full"] = result.full
    data["full_hint"] = result.full_hint()
    return data


def search_json(results: Results) -> dict:
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.eras import show

    hits = []
    for hit in results.hits:
        record = results.records[hit.id]
        row = {name: getattr(record, name) for name in HIT_FIELDS}
        row["score"] = hit.score
        row["snippet"] = unmark(hit.snippet)
        row["exact_number"] = hit.exact_number
        row["also"] = list(hit.also)  # records printing the same text, listed once under this hit
        row["in_force_now"] = hit.id in results.now
        was = results.formerly.get(hit.id)
        row["formerly"] = {"number": was[0], "until": show(was[1])} if was else None
        hits.append(row)
    data = {"query": results.query, "total": results.total, "hits": hits, "suggestion": results.suggestion}
    if results.rulings:  # a card's official rulings beside the rules: hits of their own
        data["rulings"] = [{**{name: getattr(results.records[hit.id], name) for name in HIT_FIELDS},
                            "parent": results.records[hit.id].parent, "also_on": results.records[hit.id].refs_in,
                            "score": hit.score,
                            "snippet": unmark(hit.snippet)} for hit in results.rulings]
    if results.cards:
        # lazy: only a question naming cards needs them
        from rulebase.cli.views.card import card_json
        from rulebase.rules.cards import as_linked

        data["cards"] = [card_json(as_linked(record)) for record in results.cards]
    return data


def define_json(found: Definitions) -> dict:
    """Each definition is a record with, added: "era", "in_force" {"first", "last"},
    "in_force_now" (in force on the day asked: today, or --as-of), "cited" (a rule the glossary
    entry before it cites), "versions" (the archive versions its text stands for) and
    "same_text" (other documents' records printing it); in force first, then newest to oldest."""
    return {
        "term": found.term,
        "definitions": [dict(to_dict(e.record), era=e.era, in_force=_days((e.first, e.last)), in_force_now=e.now,
                             cited=e.cited, versions=e.versions, same_text=e.same_text) for e in found.entries],
        "hungarian": [{"id": t.id, "term": t.title, "english": t.aliases} for t in found.hungarian],
        "referenced_by": [brief(r) for r in found.referrers],
    }


def history_json(found) -> dict:
    """`history --json`: {"ref", "lineages": [{"key", "current", "steps": [{"id", "number", "from",
    "to", "change", "previous_number", "text", "diff"}], "linked": [ids]}]}."""
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import diff_text
    from rulebase.core.eras import show, upcoming

    return {"ref": found.ref, "lineages": [
        {"key": lin.key, "current": lin.current,
         "steps": [{"id": s.record.id, "number": s.record.number, "from": show(s.first), "to": show(s.last),
                    **({"upcoming": True} if upcoming(s.first) else {}), "change": s.change, "previous_number": s.previous_number, "text": s.record.text,
                    "diff": diff_text(s.diff) if s.diff else None} for s in lin.steps],
         "linked": [r.id for r in lin.linked]} for lin in found.lineages]}


def changes_between_json(found, sentences: bool = False) -> dict:
    """`changes --from --to --json`: {"source", "from", "to", "counts", "changes": [{"kind",
    "old", "new", "old_number", "new_number", "diff"}]}; for a tournament document (`sentences`)
    each change also has "title" and "sentences": [{"kind": "changed"|"added"|"removed", "old",
    "new", "before"}] (the sentences that differ; "before" the one before it), null for a section
    added or removed whole."""
    # lazy: only the output form asked for
    from rulebase.cli.views.plain_changes import diff_text, sentences_json
    from rulebase.rules.history import KINDS as kinds
    return {"source": found.source, "from": found.old_release["date"], "to": found.new_release["date"],
            "counts": {k: found.count(k) for k in kinds},
            "changes": [{"kind": c.kind, "old": c.old.id if c.old else None, "new": c.new.id if c.new else None,
                         "old_number": c.old.number if c.old else None,
                         "new_number": c.new.number if c.new else None,
                         "diff": diff_text(c.diff) if c.diff else None,
                         **({"title": (c.new or c.old).title, "sentences": sentences_json(c)} if sentences else {})}
                        for c in found.changes]}
