"""The ways of writing card text the rules give as templates, bracketed parts and all ("When/Whenever/At
[trigger event], if [condition], [effect].", 603.4), read as patterns over a card's text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulebase.ingest.cards.words import TYPOGRAPHY, words_of

_PLACEHOLDER = re.compile(r"\[[^\]]*\]")
_ANY = r"[^.]{1,80}?"  # a placeholder: any words of one sentence
_CONDITION = re.compile(r"(?:^|(?<=[.\n•—]))\s*(?:when|whenever|at)\b[^,.\n]*", re.M)  # up to its comma


@dataclass(frozen=True, slots=True)
class Template:
    """A way of writing card text that a rule gives ("When/Whenever/At [trigger event], if
    [condition], [effect].", 603.4): its bracketed parts match any words."""

    pattern: re.Pattern
    number: str
    literal: str  # words every match holds (a cheap test before the pattern)
    own: bool = False  # written of the object itself ("When [this object] enters"): the card's own ability
    group: int = 0  # of a rule quoting templates that go together ("choose a [value]" and "the chosen [value]")
    said: bool = False  # a statement of the object's own ("[This permanent] enters . . ."), no trigger condition

    def finds(self, text: str) -> str | None:
        """The words of `text` the template matches, or None."""
        if self.literal and self.literal not in text:
            return None
        found = self.pattern.search(text)
        return found.group(0).strip(" ,.") if found else None


def _rule(shape: Template) -> str:
    return shape.number.split(".")[0]


def template(text: str, number: str, group: int = 0) -> Template | None:
    """The template as a pattern over a card's sentence (its own name read as "this object"), or
    None when it is all placeholders (the shape of every activated ability: no rule of its own).
    Placeholders at either end are dropped: "[This creature's] power and toughness are each equal
    to . . ." is found wherever its words stand. It matches whole words ("gains life" is not in
    "gains lifelink")."""
    folded = text.translate(TYPOGRAPHY).lower().strip(" ,.")
    while (bare := re.sub(r"^(?:\[[^\]]*\]\s*)+|(?:\s*\[[^\]]*\]\.?)+$|(?:\s*\.\s\.\s\.\s*\.?)+$", "",
                          folded).strip(" ,.")) != folded:  # ("if [condition], [effect]": both)
        folded = bare
    literals = [piece.strip(" ,.") for piece in re.split(r"\[[^\]]*\]|\.\s\.\s\.|/", folded)]
    literal = max(literals, key=len, default="")
    if len(re.sub(r"[^a-z]", "", literal)) < 3:
        return None
    parts = []
    for piece in re.split(r"(\[[^\]]*\]|\s*\.\s\.\s\.\s*|/)", folded):
        if not piece:
            continue
        if piece.startswith("["):
            if parts and parts[-1][-1:].isalpha():  # a word before a placeholder ends there ("at", not "attacks")
                parts.append(r"(?![a-z])")
            parts.append(_ANY)
        elif piece.strip().startswith(". ."):
            parts.append(r"[^\n]*")
        elif piece == "/":
            parts.append("|")
        elif piece.strip(" ,."):
            words = piece.strip(" .")  # (", if": its comma too)
            guard = r"(?<![a-z])" if parts and parts[-1] == _ANY and words[0].isalpha() else ""
            parts.append(guard + re.escape(words))
        else:
            parts.append(r"\s*")
    body = "".join(parts)
    body = re.sub(r"((?:[\w' ]+\|)+[\w' ]+)", lambda m: "(?:" + m.group(1) + ")", body)  # when|whenever|at
    try:
        return Template(re.compile(r"(?<![a-z])" + body + r"(?![a-z])"), number, literal if "|" not in body else "",
                        text.lower().lstrip().startswith(("[this ", "when [this ")), group,
                        text.lower().lstrip("“ ").startswith("[this "))
    except re.error:
        return None


class Templates:
    """The templates, each tried only on a text holding the first word of the words it must hold
    (a set lookup), then by its own pattern."""

    def __init__(self, shapes: list[Template]):
        self.open = [s for s in shapes if not s.literal or not words_of(s.literal)]
        self.by_word: dict[str, list[Template]] = {}
        for shape in shapes:
            first = words_of(shape.literal)[:1]
            if first:
                self.by_word.setdefault(first[0], []).append(shape)

    def found(self, text: str, words: list[str]) -> list[tuple[Template, str]]:
        """(template, the words it matches) for each template `text` holds, in the order of their
        first words in it: the same on every run (a set's order changes with the hash seed). A
        statement of what the object itself does ("[This permanent] enters . . .", 614.1d: a
        replacement effect) is not looked for in a trigger condition ("When this creature enters,
        ..." is a triggered ability, 603.6a); other templates are ("Whenever you tap a land for
        mana": 106.12's "tap [a permanent] for mana"; "a spell that targets", 115.9b); of two of one
        rule whose matches hold one another, the longer."""
        out = []
        stated = _CONDITION.sub(lambda m: " " * len(m.group(0)), text)
        firsts = [word for word in dict.fromkeys(words) if word in self.by_word]
        for shape in self.open + [s for word in firsts for s in self.by_word[word]]:
            match = shape.finds(stated if shape.said else text)
            if match:
                out.append((shape, match))
        # a template whose words another template of the same rule matches, and says more, yields
        # to it: "As this creature enters, ..." is 614.1c's "As [this permanent] enters", not
        # 614.1d's "[This permanent] enters" as well; "blocks or becomes blocked by a creature" is
        # 509.3d's, not 509.3a's "blocks" too. Another rule's words stay ("whenever this creature
        # attacks, if": 603.4's intervening "if" and 508.3's attack trigger)
        return [(shape, match) for shape, match in out
                if not any(match in longer and len(longer) > len(match) and _rule(other) == _rule(shape)
                           for other, longer in out)]
