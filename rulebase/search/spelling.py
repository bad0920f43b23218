"""Spelling: the unstemmed field's vocabulary, for suggestions ("did you mean") and fuzzy matching.

A query whose words match nothing as typed is corrected and matched by near spellings; finding
those spellings is a walk over the index's terms, kept here, apart from ranking, so the Searcher
only asks for a word's spellings or its suggestion.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from rulebase.core.records import fold_accents as fold

MAX_SPELLED = 12  # distinct unknown words given a suggestion and fuzzy spellings: 20 typos stay fast
MAX_SPELLINGS = 32  # fuzzy spellings kept per word (a short word can have scores of them)
MAX_SPELLED_LENGTH = 40  # longer words get no spellings: the automaton grows with the word
TYPO_MIN_LENGTH = 5  # a shorter unknown word ("dude", "guys") is too near too many words to respell
TYPO_MIN_DOCS = 5  # a respelling must be a word of at least this many documents
COMPOUND_PART = 2  # the shortest word a closed-up compound is cut into ("faceup": "face up")
STAR = re.compile(r"(?<![\w*])(\w+)\*+(?![\w*])")  # 'tram*': a word typed as a prefix
STAR_TERMS = 2000  # index words read for one prefix (the most used of them stands for it)


def vocabulary_of(searcher) -> Vocabulary:
    """The searcher's Vocabulary of its unstemmed field, read on the first suggestion it makes."""
    held = getattr(searcher, "_spelling_vocabulary", None)
    if held is None:
        held = searcher._spelling_vocabulary = Vocabulary(searcher.reader, "exact")
    return held


class Vocabulary:
    """The unstemmed field's terms in memory, for spelling suggestions and fuzzy matching.

    Whoosh finds the terms within n edits of a word by walking a Levenshtein automaton over its
    on-disk term table, one binary search of struct reads per step: 0.15-0.2 s a word, so twenty
    typos took seconds. Here the automaton walks only the terms that could be that close: of a
    length within n of the word's, and with at most 2n characters that one of the two has and
    the other lacks (an edit adds or drops at most two), a test on integer bit masks. Each
    word's answer is kept: a word repeated in a query, or asked for by both the suggestion and
    the fuzzy search, is looked up once."""

    def __init__(self, reader, field: str):
        self.reader, self.field = reader, field
        self._bits: dict[str, int] = {}  # a bit per character seen
        self._by_length: dict[int, tuple[list[str], list[int]]] = {}
        for term in reader.lexicon(field):  # in sorted order, so each length's list is sorted
            text = term.decode("utf-8")
            if len(text) > MAX_SPELLED_LENGTH + 2:
                continue  # too long to be two edits from a word we spell (a 10 MB one-word line)
            terms, masks = self._by_length.setdefault(len(text), ([], []))
            terms.append(text)
            masks.append(self._mask(text))
        self._found: dict[tuple, object] = {}

    def _mask(self, text: str) -> int:
        bits, mask = self._bits, 0
        for char in text:
            mask |= bits.setdefault(char, 1 << len(bits))
        return mask

    def _remember(self, key: tuple, compute: Callable[[], object]):
        return remember(self._found, key, compute)

    def within(self, word: str, maxdist: int, prefix: int = 0) -> list[str]:
        """Terms within `maxdist` Levenshtein edits of `word` sharing its first `prefix`
        characters, in term order: what Whoosh's `reader.terms_within` returns. Words longer
        than MAX_SPELLED_LENGTH have none (the automaton grows with the word)."""
        def compute() -> list[str]:
            # lazy: only this rarer path needs it
            from bisect import bisect_left

            # lazy: Whoosh (~140 ms) only where this path reads the index
            from whoosh.automata.fsa import find_all_matches
            from whoosh.automata.lev import levenshtein_automaton

            if len(word) > MAX_SPELLED_LENGTH:
                return []
            start = word[:prefix]
            wider = self._found.get(("within", word, max(maxdist, 2), 0))
            if wider is not None:  # the suggestion's terms: equal first characters change no distance
                terms = [term for term in wider if term.startswith(start)]
                if maxdist >= 2:
                    return terms
            else:
                mask, most = self._mask(word), 2 * maxdist
                terms = sorted(term for n in range(max(0, len(word) - maxdist), len(word) + maxdist + 1)
                               for term, other in zip(*self._by_length.get(n, ((), ())), strict=True)
                               if (mask ^ other).bit_count() <= most and term.startswith(start))
            if not terms:
                return []

            def first_from(key: str) -> str | None:
                at = bisect_left(terms, key)
                return terms[at] if at < len(terms) else None

            return list(find_all_matches(levenshtein_automaton(word, maxdist, prefix).to_dfa(), first_from))

        return self._remember(("within", word, maxdist, prefix), compute)

    def suggest(self, word: str, maxdist: int = 2) -> str | None:
        """Whoosh's ReaderCorrector.suggest(word, limit=1, maxdist): of the terms within
        `maxdist`, the most frequent (its score, its tie-break on the later term)."""
        def compute() -> str | None:
            frequency = self.reader.frequency
            scored = [(0 - (maxdist + (1.0 / (frequency(self.field, term) or 1) * 0.5)), term)
                      for term in self.within(word, maxdist)]
            return max(scored)[1] if scored else None

        return self._remember(("suggest", word, maxdist), compute)

    def spellings(self, word: str, maxdist: int, prefix: int) -> list[str]:
        """The fuzzy spellings of `word`: at most MAX_SPELLINGS, the most widely used ones
        kept (in term order) when a short word has more."""
        def compute() -> list[str]:
            found = self.within(word, maxdist, prefix)
            if len(found) <= MAX_SPELLINGS:
                return found
            frequency = self.reader.doc_frequency
            keep = set(sorted(found, key=lambda t: (-frequency(self.field, t), t))[:MAX_SPELLINGS])
            return [t for t in found if t in keep]

        return self._remember(("spellings", word, maxdist, prefix), compute)


