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
a searcher reads costs 14 ms (every document's length and days in force; the documents in force
now come from DOCMETA's order of last days: 5.1 -> 2.8 ms of the sizes' part); a word is counted
once per searcher (6 ms for "card"), and a later question of known words costs under 3 ms.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from math import log

from rulebase.core.eras import today
from rulebase.index.schema import in_force_on, tournament_documents
from rulebase.index.tables import LEVELS
from rulebase.index.tables import words as _words

# With no date and no edition, a question in the tournament's words counts the game's texts at
# half, and one in the game's words the tournament's: the section of its own body comes first
# unless one of the other matches the question twice as well. (Both ways: one way only, the IPG's
# Missed Trigger and Hidden Card Error stood in the top 3 of 6 of 46 real game questions.)
OTHER_BODY_FACTOR = 0.5
KEPT = 4096  # words whose counts a searcher keeps


class Register:
    """The tournament documents (every release) and the size of the text in force now of each
    body, read once."""

    def __init__(self, scorer, docmeta: Callable[[], list], lengths: Callable[[], list[int]]):
        # (docmeta: DOCMETA's columns, which say the documents in force now and the tournament's)
        self.scorer, self._docmeta, self._lengths = scorer, docmeta, lengths
        self._sizes: tuple[set[int], set[int], int, int] | None = None
        self._kept: dict[str, tuple[float, float] | None] = {}

    @property
    def tournament(self) -> set[int]:
        """The tournament documents' numbers (every release)."""
        return self._read()[0]

    def _read(self) -> tuple[set[int], set[int], int, int]:
        if self._sizes is None:
            columns = self._docmeta()
            tournament, current = tournament_documents(columns), in_force_on(columns, today())
            lengths = self._lengths()
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

    def body(self, tokens: list[str]) -> str | None:
        """Whose words these are: "tournament" or "game"; None when no word tells."""
        leans = self.leans(tokens)
        return None if leans == float("-inf") else "tournament" if leans > 0 else "game"


# --- The Rules Enforcement Level a question names, and the tournament document that governs it.
#
#
# The IPG applies at Competitive and Professional REL (its introduction says so); at Regular REL
# judges follow the JAR. A question says its level outright ("regular REL forgot to draw") or by
# the event it was at ("at a prerelease I drew an extra card"): which events run at which level is
# the MTR's own Appendix F ("Rules Enforcement Levels of Programs"), read from the release in force,
# not written here. The document that does not apply at that level then counts at half
# (register.OTHER_BODY_FACTOR, for the same reason): the JAR's "a player draws extra cards" comes
# before the IPG's Hidden Card Error for a prerelease.
# (LEVELS, PROGRAMS_TITLE: index/tables.py, which reads Appendix F's table at build time)
# judges' shorthand for the levels ("Reg REL", "Comp REL", "Pro REL"), named only before "REL"
SHORT_LEVELS = {"reg": "Regular", "comp": "Competitive", "pro": "Professional"}
_NAMED_LEVEL = re.compile(rf"\b({'|'.join(LEVELS)})\s+(?:rel|rules\s+enforcement)\b"
                          rf"|\b({'|'.join(SHORT_LEVELS)})\.?\s+rel\b", re.I)
# The document that does not apply at a level: the IPG and DIPG below Competitive, the JAR above.
NOT_AT = {"Regular": ("ipg", "dipg"), "Competitive": ("jar",), "Professional": ("jar",)}
# The document written for a level, whose best answer leads: the JAR ("Judging at Regular REL") at
# Regular, where it stands in for the IPG. At Competitive and Professional the MTR and the IPG both
# apply, and neither is written for one level alone.
LEADS_AT = {"Regular": ("jar",)}


def level_named(question: str, table: dict[str, str]) -> str | None:
    """The one level a question names, by name or by its event's program (the longest name that
    fits: "pro tour qualifier", not "pro tour"); None for none or two. (The words that named it
    stay full evidence: made weak, as capitalised names are, they no longer told the searcher's
    register.py that the question is a tournament's, and the game's rules came first.)"""
    text = f" {_words(question)} "
    named = {m[1].capitalize() if m[1] else SHORT_LEVELS[m[2].lower()] for m in _NAMED_LEVEL.finditer(question)}
    for program in sorted(table, key=len, reverse=True):
        if f" {program} " in text:
            named.add(table[program])
            text = text.replace(f" {program} ", " | ")
    return named.pop() if len(named) == 1 else None


def without_level(question: str, table: dict[str, str]) -> str:
    """The question without the words that name its level ("competitive REL", "at a prerelease",
    "at Friday Night Magic"): they say which document governs, and the document is chosen by
    them (run_search), not what the question is about. Matched on the folded words, so the
    question comes back in its own words otherwise."""
    out = _NAMED_LEVEL.sub(" ", question)
    for program in sorted(table, key=len, reverse=True):
        words = program.split()
        pattern = r"\b" + r"[\W_]+".join(re.escape(w) for w in words) + r"s?\b"
        out = re.sub(pattern, " ", out, flags=re.IGNORECASE)
    return " ".join(out.split())
