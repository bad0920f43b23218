"""rulebase.ingest.comprules.lineage: one small hand-made fixture per matching case, then the real 2003-2026 archive."""

from __future__ import annotations

import difflib
import tarfile
from collections import Counter
from pathlib import Path

import pytest

from rulebase.core.errors import SourceError
from rulebase.core.records import fold_space
from rulebase.core.sources import Source
from rulebase.ingest.comprules import lineage
from rulebase.ingest.comprules.lineage import (
    BRIDGE,
    MOVED_MIN,
    SAME_PLACE_MIN,
    Change,
    changes,
    mask,
    match_score,
    trace,
    with_ids,
)
from rulebase.ingest.comprules.release import parse
from rulebase.ingest.text import decode

ARCHIVE = Path(__file__).resolve().parent.parent / "corpus" / "comprules-archive-2003-2026.tar.xz"

EXALTED_A = 'Exalted is a triggered ability. "Exalted" means "Whenever a creature you control attacks alone, that creature gets +1/+1 until end of turn."'
EXALTED_B = 'A creature "attacks alone" if it\'s the only creature declared as an attacker in a given combat phase. See rule 306.5.'


def _diff(a: list, b: list) -> list[Change]:
    ids = trace([a, b])
    return changes(with_ids(a, ids[0]), with_ids(b, ids[1]))


# -- hand-made cases ------------------------------------------------------------------------------


def test_mask_hides_cited_rule_and_section_numbers_only() -> None:
    assert mask("See rule 306.5, rules 601.2f\u2013h, rule 502 and section 6.") == \
        "See rule #, rules #\u2013h, rule # and section #."
    assert mask("gets +1/+1 and 20 life; 7 cards") == "gets +1/+1 and 20 life; 7 cards"


def test_unchanged_releases_keep_every_lineage() -> None:
    a = [("100", "General"), ("100.1", "These Magic rules apply to any Magic game."), ("100.1a", "A two-player game.")]
    assert trace([a, list(a), list(a)]) == [[0, 1, 2], [0, 1, 2], [0, 1, 2]]
    assert _diff(a, list(a)) == []
    assert trace([[list(e) for e in a], a]) == [[0, 1, 2], [0, 1, 2]]  # pairs as lists (JSON) too


def test_ids_are_dense_in_order_of_first_appearance_and_deterministic() -> None:
    r1 = [("100.1", "One rule about the start of the game."), ("100.2", "Two rule about decks and sideboards.")]
    r2 = [("100.1", "One rule about the start of the game."), ("100.1a", "A brand new subrule about mulligans."),
          ("100.2", "Two rule about decks and sideboards.")]
    r3 = [("100.1a", "A brand new subrule about mulligans."), ("100.3", "Another new rule about sideboards only.")]
    expected = [[0, 1], [0, 2, 1], [2, 3]]
    assert trace([r1, r2, r3]) == expected
    assert trace([list(r1), list(r2), list(r3)]) == expected  # the same input, the same ids


def test_edited_rule_keeps_its_lineage_and_is_changed() -> None:
    old = "If a player's life total is 0 or less, he or she loses the game. This is a state-based effect."
    new = "If a player's life total is 0 or less, that player loses the game. This is a state-based action."
    a = [("104.3a", "A player can concede the game at any time."), ("104.3b", old)]
    b = [("104.3a", "A player can concede the game at any time."), ("104.3b", new)]
    assert trace([a, b]) == [[0, 1], [0, 1]]
    assert _diff(a, b) == [Change("changed", 1, "104.3b", "104.3b", old, new)]


def test_renumbered_rules_keep_their_lineage_even_when_their_citations_change() -> None:
    a = [("502.82", "Unearth"), ("502.83", "Exalted"), ("502.83a", EXALTED_A), ("502.83b", EXALTED_B)]
    b = [("702.80", "Exalted"), ("702.80a", EXALTED_A), ("702.80b", EXALTED_B.replace("306.5", "506.5")),
         ("702.81", "Unearth")]
    assert trace([a, b]) == [[0, 1, 2, 3], [1, 2, 3, 0]]
    assert [(c.kind, c.old_number, c.new_number) for c in _diff(a, b)] == [
        ("renumbered", "502.83", "702.80"), ("renumbered", "502.83a", "702.80a"),
        ("renumbered", "502.83b", "702.80b"), ("renumbered", "502.82", "702.81")]


