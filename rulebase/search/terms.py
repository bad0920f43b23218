"""A query's words as the index reads them: each word's fields and tokens, and the clauses scored.

The Searcher (searcher.py) reads a query top-down; the questions this module answers are asked of
every word along the way (which fields hold it, what its tokens are, whether an irregular verb's
base or another era's name stands beside it, which clauses score it), and all of them read the
index's analyzers and term frequencies, kept per searcher. QueryTerms is the Searcher's base: it
holds no state of its own beyond those caches, which the Searcher sets up.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from math import log

from rulebase.core.pattern import lazy
from rulebase.core.records import fold_accents as fold
from rulebase.index.scorer import Clause
from rulebase.search import language
from rulebase.search.question import WORD

# `context` holds the record's section path, so a paragraph is found by its heading's words.
# (A title's length is weighed against the titled documents' (scorer.average_length): 1.0 gives
# a two-word title the score 2.0 gave it against every document's; 0.8 and 1.3 lost judged MRR@10.)
TEXT_FIELDS = {"title": 1.0, "text": 1.0, "context": 0.5, "title_hu": 2.0, "text_hu": 1.0, "context_hu": 0.5}
PAIR_BOOST = 1.5
COMMON_CONTEXT = 0.1  # a section-path term in more than this share of documents is not scored
CONTEXT_FIELDS = ("context", "context_hu")
PAIR_BOOST = 1.5
PHRASE_FIELDS = ("title", "text", "title_hu", "text_hu")
MAX_PAIRS = 6  # adjacent-pair phrase clauses: enough for a question, bounded for speed
WEAK_WEIGHT = 0.3  # a capitalised name the rules in force now hardly use: weak evidence, not a requirement
_FETCHED_CODE = lazy(r"\|[^\]]*")  # a card fetcher's set code: "[[Name|M10]]"
# A negated verb or quality ("can't block", "can't be countered", "without flying"): the rules say
# many of them in these words, and a question's "can't" is otherwise a function word, dropped.
_NEGATED = re.compile(r"\b(?:can['’]t|cannot|can not|doesn['’]t|don['’]t|isn['’]t|won['’]t|without)\s+"
                      r"(?:(?:be|have)\s+)?[a-z]+\b", re.IGNORECASE)
NEGATION_DOCS = 5  # documents that must say a negation in the question's words for it to be read so


class QueryTerms:
    """The word-level reading of a query (see the module's docstring). Expects `reader`,
    `analyzers`, `hu_by_en`, `en_by_hu`, `_analysed` and `_frequencies` from the Searcher."""

    def _name_clauses(self, names: list[str]) -> list[Clause]:
        """Each card name as a phrase, weak evidence: a ruling or an example that names the card
        is about it."""
        clauses = []
        for name in names:
            name = _FETCHED_CODE.sub("", name)  # "[[Lightning Bolt|M10]]": the card, not its set code
            for field in ("title", "text"):
                toks = tuple(self._tokens(field, name))
                if toks:
                    clauses.append(Clause(field, toks, WEAK_WEIGHT * TEXT_FIELDS[field]))
        return clauses

    def negations(self, text: str) -> list[tuple[str, str]]:
        """(as typed, as the rules write it) for each negation the question says that at least
        NEGATION_DOCS documents say word for word ("can't block", "without flying"; "cannot" read
        as the rules' "can't"): scored as the phrase it is (_meant), where its function word was
        dropped and the word it negates read alone, as if the question asked for it."""
        out = []
        for match in dict.fromkeys(m.group(0) for m in _NEGATED.finditer(text)):
            phrase = re.sub(r"^can(?:not| not)\b", "can't", match.lower().replace("’", "'"))
            if len(self._tokens("text", phrase)) > 1 and self.said_together(phrase) >= NEGATION_DOCS:
                out.append((match.lower(), phrase))
        return out

    def said_together(self, *words: str) -> int:
        """How many documents say `words` in a row in their text, as the text field reads them."""
        tokens = tuple(self._tokens("text", " ".join(words)))
        return len(self.scorer.containing("text", tokens)) if tokens else 0

    def _meant(self, said: list[tuple[str, str]]) -> list[Clause]:
        """The documents' words for a player's phrase, scored as the phrase they are: "drew an
        extra card" is the IPG's "hidden card error", and a text that says those three words in a
        row names what the question describes (a word alone, "sacrifice", as a word)."""
        clauses = []
        for _, means in said:
            for field in ("title", "text"):
                toks = tuple(self._tokens(field, means))
                if toks:
                    clauses.append(Clause(field, toks, TEXT_FIELDS[field] * (PAIR_BOOST if len(toks) > 1 else 1.0),
                                          slop=1))
        return clauses

    def word_terms(self, words: list[str], lang: str | None = None) -> list[list[tuple[str, str]]]:
        """Each query word as (field, token) pairs: the query's clauses and the coordination
        count of every hit are both built from these."""
        common = COMMON_CONTEXT * self.reader.doc_count_all()
        out = []
        for word in words:
            fields = self.fields_of(word, lang)
            pairs = [(field, stem) for field in fields for tok in self._tokens(field, word)
                     if (stem := self._stem(field, tok, word))]
            base = self._base_of(word) if lang != "hu" else None
            if base:  # "drew" is "draw": the stemmer leaves an irregular verb's forms apart
                pairs += [pair for pair in dict.fromkeys((field, tok) for field in fields
                                                         if field not in language.HU_FIELDS
                                                         for tok in self._tokens(field, base)) if pair not in pairs]
            # A section-path word a tenth of all documents share ("rules", "abilities") says
            # nothing about one of them, and its postings are the longest a query reads.
            kept = [(f, t) for f, t in pairs if f not in CONTEXT_FIELDS or self._df(f, t) <= common]
            out.append(kept or pairs)
        return out

    def _base_of(self, word: str) -> str | None:
        """An irregular verb form's base, searched beside it when the form is a question's
        narration ("I drew", "they forgot", "told me"). A form the rules say at least half as
        often as its base is their own word ("damage dealt", "cards left in a library") and is
        searched as written: "dealt" as "deal" too moved 2003's combat-damage rule from 3rd to 5th
        for "combat damage stack noncreature dealt damage" --as-of its day.

        Measured: tournament questions (scripts/judged.py) MRR@10 0.843 -> 0.856, nDCG@10 0.745 ->
        0.781 (odd half 0.852 -> 0.856 / 0.780 -> 0.814, even 0.833 -> 0.856 / 0.709 -> 0.747),
        recall@5 0.950 level; the judged game sets nDCG@10 0.756 -> 0.758, recall@5 1.000 -> 0.985
        ("came into play" is also "come"); the real questions level."""
        base = language.base_form(word)
        if base is None:
            return None
        own = sum(self._df("text", t) for t in self._tokens("text", word))
        return base if 2 * own < sum(self._df("text", t) for t in self._tokens("text", base)) else None

    def _stem(self, field: str, token: str, word: str) -> str | None:
        """A Hungarian token as the index can match it (language.hungarian_token: None for no
        evidence); others as analysed."""
        if field not in language.HU_FIELDS:
            return token
        return language.hungarian_token(token, word, lambda t: self._df(field, t),
                                        lambda: any(self._df("exact", t) for t in self._tokens("exact", word)))

    def _add_other_names(self, words: list[str], per_word: list[list[tuple[str, str]]],
                         renamed: list[tuple[str, str]]) -> None:
        """A term in older rules' words ("came into play") also matches today's name for it
        ("battlefield"), or the other way round, as the same word of the question: each
        era's rules say only their own name."""
        lowered = [fold(w.lower()) for w in words]
        held = {pair for pairs in per_word for pair in pairs}
        for span, other in renamed:
            at = next((i for i, w in enumerate(lowered) if re.search(rf"\b{re.escape(w)}\b", span)), None)
            if at is None:
                continue
            spoken = [w for w in WORD.findall(other) if w.lower() not in language.EN_FUNCTION]  # not "in" play
            new = [(f, t) for f in ("title", "text") for word in spoken for t in self._tokens(f, word)]
            per_word[at] += [pair for pair in dict.fromkeys(new) if pair not in held]

    def fields_of(self, word: str, lang: str | None) -> list[str]:
        """The fields a word is scored in: its query's language's, and the other language's too
        when only that one knows the word ("burn" in a Hungarian question about mana burn)."""
        if lang is None:
            return list(TEXT_FIELDS)
        other = "en" if lang == "hu" else "hu"
        mine = language.fields_for(lang, TEXT_FIELDS)
        if self.known(other, word) and not self.known(lang, word) and word.lower() not in language.FUNCTION[lang]:
            return list(TEXT_FIELDS)
        return list(mine)

    def known(self, lang: str, word: str) -> bool:
        """Whether the index's fields of that language hold the word (language.detect)."""
        fields = ("text", "title") if lang == "en" else ("text_hu", "title_hu")
        return any(self._df(f, tok) for f in fields for tok in self._tokens(f, word))

    def build_query(self, words: list[str], phrases: list[str], per_word: list[list[tuple[str, str]]],
                    extra_boost: float = 0.3, lang: str | None = None,
                    weights: list[float] | None = None) -> list[Clause]:
        """Each word in any field, phrases in order, adjacent word pairs near each other, and the
        bilingual expansions; a document's score is the sum over the clauses it matches.
        `weights` scale each word's clauses and its pairs (a card name the rules never use counts
        for less)."""
        weights = weights or [1.0] * len(per_word)
        clauses = [Clause(field, (tok,), TEXT_FIELDS[field] * weight)
                   for pairs, weight in zip(per_word, weights, strict=True) for field, tok in pairs]
        for phrase in phrases:
            for field in PHRASE_FIELDS:
                toks = self._tokens(field, phrase)
                if len(toks) > 1:
                    clauses.append(Clause(field, tuple(toks), 2.0 * TEXT_FIELDS[field]))
        pair_fields = [f for f in ("title", "text", "text_hu") if f in language.fields_for(lang, TEXT_FIELDS)]
        # a pair is as weak as its weaker word: "Doubling Season", "goes first" (light verb)
        for at, (first, second) in enumerate(zip(words[:MAX_PAIRS + 1], words[1:MAX_PAIRS + 1], strict=False)):
            boost = PAIR_BOOST * min(weights[at], weights[at + 1])
            for field in pair_fields:
                toks = self._tokens(field, f"{first} {second}")
                if len(toks) == 2:
                    clauses.append(Clause(field, tuple(toks), boost * TEXT_FIELDS[field], slop=2))
                    if first.isdigit() != second.isdigit():  # "0 toughness": the rules say "toughness 0"
                        clauses.append(Clause(field, tuple(reversed(toks)), boost * TEXT_FIELDS[field], slop=2))
        return clauses + self._expand(words, extra_boost)

    def _expand(self, words: list[str], boost: float) -> list[Clause]:
        """English words pull in the Hungarian terms that name them, and vice versa."""
        lowered = " ".join(w.lower() for w in words)
        extra = []
        for en, hus in self.hu_by_en.items():
            if re.search(rf"\b{re.escape(en)}\b", lowered):
                extra += [Clause("title_hu", (t,), boost) for hu in hus for t in self._tokens("title_hu", hu)]
        for word in words:
            for en in self.en_by_hu.get(fold(word), []):
                extra += [Clause("title", (t,), boost) for t in self._tokens("title", en)]
        return extra

    def _df(self, field: str, token: str) -> int:
        """A term's document frequency, kept: language detection and word weights ask for the
        same terms again and again, and each asking is a term-table search."""
        key = (field, token)
        if key not in self._frequencies:
            if len(self._frequencies) > 50_000:
                self._frequencies.clear()
            self._frequencies[key] = self.reader.doc_frequency(field, token)
        return self._frequencies[key]

    def _tokens(self, field: str, text: str) -> list[str]:
        key = (field, text)
        if key not in self._analysed:  # a query's words are analysed for detection and scoring
            if len(self._analysed) > 10_000:
                self._analysed.clear()
            self._analysed[key] = [t.text for t in self.analyzers[field](text)]
        return self._analysed[key]

    def _spans(self, field: str, text: str) -> Iterator[tuple[str, int, int]]:
        """The tokens of `text` as `field` analyses it, with their character spans, read lazily."""
        return ((t.text, t.startchar, t.endchar) for t in self.analyzers[field](text, chars=True))

    def _titled_by(self, said: list[tuple[str, str]]) -> set[int]:
        """The documents whose title holds what a player's phrase of several words means."""
        clauses = [Clause("title", toks, 1.0) for _, means in said
                   if " " in means and len(toks := tuple(self._tokens("title", means))) > 1]
        return set(self.scorer.score(clauses)) if clauses else set()

    def _matched(self, docnums: list[int], pairs: set) -> dict[int, set]:
        """Which of the query's word terms each pooled hit contains (for coordination and
        highlighting)."""
        matched: dict[int, set] = {docnum: set() for docnum in docnums}
        for field, token in pairs:
            postings = self.scorer.postings(field, token)
            for docnum in postings.ids if postings else ():
                if docnum in matched:
                    matched[docnum].add((field, token))
        return matched

    def _inflected(self, word: str) -> int:
        """How many documents hold a word's stem, when the stem is not the word itself: a form of a
        word the rules say ("shades": the creature type Shade; "heated"), which no text spells so,
        is no misspelling ("shades" was read as "shares", "heated" as "headed"). A word that is
        its own stem ("triggger", "wich") or whose stem nothing holds ("taped") still is."""
        stems = [t for t in self._tokens("text", word) if t != word]
        return sum(self._df("text", t) for t in stems)

    def _pool_order(self, scores: dict[int, float], word_terms: list[set]) -> dict[int, float]:
        """The order the pool of hits to rank is chosen in: by score, with every document that holds
        each of the query's words (in any field) ahead of the rest. Coordination (ranking.py) puts
        such a document first among the pooled, but chosen by score alone one could stay out of
        the pool: "two replacement effects apply, who chooses the order" has all its words in 616.1,
        which says "replacement and/or prevention effects" (no pair matched), scored 394th, under
        texts saying "replacement effects" thrice and nothing else of the question."""
        if len(word_terms) < 2 or not scores:
            return scores
        holding: set[int] = set(scores)
        for terms in word_terms:
            docs: set[int] = set()
            for field, token in terms:
                postings = self.scorer.postings(field, token)
                if postings:
                    docs.update(postings.ids)
            holding &= docs
            if not holding:
                return scores
        lead = max(scores.values())
        return {docnum: score + lead if docnum in holding else score for docnum, score in scores.items()}

    def _rarity(self, word_terms: list[set]) -> list[float]:
        """Each query word's idf (BM25's), by its most common spelling among the fields."""
        count, df = self.reader.doc_count_all(), self._df
        return [log(count / (max((df(f, t) for f, t in terms), default=0) + 1)) + 1 for terms in word_terms]
