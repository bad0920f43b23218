"""The cards a question names, and the rules their text uses as a lift for the ranking.

A question names a card by its full name in any case ("blood moon", "Urza's Saga"), a face's name,
the part of a legendary name before its comma, or inside a card fetcher's brackets ("[[Blood
Moon]]"). A run of lower-case words counts only when one of its words is no word of the rules (so
"cast out" in "is it cast out of exile" is not the card Cast Out); a single word only when it is
capitalised inside the question (or the whole query, in any case; or the first of a query of names
alone, "Humility and Opalescence"), names exactly one card, and is no word of the rules ("Thalia",
"Humility", "Tarmogoyf"; not "Fog" where the rules say "fog", not "Desert" a rule lists as a land
type). A word of the rules is one a title holds, a rule of the Comprehensive Rules prints, or any
text says in lower case (Searcher.rules_word): the rules print many card names in their examples
and rulings ("Tarmogoyf", "Humility"), and those are no words of theirs. The rules a
named card's text uses (ingest/cards/rules.py) lift those rules' documents, each by how few cards
use it: a rule most cards use (triggered abilities, 603) says nothing about this card.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from math import log

from rulebase.core.cardnames import fold_name
from rulebase.core.records import Record
from rulebase.search import language
from rulebase.search.question import quoted_in_question, split_query

MAX_NAME_WORDS = 8  # "Our Market Research Shows That Players Like Really Long Card Names..." aside
LIFT = 0.25  # a card's rarest rule scores up to 1 + LIFT times as much: half a term the question names
_FETCHED = re.compile(r"\[\[([^\[\]|]{1,200})(?:\|[^\[\]]*)?\]\]")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_SMALL = {"of", "the", "and", "a", "an", "to", "from", "in", "on", "de", "en", "with", "for", "at", "by"}
_POSSESSIVE = re.compile(r"['’]s$")


def read_cards(store, text: str, rules_word: Callable[[str], bool]) -> list[tuple[Record, str]]:
    """(card, the words that named it) for each card the question names, in order, each once.
    `rules_word(word)`: whether the (lower-case) word is the rules' own (Searcher.rules_word)."""
    found: dict[str, tuple[tuple[int, int], Record, str]] = {}  # (bracketed first, then as typed)
    for match in _FETCHED.finditer(text):
        ids = _ids(store, fold_name(match.group(1)), single=False)
        for record in store.get_many(ids[:1]):
            found.setdefault(record.id, ((0, match.start()), record, match.group(0)))
    bare = _FETCHED.sub(" ", text)
    words = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(bare)]
    covered: set[int] = set()
    at = 0
    while at < len(words):
        taken = 0
        for size in range(min(MAX_NAME_WORDS, len(words) - at), 0, -1):
            span = words[at:at + size]
            if not _plausible(span, rules_word, bare):
                continue
            typed = bare[span[0][1]:span[-1][2]]
            ids = _ids(store, fold_name(typed), single=size == 1)
            if not ids and _POSSESSIVE.search(typed):  # "Humility's effect": the card, not "Humilitys"
                typed = _POSSESSIVE.sub("", typed)
                ids = _ids(store, fold_name(typed), single=size == 1)
            if ids:
                for record in store.get_many(ids[:1]):
                    found.setdefault(record.id, ((1, span[0][1]), record, typed))
                taken = size
                covered.update(range(at, at + size))
                break
        at += taken or 1
    for position, record, typed in _opening_names(store, words, covered, rules_word, bare):
        found.setdefault(record.id, ((1, position), record, typed))
    return [(record, typed) for _, record, typed in sorted(found.values(), key=lambda f: f[0])]


def _opening_names(store, words: list[tuple[str, int, int]], covered: set[int], rules_word: Callable[[str], bool],
                   text: str) -> list[tuple[int, Record, str]]:
    """A query of card names alone ("Humility and Opalescence") names a card with its first word
    too: at a sentence's start a capital says nothing, but the rest of the query is names and
    function words. A sentence that goes on ("Sorry if this is dumb") names no card so."""
    rest = [n for n in range(len(words)) if n not in covered]
    opening = [n for n in rest if _at_sentence_start(words[n], text) and words[n][0][0].isupper()]
    if not covered or not opening or any(n not in opening and not _function(words[n][0]) for n in rest):
        return []
    out = []
    for n in opening:
        word = _POSSESSIVE.sub("", words[n][0])
        ids = _ids(store, fold_name(word), single=True) if not rules_word(word.lower()) else []
        out += [(words[n][1], record, word) for record in store.get_many(ids[:1])]
    return out


def _function(word: str) -> bool:
    return word.lower() in _SMALL or language.is_function(word, None)


def _at_sentence_start(word: tuple[str, int, int], text: str) -> bool:
    before = text[:word[1]].rstrip()
    return not before or before[-1] in ".!?:\"“("


