"""Search results as plain data (no Whoosh import), shared by the index and the renderers."""

from __future__ import annotations

from rulebase.core.records import Record, fold_typography
from rulebase.core.value import Value

MARK_OPEN, MARK_CLOSE = "\x02", "\x03"  # highlight markers in snippets; render.py styles them


class Hit(Value):
    __slots__ = ("id", "score", "snippet", "exact_number", "also")

    def __init__(self, id: str, score: float, snippet: str, exact_number: bool = False, also: list[str] | None = None):
        self.id = id
        self.score = score
        self.snippet = snippet
        self.exact_number = exact_number
        self.also = [] if also is None else also  # records printing the same text, shown once


class Results(Value):
    __slots__ = ("query", "total", "hits", "suggestion", "records", "now", "formerly", "notes", "cards", "rulings")

    def __init__(self, query: str, total: int, hits: list[Hit] | None = None, suggestion: str | None = None,
                 records: dict[str, Record] | None = None, now: dict[str, int] | None = None,
                 formerly: dict[str, tuple[str, int]] | None = None, notes: list[str] | None = None,
                 cards: list[Record] | None = None, rulings: list[Hit] | None = None):
        self.query = query
        self.total = total
        self.hits = [] if hits is None else hits
        self.suggestion = suggestion
        self.records = {} if records is None else records  # each hit's record, by hit id
        self.now = {} if now is None else now  # the hits in force today -> the first day of their text
        # the hits in force today that had another number before -> (the last one, the day it ended)
        self.formerly = {} if formerly is None else formerly
        self.notes = [] if notes is None else notes  # said on stderr (a query that was shortened)
        self.cards = [] if cards is None else cards  # the cards the question names (search/cards.py)
        self.rulings = [] if rulings is None else rulings  # card rulings beside the rules (their records in `records`)


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
