"""A term's history in the index: whether the rules in force now use it, or only older texts do.

A question with no date is answered from today's rules first (ranking.rerank), unless
it uses a term of older rules ("mana burn", "interrupt", "fast effect"); and a capitalised word
today's rules hardly use is a card name, weak evidence. Both are counts over the postings of
the documents still in force (DOCMETA's last day open), asked of the index here rather than of
the question's wording (question.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from rulebase.core.eras import today
from rulebase.core.records import fold_accents as fold
from rulebase.core.value import Frozen
from rulebase.index.scorer import Clause, Scorer

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from rulebase.index.tables import Tables

RARE_NOW = 3  # a word the rules in force now "hardly" use is in at most this many of their documents
OLD_TERM_MIN = 5  # a word in this many documents, almost none in force now, asks about older rules
OLD_PAIR_WORDS = 4  # a query of at most this many words is read for a two-word term of older rules
OLD_PAIR_MIN = 20  # ... which older rules say this often


class TermHistory:
    """Counts of a searcher's terms in the documents in force now, and the current glossary's
    words and obsolete terms, each read once (from the index's tables, the first time it is asked)."""

    def __init__(self, scorer: Scorer, docmeta: Callable[[], tuple], tables: Callable[[], Tables],
                 tokens: Callable[[str, str], list[str]]):
        self.scorer, self._docmeta, self._tables, self._tokens = scorer, docmeta, tables, tokens
        self._obsolete: list[str] | None = None
        self._renames: list[Rename] | None = None
        self._glossary_words: set[str] | None = None

    def current_count(self, field: str, token: str, enough: int) -> int:
        """How many documents in force now hold the term, counted up to `enough`."""
        _, first, last = self._docmeta()
        postings = self.scorer.postings(field, token)
        count, now = 0, today()
        for docnum in postings.ids if postings else ():
            if first[docnum] <= now <= last[docnum]:
                count += 1
                if count >= enough:
                    break
        return count

    def rare_now(self, terms: set) -> bool:
        """Whether the rules in force now hardly use a word (a card name, not a rules term)."""
        return all(self.current_count(f, t, RARE_NOW + 1) <= RARE_NOW for f, t in terms if f in ("title", "text"))

    def asks_old(self, words: list[str], word_terms: list[set], in_older_words: bool = False,
                 spoken: list[str] = ()) -> bool:
        """Whether a question uses a term of older rules: one the current glossary calls obsolete
        ("Interrupt (Obsolete)", "Mana Burn (Obsolete)"), or a lowercase word that older texts
        use and the rules in force now (almost) never do ("fast effect"). A question that names
        today's terms in older words (`in_older_words`: "comes into play") is read by the first
        test only: its other old-sounding words ("comes") are how the asker speaks. So are the
        words of `spoken`, the player's phrases the vocabulary reads as today's rules' words
        ("fizzle": "doesn't resolve", the rules' own word until 2009)."""
        told = {fold(w.lower()) for phrase in spoken for w in phrase.split()}
        kept = [(w, t) for w, t in zip(words, word_terms, strict=True) if fold(w.lower()) not in told]
        words, word_terms = [w for w, _ in kept], [t for _, t in kept]
        lowered = " " + " ".join(fold(w.lower()) for w in words) + " "
        obsolete = [t for t in self._obsolete_terms() if f" {t} " in lowered]
        if any(" " in term for term in obsolete):
            return True
        for word, terms in zip(words, word_terms, strict=True):
            if in_older_words and fold(word.lower()) not in obsolete:
                continue
            # a one-word obsolete term ("interrupt", not "during") must be rare now as well
            share = 10 if fold(word.lower()) in obsolete else 20
            if not word.islower() and share == 20:
                continue
            for field, token in terms:
                if field != "text":  # (titles are few: a word in three old headings says little)
                    continue
                held, current = self.rules_holding(field, token)
                if held >= OLD_TERM_MIN and current <= held // share \
                        and token not in self._current_glossary_words():
                    return True
        return not in_older_words and self._old_pair(words, word_terms)

    def _old_pair(self, words: list[str], word_terms: list[set]) -> bool:
        """Whether two of the query's words side by side are a term only older rules say (20 or
        more of them, none in force): "damage prevention step", the 4th and 5th Editions', each of
        whose words the rules in force still use. Read in a query of up to OLD_PAIR_WORDS words,
        whose topic such a term is: each pair is a phrase lookup, and reading a question's first
        twelve words this way cost an 8-word question 0.1 s of CPU (0.38 -> 0.48 s cold)."""
        if len(words) > OLD_PAIR_WORDS:
            return False
        tokens = [next((t for f, t in terms if f == "text"), None) if word.islower() else None
                  for word, terms in zip(words, word_terms, strict=True)]
        for first, second in zip(tokens, tokens[1:], strict=False):
            if first is None or second is None or first == second:
                continue
            held, current = self._phrase_holding((first, second))
            if held >= OLD_PAIR_MIN and current == 0:  # (a phrase a rule in force still says is today's:
                # "transform double-faced", 45 older rules and one in force, is no question about the past)
                return True
        return False

    def _phrase_holding(self, tokens: tuple[str, ...]) -> tuple[int, int]:
        """rules_holding for words side by side."""
        return self._rules_of(self.scorer.score([Clause("text", tokens, 1.0, slop=1)]))  # (1: side by side)

    def rules_holding(self, field: str, token: str) -> tuple[int, int]:
        """How many rules hold the term in some version, and how many in a version in force now:
        each rule (a group: one lineage across releases) counts once, however many releases
        reworded it. Counted by document, a term of the tournament documents' newest release
        ("forgot", "remind") read as a term of older rules: each IPG section has up to twenty
        versions, of which one is in force."""
        postings = self.scorer.postings(field, token)
        return self._rules_of(postings.ids if postings else ())

    def _rules_of(self, docnums) -> tuple[int, int]:
        """How many rules (groups) the documents are versions of, and how many of those in force now."""
        group, first, last = self._docmeta()
        held, current, now = set(), set(), today()
        for docnum in docnums:
            held.add(group[docnum])
            if first[docnum] <= now <= last[docnum]:
                current.add(group[docnum])
        return len(held), len(current)

    def _current_glossary_words(self) -> set[str]:
        """The words of the glossary's titles in force now, obsolete entries aside: "summoning
        sickness" is rare in today's rules text but the glossary still names it, so it is no old
        term; nor is "played" or "plays", since the glossary names "Play"."""
        if self._glossary_words is None:
            self._glossary_words = self._tables().glossary_words(today())
        return self._glossary_words

    def renames(self) -> list[Rename]:
        """The current glossary's obsolete terms that today's rules call otherwise (below)."""
        if self._renames is None:
            self._renames = read_renames(self._tables().obsolete_glossary(today()))
        return self._renames

    def renamed(self, text: str, when: int | None = None) -> list[tuple[str, str]]:
        """(the query's words, their other name) for each renamed term the question names: in
        older rules' words, with today's name ("converted mana cost": mana value); or, asked of
        the rules in force on a day `when` before the rename, in today's words, with the older
        name ("mana value" in 2014: converted mana cost)."""
        if when is None:
            return renamed_in(text, self.renames())
        return older_names_in(text, [r for r in self.renames() if r.since and when < r.since])

    def _obsolete_terms(self) -> list[str]:
        """The terms the glossary in force now marks '(Obsolete)' and names nothing today by
        (a renamed term is today's concept in older words: below), folded ("mana burn")."""
        if self._obsolete is None:
            renamed = {fold(r.old.lower()) for r in self.renames()}
            titles = [title for title, *_ in self._tables().obsolete_glossary(today())]
            self._obsolete = sorted({fold(t.lower().replace("(obsolete)", "").strip()) for t in titles}
                                    - renamed - {""})
        return self._obsolete


# --- Older rules' names for terms that live on under another name, read from today's glossary.
#
#
# Players keep the words they learnt: "converted mana cost", "comes into play", "removed from the
# game", "unblockable", "EDH". The glossary in force now lists each as obsolete and says what it is
# called today ("Converted Mana Cost (Obsolete): An obsolete term for mana value.", "In Play
# (Obsolete): ... the phrases “in play,” “from play,” “into play,” ... See Battlefield."), so a
# question in the old words also reaches today's rule, which uses only the new ones. A term that
# no longer exists at all ("Mana Burn (Obsolete): ... That rule no longer exists.") names nothing
# today and is left to term_history.asks_old.
_OBSOLETE = re.compile(r"\s*\(obsolete\)\s*$", re.IGNORECASE)
# What today's term is, by how the entry says it, most direct first.
_NAMED = (
    re.compile(r"\bSee rules? [\d.a-z-]+, [“\"]([^”\"]+?)\.?[”\"]"),
    re.compile(r"(?:obsolete term|older name) for (?:the |an? )?[“\"]?([^.“”\"]+?)[”\"]?(?: \[[^\]]*\])?[.,]"),
    re.compile(r"^A term that meant [“\"]([^”\"\[\]]+?)\.?[”\"]"),
    re.compile(r"\bSee (?!rules?\b)([A-Z][\w’'-]*(?: [A-Z][\w’'-]*)*)\.\s*$"),
)
_PHRASES = re.compile(r"[“\"]([^”\"]{2,40}?)[,.]?[”\"]")  # “in play,” “from play,” “into play,”
_PLACEHOLDER = re.compile(r"\[[^\]]*\]")  # “Remove [something] from the game”
_WORD = re.compile(r"[\w’'-]+")
_INFLECTED = "(?:s|es|d|ed)?"  # "removed", "comes"; not "summoning" (summoning sickness is today's)


class Spelling(Frozen):
    """A term's spellings as one pattern, compiled on first need: a question holds the words of
    few of the glossary's forty renamed terms, and compiling every pattern cost each new process
    35 ms."""

    __slots__ = ("source", "needles")

    def __init__(self, source: str, needles: tuple[tuple[str, ...], ...]):
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "needles", needles)  # each spelling's words, which every match of it holds

    def search(self, text: str) -> re.Match | None:
        """The pattern's first match in `text` (folded, lower case), tried only when `text` holds
        every word of one of the spellings."""
        if not any(all(word in text for word in words) for words in self.needles):
            return None
        return _compiled(self.source).search(text)


