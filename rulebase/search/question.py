"""A query's text read as the searcher needs it: its words, its "quoted phrases", its names.

Kept apart from the Searcher because these readings need no index: request.py asks whether a
quotation is card text inside a question before any search runs, and the tests read a query's
words without opening one.
"""

from __future__ import annotations

import re

from rulebase.core.eras import day
from rulebase.core.pattern import lazy
from rulebase.core.records import POWER_TOUGHNESS
from rulebase.core.value import Frozen

# A question's words read, in order: a story asks at its end ("... who wins?"), so 32 left most
# real questions without their question. 128 covers every question of the shared sets (real
# questions' tuning part, scripts/heldout.py: hit@3 0.457 -> 0.478, MRR@10 0.419 -> 0.434; CR
# examples hit@3 0.161 -> 0.197; tournament MRR@10 0.613 -> 0.645) and costs a 115-word
# question about 0.1 s of CPU (0.40 -> 0.50 s cold).
MAX_WORDS = 128
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


def read_as(text: str, readings: list[tuple[str, str]]) -> str:
    """The text with each word or words typed as the first of a pair replaced by the second, where
    it stands whole: not part of a longer or hyphenated word ("ETB", not "ETBs"; "non-land")."""
    for typed, read in readings:
        text = re.sub(rf"(?<![\w'’-]){re.escape(typed)}(?![\w'’-])", read, text)
    return text


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
_NAME_RUN = lazy(rf"(?<![.!?:]\s)(?<!^)\b{_CAPITALISED}(?:\s+(?:{_NAME_LINK}\s+)*{_CAPITALISED})+")
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


# --- Reading a question as a player writes it: which era it asks about, and which words say so.
#
#
# A question with no date and no edition is answered from the rules in force now (searcher.py
# puts those first); this module finds the words that ask for older rules instead: an edition or
# era named ("4th edition", "5e", "alpha", "in 2005", "before the 2009 rules", "the old rules").
# Those words then leave the query: "edition" and "2005" are not what the rules text is about. An
# era in the asker's story asks for nothing ("I've played since 4th edition", "a 4th edition Serra
# Angel", "back in 2012 ..., is that still true?"): such questions are about the rules in force now.
# Whether a *term* exists only in old rules (interrupt, mana burn) is a question for the index's
# vocabulary and is answered in term_history.py.
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "sixth": "6",
             "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10"}
# "4th edition", "fourth edition", "4e", "5th ed", "10th edition rules"
_EDITION = lazy(r"\b(?:(?P<num>\d{1,2})(?:st|nd|rd|th)?|(?P<word>" + "|".join(_ORDINALS)
                + r"))\s*(?:edition|ed\.?)(?!\w)|\b(?P<short>\d{1,2})e\b", re.IGNORECASE,
                needs=("ed", *"0123456789"))
# The first editions: "alpha" as typed, "Beta" and "Unlimited" capitalised ("an unlimited number of
# copies" is no edition) or with "rules"/"edition"; not a card's name ("Alpha Authority")
_ALPHA = lazy(r"\b(?:(?:Alpha|Beta|Unlimited)(?!\s+(?!(?:Rules?|Rulebook|Edition|I)\b)[A-Z])|alpha|ALPHA|"
              r"(?i:beta|unlimited)(?=\s+(?i:rules?|rulebook|edition)\b))(?:\s+(?i:rules?|rulebook|edition))?\b",
              needs=("alpha", "beta", "unlimited"))
_YEARS = ("19", "20")  # (the first digits of a year from 1900 to 2099)
_BEFORE = lazy(r"\b(?:before|prior to|until|pre-?)\s*(?:the\s+)?(?P<year>(?:19|20)\d\d)\b(?:\s+rules?(?:\s+change)?)?",
               re.IGNORECASE, needs=_YEARS)
_IN_YEAR = lazy(r"\b(?:in|during|as of|back in|around|since)\s+(?P<year>(?:19|20)\d\d)\b|\b(?P<y2>(?:19|20)\d\d)\s+rules?\b",
                re.IGNORECASE, needs=_YEARS)
# Seventh to Ninth Edition's rules have no edition label (the Comprehensive Rules releases of their
# years are labelled by year: core/eras.py): each is asked as the day before the next edition's
# release (Eighth Edition 2003-07-28, Ninth 2005-07-29, Tenth 2007-07-13).
_UNLABELLED = {"7": 20030727, "8": 20050728, "9": 20070712}
# "since 4th edition", "playing since 2003": when the asker started, not the rules asked about
_SINCE = lazy(r"\b(?:since|printed(?:\s+in)?)\s+(?:the\s+)?$", re.IGNORECASE)
# "a 4th edition Serra Angel", "my alpha Black Lotus": the printing of a card, not the rules asked about
_PRINTING_BEFORE = lazy(r"\b(?:an?|my|your|his|her|their|our|this|that|these|those|old)\s+$", re.IGNORECASE)
_PRINTING_AFTER = lazy(r"^\s+(?!(?:Rules?|Rulebook|Comprehensive)\b)[A-Z]")
# "is that still true?", "does it still work that way nowadays": the rules in force now, whatever
# year or edition the story around it names
_NOW = lazy(r"\b(?:still\s+(?:true|the\s+case|correct|right|valid|work(?:s|ing)?|appl(?:y|ies)|a\s+thing)|"
            r"nowadays|these\s+days|(?:the\s+)?current\s+rules?|today['’]?s\s+rules?)\b", re.IGNORECASE,
            needs=("still", "nowadays", "days", "current", "today"))
