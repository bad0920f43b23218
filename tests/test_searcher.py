"""Ranked search on the real corpus: the query's language, required phrases with exact totals,
one hit per text, and results that do not depend on --limit."""

from __future__ import annotations

import re

import pytest

from rulebase.core.records import Record, fold_accents
from rulebase.search.cards import LIFT, lift, without_names
from rulebase.search.request import run_search


def search(library, query, limit=10, **filters):
    return run_search(library, query, filters, limit)


def test_hungarian_question_is_answered_from_the_hungarian_guide(library):
    """Its function words ("mi", "ha", "a") once matched thousands of English records."""
    hits = search(library, "mi történik ha elfogy a könyvtár").hits
    assert [h.id for h in hits[:2]] == ["hu-guide:glossary.konyvtar", "hu-guide:huzas.1"]


def test_hungarian_word_is_never_corrected_into_english(library):
    results = search(library, "hány")
    assert results.suggestion is None  # it was "and"
    assert all(h.id.startswith("hu-guide:") for h in results.hits)


def test_hungarian_without_accents_is_hungarian(library):
    assert search(library, "manaeges", 1).hits[0].id == "hu-guide:altalanos-tudnivalok.1"


def test_a_hungarian_verb_form_the_guide_never_spells_still_reaches_its_word(library):
    """"támadhat" (can attack) is in no document; the guide's passages on declaring attackers
    ("A támadók kijelölése") say "támadók", "támadni": they were not among the hits at all."""
    hits = [h.id for h in search(library, "támadhat az a lény amit most raktam ki").hits]
    assert any(h.startswith("hu-guide:a-tamadok-kijelolese.") for h in hits[:5])


def test_a_hungarian_word_the_stemmer_ate_does_not_match_an_english_gloss(library):
    """"indul" (starts) stems to "in": it matched the glossary entry "Játékban (in play)" first."""
    hits = search(library, "hány életponttal indul egy játékos", 3).hits
    assert hits[0].id == "hu-guide:a-jatek-kezdete.1"  # "Minden játékos 20 életponttal kezdi a játékot."
    # a word the guide does hold is still found by its short stem: the entries under its heading
    # "Zónák" ("zo"), not one near spelling
    results = search(library, "zónák", 10)
    assert len(results.hits) >= 5
    assert all(results.records[h.id].section == ["Zónák"] for h in results.hits[:5])


def test_a_word_pair_is_as_weak_as_its_weaker_word(library):
    """A capitalised name or a light verb weighs as weak evidence, and so do the pairs it is in:
    "Doubling Season" in full lifted the examples that print the name."""
    from rulebase.search.terms import PAIR_BOOST, TEXT_FIELDS

    searcher = library.searcher
    words = ["Doubling", "Season", "loyalty", "counters"]
    clauses = searcher.build_query(words, [], searcher.word_terms(words), weights=[0.3, 0.3, 1.0, 1.0])
    pairs = {c.tokens: c.boost for c in clauses if len(c.tokens) == 2 and c.field == "text"}
    assert pairs[("doubl", "season")] == pytest.approx(PAIR_BOOST * 0.3 * TEXT_FIELDS["text"])
    assert pairs[("season", "loyalti")] == pytest.approx(PAIR_BOOST * 0.3 * TEXT_FIELDS["text"])
    assert pairs[("loyalti", "counter")] == pytest.approx(PAIR_BOOST * TEXT_FIELDS["text"])


def test_english_question_keeps_its_content_words(library):
    """Answered from the rules in force now (121.4 and 704.5b), the 1999 summary's answer further down."""
    hits = [h.id for h in search(library, "what happens if I draw from an empty library", 40).hits]
    assert all(not h.startswith("hu-guide:") for h in hits)
    assert any(h.startswith("cr:121.4@") for h in hits[:3]) and any(h.startswith("cr:704.5b@") for h in hits[:10])
    assert "ck1999:Z.5.7" in [h.id for h in search(library, "what happens if I draw from an empty library", 100).hits]


def _now(library, results) -> list[bool]:
    return [h.id in results.now for h in results.hits]


