"""The subrules that say how a general rule applies to what a card is or says, found by what the
subrules themselves name:
- how its mana value is counted (202.3's subrules: {X} 202.3e, a hybrid symbol 202.3f, a
  Phyrexian symbol 202.3g, a split card 202.3d, "See rule 709");
- a characteristic-defining ability that sets its power or toughness (a "*" in its power/toughness
  box, 208.2a): the rule of such abilities (604.3) and the layer that applies them (613.4a, which
  cites 604.3 and names power);
- a prohibition ("can't cast", "can't be activated"): the rule of the action's own chapter that
  says what a prohibition does (601.3, 602.5);
- a zone change "until" an event (610.3: "change zones “until” a specified event"): "until" is in
  a tenth of all cards' text ("gets +1/+1 until end of turn"), and governs only where the clause
  moves an object, by the keyword actions whose rule says they move it (destroy, discard, exile),
  not until end of turn (the duration of a continuous effect, 611.2a), and not repeating the move
  ("exile cards until you exile a land card" is no return).
"""

from __future__ import annotations

import re

from rulebase.ingest.cards.vocabulary import Vocabulary, is_within
from rulebase.ingest.cards.words import forms, words_of

_MOVES = re.compile(r"\bmove it\b")
_CLAUSE = re.compile(r"[.:;\n•]|, then ")  # a cost is not its effect; "then" begins another


class Subrules:
    """The subrules above, read once from the rules in force now."""

    def __init__(self, vocabulary: Vocabulary):
        rules = vocabulary.rules
        value = vocabulary.glossary.get("mana value", [])[:1]
        self.value = {n: rules[n].text.translate(_FOLD).lower() for n in rules
                      if value and n != value[0] and is_within(n, value[0])}
        cda = vocabulary.glossary.get("characteristic-defining ability", [])[:1]
        layer = vocabulary.glossary.get("layer", [])[:1]
        layers = [n for n in rules if cda and layer and is_within(n, layer[0]) and f"rule {cda[0]}" in rules[n].text
                  and "power" in rules[n].text and n != cda[0]]
        self.defining = cda + sorted(layers)[:1] if cda else []
        self.prohibition: dict[str, str] = {}  # an action's word -> its chapter's rule on prohibitions
        for word, numbers in vocabulary.glossary.items():
            if len(numbers) == 1 and len(words_of(word)) == 1 and re.match(r"^6\d\d$", numbers[0]):
                said = sorted((n for n in rules if is_within(n, numbers[0]) and n != numbers[0]
                               and "prohibit" in rules[n].text), key=len)
                if said:
                    self.prohibition[word] = said[0]
        self.moves = {form for heading, number in vocabulary.keywords.items() if number.startswith("701")
                      and _MOVES.search(rules[number + "a"].text if number + "a" in rules else "")
                      for form in (heading, heading + "s")}  # "exile", "exiles"; not "the exiled cards"
        self.until = [n for n in rules if n[0] in "1234567" and "change zones “until”" in rules[n].text][:1]

    def of_cost(self, kind: str) -> list[str]:
        """The mana value subrule for a kind of symbol (mana.kinds: X, hybrid, Phyrexian, snow)."""
        named = "{x}" if kind == "X" else f"{kind.lower()} mana symbol"
        return [n for n, text in self.value.items() if named in text][:1]

    def of_layout(self, chapter: str) -> list[str]:
        """The mana value subrule for the cards a chapter of the rules is about ("See rule 709")."""
        return [n for n, text in self.value.items() if re.search(rf"\brule {re.escape(chapter)}\b", text)][:1]

    def in_text(self, words: list[str], text: str) -> list[tuple[str, str]]:
        """(number, the card's words) for the prohibitions and the zone changes "until" its
        lower-case `text` (`words`: its words) holds."""
        found = []
        for at, word in enumerate(words[:-1]):
            if word == "can't":
                action = words[at + 2] if words[at + 1] == "be" and at + 2 < len(words) else words[at + 1]
                for name, number in self.prohibition.items():
                    if action in forms(name):
                        found.append((number, " ".join(words[at:words.index(action, at) + 1])))
        if self.until and "until" in words:
            for clause in _CLAUSE.split(text):
                said = words_of(clause)
                if "until" not in said:
                    continue
                until = said.index("until")
                moved = [at for at, w in enumerate(said[:until]) if w in self.moves]
                if moved and not self.moves & set(said[until:]) and said[until + 1:until + 4] != ["end", "of", "turn"]:  # "exile cards until you exile a land" repeats
                    found.append((self.until[0], " ".join(said[moved[-1]:until + 1])))
        return found


_FOLD = str.maketrans({"’": "'"})
