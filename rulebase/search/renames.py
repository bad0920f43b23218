"""Older rules' names for terms that live on under another name, read from today's glossary.

Players keep the words they learnt: "converted mana cost", "comes into play", "removed from the
game", "unblockable", "EDH". The glossary in force now lists each as obsolete and says what it is
called today ("Converted Mana Cost (Obsolete): An obsolete term for mana value.", "In Play
(Obsolete): ... the phrases “in play,” “from play,” “into play,” ... See Battlefield."), so a
question in the old words also reaches today's rule, which uses only the new ones. A term that
no longer exists at all ("Mana Burn (Obsolete): ... That rule no longer exists.") names nothing
today and is left to term_history.asks_old.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from rulebase.core.records import fold_accents as fold

_OBSOLETE = re.compile(r"\s*\(obsolete\)\s*$", re.IGNORECASE)
# What today's term is, by how the entry says it, most direct first.
_NAMED = (
    re.compile(r"\bSee rules? [\d.a-z-]+, [“\"]([^”\"]+?)\.?[”\"]"),
    re.compile(r"(?:obsolete term|older name) for (?:the |an? )?[“\"]?([^.“”\"]+?)[”\"]?(?: \[[^\]]*\])?[.,]"),
    re.compile(r"^A term that meant [“\"]([^”\"\[\]]+?)\.?[”\"]"),
    re.compile(r"\bSee (?!rules?\b)([A-Z][\w’'-]*(?: [A-Z][\w’'-]*)*)\.\s*$"),
)
_PHRASES = re.compile(r"[“\"]([^”\"]{2,40}?)[,.]?[”\"]")  # “in play,” “from play,” “into play,”
_PLACEHOLDER = re.compile(r"\[[^\]]*\]")  # “Remove [something] from the game”
_WORD = re.compile(r"[\w’'-]+")
_INFLECTED = "(?:s|es|d|ed)?"  # "removed", "comes"; not "summoning" (summoning sickness is today's)


@dataclass(frozen=True)
class Spelling:
    """A term's spellings as one pattern, compiled on first need: a question holds the words of
    few of the glossary's forty renamed terms, and compiling every pattern cost each new process
    35 ms."""

    source: str
    needles: tuple[tuple[str, ...], ...]  # each spelling's words, which every match of it holds

    def search(self, text: str) -> re.Match | None:
        """The pattern's first match in `text` (folded, lower case), tried only when `text` holds
        every word of one of the spellings."""
        if not any(all(word in text for word in words) for words in self.needles):
            return None
        return _compiled(self.source).search(text)


@cache
def _compiled(source: str) -> re.Pattern:
    return re.compile(source)


@dataclass(frozen=True)
class Rename:
    """An older term (`pattern` finds it in a question, in any of its spellings) and what the
    rules in force now call it (`today_pattern` finds that)."""

    old: str
    today: str
    pattern: Spelling
    today_pattern: Spelling
    since: int | None = None  # the first day the glossary listed it as obsolete (YYYYMMDD)


def today_name(text: str) -> str | None:
    """What an obsolete glossary entry says the term is called now, or None (a term gone)."""
    for named in _NAMED:
        found = named.search(text)
        if found:
            return _PLACEHOLDER.sub("", found[1]).strip(" ,.") or None
    return None


def read_renames(entries: list[tuple]) -> list[Rename]:
    """Renames from the current glossary's obsolete entries, as (title, text[, first day]). The
    old term is the title without "(Obsolete)", and any phrase the entry quotes that holds one of
    the title's words ("into play" for In Play; not the new name it quotes)."""
    out = []
    for title, text, *since in entries:
        old = _OBSOLETE.sub("", title).strip()
        today = today_name(text)
        if not old or not today or fold(today.lower()) == fold(old.lower()):
            continue
        title_words = [w for w in _words(old) if len(w) > 3]
        spellings = {old}
        for quoted in _PHRASES.findall(text):
            words = _words(_PLACEHOLDER.sub("", quoted))
            if any(w.startswith(t) for w in words for t in title_words) and not set(words) <= set(_words(today)):
                spellings.add(quoted)
        today_spelling = " ".join(w.removesuffix("s") if len(w) > 4 else w for w in _words(today))  # "kindred"
        out.append(Rename(old, today, _spelling_pattern(sorted(spellings, key=len, reverse=True)),
                          _spelling_pattern([today_spelling]), since[0] if since else None))
    return out


def _spelling_pattern(spellings: list[str]) -> Spelling:
    """Each spelling's words in order, any inflection ("removed", "comes"), a placeholder one to
    three words ("remove it from the game"); a word of three letters or fewer as written."""
    alternatives = []
    needles = []
    for spelling in spellings:
        parts = []
        words = []
        for piece in re.split(r"(\[[^\]]*\])", fold(spelling.lower()).replace("’", "'")):  # as _found reads a question
            if _PLACEHOLDER.fullmatch(piece):
                parts.append(r"(?:\S+\s+){0,2}\S+")
            else:
                held = _WORD.findall(piece)
                words += held
                parts += [re.escape(w) + (_INFLECTED if len(w) > 3 else "") for w in held]
        if parts:
            alternatives.append(r"\s+".join(parts))
            needles.append(tuple(words))
    return Spelling(r"\b(?:" + "|".join(alternatives) + r")\b", tuple(needles))


def _words(text: str) -> list[str]:
    return [fold(w.lower()) for w in _WORD.findall(text)]


def renamed_in(text: str, renames: list[Rename]) -> list[tuple[str, str]]:
    """(the words of the query, the words today's rules use instead) for each renamed term the
    query names in older words."""
    return _found(text, [(r.pattern, r.today) for r in renames])


def older_names_in(text: str, renames: list[Rename]) -> list[tuple[str, str]]:
    """(the words of the query, the words older rules used instead) for each renamed term the
    query names in today's words: a question about the rules of 2005 in today's words."""
    return _found(text, [(r.today_pattern, r.old) for r in renames])


def _found(text: str, pairs: list[tuple[Spelling, str]]) -> list[tuple[str, str]]:
    lowered = fold(text.lower()).replace("’", "'")
    return [(found[0], other) for pattern, other in pairs if (found := pattern.search(lowered))]