def respell(reader, field: str, word: str) -> str | None:
    """The word a typing slip in `word` most likely stood for: of the field's terms one slip
    away (a letter added, dropped or changed, or two neighbours swapped: "deathtuch",
    "trampel"), with the same first letter, the one in the most documents, if that is at least
    TYPO_MIN_DOCS. A first letter is rarely the slip, and "blinked" is not "linked". Reads only
    the terms of that first letter from the term table (1-7 ms), not the whole vocabulary
    (Vocabulary: 0.15 s to read, a cold question's budget)."""
    if not TYPO_MIN_LENGTH <= len(word) <= MAX_SPELLED_LENGTH:
        return None
    terms = (term.decode("utf-8") for term in reader.expand_prefix(field, word[0]))
    found = [(reader.doc_frequency(field, term), term) for term in terms
             if abs(len(term) - len(word)) <= 1 and one_slip(word, term)]
    best = max(found, default=(0, None))
    return best[1] if best[0] >= TYPO_MIN_DOCS else None


def split_word(word: str, frequency: Callable[[str], int], phrase: Callable[[str, str], int]) -> str | None:
    """The two words a word typed closed up stands for, as the documents write them apart or
    hyphenated ("facedown" is "face-down", "firststrike" "first strike", "manaburn" "mana burn",
    "endstep" "end step"): of the ways to cut it into two words of at least TYPO_MIN_DOCS
    documents each, the one whose phrase the most documents hold, if at least TYPO_MIN_DOCS do.
    `phrase(a, b)` counts the documents holding "a b". A cut the documents never say together
    ("offhand" as "off hand") is no reading: the word stays unknown."""
    most, best = TYPO_MIN_DOCS - 1, None
    for at in range(COMPOUND_PART, len(word) - COMPOUND_PART + 1):
        first, second = word[:at], word[at:]
        if frequency(first) >= TYPO_MIN_DOCS and frequency(second) >= TYPO_MIN_DOCS:
            held = phrase(first, second)
            if held > most:
                most, best = held, f"{first} {second}"
    return best


_HYPHENATED = re.compile(r"(?<![\w'’-])([A-Za-z]+)-([A-Za-z]+)(?![\w'’-])")