def _plausible(span: list[tuple[str, int, int]], rules_word: Callable[[str], bool], text: str) -> bool:
    """Whether words could name a card as a question writes one (see the module's docstring); a
    single word also when it is the whole query, in any case ("tarmogoyf")."""
    first = span[0][0]
    if first.lower() in _SMALL or span[-1][0].lower() in _SMALL:
        return False
    if len(span) == 1:
        if rules_word(_POSSESSIVE.sub("", first).lower()):
            return False
        return len(_WORD.findall(text)) == 1 or first[0].isupper() and not _at_sentence_start(span[0], text)
    titled = all(w[0].isupper() or w.lower() in _SMALL for w, _, _ in span)
    return titled or any(not rules_word(w.lower()) for w, _, _ in span if w.lower() not in _SMALL)


def shared_short_name(store, text: str, rules_word: Callable[[str], bool]) -> tuple[str, list[str]]:
    """The short name a whole query is (brackets, quotes and punctuation aside) and the names of
    the cards that share it ("Thalia": Thalia, Guardian of Thraben and Thalia, Heretic Cathar), when
    it is no card's full name and no word of the rules ("storm" is a keyword, whatever cards are
    called Storm): too many to read as the question's card, worth naming to the asker. No names
    otherwise."""
    words = _WORD.findall(_FETCHED.sub(lambda m: m.group(1), text))
    typed = " ".join(words)
    named = store.card_named(fold_name(typed)) if words else []
    if any(kind != "short" for _, kind in named) or len(named) < 2 or all(rules_word(w.lower()) for w in words):
        return typed, []
    return typed, sorted(record.title for record in store.get_many([card_id for card_id, _ in named]))


def _ids(store, key: str, single: bool) -> list[str]:
    """The card a folded name names: by its name or a face's; the part before a comma only when
    it names one card; a single word only when it names exactly one."""
    if not key:
        return []
    named = store.card_named(key)
    full = [card_id for card_id, kind in named if kind in ("name", "face")]
    if full and (not single or len(full) == 1):
        return full[:1]
    short = [card_id for card_id, kind in named if kind == "short"]
    return short if len(short) == 1 and not full else []


def lift(card_records: list[Record], cards_total: int, docs_of: Callable[[str, str], set[int]]) -> dict[int, float]:
    """Document -> score factor for the rules the named cards use: 1 + LIFT * the rule's rarity
    among cards (the idf of the cards using it, scaled to 0..1) * how many of the named cards link
    that very rule: a rule two of them use is where they meet ("Humility and Opalescence": 613,
    the layers, which both use, before 113.10, which only Humility does). `docs_of(number,
    lineage)`: the index's documents of that rule and its subrules in force now, and their
    earlier versions."""
    linked: dict[str, tuple[float, str, set[str]]] = {}  # rule -> (rarity, lineage, the cards linking it)
    for record in card_records:
        for link in (record.card or {}).get("links", []):
            used = max(1, link.get("cards") or 1)
            rarity = max(0.0, log(max(cards_total, 2) / used) / log(max(cards_total, 2)))
            linked.setdefault(link["rule"], (rarity, link.get("lineage") or "", set()))[2].add(record.id)
    out: dict[int, float] = {}
    for number, (rarity, lineage, cards) in linked.items():
        factor = 1 + LIFT * rarity * len(cards)
        for docnum in docs_of(number, lineage):
            if factor > out.get(docnum, 1.0):
                out[docnum] = factor
    return out


def without_names(text: str, names: list[str]) -> tuple[str, list[str]]:
    """The question without the card names it typed, and those names. A card's name is one
    unit: its words are not the question's ("Blood Moon" says nothing of Blood tokens, "Doubling
    Season" nothing of seasons), so they are neither scored nor read for the question's
    register, terms or title; the searcher matches the name whole. A phrase search keeps its
    words as typed.

    Measured on the real questions (scripts/realq.py; the names weighed as weak evidence before):
    question hit@3 0.545 -> 0.576, MRR@10 0.476 -> 0.478 (odd half 0.529 -> 0.588, even level),
    question --as-of 0.567 (MRR@10 0.469); the keyword modes and the judged sets level."""
    if not names or (split_query(text)[1] and not quoted_in_question(text)):
        return text, []
    for name in sorted(names, key=len, reverse=True):  # (a longer name first: it may hold a shorter)
        spelled = "['’]".join(re.escape(part) for part in re.split(r"['’]", name))  # either apostrophe
        # (in quotes too, 'Blood Moon'; and each time it is named, in any case)
        text = re.sub(rf"(?<!\w)(?<!\w['’]){spelled}(?:['’]s)?(?!\w)", " ", text, flags=re.IGNORECASE)
    return text, names


def add_cards_rules(scores: dict[int, float], lift: dict[int, float], allowed: set[int] | None) -> None:
    """A query that is only card names ("Urza's Saga", "Blood Moon and Urza's Saga") asks about
    the cards: each rule their text uses scores as the best text naming them does, scaled by the
    rule's rarity among cards (its lift), so a Saga's 714 leads and the triggered abilities' 603
    trails. Without them, such a query listed only texts that print the name: 1999's tournament
    blocks for "Urza's Saga", the set."""
    raised = {d: f - 1 for d, f in lift.items() if f > 1 and (allowed is None or d in allowed)}
    unit = max(scores.values(), default=0.0) or 1.0
    rarest = max(raised.values(), default=1.0)
    for docnum, share in raised.items():
        scores[docnum] = scores.get(docnum, 0.0) + unit * share / rarest