def test_a_subrule_edited_while_renumbered_follows_its_parent() -> None:
    old = "Multiple instances of exalted on the same permanent each trigger separately."
    new = "Multiple instances of exalted on one creature trigger separately for each attack."
    assert SAME_PLACE_MIN <= match_score(old, new) < MOVED_MIN  # too weak to match away from its place
    a = [("502.83", "Exalted"), ("502.83a", EXALTED_A), ("502.83c", old)]
    b = [("702.80", "Exalted"), ("702.80a", EXALTED_A), ("702.80c", new)]
    assert trace([a, b]) == [[0, 1, 2], [0, 1, 2]]
    assert _diff(a, b)[-1] == Change("renumbered+changed", 2, "502.83c", "702.80c", old, new)
    # without the parent that moved with it, the same edit at another number is a new rule
    assert trace([[("502.83c", old)], [("702.80c", new)]]) == [[0], [1]]


def test_a_rule_moved_and_edited_matches_by_similarity() -> None:
    old = "A token is a marker used to represent any permanent that isn't represented by a card. (See rule 216.)"
    new = "Some effects put tokens onto the battlefield. A token is a marker used to represent any permanent that isn't represented by a card."
    assert match_score(old, new) >= MOVED_MIN
    a = [("200.4", old), ("200.5", "A spell is a card on the stack.")]
    b = [("110.5", new), ("111.1", "A spell is a card on the stack.")]
    assert trace([a, b]) == [[0, 1], [0, 1]]


def test_a_reused_number_starts_a_new_lineage() -> None:
    ward = 'Ward is a triggered ability. "Ward" means "Whenever this permanent becomes the target of a spell an opponent controls, counter it."'
    exalted = EXALTED_A.replace("attacks alone", "attacks alone (see rule 506.5)")
    a = [("702.80", "Exalted"), ("702.80a", EXALTED_A), ("702.81", "Retrace"), ("702.81a", "Retrace is a static ability.")]
    b = [("702.80", "Ward"), ("702.80a", ward), ("702.81", "Exalted"), ("702.81a", exalted),
         ("702.82", "Retrace"), ("702.82a", "Retrace is a static ability.")]
    ids = trace([a, b])
    assert ids == [[0, 1, 2, 3], [4, 5, 0, 1, 2, 3]]
    assert [(c.kind, c.old_number, c.new_number) for c in _diff(a, b)] == [
        ("added", None, "702.80"), ("added", None, "702.80a"), ("renumbered", "702.80", "702.81"),
        ("renumbered+changed", "702.80a", "702.81a"), ("renumbered", "702.81", "702.82"),
        ("renumbered", "702.81a", "702.82a")]


def test_the_same_number_is_not_an_edit_when_the_parents_went_different_ways() -> None:
    old = "Exalted is a triggered ability that functions while the creature attacks alone this turn."
    reuse = "Ward is a triggered ability that functions while the permanent is targeted this turn."
    moved = "Exalted is a triggered ability; it functions when a creature you control attacks alone."
    assert match_score(old, reuse) >= SAME_PLACE_MIN  # an edit in place, but for the parents
    a = [("702.80", "Exalted"), ("702.80a", old)]
    b = [("702.80", "Ward"), ("702.80a", reuse), ("702.81", "Exalted"), ("702.81a", moved)]
    assert trace([a, b]) == [[0, 1], [2, 3, 0, 1]]


DIVIDE = ("A player assigning combat damage from a creature with deathtouch can divide that damage as he or she "
          "chooses among any number of creatures blocking or blocked by it. This is an exception to the procedures "
          "described in rules 510.1c-d.")
LETHAL = ("Any nonzero amount of combat damage assigned to a creature by a source with deathtouch is considered to be "
          "lethal damage, regardless of that creature's toughness. See rules 510.1c-d.")