def joined_words(text: str, frequency: Callable[[str], int], phrase: Callable[[str, str], int]) -> list[tuple[str, str]]:
    """(typed, closed) for each word pair typed hyphenated that the documents write closed up
    ("non-land" is "nonland", "pre-combat" "precombat", "non-token" "nontoken"): the closed word
    is in at least TYPO_MIN_DOCS documents and in more than the two words together (the 1990s
    rulebooks' "non-creature" is today's "noncreature"). Searched as typed, "non-land permanent"
    read "non" and "land": the MTR's Game Layout first."""
    out = []
    for match in dict.fromkeys(m.group() for m in _HYPHENATED.finditer(text)):
        first, _, second = match.lower().partition("-")
        closed = fold(first + second)
        held = frequency(closed)
        if held >= TYPO_MIN_DOCS and phrase(first, second) < held:
            out.append((match, closed))
    return out


class Respellings:
    """The respellings of an English query's unknown words, each found once per searcher:
    (typed, respelled) for each word that no document holds, typed in lowercase: two words
    typed closed up (split_word: "facedown"), else a typing slip (respell: "deathtuch"). A
    capitalised word is a card name ("Altac" is not "altar"). `frequency` is a word's document
    count in `field` (the searcher's kept counts: every English query asks), `phrase` that of
    two words together (split_word)."""

    def __init__(self, reader, field: str, frequency: Callable[[str], int],
                 phrase: Callable[[str, str], int] = lambda first, second: 0):
        self.reader, self.field, self.frequency, self.phrase = reader, field, frequency, phrase
        self._found: dict[tuple, object] = {}

    def joined(self, text: str) -> list[tuple[str, str]]:
        """The hyphenated pairs of `text` the documents write as one word (joined_words)."""
        return joined_words(text, self.frequency, self.phrase)

    def of(self, words: list[str], slips: bool = True) -> list[tuple[str, str]]:
        """(typed, respelled) for each of `words` read otherwise; `slips`: typing slips too, not
        only closed-up compounds."""
        out = []
        for word in dict.fromkeys(words):
            bare = fold(word.lower())
            if word.islower() and bare.isalpha() and not self.frequency(bare):
                spelled = remember(self._found, ("split", bare), lambda bare=bare: split_word(bare, self.frequency, self.phrase))
                if not spelled and slips:
                    spelled = remember(self._found, ("slip", bare), lambda bare=bare: respell(self.reader, self.field, bare))
                if spelled:
                    out.append((word, spelled))
        return out


def remember(found: dict, key: tuple, compute: Callable[[], object]):
    """`found[key]`, computed the first time; at 4096 keys, a long-lived searcher's memo
    forgets rather than grows."""
    if key not in found:
        if len(found) >= 4096:
            found.clear()
        found[key] = compute()
    return found[key]


def one_slip(word: str, other: str) -> bool:
    """Whether `other` is one typing slip from `word`: one letter added, dropped or changed, or
    two neighbouring letters swapped (Damerau's one edit)."""
    if word == other or abs(len(word) - len(other)) > 1:
        return False
    start = next((i for i, (a, b) in enumerate(zip(word, other, strict=False)) if a != b), min(len(word), len(other)))
    a, b = word[start:], other[start:]
    if len(a) == len(b):
        return a[1:] == b[1:] or (len(a) > 1 and a[0] == b[1] and a[1] == b[0] and a[2:] == b[2:])
    return a[1:] == b if len(a) > len(b) else a == b[1:]


@cache
def spelled_fuzzy_term():
    """A Whoosh FuzzyTerm whose spellings are given (found by Vocabulary): Whoosh matches and
    scores it as its own FuzzyTerm, without walking the term table again. Built on first use:
    importing whoosh.query costs a cold search time."""
    # lazy: Whoosh (~140 ms) only where this path reads the index
    from whoosh.query import FuzzyTerm

    class SpelledFuzzyTerm(FuzzyTerm):
        def __init__(self, fieldname: str, text: str, spellings: list[str], maxdist: int):
            super().__init__(fieldname, text, maxdist=maxdist, prefixlength=1)
            self.spellings = spellings

        def _btexts(self, ixreader):
            return self.spellings

    return SpelledFuzzyTerm


