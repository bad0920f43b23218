"""Ranking a pool of scored hits: coordination, then source diversity and the rules in force now.

BM25 scores each document alone; these weigh a hit against the query and against the other
hits (how many of the question's words it has, how many hits its source already placed, whether
it is still in force), so they are plain functions over the pooled (id, score, terms) triples,
kept apart from the index reading that produced them.
"""

from __future__ import annotations

COORD_POWER = 2  # a hit's score is scaled by (weighted share of the query's words it has) ** this
SAME_SOURCE_DECAY = 0.75  # each further hit from one source counts for less: editions side by side
# With no date and no edition, a text no longer in force counts for half: today's rule comes
# first unless an older text matches the question twice as well (a strict partition lost the
# 4th Edition answer to "flying creatures blocking": judged MRR@10 0.890 against 0.910, answer-text
# dev set 0.436 against 0.650, real questions level).
HISTORY_FACTOR = 0.5


def coordination(matched, word_terms: list[set], weights: list[float] | None = None) -> float:
    """Share of the query's words a hit matched (in any field), each word weighted by its
    rarity, squared: BM25 alone lets a short record that has one common word of a question
    ("játék", "damage") outrank one that has its rare words too ("életponttal", "commander")."""
    if len(word_terms) < 2:
        return 1.0
    weights = weights or [1.0] * len(word_terms)
    got = {(f, t.decode() if isinstance(t, bytes) else t) for f, t in matched}
    share = sum(w for w, terms in zip(weights, word_terms, strict=True) if terms & got) / (sum(weights) or 1)
    return share ** COORD_POWER


def rerank(found: list[tuple], word_terms: list[set], weights: list[float] | None = None,
           now: set[str] = frozenset()) -> list[tuple]:
    """Coordination, then source diversity: the n-th hit of one source is scaled by decay**n, so
    one source cannot fill the page (the same question usually has answers in several editions).
    With `now` (the rules in force today, for a question with no date), every other text counts
    HISTORY_FACTOR."""
    best: dict[str, tuple] = {}
    for rid, score, matched in found:  # a heading and its lead child collapse into one hit
        score *= coordination(matched, word_terms, weights)
        if rid not in best or score > best[rid][1]:
            best[rid] = (rid, score, matched)
    found = sorted(best.values(), key=lambda f: (-f[1], f[0]))
    per_source: dict[str, int] = {}
    rescored = []
    for rid, score, matched in found:
        source = rid.split(":", 1)[0]
        n = per_source.get(source, 0)
        per_source[source] = n + 1
        era = HISTORY_FACTOR if now and rid not in now else 1.0
        rescored.append((score * SAME_SOURCE_DECAY ** n * era, rid, matched))
    rescored.sort(key=lambda r: (-r[0], r[1]))
    return [(rid, score, matched) for score, rid, matched in rescored]
