"""The rules each card uses, found through the Comprehensive Rules' own vocabulary, never a table
written per card.

The rules in force now name their terms in four places, and each becomes a term -> rules entry:
- the keyword actions and abilities (701.x, 702.x), by their headings ("702.19. Trample");
- the chapters ("714. Saga Cards", "724. The Monarch", "309. Dungeons");
- the glossary ("Dies ... See rule 700.4", "Mana Value ... See rule 202.3"), an entry that only
  points to another entry taking that entry's rules;
- the rules that say a word or a subtype is theirs ("Effects that use the word “instead” are
  replacement effects", 614.1a; "Some artifacts have the subtype “Equipment.”", 301.5); of two
  rules quoting a word, the first (the rules go from the general to the particular: "can't" is
  101.2's, not 614.17d's), and a keyword's own word is the keyword's ("destroy": 701.8).
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

from rulebase.core.cardnames import face_names
from rulebase.core.records import Record, number_key
from rulebase.ingest.cards.basics import Basics
from rulebase.ingest.cards.mana import kinds as symbol_kinds
from rulebase.ingest.cards.subrules import Subrules
from rulebase.ingest.cards.templates import Templates
from rulebase.ingest.cards.vocabulary import (
    GENERAL,
    SUBRULE,
    Vocabulary,
    is_within,
    layout_chapter,
    on_the_board,
    parent_of,
)
from rulebase.ingest.cards.words import TYPOGRAPHY, WORD, as_verb, forms, words_of

SAMPLE = 5
MIN_PART = 5_000  # cards: fewer per worker and one process is faster than forking
_REMINDER = re.compile(r"\([^()]*\)")


def link_cards(cards: list[Record], rules: Iterable[Record], workers: int = 1) -> Counter:
    """Give every card its links (card["links"]) to the rules in force now (`rules`: their rule,
    chapter and glossary records); returns how many cards use each rule number. About 10 s of
    CPU for 35,000 cards, on up to `workers` processes."""
    # lazy: only a build that links the cards again forks for it
    from rulebase.core.pool import map_inherited

    vocabulary = Vocabulary(rules)
    templates = Templates(vocabulary.templates)
    share: Counter = Counter()  # measured on every SAMPLE-th card: within a few tenths of a percent
    sample = cards[::SAMPLE]
    for card in sample:
        text = _own_text(card)
        words = words_of(text)
        share.update({term.words for term, _, _ in vocabulary.named(words)})
        share.update({id(shape) for shape, _ in templates.found(text, words)})
    most = GENERAL * max(1, len(sample))
    vocabulary.drop({key for key, count in share.items() if count > most and isinstance(key, tuple)})
    limit = GENERAL * max(1, len(cards))
    borne = Counter(name for card in cards for name in {*card.card["types"], *card.card["supertypes"]})
    common = {name for name, count in borne.items() if count > limit}  # creature, artifact...: no rules of their own
    common_words = {form for name in common for form in forms(name.lower())}
    templates = Templates([shape for shape in vocabulary.templates if (share[id(shape)] <= most or shape.own)
                           and not (shape.literal and set(words_of(shape.literal)) <= common_words)])
    # a word a layout's rules quote that another chapter titles too is theirs on a card of that
    # layout only: 710.1a's "flip" is a flip card's; any other card flips a coin (705 Flipping a
    # Coin). (A word no other chapter titles stays: "unlock a locked door" is a Room's, 709.5.)
    layouts = {layout: layout_chapter(layout, vocabulary)[:1] for layout in {card.card["layout"] for card in cards}}
    titled = [(form, term.numbers[0]) for term in vocabulary.terms if term.origin == "chapter"
              for word in term.words for form in forms(word)]  # ("Flipping a Coin" says "flip a coin")
    other_titles = {chapter: frozenset(form for form, number in titled if number != chapter)
                    for chapters in layouts.values() for chapter in chapters}
    foreign = {layout: [(chapter, other_titles[chapter]) for other, chapters in layouts.items() if other != layout
                        for chapter in chapters] for layout in layouts}
    categories = _categories(vocabulary)
    subrules = Subrules(vocabulary)
    basics = Basics(vocabulary)
    replacement = vocabulary.chapters.get("replacement effects")

    def links(card: Record) -> list[dict]:
        printed = Printed(card.text, own_names(card))  # (the card read once: _own_text's text is its `read`)
        text = printed.read
        words = words_of(text)
        found = _what_it_is(card, vocabulary, common, subrules)
        found += _abilities(card, text, vocabulary, categories, subrules)
        named = vocabulary.named(words)
        found += _what_it_says(words, named, vocabulary, common_words, _keywords(card, vocabulary),
                               (categories.get("triggered"), _trigger_events(text, vocabulary.ability_words)),
                               foreign[card.card["layout"]])
        found += subrules.in_text(words, text)
        found += subrules.of_card(card.card, text)
        shaped = _replacing(_together(templates.found(text, words), vocabulary.together), found, replacement)
        found += shaped
        found += basics.of_text(text, words, card.card, named)
        return [vocabulary.link(number, "; ".join(said_once([printed.quote(why) for why in reasons])))
                for number, reasons in _fewest(found, vocabulary, set(shaped))]

    for card, found in zip(cards, map_inherited(links, cards, workers, MIN_PART), strict=True):
        card.card["links"] = found
    used = Counter(link["rule"] for card in cards for link in card.card["links"])
    for card in cards:  # how many cards share each rule: a rule most cards use says little of one
        for link in card.card["links"]:
            link["cards"] = used[link["rule"]]
    return used


def _replacing(shaped: list[tuple[str, str]], found: list[tuple[str, str]],
               chapter: str | None) -> list[tuple[str, str]]:
    """`shaped` without a template of what replacement effects do (the chapter's rules after its
    first, 614.1) whose words another chapter's template has too, on a card whose text is no
    replacement effect as that first rule defines one (614.1a-e: "instead", "enters with",
    "skip"...): "exiled with [this object]" is then 406.6's (the exiled cards of linked abilities),
    not 614.14's (cards a replacement effect exiled)."""
    if chapter is None:
        return shaped
    first = f"{chapter}.1"
    if any(is_within(n, first) for n, _ in [*found, *shaped]):
        return shaped
    elsewhere = {w for n, w in shaped if not is_within(n, chapter)}
    return [(n, w) for n, w in shaped if not (is_within(n, chapter) and w in elsewhere)]