def complete_stars(reader, text: str) -> tuple[str, list[str]]:
    """`text` with each word typed as a prefix ('tram*') read as the index's most used word that
    begins so ('trample': its stem then finds 'tramples' and 'trampling'), or as the prefix alone
    when no word does; and a note for each ("read 'tram*' as 'trample'"). Queries have no
    wildcards: 'tram*' was searched as 'tram', which no document holds, and the spelling
    fallback answered "Did you mean: that" with hits about "team"."""
    notes: list[str] = []

    def complete(match: re.Match) -> str:
        prefix, best, most = fold(match[1].lower()), match[1], 0
        if len(prefix) >= 2:
            for n, term in enumerate(reader.expand_prefix("exact", prefix)):
                if n >= STAR_TERMS:
                    break
                word = term.decode("utf-8") if isinstance(term, bytes) else term
                count = reader.doc_frequency("exact", word)
                if count > most:
                    best, most = word, count
        notes.append(f"read {match[0]!r} as {best!r}" + ("" if most else " ('*' is no wildcard here)"))
        return best

    return STAR.sub(complete, text), notes


def corrected(searcher, words: list[str], lang: str | None = None) -> str | None:
    """A spelling suggestion from the unstemmed field's own vocabulary: Whoosh's corrector's
    choice (the most frequent term within two edits), for the first MAX_SPELLED distinct
    unknown words; the rest stay as typed. A query in a known language is only corrected
    into words of that language: "hány" never becomes "and"."""
    out, changed, tried = [], False, set()
    for word in words:
        bare = fold(word)
        if (len(bare) > 2 and not bare[:1].isdigit() and (len(tried) < MAX_SPELLED or bare in tried)
                and searcher.reader.doc_frequency("exact", bare) == 0):
            tried.add(bare)
            suggestion = vocabulary_of(searcher).suggest(bare)
            if suggestion and (lang is None or searcher.known(lang, suggestion)):
                out.append(suggestion)
                changed = True
                continue
        out.append(word)
    return " ".join(out) if changed else None

def near_spellings(searcher, words: list[str], allowed: set[int] | None, pool: int):
    """Near spellings on the unstemmed field, when nothing matched as typed. Also returns each
    fuzzy word's spellings found in the index, so coordination counts the words a hit matched
    as it does for exact terms. Whoosh's FuzzyTerm scores the hits; the spellings come from
    the in-memory vocabulary (the first MAX_SPELLED distinct words, MAX_SPELLINGS each)."""
    # lazy: Whoosh (~140 ms) only where this path reads the index
    from whoosh.query import Or, Term

    if allowed is not None and not allowed:  # whoosh reads an empty filter set as no filter
        return [], {}, 0, []
    vocabulary, fuzzy = vocabulary_of(searcher), spelled_fuzzy_term()
    spelled = list(dict.fromkeys(fold(w) for w in words if len(w) > 2))[:MAX_SPELLED]
    parts = []
    for w in words:
        bare = fold(w)
        if len(w) > 2 and bare in spelled:
            maxdist = 2 if len(w) > 5 else 1
            parts.append(fuzzy("exact", bare, vocabulary.spellings(bare, maxdist, 1), maxdist))
    if not parts:
        parts = [Term("exact", fold(words[0]))]
    spellings = [{(f, t.decode()) for f, t in part.existing_terms(searcher.reader, expand=True)} for part in parts]
    hits = searcher._searcher().search(Or(parts), limit=pool, filter=allowed, terms=True)
    docs: set[int] = set()  # (whoosh's len(hits) ignores the filter)
    for field, term in set().union(*spellings):
        postings = searcher.scorer.postings(field, term)
        docs.update(postings.ids if postings else ())
    if allowed is not None:
        docs &= allowed
    group = searcher.docmeta()[0]
    total = len({group[d] for d in docs})
    return (list(hits.items()), {hit.docnum: set(hit.matched_terms()) for hit in hits}, total,
            [found for found in spellings if found])
