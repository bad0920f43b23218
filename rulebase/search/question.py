"""A query's text read as the searcher needs it: its words, its "quoted phrases", its names.

Kept apart from the Searcher because these readings need no index: request.py asks whether a
quotation is card text inside a question before any search runs, and the tests read a query's
words without opening one.
"""

from __future__ import annotations

import re

from rulebase.core.records import POWER_TOUGHNESS

MAX_WORDS = 32
QUESTION_WORDS = 6  # a query of this many words around a quotation is a question quoting card text
_QUERY_PART = re.compile(r'"([^"]*)"|(\S+)')
WORD = re.compile(rf"{POWER_TOUGHNESS}|\w+(?:[.'’]\w+)*")  # a word, or power/toughness as the index reads it


_CURLY = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"'})


def straight_quotes(text: str) -> str:
    """A query's typographic double quotes (“…”, „…”, «…») as '"': a phrase copied from a card
    or the rules, or typed on a phone, is a phrase, not its loose words."""
    return text.translate(_CURLY)


def split_query(text: str) -> tuple[list[str], list[str]]:
    """Words and "quoted phrases"; an unbalanced quote just ends the phrase at the end."""
    if text.count('"') % 2:
        text += '"'
    words, phrases = [], []
    for phrase, bare in _QUERY_PART.findall(text):
        if phrase:
            phrases.append(phrase)
        words.extend(WORD.findall(phrase or bare))
    return words[:MAX_WORDS], phrases[:MAX_WORDS]


_LINK = re.compile(r"(?:\bhttps?://|\bwww\.)\S+", re.IGNORECASE)


def without_links(text: str) -> str:
    """The query without its web addresses: a pasted bug report's link to a card page
    ("https://scryfall.com/card/m10/146/lightning-bolt") is no words of the asker's, and its
    pieces ("card", "146") would match rules and take the places of the question's words. A query
    that is only an address is left as it is."""
    stripped = _LINK.sub(" ", text)
    return stripped if stripped.strip() else text


def quoted_in_question(text: str) -> bool:
    """Whether quotation marks stand inside a longer question (card text quoted) rather than
    make the query a phrase search: enough words outside the quotes."""
    outside = re.sub(r'"[^"]*"?', " ", text)
    return len(WORD.findall(outside)) >= QUESTION_WORDS


_NAME_LINK = r"(?:of|the|and|en|de|to|from|in|on|a|an)"
_CAPITALISED = r"[A-Z][\w'’-]*"
# Two or more capitalised words in a row, possibly joined by "of the" ("March of the Machines",
# "Kodama's Reach"), not at a sentence's start.
_NAME_RUN = re.compile(rf"(?<![.!?:]\s)(?<!^)\b{_CAPITALISED}(?:\s+(?:{_NAME_LINK}\s+)*{_CAPITALISED})+")
# A card name as forums and Reddit write it for their card-fetching bots: "[[Extraplanar Lens]]".
_FETCHED = re.compile(r"\[\[([^\[\]|]{1,80})(?:\|[^\[\]]*)?\]\]")


def weak_words(text: str, words: list[str]) -> tuple[set[str], set[str]]:
    """Capitalised words inside a question, not at a sentence's start: card names, mostly
    ("Platinum Angel", "Blood Moon"), and of those the ones in a run of capitalised words, which
    are names even when each word is a rules term ("Kodama's Reach", "Knowledge and Power"), and
    every word in a card fetcher's brackets ("[[Blood Moon]] makes my lands Mountains"), wherever it
    stands. A short keyword query keeps every word as typed, but for such brackets."""
    fetched = {word for match in _FETCHED.finditer(text) for word in WORD.findall(match[1])}
    if len(words) < QUESTION_WORDS:
        return fetched, fetched
    text = text.strip()
    weak = {match.group() for match in re.finditer(r"(?<![.!?:]\s)(?<!^)\b[A-Z][a-z'’]+\b", text)}
    names = {word for run in _NAME_RUN.finditer(text) for word in WORD.findall(run.group()) if word[0].isupper()}
    return weak | names | fetched, names | fetched