def _together(matched: list, together: dict[str, int]) -> list[tuple[str, str]]:
    """(number, the words) for the templates a card's text matches; of a rule whose templates go
    together (607.2d: "choose a [value]" and "the chosen [value]" are linked abilities), only when
    the text matches one of each group."""
    groups: dict[str, set[int]] = {}
    for shape, _ in matched:
        groups.setdefault(shape.number, set()).add(shape.group)
    return [(shape.number, words) for shape, words in matched
            if len(groups[shape.number]) >= together.get(shape.number, 1)]


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
_DEFINES = re.compile(r"\b(?:power|toughness) (?:is|are|are each) equal to\b")  # as 208.2a words it
_ACTIVATED = re.compile(r"^[^\"“:.]{1,120}:\s")
_LOYALTY = re.compile(r"^\[?[+−-]?(?:\d+|x)\]?:\s")  # "[+1]: ", "[−3]: ", as Oracle prints them; "+1: " too
_CHAPTER_LINE = re.compile(r"^[ivx]+(?:, [ivx]+)*\s*—")


def _abilities(card: Record, text: str, vocabulary: Vocabulary, categories: dict[str, str],
               subrules: Subrules) -> list[tuple[str, str]]:
    """(number, reason) for the kind of each of the card's abilities, as 113.3 sorts them: an
    ability that begins "When", "Whenever" or "At" is triggered (603); "[Cost]: [Effect]" is
    activated (602), a loyalty ability's cost a number ("[+1]", as Oracle prints it: 606), one that
    adds mana a mana ability (605); any other line of a permanent's text is static (604), or characteristic-defining (604.3,
    and its layer) when, as 208.2a words it, it says a power or toughness the card prints as "*"
    "is equal to" something; a keyword's kind is what its rule says it is ("Persist is a triggered
    ability")."""
    facts = card.card
    starred = "*" in f"{facts.get('power') or ''}{facts.get('toughness') or ''}"
    keywords = {k.lower(): k for k in facts["keywords"]}  # as the text reads them -> as the card lists them
    permanent = not {"Instant", "Sorcery"} & set(facts["types"])
    found: list[tuple[str, str]] = []
    for line in text.split("\n"):
        line = _without_ability_word(line.strip(), vocabulary.ability_words)
        if not line or line.startswith("•"):  # a mode: part of the spell or ability above it (700.2)
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
                    found.append((categories[said.group(1)], f"keyword: {keywords[keyword]} ({rule.number}: "
                                                            f"{said.group(0)})"))
            continue
        head = " ".join(line.split()[:8]).rstrip(",:")
        if _TRIGGER.match(line) or _CHAPTER_LINE.match(line):
            kind = "triggered"
        elif _LOYALTY.match(line):
            kind = "loyalty"
        elif _ACTIVATED.match(line):
            effect = line.split(":", 1)[1]
            kind = "mana" if re.search(r"\badd\b", effect) and "target" not in effect else "activated"
        elif permanent and starred and subrules.defining and _DEFINES.search(line):
            found += [(n, f"characteristic-defining ability: {head}") for n in subrules.defining]
            continue
        elif permanent:
            kind = "static"
        else:
            continue
        if kind in categories:
            found.append((categories[kind], f"{kind} ability: {head}"))
    return found


