"""A search request end to end: rule numbers first, then ranked full text."""

from __future__ import annotations

import re
from collections.abc import Callable

from rulebase.core.eras import labels_between, today
from rulebase.core.errors import UsageError
from rulebase.core.pattern import lazy
from rulebase.core.records import Record, fold_typography
from rulebase.core.value import Value
from rulebase.index.tables import PROGRAMS_TITLE
from rulebase.index.versions import by_era, in_force, texts_since
from rulebase.search import language
from rulebase.search.cards import lift as card_lift
from rulebase.search.cards import read_cards, shared_short_name
from rulebase.search.hits import Hit, Results, clip
from rulebase.search.question import quoted_in_question, read_era, split_query, straight_quotes, without_links
from rulebase.search.register import LEADS_AT, NOT_AT, OTHER_BODY_FACTOR, level_named, without_level
from rulebase.search.spelling import complete_stars

# (a sentence's full stop may follow: "... See rule 613.1f.")
NUMBER_IN_QUERY = re.compile(
    r"(?<![\w.])(?:\d{3}\.\d+[a-z]?(?:\.Ruling\.\d+)?|\d{3}\.Ruling\.\d+|G\d+\.\d+[a-z]?|[A-Z]\.\d+(?:\.\d+)?)(?!\w|\.\w)")
MAX_QUERY = 2000
HEADING_WORDS = 4  # a cited rule this short is a heading ("702.19. Trample")
_POINTER = re.compile(r"\bSee (?:rule|rules|section) (\d{3}(?:\.\d+[a-z]?)?)")
_SEE_RULE = re.compile(r"\b[Ss]ee rules? (\d{3}\.\d+[a-z]?)")  # a rule's own pointer: "(see rule 306.5b)"
# A rule the first hit sends the reader to moves up to second from this far down (whatever the
# --limit: the search reads this many hits at least).
CITED_WITHIN = 10
SHARED_SHOWN = 4  # cards named in the note for a query that is a name several cards share
CARD_KINDS = {"card", "card-ruling"}  # searched in the cards' own index
Lead = Callable[[Record], bool]  # the text that leads at the level a question names (_at_level)
RULINGS_SHOWN, RULINGS_READ = 3, 30  # card rulings beside the rules; read to find the named cards' own


