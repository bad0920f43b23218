"""The one record a reference names, for the commands that take one record: `show` and `diff`.

A record id names itself. A rule number is read as `lookup` reads it: the rule the number means
now (the Comprehensive Rules version in force), else the official text, newest first
(lookup.newest_first, index/versions.by_era). When the number names other records too, a note
says which one was taken and what else is numbered so, so that a user who meant Crystal Keep's
copy knows to give its id.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebase.core.eras import in_force_today
from rulebase.core.records import Record
from rulebase.index.store import RecordStore
from rulebase.index.versions import by_era
from rulebase.rules.lookup import cited_number, newest_first

NAMED_OTHERS = 3  # other records named in the note; the rest are counted


@dataclass(slots=True)
class Named:
    record: Record
    note: str | None = None  # how a rule number was read, when others print it too


def record_named(store: RecordStore, ref: str) -> Named | None:
    """The record `ref` (a record id or a rule number, cited as judges cite it) names, or None."""
    ref = ref.strip()
    record = store.get(ref)
    if record is not None:
        return Named(record)
    if ":" in ref:
        return None
    number = cited_number(ref)
    found = by_era(store, newest_first(store.by_number(number), store.documents()), None)
    if not found:
        return None
    chosen, others = found[0], found[1:]
    if not others:
        return Named(chosen)
    shown = ", ".join(r.id for r in others[:NAMED_OTHERS])
    if len(others) > NAMED_OTHERS:
        shown += f" and {len(others) - NAMED_OTHERS} more"
    return Named(chosen, f"{number} is read as {chosen.id}, {_why(store, chosen)}; also numbered so: {shown} "
                         "(give a record id to choose)")


def _why(store: RecordStore, record: Record) -> str:
    """Why a number's first record was taken: it is the rule in force now, or the official text."""
    if record.span and in_force_today(*store.windows([record.id])[record.id]):
        return "the rule in force now"
    documents = store.documents()
    if record.span or documents.get(record.source, {}).get("format") == "comprules":
        return "the Comprehensive Rules' text"
    return "the newest document's text"