def _without_ability_word(line: str, ability_words: set[str]) -> str:
    """A line without the ability word it opens with ("landfall — whenever a land ..."): ability
    words have no rules meaning (207.2c), the ability after the dash is what the rules read."""
    head, dash, rest = line.partition("—")
    return rest.strip() if dash and head.strip() in ability_words else line


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
    return _lines(_as_read(card.text, own_names(card))[0].translate(TYPOGRAPHY).lower())


def _lines(folded: str) -> str:
    return "\n".join(" ".join(line.split()) for line in folded.split("\n"))


def _what_it_is(card: Record, vocabulary: Vocabulary, common: set[str], subrules: Subrules) -> list[tuple[str, str]]:
    """(number, reason) for the card's keywords, card types and supertypes but the `common` ones
    (borne by more than GENERAL of all cards), subtypes with rules of their own (a basic land type:
    the rule giving its mana ability), layout and kinds of mana symbol, each of these two with the
    subrule that counts its mana value."""
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
            found += [(n, f"type line: {name} (a casual variant's card)") for n in _variant(numbers[:1], vocabulary)]
    for subtype in facts["subtypes"]:
        held = vocabulary.subtypes.get(tuple(words_of(subtype)))
        numbers = [held] if held else vocabulary.lookup(subtype + " cards")
        if not numbers and subrules.basic_rule and subtype.lower() in subrules.basic:
            numbers = [subrules.basic_rule]  # a basic land type: its intrinsic mana ability (305.6)
        found += [(n, f"type line: {subtype}") for n in numbers[:1]]
    layout = facts["layout"]
    numbers = layout_chapter(layout, vocabulary)
    value = subrules.of_layout(numbers[0]) if numbers else []
    found += [(n, f"layout: {layout}") for n in numbers[:1] + value]
    costed = symbol_kinds(facts["mana_cost"])
    for kind in costed:
        numbers = _symbol_rule(kind, vocabulary)
        found += [(n, f"mana cost: {facts['mana_cost']}") for n in numbers[:1] + subrules.of_cost(kind)]
    for kind in symbol_kinds(card.text):  # costs in the text ("Cycling {U/B}"): the symbol's rule only
        if kind != "X" and kind not in costed:  # (X in the text: its own words, 107.3)
            found += [(n, f"mana symbol: {kind}") for n in _symbol_rule(kind, vocabulary)[:1]]
    return found