def test_a_rule_rewritten_in_place_citing_the_same_rules_keeps_its_lineage() -> None:
    """Deathtouch's 702.2b, 2009 -> 2010: too few words survive for an edit (pass 3), but the
    same number, nothing else claiming either text, and the same rules cited (pass 5)."""
    assert match_score(DIVIDE, LETHAL) < SAME_PLACE_MIN
    head = [("702.2", "Deathtouch"), ("702.2a", "Deathtouch is a static ability.")]
    a, b = [*head, ("702.2b", DIVIDE)], [*head, ("702.2b", LETHAL)]
    assert trace([a, b]) == [[0, 1, 2], [0, 1, 2]]
    assert _diff(a, b) == [Change("changed", 2, "702.2b", "702.2b", DIVIDE, LETHAL)]


def test_a_rewrite_citing_other_rules_or_none_is_a_new_rule() -> None:
    head = [("702.2", "Deathtouch"), ("702.2a", "Deathtouch is a static ability.")]
    other = LETHAL.replace("510.1c-d", "704.5g")
    assert trace([[*head, ("702.2b", DIVIDE)], [*head, ("702.2b", other)]]) == [[0, 1, 2], [0, 1, 3]]
    bare = [DIVIDE.split(" This is")[0] + ".", LETHAL.split(" See")[0]]
    assert trace([[*head, ("702.2b", bare[0])], [*head, ("702.2b", bare[1])]]) == [[0, 1, 2], [0, 1, 3]]


def test_a_rewrite_in_place_yields_to_a_rule_that_moved_there() -> None:
    """The text that continues elsewhere (pass 4) is matched first; the rewrite test only pairs
    what is left."""
    head = [("702.2", "Deathtouch"), ("702.2a", "Deathtouch is a static ability.")]
    moved = [*head, ("702.2b", LETHAL), ("702.2c", DIVIDE)]
    assert trace([[*head, ("702.2b", DIVIDE)], moved]) == [[0, 1, 2], [0, 1, 3, 2]]


def test_a_split_or_a_merge_is_not_a_match() -> None:
    one = "Each player draws seven cards at the start of the game before the first turn begins."
    two = "A player who is unhappy with the opening hand may shuffle it away and draw again."
    assert abs(match_score(one, one + " " + two) - 2 / 3) < 0.01  # below MOVED_MIN
    split = trace([[("101.4", one + " " + two)], [("103.4", one), ("103.5", two)]])
    assert split == [[0], [1, 2]]
    merge = trace([[("101.4", one), ("101.5", two)], [("103.4", one + " " + two)]])
    assert merge == [[0, 1], [2]]


def test_a_title_heading_matches_by_title_and_by_where_its_rules_went() -> None:
    a = [("300", "General"), ("300.1", "The turn has five phases in order."), ("300.2", "Each phase ends when the stack is empty."),
         ("502", "Keyword Abilities"), ("502.83", "Exalted"), ("502.84", "Unearth")]
    b = [("300", "General"), ("300.1", "A card type is a characteristic of an object."),
         ("500", "General"), ("500.1", "The turn has five phases in order."), ("500.2", "Each phase ends when the stack is empty."),
         ("702", "Keyword Abilities"), ("702.80", "Exalted"), ("702.81", "Cascade")]
    ids = trace([a, b])
    assert ids[0] == [0, 1, 2, 3, 4, 5]
    # 300 'General' of b is a new chapter: the rules of a's 300 went to 500, and so did its heading
    assert ids[1] == [6, 7, 0, 1, 2, 3, 4, 8]


def test_a_chapter_and_a_rule_never_share_a_lineage() -> None:
    assert trace([[("212.2", "Artifacts")], [("301", "Artifacts")]]) == [[0], [1]]


def test_an_empty_release_is_skipped_not_read_as_every_rule_removed() -> None:
    a = [("100.1", "These Magic rules apply to any Magic game.")]
    b = [("103.1", "These Magic rules apply to any Magic game, including multiplayer games.")]
    assert trace([a, [], b]) == [[0], [], [0]]


