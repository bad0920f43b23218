"""The rules each card uses, found through the Comprehensive Rules' own vocabulary, never a table
written per card.

The rules in force now name their terms in four places, and each becomes a term -> rules entry:
- the keyword actions and abilities (701.x, 702.x), by their headings ("702.19. Trample");
- the chapters ("714. Saga Cards", "724. The Monarch", "309. Dungeons");
- the glossary ("Dies ... See rule 700.4", "Mana Value ... See rule 202.3"), an entry that only
  points to another entry taking that entry's rules;
- the rules that say a word or a subtype is theirs ("Effects that use the word “instead” are
  replacement effects", 614.1a; "Some artifacts have the subtype “Equipment.”", 301.5).
A card reaches them through what it is (its keywords, card types, supertypes, subtypes, layout,
the kinds of symbol in its mana cost) and through the words of its text. A word that most cards
use ("target", "creature", "damage") is the game's common vocabulary, not a rule the card works
by: a term in the text of more than GENERAL of all cards links nothing (what the card *is* always
links). Few links, each right: a link names the rule, the words of the card that bring it, and the
rule's lineage (its number on another day).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from rulebase.core.records import Record, number_key
from rulebase.ingest.cards.mana import kinds as symbol_kinds
from rulebase.ingest.cards.names import face_names

# A term of the text in more than this share of all cards is the game's common vocabulary
# ("target" 0.45, "creature" 0.6, "damage" 0.3, "enters" 0.3): it links nothing. Chosen on half of
# the card set (scripts/cardlinks.py), checked on the other half.
GENERAL = 0.08
SAMPLE = 5
_KEYWORD = re.compile(r"^70[12]\.\d+$")
_CHAPTER = re.compile(r"^\d{3}$")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_QUOTED = re.compile(r"“([a-z][^”\[\]]{0,40})”")
QUOTED_IN = 2  # a quotation in more rules than this is the rules' prose, not a word they define
_SUBTYPE = re.compile(r"subtype “?([A-Z][A-Za-z’'-]+)")
_OBSOLETE = re.compile(r"\((?:obsolete|informal)\)", re.IGNORECASE)
_TEMPLATE = re.compile(r"“([^”]*\[[^”]*)”")
_PLACEHOLDER = re.compile(r"\[[^\]]*\]")
_GAME_SECTIONS = "1234567"  # 8: multiplayer rules, 9: casual variants, whose quotations reword cards
_REMINDER = re.compile(r"\([^()]*\)")
_TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "—", "−": "-"})


@dataclass(frozen=True, slots=True)
class Template:
    """A way of writing card text that a rule gives ("When/Whenever/At [trigger event], if
    [condition], [effect].", 603.4): its bracketed parts match any words."""

    pattern: re.Pattern
    number: str
    literal: str  # words every match holds (a cheap test before the pattern)

    def finds(self, text: str) -> str | None:
        """The words of `text` the template matches, or None."""
        if self.literal and self.literal not in text:
            return None
        found = self.pattern.search(text)
        return found.group(0).strip(" ,.") if found else None


def template(text: str, number: str) -> Template | None:
    """The template as a pattern over a card's sentence (its own name read as "this object"), or
    None when it is all placeholders (the shape of every activated ability: no rule of its own).
    Placeholders at either end are dropped: "[This creature's] power and toughness are each equal
    to . . ." is found wherever its words stand."""
    folded = text.translate(_TYPOGRAPHY).lower().strip(" ,.")
    folded = re.sub(r"^(?:\[[^\]]*\]\s*)+|(?:\s*\[[^\]]*\]\.?)+$|(?:\s*\.\s\.\s\.\s*\.?)+$", "", folded).strip(" ,.")
    literals = [piece.strip(" ,.") for piece in re.split(r"\[[^\]]*\]|\.\s\.\s\.|/", folded)]
    literal = max(literals, key=len, default="")
    if len(re.sub(r"[^a-z]", "", literal)) < 3:
        return None
    parts = []
    for piece in re.split(r"(\[[^\]]*\]|\s*\.\s\.\s\.\s*|/)", folded):
        if not piece:
            continue
        if piece.startswith("["):
            parts.append(r"[^.]{1,80}?")
        elif piece.strip().startswith(". ."):
            parts.append(r"[^\n]*")
        elif piece == "/":
            parts.append("|")
        else:
            parts.append(re.escape(piece.strip(" ,.")) if piece.strip(" ,.") else r"\s*")
    body = "".join(parts)
    body = re.sub(r"((?:[\w' ]+\|)+[\w' ]+)", lambda m: "(?:" + m.group(1) + ")", body)  # when|whenever|at
    try:
        return Template(re.compile(r"(?<![a-z])" + body), number, literal if "|" not in body else "")
    except re.error:
        return None


@dataclass(frozen=True, slots=True)
class Term:
    """A term the rules name: its words (as forms.py reads them) and the rule numbers it names."""

    words: tuple[str, ...]
    numbers: tuple[str, ...]
    origin: str  # keyword, chapter, glossary, word, subtype


def words_of(text: str) -> list[str]:
    """Lower-case words, apostrophes kept inside a word ("can't"), quotes and dashes folded."""
    return _WORD.findall(text.translate(_TYPOGRAPHY).lower())


@cache
def forms(word: str) -> frozenset[str]:
    """The regular inflections of a term's word as the rules write it: "explore" explores,
    explored, exploring; "dungeons" dungeon; "dies" itself (not "die", a die to roll)."""
    out = {word, word + "s", word + "es", word + "ed", word + "d", word + "ing"}
    if word.endswith("e"):
        out |= {word[:-1] + "ing", word[:-1] + "ed"}
    if word.endswith("y"):
        out |= {word[:-1] + "ies", word[:-1] + "ied"}
    if word.endswith("ies"):  # "abilities": ability; "dies" is no plural of "die"
        out.add(word[:-3] + "y")
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        out.add(word[:-1])
    return frozenset(out)


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
        self.templates: list[Template] = []
        prose = _prose(self.rules.values())
        for number, record in self.rules.items():
            if number[0] in _GAME_SECTIONS and not _KEYWORD.match(number.rstrip("abcdefghijklmnopqrstuvwxyz")):
                for text in _TEMPLATE.findall(record.text):
                    found = template(text, number)
                    if found and not (found.literal and set(words_of(found.literal)) <= prose):  # "only", "may"
                        self.templates.append(found)
            heading = record.text.strip(" .")
            if _KEYWORD.match(number):
                self.keywords[heading.lower()] = number
                self._add(heading, [number], "keyword")
            elif _CHAPTER.match(number) and record.title:
                self.chapters[record.title.lower()] = number
                self._add(record.title, [number], "chapter")
            for words in dict.fromkeys(q.strip(" .,") for q in _QUOTED.findall(record.text)):
                if len(words.split()) <= 3:
                    quoted.setdefault(words, []).append(number)
            for subtype in _SUBTYPE.findall(record.text):
                self._add(subtype.strip("’'"), [number], "subtype")
        for words, numbers in quoted.items():  # "can't" (101.2), "until" (610.3), "instead" (614.1a)
            numbers = [n for n in numbers if n[0] in _GAME_SECTIONS]
            if numbers and len(numbers) <= QUOTED_IN and words_of(words) and " ".join(words_of(words)) not in prose:
                self._add(words, numbers, "word")
        self.glossary: dict[str, list[str]] = {}
        self.senses: set[tuple[str, ...]] = set()
        pointing = {g.id: [ref.key for ref in g.refs if ref.kind in ("rule", "section") and ref.key in self.rules]
                    for g in glossary}
        for entry in glossary:
            if _OBSOLETE.search(entry.title):
                continue  # Oracle text never uses an obsolete term
            numbers = pointing[entry.id] or [n for ref in entry.refs if ref.kind == "glossary" and ref.target
                                             for n in pointing.get(ref.target, ())]
            if numbers:
                self.glossary[entry.title.lower()] = numbers
                self._add(entry.title, numbers, "glossary")
                if re.match(r"^1\.\s", entry.text):  # numbered senses: "1. To cancel a spell... 2. A marker..."
                    self.senses.add(tuple(words_of(entry.title)))
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
                    found += [(" ".join(part), n) for n in inside[0].numbers if not _board(n, inside[0])]
        self._uses[number] = found
        return found

    def drop(self, general: set[tuple[str, ...]]) -> None:
        """Forget the terms whose words are in `general`: they link nothing, and matching them
        was most of the work."""
        for form, candidates in list(self.by_first.items()):
            kept = [c for c in candidates if c[2].words not in general]
            if kept:
                self.by_first[form] = kept
            else:
                del self.by_first[form]

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
    parent = _parent(number)
    while parent:
        if parent in rules and (rules[parent].title or _KEYWORD.match(parent)):
            return title_of(parent, rules)
        parent = _parent(parent)
    return ""


def _parent(number: str) -> str | None:
    if re.match(r"^\d{3}\.\d+[a-z]$", number):
        return number[:-1]
    if "." in number:
        return number.split(".")[0]
    return None


def is_within(number: str, ancestor: str) -> bool:
    """702.19b is within 702.19 and 702; 702.1 is not within 702.19."""
    return number == ancestor or number.startswith(ancestor + ".") or (
        "." in ancestor and number.startswith(ancestor) and number[len(ancestor):].isalpha())


def link_cards(cards: list[Record], rules: Iterable[Record]) -> Counter:
    """Give every card its links (card["links"]) to the rules in force now (`rules`: their rule,
    chapter and glossary records); returns how many cards use each rule number. About 10 s of
    CPU for 35,000 cards."""
    vocabulary = Vocabulary(rules)
    texts = {card.id: _own_text(card) for card in cards}
    words = {card_id: words_of(text) for card_id, text in texts.items()}
    templates = Templates(vocabulary.templates)
    share: Counter = Counter()  # measured on every SAMPLE-th card: within a few tenths of a percent
    sample = [card.id for card in cards[::SAMPLE]]
    for card_id in sample:
        share.update({term.words for term, _, _ in vocabulary.named(words[card_id])})
        share.update({id(shape) for shape, _ in templates.found(texts[card_id], words[card_id])})
    most = GENERAL * max(1, len(sample))
    vocabulary.drop({key for key, count in share.items() if count > most and isinstance(key, tuple)})
    limit = GENERAL * max(1, len(cards))
    borne = Counter(name for card in cards for name in {*card.card["types"], *card.card["supertypes"]})
    common = {name for name, count in borne.items() if count > limit}  # creature, artifact...: no rules of their own
    common_words = {form for name in common for form in forms(name.lower())}
    templates = Templates([shape for shape in vocabulary.templates if share[id(shape)] <= most
                           and not (shape.literal and set(words_of(shape.literal)) <= common_words)])
    categories = _categories(vocabulary)
    used: Counter = Counter()
    for card in cards:
        found = _what_it_is(card, vocabulary, common) + _abilities(card, texts[card.id], vocabulary, categories)
        found += _what_it_says(words[card.id], vocabulary, common_words)
        found += [(shape.number, match) for shape, match in templates.found(texts[card.id], words[card.id])]
        spans = _spans(card.text)
        card.card["links"] = [vocabulary.link(number, "; ".join(_as_printed(why, card.text, spans) for why in reasons))
                              for number, reasons in _fewest(found, vocabulary)]
        used.update(link["rule"] for link in card.card["links"])
    for card in cards:  # how many cards share each rule: a rule most cards use says little of one
        for link in card.card["links"]:
            link["cards"] = used[link["rule"]]
    return used


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
        out = []
        held = set(words)
        for shape in self.open + [s for word in held & self.by_word.keys() for s in self.by_word[word]]:
            match = shape.finds(text)
            if match:
                out.append((shape, match))
        return out


def _categories(vocabulary: Vocabulary) -> dict[str, str]:
    """Each kind of ability (113.3) -> the chapter of the rules that handles it, read from the
    glossary ("Triggered Ability ... See rule 603")."""
    out = {}
    for kind in ("triggered", "activated", "static", "mana", "loyalty"):
        numbers = [n for n in vocabulary.glossary.get(f"{kind} ability", []) if n[0] == "6"]
        if numbers:
            out[kind] = numbers[0]
    return out


_TRIGGER = re.compile(r"^(?:when|whenever|at)\b")
_ACTIVATED = re.compile(r"^[^\"“:.]{1,120}:\s")
_LOYALTY = re.compile(r"^[+−-]?(?:\d+|x):\s")
_CHAPTER_LINE = re.compile(r"^[ivx]+(?:, [ivx]+)*\s*—")


def _abilities(card: Record, text: str, vocabulary: Vocabulary, categories: dict[str, str]) -> list[tuple[str, str]]:
    """(number, reason) for the kind of each of the card's abilities, as 113.3 sorts them: an
    ability that begins "When", "Whenever" or "At" is triggered (603); "[Cost]: [Effect]" is
    activated (602), a loyalty ability's cost a number (606), one that adds mana a mana ability
    (605); any other line of a permanent's text is static (604); a keyword's kind is what its rule
    says it is ("Persist is a triggered ability")."""
    facts = card.card
    keywords = {k.lower() for k in facts["keywords"]}
    permanent = not {"Instant", "Sorcery"} & set(facts["types"])
    found: list[tuple[str, str]] = []
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        pieces = [p.strip() for p in re.split(r"[,;]", line)]
        if any(re.match(re.escape(k) + r"(?:$|[\s,;—{(0-9x])", line) for k in keywords) and (
                len(pieces) == 1 or all(any(piece.startswith(k) for k in keywords) for piece in pieces)
                or re.match(r"^[a-z' ]+(?:—|\s\{|\s\d)", line)):
            for keyword in keywords:
                number = vocabulary.keywords.get(keyword)
                rule = vocabulary.rules.get(number + "a") if number else None
                said = re.search(r"is an? (triggered|activated) ability", rule.text) if rule else None
                if said and said.group(1) in categories and any(p.startswith(keyword) for p in pieces):
                    found.append((categories[said.group(1)], f"{keyword}: {said.group(0)}"))
            continue
        head = " ".join(line.split()[:8]).rstrip(",:")
        if _TRIGGER.match(line) or _CHAPTER_LINE.match(line):
            kind = "triggered"
        elif _LOYALTY.match(line):
            kind = "loyalty"
        elif _ACTIVATED.match(line):
            effect = line.split(":", 1)[1]
            kind = "mana" if re.search(r"\badd\b", effect) and "target" not in effect else "activated"
        elif permanent:
            kind = "static"
        else:
            continue
        if kind in categories:
            found.append((categories[kind], f"{kind} ability: {head}"))
    return found


def own_names(card: Record) -> set[str]:
    """The names a card's text calls itself by: its name, its faces', and a legendary card's
    short name ("Uro" for Uro, Titan of Nature's Wrath; "Acererak" for Acererak the Archlich)."""
    names = {card.title or "", *card.aliases, *face_names(card.title or "")}
    if "Legendary" in card.card["supertypes"]:
        for name in list(names):
            short = re.split(r",| the | of ", name)[0].strip()
            if short and short != name:
                names.add(short)
    return {name for name in names if name}


def _own_text(card: Record) -> str:
    """The card's text as the rules' templates are read against: lower case, typography folded,
    reminder text out (the keyword's rule covers it), its own names read as "this object" (a
    card named "Monarch's Ring" does not name the monarch)."""
    text = _REMINDER.sub(" ", card.text)
    for name in sorted(own_names(card), key=len, reverse=True):
        if name:
            text = text.replace(name, "this object")
    return "\n".join(" ".join(line.split()) for line in text.translate(_TYPOGRAPHY).lower().split("\n"))


def _what_it_is(card: Record, vocabulary: Vocabulary, common: set[str]) -> list[tuple[str, str]]:
    """(number, reason) for the card's keywords, card types and supertypes but the `common` ones
    (borne by more than GENERAL of all cards), subtypes with rules of their own, layout and kinds
    of mana symbol."""
    facts = card.card
    found: list[tuple[str, str]] = []
    for keyword in facts["keywords"]:
        number = vocabulary.keywords.get(keyword.lower())
        if number:
            found.append((number, f"keyword: {keyword}"))
            found += [(n, f"keyword: {keyword} ({part})") for part, n in vocabulary.uses(number)]
    for kind in ("types", "supertypes"):
        for name in facts[kind]:
            if name in common:
                continue
            numbers = vocabulary.lookup(name) or vocabulary.lookup(name + "s")
            found += [(n, f"type line: {name}") for n in numbers[:1]]
    for subtype in facts["subtypes"]:
        held = vocabulary.subtypes.get(tuple(words_of(subtype)))
        numbers = [held] if held else vocabulary.lookup(subtype + " cards")
        found += [(n, f"type line: {subtype}") for n in numbers[:1]]
    layout = facts["layout"]
    if layout not in ("normal", "token"):
        words = layout.replace("_", " ")
        numbers = vocabulary.lookup(words + " cards", stems=True) or vocabulary.lookup(_spelled(words, vocabulary)
                                                                                       + " cards", stems=True)
        found += [(n, f"layout: {layout}") for n in numbers[:1]]
    for kind in symbol_kinds(facts["mana_cost"]):
        numbers = vocabulary.lookup(kind) or vocabulary.lookup(f"{kind} mana symbol") \
            or vocabulary.lookup(f"{kind} mana symbols")
        found += [(n, f"mana cost: {facts['mana_cost']}") for n in numbers[:1]]
    return found


def _spelled(words: str, vocabulary: Vocabulary) -> str:
    """A layout's abbreviation read as the glossary's term it is the initials of ("modal dfc" ->
    "modal double faced cards")."""
    out = []
    for word in words.split():
        expanded = vocabulary.initials.get(word, []) if len(word) > 1 else []
        out.append(expanded[0] if len(expanded) == 1 else word)
    return " ".join(out).removesuffix(" cards")


def _what_it_says(words: list[str], vocabulary: Vocabulary, common: set[str]) -> list[tuple[str, str]]:
    """(number, the words) for each term of the rules the text names; a common card type's name
    ("artifact", "creatures") is the game's vocabulary, as on the type line."""
    found = []
    for term, at, end in vocabulary.named(words):
        if all(word in common for word in words[at:end]):
            continue
        if term.origin == "glossary" and term.words in vocabulary.senses:
            continue  # "Counter": 1. to cancel a spell, 2. a marker; the words alone don't say which
        for number in term.numbers:
            if _board(number, term):
                continue
            found.append((number, " ".join(words[at:end])))
    return found


def _board(number: str, term: Term) -> bool:
    """The board and the turn rather than a rule a card works by: the zones (section 4) and the
    turn's steps (section 5) its text names, and a single word naming a whole chapter of the game's
    concepts or a card's parts (sections 1 and 2: "mana", "color", "damage", "token"), but a word
    a rule quotes as its own ("can't", 101.2)."""
    return number[0] in "45" or number[0] in "12" and len(term.words) == 1 and term.origin != "word"


AMBIGUOUS = 2  # words that bring more rules than this (after siblings join their parent) say too little


def _fewest(found: list[tuple[str, str]], vocabulary: Vocabulary) -> list[tuple[str, list[str]]]:
    """(number, reasons) for each rule to link: rules brought by the same words that share a
    parent are that parent (508.3a, 508.3d for "whenever ... attacks": 508.3); none to a rule
    whose subrule is linked for the same words; no link from words that bring more than AMBIGUOUS
    rules ("unless": 118.12a, 603.5, 731.6); in rule-number order."""
    by_reason: dict[str, list[str]] = {}
    for number, reason in found:
        by_reason.setdefault(reason, []).append(number)
    by_rule: dict[str, list[str]] = {}
    for reason, numbers in by_reason.items():
        numbers = list(dict.fromkeys(numbers))
        if len(numbers) > 1:
            parents = Counter(_parent(n) for n in numbers if _SUBRULE.match(n))
            for parent, count in parents.items():
                if count > 1 and parent in vocabulary.rules:
                    numbers = [n for n in numbers if _parent(n) != parent] + [parent]
            numbers = [n for n in numbers if not any(o != n and is_within(o, n) for o in numbers)]
            if len(numbers) > AMBIGUOUS and not reason.startswith(_FACTS):
                continue
        for number in numbers:
            held = by_rule.setdefault(number, [])
            if reason not in held:
                held.append(reason)
    return sorted(by_rule.items(), key=lambda item: number_key(item[0]))


_SUBRULE = re.compile(r"^\d{3}\.\d+[a-z]$")
_FACTS = ("keyword:", "type line:", "layout:", "mana cost:")
REASON_WORDS = 10  # a reason quotes at most this many of the card's words


def _as_printed(reason: str, text: str, spans: dict[str, list[tuple[int, list]]]) -> str:
    """A reason's words as the card prints them ("Nonbasic lands", not "nonbasic lands"; "this
    object" is the card's own name), at most REASON_WORDS of them. `spans`: _spans(text)."""
    if reason.startswith(_FACTS):
        return reason
    label, colon, words = reason.partition(": ") if reason.startswith(_ABILITY_KINDS) else ("", "", reason)
    wanted = [w for w in words_of(words) if w not in ("this", "object")][:REASON_WORDS]
    for at, tokens in spans.get(wanted[0], ()) if wanted else ():
        if [w for w, _, _ in tokens[at:at + len(wanted)]] == wanted:
            words = text[tokens[at][1]:tokens[at + len(wanted) - 1][2]]
            break
    return f"{label}{colon}{words}" if colon else words


def _spans(text: str) -> dict[str, list[tuple[int, list]]]:
    """The text's words with their places, by word: (index, all tokens) for each occurrence."""
    folded = text.translate(_TYPOGRAPHY).lower()
    if len(folded) != len(text):  # a character whose lower case is longer: read as printed
        return {}
    tokens = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(folded)]
    out: dict[str, list[tuple[int, list]]] = {}
    for at, (word, _, _) in enumerate(tokens):
        out.setdefault(word, []).append((at, tokens))
    return out


_ABILITY_KINDS = ("triggered ability:", "activated ability:", "static ability:", "mana ability:", "loyalty ability:")