def _symbol_rule(kind: str, vocabulary: Vocabulary) -> list[str]:
    return vocabulary.lookup(kind) or vocabulary.lookup(f"{kind} mana symbol") or vocabulary.lookup(f"{kind} mana symbols")


def _variant(numbers: list[str], vocabulary: Vocabulary) -> list[str]:
    """The casual variant a card type is seen in only, as the type's first rule says: "Only the
    Archenemy casual variant uses scheme cards. See rule 904" (314.1): a rule of section 9."""
    first = vocabulary.rules.get(f"{numbers[0]}.1") if numbers else None
    if first is None or "casual variant" not in first.text:
        return []
    return [ref.key for ref in first.refs if ref.kind == "rule" and ref.key[:1] == "9" and ref.key in vocabulary.rules][:1]


def _keywords(card: Record, vocabulary: Vocabulary) -> set:
    """The card's keywords, as their rules' numbers and as their own words ("choose a background")."""
    keywords = card.card["keywords"]
    return {vocabulary.keywords.get(k.lower()) for k in keywords} | {tuple(words_of(k)) for k in keywords}


def _trigger_events(text: str, ability_words: set[str]) -> set[int]:
    """The places (in words_of(text)) of the words naming a triggered ability's trigger event: from
    its "When", "Whenever" or "At" (after an ability word) to its first comma."""
    places: set[int] = set()
    at = 0
    for line in text.split("\n"):
        size = len(words_of(line))
        read = _without_ability_word(line.strip(), ability_words)
        if _TRIGGER.match(read):
            start = at + size - len(words_of(read))
            places.update(range(start, start + len(words_of(read.split(",")[0]))))
        at += size
    return places


def _what_it_says(words: list[str], named: list, vocabulary: Vocabulary, common: set[str],
                  keywords: set = frozenset(), events: tuple[str | None, set[int]] = (None, set()),
                  other_layouts: Iterable[tuple[str, frozenset[str]]] = ()) -> list[tuple[str, str]]:
    """(number, the words) for each term of the rules the text names (`named`: Vocabulary.named of
    its `words`); a common card type's name ("artifact", "creatures") is the game's vocabulary, as
    on the type line; words a keyword's
    subrule quotes in its sense only beside that keyword (the card's `keywords` or its text); the
    words of the rules of triggered abilities (`events`: their chapter, and where the card's trigger
    events are) only in a trigger event ("becomes blocked", not "its life total becomes 1": 603.2e);
    not the words the rules of `other_layouts` (their chapters, each with the words other
    chapters' titles say) quote in another chapter's words."""
    found = []
    triggered, places = events
    said = set(words)
    for term, at, end in named:
        if all(word in common for word in words[at:end]):
            continue
        if term.origin == "glossary" and term.words in vocabulary.senses:
            continue  # "Counter": 1. to cancel a spell, 2. a marker; the words alone don't say which
        if vocabulary.is_action(term) and term.words in vocabulary.nouns and not as_verb(words, at, end):
            continue  # the action's word as the thing ("from exile", "a +1/+1 counter")
        numbers = term.numbers
        if words[at] in vocabulary.statuses and (at == 0 or words[at - 1] not in ("become", "becomes")):
            # a status ("enters tapped", "untapped lands": 110.5), not the keyword action that
            # changes it; "tap target creature" and "becomes tapped" are the action
            numbers = tuple(n for n in numbers if not n.startswith("701."))
            if not numbers:
                continue
        particular = vocabulary.particular.get(term.words) if term.origin == "word" else None
        if particular and particular.rule not in keywords and term.words not in keywords \
                and not all(forms(w) & said for w in particular.needs):
            numbers = particular.otherwise  # "draw three cards" is no search (701.23d), "next turn" no skip (614.10a)
        if term.origin == "word" and not vocabulary.has_object(term, words, end):
            continue
        needed = vocabulary.needs.get(term.words)
        if needed and not forms(needed) & set(words[max(0, at - NEAR):end + NEAR]):
            continue  # "if able" qualifies casting (118.8c), "another target" damage (115.4)
        if term.origin == "word" and any(is_within(term.numbers[0], chapter) and set(term.words) & titled
                                         for chapter, titled in other_layouts):
            continue
        if term.words in vocabulary.would and "would" not in words[max(0, at - 2 * NEAR):at]:
            continue  # "instead" with no event that would happen: a spell's own condition, no replacement
        if triggered and at not in places and all(n != triggered and is_within(n, triggered) for n in term.numbers):
            continue
        for number in numbers:
            if number in term.numbers and on_the_board(number, term):
                continue
            found.append((number, " ".join(words[at:end])))
    return found


