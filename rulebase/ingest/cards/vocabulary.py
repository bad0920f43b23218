"""The terms of the rules in force now, each with the rule numbers it names: the keyword actions and
abilities by their headings, the chapters by their titles, the glossary's entries by the rules they
cite, the words the rules quote as theirs, the subtypes the rules give rules of their own, and the
rules' templates (templates.py)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from rulebase.core.records import Record, number_key
from rulebase.ingest.cards.templates import Template, template
from rulebase.ingest.cards.words import TYPOGRAPHY, forms, words_of

# A term in the text of more than this share of all cards is the game's common vocabulary
# ("target" 0.45, "creature" 0.6, "damage" 0.3, "enters" 0.3): it links nothing. Chosen on the odd
# rows of the card set (scripts/cardlinks.py), checked on the even rows.
GENERAL = 0.08
_KEYWORD = re.compile(r"^70[12]\.\d+$")
SUBRULE = re.compile(r"^\d{3}\.\d+[a-z]$")
_CHAPTER = re.compile(r"^\d{3}$")
_QUOTED = re.compile(r"“([a-z][^”\[\]]{0,40})”")
OBJECT_WITHIN = 3  # "loses all other card types": a verb's object is within its next three words
QUOTED_IN = 2  # a quotation in more rules than this is the rules' prose, not a word they define
_SUBTYPE = re.compile(r"subtype “?([A-Z][A-Za-z’'-]+)")
_OBSOLETE = re.compile(r"\((?:obsolete|informal)\)", re.IGNORECASE)
_TEMPLATE = re.compile(r"“([^”]*\[[^”]*)”")
_PLACEHOLDER = re.compile(r"\[[^\]]*\]|\.\s\.\s\.")
_ITS_OBJECT = re.compile(r"“([a-z]+)” that ([a-z]+)")
_PRONOUNS = {"it", "them"}
_QUALIFIERS = {"all", "other", "its", "their", "his", "her", "the", "a", "an", "each", "of", "and", "or", "that",
               "this", "those", "these", "any", "one", "two", "three", "card", "cards"}
_GIVEN = re.compile(r"\babilit(?:y|ies)\s+“[^”]*”")
_SENSE = re.compile(r"(?:^|\n)\s*\d+\.\s+")
_STATUSES = re.compile(r"status is its physical state\b[^:]*:\s*([^.]+)\.", re.I)
_ABILITY_WORDS = re.compile(r"\bThe ability words are ([^.]+)\.")
# a quotation of a word the effect does without ("without using the word “draw”", 121.5)
_WITHOUT_WORD = re.compile(r"\b(?:without|not|n[’']t)\b[^,.;“]*\bthe (?:word|term)s? $")
# a quotation in a rule's aside ("(unless the effect said the object became that color “in
# addition” to its other colors)", 105.3) is of a card's words in the aside's sense only; a keyword's
# rule lists its variants so ("(such as “islandwalk”)"), and those are the keyword's
_ASIDE = re.compile(r"\([^()]*$")
_KEYWORD_RULE = re.compile(r"^70[12]\.")
_GAME_SECTIONS = "1234567"  # 8: multiplayer rules, 9: casual variants, whose quotations reword cards


@dataclass(frozen=True, slots=True)
class Term:
    """A term the rules name: its words (as forms.py reads them) and the rule numbers it names."""

    words: tuple[str, ...]
    numbers: tuple[str, ...]
    origin: str  # keyword, chapter, glossary, word, subtype


class Particular(NamedTuple):
    """Words a subrule quotes in its parent's sense: they link beside the parent's words only, and
    otherwise the rules the subrule points to that say them too."""

    rule: str  # the parent: 701.23 (Search), 614.10 (Skip [something])
    needs: tuple[str, ...]  # its words, one of whose forms each the card must say
    otherwise: list[str]  # 702.83b's "attacks alone" without exalted: 506.5


class Vocabulary:
    """The terms of the rules in force now, and each rule's number, id, title and lineage."""

    def __init__(self, rules: Iterable[Record]):
        self.rules: dict[str, Record] = {}
        glossary: list[Record] = []
        for record in rules:
            if record.kind in ("rule", "chapter") and record.number:
                self.rules.setdefault(record.number, record)
            elif record.kind == "glossary" and record.title:
                glossary.append(record)
        self.terms: list[Term] = []
        self.keywords: dict[str, str] = {}  # heading, lower case -> 701.x/702.x
        self.chapters: dict[str, str] = {}  # title, lower case -> chapter number
        quoted: dict[str, list[str]] = {}
        objects: dict[tuple[str, str], str] = {}  # ("loses", "113.10") -> "ability": 'the object “loses” that ability'
        # A keyword's subrule quoting words that do not spell the keyword quotes them in the
        # keyword's sense (701.23d's "three cards" are searched for; 701.43d's "when you do" follows
        # an exert): words -> the keyword they need beside them, and the rules the subrule points
        # to that say the same words, which they mean without it (702.83b "attacks alone": 506.5).
        # So does a subrule of a rule whose template is one word and placeholders ("“Skip
        # [something]”", 614.10: 614.10a's "next" is the next occurrence of what is skipped).
        self.particular: dict[tuple[str, ...], Particular] = {}
        # A verb the rules quote with its object ("“loses” that ability") is theirs with that object
        # only: "loses flying" removes an ability (113.10), "loses 2 life" does not.
        self.objects: dict[tuple[str, ...], str] = {}
        self.needs: dict[tuple[str, ...], str] = {}  # quoted words -> the action's word a card must say beside them
        self.templates: list[Template] = []
        self.together: dict[str, int] = {}
        self.besides: dict = {}  # (words, rule) -> the action they qualify there  # a rule -> how many groups of its templates a card must match
        one_word: list[tuple[str, Template]] = []  # ("gains", the template "gains [an ability]")
        prose = _prose(self.rules.values())
        for number, record in self.rules.items():
            if number[0] in _GAME_SECTIONS and not _KEYWORD.match(number.rstrip("abcdefghijklmnopqrstuvwxyz")):
                # (an ability the rules give an object, "has the intrinsic ability “{T}: Add [mana
                # symbol]”" (305.6, by its basic land type), is no wording: a card printing it has
                # its own, a mana ability)
                said = _GIVEN.sub("", record.text)
                group = previous = 0
                for match in _TEMPLATE.finditer(said):
                    text = match.group(1)
                    # templates a rule joins by "and" go together (607.2d: "choose a [value]" and an
                    # ability that refers to "the chosen [value]"); those joined by "or" or a comma
                    # are alternatives
                    between = said[previous:match.start()] if previous else ""
                    if re.search(r"\band\b", between) and not re.search(r"\bor\b|\.\s", between):
                        group += 1
                        self.together[number] = group + 1
                    previous = match.end()
                    found = template(text, number, group)
                    if found and not (found.literal and set(words_of(found.literal)) <= prose):  # "only", "may"
                        self.templates.append(found)
                        printed = words_of(_PLACEHOLDER.sub(" ", text))
                        if len(printed) == 1:
                            one_word.append((printed[0], found))
            heading = record.text.strip(" .")
            if _KEYWORD.match(number):
                self.keywords[heading.lower()] = number
                self._add(heading, [number], "keyword")
            elif _CHAPTER.match(number) and record.title:
                self.chapters[record.title.lower()] = number
                self._add(record.title, [number], "chapter")
                first_word, _, rest = record.title.lower().partition(" ")
                if first_word.endswith("ing") and rest:  # "Flipping a Coin": a card's "flip a coin", not 710.1a's "flip"
                    base = first_word[:-3]
                    self._add((base[:-1] if base[-1:] == base[-2:-1] else base) + " " + rest, [number], "chapter")
            for sentence in re.split(r"(?<=[.”])\s+(?=[A-Z])", record.text):
                # a quotation the rules deny ("Neither is “colorless.”") defines nothing; one that
                # qualifies an action ("to cast a spell “if able,”"; abilities "that refer to damage
                # require “another target”") is the rule's beside that action's word only
                if sentence.startswith("For example"):
                    continue  # an illustration quotes a card's words, not the rule's ("odds" or "evens": 705.1)
                opening = sentence.split("“")[0]
                action = re.search(r"\bto (?!(?:be|see|the|a|an)\b)([a-z]+)(?: (?:a|an|the))? [a-z]+ $", opening)
                for match in _QUOTED.finditer(sentence):
                    words = match.group(1).strip(" .,")
                    around = sentence[max(0, match.start() - 12):match.start()] + sentence[match.end():match.end() + 8]
                    if len(words.split()) > 3 or re.search(r"\bneither is\b|^ is not\b", around.lower()) \
                            or _WITHOUT_WORD.search(sentence[:match.start()]) \
                            or not _KEYWORD_RULE.match(number) and _ASIDE.search(sentence[:match.start()]):
                        continue
                    held = quoted.setdefault(words, [])
                    if number not in held:
                        held.append(number)
                    if action:
                        self.besides.setdefault((words, number), action.group(1))
            for verb, noun in _ITS_OBJECT.findall(record.text):
                objects.setdefault((verb, number), noun)
            for subtype in _SUBTYPE.findall(record.text):
                self._add(subtype.strip("’'"), [number], "subtype")
        # A template that is one word and placeholders quotes that word too: of the rules quoting a
        # word either way, the first is its rule, a later one a particular case (611.2e's "gains [an
        # ability]", on a permanent put onto the battlefield with the effect, after 113.10's
        # "gains"; 603.5's "unless" on triggered abilities after 118.12a's "[Do something] unless").
        first: dict[str, str] = {}
        for said, number in [(" ".join(words_of(w)), n) for w, ns in quoted.items() for n in ns] + \
                [(word, shape.number) for word, shape in one_word]:
            if number[0] in _GAME_SECTIONS and (said not in first or number_key(number) < number_key(first[said])):
                first[said] = number
        self.templates = [shape for shape in self.templates
                          if not any(shape is s and first[w] != shape.number for w, s in one_word)]
        headings = {" ".join(words_of(heading)) for heading in self.keywords}
        for words, numbers in quoted.items():  # "can't" (101.2), "until" (610.3), "instead" (614.1a)
            numbers = [n for n in numbers if n[0] in _GAME_SECTIONS]
            said = " ".join(words_of(words))
            if said in headings:
                continue  # a keyword's word is its rule's ("destroy": 701.8); a quote elsewhere uses it
            # The rules go from the general to the particular: the first rule to quote a word is
            # where it is theirs, a later one a particular case ("can't": 101.2, not 614.17d on
            # entering the battlefield; "instead": 614.1a, not 614.8 on regeneration).
            if numbers and len(numbers) <= QUOTED_IN and said and said not in prose and first.get(said) in numbers:
                self._add(words, [first[said]], "word")
                if (words, first[said]) in self.besides:
                    self.needs[tuple(words_of(words))] = self.besides[words, first[said]]
                if (words, first[said]) in objects:
                    self.objects[tuple(words_of(words))] = objects[words, first[said]]
                keyword = _keyword_of(first[said])
                heading = tuple(words_of(self.rules[keyword].text)) if keyword else ()
                if keyword and not _spells(said, list(heading)):
                    self.particular[tuple(words_of(words))] = Particular(
                        keyword, heading, self._saying(self.rules[first[said]], said))
                elif (parent := parent_of(first[said])) and SUBRULE.match(first[said]):
                    term = next((w for w, shape in one_word if shape.number == parent), None)
                    if term and term not in said.split():  # 614.10a's "next" is a skipped step's (614.10)
                        self.particular[tuple(words_of(words))] = Particular(parent, (term,), [])
        self.glossary: dict[str, list[str]] = {}
        self.definitions: dict[str, str] = {}
        self.senses: set[tuple[str, ...]] = set()
        self.nouns: set[tuple[str, ...]] = set()  # of those, the words one sense of which is a thing
        pointing = {g.id: [ref.key for ref in g.refs if ref.kind in ("rule", "section") and ref.key in self.rules]
                    for g in glossary}
        for entry in glossary:
            if _OBSOLETE.search(entry.title):
                continue  # Oracle text never uses an obsolete term
            numbers = pointing[entry.id] or [n for ref in entry.refs if ref.kind == "glossary" and ref.target
                                             for n in pointing.get(ref.target, ())]
            if numbers:
                self.glossary[entry.title.lower()] = numbers
                self.definitions[entry.title.lower()] = entry.text
                self._add(entry.title, numbers, "glossary")
                if re.match(r"^1\.\s", entry.text):  # numbered senses: "1. To cancel a spell... 2. A marker..."
                    self.senses.add(tuple(words_of(entry.title)))
                    if any(not sense.startswith(("To ", "(")) for sense in _SENSE.split(entry.text)[1:]):
                        self.nouns.add(tuple(words_of(entry.title)))  # "Exile: 1. A zone. 2. To put ..."
        # the words of a replacement effect that replaces an event that "would" happen ("Most
        # replacement effects use the word “instead”", 614.1a): without that event, a spell's own
        # condition ("counter that spell instead")
        defining = [f"{n}.1a" for n in self.glossary.get("replacement effect", [])[:1]]
        self.would = {t.words for t in self.terms if t.origin == "word" and t.numbers[0] in defining}
        # first word's form -> (length, the other words' forms, term), longest first
        self.by_first: dict[str, list[tuple[int, tuple[frozenset[str], ...], Term]]] = {}
        for term in self.terms:
            tail = tuple(forms(w) for w in term.words[1:])
            for form in forms(term.words[0]):
                self.by_first.setdefault(form, []).append((len(term.words), tail, term))
        for candidates in self.by_first.values():
            candidates.sort(key=lambda c: -c[0])
        self.titles: dict[str, list[str]] = {}  # a chapter's or glossary entry's words -> numbers
        self.stems: dict[tuple[str, ...], list[str]] = {}
        for table in (self.chapters, self.glossary):
            for title, numbers in table.items():
                numbers = numbers if isinstance(numbers, list) else [numbers]
                self.titles.setdefault(" ".join(words_of(title)), numbers)
                self.stems.setdefault(_stemmed(title), numbers)
        self.initials: dict[str, list[str]] = {}  # "dfc" -> ["double-faced cards"]
        for title in self.glossary:
            self.initials.setdefault("".join(w[0] for w in re.findall(r"[a-z]+", title)), []).append(title)
        self._uses: dict[str, list[tuple[str, str]]] = {}
        self.subtypes: dict[tuple[str, ...], str] = {}
        for term in self.terms:
            if term.origin == "subtype":
                self.subtypes.setdefault(term.words, term.numbers[0])
        # an object's noun -> the chapters it titles and their keywords' names ("ability": 113, 602,
        # ..., 702 Keyword Abilities, and "flying", "first strike", ...), for has_object
        self._kinds: dict[str, tuple[set[str], list[tuple[str, ...]]]] = {}
        for noun in set(self.objects.values()):
            titled = {number for title, number in self.chapters.items() if forms(noun) & set(title.split())}
            self._kinds[noun] = (titled, [tuple(words_of(h)) for h, number in self.keywords.items()
                                          if number.split(".")[0] in titled])
        # a permanent's status values, as the rule that defines status lists them (110.5: "tapped/untapped,
        # flipped/unflipped, face up/face down, and phased in/phased out"): "enters tapped" is a
        # status, not the keyword action tap (701.26)
        self.statuses: set[str] = set()
        self.ability_words: set[str] = set()  # "landfall", "descend 4": no rules meaning (207.2c)
        for record in self.rules.values():
            values = _STATUSES.search(record.text.translate(TYPOGRAPHY))
            if values:
                self.statuses.update(words_of(value)[0] for value in re.split(r"[/,]|\band\b", values.group(1))
                                     if words_of(value))
            listed = _ABILITY_WORDS.search(record.text)
            if listed:
                self.ability_words.update(w.strip().lower().translate(TYPOGRAPHY)
                                          for w in re.split(r",\s*(?:and\s+)?|\s+and\s+", listed.group(1)) if w.strip())

    def uses(self, number: str) -> list[tuple[str, str]]:
        """(term, number) for each term inside a keyword's name that the keyword's own rules use
        on their own: "Open an Attraction" puts a card of the Attraction deck (717), "Venture into
        the Dungeon" moves into a dungeon (309), "Manifest dread" manifests (701.40); "Double
        strike" does not double (701.10)."""
        if number in self._uses:
            return self._uses[number]
        name = words_of(self.rules[number].text)
        body = [w for n, r in self.rules.items() if n.startswith(number) and n[len(number):].isalpha()
                for w in words_of(r.text) + ["|"]]
        found = []
        for size in range(len(name) - 1, 0, -1):
            for at in range(len(name) - size + 1):
                part = tuple(name[at:at + size])
                inside = [t for t in self.terms if t.words == part and t.numbers[0] != number
                          and t.origin in ("keyword", "chapter", "glossary")]
                if inside and _stands_alone(part, name, body):
                    found += [(" ".join(part), n) for n in inside[0].numbers if not on_the_board(n, inside[0])]
        self._uses[number] = found
        return found

    def _saying(self, record: Record, said: str) -> list[str]:
        """The rules `record` points to ("See rule 506.5") whose own words say `said`."""
        return [ref.key for ref in record.refs if ref.kind == "rule" and ref.key in self.rules
                and f" {said} " in " " + " ".join(words_of(self.rules[ref.key].text)) + " "]

    def has_object(self, term: Term, words: list[str], end: int) -> bool:
        """Whether the words after a quoted verb name the object its rule gives it: the noun
        ("loses all abilities"), a pronoun ("convoked it") or a term of a chapter the noun titles
        ("loses flying": 702, Keyword Abilities), within OBJECT_WITHIN words."""
        noun = self.objects.get(term.words)
        if noun is None:
            return True
        after = words[end:end + OBJECT_WITHIN]
        # from the object's first word: what stands before it may only qualify it ("loses all
        # other card types"); "loses 2 life. Undying (... return it ...)" has no ability as its object
        titled, keywords = self._kinds[noun]
        first = next((word for word in after if word not in _QUALIFIERS), None)
        if first is not None and not ((forms(noun) | _PRONOUNS) & {first} or any(k[:1] == (first,) for k in keywords)
                                      or any(n.split(".")[0] in titled for found, _, _ in self.named([first])
                                             for n in found.numbers)):
            return False
        if (forms(noun) | _PRONOUNS) & set(after):
            return True
        return any(tuple(after[at:at + len(k)]) == k for k in keywords for at in range(len(after))) or \
            any(number.split(".")[0] in titled for found, _, _ in self.named(after) for number in found.numbers)

    def drop(self, general: set[tuple[str, ...]]) -> None:
        """Forget the terms whose words are in `general`: they link nothing, and matching them
        was most of the work. A keyword action stays, however many cards take it ("exile",
        "sacrifice", "create": 701.x defines what the card does)."""
        for form, candidates in list(self.by_first.items()):
            kept = [c for c in candidates if c[2].words not in general or self.is_action(c[2])]
            if kept:
                self.by_first[form] = kept
            else:
                del self.by_first[form]

    def is_action(self, term: Term) -> bool:
        """Whether a term is a keyword action's name (701.13 "Exile", 701.21 "Sacrifice")."""
        return term.origin == "keyword" and term.numbers[0].startswith("701.")

    def _add(self, text: str, numbers: list[str], origin: str) -> None:
        words = tuple(words_of(text))
        if words and all(n in self.rules for n in numbers):
            self.terms.append(Term(words, tuple(numbers), origin))

    def named(self, words: list[str]) -> list[tuple[Term, int, int]]:
        """(term, first word, end) for each term standing in `words`, its words in order and
        adjacent, each word in one of its regular forms; a longer term hides a shorter one inside
        it ("split second" is not "split"; "venture into the dungeon" not "dungeon"). Linear in
        the words: 35,000 cards' texts take about a second."""
        found: list[tuple[Term, int, int]] = []
        reach = 0  # the furthest end of a term begun before this word
        size = len(words)
        for at, word in enumerate(words):
            candidates = self.by_first.get(word)
            if not candidates:
                continue
            end_best = 0
            for length, tail, term in candidates:  # longest first
                end = at + length
                if end < end_best:
                    break
                if end > size or length > 1 and not all(w in f for w, f in zip(words[at + 1:end], tail, strict=True)):
                    continue
                if end > reach:
                    found.append((term, at, end))
                end_best = end
            reach = max(reach, end_best)
        return found

    def lookup(self, text: str, stems: bool = False) -> list[str]:
        """The numbers a chapter or glossary title names, matched whole ("Split Cards"); with
        `stems`, each word by its first five letters ("Adventurer Cards" for the layout
        "adventure")."""
        found = self.titles.get(" ".join(words_of(text)))
        if found is None and stems:
            found = self.stems.get(_stemmed(text))
        return found or []

    def link(self, number: str, reason: str) -> dict:
        record = self.rules[number]
        return {"rule": number, "id": record.id, "title": title_of(number, self.rules), "lineage": record.lineage,
                "reason": reason}