@cache
def _compiled(source: str) -> re.Pattern:
    return re.compile(source)


class Rename(Frozen):
    """An older term (`pattern` finds it in a question, in any of its spellings) and what the
    rules in force now call it (`today_pattern` finds that)."""

    __slots__ = ("old", "today", "pattern", "today_pattern", "since")

    def __init__(self, old: str, today: str, pattern: Spelling, today_pattern: Spelling, since: int | None = None):
        object.__setattr__(self, "old", old)
        object.__setattr__(self, "today", today)
        object.__setattr__(self, "pattern", pattern)
        object.__setattr__(self, "today_pattern", today_pattern)
        object.__setattr__(self, "since", since)  # the first day the glossary listed it as obsolete (YYYYMMDD)


def today_name(text: str) -> str | None:
    """What an obsolete glossary entry says the term is called now, or None (a term gone)."""
    for named in _NAMED:
        found = named.search(text)
        if found:
            return _PLACEHOLDER.sub("", found[1]).strip(" ,.") or None
    return None


def read_renames(entries: list[tuple]) -> list[Rename]:
    """Renames from the current glossary's obsolete entries, as (title, text[, first day]). The
    old term is the title without "(Obsolete)", and any phrase the entry quotes that holds one of
    the title's words ("into play" for In Play; not the new name it quotes)."""
    out = []
    for title, text, *since in entries:
        old = _OBSOLETE.sub("", title).strip()
        today = today_name(text)
        if not old or not today or fold(today.lower()) == fold(old.lower()):
            continue
        title_words = [w for w in _words(old) if len(w) > 3]
        spellings = {old}
        for quoted in _PHRASES.findall(text):
            words = _words(_PLACEHOLDER.sub("", quoted))
            if any(w.startswith(t) for w in words for t in title_words) and not set(words) <= set(_words(today)):
                spellings.add(quoted)
        today_spelling = " ".join(w.removesuffix("s") if len(w) > 4 else w for w in _words(today))  # "kindred"
        out.append(Rename(old, today, _spelling_pattern(sorted(spellings, key=len, reverse=True)),
                          _spelling_pattern([today_spelling]), since[0] if since else None))
    return out


