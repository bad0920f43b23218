"""A query's text as words, "quoted phrases" and card names, read without an index."""

from __future__ import annotations

from rulebase.search.question import split_query, straight_quotes, weak_words, without_links


def test_split_query():
    assert split_query('flying "first strike" blocks') == (["flying", "first", "strike", "blocks"],
                                                          ["first strike"])
    assert split_query('"open quote') == (["open", "quote"], ["open quote"])


def test_a_run_of_capitalised_words_in_a_question_is_a_name():
    """ "Kodama's Reach" is a card, though "reach" is a keyword: weak evidence, not a rules term."""
    text = "The Kodama's Reach on the stack still resolved after March of the Machines left, with Flying"
    weak, names = weak_words(text, split_query(text)[0])
    assert names == {"Kodama's", "Reach", "March", "Machines"}
    assert weak == names | {"Flying"}  # a lone capital word is weak only when today's rules hardly use it
    assert weak_words("Kodama's Reach", ["Kodama's", "Reach"]) == (set(), set())  # a keyword query: as typed


def test_a_card_fetchers_brackets_name_a_card_wherever_they_stand():
    """Reddit's and the forums' "[[Card Name]]": a name at a sentence's start, in lower case, or in
    a short query, where capitals alone say nothing."""
    text = "[[Blood Moon]] and [[Urborg, Tomb of Yawgmoth]]: what happens to my lands and [[flash]]?"
    weak, names = weak_words(text, split_query(text)[0])
    assert names >= {"Blood", "Moon", "Urborg", "Tomb", "of", "Yawgmoth", "flash"} and "lands" not in weak
    assert weak_words("[[Humility]] layers", ["Humility", "layers"]) == ({"Humility"}, {"Humility"})
    assert weak_words("[[Lightning Bolt|M10]] damage", ["Lightning", "Bolt", "M10", "damage"])[1] == {
        "Lightning", "Bolt"}
    assert weak_words("[[unclosed and [] brackets]]", ["unclosed", "and", "brackets"]) == (set(), set())


def test_a_pasted_web_address_is_no_words_of_the_question():
    text = "Bolt (https://scryfall.com/card/m10/146/lightning-bolt) and www.example.org/x?y=1 vs protection"
    assert split_query(without_links(text))[0] == ["Bolt", "and", "vs", "protection"]
    assert without_links("HTTP://Example.org/a") == "HTTP://Example.org/a"  # only an address: kept
    assert without_links("see rule 702.19c, http-ish words") == "see rule 702.19c, http-ish words"


def test_power_and_toughness_are_one_word_each():
    """As the index reads them (index/schema.PT): "+1/+1" and "-1/-1" are not both "1 1"."""
    words, _ = split_query("a 2/2 with a +1/+1 counter and a -1/-1 counter, or X/X")
    assert words == ["a", "2/2", "with", "a", "+1/+1", "counter", "and", "a", "-1/-1", "counter", "or", "X/X"]


def test_the_index_reads_power_and_toughness_as_the_query_does():
    from rulebase.index.schema import make_schema

    analyse = make_schema()["text"].analyzer
    assert [t.text for t in analyse("gets +2/+0 and -X/-X; 0/0 tokens")] == ["get", "+2/+0", "and", "-x/-x", "0/0", "token"]
    assert [t.text for t in analyse("rule 702.19c and/or 2009/07/11")] == ["rule", "702.19c", "and", "or", "2009/07", "11"]


def test_typographic_quotes_make_a_phrase():
    assert split_query(straight_quotes("“destroy all creatures”")) == (["destroy", "all", "creatures"],
                                                                      ["destroy all creatures"])
    assert straight_quotes("„a” «b» it’s") == '"a" "b" it’s'  # (an apostrophe stays)


def test_a_card_search_for_a_phrase_finds_the_phrase_only(library):
    """`search --kind card` with a quoted phrase lists the cards printing it, not its loose words;
    in curly quotes too (they were read as three loose words: 25,852 results)."""
    import re

    from rulebase.search.request import run_search

    for typed in ('"destroy all creatures"', "“destroy all creatures”"):
        results = run_search(library, typed, {"kind": ["card"]}, 500)
        texts = [re.sub(r"\s+", " ", results.records[h.id].text.lower()) for h in results.hits]
        assert 90 < results.total < 120 and all("destroy all creatures" in t for t in texts), typed