@pytest.mark.parametrize("query", ["can a creature with deathtouch and trample assign 1 damage to each blocker",
                                   "how does the london mulligan work", "summoning sickness", "legend rule"])
def test_a_question_with_no_date_is_answered_by_the_rules_in_force_now_first(library, query):
    flags = _now(library, search(library, query, 100))
    # today's rule on top (an older text counts half: one twice as apt, like the 1999 glossary's
    # "Legend Rule" entry for "legend rule", may stand before it), the history on the same list
    assert (flags[0] or flags[1]) and sum(flags[:5]) >= 2 and not all(flags)


def test_a_rule_holding_every_word_of_the_question_is_ranked_whatever_its_score(library):
    # 616.1 says "replacement and/or prevention effects": no word pair matches, and texts saying
    # "replacement effects" thrice outscored it; it holds every word, so it is pooled and ranked
    results = search(library, "two replacement effects apply, who chooses the order", 3)
    assert "cr:616.1@" in " ".join(h.id for h in results.hits)


@pytest.mark.parametrize("query", ["what is an interrupt", "mana burn", "fast effect", "bury"])
def test_a_term_only_older_rules_use_brings_their_texts_up(library, query):
    results = search(library, query, 5)
    assert sum(h.id not in results.now for h in results.hits[:3]) >= 2  # not held back behind today's rules


@pytest.mark.parametrize("query", ["what happens when a card is played face down",
                                   "the player who plays first doesn't draw"])
def test_a_form_of_a_word_todays_glossary_names_is_no_older_term(library, query):
    """"played" and "plays" are fewer in today's rules than in older texts, but the glossary in
    force now names "Play": a question saying them is no question about older rules (it was, by
    the word as written, which the glossary's "Play" is not)."""
    searcher = library.searcher
    words = query.split()
    terms = [set(pairs) for pairs in searcher.word_terms(words, "en")]
    assert not searcher.history.asks_old(words, terms)
    assert searcher.history.asks_old(["interrupt"], [set(searcher.word_terms(["interrupt"], "en")[0])])


def test_an_edition_named_in_the_words_is_a_filter(library):
    results = search(library, "what did 4th edition say about interrupts", 5)
    assert results.query == "what did 4th edition say about interrupts"
    assert all(h.id.startswith("rb4e:") for h in results.hits)
    assert "Interrupts" in results.records[results.hits[0].id].text or any(
        "Interrupts" in results.records[h.id].text for h in results.hits[:3])


def test_a_year_in_the_words_is_the_rules_of_that_year(library):
    results = search(library, "mana burn in 2005", 5)
    spans = library.store.windows([h.id for h in results.hits])
    assert results.hits and all(first <= 20051231 <= last for first, last in spans.values())


def test_a_glossary_pointer_brings_its_rule_in_ahead_of_it(library):
    ids = [h.id for h in search(library, "how does the london mulligan work", 5).hits]
    assert ids[0].startswith("cr:103.5@") and ids[1].startswith("cr:glossary.london-mulligan@")


def test_a_query_that_is_a_terms_name_leads_with_todays_term(library):
    """The 1999 glossary's "Legend/Legend Rule" says "legend" four times and led "legend rule"
    over today's entry titled exactly so (and the rule it points to)."""
    for query in ("legend rule", "legnd rule"):  # (a slip is read as its word first)
        ids = [h.id for h in search(library, query, 3).hits]
        assert ids[0].startswith("cr:704.5j@") and ids[1].startswith("cr:glossary.legend-rule@"), query
    quoted = [h.id for h in search(library, '"legend rule"', 3).hits]  # a phrase: where it is said
    assert quoted and not quoted[0].startswith("cr:glossary.legend-rule@")
    # titled the query and one word more: Haste's glossary line quotes "summoning sickness" and
    # brought in "Haste is a static ability." first
    ids = [h.id for h in search(library, "summoning sickness", 3).hits]
    assert ids[0].startswith("cr:302.6@") and ids[1].startswith("cr:glossary.summoning-sickness-rule@")