def test_a_rule_missing_from_a_release_continues_when_it_comes_back() -> None:
    full = [("100.1", "First rule of the game."), ("100.2", "Second rule of the game."), ("100.3", "Third rule of the game.")]
    lossy = full[:1]  # a parse that lost the end of the file
    edited = [*full[:2], ("100.3", "Third rule of the whole game.")]
    assert trace([full, lossy, full]) == [[0, 1, 2], [0], [0, 1, 2]]
    assert trace([full, lossy, edited]) == [[0, 1, 2], [0], [0, 1, 2]]
    assert trace([full, *[lossy] * BRIDGE, full]) == [[0, 1, 2], *[[0]] * BRIDGE, [0, 1, 2]]
    assert trace([full, *[lossy] * (BRIDGE + 1), full]) == [[0, 1, 2], *[[0]] * (BRIDGE + 1), [0, 3, 4]]


def test_the_same_rule_printed_twice_is_matched_one_to_one() -> None:
    a = [("702.30d", "Twice printed."), ("702.30d", "Twice printed.")]
    assert trace([a, list(a), a[:1]]) == [[0, 1], [0, 1], [0]]


def test_changes_between_any_two_releases_in_number_order() -> None:
    r1 = [("100.1", "Rule one about the game."), ("100.2", "Rule two about decks."), ("100.10", "Rule ten about sideboards."),
          ("502.83", "Exalted")]
    r2 = [("100.1", "Rule one about the whole game."), ("100.10", "Rule ten about sideboards."),
          ("100.11", "Rule eleven, brand new."), ("502.83", "Exalted")]
    r3 = [("100.1", "Rule one about the whole game."), ("100.9", "Rule ten about sideboards."),
          ("100.11", "Rule eleven, brand new."), ("702.80", "Exalted")]
    ids = trace([r1, r2, r3])
    assert ids == [[0, 1, 2, 3], [0, 2, 4, 3], [0, 2, 4, 3]]
    t1, t3 = with_ids(r1, ids[0]), with_ids(r3, ids[2])
    assert changes(t1, t3) == [
        Change("changed", 0, "100.1", "100.1", "Rule one about the game.", "Rule one about the whole game."),
        Change("removed", 1, "100.2", None, "Rule two about decks.", None),
        Change("renumbered", 2, "100.10", "100.9", "Rule ten about sideboards.", "Rule ten about sideboards."),
        Change("added", 4, None, "100.11", None, "Rule eleven, brand new."),
        Change("renumbered", 3, "502.83", "702.80", "Exalted", "Exalted"),
    ]
    assert [(c.kind, c.new_number or c.old_number) for c in changes(t3, t1)] == [
        ("changed", "100.1"), ("added", "100.2"), ("renumbered", "100.10"), ("removed", "100.11"),
        ("renumbered", "502.83")]
    with pytest.raises(ValueError):
        with_ids(r1, ids[0][:-1])


def test_moved_rules_are_found_without_comparing_all_pairs(monkeypatch) -> None:
    """400 rules removed, 400 unrelated ones added and 400 moved with an edit: all pairs would be
    800 x 800 comparisons; candidates from the rare-word index are about one per moved rule.
    Counted, not timed: every pair examined intersects two word sets (made countable here), and
    every ratio computed builds a SequenceMatcher."""
    count = Counter()

    class Words(frozenset):
        def __and__(self, other: frozenset) -> frozenset:
            count["pairs examined"] += 1
            return frozenset.__and__(self, other)

    class Matcher(difflib.SequenceMatcher):
        def __init__(self, *args, **kwargs) -> None:
            count["ratios"] += 1
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(lineage, "frozenset", Words, raising=False)
    monkeypatch.setattr(lineage, "SequenceMatcher", Matcher)

    def text(tag: str, n: int) -> str:  # four words in common, six of its own
        return f"the player may choose {tag}{n}a {tag}{n}b {tag}{n}c {tag}{n}d {tag}{n}e {tag}{n}f."

    a = [(f"100.{n}", text("gone", n)) for n in range(400)] + [(f"200.{n}", text("kept", n)) for n in range(400)]
    b = [(f"300.{n}", text("new", n)) for n in range(400)] + \
        [(f"400.{n}", text("kept", n).replace("may choose", "chooses")) for n in range(400)]
    ids = trace([a, b])
    assert ids[1][400:] == ids[0][400:]  # every moved rule found
    assert set(ids[1][:400]).isdisjoint(ids[0])  # nothing unrelated matched
    assert count["pairs examined"] == count["ratios"] == 400


# -- the real archive -----------------------------------------------------------------------------

