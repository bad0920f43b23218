"""Definitions of a term across editions and sources: the text that defines it, in each document.

A document defines a term in one of these ways, and `define` looks for each:
- a glossary entry titled with the term (or one of its aliases);
- a titled paragraph or a rule heading ("-Trample-:" in the 4th Edition rulebook, "A.27 - Trample"
  in Crystal Keep), where the definition is the entry's text as the book prints it: the titled
  paragraph and the untitled paragraphs that continue it, or the heading's first rule that says
  what the term does, not how it is printed ("The ability is written 'Trample'");
- a sentence that names it inside another entry ("This kind of damage is called mana burn" in the
  4th Edition's Mana pool entry; "Ezt manaégésnek hívjuk" in the Hungarian guide), else a paragraph
  that opens with it as its subject ("Interrupts always happen ..." in the 4th Edition rulebook);
- a Hungarian term record pairing the word with the English one ("Könyvtár (library)");
and the tournament documents define the terms of their own in their sections (defined.py).
A Hungarian name is only ever one the corpus states: a term record's pairing, or a curated topic
(corpus/topics.toml) that lists it as an alias, confirmed by a naming sentence in the guide.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

from rulebase.core.errors import ManifestError, NotFound, UsageError
from rulebase.core.records import Record, fold_accents
from rulebase.core.sources import edition_rank
from rulebase.core.value import Value
from rulebase.index.store import RecordStore
from rulebase.ingest.link import bare_title, fold_term
from rulebase.rules.defined import Defined, in_time
from rulebase.rules.defined import definitions as policy_definitions
from rulebase.rules.topics import TOPICS_FILE, find_topic, load_topics

_STOP = {"the", "a", "an", "of", "to"}
# A rule that says how an ability is printed, not what it does: not a definition.
_FORM_ONLY = re.compile(r"\b(?:is|are) (?:written|abbreviated|spelled|printed)\b", re.IGNORECASE)
_HUNGARIAN = '%"lang": "hu"%'  # how a Hungarian record's stored JSON says so (store.py)
CONTINUATION = 3  # untitled paragraphs that may continue a titled one
# "is called mana burn", "called \"mana burn\"", "known as mana burn"
_NAMED_EN = r"(?:is|are) called|called|known as"
# Hungarian: "Ezt manaégésnek hívjuk" (the name takes a case ending before the verb)
_NAMED_HU = re.compile(r"(\w+)\s+(?:hívjuk|hivjuk|nevezzük|nevezzuk|hívják|nevezik)\b", re.IGNORECASE)


class Definitions(Value):
    __slots__ = ("term", "entries", "hungarian", "referrers", "when", "cited")

    def __init__(self, term: str, entries: list[Defined], hungarian: list[Record], referrers: list[Record],
                 when: int | None = None, cited: dict[str, Record] | None = None) -> None:
        self.term = term
        self.entries = entries  # in force first (a glossary entry, then the rule it cites), then history
        self.hungarian = hungarian
        self.referrers = referrers
        self.when = when  # the day asked (None: today)
        self.cited = {} if cited is None else cited  # the records the definitions refer to, by id

    def refs_out(self, record: Record) -> list[Record]:
        """The records `record`'s references point at (each named by its title where it is shown)."""
        return [self.cited[ref.target] for ref in record.refs if ref.target in self.cited]

    @property
    def definitions(self) -> list[Record]:
        """The records shown, in the order shown."""
        return [e.record for e in self.entries]


def loose_term(text: str) -> str:
    """Looser than link.fold_term: 'Removed from the game' meets 'remove from game'."""

    words = []
    for word in fold_term(text).split():
        if word in _STOP:
            continue
        for suffix in ("ing", "ed", "es", "s"):
            if len(word) > len(suffix) + 3 and word.endswith(suffix):
                word = word[: -len(suffix)]
                break
        if len(word) > 4 and word.endswith("e"):  # 'remove' and 'removed' both -> 'remov'
            word = word[:-1]
        words.append(word)
    return " ".join(words)


MAX_TERM = 200  # characters: the longest glossary title is 42


