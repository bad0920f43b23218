"""The Rules Enforcement Level a question names, and the tournament document that governs it.

The IPG applies at Competitive and Professional REL (its introduction says so); at Regular REL
judges follow the JAR. A question says its level outright ("regular REL forgot to draw") or by
the event it was at ("at a prerelease I drew an extra card"): which events run at which level is
the MTR's own Appendix F ("Rules Enforcement Levels of Programs"), read from the release in force,
not written here. The document that does not apply at that level then counts at half
(register.OTHER_BODY_FACTOR, for the same reason): the JAR's "a player draws extra cards" comes
before the IPG's Hidden Card Error for a prerelease.
"""

from __future__ import annotations

import re

from rulebase.core.eras import today
from rulebase.core.records import fold_accents as fold
from rulebase.index.versions import in_force

LEVELS = ("Regular", "Competitive", "Professional")
PROGRAMS_TITLE = ("rules enforcement levels of programs",)  # the title of MTR Appendix F
# a row: the program, then its level, a footnote's star and a parenthesis ("(Competitive recommended)")
_ROW = re.compile(rf"(.+?)\s*\*?\s+({'|'.join(LEVELS)})\*?(?:\s*\([^)]*\))?(?=\s|$)")
_NAMED_LEVEL = re.compile(rf"\b({'|'.join(LEVELS)})\s+(?:rel|rules\s+enforcement)\b", re.I)
# The document that does not apply at a level: the IPG and DIPG below Competitive, the JAR above.
NOT_AT = {"Regular": ("ipg", "dipg"), "Competitive": ("jar",), "Professional": ("jar",)}


def programs(text: str) -> dict[str, str]:
    """Appendix F's table as {folded program name: level}; the chart's heading row and its
    footnotes are not programs."""
    body = " ".join(text.split())
    body = body.split("Program Rules Enforcement Level", 1)[-1]  # (the chart's heading row)
    found = {}
    for match in _ROW.finditer(body):
        name = _words(match[1])
        if 0 < len(name.split()) <= 6:
            found[name] = match[2]
    return found


def level_named(question: str, table: dict[str, str]) -> str | None:
    """The one level a question names, by name or by its event's program (the longest name that
    fits: "pro tour qualifier", not "pro tour"); None for none or two. (The words that named it
    stay full evidence: made weak, as capitalised names are, they no longer told the searcher's
    register.py that the question is a tournament's, and the game's rules came first.)"""
    text = f" {_words(question)} "
    named = {m[1].capitalize() for m in _NAMED_LEVEL.finditer(question)}
    for program in sorted(table, key=len, reverse=True):
        if f" {program} " in text:
            named.add(table[program])
            text = text.replace(f" {program} ", " | ")
    return named.pop() if len(named) == 1 else None


def _words(text: str) -> str:
    return " ".join(re.findall(r"[\w'’]+", fold(text).lower()))


def current_programs(store) -> dict[str, str]:
    """The table of the MTR release in force today ({} in an index without the MTR)."""
    current = in_force(store, [r for r in store.titled("mtr", list(PROGRAMS_TITLE)) if r.span], today())
    return programs(current[-1].text) if current else {}
