"""A question's rules terms, read through the index's concept table (index/concepts.py).

A term of the rules in force now that the question names ("deathtouch", "dies", "state-based
actions") lifts the rules that define it, by how rare the term is: a question about deathtouch
and trample that tells a story around them still ranks the deathtouch rule among the first,
while "creature" or "damage", named in most questions, lift their rules hardly at all.
Measured on the real questions (scripts/realq.py), with the name runs of question.weak_words:
question MRR@10 0.379 -> 0.423, keywords 0.552 -> 0.588, keywords --as-of 0.498 -> 0.513; the
judged sets 0.918 -> 0.925; a boost of 1.0 lost on both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from math import log

from rulebase.core.pattern import lazy
from rulebase.index.concepts import Listed

BOOST = 0.5  # a document of the rarest term's rules scores up to 1 + BOOST times as much
# A term at least this rare is an aspect of the question (ranking.cover): deathtouch 0.64, trample
# 0.52, state-based action 0.49; damage 0.25, creature 0.14. Measured on the real questions with
# ranking.COVER_DEPTH 3: 0.35 gained keywords --as-of a question and lost judged nDCG (0.740 ->
# 0.738), 0.55 left out the trample-and-deathtouch kind.
ASPECT_RARITY = 0.45


class Concepts:
    """The table, indexed by each term's first token, and the documents citing each term's rules."""

    def __init__(self, table: Listed, citing: Listed | None = None):
        self.by_first: dict[str, list[tuple[str, ...]]] = {}
        for tokens in table:
            self.by_first.setdefault(tokens[0], []).append(tokens)
        self._table, self._citing = table, {} if citing is None else citing  # (not `or`: a Mapping's truth parses every row)
        self._frozen: dict[tuple[tuple[str, ...], bool], frozenset[int]] = {}

    def _docs(self, term: tuple[str, ...], citing: bool = False) -> frozenset[int]:
        """A term's documents (or those citing its rules), frozen when a question first names it."""
        key = (term, citing)
        if key not in self._frozen:
            self._frozen[key] = frozenset((self._citing if citing else self._table).get(term, ()))
        return self._frozen[key]

    def named(self, tokens: list[str]) -> list[tuple[tuple[str, ...], frozenset[int]]]:
        """The terms whose tokens stand in the query's, in order and adjacent."""
        found = {}
        for at, token in enumerate(tokens):
            for term in self.by_first.get(token, ()):
                if tuple(tokens[at:at + len(term)]) == term:
                    found[term] = self._docs(term)
        return list(found.items())

    def boosts(self, tokens: list[str], frequency: Callable[[str], int], total: int) -> dict[int, float]:
        """Document -> score factor: 1 + BOOST * the rarity (idf, scaled to 0..1) of the rarest
        term naming its rule. `frequency` is a token's document frequency in the index."""
        out: dict[int, float] = {}
        for term, docs in self.named(tokens):
            factor = 1 + BOOST * max(0.0, _rarity(term, frequency, total))
            for docnum in docs:
                if factor > out.get(docnum, 1.0):
                    out[docnum] = factor
        return out

    def meeting(self, tokens: list[str]) -> dict[int, float]:
        """Document -> score factor (1 + BOOST) for a rule that cites the rules of two or more
        terms the question names: where they meet. "state-based actions before triggers" is 117.5,
        which sends the reader to 704 and then to 603, not a rule that says only one of them. A
        term inside a longer one the question names is that one; terms naming the same rules are
        one."""
        named = self.named(tokens)
        kept = {docs: term for term, docs in named
                if not any(len(other) > len(term) and _inside(term, other) for other, _ in named)}
        counts: dict[int, int] = {}
        for docs in {self._docs(term, citing=True) for term in kept.values()}:
            for docnum in docs:
                counts[docnum] = counts.get(docnum, 0) + 1
        return {docnum: 1 + BOOST for docnum, count in counts.items() if count > 1}

    def aspects(self, tokens: list[str], frequency: Callable[[str], int], total: int) -> list[frozenset[int]]:
        """The documents of each term the question names that is rare enough to be what it asks
        about (ASPECT_RARITY): "deathtouch" and "trample", not "creature" or "damage". A term
        inside a longer one the question names is that one ("legend" in "legend rule")."""
        named = self.named(tokens)
        return [docs for term, docs in named
                if _rarity(term, frequency, total) >= ASPECT_RARITY and not any(
                    len(other) > len(term) and _inside(term, other) for other, _ in named)]


def _rarity(term: tuple[str, ...], frequency: Callable[[str], int], total: int) -> float:
    """The idf of the term's rarest token, scaled to 0..1 by the idf of a token in one document."""
    return log(total / max(1, min(frequency(t) for t in term))) / log(max(total, 2))


def _inside(term: tuple[str, ...], other: tuple[str, ...]) -> bool:
    return any(other[at:at + len(term)] == term for at in range(len(other) - len(term) + 1))


# An abbreviation as players type it: capitals, perhaps a plural "s" ("ETB", "SBAs", "MDFC").
_ABBREVIATION = re.compile(r"(?<![\w'’-])([A-Z]{2,6})s?(?![\w'’-])")
_NAME_WORD = lazy(r"[A-Za-z]+")


def initials(names: Iterable[str]) -> dict[str, list[str]]:
    """Each term of two or more words by its initials: "State-Based Actions" is SBA, "Enters the
    Battlefield" ETB, "Modal Double-Faced Cards" MDFC. The rules never abbreviate, players
    always do, and the glossary's own terms are what they abbreviate."""
    out: dict[str, list[str]] = {}
    for name in dict.fromkeys(names):
        words = _NAME_WORD.findall(name)
        if len(words) > 1:
            key = "".join(word[0] for word in words).upper()
            if name.lower() not in (n.lower() for n in out.get(key, [])):
                out.setdefault(key, []).append(name)
    return out


def spell_out(text: str, terms: Callable[[], dict[str, list[str]]], known: Callable[[str], bool]) -> list[tuple[str, str]]:
    """(the abbreviation, the term it stands for) for each abbreviation in `text` that stands for
    one term only and is no word of the documents (`known`): "DS" (double strike or draw step)
    and "AND" stay as typed. `terms` is asked only when the text holds capitals to read."""
    found = []
    for match, bare in dict.fromkeys(m.group(0, 1) for m in _ABBREVIATION.finditer(text)):
        if known(bare.lower()):
            continue
        named = terms().get(bare, [])
        if len(named) == 1:
            found.append((match, named[0].lower()))
    return found
