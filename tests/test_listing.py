"""The result list on small fixtures: one hit per text, named by its newest copy, the same for
any --limit, exact totals when asked; and on the real corpus, a rule's copies shown once."""

from __future__ import annotations

import re

from rulebase.core.records import Record
from rulebase.search.hits import MARK_CLOSE, MARK_OPEN, Hit, Results
from rulebase.search.listing import FILL_BATCH, fill
from rulebase.search.request import run_search


def _record(rid: str, text: str, last: str = "") -> Record:
    return Record(rid, rid.split(":")[0], "cr", "en", "rule", text, text, span=["2019-05-03", last] if last else [])


RECORDS = {r.id: r for r in [
    _record("cr:702.19b@2019", 'Trample lets "excess" damage through.', "2023-04-14"),
    _record("cr:702.19b@2023", "Trample lets “excess” damage through.", "2025-11-14"),  # curly quotes
    _record("ck2008:502.9b", 'TRAMPLE lets "excess" damage through.'),  # a ruling quoting the rule
    _record("cr:702.2c@2025", "Deathtouch damage is lethal damage.", "2025-11-14"),
]}


def _texts(ids: list[str]) -> dict[str, Record]:
    return {i: RECORDS[i] for i in ids if i in RECORDS}


def _spans(field: str, text: str):
    for match in re.finditer(r"\w+", text):
        yield match.group().lower(), match.start(), match.end()


def _found(*ids: str) -> list[tuple]:
    return [(rid, 10.0 - n, {("text", "damage")}) for n, rid in enumerate(ids)]


def test_copies_of_one_text_are_one_hit_named_by_the_newest_release():
    results = Results("q", 0)
    distinct = fill(results, [], _found("cr:702.19b@2019", "ck2008:502.9b", "cr:702.19b@2023", "cr:702.2c@2025"),
                    10, _texts, None, _spans)
    assert [h.id for h in results.hits] == ["cr:702.19b@2023", "cr:702.2c@2025"]
    assert results.hits[0].also == ["ck2008:502.9b", "cr:702.19b@2019"]  # in the order they were read, renamed last
    assert distinct == 2
    assert set(results.records) == {"cr:702.19b@2023", "cr:702.2c@2025"}


def test_the_first_hits_do_not_depend_on_the_limit():
    found = _found("cr:702.19b@2019", "ck2008:502.9b", "cr:702.19b@2023", "cr:702.2c@2025")
    short, long = Results("q", 0), Results("q", 0)
    fill(short, [], found, 1, _texts, None, _spans)
    fill(long, [], found, 10, _texts, None, _spans)
    assert [(h.id, h.also) for h in short.hits] == [(h.id, h.also) for h in long.hits[:1]]


def test_a_copy_read_in_a_later_batch_does_not_rename_the_hit():
    """A twin read after the first FILL_BATCH rows is only listed in `also`: otherwise a longer
    --limit, reading further, would name the first hit otherwise."""
    filler = [f"cr:{n}.1@2019" for n in range(FILL_BATCH - 1)]
    RECORDS.update({rid: _record(rid, f"Filler rule {n}.") for n, rid in enumerate(filler)})
    results = Results("q", 0)
    fill(results, [], _found("cr:702.19b@2019", *filler, "cr:702.19b@2023"), 50, _texts, None, _spans)
    assert results.hits[0].id == "cr:702.19b@2019"
    assert results.hits[0].also == ["cr:702.19b@2023"]


def test_exact_number_hits_come_first_and_keep_their_name():
    numbered = [Hit("cr:702.19b@2019", 0.0, "", exact_number=True)]
    results = Results("q", 0)
    fill(results, numbered, _found("cr:702.19b@2023", "cr:702.2c@2025"), 10, _texts, None, _spans)
    assert [h.id for h in results.hits] == ["cr:702.19b@2019", "cr:702.2c@2025"]
    assert results.hits[0].also == ["cr:702.19b@2023"]


def test_count_all_reads_past_the_limit_for_an_exact_total():
    results = Results("q", 0)
    found = _found("cr:702.19b@2019", "cr:702.2c@2025", "ck2008:502.9b")
    assert fill(results, [], found, 1, _texts, None, _spans, count_all=True) == 2
    assert len(results.hits) == 1


def test_a_listed_hit_gets_a_snippet_with_its_matched_words_marked():
    results = Results("q", 0)
    fill(results, [], _found("cr:702.2c@2025"), 10, _texts, None, _spans)
    assert results.hits[0].snippet == f"Deathtouch {MARK_OPEN}damage{MARK_CLOSE} is lethal {MARK_OPEN}damage{MARK_CLOSE}."


def test_a_picked_version_stands_for_the_document():
    """`pick` names, for a document standing for several versions, the one in force then."""
    results = Results("q", 0)
    fill(results, [], _found("cr:702.19b@2023"), 10, _texts, lambda ids: {"cr:702.19b@2023": "cr:702.19b@2019"},
         _spans)
    assert [h.id for h in results.hits] == ["cr:702.19b@2019"]


def test_on_the_real_corpus_no_text_is_listed_twice(library):
    hits = run_search(library, "trample", {}, 30).hits
    records = library.store.get_many([h.id for h in hits])
    keys = [" ".join(r.text.casefold().split()) for r in records]
    assert len(keys) == len(set(keys)) == len(hits)
    assert any(h.also for h in hits)  # the copies are there, folded into their hits