def test_a_first_glossary_hit_that_points_to_a_section_is_followed_by_its_first_rule(library):
    """Token says "See rule 111, 'Tokens'": 111 is a heading, so the rule never came in. As the
    first hit the entry is followed by 111.1; lower down a section's opening rule is not brought
    in (they were seldom answers)."""
    ids = [h.id for h in search(library, "what is a token", 5).hits]
    assert ids[0].startswith("cr:glossary.token@") and ids[1].startswith("cr:111.1@")
    ids = [h.id for h in search(library, "library", 3).hits]  # a rule of 401 is on the page already: 401.7
    assert ids[0].startswith("cr:glossary.library@") and any(i.startswith("cr:401.7@") for i in ids[1:])
    assert not any(i.startswith("cr:401.1@") for i in ids)
    deeper = [h.id for h in search(library, "damage prevention", 10).hits]
    assert "cr:glossary.prevention-effect@2019-05-03" in deeper and not any(i.startswith("cr:615.1@") for i in deeper)
    # a rule of the section among the first three already answers: 310.1 does not push 310.4 down
    shown = [h.id for h in run_search(library, "combat damage stack noncreature dealt damage", {}, 4, 20031110).hits]
    assert shown[0].startswith("cr:glossary.combat-damage@") and shown[2].startswith("cr:310.4@")
    assert not any(i.startswith("cr:310.1@") for i in shown)


def test_a_rule_the_first_hit_points_to_comes_second(library):
    """209.1 says the loyalty number is what a planeswalker enters with "(see rule 306.5b)":
    306.5b was fourth, below the compleated rule and its glossary entry."""
    ids = [h.id for h in search(library, "how much loyalty does a planeswalker enter with", 5).hits]
    assert ids[0].startswith("cr:209.1@") and ids[1].startswith("cr:306.5b@")
    assert len(set(ids)) == 5  # moved, not copied


def test_a_rule_the_first_hit_points_to_is_not_brought_in_from_beyond_the_hits(library, monkeypatch):
    """Only a rule among the first CITED_WITHIN hits moves up (the ones brought in from further
    down read as no answers): with 2, 306.5b (fourth on its own) stays where it was."""
    from rulebase.search import request

    monkeypatch.setattr(request, "CITED_WITHIN", 2)
    ids = [h.id for h in search(library, "how much loyalty does a planeswalker enter with", 5).hits]
    assert ids[0].startswith("cr:209.1@") and ids[3].startswith("cr:306.5b@")


def test_card_text_quoted_in_a_question_is_not_a_required_phrase(library):
    quote = '"whenever blood artist or another creature dies"'
    assert search(library, f"does my Blood Artist trigger when it says {quote} and a token is sacrificed", 5).hits
    assert search(library, quote, 5).total == 0  # a query that is only the phrase still requires it


@pytest.mark.parametrize("phrase", ["combat damage", "mana burn", "first strike"])
def test_a_quoted_phrase_is_required_and_counted_exactly(library, phrase):
    results = search(library, f'"{phrase}"', 500)
    assert results.total == len(results.hits) < 500
    records = library.store.get_many([h.id for h in results.hits])
    first, second = phrase.split()
    pattern = re.compile(rf"\b{first}\w*\W+{second}", re.IGNORECASE)  # stemmed: "burns", "damage's"
    # (a heading that holds the phrase is shown as its first paragraph: G.25 Mana Burn as G.25.1)
    missing = [r.id for r in records if not pattern.search(fold_accents(f"{r.title or ''} {r.text} {r.section[-1:]}"))]
    assert missing == []


def test_a_phrase_nobody_wrote_finds_nothing(library):
    results = search(library, '"trample flying banding"')
    assert (results.total, results.hits, results.suggestion) == (0, [], None)


def test_the_same_text_is_one_hit_listing_the_other_records(library):
    hits = {h.id: h.also for h in search(library, "minimum deck size", 10, edition=["5e"]).hits}
    assert hits["ck1999:D.13.5"] == ["ck1999:D.14.5", "ck1999:D.15.4", "ck1999:D.16.7"]
    texts = [library.store.get(rid).text for rid in ["ck1999:D.13.5", *hits["ck1999:D.13.5"]]]
    assert len(set(texts)) == 1


