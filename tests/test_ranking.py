"""Ranking a pool of scored hits (search/ranking.py): coordination, source diversity, the rules
in force now, and a question's aspects shown near the top."""

from __future__ import annotations

from rulebase.search.ranking import cover, in_rules_order, rerank


def _hits(*ids: str) -> list[tuple]:
    return [(rid, 10.0 - n, set()) for n, rid in enumerate(ids)]


def test_each_aspect_of_a_question_shows_its_best_hit_in_the_first_three():
    ranked = _hits("trample-a", "trample-b", "trample-c", "trample-d", "deathtouch-a", "deathtouch-b")
    aspects = [{"trample-a", "trample-b", "trample-c", "trample-d"}, {"deathtouch-a", "deathtouch-b"}]
    assert [h[0] for h in cover(ranked, aspects)] == [
        "trample-a", "deathtouch-a", "trample-b", "trample-c", "trample-d", "deathtouch-b"]


def test_three_aspects_fill_the_first_three_in_the_order_they_rank():
    ranked = _hits("a1", "a2", "c1", "a3", "b1")
    assert [h[0] for h in cover(ranked, [{"a1", "a2", "a3"}, {"b1"}, {"c1"}])] == ["a1", "c1", "b1", "a2", "a3"]


def test_a_hit_of_two_aspects_shows_both():
    ranked = _hits("both", "a2", "b2")
    assert cover(ranked, [{"both", "a2"}, {"both", "b2"}]) == ranked


def test_a_lone_aspect_shows_its_best_hit_in_the_first_three():
    """"... all 3+3 damage was redirected to a creature that was dead": redirection is the one
    rules term the story names, and its rule comes up from under the story's other words."""
    ranked = _hits("bolt-example", "target-rule", "damage-rule", "shaman-example", "redirect-b", "redirect-a")
    assert [h[0] for h in cover(ranked, [{"redirect-a", "redirect-b"}])] == [
        "bolt-example", "redirect-b", "target-rule", "damage-rule", "shaman-example", "redirect-a"]


def test_an_aspect_shown_already_or_missing_from_the_pool_keeps_the_order():
    ranked = _hits("a1", "a2", "a3", "b1")
    assert cover(ranked, [{"a1", "a2", "a3"}]) == ranked
    assert cover(ranked, [{"a2"}]) == ranked
    assert cover(ranked, [set()]) == ranked
    assert cover(ranked, [{"a1", "a2", "a3"}, set()]) == ranked
    assert cover(ranked, [{"a1"}, {"b1"}], depth=0) == ranked
    assert cover([], [{"a1"}, {"b1"}]) == []


def test_covering_moves_hits_and_drops_none():
    ranked = _hits(*[f"x{n}" for n in range(20)], "y")
    covered = cover(ranked, [{f"x{n}" for n in range(20)}, {"y"}])
    assert sorted(covered) == sorted(ranked) and covered[1][0] == "y"


def test_rerank_lists_the_texts_in_force_first_when_the_question_is_about_the_present():
    """However much better an older text matches (ten times here), a question about the present
    gets every text in force first, each part in its own score order."""
    found = [("old:1", 100.0, set()), ("old:2", 50.0, set()), ("cr:1", 6.0, set()), ("cr:2", 10.0, set())]
    assert [r[0] for r in rerank(found, [set()])] == ["old:1", "old:2", "cr:2", "cr:1"]
    assert [r[0] for r in rerank(found, [set()], now={"cr:1", "cr:2"})] == ["cr:2", "cr:1", "old:1", "old:2"]


def test_hits_that_score_alike_keep_the_rules_order():
    """613.1 before 613.1a before 613.9 before 613.10 (a string's order put 613.10 first), each
    from its own source in turn as before."""
    ids = ["cr:613.10@2020-04-17", "cr:613.1a@2020-04-17", "cr:613.9@2020-04-17", "cr:613.1@2019-05-03"]
    assert sorted(ids, key=in_rules_order) == ["cr:613.1@2019-05-03", "cr:613.1a@2020-04-17",
                                               "cr:613.9@2020-04-17", "cr:613.10@2020-04-17"]
    found = [(rid, 1.0, set()) for rid in ids]
    assert [r[0] for r in rerank(found, [set()])][:2] == ["cr:613.1@2019-05-03", "cr:613.1a@2020-04-17"]
    assert sorted(["ck1999:E.4.Ruling.13", "ck1999:E.4.Ruling.2"], key=in_rules_order)[0] == "ck1999:E.4.Ruling.2"
