"""The basic rules a card's text works by, however many cards use them: what a judge cites first
and the common-vocabulary cut (vocabulary.GENERAL) leaves out. Each is found by the rules' own
words, never a table written per card:
- the game's basic quantities and actions, each a chapter of section 1 that the glossary names by
  one word it defines as done ("Draw: To put ...") or had ("an amount of “life”"): the
  chapter's first rule whose words pair the term with the word beside it on the card ("draws a
  card": 121.1 "A player draws a card"; "gain 3 life": 119.3 "gain life");
- the layer (613) that applies what the text does to power and toughness ("gets +1/+1": the layer
  of effects that "modify power") or control ("gain control of": "control-changing effects");
- an effect of a resolving spell or ability that changes a set of objects for a while ("creatures
  you control get +1/+1 until end of turn"): the rule that locks in the set it affects (611.2c);
- the restrictions and requirements of attacking and blocking ("can't block", "attacks each combat
  if able"): the rule of the declaration that checks "effects that say a creature" does that;
- a resolving effect that asks the game for a number ("for each attacking creature", "equal to
  its power", "where X is"): the rule by which "the answer is determined only once" (608.2h); a
  static ability's number is read continuously, so only triggered and activated abilities and
  instants and sorceries say it;
- a delayed triggered ability, which "will contain “when,” “whenever,” or “at,” although that word
  won't usually begin the ability" (603.7): "sacrifice it at the beginning of the next end step",
  and every triggered ability an instant or sorcery creates ("Whenever ... this turn").
"""

from __future__ import annotations

import re
from functools import cache

from rulebase.core.records import number_key
from rulebase.ingest.cards.vocabulary import Vocabulary, is_within
from rulebase.ingest.cards.words import TYPOGRAPHY, as_verb, forms, words_of

PAIR_WITHIN = 3  # words: a term and the word it pairs with, on the card and in the rule
_FUNCTION = frozenset({"a", "an", "the", "of", "to", "that", "this", "it", "its", "x", "or", "and", "each", "any",
                       "up", "one", "two", "three", "four", "five", "six", "seven", "object", "target", "you",
                       "your", "their", "his", "her", "with", "on", "from", "for", "as", "is", "are", "be"})
_ADDS_UP = re.compile(r"\bgets? [+-](?:\d+|x)/[+-](?:\d+|x)\b")
# gaining control, or an Aura's "You control enchanted creature" (Control Magic): both change control
_CONTROL = re.compile(r"\b(?:gains?|exchange|exchanges) control\b|\byou control enchanted\b")
# a set of objects described, not targeted ("all", "each", "other", "creatures you control",
# "attacking creatures"), that an effect changes for a while ("until end of turn") or keeps from
# doing something ("can't block this turn": 611.2c's effects that modify the rules of the game)
_SET = re.compile(r"\b(?:all|each|other|\w+s (?:you|your opponents|an opponent|that player|target player) controls?"
                  r"|(?<!target )(?<!up to one )creatures)"
                  r"\b[^.;\n]{0,40}?\b(?:(?:get|gain|have|lose|become)\b[^.;\n]*\buntil end of turn"
                  r"|can't (?:attack|block)\b[^.;\n]*\bthis turn)\b")
_LATER = re.compile(r"(?<=[^.\n•—:] )(?:at the beginning of (?:the|your|that player's|its owner's|its controller's) "
                    r"next\b[^.;\n]*|at end of turn\b)")  # a trigger word inside an ability: a delayed trigger
# an instant's or sorcery's trigger sentence, unless it is the card's own ("When you cycle this card")
# or a reflexive one ("When you do", 603.12)
_OPENING = re.compile(r"(?:^|(?<=[.\n•—]))\s*(?!when (?:you|they|that player) do)(?:when|whenever|at)\b"
                      r"(?![^\n]*\bthis (?:card|spell)\b)[^,.\n]*", re.M)
_COUNTED = re.compile(r"\b(?:for each|equal to|where x is|the number of)\b")  # information from the game
_RESOLVING = re.compile(r"^\s*(?:(?:when|whenever|at)\b|[^:\"“]*\{[^:\"“]*:|[^:\"“]*\b(?:sacrifice|discard|pay|exile|"
                        r"remove|tap|untap)\b[^:\"“]*:)")  # a trigger, or "[Cost]: [Effect]"
_QUOTED = re.compile(r"[\"“][^\"”]*[\"”]")  # an ability granted in quotation marks is its object's own
_SAY = re.compile(r"effects that say a creature ([a-z' ]+?)(?:,|\)| or )")
_SENTENCE = re.compile(r"[.;\n]")


