"""Ranked search over the Whoosh index: one hit per rule, in the query's language.

Queries are scorer.Clause lists (each word in its language's fields, "quoted phrases" in order,
adjacent word pairs near each other, the bilingual term expansions); scorer.py sums their BM25F
scores over the index's postings. Whoosh's own searcher serves only fuzzy matching and spelling
suggestions.

The Searcher reads top-down as a query runs: search reads the query (_read: the card names cut,
its language, its words), builds its clauses, scores them, keeps each rule's best version (its
group), re-ranks (ranking.py) and fills the result list, one hit per text (listing.py). A query's
text is split in question.py, its words read as the index reads them in terms.py (the Searcher's
base), people's words for the documents' in parlance.py, card names cut in cards.py, near
spellings found in spelling.py, whether a term belongs to older rules in term_history.py, and
snippets cut in listing.py.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import cached_property
from operator import itemgetter

from rulebase.core.eras import today
from rulebase.core.errors import DamagedData, IndexError_, UsageError
from rulebase.core.records import Record
from rulebase.core.records import fold_accents as fold
from rulebase.core.sources import DIGITAL_DOCUMENTS
from rulebase.index.concepts import CONCEPTS, read_concepts, read_names
from rulebase.index.postings import BM25_B, BM25_K1, Stored
from rulebase.index.schema import DOCMETA, DOCMETA_COLUMNS, in_force_on, open_reader, read_docmeta
from rulebase.index.scorer import Clause, Scorer
from rulebase.index.tables import TABLES, Tables
from rulebase.search import language
from rulebase.search.cards import add_cards_rules, without_names
from rulebase.search.concepts import Concepts, initials, spell_out
from rulebase.search.hits import Hit, Results
from rulebase.search.listing import fill
from rulebase.search.parlance import Parlance, load_parlance
from rulebase.search.question import (
    QUESTION_WORDS,
    Reading,
    quoted_in_question,
    read_as,
    split_query,
    weak_words,
)
from rulebase.search.ranking import cover, rerank
from rulebase.search.register import OTHER_BODY_FACTOR, Register
from rulebase.search.spelling import Respellings, corrected, near_spellings
from rulebase.search.term_history import TermHistory
from rulebase.search.terms import PHRASE_FIELDS, TEXT_FIELDS, WEAK_WEIGHT, QueryTerms

KIND_BOOST = {"glossary": 1.2, "rule": 1.2, "ruling": 1.1, "term": 1.2, "passage": 1.1, "example": 1.0,
              "heading": 0.5, "chapter": 0.5, "section": 0.4, "document": 0.3, "note": 0.3,
              "index": 0.3}
LEAD_FACTOR = 0.5  # a heading's match stands in for its first paragraph, but counts for less
FILTER_FIELDS = ("edition", "kind", "lang", "source")
POOL = 100  # hits re-ranked per query: results are the same for any --limit up to this
NEAR_CANDIDATES = 1000  # documents that phrase and word-pair clauses are matched in (see _score)
MAX_COUNTED = 2000  # a phrase matching up to this many rules gets an exact total of its hits
# A record titled what was asked ("legend rule": the glossary's Legend Rule) is the term asked
# about, not one of the texts that share its words ("Legend/Legend Rule", 1999, which says
# "legend" four times). Measured: judged nDCG@10 0.764 -> 0.766 (en-keyword 0.793 -> 0.800), the
# rest level for 1.5 to 3; not for a quoted phrase, which asks where words are said (0.765).
TITLE_FACTOR = 1.5
TITLE_SLACK = 1  # ...or the query and one more word ("Summoning Sickness Rule"; 2 measured the same)
_POSSESSIVE = re.compile(r"['’]s$")
_ADDRESS = re.compile(r"\S+://\S+|\bwww\.\S+")  # a web address's words are no words of the rules
SAYS_READ, SAYS_BATCH = 200, 20  # texts read for whether the rules say a word in lower case (rules_word)


class Searcher(QueryTerms):
    """An open, read-only view of the index. Cheap to query repeatedly; close when done. The
    query's words as the index reads them (their fields, tokens, clauses) are QueryTerms'."""

    def __init__(self, path: str | os.PathLike, term_pairs: list[tuple[str, list[str]]] | None = None,
                 vocabulary: str | os.PathLike | None = None):
        try:
            self.reader = open_reader(path)
        except Exception as exc:  # noqa: BLE001 - whoosh raises many kinds on a damaged index
            raise IndexError_(f"full-text index unreadable ({type(exc).__name__})", str(path),
                              "run 'rulebase index build' to rebuild it") from None
        self.scorer = Scorer(self.reader, B=BM25_B, K1=BM25_K1, stored=Stored(os.fspath(path)))
        self._whoosh = None  # whoosh.searching's Searcher, only for fuzzy matching and suggestions
        self._columns: dict[str, object] = {}
        self._pool_meta: dict[int, tuple[str, float]] = {}
        self._respellings = Respellings(self.reader, "exact", lambda w: self._df("exact", w) or self._inflected(w),
                                        self.said_together)
        self.path = os.fspath(path)
        self._vocabulary_file = vocabulary  # (read on the first query: corpus/vocabulary.toml)
        self._docmeta = None
        schema = self.reader.schema  # (ix.schema re-reads the table of contents on every access)
        self.analyzers = {name: schema[name].analyzer for name in [*TEXT_FIELDS, "exact"]}
        self._analysed: dict[tuple[str, str], list[str]] = {}
        self._frequencies: dict[tuple[str, str], int] = {}
        self._rules_words: dict[str, bool] = {}
        self.hu_by_en: dict[str, list[str]] = {}
        self.en_by_hu: dict[str, list[str]] = {}
        for hu, english in term_pairs or []:
            for en in english:
                self.hu_by_en.setdefault(en.lower(), []).append(hu)
                self.en_by_hu.setdefault(fold(hu), []).append(en)
        self.history = TermHistory(self.scorer, self.docmeta, lambda: self.tables, self._tokens)

    def close(self) -> None:
        if self._whoosh is not None:
            self._whoosh.close()
        self.scorer.close()
        self.reader.close()

    def search(self, text: str, filters: dict[str, list[str]] | None = None, limit: int = 10,
               numbers: list[Hit] | None = None, texts: Callable[[list[str]], dict[str, Record]] | None = None,
               when: int | None = None, pick: Callable[[list[str]], dict[str, str]] | None = None,
               current_first: bool = False, lift: dict[int, float] | None = None,
               names: list[str] | None = None, apart: set[int] = frozenset()) -> Results:
        """Ranked hits, one per group (the versions of one rule across releases, and identical
        copies of them, are one hit showing the newest matching text); `numbers` (exact
        rule-number matches) go first; `texts` fetches record text for snippets (the index stores
        none); `when` keeps only what was in force that day, and `pick` names, for a document that
        stands for several versions (see documents_of), the one in force then. `current_first`
        (a question with no date and no edition) lists the rules in force now first, then older
        texts, unless the question is in Hungarian or uses a term only older rules know. `lift`:
        document -> factor for the rules the question's cards use (search/cards.py); `names`, the
        card names as the question typed them (see cards.without_names); `apart`, the documents
        that do not apply where the question is asked (the IPG at the Regular REL it names): with
        `current_first` they follow the texts that do, as older texts do."""
        if limit < 1:
            raise UsageError("--limit must be at least 1")
        allowed = self._allowed(filters or {})
        if when is not None:
            alive = self.in_force(when)
            allowed = in_force_on(self.docmeta(DOCMETA_COLUMNS), when) if allowed is None else {
                d for d in allowed if alive(d)}
        typed_text = text
        in_question = quoted_in_question(text)  # (asked of the words as typed, names and all)
        read = self._read(text, names or [])
        text, names, words, phrases, lang = read.text, read.names, read.words, read.phrases, read.lang
        weak, named, light = read.weak, read.named, read.light
        crossed = None  # (the query's language, when the filters pass only the other one's documents)
        if lang is not None and allowed is not None and not allowed & self.scorer.docs("lang", [lang]):
            crossed, lang = lang, None  # read the words in both languages' fields
        # A quoted phrase is required, not just scored (totals count what holds it), unless it is
        # card text quoted inside a longer question: then its words count like the others.
        if phrases and not in_question:
            allowed = self._holding(phrases, allowed)
        per_word = self.word_terms(words, lang)
        # A renamed term's other name: today's for a question in older words answered from the
        # rules in force now; the older one for a question in today's words about a day before.
        renamed = []
        if lang != "hu" and (current_first or when is not None):
            renamed = self.history.renamed(text, None if current_first else when)
        # a player's words ("blink", "said go") also match the documents' words for them
        # (a one-word reading stands for the typed word; a longer one is scored as its phrase, _meant:
        # as loose words, "hidden card error" made "hidden" count for "drew")
        said = read.said if lang != "hu" else []
        self._add_other_names(words, per_word, renamed + [(t, m) for t, m in said if " " not in m])
        word_terms = query_terms = [set(pairs) for pairs in per_word]
        weights = [WEAK_WEIGHT if w in named or (w in weak and self.history.rare_now(terms))
                   or (light and language.is_light(w)) else 1.0 for w, terms in zip(words, word_terms, strict=True)]
        clauses = self.build_query(words, phrases, per_word, lang=lang, weights=weights) + self._meant(said)
        scores = self._score(clauses + self._name_clauses(names), allowed)
        # (the terms the question names, in its words and in the documents' words for them)
        tokens = self._tokens("text", " ".join([text, *(means for _, means in said)])) if lang != "hu" else []
        if tokens and scores:  # the rules' terms the question names lift the rules defining them
            for docnum, factor in self.concepts.boosts(tokens, lambda t: self._df("text", t),
                                                       self.reader.doc_count_all()).items():
                if docnum in scores:
                    scores[docnum] *= factor
            for docnum, factor in self.concepts.meeting(tokens).items():  # a rule citing two of them
                if docnum in scores:
                    scores[docnum] *= factor
        if names and not words and lift:  # only card names: the cards' own rules
            add_cards_rules(scores, lift, allowed)
        for docnum, factor in (lift or {}).items():
            if docnum in scores:
                scores[docnum] *= factor
        now_first = current_first and lang != "hu" and not self.history.asks_old(
            words, query_terms, in_older_words=bool(renamed), spoken=[typed for typed, _ in said])
        # (a question naming a Rules Enforcement Level is a tournament's, whatever its other words)
        if now_first and scores:
            body = "tournament" if apart else self._body(text, word_terms, weights)
            if body is not None:  # the other body's texts count at half (search/register.py)
                tournament = self.register.tournament
                for docnum in scores:
                    if (docnum in tournament) != (body == "tournament"):
                        scores[docnum] *= OTHER_BODY_FACTOR
        field = "title_hu" if lang == "hu" else "title"
        title = tuple(self._tokens(field, text))  # (as respelled: "legnd rule" is "legend rule")
        if scores and title and not phrases:  # (a title that is the query, word for word, or nearly)
            current = self.in_force(today())
            for docnum in self.scorer.whole(field, title, TITLE_SLACK) & scores.keys():
                if not now_first or current(docnum):
                    scores[docnum] *= TITLE_FACTOR
        if scores and said and not phrases:  # (a player's phrase for a section's title names it too:
            current = self.in_force(today())  # "drew an extra card", the Hidden Card Error)
            for docnum in self._titled_by(said) & scores.keys():
                if not now_first or current(docnum):
                    scores[docnum] *= TITLE_FACTOR
        # The pool re-ranked below does not depend on --limit (up to POOL), so a longer list
        # starts with the shorter one.
        pool = max(POOL, limit) + len(numbers or ())
        suggestion = None
        if scores:
            # Every match of a phrase is read, so its total is exact: a phrase's matches are few.
            order = self._pool_order(scores, word_terms)
            top, total = self._best_per_group(scores, pool, MAX_COUNTED if phrases else POOL, order)
            matched = self._matched([docnum for docnum, _ in top], set().union(*word_terms))
        elif words and not phrases and not numbers:  # ('what does 702.2c say': the rule is the answer)
            suggestion = corrected(self, words, lang)
            if lang is not None:  # near spellings in the query's own language only
                own = self.scorer.docs("lang", [lang])
                allowed = own if allowed is None else allowed & own
            top, matched, total, word_terms = near_spellings(self, words, allowed, pool)
        else:
            top, matched, total = [], {}, 0
        pooled = []
        for docnum, score in top:
            rid, boost = self._pooled(docnum)
            pooled.append((rid, score * boost, matched.get(docnum, set())))
        results = Results(query=typed_text.strip(), total=0, suggestion=suggestion,
                          notes=[f"read {typed!r} as {spelled!r}" for typed, spelled in read.respelled])
        # When every match is in the pool, the total is exact: what the hits would be, all shown.
        # A phrase's total counts the hits there are to list, identical texts once (its matches
        # are few); other totals count the matching rules.
        complete = bool(phrases) and len(top) >= total
        if len(weights) != len(word_terms):  # fuzzy spellings stand for the words
            weights = [1.0] * len(word_terms)
        rarity = [r * w for r, w in zip(self._rarity(word_terms), weights, strict=True)]
        now: set[str] = set()
        if now_first:  # (a question about paper Magic is not answered by the digital documents)
            current = self.in_force(today())
            digital = set() if self.parlance.asks_digital(typed_text) else self._digital
            now = {rid for (docnum, _), (rid, _, _) in zip(top, pooled, strict=True)
                   if current(docnum) and docnum not in digital and docnum not in apart}
        first: set[str] = set()
        if now and (apart or self.parlance.asks_tournament(text)):  # (a named level, or a penalty, an
            # infraction: the tournament documents that apply lead; read from the register of the words
            # alone, register.py, the same lead cost 6 of 46 real game questions their rule)
            tournament = self.register.tournament
            first = {rid for (docnum, _), (rid, _, _) in zip(top, pooled, strict=True)
                     if rid in now and docnum in tournament}
        ranked = rerank(pooled, word_terms, rarity, now, first)
        if tokens and top:  # each rare rules term the question names shows its rule near the top
            terms = self.concepts.aspects(tokens, lambda t: self._df("text", t), self.reader.doc_count_all())
            # (a question about older rules and its one term: the term's rules are today's and their
            # lineage, not the older editions' texts it asks for)
            if len(terms) < 2 and not now_first and when is None:
                terms = []
            ranked = cover(ranked, [{rid for (docnum, _), (rid, _, _) in zip(top, pooled, strict=True)
                                     if docnum in docs and (not now or rid in now)} for docs in terms])
        distinct = fill(results, list(numbers or []), ranked, limit, texts, pick, self._spans, count_all=complete)
        results.total = distinct if complete else max(len(results.hits), total)
        if crossed and not results.hits and allowed:
            other = language.NAMES["hu" if crossed == "en" else "en"]
            results.notes.append(f"every document these filters pass is in {other}, and the query is in "
                                 f"{language.NAMES[crossed]}: ask in {other}, or drop the filter")
        return results

    def _read(self, text: str, names: list[str]) -> Reading:
        """The query's words as the search scores them: the card names cut (without_names), its
        language, the rules' terms typed as initials spelled out ("ETB", "SBA"), near spellings
        respelled, the capitalised words told apart, and a question's function words dropped."""
        text, names = without_names(text, names)
        # (people's shorthand first, as the vocabulary file spells it out: "HCE", "FtMGS", "CMC")
        text, shorthand = self.parlance.spell_out(text)
        joined = self._respellings.joined(text)  # ("non-land": the rules' "nonland")
        text = read_as(text, joined)
        shorthand += joined
        words, phrases = split_query(text)
        lang = language.detect(words, self.known)
        # "ETB", "SBA": the rules' own terms by their initials, searched as the rules write them
        spelled_out = spell_out(text, lambda: self._abbreviations, lambda w: self._df("exact", w) > 0) \
            if lang != "hu" else []
        text = read_as(text, spelled_out)
        if spelled_out:
            words, phrases = split_query(text)
            lang = language.detect(words, self.known)
        # (a player's word the vocabulary reads, "blink", is no misspelling of the documents' "blank")
        said = [(typed.lower(), means) for typed, means in self.parlance.meanings(text)]
        said += [(typed, means) for typed, means in self.negations(text) if not any(typed in t for t, _ in said)]
        spoken = {w for typed, _ in said for w in typed.split()}
        unknown = [w for w in words if w.lower() not in spoken and not language.is_function(w, lang)]
        # (a word of no known language is only read as two English words it closes up: "manaburn")
        respelled = self._respellings.of(unknown, slips=lang == "en") if lang in ("en", None) else []
        for typed, spelled in respelled:  # searched as if typed so: its rules terms, pairs, era
            text = re.sub(rf"(?<!\w){re.escape(typed)}(?!\w)", spelled, text)
        if respelled:
            words, phrases = split_query(text)
        weak, named = weak_words(text, words)
        light = lang != "hu" and len(words) >= QUESTION_WORDS  # (light verbs are weak in a question)
        words = language.content_words(words, lang)
        if names and all(language.is_function(w, lang) for w in words):
            # ("Blood Moon and Urza's Saga": card names, and nothing else to read; their language is
            # the cards' English, whatever joins them or accents them: "Blood Moon és Urza's Saga",
            # "Jötun Grunt")
            words, lang = [], "en"
        return Reading(text, names, words, phrases, lang, weak, named, light, shorthand + spelled_out + respelled, said)

    def _body(self, text: str, word_terms: list[set], weights: list[float]) -> str | None:
        """Register.body of a question's words, names and light words aside; the title of a game
        text in force tells neither ("minimum deck size" is the Comprehensive Rules' term, though
        the MTR's words)."""
        body = self.register.body([t for terms, weight in zip(word_terms, weights, strict=True) if weight == 1.0
                                   for f, t in terms if f == "text"])
        title = tuple(self._tokens("title", text)) if body == "tournament" else ()
        if not title:
            return body
        current, tournament = self.in_force(today()), self.register.tournament
        return None if any(current(d) and d not in tournament for d in self.scorer.whole("title", title, TITLE_SLACK)) else body

    def _pooled(self, docnum: int) -> tuple[str, float]:
        """The id a document is listed by (a heading's lead paragraph stands for it) and its
        kind's weight, kept: a stored column's read costs about 7 microseconds, three per pooled
        document, and queries pool the same documents again and again (1.8 ms a query)."""
        held = self._pool_meta.get(docnum)
        if held is None:
            if len(self._pool_meta) > 50_000:
                self._pool_meta.clear()
            lead = self._column("lead")[docnum]
            kind = self._column("kind")[docnum]
            held = self._pool_meta[docnum] = (lead or self._column("id")[docnum],
                                              KIND_BOOST.get(kind, 1.0) * (LEAD_FACTOR if lead else 1.0))
        return held

    def rules_word(self, word: str, texts: Callable[[list[str]], dict[str, Record]]) -> bool:
        """Whether a word is the rules' own: a title holds it, a rule or glossary entry of the
        Comprehensive Rules prints it in any case (the subtypes: "Desert", "Ninja"), or any text
        says it in lower case ("fog", "time"). A word the rules print only capitalised inside an
        example or a ruling ("Tarmogoyf", "Humility") or a web address is not: the index reads all
        alike, so the texts holding it are read, in batches, until one says it so (most words: in
        the first batch), at most SAYS_READ texts; kept per word."""
        lowered = _POSSESSIVE.sub("", word.lower())  # ("Humility's": the word is "humility")
        if lowered not in self._rules_words:
            if len(self._rules_words) > 50_000:
                self._rules_words.clear()
            self._rules_words[lowered] = self.known("en", lowered) and self._rules_say(lowered, texts)
        return self._rules_words[lowered]

    def _rules_say(self, lowered: str, texts: Callable[[list[str]], dict[str, Record]]) -> bool:
        if any(self._df("title", t) for t in self._tokens("title", lowered)):
            return True
        docnums = self.scorer.frequencies("exact", fold(lowered))[0]
        if not self._cr_rules.isdisjoint(docnums):
            return True
        ids = [self._column("id")[d] for d in docnums[:SAYS_READ]]
        said = re.compile(rf"(?<![\w'’-]){re.escape(lowered)}(?![\w'’-])")
        return any(said.search(_ADDRESS.sub(" ", record.text or "")) for at in range(0, len(ids), SAYS_BATCH)
                   for record in texts(ids[at:at + SAYS_BATCH]).values())

    @cached_property
    def parlance(self) -> Parlance:
        """The words people use for the documents' words (corpus/vocabulary.toml), read once."""
        return load_parlance(self._vocabulary_file)

    @cached_property
    def _digital(self) -> set[int]:
        """The documents of the digital tournament rules (MTG Arena, Magic Online)."""
        return self.scorer.docs("source", list(DIGITAL_DOCUMENTS))

    @cached_property
    def _cr_rules(self) -> set[int]:
        """The Comprehensive Rules' rules and glossary entries, every release (not their examples)."""
        return self.scorer.docs("source", ["cr"]) & self.scorer.docs("kind", ["rule", "glossary"])

    def _holding(self, phrases: list[str], allowed: set[int] | None) -> set[int] | None:
        """The allowed documents that hold every quoted phrase, in some field, word for word
        (as the field's analyzer reads it)."""
        for phrase in phrases:
            found: set[int] = set()
            spelled = False  # a phrase of punctuation only requires nothing
            for field in PHRASE_FIELDS:
                toks = tuple(self._tokens(field, phrase))
                if toks:
                    spelled = True
                    found |= self.scorer.containing(field, toks, allowed)
            if spelled:
                allowed = found
        return allowed

    def _score(self, clauses: list[Clause], allowed: set[int] | None) -> dict[int, float]:
        """The clauses' summed scores. Words first; phrase and word-pair clauses (positions to
        decode and match) then only for the NEAR_CANDIDATES best documents: a broad question's
        common pair ("ability spell") sits in thousands of documents, and the pair's bonus
        reorders the leaders, it does not lift a document from beyond them."""
        words = [c for c in clauses if len(c.tokens) == 1]
        near = [c for c in clauses if len(c.tokens) > 1]
        for clause in near:  # read once, positions and all
            for token in clause.tokens:
                self.scorer.postings(clause.field, token, positions=True)
        scores = self.scorer.score(words, allowed)
        if near:
            if len(scores) > NEAR_CANDIDATES:
                allowed = set(sorted(scores, key=scores.__getitem__, reverse=True)[:NEAR_CANDIDATES])
            for docnum, bonus in self.scorer.score(near, allowed).items():
                scores[docnum] = scores.get(docnum, 0.0) + bonus
        return scores

    def _best_per_group(self, scores: dict[int, float], pool: int, keep_all: int,
                        order: dict[int, float]) -> tuple[list[tuple[int, float]], int]:
        """The top `pool` groups by `order` (every group, when no more than `keep_all` match), each
        as its version in force today (an upcoming one is not yet the rule), else its newest, with
        the group's best score, and the number of matching groups (rules)."""
        group, first, last = self.docmeta()
        now = today()
        total = len(set(map(group.__getitem__, scores)))
        if total <= keep_all:
            pool = max(pool, total)
            candidates = list(order)
        else:
            # Versions of one rule score alike, so the group's best and newest are among the top
            # candidates: collapsing only those keeps a broad query's cost off the whole match set.
            # (sorted() with a C key outruns heapq.nlargest with a Python one here, ties kept
            # in the scores' own order)
            candidates = sorted(order, key=order.__getitem__, reverse=True)[:20 * pool]
        best: dict[int, tuple[int, float, float]] = {}  # group -> (docnum, score, order): the newest version
        for docnum in candidates:
            g, score, key, held = group[docnum], scores[docnum], order[docnum], best.get(group[docnum])
            if held is None:
                best[g] = (docnum, score, key)
            else:
                kept, live = held[0], first[docnum] <= now <= last[docnum]
                if live != (first[kept] <= now <= last[kept]):
                    better = live
                else:
                    better = last[docnum] > last[kept] or (last[docnum] == last[kept] and docnum < kept)
                best[g] = (docnum if better else kept, max(score, held[1]), max(key, held[2]))
        return [(d, s) for d, s, _ in sorted(best.values(), key=itemgetter(2), reverse=True)[:pool]], total

    def docmeta(self, columns: int = 3):
        """DOCMETA's first `columns`, read once per searcher: each document's group number and
        days in force (then the order of their last days: schema.in_force_on)."""
        if self._docmeta is None:
            self._docmeta = read_docmeta(os.path.join(self.path, DOCMETA), self.reader.doc_count_all())
            if self._docmeta is None:
                raise DamagedData(f"{DOCMETA} is missing, the wrong size or fails its checksum", str(self.path),
                                  "run 'rulebase index build' to rebuild it")
        return self._docmeta[:columns]

    @cached_property
    def register(self) -> Register:
        return Register(self.scorer, lambda: self.docmeta(DOCMETA_COLUMNS), lambda: self.scorer.field_lengths("text"))

    @cached_property
    def tables(self) -> Tables:
        """The glossary's and the MTR's tables (index/tables.py), read once."""
        return Tables(os.path.join(self.path, TABLES))

    @cached_property
    def concepts(self) -> Concepts:
        """The terms of the rules in force now and the rules they name (CONCEPTS), read once."""
        return Concepts(*self._concept_file(read_concepts))

    @cached_property
    def _abbreviations(self) -> dict[str, list[str]]:
        """The concept table's terms by their initials (search.concepts.initials), read on the
        first query that holds capitals to spell out."""
        return initials(self._concept_file(read_names).values())

    def _concept_file(self, read: Callable[[str], dict | tuple | None]) -> dict | tuple:
        """What `read` takes from CONCEPTS; damage when the file is missing or fails its checksum."""
        found = read(os.path.join(self.path, CONCEPTS))
        if found is None:
            raise DamagedData(f"{CONCEPTS} is missing or fails its checksum", str(self.path),
                              "run 'rulebase index build' to rebuild it")
        return found

    def in_force(self, when: int) -> Callable[[int], bool]:
        _, first, last = self.docmeta()
        return lambda docnum: first[docnum] <= when <= last[docnum]

    def _allowed(self, filters: dict[str, list[str]]) -> set[int] | None:
        """Documents passing every filter (values of one filter are alternatives); None: all."""
        allowed = None
        for name, values in filters.items():
            if name not in FILTER_FIELDS:
                raise UsageError(f"unknown filter {name!r}", hint="use " + ", ".join(FILTER_FIELDS))
            if values:
                docs = self.scorer.docs(name, values)
                allowed = docs if allowed is None else allowed & docs
        return allowed

    def _column(self, name: str):
        """A stored column's reader, opened once per searcher (each opening re-reads its offsets)."""
        if name not in self._columns:
            self._columns[name] = self.reader.column_reader(name)
        return self._columns[name]

    def _searcher(self):
        """Whoosh's own searcher, opened on first need: importing it costs a cold search 20 ms."""
        if self._whoosh is None:
            # lazy: Whoosh (~140 ms) only where this path reads the index
            from whoosh.scoring import BM25F
            from whoosh.searching import Searcher as WhooshSearcher

            self._whoosh = WhooshSearcher(self.reader, weighting=BM25F(B=BM25_B, K1=BM25_K1), closereader=False)
        return self._whoosh