def _spelling_pattern(spellings: list[str]) -> Spelling:
    """Each spelling's words in order, any inflection ("removed", "comes"), a placeholder one to
    three words ("remove it from the game"); a word of three letters or fewer as written."""
    alternatives = []
    needles = []
    for spelling in spellings:
        parts = []
        words = []
        for piece in re.split(r"(\[[^\]]*\])", fold(spelling.lower()).replace("’", "'")):  # as _found reads a question
            if _PLACEHOLDER.fullmatch(piece):
                parts.append(r"(?:\S+\s+){0,2}\S+")
            else:
                held = _WORD.findall(piece)
                words += held
                parts += [re.escape(w) + (_INFLECTED if len(w) > 3 else "") for w in held]
        if parts:
            alternatives.append(r"\s+".join(parts))
            needles.append(tuple(words))
    return Spelling(r"\b(?:" + "|".join(alternatives) + r")\b", tuple(needles))


def _words(text: str) -> list[str]:
    return [fold(w.lower()) for w in _WORD.findall(text)]


def renamed_in(text: str, renames: list[Rename]) -> list[tuple[str, str]]:
    """(the words of the query, the words today's rules use instead) for each renamed term the
    query names in older words."""
    return _found(text, [(r.pattern, r.today) for r in renames])


def older_names_in(text: str, renames: list[Rename]) -> list[tuple[str, str]]:
    """(the words of the query, the words older rules used instead) for each renamed term the
    query names in today's words: a question about the rules of 2005 in today's words."""
    return _found(text, [(r.today_pattern, r.old) for r in renames])


def _found(text: str, pairs: list[tuple[Spelling, str]]) -> list[tuple[str, str]]:
    lowered = fold(text.lower()).replace("’", "'")
    return [(found[0], other) for pattern, other in pairs if (found := pattern.search(lowered))]