SUBSET = ("2008-10-01", "2009-05-01", "2009-07-11", "2009-09-04", "2009-10-01", "2010-02-01", "2011-05-01",
          "2011-06-17", "2012-02-01", "2013-04-29", "2013-07-11", "2014-02-01", "2015-01-23", "2016-07-22",
          "2017-01-19", "2018-07-13", "2019-01-25", "2020-01-22", "2021-02-24", "2021-04-19", "2022-02-18",
          "2023-04-14", "2024-02-06", "2025-02-07", "2026-01-16")


def _rules(date: str, data: bytes) -> list[tuple[str, str]]:
    name = f"comprules-{date}.txt"
    source = Source(id=f"cr{date}", title="Magic: The Gathering Comprehensive Rules", edition="10e", date=date,
                    lang="en", file=name, format="comprules", provenance="test", credit="test", path=Path(name),
                    bundled=False)
    try:
        parsed = parse(decode(data, name).text, source)
    except SourceError:
        return []
    return [(r.number, fold_space(r.text)) for r in parsed.records if r.kind == "rule" and r.number]


@pytest.fixture(scope="module")
def archive() -> dict:
    """{date: (rules, lineage ids)} for SUBSET, each release parsed once."""
    if not ARCHIVE.is_file():
        pytest.skip(f"{ARCHIVE.name} is not in corpus/")
    with tarfile.open(ARCHIVE, "r:xz") as tar:
        raw = {}
        for member in tar.getmembers():
            date = member.name.rsplit("comprules-", 1)[-1].removesuffix(".txt")
            if date in SUBSET:
                raw[date] = tar.extractfile(member).read()
    releases = [_rules(date, raw[date]) for date in SUBSET]
    return dict(zip(SUBSET, zip(releases, trace(releases), strict=True), strict=True))


def _first_renumbered(archive: dict) -> str:
    """2009-07-11 introduced the new numbering; while the parser reads no rules from it (its
    Contents heading differs from the body's), 2009-09-04 is the first release that has them."""
    return next(d for d in SUBSET if d > "2009-05-01" and archive[d][0])


def _where(archive: dict, lid: int) -> dict[str, list[str]]:
    return {d: [n for (n, _), i in zip(rules, ids, strict=True) if i == lid] for d, (rules, ids) in archive.items()
            if rules}


def _lid(archive: dict, date: str, number: str) -> int:
    rules, ids = archive[date]
    return next(i for (n, _), i in zip(rules, ids, strict=True) if n == number)


def test_exalted_and_its_subrules_through_every_renumbering(archive) -> None:
    first = _first_renumbered(archive)
    for letter in ("", "a", "b"):
        where = _where(archive, _lid(archive, "2008-10-01", "502.83" + letter))
        expected = {}
        for date in where:
            number = ("502.83" if date < first else "702.80" if date < "2011-06-17" else "702.81"
                      if date < "2013-07-11" else "702.82" if date < "2021-04-19" else "702.83")
            expected[date] = [number + letter]
        assert where == expected
    rules, _ = archive["2026-01-16"]
    assert ("702.83", "Exalted") in rules


def test_exalted_renumbering_is_a_renumbering_even_with_its_citation_changed(archive) -> None:
    first = _first_renumbered(archive)
    found = {c.old_number: c for c in changes(with_ids(*archive["2009-05-01"]), with_ids(*archive[first]))}
    assert found["502.83b"].new_number == "702.80b"
    assert "See rule 306.5." in found["502.83b"].old_text and "See rule 506.5." in found["502.83b"].new_text
    assert [found[n].kind for n in ("502.83", "502.83a", "502.83b")] == ["renumbered"] * 3


def test_trample_keeps_its_lineage_and_mana_burn_ends(archive) -> None:
    first = _first_renumbered(archive)
    trample = _where(archive, _lid(archive, "2008-10-01", "502.9"))
    assert trample["2008-10-01"] == ["502.9"] and trample[first] == ["702.17"]
    assert trample["2011-06-17"] == ["702.18"] and trample["2026-01-16"] == ["702.19"]
    assert all(trample.values())
    rules, _ = archive["2009-05-01"]
    assert "mana burn" in dict(rules)["300.3"]
    burn = _where(archive, _lid(archive, "2009-05-01", "300.3"))
    assert burn["2008-10-01"] == burn["2009-05-01"] == ["300.3"]
    assert not any(numbers for date, numbers in burn.items() if date >= first)
    removed = [c for c in changes(with_ids(*archive["2009-05-01"]), with_ids(*archive[first])) if c.old_number == "300.3"]
    assert [c.kind for c in removed] == ["removed"]
    assert not any("mana burn" in text for d, (rules, _) in archive.items() if d >= first for _, text in rules)