def _keyword_of(number: str) -> str | None:
    """The keyword a keyword's subrule belongs to: 701.23d -> 701.23; None for any other rule."""
    parent = parent_of(number)
    return parent if parent and SUBRULE.match(number) and _KEYWORD.match(parent) else None


def _spells(said: str, name: list[str]) -> bool:
    """Whether quoted words spell part of a keyword's name: four letters of it in a row
    ("kicked": Kicker, "islandwalk": Landwalk, "cycles": Cycling), so they name the keyword."""
    letters = said.replace(" ", "")
    return any(word[at:at + 4] in letters for word in name if len(word) >= 4 for at in range(len(word) - 3))


def _stands_alone(part: tuple[str, ...], name: list[str], body: list[str]) -> bool:
    """Whether `part` of a keyword's name stands in its rules' words other than as the name."""
    size = len(part)
    for at in range(len(body) - size + 1):
        if all(w in forms(p) for w, p in zip(body[at:at + size], part, strict=True)):
            start = at - name.index(part[0]) if part[0] in name else at
            if body[max(0, start):max(0, start) + len(name)] != name:
                return True
    return False


def _prose(rules: Iterable[Record]) -> set[str]:
    """The words the rules use in their own prose in more than GENERAL of their rules ("all",
    "may", "put"): quoting one of them defines nothing."""
    counts: Counter = Counter()
    total = 0
    for record in rules:
        total += 1
        counts.update(set(words_of(record.text)))
    return {word for word, count in counts.items() if count > GENERAL * max(1, total)}