class Basics:
    """The rules above, read once from the rules in force now."""

    def __init__(self, vocabulary: Vocabulary):
        rules = {n: " ".join(words_of(r.text)) for n, r in vocabulary.rules.items()}
        self.chapters: dict[str, list[tuple[str, list[str]]]] = {}  # term's form -> [(rule, its words)]
        self.nouns: set[str] = set()  # forms of a term whose chapter names a thing, its other sense an action
        self.chapter_of: dict[str, set[str]] = {}  # term's form -> its chapters
        for term, numbers in vocabulary.glossary.items():
            chapter = next((n for n in numbers if re.match(r"^1\d\d$", n)), None)
            if chapter is None or len(words_of(term)) != 1 or not _acted(term, vocabulary.definitions.get(term, "")):
                continue
            inside = sorted((n for n in rules if n != chapter and is_within(n, chapter)), key=number_key)
            noun = not _acted(term, _sense(vocabulary.definitions.get(term, ""), chapter))
            for form in forms(words_of(term)[0]):
                self.chapters.setdefault(form, []).extend((n, rules[n].split()) for n in inside)
                if inside:
                    self.chapter_of.setdefault(form, set()).add(chapter)
                if noun:
                    self.nouns.add(form)
        layer = vocabulary.glossary.get("layer", [])[:1]
        layers = sorted((n for n in rules if layer and is_within(n, layer[0])), key=number_key)
        self.adds_up = next((n for n in layers if "modify power" in rules[n]), None)
        self.control = next((n for n in layers if "control changing effects are applied" in rules[n]), None)
        self.locked = next((n for n, text in rules.items() if "the set of objects it affects is determined" in text), None)
        self.once = next((n for n, text in rules.items() if "the answer is determined only once" in text), None)
        self.delayed = next((n for n, text in rules.items() if "a delayed triggered ability will contain" in text), None)
        self.says: list[tuple[list[str], str]] = []  # ("can't block", 509.1b)
        for number, record in vocabulary.rules.items():
            if number[0] == "5":
                for said in _SAY.findall(record.text.translate(TYPOGRAPHY).lower()):
                    self.says.append((words_of(said), number))

    def of_text(self, text: str, words: list[str], facts: dict, named: list) -> list[tuple[str, str]]:
        """(number, the card's words) for the basic rules its lower-case `text` (`words`) uses;
        `named`: the terms of the rules it names (Vocabulary.named), read once a card."""
        found = self._chapters(words, named, _sentences(text, words))
        found += [(self.adds_up, m.group(0)) for m in _ADDS_UP.finditer(text) if self.adds_up][:1]
        found += [(self.control, m.group(0)) for m in _CONTROL.finditer(text) if self.control][:1]
        if self.locked:
            found += [(self.locked, " ".join(words_of(m.group(0))[:8])) for m in _SET.finditer(text)][:1]
        own = _QUOTED.sub(" ", text)  # (an ability granted in quotation marks: its object's, not this card's)
        spell = bool({"Instant", "Sorcery"} & set(facts.get("types", [])))
        if self.once:
            counted = [m for line in own.split("\n") if spell or _RESOLVING.match(line) for m in _COUNTED.finditer(line)]
            found += [(self.once, m.group(0)) for m in counted][:1]
        if self.delayed:
            later = list(_LATER.finditer(own)) + (list(_OPENING.finditer(own)) if spell else [])
            found += [(self.delayed, " ".join(words_of(m.group(0))[:8])) for m in later][:1]
        for sentence in _SENTENCE.split(text):
            said = words_of(sentence)
            held = set(said)
            for phrase, number in self.says:
                # (a sentence without the phrase's first word says none of it: 0.56 million calls of
                # _in_order for the cards' 35,000 texts, most of them on such sentences)
                if held.isdisjoint(_first_forms(phrase[0])):
                    continue
                span = _in_order(said, phrase)
                if span:
                    found.append((number, " ".join(said[span[0]:span[1]])))
        return found

    def _chapters(self, words: list[str], named: list, sentence: list[int]) -> list[tuple[str, str]]:
        """`sentence`: each word's sentence, whose words alone a link quotes ("Draw a card", not
        "Tap target permanent. Draw a card")."""
        found: list[tuple[str, str]] = []
        done: set[str] = set()
        elsewhere = self._elsewhere(words, named)
        for at, word in enumerate(words):
            rules = self.chapters.get(word)
            if not rules or word in self.nouns and as_verb(words, at, at + 1):  # "counter target spell": 701.6's
                continue
            if at in elsewhere:
                rules = [(number, said) for number, said in rules if _in_order(said, elsewhere[at])]
            near = [w for w in words[max(0, at - PAIR_WITHIN):at] + words[at + 1:at + 1 + PAIR_WITHIN]
                    if w not in _FUNCTION and not w.isdigit() and w != word]
            for number, said in rules:
                if number in done:
                    continue
                if _paired(said, forms(word), [forms(w) for w in near]):
                    done.add(number)
                    start, end = max(0, at - PAIR_WITHIN), at + 1 + PAIR_WITHIN
                    found.append((number, " ".join(w for n, w in enumerate(words[start:end], start)
                                                   if sentence[n] == sentence[at])))
                    break
        return found

    def _elsewhere(self, words: list[str], named: list) -> dict[int, list[str]]:
        """The places of words that modify a longer term the rules define elsewhere, each with
        the term's words as the card says them: "mana" in "mana value" (202.3) or "mana
        abilities" (605), "draw" in "draw step" (504), is that term's word, not the quantity or
        action of section 1, unless a rule of the chapter says the whole term ("starting life
        total": 119.1a). The term's last word is its head and stays ("combat damage" is damage)."""
        places: dict[int, list[str]] = {}
        for term, start, end in named:
            for at in range(start, end - 1):
                if not any(is_within(n, chapter) for chapter in self.chapter_of.get(words[at], ()) for n in term.numbers):
                    places[at] = words[start:end]
        return places