def test_no_two_hits_print_the_same_text(library):
    for query in ["exalted", "attacking alone", "enchant world", "minimum deck size", "mana burn"]:
        records = library.store.get_many([h.id for h in search(library, query, 20).hits])
        texts = [" ".join(r.text.casefold().split()) for r in records]
        assert len(texts) == len(set(texts)), query


@pytest.mark.parametrize("query", ["damage prevention", "trample", "hány lappal kezdünk", '"mana burn"',
                                   "what happens if I draw from an empty library",
                                   "how much loyalty does a planeswalker enter with"])  # a cited rule moved up
def test_a_shorter_list_is_the_start_of_a_longer_one(library, query):
    full = [h.id for h in search(library, query, 100).hits]
    for limit in (1, 3, 10, 37):
        assert [h.id for h in search(library, query, limit).hits] == full[:limit]
    assert search(library, query, 3).total == search(library, query, 100).total


@pytest.mark.parametrize(("query", "edition"), [("deathtouch", "10e"), ("exalted", "10e"), ("mana burn", "cr2003"),
                                                ("trample", "cr2009"), ("damage prevention", "4e")])
def test_an_edition_filter_shows_only_that_editions_texts(library, query, edition):
    """A heading that spans eras once stood in for its first rule of a later era (deathtouch
    -e 10e showed cr:702.2a@2009-07-11)."""
    from rulebase.core.eras import labels_between

    records = library.store.get_many([h.id for h in search(library, query, 20, edition=[edition]).hits])
    assert records
    assert [r.id for r in records if edition not in (labels_between(*r.span) if r.span else [r.edition])] == []


@pytest.mark.parametrize("query, today", [("what is the converted mana cost of a split card", "mana value"),
                                          ("do tribal spells have creature types", "kindred"),
                                          ("what happens to a card removed from the game face down", "exile")])
def test_a_question_in_older_words_is_answered_by_todays_rule(library, query, today):
    """The glossary in force now says what the older term is called today; today's rule uses only
    that. Older words ask for no older era: the texts in force now fill the first page."""
    results = search(library, query, 5)
    first = results.hits[0]
    assert first.id in results.now and today in results.records[first.id].text.lower()
    assert all(h.id in results.now for h in results.hits)


@pytest.mark.parametrize("query", [
    "I've played since 4th edition, can a creature with summoning sickness block?",
    "back in 2012 a friend told me deathtouch and trample assign 1 damage to each blocker, is that still true?"])
def test_an_old_players_story_is_answered_from_the_rules_in_force_now(library, query):
    """An era the asker's story names ("since 4th edition", "back in 2012 ... is that still
    true?") filtered the search to it: 4th Edition texts only, or the rules of 2012."""
    results = run_search(library, query, {}, 3)
    assert any(h.id in results.now for h in results.hits), [h.id for h in results.hits]
    assert {h.id.split(":")[0] for h in results.hits} != {"rb4e"}


def test_a_games_no_longer_is_no_question_about_older_rules(library):
    """"no longer has flying" tells what happened; read as asking about older rules, it put
    Crystal Keep's 1999 rule and the 1995 rulebook first."""
    results = run_search(library, "my creature no longer has flying after the effect ends, can it block a "
                                  "creature with flying?", {}, 3)
    assert [h.id in results.now for h in results.hits[:2]] == [True, True], [h.id for h in results.hits]


def test_a_historical_question_in_older_words_keeps_the_older_texts(library):
    results = search(library, "how did the legend rule work before they changed it", 5)
    assert sum(h.id not in results.now for h in results.hits[:3]) >= 2


@pytest.mark.parametrize("query, older", [("what happens to an exiled card in 2005", "removed from the game"),
                                          ("do kindred spells have creature types in 2015", "tribal")])
def test_a_question_in_todays_words_about_an_earlier_day_finds_the_older_name(library, query, older):
    """The rules in force then say only the name they had (renamed in 2009 and 2024)."""
    results = search(library, query, 3)
    texts = [results.records[h.id].text.lower() for h in results.hits]
    assert older in texts[0] and sum(older in text for text in texts) >= 2