def define(store: RecordStore, term: str, when: int | None = None,
           also_named: Iterable[str] = ()) -> Definitions:
    """Every era's definition of `term` (or its Hungarian name): the one in force now (or on
    `when`) first with the rule it cites, then the history newest to oldest (defined.in_time),
    each document's defining text, each archive glossary entry once per era of its wording.
    `also_named`: further names the caller knows for the term (a curated topic's aliases); they
    count only where a document names them in so many words."""

    if len(term) > MAX_TERM:  # no glossary term is a tenth as long (42 characters at most)
        raise UsageError(f"the term is {len(term)} characters long; a glossary term has at most {MAX_TERM}",
                         hint="give a glossary term, e.g. 'rulebase define trample', or use 'rulebase search'")
    key = loose_term(term)
    if not key:
        raise UsageError("empty term", hint="give a glossary term, e.g. 'rulebase define trample'")
    hungarian = [t for t in store.of_kind("term")
                 if key in {loose_term(a) for a in t.aliases} or fold_accents(t.title or "") == fold_accents(term)]
    names = {key} | {loose_term(a) for t in hungarian for a in t.aliases}
    like = _like(names)
    definitions = [r for r in store.of_kind("glossary", None, like) if names & title_keys(r)]
    definitions += _defining_entries(store, names, {r.source for r in definitions})
    parents = store.get_many([t.parent for t in hungarian if t.parent])
    definitions += [p for p in parents if p.kind == "glossary" and p not in definitions]
    covered = {r.source for r in definitions}
    definitions += naming_sentences(store, [term, *also_named], covered)
    definitions += opening_paragraphs(store, names, covered)
    definitions.sort(key=lambda r: (edition_rank(r.edition), r.source, r.order))
    entries = in_time(store, definitions, when)
    entries = _beside(entries, policy_definitions(store, term, when))
    if not entries and not hungarian:
        titles = [r.title for r in store.of_kind("glossary", when) if r.title]
        # lazy: only this rarer path needs it
        from rulebase.core.likeness import close_names
        from rulebase.search.concepts import initials

        names = list(dict.fromkeys(bare_title(t) for t in titles))
        close = close_names(term, names)
        spelled = initials(names).get(term.strip().upper(), []) if term.strip().isupper() else []
        close = list(dict.fromkeys([n.lower() for n in spelled] + close))  # an abbreviation's term first
        raise NotFound(f"no glossary definition of {term!r}", close[:5], hint="try 'rulebase search'")
    shown = [e.record for e in entries]
    ids = {r.id for r in shown}
    ref_ids = list(dict.fromkeys(i for r in shown for i in r.refs_in if i not in ids))
    targets = list(dict.fromkeys(ref.target for r in shown for ref in r.refs if ref.target))
    return Definitions(term, entries, hungarian, store.get_many(ref_ids), when,
                       {r.id: r for r in store.get_many(targets)})


def grouped(entries: list[Defined]) -> list[list[Defined]]:
    """define's entries as definitions: a titled paragraph and the untitled paragraphs that continue
    it (defining_text: the 4th Edition's "Trample:" and the two after it) are one definition."""
    groups: list[list[Defined]] = []
    for entry in entries:
        head = groups[-1][0].record if groups else None
        record = entry.record
        if (head is not None and head.title and not head.span and not record.title and not record.span
                and record.source == head.source and record.parent == head.parent and record.kind == head.kind
                and (entry.first, entry.last) == (groups[-1][0].first, groups[-1][0].last)):
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def _beside(entries: list[Defined], policy: list[Defined]) -> list[Defined]:
    """The tournament documents' own definitions after the definitions in force (and the rules
    they cite), before the history."""
    at = next((n for n, e in enumerate(entries) if not e.now), len(entries))
    return entries[:at] + policy + entries[at:]


def title_keys(record: Record) -> set[str]:
    """The loose names a record is titled with, each also without a last word "rule": the
    glossary's "Summoning Sickness Rule" and "Legend Rule" define "summoning sickness" and
    "legend"."""
    keys = {loose_term(n) for n in [record.title or "", *record.aliases]}
    return keys | {k.removesuffix(" rule").strip() for k in keys if k.endswith(" rule")}


def curated_names(corpus_dir: Path, term: str, topics: list | None = None) -> list[str]:
    """The Hungarian names a curated topic (corpus/topics.toml) gives the term: its aliases in
    Hungarian ("manaégés" for mana burn). A broken topics file gives none here; `compare`
    reports it. `topics`: the file already read (load_topics), for a caller asking many terms."""

    if topics is None:
        try:
            topics = load_topics(Path(corpus_dir) / TOPICS_FILE)
        except ManifestError:
            return []
    topic = find_topic(topics, term)
    return [a for a in (topic.aliases if topic else ()) if not a.isascii()]


def _defining_entries(store: RecordStore, names: set[str], covered: set[str],
                      when: int | None = None) -> list[Record]:
    """Where a source has no glossary entry for the term, the paragraph or rule heading titled
    with it, as defining_text() reads it."""
    found: list[Record] = []
    like = _like(names)
    for kind in ("passage", "chapter"):
        for record in store.of_kind(kind, when, like):
            if record.source in covered or not record.title:
                continue
            if names & {loose_term(n) for n in [record.title, *record.aliases]}:
                shown = defining_text(record, store.children, names)
                if shown:
                    found += shown
                    covered.add(record.source)
    return found


