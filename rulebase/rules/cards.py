"""Cards by name, and the rules each uses on a given day.

A card is found as a player names it: its exact name in any case, without accents or punctuation
("urzas saga", "aether vial"), a face's name ("Insectile Aberration", "Petty Theft"), the part of
a legendary name before its comma when that names one card ("Thalia" lists every Thalia when
there are several), by a printing's name in another language ("Zorn Gottes"), inside a card
fetcher's brackets ("[[Blood Moon]]"). One card found is read with its rulings. Its links carry the
lineage of each rule, so on another day (--as-of) each shows the number the rule had then.
"""

from __future__ import annotations

import re

from rulebase.core.errors import NotFound, UsageError
from rulebase.core.likeness import holding_words
from rulebase.core.pattern import lazy
from rulebase.core.records import Record
from rulebase.core.value import Value
from rulebase.index.store import RecordStore

BRACKETS = lazy(r"^\s*\[\[(.*)\]\]\s*$")
MAX_NAME = 200  # longer than any card's name ("Our Market Research Shows..." is 141 characters)
SUGGESTIONS = 5
HOLDING = 40  # the cards whose names hold the words typed: all of them, up to this many (31 hold 'bolt')


class CardRule(Value):
    """One rule a card uses, as it stood on the day asked: `rule` and `id` that day's number and
    version (None when the rule did not exist then), `now` today's number."""

    __slots__ = ("rule", "id", "title", "lineage", "reason", "now")

    def __init__(self, rule: str | None, id: str | None, title: str, lineage: str | None, reason: str, now: str):
        self.rule = rule
        self.id = id
        self.title = title
        self.lineage = lineage
        self.reason = reason
        self.now = now


class Card(Value):
    __slots__ = ("record", "rules", "day", "rulings")

    def __init__(self, record: Record, rules: list[CardRule] | None = None, day: int | None = None,
                 rulings: list[dict] | None = None):
        self.record = record
        self.rules = [] if rules is None else rules
        self.day = day
        self.rulings = [] if rulings is None else rulings  # {date, text, id}, oldest first (read from the store)

    @property
    def name(self) -> str:
        return self.record.title or ""


class Found(Value):
    """What a name found: one card, or every card a short name names (`several`)."""

    __slots__ = ("query", "cards", "how")

    def __init__(self, query: str, cards: list[Card], how: str):
        self.query = query
        self.cards = cards
        self.how = how  # name, face, short

    @property
    def several(self) -> bool:
        return len(self.cards) > 1


def find(store: RecordStore, text: str, when: int | None = None) -> Found:
    """The card or cards `text` names; NotFound with the nearest names when none does."""
    query = strip_brackets(text)
    if not query.strip():
        raise UsageError("give a card's name", hint='e.g. rulebase card "Blood Moon"')
    if len(query) > MAX_NAME:
        raise NotFound(f"no card named {query[:40]!r}... (a name of {len(query)} characters)")
    # lazy: a lookup, which imports this module, never folds a name
    from rulebase.core.cardnames import fold_name

    key = fold_name(query)
    matches = store.card_named(key) if key else []
    if not matches:
        raise NotFound(f"no card named {query!r}", suggest(store, key),
                       hint=None if suggest(store, key) else "search the cards' text: rulebase search --kind card WORDS")
    how = matches[0][1]
    ids = [card_id for card_id, kind in matches if kind == how]
    records = store.get_many(ids)
    cards = [with_rules(store, record, when) for record in records]
    if len(cards) == 1:
        cards[0].rulings = rulings_of(store, cards[0].record)
    return Found(query, cards, how)


def rulings_of(store: RecordStore, record: Record) -> list[dict]:
    """A card's rulings, each with its date on this card and its text (a record several cards may
    share: ingest/cards/oracle.rulings)."""
    held = (record.card or {}).get("rulings", [])
    found = {r.id: r for r in store.get_many([ruling["id"] for ruling in held])}
    return [{"date": ruling["date"], "text": found[ruling["id"]].text, "id": ruling["id"]} for ruling in held
            if ruling["id"] in found]


def strip_brackets(text: str) -> str:
    """'[[Blood Moon]]' -> 'Blood Moon', as Reddit's and the forums' card fetchers write names."""
    match = BRACKETS.match(text)
    return match.group(1) if match else text


def suggest(store: RecordStore, key: str) -> list[str]:
    """The card names a folded name that named none may mean, as they are printed: the cards
    whose names hold its words ('bolt': Lightning Bolt, 'ancestral': Ancestral Recall), then the
    names nearest it in spelling."""
    if not key:
        return []
    from difflib import get_close_matches  # lazy: only a card not found is spelled near

    keys = store.card_keys()
    holding = holding_words(key, keys, HOLDING)
    close = holding + [k for k in get_close_matches(key, keys, n=SUGGESTIONS, cutoff=0.75) if k not in holding]
    names = []
    for near in close:
        for card_id, _ in store.card_named(near)[:1]:
            record = store.get(card_id)
            if record and record.title not in names:
                names.append(record.title)
    return names


def with_rules(store: RecordStore, record: Record, when: int | None = None) -> Card:
    """The card with its links read on `when` (today when None): each rule's number that day."""
    rules = []
    for link in (record.card or {}).get("links", []):
        rule, version_id, title = link["rule"], link["id"], link["title"]
        if when is not None and link.get("lineage"):
            source = version_id.split(":", 1)[0]  # the archive's own versions, not a copy's
            versions = [v for v in store.lineage(link["lineage"], when) if v.source == source]
            version = versions[0] if versions else None
            rule = version.number if version else None
            version_id = version.id if version else None
        rules.append(CardRule(rule, version_id, title, link.get("lineage"), link["reason"], link["rule"]))
    return Card(record, rules, when)


def as_linked(record: Record) -> Card:
    """The card with its links as the build found them (today's numbers), no store needed."""
    return Card(record, [CardRule(link["rule"], link["id"], link["title"], link.get("lineage"), link["reason"],
                                  link["rule"]) for link in (record.card or {}).get("links", [])])


def used_by(store: RecordStore, record: Record, examples: int = 3) -> tuple[int, list[str]]:
    """How many cards use a rule (this version's lineage, or the rule it is a subrule of: a card
    with trample uses 702.19b too), and the names of a few."""
    lineages = [record.lineage] if record.lineage else []
    parent = re.match(r"^(\d{3}\.\d+)[a-z]$", record.number or "")
    if parent and record.lineage:
        first, last = store.windows([record.id]).get(record.id, (0, 0))
        candidates = [r for r in store.by_number(parent.group(1)) if r.lineage and r.source == record.source]
        spans = store.windows([r.id for r in candidates])
        lineages += [r.lineage for r in candidates if spans[r.id][0] <= last and spans[r.id][1] >= first]
    count, ids = store.cards_using(list(dict.fromkeys(lineages)), examples)
    return count, [r.title or "" for r in store.get_many(ids)]


def used_by_phrase(count: int, names: list[str]) -> str:
    """'used by 1,240 cards, e.g. Colossal Dreadmaw, ...': the cards whose text uses a rule (lookup,
    and the site's rule pages)."""
    example = f", e.g. {', '.join(names)}" if names else ""
    return f"used by {count:,} card{'s' if count != 1 else ''}{example}"
