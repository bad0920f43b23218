"""Search results as plain data (no Whoosh import), shared by the index and the renderers."""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebase.core.records import Record, fold_typography

MARK_OPEN, MARK_CLOSE = "\x02", "\x03"  # highlight markers in snippets; render.py styles them


@dataclass(slots=True)
class Hit:
    id: str
    score: float
    snippet: str
    exact_number: bool = False
    also: list[str] = field(default_factory=list)  # records printing the same text, shown once


@dataclass(slots=True)
class Results:
    query: str
    total: int
    hits: list[Hit] = field(default_factory=list)
    suggestion: str | None = None
    records: dict[str, Record] = field(default_factory=dict)  # each hit's record, by hit id
    now: dict[str, int] = field(default_factory=dict)  # the hits in force today -> the first day of their text
    # the hits in force today that had another number before -> (the last one, the day it ended)
    formerly: dict[str, tuple[str, int]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # said on stderr (a query that was shortened)
    cards: list[Record] = field(default_factory=list)  # the cards the question names (search/cards.py)
    rulings: list[Hit] = field(default_factory=list)  # card rulings beside the rules (their records in `records`)


def clip(text: str, width: int) -> str:
    """The text's first `width` characters, cut at a word, '…' marking the cut."""
    if len(text) <= width:
        return text
    cut = text.rfind(" ", 0, width)
    return text[:cut if cut > width // 2 else width].rstrip(" ,;:") + "…"


def unmark(text: str) -> str:
    return text.replace(MARK_OPEN, "").replace(MARK_CLOSE, "")


def same_text_key(record: Record) -> str:
    """Two records print the same text when their words match, whatever the quotes and case. A
    card is a card, not a text: Wrath of God and Damnation print the same words and are two hits."""
    if record.kind == "card":
        return "card\x00" + record.id
    return " ".join(fold_typography(record.text).casefold().split())