def run_search(library, query: str, filters: dict[str, list[str]], limit: int = 10,
               when: int | None = None, read_cards_named: bool = True) -> Results:
    """A question as a user asks it. With no date and no edition, the rules in force now come
    first, unless its words name an era ("4th edition", "in 2005": then that era's texts answer,
    when it has any) or ask about older rules; a glossary entry that only points to a rule
    brings that rule in ahead of it. The cards the question names are read (search/cards.py) and
    listed first, their rules lifting the ranking; `read_cards_named=False` measures without."""
    if not query.strip():
        raise UsageError("empty query", hint='give some words, e.g. rulebase search "damage prevention"')
    query, note = shorten(straight_quotes(query))
    if set(filters.get("kind") or []) & CARD_KINDS:
        return _search_cards(library, query, filters, limit, note)
    original = query
    query, starred = complete_stars(library.searcher.reader, without_links(query))
    rules_word = _rules_word(library)
    named = read_cards(library.store, query, rules_word) if read_cards_named else []
    cards = Cards([record for record, _ in named], [typed for _, typed in named], _lift(library, [r for r, _ in named]))
    leads: Lead | None = None  # which text leads at the level the question names
    if not filters.get("source"):  # the document of the level the question names comes first
        query, cards.lift, cards.apart, leads = _at_level(library, query, cards.lift)
    current_first = when is None and not filters.get("edition")
    if current_first:
        era = read_era(query, today() // 10000)
        if era.edition and era.text.strip() and library.searcher.scorer.docs("edition", [era.edition]):
            in_era = _search(library, era.text, {**filters, "edition": [era.edition]}, limit, None, False, cards)
            if in_era.hits:
                in_era.query = " ".join(query.split())
                in_era.notes[:0] = starred
                return _with_cited_rules(library, in_era, limit, None, bring=False)
        if era.day is not None and era.text.strip():
            query, when = era.text, era.day
        current_first = not era.asks_for_history
    # A filtered search, or a phrase search, lists only what passes: no rule is brought in or moved.
    bring = not any(filters.values()) and not ('"' in query and not quoted_in_question(query))
    move = bring and (current_first or when is not None)  # (not for a question about older rules)
    results = _search(library, query, filters, max(limit, CITED_WITHIN) if move else limit, when, current_first, cards)
    results.query = " ".join(original.split())
    results.notes[:0] = starred
    if note:
        results.notes.append(note)
    if move:
        _cited_next(library, results, when)
        _level_first(library, results, leads)
    if not cards.records:
        _note_shared_name(library, original, results, rules_word)
    if cards.records and results.hits and not any(filters.values()):  # (none answers: "No results", exit 1)
        _with_rulings(library, query, results, cards.records)
    return _with_cited_rules(library, results, limit, when, bring=bring)


def _with_rulings(library, query: str, results: Results, named: list) -> None:
    """For a question that names cards, the official rulings whose words answer it, beside the
    rules (a ruling is evidence of what the card does): the named cards' own first, at most
    RULINGS_SHOWN, each named by its card and date. From the rulings' own index, so the rules'
    ranking is untouched; only for such questions, as a second query costs about what the rules'
    own does (measured in process: search p50 108 -> 218 ms on a loaded machine, every query)."""
    try:
        searcher = library.ruling_searcher
        store = library.store
        found = searcher.search(query, {}, RULINGS_READ, texts=lambda ids: {r.id: r for r in store.get_many(ids)})
    except UsageError:  # a corpus without card rulings
        return
    own = {record.id for record in named}
    hits = sorted(found.hits, key=lambda hit: (found.records[hit.id].parent not in own) if hit.id in found.records
                  else True)  # (a stable sort: the rank kept within each part)
    results.rulings = hits[:RULINGS_SHOWN]
    results.records.update({hit.id: found.records[hit.id] for hit in results.rulings if hit.id in found.records})


def _rules_word(library) -> Callable[[str], bool]:
    """Whether a (lower-case) word is the rules' own (Searcher.rules_word), its texts read from the
    store."""
    texts = lambda ids: {r.id: r for r in library.store.get_many(ids)}  # noqa: E731
    return lambda word: library.searcher.rules_word(word, texts)


def _note_shared_name(library, query: str, results: Results, rules_word: Callable[[str], bool]) -> None:
    """A query that is the short name several cards share ("Thalia") is named as such, with the
    cards (the first SHARED_SHOWN), instead of a spelling correction from the rules' words."""
    typed, names = shared_short_name(library.store, query, rules_word)
    if not names:
        return
    results.suggestion = None
    more = len(names) - SHARED_SHOWN
    shown = "; ".join(names[:SHARED_SHOWN]) + (f" and {more} more" if more > 0 else "")
    results.notes.append(f'{len(names)} cards are called {typed!r} ({shown}): rulebase card "{typed}" lists them')


def _search(library, query: str, filters: dict[str, list[str]], limit: int, when: int | None,
            current_first: bool, cards: Cards | None = None) -> Results:
    """Numbers in the query ('what does 306.5 say') go straight to that rule, ahead of text hits
    (one version per rule: the one in force on `when`, else the newest; in a question with no
    date, only the one in force now)."""
    numbered: list[Hit] = []
    for number in dict.fromkeys(NUMBER_IN_QUERY.findall(query)):
        found = library.store.by_number(number)
        if any(r.span for r in found) or when is not None:

            found = by_era(library.store, found, when)
            if current_first:
                found = in_force(library.store, found, today()) or found
        for record in found:
            if all(not values or getattr(record, name) in values for name, values in filters.items()):
                numbered.append(Hit(record.id, 0.0, clip(record.text, 200), exact_number=True))
    store = library.store
    pick = None
    editions = set(filters.get("edition") or ())
    if when is not None or editions:

        def fits(records: list) -> list:
            records = [r for r in records if r.span]  # archive versions (a lineage may hold twins)
            if when is not None:
                records = in_force(store, records, when)
            return [r for r in records if not editions or editions & set(labels_between(*r.span))]

        def pick(ids: list[str]) -> dict[str, str]:
            """For a hit that stands for several versions (build.writer.documents_of), the newest one in
            force on `when` and in the editions asked for: the one whose text is shown; "" when
            none is (a heading matched in that era, shown as its first rule of a later one)."""
            out = {}
            for record in store.get_many(ids):
                if record.span and record.lineage and not fits([record]):
                    same = fold_typography(record.text)
                    chosen = [r for r in fits(store.lineage(record.lineage)) if fold_typography(r.text) == same]
                    # none: a heading's lead child from another era ("" drops the hit)
                    out[record.id] = chosen[-1].id if chosen else ""
            return out
    cards = cards or Cards()
    results = library.searcher.search(query, filters, limit, numbered,
                                      texts=lambda ids: {r.id: r for r in store.get_many(ids)}, when=when, pick=pick,
                                      current_first=current_first, lift=cards.lift, names=cards.names,
                                      apart=cards.apart)
    results.cards = cards.records
    missing = [h.id for h in results.hits if h.id not in results.records]
    if missing:  # a hit renamed to a twin read in another batch
        results.records.update((r.id, r) for r in store.get_many(missing))
    return results


class Cards(Value):
    """The cards a question names: their records, the names as the question typed them (names,
    not rules words), and the factors the ranking takes per document: the lift their rules give
    (search/cards.py), with the level's the question names (search/register.py, run_search)."""

    __slots__ = ("records", "names", "lift", "apart")

    def __init__(self, records: list | None = None, names: list[str] | None = None,
                 lift: dict[int, float] | None = None, apart: set[int] | None = None):
        self.records = [] if records is None else records
        self.names = [] if names is None else names
        self.lift = {} if lift is None else lift
        self.apart = set() if apart is None else apart  # the documents not applying at the level named


def _lift(library, records: list) -> dict[int, float]:
    if not records:
        return {}
    store, scorer = library.store, library.searcher.scorer

    def docs_of(number: str, lineage: str) -> set[int]:
        source = lineage.split(":", 1)[0] if ":" in lineage else "cr"
        return scorer.docs("group", store.lineages_within(number, source, today()))

    return card_lift(records, store.cards_total(), docs_of)


def _at_level(library, query: str, lift: dict[int, float]) -> tuple[str, dict[int, float], set[int], Lead | None]:
    """The query, `lift` and the documents apart; for a question that names a Rules Enforcement
    Level (as the vocabulary spells its events out: "FNM"), the documents that do not apply at it
    (search/register.py) counted at half and set apart: a question about the present lists them
    after those that apply, as it lists older texts after those in force. The words naming the
    level are cut when the question says more: they chose the document, and as words they matched
    the MTR's table of levels ("player drew too many cards at FNM" led with Appendix F). Last, the
    test of the hit that leads: a text of the sources written for that level (register.LEADS_AT),
    or, when the level is what the question asks about, the MTR's table of levels (Appendix F)."""
    spelled = library.searcher.parlance.spell_out(query)[0]
    level = level_named(spelled, library.programs)
    if level is None:
        return query, lift, set(), None
    out = dict(lift)
    apart = library.searcher.scorer.docs("source", list(NOT_AT[level]))
    for docnum in apart:
        out[docnum] = out.get(docnum, 1.0) * OTHER_BODY_FACTOR
    rest = without_level(spelled, library.programs)
    words, _ = split_query(rest)
    if len(language.content_words(words, "en")) < 2:  # the level is what is asked ("what REL is FNM"):
        table = {r.id for r in library.store.titled("mtr", list(PROGRAMS_TITLE))}  # (as current_programs finds it)
        return query, out, set(apart), lambda record: record.id in table
    return rest, out, set(apart), lambda record: record.source in LEADS_AT.get(level, ())


def _level_first(library, results: Results, lead: Lead | None) -> None:
    """For a question naming Regular REL or one of its events ("kicked out of FNM", "late at a
    prerelease"), the JAR's best answer in force among the first CITED_WITHIN hits comes first:
    the document written for that level, as a judge there reads it before the MTR; for one asking
    which level an event is ("what REL is FNM"), the MTR's table of levels."""
    if lead is None:
        return
    at = next((n for n, hit in enumerate(results.hits[:CITED_WITHIN]) if hit.id in results.records
               and lead(results.records[hit.id]) and in_force(library.store, [results.records[hit.id]], today())), 0)
    if at > 0:
        results.hits.insert(0, results.hits.pop(at))


def _search_cards(library, query: str, filters: dict[str, list[str]], limit: int, note: str | None) -> Results:
    """`search --kind card` (or `card-ruling`, a card's official rulings): the cards' own index,
    ranked by the same searcher and scorer."""
    others = {name: values for name, values in filters.items() if values and name != "kind"}
    kinds = set(filters["kind"])
    if others or not kinds <= CARD_KINDS or len(kinds) > 1:
        raise UsageError("--kind card searches the cards alone, --kind card-ruling their rulings alone",
                         hint="drop the other filters, or search the rules without --kind card")
    store = library.store
    searcher = library.card_searcher if kinds == {"card"} else library.ruling_searcher
    results = searcher.search(query, {}, limit, texts=lambda ids: {r.id: r for r in store.get_many(ids)})
    results.query = " ".join(query.split())
    if note:
        results.notes.append(note)
    return results


def _cited_next(library, results: Results, when: int | None) -> None:
    """When the first hit is a rule that sends the reader to another ("... the number of loyalty
    counters the planeswalker enters with (see rule 306.5b)") and that rule is among the first
    CITED_WITHIN hits, it comes second: the answer one step away. Only for a first hit in force
    then and a question not about older rules. Measured on the real questions
    (scripts/realq.py): question hit@3 0.485 -> 0.515 (MRR@10 0.473 -> 0.480), keywords 0.788 ->
    0.818 (0.631 -> 0.640), keywords --as-of 0.700 -> 0.733 (0.532 -> 0.536); the judged sets
    level. Bringing the cited rule in from beyond the hits lost judged nDCG@10 (0.756 -> 0.755:
    three new hits, ungraded, none of which reads as an answer), and placing it first lost MRR@10
    (0.947 -> 0.917)."""
    first = results.records.get(results.hits[0].id) if results.hits else None
    cited = _SEE_RULE.search(first.text) if first is not None and first.kind == "rule" else None
    if cited is None or not in_force(library.store, [first], today() if when is None else when):
        return  # (an older text's numbers are its own era's)
    rule = _in_force(library.store, library.store.by_number(cited.group(1)), when)
    if rule is None:
        return
    at = next((n for n, hit in enumerate(results.hits[:CITED_WITHIN]) if hit.id == rule.id), 0)
    if at > 1:
        results.hits.insert(1, results.hits.pop(at))


def _with_cited_rules(library, results: Results, limit: int, when: int | None, bring: bool = True) -> Results:
    """A glossary entry that sends the reader to a rule ("See rule 103.5") is no answer by itself:
    the rule it cites (its version in force on `when`, else now) is listed right before it. One
    that sends the reader to a whole section ("See rule 121, 'Drawing a Card'") defines the term
    itself; only as the first hit, and when none of the first three hits is a rule of that
    section, is it followed by the section's first rule (121.1), the answer one step away.
    Deeper down, a section's opening rule is seldom an answer (of 11 such rules brought into the
    judged sets' top ten, one answered, five partly, five not: judged MRR@10 0.949 -> 0.942);
    before a rule of the section already shown it pushed that answer down (real questions,
    keywords --as-of hit@3 0.733 -> 0.700). Then each hit is marked in force now, with the day its
    text took effect, or not (`results.now`)."""
    out: list[Hit] = [] if bring else list(results.hits)
    shown = {h.id for h in results.hits}
    for at, hit in enumerate(results.hits if bring else ()):
        record = results.records.get(hit.id)
        cited = _POINTER.search(record.text) if record and record.kind == "glossary" else None
        section = cited is not None and "." not in cited.group(1)
        rule = None
        if cited and (at == 0 or not section) and not (section and _holds_rule_of(results, cited.group(1))):
            rule = _in_force(library.store, library.store.by_number(cited.group(1)), when)
            if rule is not None and len(rule.text.split()) <= HEADING_WORDS:  # a heading: its first rule says it
                first = cited.group(1) + (".1" if section else "a")  # 121 -> 121.1, 103.5 -> 103.5a
                rule = _in_force(library.store, library.store.by_number(first), when) or rule
        if section and hit not in out:
            out.append(hit)
        if rule is not None and rule.kind == "rule" and rule.id not in {h.id for h in out}:
            if rule.id in shown:  # already listed further down: it moves up
                moved = next(h for h in results.hits if h.id == rule.id)
                results.hits.remove(moved)
                out.append(moved)
            else:
                out.append(Hit(rule.id, hit.score, clip(rule.text, 220)))
                results.records[rule.id] = rule
        if hit not in out:
            out.append(hit)
    results.hits = out[:limit]
    shown = [results.records[h.id] for h in results.hits if h.id in results.records]
    live = in_force(library.store, shown, today())
    spans = library.store.windows([r.id for r in live])
    since = texts_since(library.store, live)
    results.now = {r.id: since.get(r.id, spans[r.id][0]) for r in live}
    results.formerly = formerly(library.store, live)
    return results


def formerly(store, records: list) -> dict[str, tuple[str, int]]:
    """Each record's last other number in its lineage and the day it last held it ("was 702.18
    until 2021-04-21"): a question in an older release's numbers sees where its rule went, one
    hit per lineage showing today's number. Read from the versions' days alone (no texts)."""
    numbered = {r.lineage: r for r in records if r.lineage and r.number}
    rows = store.lineage_days(list(numbered))
    first = {rid: day for rid, _, _, day, _ in rows}
    out: dict[str, tuple[str, int]] = {}
    for _, lineage, number, _, last in rows:
        record = numbered[lineage]
        if number and number != record.number and last < first.get(record.id, 0):
            held = out.get(record.id)
            if held is None or last > held[1]:
                out[record.id] = (number, last)
    return out


def _holds_rule_of(results: Results, section: str, within: int = 3) -> bool:
    """Whether one of the first hits is a rule of `section` ('310.4c' of 310): the pointer's
    answer is on the page already."""
    records = (results.records.get(h.id) for h in results.hits[:within])
    return any(r is not None and r.kind == "rule" and (r.number or "").startswith(section + ".") for r in records)


def _in_force(store, records: list, when: int | None):
    """The archive version of a rule in force on `when` (else now), or None."""
    live = in_force(store, [r for r in records if r.span], today() if when is None else when)
    return max(live, key=lambda r: r.span[0], default=None)


_TOKEN = lazy(r'"[^"]*"?|\S+')


def shorten(query: str) -> tuple[str, str | None]:
    """A query of at most MAX_QUERY characters, and what was left out (None: nothing).

    A pasted page repeats its words: each word (and quoted phrase) is kept once, in order, and
    only when those still run past the limit are the last ones dropped, whole, with a note. A
    query cut at a fixed length lost the words after the limit, and with them its answer."""
    if len(query) <= MAX_QUERY:
        return query, None
    tokens: dict[str, str] = {}
    for token in _TOKEN.findall(query):
        tokens.setdefault(token.casefold(), token)  # each word once, first spelling, in order
    kept: list[str] = []
    size = -1
    for token in tokens.values():
        if size + 1 + len(token) > MAX_QUERY:
            if not kept:  # one giant token (an unclosed quote): its first words
                head = token[:MAX_QUERY]
                kept.append(head.rsplit(" ", 1)[0] if " " in head else head)
            break
        kept.append(token)
        size += 1 + len(token)
    searched = " ".join(kept)
    if len(kept) == len(tokens) and kept[-1] in tokens.values():
        return searched, None
    last = searched.split()[-1] if searched.split() else ""
    return searched, (f"the query is {len(query):,} characters: searched its words once each up to {last[:40]!r} "
                      f"({len(searched):,} characters, the most a query takes); the words after it were left out")
