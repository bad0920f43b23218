"""The bilingual term map: Hungarian game terms and the English terms the guide pairs them with.

The Hungarian guide names an English term in parentheses right after its own word:
"Könyvtár (library)", "teremtmény (creature, régen: summon)". `find_terms` finds those pairings
(the parser turns them into kind "term" records); rulebase.rules.terms reads them back from the records
(`term_map`) for search, define and the glossary pages.

The parenthesis rule (what counts as a term):
- the parenthesis holds no quote marks (backtick or quotes: those quote English card text);
- split on commas (and take what follows a Hungarian label such as "régen:" = "formerly:"),
  every part is English-looking: 1-4 lowercase ASCII words, none of them a Hungarian abbreviation
  or suffix written in ASCII ("pl.", "stb.", "(eket)") -- so any accent, period, digit or capital
  letter disqualifies the whole parenthesis;
- the Hungarian term is the word(s) right before the parenthesis: a quoted phrase ending right
  there (`... távolítsd el a játékból...`(remove from game)), otherwise words taken backwards up to
  punctuation, the line start, an article or conjunction, and at most as many words as the
  (first) English term has (Hungarian compounds are written as one word, so the Hungarian name is
  never longer: "eleven varázstárgy (artifact creature)", "egy varázstárgy (artifact)").
A pairing is only ever what the text states; nothing is translated here.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# ASCII words inside parentheses that are Hungarian, not English: abbreviations and suffixes.
HU_NOT_ENGLISH = frozenset({
    "pl", "stb", "ill", "kb", "ld", "eket", "okat", "ek", "ok", "ak", "at", "et", "ot", "t", "k",
    "ba", "be", "ban", "ben", "ra", "re", "nak", "nek", "val", "vel", "vagy", "es", "egy",
})
# Words that end a Hungarian term when read backwards from the parenthesis.
HU_STOP = frozenset({"a", "az", "egy", "és", "vagy", "hogy", "is", "mint", "ez", "azaz", "illetve"})
QUOTES = "`\"'\u201e\u201d\u201c\u2018\u2019"
_PAREN = re.compile(r"\(([^()\n]*)\)")
_ENGLISH = re.compile(r"[a-z]+(?: [a-z]+){0,3}")
_WORD = re.compile(r"[^\W\d_](?:[\w/-]*\w)?")


@dataclass(frozen=True, slots=True)
class TermSpan:
    """A pairing found in a text: `text[start:end]` is the span as written (Hungarian + parens)."""

    hu: str
    en: tuple[str, ...]
    start: int
    end: int


@lru_cache(maxsize=4096)
def _english(content: str) -> tuple[tuple[str, ...], str | None]:
    found, why = _english_terms(content)
    return tuple(found), why


def english_terms(content: str) -> tuple[list[str], str | None]:
    """The English terms a parenthesis content names, or ([], why it is not a term)."""
    found, why = _english(content)
    return list(found), why


def _english_terms(content: str) -> tuple[list[str], str | None]:
    """The English terms a parenthesis content names, or ([], why it is not a term)."""
    content = content.strip()
    if not content:
        return [], "empty"
    if any(q in content for q in QUOTES):
        return [], "quote"
    found: list[str] = []
    for part in content.split(","):
        part = part.strip()
        if ":" in part:  # "régen: summon" -- a Hungarian label, then the term
            part = part.split(":", 1)[1].strip()
        if not _ENGLISH.fullmatch(part):
            return [], f"not English-looking: {part!r}"
        if any(w in HU_NOT_ENGLISH for w in part.split()):
            return [], f"Hungarian word or suffix: {part!r}"
        if part not in found:
            found.append(part)
    return found, None


_REACH = 300  # how far back a term's words are looked for (the guide's longest phrase is under 60)


def _hungarian_before(text: str, pos: int, limit: int) -> tuple[str, int] | None:
    """The Hungarian term ending at `pos` (just before a parenthesis) and where it starts."""
    reach = max(0, pos - _REACH)  # bounded: one endless line stays linear
    line_start = max(text.rfind("\n", reach, pos) + 1, reach)
    found = _term_ending(text[line_start:pos].rstrip(), limit)
    return None if found is None else (found[0], line_start + found[1])


@lru_cache(maxsize=4096)  # a text repeating one pairing asks the same question again and again
def _term_ending(before: str, limit: int) -> tuple[str, int] | None:
    """The term at the end of `before` and its offset in it."""
    if before.endswith("`"):
        opening = before.rfind("`", 0, len(before) - 1)
        if opening < 0:
            return None
        phrase = before[opening + 1:-1].strip(" .\u2026")
        return (phrase, opening) if phrase else None
    words = list(_WORD.finditer(before))
    chosen: list[re.Match[str]] = []
    end = len(before)
    for word in reversed(words):
        gap = before[word.end():end]
        if gap.strip() or word.group().lower() in HU_STOP or len(chosen) >= limit:
            break
        chosen.insert(0, word)
        end = word.start()
    if not chosen:
        return None
    return before[chosen[0].start():chosen[-1].end()], chosen[0].start()


def find_terms(text: str) -> list[TermSpan]:
    """Every 'Hungarian (english)' pairing in `text`, in order (see the module docstring)."""
    spans: list[TermSpan] = []
    for match in _PAREN.finditer(text):
        english, _why = english_terms(match.group(1))
        if not english:
            continue
        found = _hungarian_before(text, match.start(), limit=len(english[0].split()))
        if found is None:
            continue
        hu, start = found
        spans.append(TermSpan(unicodedata.normalize("NFC", hu), tuple(english), start, match.end()))
    return spans