NEAR = 12  # words: what a quoted word needs beside it is within this many words

AMBIGUOUS = 2  # words that bring more rules than this (after siblings join their parent) say too little


def _fewest(found: list[tuple[str, str]], vocabulary: Vocabulary,
            shaped: set[tuple[str, str]] = frozenset()) -> list[tuple[str, list[str]]]:
    """(number, reasons) for each rule to link: rules brought by the same words that share a
    parent are that parent (508.3a, 508.3d for "whenever ... attacks": 508.3); none to a rule
    whose subrule is linked for the same words; no link from words that bring more than AMBIGUOUS
    rules ("unless": 118.12a, 603.5, 731.6), unless the rules whose template the words match
    (`shaped`: "[This permanent] enters with . . .", 614.1c and 603.6d) are few enough: they are
    the words' own, a rule quoting them in passing (707.5's "such as “enters with”") is not; in
    rule-number order."""
    by_reason: dict[str, list[str]] = {}
    for number, reason in found:
        by_reason.setdefault(reason, []).append(number)
    by_rule: dict[str, list[str]] = {}
    for reason, numbers in by_reason.items():
        numbers = list(dict.fromkeys(numbers))
        if len(numbers) > 1:
            parents = Counter(parent_of(n) for n in numbers if SUBRULE.match(n))
            for parent, count in parents.items():
                if count > 1 and parent in vocabulary.rules:
                    numbers = [n for n in numbers if parent_of(n) != parent] + [parent]
            numbers = [n for n in numbers if not any(o != n and is_within(o, n) for o in numbers)]
            if len(numbers) > AMBIGUOUS and not reason.startswith(_FACTS):
                own = [n for n in numbers if (n, reason) in shaped]
                if not own or len(own) > AMBIGUOUS:
                    continue
                numbers = own
        for number in numbers:
            held = by_rule.setdefault(number, [])
            if reason not in held:
                held.append(reason)
    return sorted(by_rule.items(), key=lambda item: number_key(item[0]))


_FACTS = ("keyword:", "type line:", "layout:", "mana cost:", "mana symbol:")


def said_once(reasons: list[str]) -> list[str]:
    """A link's reasons, each said once: the card's words that only repeat a fact's ("keyword:
    First strike; First strike") are left out, the fact kept."""
    facts = {reason.partition(": ")[2].lower() for reason in reasons if reason.startswith(_FACTS)}
    out: list[str] = []
    for reason in reasons:
        if reason not in out and (reason.startswith(_FACTS) or reason.lower() not in facts):
            out.append(reason)
    return out
REASON_WORDS = 10  # a reason quotes at most this many of the card's words
SELF = "this object"  # a card's own name, as the linker reads its text