def _sentences(text: str, words: list[str]) -> list[int]:
    """Each of `words` (words_of(text)) numbered by the sentence of `text` it stands in."""
    numbered = [n for n, sentence in enumerate(_SENTENCE.split(text)) for _ in words_of(sentence)]
    return numbered if len(numbered) == len(words) else [0] * len(words)  # (a word split by a stop: one sentence)


def _sense(definition: str, chapter: str) -> str:
    """The sense of a glossary entry that cites the chapter, where it gives several ("Counter: 1. To
    cancel a spell ... See rule 701.6. 2. A marker ... See rule 122."): that sense says whether the
    chapter's term is something done or a thing."""
    senses = re.split(r"(?:^|\n)\s*(?=\d+\.\s)", definition)
    if len(senses) < 2:
        return definition
    return next((one for one in senses if re.search(rf"\brules? {re.escape(chapter)}\b", one)), definition)


def _acted(term: str, definition: str) -> bool:
    """Whether the glossary defines a term as something done or had in play, not a thing of the
    game's vocabulary: a verb ("Draw: 1. To put the top card ...") or a quantity it quotes as its
    own ("Objects can deal “damage” ...", "an amount of “life”"); not "Target", "Spell", "Card"."""
    folded = definition.translate(TYPOGRAPHY)
    # a quotation of the word as a thing of the game, not a note on its usage ('the term "card" is
    # used only to refer to ...': "Card" names a component, and its chapter's rules are about cards
    # as objects, ownership and size, which "draw a card" or "mills X cards" do not use)
    quoted = re.sub(r'\bthe (?:term|word)s? "[^"]*"', "", folded, flags=re.I)
    return bool(re.match(r"^(?:1\.\s+)?To\s", folded) or re.search(rf'"{re.escape(term)}[,.]?"', quoted.lower()))


def _paired(said: list[str], term: frozenset[str], near: list[frozenset[str]]) -> bool:
    """Whether a rule's words hold the term and one of the words near it on the card, within
    PAIR_WITHIN words of each other."""
    places = [at for at, w in enumerate(said) if w in term]
    return any(w in neighbour for at in places for w in said[max(0, at - PAIR_WITHIN):at + 1 + PAIR_WITHIN]
               for neighbour in near)


@cache
def _first_forms(word: str) -> frozenset[str]:
    """The words a phrase may begin with in _in_order: the forms of its first word, and of that
    word less a plural "s"."""
    return forms(word) | (forms(word[:-1]) if word.endswith("s") else frozenset())


def _in_order(said: list[str], phrase: list[str]) -> tuple[int, int] | None:
    """Where the phrase's words stand in order within a few words ("can't attack or block" says
    "can't block"; "attacks each combat if able", "attacks if able")."""
    first = _first_forms(phrase[0])
    for start, word in enumerate(said):
        if word not in first:
            continue
        at = start + 1
        for part in phrase[1:]:
            while at < len(said) and at < start + len(phrase) + 3 and said[at] not in forms(part):
                at += 1
            if at >= len(said) or at >= start + len(phrase) + 3:
                break
            at += 1
        else:
            return start, at
    return None