def defining_text(record: Record, children: Callable[[str], list[Record]], names: set[str]) -> list[Record]:
    """What defines the term a titled record names (`children(id)`: a record's children in
    order). A rule heading: its first rule that is not about how the ability is written (else its
    first rule). A titled paragraph: the paragraph and the untitled ones that continue it, while
    they still speak of the term (`names`, as loose_term gives them)."""
    if record.kind == "chapter":
        kids = children(record.id)
        rules = [c for c in kids if c.kind in ("rule", "passage")] or kids
        for child in rules:
            if not _FORM_ONLY.search(child.text):
                return [child]
        return rules[:1]
    shown = [record]
    if record.parent:
        after = [s for s in children(record.parent) if s.order > record.order]
        for sibling in after[:CONTINUATION]:
            if sibling.title or sibling.kind != record.kind or not _mentions(sibling.text, names):
                break
            shown.append(sibling)
    return shown


def _like(names: set[str]) -> tuple[str, ...]:
    """SQL LIKE prefilters that every record titled with one of the (loose) names passes: its
    words in order (loose_term's stems are prefixes of the words), and every Hungarian record
    (LIKE cannot fold accents, and loose names are accent-folded). Empty (no prefilter) when a
    name is not ASCII."""
    if not names or not all(n.isascii() for n in names):
        return ()
    return (*("%" + "%".join(n.split()) + "%" for n in names if n), _HUNGARIAN)


def _mentions(text: str, names: set[str]) -> bool:
    """Whether the text uses one of the loose names: a word starting with it, after loose_term
    ("trampl" in "trampling")."""
    words = f" {loose_term(text)}"
    return any(f" {name}" in words for name in names if name)


NAMING_WORDS = ("called", "known as", "hívjuk", "hivjuk", "nevezz")  # what every naming sentence says


def naming_test(names: Iterable[str]) -> Callable[[Record], bool]:
    """Whether a record's text names the term (one of `names`) in a sentence: "... is called mana
    burn" in English, "Ezt manaégésnek hívjuk" in Hungarian."""
    english = [n for n in names if n.strip() and n.isascii()]
    hungarian = {fold_accents(n).lower() for n in names if n.strip()}
    patterns = [re.compile(rf"(?:{_NAMED_EN})\s+[\"“']?{re.escape(n)}\b", re.IGNORECASE) for n in english]

    def test(record: Record) -> bool:
        if record.lang == "hu":
            named = _named_words(record.text)
            return any(word.startswith(n) for word in named for n in hungarian if len(n) >= 4)
        return any(p.search(record.text) for p in patterns)
    return test


@lru_cache(maxsize=4096)
def _named_words(text: str) -> frozenset[str]:
    """The words a Hungarian text names ("manaégésnek" in "Ezt manaégésnek hívjuk"), folded
    (cached: the glossary site asks this of the same few paragraphs for every term)."""
    return frozenset(fold_accents(m.group(1)).lower() for m in _NAMED_HU.finditer(text))


def naming_sentences(store: RecordStore, names: Iterable[str], covered: set[str],
                     when: int | None = None) -> list[Record]:
    """Records whose text names the term in a sentence ("... is called mana burn", "Ezt
    manaégésnek hívjuk"), one per document not already covered."""
    names = list(names)
    english = [n for n in names if n.strip() and n.isascii()]
    names_it = naming_test(names)
    found: list[Record] = []
    like = tuple(f"%{verb}%{name}%" for verb in ("called", "known as") for name in english)
    like += ("%hívjuk%", "%hivjuk%", "%nevezz%")  # (only the Hungarian guide says these)
    for kind in ("glossary", "passage"):  # (rules: a scan of every release's versions, and a
        for record in store.of_kind(kind, when, like):  # rule-based document has a glossary)
            if record.source not in covered and names_it(record):
                found.append(record)
                covered.add(record.source)
    return found


# What follows the term when a paragraph opens with it as its subject: "Interrupts always happen
# ...", "Legends are considered creatures ...", "The main phase is the only time ..." (not "Summon
# spells bring ...", whose subject is another noun, nor "An enchantment can even be used ...").
_SUBJECT_VERBS = frozenset({"is", "are", "always", "never"})
_SUBJECT_WORDS = 4  # the longest term a paragraph is read as opening with


def opening_keys(record: Record) -> set[str]:
    """The terms (loose_term's keys) an untitled paragraph opens with as the subject of its first
    sentence: how a rulebook without a glossary entry explains a term (the 4th Edition's
    interrupts). A titled paragraph or an archive version opens with none."""
    if record.title or record.span:
        return set()
    words = record.text.split(None, _SUBJECT_WORDS + 2)
    if words and words[0].lower() in ("a", "an", "the"):
        words = words[1:]
    return {loose_term(" ".join(words[:n])) for n in range(1, min(_SUBJECT_WORDS, len(words) - 1) + 1)
            if words[n].lower() in _SUBJECT_VERBS} - {""}


def opening_paragraphs(store: RecordStore, names: set[str], covered: set[str],
                       when: int | None = None) -> list[Record]:
    """In each document still without a definition, the first paragraph that opens with the term
    (one of the loose `names`) as its subject (opening_keys)."""
    found: list[Record] = []
    for record in store.of_kind("passage", when, _like(names)):
        if record.source not in covered and names & opening_keys(record):
            found.append(record)
            covered.add(record.source)
    return found