def test_a_reused_keyword_number_in_2021_is_a_new_rule(archive) -> None:
    before, after = with_ids(*archive["2021-02-24"]), with_ids(*archive["2021-04-19"])
    old = {n: (t, i) for n, t, i in before}
    new = {n: (t, i) for n, t, i in after}
    assert old["702.80"][0] == "Retrace" and new["702.81"] == old["702.80"]  # Retrace moved on
    assert new["702.80"][0] == "Wither" and new["702.80"][1] == old["702.79"][1]  # Wither took its number
    assert new["702.21"][0] == "Ward" and new["702.21"][1] not in {i for _, _, i in before}
    assert old["100.1"] == new["100.1"]


def test_summary_of_the_subset(archive) -> None:
    """Figures for the parser as it is in the working tree today (it reads 2009-07-11's rules):
    they move when the parser changes, which is what they are here to show."""
    first = _first_renumbered(archive)
    every = {i for rules, ids in archive.values() for i in ids}
    assert len(every) == max(every) + 1
    kinds = Counter(c.kind for c in changes(with_ids(*archive["2009-05-01"]), with_ids(*archive[first])))
    assert (first, len(every), dict(kinds)) == SUMMARY


SUMMARY = ("2009-07-11", 3566,
           {"changed": 2, "added": 524, "removed": 241, "renumbered": 536, "renumbered+changed": 407})


NEWER = ARCHIVE.with_name("comprules-extra-2023-2026.tar.xz")


@pytest.fixture(scope="module")
def releases_2026() -> list[list[tuple[str, str]]]:
    """The rules of 2026-01-16 (rulesraker's), 2026-02-27 and 2026-04-17 (the 2023-2026 archive)."""
    with tarfile.open(ARCHIVE, "r:xz") as tar:
        january = tar.extractfile("comprules-archive/comprules-2026-01-16.txt").read()
    folder = "HeliumOctahelide-magic-comp-rules-zh-cn/plain_text"
    with tarfile.open(NEWER, "r:xz") as tar:
        february, april = (tar.extractfile(f"{folder}/{name}").read() for name in ("20260227_En.txt", "20260417_En.txt"))
    return [_rules("2026-01-16", january), _rules("2026-02-27", february), _rules("2026-04-17", april)]


def test_the_2026_renumberings_are_traced(releases_2026) -> None:
    """2026-02-27 inserts 506.3d (506.3d-f become 506.3e-g); 2026-04-17 inserts chapter 722,
    Preparation Cards: every rule of 722-732 moves to the next chapter with its letters kept, and
    714.3a is rewritten as two rules (714.3a-b), so 714.3b becomes 714.3c."""
    ids = trace(releases_2026)
    found = [dict(zip(ids[n], (number for number, _ in rules), strict=True)) for n, rules in enumerate(releases_2026)]
    moved = {(old[i], new[i]) for old, new in zip(found, found[1:], strict=False) for i in old.keys() & new.keys()
             if old[i] != new[i]}
    shifted = {(n, f"{int(n[:3]) + 1}{n[3:]}") for n, _ in releases_2026[1] if "722" <= n[:3] <= "732"}
    assert len(shifted) == 103 and shifted <= moved
    assert moved - shifted == {("506.3d", "506.3e"), ("506.3e", "506.3f"), ("506.3f", "506.3g"), ("714.3b", "714.3c")}
    new_in_april = sorted(found[2][i] for i in found[2].keys() - found[1].keys())
    assert new_in_april == ["702.191", "702.191a", "702.191b", "702.192", "702.192a", "714.3a", "714.3b", "722.1",
                            "722.2", "722.2a", "722.2b", "722.2c", "722.3", "722.3a", "722.3b", "722.3c", "722.3d",
                            "722.4", "722.5"]
