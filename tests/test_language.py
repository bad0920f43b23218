"""Query language: letters, function words and the two vocabularies decide; words are kept or dropped."""

from __future__ import annotations

import pytest

from rulebase.search import language

HU_WORDS = {"kezd", "konyvtar", "manaeges", "lap", "mana"}
EN_WORDS = {"library", "burn", "mana", "draw", "trample", "deck"}


def known(lang: str, word: str) -> bool:
    return word.lower() in (HU_WORDS if lang == "hu" else EN_WORDS)


@pytest.mark.parametrize(("query", "expected"), [
    ("mi történik ha elfogy a könyvtár", "hu"),  # accents and function words
    ("hány", "hu"),  # a word no document holds, but only Hungarian spells it so
    ("manaeges", "hu"),  # no accents: only the Hungarian vocabulary knows it
    ("ki kezd", "hu"),
    ("what happens if I draw from an empty library", "en"),
    ("trample", "en"),
    ("mana", None),  # both documents use it
    ("502.83a", None),
    ("a", None),  # an article in both languages
    ("mana burn manaégés", None),  # one word of each: every field
    ("mana burn manaégés hogy", "hu"),
])
def test_detect(query, expected):
    assert language.detect(query.split(), known) == expected


def test_function_words_dropped_from_questions_of_three_words_or_more():
    assert language.content_words(["what", "happens", "if", "I", "draw", "from", "an", "empty", "library"], "en") == [
        "draw", "empty", "library"]
    assert language.content_words(["mi", "történik", "ha", "elfogy", "a", "könyvtár"], "hu") == [
        "elfogy", "könyvtár"]
    # a contraction is a function word too: "don't" was a rare, heavy word of a question
    assert language.content_words(["commanders", "don't", "cause", "death", "triggers"], "en") == [
        "commanders", "cause", "death", "triggers"]
    assert language.content_words(["it", "doesn’t", "die"], "en") == ["die"]  # a typographic apostrophe
    # a preposition that sets two things side by side; a word of the rules' timing stays
    assert language.content_words(["Urza's", "Saga", "under", "Blood", "Moon"], "en") == [
        "Urza's", "Saga", "Blood", "Moon"]
    assert language.content_words(["damage", "before", "blockers"], "en") == ["damage", "before", "blockers"]


def test_short_queries_and_queries_of_function_words_only_keep_every_word():
    assert language.content_words(["ki", "kezd"], "hu") == ["ki", "kezd"]
    assert language.content_words(["what", "is", "the"], "en") == ["what", "is", "the"]
    assert language.content_words(["the", "a", "trample"], None) == ["the", "a", "trample"]


def test_fields_follow_the_language():
    fields = {"title": 2.0, "text": 1.0, "context": 0.5, "title_hu": 2.0, "text_hu": 1.0, "context_hu": 0.5}
    assert list(language.fields_for("hu", fields)) == ["title_hu", "text_hu", "context_hu"]
    assert list(language.fields_for("en", fields)) == ["title", "text", "context"]
    assert language.fields_for(None, fields) == fields


def test_light_verbs_are_kept_not_dropped():
    """"goes", "went", "made" weigh as weak evidence in a question (terms.WEAK_WEIGHT): kept
    by content_words, so "goes to the graveyard" still matches its rules a little."""
    assert language.EN_LIGHT.isdisjoint(language.EN_FUNCTION)
    words = ["what", "happens", "to", "a", "token", "when", "it", "goes", "to", "the", "graveyard"]
    assert language.content_words(words, "en") == ["token", "goes", "graveyard"]
    assert "have" not in language.EN_LIGHT  # "has no controller" is rules text (702.15b)


def test_an_irregular_verbs_forms_have_its_base():
    """The stemmer leaves "drew" and "draw" apart; a question tells what happened."""
    assert language.base_form("drew") == "draw" and language.base_form("Forgot") == "forget"
    assert language.base_form("left") == "leave" and language.base_form("drawn") == "draw"
    assert language.base_form("draw") is None and language.base_form("card") is None
    assert language.base_form("did") is None and language.base_form("meant") is None  # function verbs' forms
    assert language.base_form("lay") is None  # a base itself (lay, laid), not only lie's past
    assert language.is_light("gone") and language.is_light("went") and not language.is_light("drew")


def test_a_hungarian_token_the_index_lacks_matches_its_longest_held_prefix():
    """Snowball leaves "támadhat" (can attack) as "tamadh"; the guide's "támadók" is "tamad"."""
    held = {"tamad": 9, "tam": 1, "kez": 5}
    count = lambda token: held.get(token, 0)  # noqa: E731
    assert language.hungarian_token("tamadh", "támadhat", count) == "tamad"
    assert language.hungarian_token("tamadhat", "támadhatnak", count) == "tamad"
    assert language.hungarian_token("kez", "kezem", count) == "kez"  # held: kept, never shortened
    assert language.hungarian_token("tamx", "tamx", count) == "tamx"  # "tam" is shorter than HU_PREFIX_MIN
    assert language.hungarian_token("rakt", "raktam", count) == "rakt"  # nothing held: as analysed


def test_a_hungarian_word_the_stemmer_ate_is_no_evidence():
    """"indul" (starts) stems to "in", which the guide holds only as the English "in" of a gloss."""
    count = lambda token: 3  # noqa: E731 - every token held
    assert language.hungarian_token("in", "indul", count) is None
    assert language.hungarian_token("zo", "zónák", count) is None
    assert language.hungarian_token("zo", "zónák", count, lambda: True) == "zo"  # the guide's heading "Zónák"
    assert language.hungarian_token("ko", "kő", count) == "ko"  # a short word is its short stem
    assert language.hungarian_token("lap", "lapot", count) == "lap"