# ("no longer", "anymore" and "originally" only about the rules: "if the creature is no longer on the
# battlefield" and "the spell originally targeted it" tell what happened in a game)
_OLD = lazy(r"\b(?:old(?:er)?\s+rules?|used\s+to|what(?:'s|\s+has)?\s+changed|back\s+then|"
            r"no\s+longer\s+(?:exists?|a\s+(?:rule|thing)|(?:in|part\s+of)\s+the\s+(?:rules|game))|"
            r"(?:exists?|a\s+(?:rule|thing))\s+anymore|originally\s+(?:ruled?|worked|meant|said)|(?:work|worked|ruled)\s+originally|"
            r"historic(?:al|ally)?|obsolete|(?:how|when)\s+did\s+\w+(?:\s+\w+)?\s+change|"
            r"before\s+(?:(?:they|wizards|wotc|it|the\s+rules?)\s+(?:was\s+|were\s+)?changed?|the\s+(?:\w+\s+)?change))\b",
            re.IGNORECASE, needs=("old", "used", "chang", "back", "longer", "anymore", "original", "historic",
                                  "obsolete"))


class Era(Frozen):
    """What a question says about the rules it asks for."""

    __slots__ = ("text", "edition", "day", "old")

    def __init__(self, text: str, edition: str | None = None, day: int | None = None, old: bool = False):
        object.__setattr__(self, "text", text)  # the question without the words that named the era
        object.__setattr__(self, "edition", edition)  # an edition label named ("4e"), to be checked against the index
        object.__setattr__(self, "day", day)  # the rules in force that day ("in 2005", "before the 2009 rules")
        object.__setattr__(self, "old", old)  # asks about older rules without naming which

    @property
    def asks_for_history(self) -> bool:
        return self.old or self.edition is not None or self.day is not None


def read_era(text: str, newest_year: int = 9999) -> Era:
    """The era a question names, and the question without those words. A year after the newest
    release, or a number that is not an edition ("10e" as damage), is left alone. An era named
    in the asker's story ("I've played since 4th edition"), or in a question that asks whether
    something is still so ("back in 2012 a friend told me ..., is that still true?"), leaves the
    query too but asks for nothing older: such a question is about the rules in force now."""
    edition = when = None
    old = False
    story = False
    match = _EDITION.search(text)
    if match:
        number = match["num"] or match["short"] or _ORDINALS[match["word"].lower()]
        if 1 <= int(number) <= 10:
            # 1st and 2nd are Alpha/Beta/Unlimited; Revised (3rd) has no rulebook here: older rules
            edition = {"1": "alpha", "2": "alpha", "3": None}.get(number, f"{number}e")
            old = edition is None
            if number in _UNLABELLED:  # no edition label: the rules in force at the era's end
                edition, when = None, _UNLABELLED[number]
            story, text = _cut(text, match)
    elif _ALPHA.search(text):
        edition = "alpha"
        story, text = _cut(text, _ALPHA.search(text))
    before = _BEFORE.search(text) if when is None else None  # (an edition's era says when already)
    if before and int(before["year"]) <= newest_year:
        when = _day_before_year(int(before["year"]))
        text = text[:before.start()] + " " + text[before.end():]
    elif when is None:
        year = _IN_YEAR.search(text)
        if year and int(year["year"] or year["y2"]) < newest_year:
            when = day(year["year"] or year["y2"], end=True)
            since, text = _cut(text, year)
            story = story or since or year[0].lower().startswith("since")
    text = " ".join(text.split())
    old = old or bool(_OLD.search(text))
    if _NOW.search(text):
        return Era(text)
    if story:  # ("what changed since 4th edition" still asks about every era alike)
        return Era(text, old=old)
    return Era(text, edition, when, old)


def _cut(text: str, match: re.Match) -> tuple[bool, str]:
    """The text without the words `match` found, and whether they are the asker's story rather
    than the era asked about: "since 4th edition" (when the asker started; "since" is taken out
    too), "printed in 2003", "a 4th edition Serra Angel" (a card's printing)."""
    since = _SINCE.search(text[:match.start()])
    start = since.start() if since else match.start()
    printing = bool(_PRINTING_BEFORE.search(text[:match.start()]) and _PRINTING_AFTER.match(text[match.end():]))
    return since is not None or printing, text[:start] + " " + text[match.end():]


def _day_before_year(year: int) -> int:
    return (year - 1) * 10000 + 1231


class Reading(Frozen):
    """A query's text as the search reads it (Searcher._read)."""

    __slots__ = ("text", "names", "words", "phrases", "lang", "weak", "named", "light", "respelled", "said")

    def __init__(self, text: str, names: list[str], words: list[str], phrases: list[str], lang: str | None,
                 weak: set[str], named: set[str], light: bool, respelled: list[tuple[str, str]],
                 said: list[tuple[str, str]]):
        object.__setattr__(self, "text", text)  # names cut, initials spelled out, near spellings respelled
        object.__setattr__(self, "names", names)  # the card names cut from it
        object.__setattr__(self, "words", words)  # its content words (none for a query of card names alone)
        object.__setattr__(self, "phrases", phrases)
        object.__setattr__(self, "lang", lang)
        object.__setattr__(self, "weak", weak)  # capitalised words and names: weak evidence
        object.__setattr__(self, "named", named)  # of those, the words of a name's run or brackets
        object.__setattr__(self, "light", light)  # a question long enough that its light verbs are weak
        object.__setattr__(self, "respelled", respelled)  # (as typed, as searched), said in a note
        object.__setattr__(self, "said", said)  # a player's phrases (lowercased) and the documents' words for them
