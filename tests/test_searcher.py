"""Ranked search on the real corpus: the query's language, required phrases with exact totals,
one hit per text, and results that do not depend on --limit."""

from __future__ import annotations

import re

import pytest

from rulebase.core.records import fold_accents
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


def test_english_question_keeps_its_content_words(library):
    hits = search(library, "what happens if I draw from an empty library", 5).hits
    assert all(not h.id.startswith("hu-guide:") for h in hits)
    assert "ck1999:Z.5.7" in [h.id for h in hits]


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
    hits = {h.id: h.also for h in search(library, "minimum deck size", 10).hits}
    assert hits["ck1999:D.13.5"] == ["ck1999:D.14.5", "ck1999:D.15.4", "ck1999:D.16.7"]
    texts = [library.store.get(rid).text for rid in ["ck1999:D.13.5", *hits["ck1999:D.13.5"]]]
    assert len(set(texts)) == 1


def test_no_two_hits_print_the_same_text(library):
    for query in ["exalted", "attacking alone", "enchant world", "minimum deck size", "mana burn"]:
        records = library.store.get_many([h.id for h in search(library, query, 20).hits])
        texts = [" ".join(r.text.casefold().split()) for r in records]
        assert len(texts) == len(set(texts)), query


@pytest.mark.parametrize("query", ["damage prevention", "trample", "hány lappal kezdünk", '"mana burn"',
                                   "what happens if I draw from an empty library"])
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