def test_a_counter_is_told_from_its_opposite(library):
    """"+1/+1" and "-1/-1" were both read as "1 1": the rule about a permanent with both now
    comes first, and a search for one kind finds texts about that kind."""
    first = search(library, "+1/+1 and -1/-1 counters cancel", 1).hits[0]
    assert first.id.startswith("cr:") and {"+1/+1 counter", "-1/-1 counter"} <= set(re.findall(
        r"[+-]1/[+-]1 counter", search(library, "+1/+1 and -1/-1 counters cancel", 1).records[first.id].text))
    results = search(library, "-1/-1 counter", 5)
    assert all("-1/-1" in results.records[h.id].text for h in results.hits)


def test_a_number_before_its_word_matches_it_after(library):
    """Players say "0 toughness", the rules "toughness 0 or less" (704.5f)."""
    assert search(library, "what happens to a creature with 0 toughness", 1).hits[0].id.startswith("cr:704.5f@")


def test_a_questions_light_verb_does_not_decide_its_answer(library, monkeypatch):
    """'who goes first' once matched a team-seating rule ("the player ... goes first" three
    times) ahead of the first-draw rules; 'goes' now weighs as weak evidence."""
    from rulebase.search import language

    query = "does the player who goes first get to draw a card on their first turn"
    seating = "cr:808.4@"  # "To determine which player goes first, randomly choose a team..."
    first = search(library, query, 5)
    assert "draw" in first.records[first.hits[0].id].text.lower()
    assert not any(h.id.startswith(seating) for h in first.hits)
    monkeypatch.setattr(language, "EN_LIGHT", frozenset())
    before = search(library, query, 5)
    assert any(h.id.startswith(seating) for h in before.hits)


def test_a_typo_in_a_question_is_read_as_the_word_one_slip_away(library):
    """Issue 17.3: askers make typos. "deathtuch" and "trampel" are in no document; the question
    is searched as if spelled right (the same first hits), and says how it was read."""
    typed = search(library, "can deathtuch and trampel assign 1 damage to each blocker", 3)
    spelled = search(library, "can deathtouch and trample assign 1 damage to each blocker", 3)
    assert [h.id for h in typed.hits] == [h.id for h in spelled.hits]
    assert any(h.id.startswith("cr:702.2c@") for h in typed.hits)
    assert typed.notes == ["read 'deathtuch' as 'deathtouch'", "read 'trampel' as 'trample'"]
    assert spelled.notes == []


def test_a_capitalised_unknown_word_is_a_name_not_a_typo(library):
    """"Altac" (a card) is one letter from "altar"; capitalised, it is left as typed."""
    results = search(library, "Altac triggered to get first strike but did not deal damage in the combat damage step")
    assert not any("altar" in note for note in results.notes)


def test_a_story_in_the_past_tense_reaches_the_rules_present(library, monkeypatch):
    """"my opponent forgot a trigger" is the JAR's "A player forgets a triggered ability": Snowball
    stems "forgot" and "forgets" apart. A form the rules say themselves ("damage dealt") is searched
    as written."""
    from rulebase.search import language

    searcher = library.searcher
    assert ("text", "draw") in searcher.word_terms(["drew"])[0]
    assert ("text", "deal") not in searcher.word_terms(["dealt"])[0]
    query = "at a prerelease my opponent forgot a trigger"
    forgets = "jar:common-issues.a-player-forgets-a-triggered-ability"
    assert search(library, query, 3).hits[0].id.startswith(forgets)
    monkeypatch.setattr(language, "base_form", lambda word: None)
    assert ("text", "forget") not in searcher.word_terms(["forgot"])[0]  # (the base form is what reaches it)