class Printed:
    """A card's text as printed, for quoting the words a link's reason read in _own_text: its
    own names there read as "this object", here as printed ("Tarmogoyf's power", not "this
    object's power"). `read`: the text as _own_text reads it, from the same reading."""

    def __init__(self, text: str, names: set[str]) -> None:
        self.text = text
        shown, starts, ends = _as_read(text, names)
        folded = shown.translate(TYPOGRAPHY).lower()
        self.read = _lines(folded)
        self.tokens: list[tuple[str, int, int]] = []  # (word, start, end in the printed text)
        if len(folded) == len(shown):  # (a character whose lower case is longer: reasons read as found)
            self.tokens = [(m.group(0), starts[m.start()], ends[m.end() - 1]) for m in WORD.finditer(folded)]
        self.at: dict[str, list[int]] = {}
        for n, (word, _, _) in enumerate(self.tokens):
            self.at.setdefault(word, []).append(n)

    def quote(self, reason: str) -> str:
        """A reason's words as the card prints them ("Nonbasic lands", not "nonbasic lands"; the
        card's name, not "this object"), at most REASON_WORDS of them."""
        label, words = quoted(reason)
        wanted = words_of(words)[:REASON_WORDS]
        for n in self.at.get(wanted[0], ()) if wanted else ():
            if [w for w, _, _ in self.tokens[n:n + len(wanted)]] == wanted:
                return label + self._whole(self.tokens[n][1], self.tokens[n + len(wanted) - 1][2])
        return reason

    def _whole(self, start: int, end: int) -> str:
        """The printed text from `start` to `end`, its mana and tap symbols whole: the words
        are read inside the braces, so "{2}{R}: ..." would be quoted from its "2}"."""
        text = self.text
        for opening, closing in ("{}", "[]"):  # a mana symbol, a loyalty cost ("[+1]: ...")
            if text.rfind(opening, 0, start + 1) > text.rfind(closing, 0, start):  # begins inside a symbol
                start = text.rfind(opening, 0, start + 1)
            if text.rfind(opening, 0, end) > text.rfind(closing, 0, end) and text.find(closing, end) >= 0:
                end = text.find(closing, end) + 1  # ends inside one
        return text[start:end]


def quoted(reason: str) -> tuple[str, str]:
    """A link's reason as (its label, the card's words it quotes): ("triggered ability: ", "When
    Uro enters, ..."), ("", "instead"); a fact quotes nothing ("keyword: Trample", "")."""
    if reason.startswith(_FACTS):
        return reason, ""
    if reason.startswith(_ABILITY_KINDS):
        label, _, words = reason.partition(": ")
        return label + ": ", words
    return "", reason


def _as_read(text: str, names: set[str]) -> tuple[str, list[int], list[int]]:
    """The card's text as _own_text reads it (reminder text out, its own names, the longest
    first, read as SELF), each character mapped to the printed span it stands for (Printed)."""
    shown, starts, ends = text, list(range(len(text))), list(range(1, len(text) + 1))
    shown, starts, ends = _substitute(shown, starts, ends, [m.span() for m in _REMINDER.finditer(shown)], " ")
    for name in _longest_first(names):
        places, at = [], 0
        while (found := shown.find(name, at)) >= 0:
            places.append((found, found + len(name)))
            at = found + len(name)
        shown, starts, ends = _substitute(shown, starts, ends, places, SELF)
    return shown, starts, ends


def _substitute(shown: str, starts: list[int], ends: list[int], places: list[tuple[int, int]],
                new: str) -> tuple[str, list[int], list[int]]:
    """`shown` with each (start, end) of `places` (in order, apart) replaced by `new`, whose
    characters stand for the whole printed span of what they replace."""
    pieces, starts_out, ends_out, at = [], [], [], 0
    for start, end in places:
        pieces.append(shown[at:start] + new)
        starts_out += starts[at:start] + [starts[start]] * len(new)
        ends_out += ends[at:start] + [ends[end - 1]] * len(new)
        at = end
    return "".join(pieces) + shown[at:], starts_out + starts[at:], ends_out + ends[at:]


def _longest_first(names: set[str]) -> list[str]:
    return sorted((name for name in names if name), key=len, reverse=True)


_ABILITY_KINDS = ("characteristic-defining ability:", "triggered ability:", "activated ability:",
                  "static ability:", "mana ability:", "loyalty ability:")
