"""Words as the card linker reads them: lower case, apostrophes kept inside a word, quotes and
dashes folded; and a term's regular inflections."""

from __future__ import annotations

import re
from functools import cache

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "—", "−": "-"})


def words_of(text: str) -> list[str]:
    """Lower-case words, apostrophes kept inside a word ("can't"), quotes and dashes folded."""
    return WORD.findall(text.translate(TYPOGRAPHY).lower())


@cache
def forms(word: str) -> frozenset[str]:
    """The regular inflections of a term's word as the rules write it: "explore" explores,
    explored, exploring; "dungeons" dungeon; "dies" itself (not "die", a die to roll)."""
    out = {word, word + "s", word + "es", word + "ed", word + "d", word + "ing"}
    if word.endswith("e"):
        out |= {word[:-1] + "ing", word[:-1] + "ed"}
    if word.endswith("y"):
        out |= {word[:-1] + "ies", word[:-1] + "ied"}
    if word.endswith("ies"):  # "abilities": ability; "dies" is no plural of "die"
        out.add(word[:-3] + "y")
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        out.add(word[:-1])
    return frozenset(out)


OBJECT_OPENS = {"target", "it", "them", "that", "those", "this", "these", "all", "each", "up", "another", "any",
                "the", "a", "an", "x", "one", "two", "three", "four", "five", "your", "their", "enchanted", "equipped"}


def as_verb(words: list[str], at: int, end: int) -> bool:
    """Whether a word of two senses, a noun and a keyword action, is the action here: inflected
    as a verb ("exiled", "countered", "exiling") or its object following ("exile target",
    "counter that spell"); "from exile" and "a +1/+1 counter on it" are the nouns."""
    word = words[end - 1]
    return word.endswith(("ed", "ing")) or end < len(words) and words[end] in OBJECT_OPENS