def test_a_card_name_is_one_unit_not_the_questions_words(library):
    """"Blood Moon" says nothing of Blood tokens or the moon symbol: a name the question reads as
    a card is matched whole (a ruling that names the card), its words are not scored alone."""
    text, names = without_names("what happens to Urza's Saga under Blood Moon?",
                                                  ["Urza's Saga", "Blood Moon"])
    assert names == ["Urza's Saga", "Blood Moon"] and not re.search(r"Saga|Blood|Moon", text)
    hits = search(library, "what happens to Urza's Saga under Blood Moon").hits
    assert not any("blood" in h.snippet.lower() and "blood moon" not in h.snippet.lower() for h in hits)
    named = search(library, "Blood Moon")
    linked = {link["rule"] for link in named.cards[0].card["links"]}
    assert named.hits and all("Blood Moon" in named.records[h.id].text
                              or any((named.records[h.id].number or "").startswith(rule) for rule in linked)
                              for h in named.hits)
    # a phrase search keeps its words as typed
    assert without_names('"Blood Moon" lands', ["Blood Moon"]) == ('"Blood Moon" lands', [])


def test_a_query_of_card_names_only_lists_the_cards_rules(library):
    """"Blood Moon and Urza's Saga" asks about the two cards: the rules their text uses lead (305.7
    for "Nonbasic lands are Mountains", 714 for a Saga), not texts that merely print a name."""
    hits = search(library, "Blood Moon and Urza's Saga", 5).hits
    assert hits[0].id.startswith("cr:305.7@")
    assert any(h.id.startswith("cr:714.") for h in hits[:3])
    assert search(library, "Urza's Saga", 1).hits[0].id.startswith("cr:714.")
    # the same with a question's frame around the names: "what happens to ... under ..."
    asked = search(library, "what happens to Urza's Saga under Blood Moon?", 5).hits
    assert asked[0].id.startswith("cr:305.7@") and any(h.id.startswith("cr:714.") for h in asked[:3])


def test_cutting_card_names_keeps_the_filters_and_a_quoted_question(library):
    """A names-only query lists the cards' rules only where the filters pass; a question that
    quotes card text stays a question once its card names are cut; a possessive goes with its name."""
    assert search(library, "Blood Moon", source=["mtr"]).hits == []  # the MTR names no card; no rule seeded
    ruled = search(library, "Blood Moon", source=["ck1999"]).hits  # 1999's rulings name it
    assert ruled and all(h.id.startswith("ck1999:") for h in ruled)
    quoted = search(library, 'does Blood Moon turn Urza\'s Saga off "lands are Mountains"')
    assert any("lands are mountains" not in quoted.records[h.id].text.lower() for h in quoted.hits)
    text, _ = without_names("does Doubling Season's copy count", ["Doubling Season"])
    assert text.split() == ["does", "copy", "count"]
    # in quotes, named again in another case, with the other apostrophe
    text, _ = without_names("what does 'Blood Moon' do to ‘Urza’s Saga’ if blood moon leaves?",
                            ["Blood Moon", "Urza's Saga"])
    assert not re.search(r"(?i)blood|moon|saga", text) and "leaves" in text


def test_a_word_of_the_rules_is_a_titles_or_one_they_say_in_lower_case(library):
    """Card names the rules print in examples and rulings are no words of theirs; a keyword, a
    term a title holds (Two-Headed Giant) and any word they say in lower case are."""
    texts = lambda ids: {r.id: r for r in library.store.get_many(ids)}  # noqa: E731
    assert not library.searcher.rules_word("tarmogoyf", texts) and not library.searcher.rules_word("humility", texts)
    assert not library.searcher.rules_word("Humility's", texts)  # a possessive is its name's
    assert all(library.searcher.rules_word(w, texts) for w in ("trample", "giant", "headed", "storm"))  # titles'
    assert not any(library.searcher._df("title", t) for t in library.searcher._tokens("title", "prohibit"))
    assert library.searcher.rules_word("prohibit", texts)  # said in lower case, in no title
    assert library.searcher.rules_word("desert", texts)  # a land type 205.3i lists, capitalised
    assert not library.searcher.rules_word("discord", texts)  # lower case only in a web address
    assert not library.searcher.rules_word("zzqqxx", texts)  # (no text holds it at all)


