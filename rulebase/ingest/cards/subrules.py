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
  ("exile cards until you exile a land card" is no return);
- an effect that makes a land a basic land type ("Nonbasic lands are Mountains", "enchanted land
  is an Island", "target land becomes a Swamp"): the rule of an effect that sets a land's subtype
  (305.7: the land loses its old land types and the abilities of its rules text), the basic land
  types as the rules list them (305.6). Not a condition ("if that land is a Plains").
- a supertype the rules make a permanent "subject to" a state-based action (205.4d: a legendary
  permanent, the legend rule 704.5j): the state-based action, on every permanent of that
  supertype, however many cards bear it;
- a creature's activated ability with the tap or untap symbol in its cost: the creature rule that
  says when it can be activated (302.6, "summoning sickness").
"""

from __future__ import annotations

import re

from rulebase.ingest.cards.vocabulary import Vocabulary, is_within
from rulebase.ingest.cards.words import TYPOGRAPHY, forms, words_of

_MOVES = re.compile(r"\bmove it\b")
_CLAUSE = re.compile(r"[.:;\n•]|, then ")  # a cost is not its effect; "then" begins another
_PHRASE = re.compile(r"[.:;,\n•]")  # a condition ("if that land is a Plains,") ends at its comma
_BASIC_TYPES = re.compile(r"^the basic land types are (.+?)\.")
_CONDITIONS = frozenset({"if", "unless", "whether", "when", "whenever", "where"})
_BECOMES = frozenset({"is", "are", "becomes", "become"})
_SUBJECT_TO = re.compile(r'^any permanent with the supertype "(\w+)" is subject to the state-based action.*?'
                         r"\(see rule (\d{3}\.\d+[a-z]?)\)")
_TAP_COST = re.compile(r"^[^\"“:.\n]{0,120}\{[tq]\}[^\"“:.\n]{0,120}:\s", re.MULTILINE)  # "{1}, {T}: ...", "{Q}: ..."


class Subrules:
    """The subrules above, read once from the rules in force now."""

    def __init__(self, vocabulary: Vocabulary):
        rules = {n: r.text.translate(TYPOGRAPHY) for n, r in vocabulary.rules.items()}
        value = vocabulary.glossary.get("mana value", [])[:1]
        self.value = {n: text.lower() for n, text in rules.items()
                      if value and n != value[0] and is_within(n, value[0])}
        self.defining = _defining(vocabulary, rules)
        self.prohibition = _prohibitions(vocabulary, rules)
        self.moves = {heading for heading, number in vocabulary.keywords.items()
                      if number.startswith("701") and _MOVES.search(rules.get(number + "a", ""))}
        # a game rule (sections 1-7), not a variant's rewording of one
        self.until = [n for n, text in rules.items() if n[0] in "1234567" and 'change zones "until"' in text][:1]
        self.land_type = [n for n, text in rules.items() if "sets a land's subtype" in text][:1]
        listing = next(((n, m[1]) for n, text in rules.items() if (m := _BASIC_TYPES.match(text.lower()))), ("", ""))
        self.basic_rule, listed = listing  # 305.6: the basic land types, and the mana ability each gives
        self.basic = {form for name in re.split(r",\s*(?:and\s+)?|\s+and\s+", listed) if name
                      for form in forms(name)} | {"basic", "every"}  # ("is every basic land type")
        self.subject_to = {m[1]: (m[2], n) for n, text in rules.items() if (m := _SUBJECT_TO.match(text.lower()))}
        creature = vocabulary.glossary.get("creature", [])[:1]
        self.tapping = sorted((n for n, text in rules.items() if creature and is_within(n, creature[0])
                               and "activated ability with the tap symbol" in text), key=len)[:1]

    def of_card(self, facts: dict, text: str) -> list[tuple[str, str]]:
        """(number, reason) for what the card is that a general rule governs: the state-based
        action its supertype makes a permanent subject to (the legend rule), and the rule of a
        creature's abilities with {T} or {Q} in their cost. `text`: the card's lower-case text."""
        found: list[tuple[str, str]] = []
        if not {"Instant", "Sorcery"} & set(facts["types"]):
            for name in facts["supertypes"]:
                held = self.subject_to.get(name.lower())
                if held:
                    found.append((held[0], f"type line: {name} ({held[1]}: subject to the state-based action)"))
        if self.tapping and "Creature" in facts["types"]:
            cost = _TAP_COST.search(text)
            if cost:
                found.append((self.tapping[0], f"activated ability: {cost.group(0).rstrip(': ')}"))
        return found

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
        found: list[tuple[str, str]] = []
        for at, word in enumerate(words):
            if word == "can't":
                found += self._prohibited(words, at)
        if self.until and "until" in words:
            for clause in _CLAUSE.split(text):
                said = words_of(clause)
                if "until" in said:
                    found += self._returned(said, said.index("until"))
        if self.land_type and ("land" in words or "lands" in words):
            for phrase in _PHRASE.split(text):
                found += self._land_typed(words_of(phrase))
        return found

    def _land_typed(self, said: list[str]) -> list[tuple[str, str]]:
        """305.7 for a phrase that makes a land a basic land type: "lands are mountains", "land
        becomes a swamp", "land is every basic land type"; not a condition ("if that land is")."""
        if not said or said[0] in _CONDITIONS:
            return []
        for at, word in enumerate(said):
            subject = said[:at]
            if word not in _BECOMES or not {"land", "lands"} & set(subject) or "token" in subject:
                continue  # (a token created as a Forest has its own type: no effect sets it)
            begin = at + 1 + (said[at + 1:at + 2] in (["a"], ["an"], ["the"]))
            if begin >= len(said) or said[begin] not in self.basic:
                continue
            end = begin + 1
            if said[begin] in ("basic", "every"):  # "the basic land type of your choice"
                if "type" not in said[begin:begin + 4] or "nonbasic" in said[begin:begin + 4]:
                    continue
                end = said.index("type", begin) + 1
            start = max(i for i, w in enumerate(subject) if w in ("land", "lands"))
            return [(self.land_type[0], " ".join(said[start:end]))]
        return []

    def _prohibited(self, words: list[str], at: int) -> list[tuple[str, str]]:
        """The prohibition rules of the actions "can't" at `at` forbids: "can't cast spells or
        activate abilities", "can't be activated"."""
        out = []
        end = at + 1
        while end < len(words):
            action = words[end + 1] if words[end] == "be" and end + 1 < len(words) else words[end]
            end += 1 + (words[end] == "be")
            held = [number for name, number in self.prohibition.items() if action in forms(name)]
            out += [(number, " ".join(words[at:end])) for number in held]
            # "spells or activate": the next verb of the list, past its object
            ahead = next((i for i in range(end, min(end + 4, len(words))) if words[i] in ("or", "and")), None)
            if ahead is None or ahead + 1 >= len(words):
                break
            end = ahead + 1
        return out

    def _returned(self, said: list[str], until: int) -> list[tuple[str, str]]:
        """610.3 for a clause that moves an object "until" an event: not until end of turn (a
        duration), and not repeating the move ("exiles cards until that player has exiled ...")."""
        moved = [at for at, w in enumerate(said[:until]) if any(w in (m, m + "s") for m in self.moves)]
        again = any(w in forms(m) for w in said[until:] for m in self.moves)
        if not moved or again or said[until + 1:until + 4] == ["end", "of", "turn"]:
            return []
        return [(self.until[0], " ".join(said[moved[-1]:until + 1]))]


def _defining(vocabulary: Vocabulary, rules: dict[str, str]) -> list[str]:
    """The characteristic-defining ability's rule (604.3) and the layer rule that applies the
    ones setting power and toughness: a rule of "Layer" (613) citing 604.3 and naming power."""
    cda = vocabulary.glossary.get("characteristic-defining ability", [])[:1]
    layer = vocabulary.glossary.get("layer", [])[:1]
    if not cda:
        return []
    layers = sorted(n for n, text in rules.items() if layer and is_within(n, layer[0]) and n != cda[0]
                    and f"rule {cda[0]}" in text and "power" in text)
    return cda + layers[:1]


def _prohibitions(vocabulary: Vocabulary, rules: dict[str, str]) -> dict[str, str]:
    """An action's word -> the rule of its chapter (a glossary term naming one chapter of section
    6: Cast 601, Activate 602) that says what a prohibition does (601.3, 602.5)."""
    out = {}
    for word, numbers in vocabulary.glossary.items():
        if len(numbers) == 1 and len(words_of(word)) == 1 and re.match(r"^6\d\d$", numbers[0]):
            said = sorted((n for n, text in rules.items() if is_within(n, numbers[0]) and n != numbers[0]
                           and "prohibit" in text), key=len)
            if said:
                out[word] = said[0]
    return out
