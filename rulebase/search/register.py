"""Which body of rules a question is asked in: the game's (the Comprehensive Rules, the
rulebooks) or the tournament's (MTR, IPG, JAR and the digital ones).

The two speak differently: "penalty", "warning", "judge", "decklist", "match" are the tournament
documents' words; "stack", "trigger", "graveyard" the game's. A question is read as a draw from
the text in force now, word by word (multinomial naive Bayes): each word's share of the
tournament text against its share of the game's, the two bodies weighed by their size in words
(the tournament's text is a fifth of the whole, so a question needs words that lean its way). A
word is counted each time a text says it, as the bodies' sizes count it: counted once per
document instead, a common word ("card", "hand", "change") read as the game's, because a
tournament section says it many times and a rule once, and "can I change a card on my decklist
after I've handed it in" read as a game question. The words that say nothing of the body (card
names, a question's light words, words neither holds) are left out.

Measured on the questions of tests/eval (scripts/judged.py; real and dev sets): 39 of the 40
tournament questions read as tournament (34 when words were counted once per document), 1 of the
67 judged game questions (about a constructed deck's minimum, which the MTR answers) and 3 of the
66 real questions' two modes (two of them about winning and losing the game). The first question
a searcher reads costs 14 ms (every document's length and days in force); a word is counted once
per searcher (6 ms for "card"), and a later question of known words costs under 3 ms.
"""

from __future__ import annotations

from collections.abc import Callable
from math import log

from rulebase.core.sources import TOURNAMENT_DOCUMENTS

TOURNAMENT = tuple(TOURNAMENT_DOCUMENTS)
# With no date and no edition, a question in the tournament's words counts the game's texts at
# half: the tournament section comes first unless a
# game rule matches the question twice as well.
OTHER_BODY_FACTOR = 0.5
KEPT = 4096  # words whose counts a searcher keeps


class Register:
    """The tournament documents (every release) and the size of the text in force now of each
    body, read once."""

    def __init__(self, scorer, docmeta: Callable[[], tuple], lengths: Callable[[], list[int]], now: int):
        self.scorer, self._docmeta, self._lengths, self._now = scorer, docmeta, lengths, now
        self._sizes: tuple[set[int], set[int], int, int] | None = None
        self._kept: dict[str, tuple[float, float] | None] = {}

    @property
    def tournament(self) -> set[int]:
        """The tournament documents' numbers (every release)."""
        return self._read()[0]

    def _read(self) -> tuple[set[int], set[int], int, int]:
        if self._sizes is None:
            tournament = self.scorer.docs("source", list(TOURNAMENT))
            _, first, last = self._docmeta()
            lengths = self._lengths()
            current = {d for d in range(len(lengths)) if first[d] <= self._now <= last[d]}
            size_t = sum(lengths[d] for d in current & tournament)
            size_g = sum(lengths[d] for d in current - tournament)
            self._sizes = (tournament, current, size_t, size_g)
        return self._sizes

    def leans(self, tokens: list[str]) -> float:
        """Log-odds that the question's text words (stemmed, as the text field reads them) are
        the tournament's rather than the game's; above 0, the tournament's."""
        tournament, current, size_t, size_g = self._read()
        if not size_t or not size_g:
            return float("-inf")
        odds, read = log(size_t / size_g), False  # the prior: a word of the text is the tournament's this often
        for token in tokens:
            counted = self._counts(token)
            if counted is not None:
                in_t, in_g = counted
                odds += log(((in_t + 0.5) / size_t) / ((in_g + 0.5) / size_g))
                read = True
        return odds if read else float("-inf")  # (no word to read: the prior alone says nothing)

    def _counts(self, token: str) -> tuple[float, float] | None:
        """How often the word occurs in the tournament's text in force now and in the game's;
        None when neither holds it. Read from the index once per word (about 2 ms for "card")."""
        if token not in self._kept:
            tournament, current, _, _ = self._read()
            in_t = in_g = 0.0
            held = False
            for docnum, count in zip(*self.scorer.frequencies("text", token), strict=True):
                if docnum in current:
                    held = True
                    if docnum in tournament:
                        in_t += count
                    else:
                        in_g += count
            if len(self._kept) >= KEPT:
                self._kept.clear()
            self._kept[token] = (in_t, in_g) if held else None
        return self._kept[token]

    def is_tournament(self, tokens: list[str]) -> bool:
        return self.leans(tokens) > 0