def test_a_single_card_word_is_read_alone_and_first_in_a_query_of_names(library):
    """"Humility and Opalescence" names two cards (a capital at a sentence's start says nothing,
    the rest of a query of names does): the layer rules lead. A query that is one card's name is
    read in any case; a Hungarian query of names asks for today's rules as well."""
    both = search(library, "Humility and Opalescence", 3)
    assert [c.title for c in both.cards] == ["Humility", "Opalescence"]
    assert all(h.id.startswith("cr:613.") for h in both.hits) and both.hits[0].id.startswith("cr:613.1@")
    assert [c.title for c in search(library, "tarmogoyf", 1).cards] == ["Tarmogoyf"]
    # a sentence that goes on from its first word names no card so; a land type is no card
    assert search(library, "Sorry if this is dumb, but can my creature attack", 1).cards == []
    assert search(library, "Desert", 1).cards == [] and search(library, "what does the land type Desert do", 1).cards == []
    assert [c.title for c in search(library, "what does Humility's effect do to Opalescence", 1).cards] == [
        "Humility", "Opalescence"]
    assert search(library, "Blood Moon és Urza's Saga", 1).hits[0].id.startswith("cr:305.7@")


def test_a_rule_several_named_cards_link_is_where_they_meet():
    """The lift of a named card's rule grows with its rarity among cards and with how many of the
    named cards link that very rule: the layers both Humility and Opalescence use lift more than
    the rarer 113.10 only Humility uses; a chapter one card links does not meet a subrule another links."""
    def named(name: str, links: dict[str, int]) -> Record:
        return Record(id=f"card:{name}", source="cards", edition="cr2026", lang="en", kind="card", text="", raw="",
                      card={"links": [{"rule": n, "lineage": f"cr:{n}@1999-04-23", "cards": c} for n, c in links.items()]})

    docs = {"613": {1}, "113.10": {2}, "305": {3, 4}, "305.7": {4}}
    factors = lift([named("humility", {"613": 267, "113.10": 233, "305": 1200}),
                    named("opalescence", {"613": 267, "305.7": 59})], 34_632, lambda number, _: docs[number])
    assert factors[1] > factors[2] > 1  # 613 (both) over 113.10 (one, rarer)
    assert factors[1] <= 1 + 2 * LIFT and factors[2] <= 1 + LIFT
    assert factors[4] == max(f for d, f in factors.items() if d in docs["305.7"])  # 305.7's own, not 305's too
    assert lift([], 34_632, lambda number, _: set()) == {}


@pytest.mark.parametrize("query, filters", [
    ("two replacement effects apply, who chooses the order", {}),
    ("does protection from white save my creature from Wrath of God", {}),
    ("drew extra card", {"source": ["ipg"]}),
    ("player drew an extra card at competitive REL", {})])
def test_a_question_about_the_present_gets_the_texts_in_force_first(library, query, filters):
    """The 2008 rules, the 1999 summary and the 2015 IPG once led these; a source filter kept the
    preference for today's texts off. Now the first page is what is in force, under any filter."""
    results = search(library, query, 5, **filters)
    assert results.hits and all(h.id in results.now for h in results.hits)


def test_a_question_about_the_past_still_gets_the_old_text(library):
    results = search(library, "how did mana burn work in 2005", 3)
    assert any("mana burn" in results.records[h.id].text.lower() for h in results.hits)
    assert not any(h.id in results.now for h in results.hits[:1])


def test_a_negation_the_rules_say_is_read_as_its_phrase(library):
    """"can't" and "without" are function words of a question: "spell that cannot be countered"
    read "countered" alone, as if it asked how spells are countered. A negation the rules say word
    for word is scored as its phrase; one no text says is left to the words."""
    searcher = library.searcher
    assert searcher.negations("Can a creature without flying block? This one cannot be countered.") == [
        ("without flying", "without flying"), ("cannot be countered", "can't be countered")]
    assert searcher.negations("it doesn't have zorblax, and can’t block") == [("can’t block", "can't block")]
    hits = run_search(library, "what does it mean that a spell cannot be countered", {}, 3).hits
    assert any("can’t be countered" in library.store.get(h.id).text.replace("'", "’") for h in hits)
