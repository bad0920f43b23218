"""Which body of rules a question is asked in: the game's (the Comprehensive Rules, the
rulebooks) or the tournament's (MTR, IPG, JAR and the digital ones).

The two speak differently: "penalty", "warning", "judge", "decklist", "match" are the tournament
documents' words; "stack", "trigger", "graveyard" the game's. A question is read as a draw from
the text in force now, word by word (multinomial naive Bayes): each word's share of the
tournament text against its share of the game's, the two bodies weighed by their size (the
tournament's text is a fifth of the whole, so a question needs words that lean its way). The
words that say nothing of the body (card names, a question's light words, words neither holds)
are left out. Document frequency stands for term frequency: for rare words they are nearly one,
and for common ones it understates the tournament's long sections, which errs towards the game.

Measured on the questions of tests/eval (scripts/judged.py; real and dev sets): 34 of the 40
tournament questions read as tournament, 3 of the 67 judged game questions (two about
interrupts, one about a constructed deck's minimum, which the MTR answers) and 1 of the 66 real
questions' two modes. The first question a searcher reads costs 14 ms (every document's length
and days in force), each later one under 3 ms.
"""

from __future__ import annotations

from collections.abc import Callable
from math import log

from rulebase.core.sources import TOURNAMENT_DOCUMENTS

TOURNAMENT = tuple(TOURNAMENT_DOCUMENTS)
# With no date and no edition, a question in the tournament's words counts the game's texts at
# half, as ranking.HISTORY_FACTOR counts older texts: the tournament section comes first unless a
# game rule matches the question twice as well.
OTHER_BODY_FACTOR = 0.5


class Register:
    """The tournament documents (every release) and the size of the text in force now of each
    body, read once."""

    def __init__(self, scorer, docmeta: Callable[[], tuple], lengths: Callable[[], list[int]], now: int):
        self.scorer, self._docmeta, self._lengths, self._now = scorer, docmeta, lengths, now
        self._sizes: tuple[set[int], set[int], int, int] | None = None

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
            postings = self.scorer.postings("text", token)
            held = [d for d in (postings.ids if postings else ()) if d in current]
            in_t = sum(1 for d in held if d in tournament)
            in_g = len(held) - in_t
            if held:
                odds += log(((in_t + 0.5) / size_t) / ((in_g + 0.5) / size_g))
                read = True
        return odds if read else float("-inf")  # (no word to read: the prior alone says nothing)

    def is_tournament(self, tokens: list[str]) -> bool:
        return self.leans(tokens) > 0