def _stemmed(text: str) -> tuple[str, ...]:
    return tuple(w[:5] for w in words_of(text))


def title_of(number: str, rules: dict[str, Record]) -> str:
    """A rule's title: a chapter's or heading rule's own ("Trample"), else its nearest titled
    ancestor's ("614.1a" -> "Replacement Effects")."""
    record = rules[number]
    if record.title:
        return record.title
    if _KEYWORD.match(number):
        return record.text.strip(" .")
    parent = parent_of(number)
    while parent:
        if parent in rules and (rules[parent].title or _KEYWORD.match(parent)):
            return title_of(parent, rules)
        parent = parent_of(parent)
    return ""


def parent_of(number: str) -> str | None:
    if re.match(r"^\d{3}\.\d+[a-z]$", number):
        return number[:-1]
    if "." in number:
        return number.split(".")[0]
    return None


def is_within(number: str, ancestor: str) -> bool:
    """702.19b is within 702.19 and 702; 702.1 is not within 702.19."""
    return number == ancestor or number.startswith(ancestor + ".") or (
        "." in ancestor and number.startswith(ancestor) and number[len(ancestor):].isalpha())


def on_the_board(number: str, term: Term) -> bool:
    """The board and the turn rather than a rule a card works by: the zones (section 4) and the
    turn's steps (section 5) its text names, and a single word naming a whole chapter of the game's
    concepts or a card's parts (sections 1 and 2: "mana", "color", "damage", "token"), but a word
    a rule quotes as its own ("can't", 101.2)."""
    return number[0] in "45" or number[0] in "12" and len(term.words) == 1 and term.origin != "word"


def layout_chapter(layout: str, vocabulary: Vocabulary) -> list[str]:
    """The chapter of the rules for cards of a layout ("flip": 710 Flip Cards; "modal_dfc": 712
    Double-Faced Cards); none for a normal card or a token."""
    if layout in ("normal", "token"):
        return []
    words = layout.replace("_", " ")
    return vocabulary.lookup(words + " cards", stems=True) or vocabulary.lookup(_spelled(words, vocabulary)
                                                                                + " cards", stems=True)


def _spelled(words: str, vocabulary: Vocabulary) -> str:
    """A layout's abbreviation read as the glossary's term it is the initials of ("modal dfc" ->
    "modal double faced cards")."""
    out = []
    for word in words.split():
        expanded = vocabulary.initials.get(word, []) if len(word) > 1 else []
        out.append(expanded[0] if len(expanded) == 1 else word)
    return " ".join(out).removesuffix(" cards")
