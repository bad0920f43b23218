"""Ranking a pool of scored hits: coordination, then source diversity and the rules in force now.

BM25 scores each document alone; these weigh a hit against the query and against the other
hits (how many of the question's words it has, how many hits its source already placed, whether
it is still in force), so they are plain functions over the pooled (id, score, terms) triples,
kept apart from the index reading that produced them.
"""

from __future__ import annotations

import re

COORD_POWER = 2  # a hit's score is scaled by (weighted share of the query's words it has) ** this
SAME_SOURCE_DECAY = 0.75  # each further hit from one source counts for less: editions side by side
# The first hits that together show each aspect of a question (see cover). 2 lost keywords
# --as-of a question; 4 and 5 scored as 3.
COVER_DEPTH = 3


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


def in_rules_order(rid: str) -> list:
    """An id as the rules order their numbers, for hits that score alike (the rules a query of card
    names lists, each seeded alike): 613.1, 613.1a, ... 613.9, 613.10, where a string's order puts
    613.10 and 613.11 first."""
    return [int(part) if n % 2 else part for n, part in enumerate(re.split(r"(\d+)", rid))] + [rid]


def rerank(found: list[tuple], word_terms: list[set], weights: list[float] | None = None,
           now: set[str] = frozenset(), first: set[str] = frozenset()) -> list[tuple]:
    """Coordination, then source diversity: the n-th hit of one source is scaled by decay**n, so
    one source cannot fill the page (the same question usually has answers in several editions).
    With `now` (the texts in force today, for a question about the present), those come first and
    every other text after them: a question in the present tense asks for the rule a judge would
    cite today, and a superseded text (an older release, the rulebooks, Crystal Keep's summaries)
    is its history, not its answer. A rule's older versions are not lost: the hit shows today's
    version of its lineage (Searcher's groups), the history one command away. `first`, the texts
    in force that govern where the question is asked (a Rules Enforcement Level it names: the
    tournament documents that apply there; a penalty or an infraction: the tournament documents),
    come before the rest of `now`: the game's rules are the same at every level, so a question
    naming one asks how a tournament handles it."""
    best: dict[str, tuple] = {}
    for rid, score, matched in found:  # a heading and its lead child collapse into one hit
        score *= coordination(matched, word_terms, weights)
        if rid not in best or score > best[rid][1]:
            best[rid] = (rid, score, matched)
    found = sorted(best.values(), key=lambda f: (-f[1], in_rules_order(f[0])))
    per_source: dict[str, int] = {}
    rescored = []
    for rid, score, matched in found:
        source = rid.split(":", 1)[0]
        n = per_source.get(source, 0)
        per_source[source] = n + 1
        rescored.append((score * SAME_SOURCE_DECAY ** n, rid, matched))
    rescored.sort(key=lambda r: (bool(now) and r[1] not in now, bool(first) and r[1] not in first, -r[0],
                                 in_rules_order(r[1])))
    return [(rid, score, matched) for score, rid, matched in rescored]


def cover(ranked: list[tuple], aspects: list[set[str]], depth: int | None = None) -> list[tuple]:
    """The first `depth` hits show each aspect of the question (the rare rules terms it names,
    each as the ids of the hits that are its rules), the best-ranked hit of each: "trample and
    deathtouch" shows the deathtouch rule beside the trample ones, which share more of the
    question's other words ("assigned", "damage", "blocker"). A question with one such term is
    about it too: "... all 3+3 damage was redirected to a creature that was dead" names
    redirection alone, and its rule (614.9) comes second instead of beyond the first hundred,
    under a story's card names and numbers. Otherwise the order is kept.

    Measured on the real questions (scripts/realq.py): question --as-of MRR@10 0.423 -> 0.436
    (hit@3 0.500 -> 0.533), keywords 0.595 -> 0.601, keywords --as-of 0.515 -> 0.532 (hit@3
    0.667 -> 0.700); the question mode and the judged sets level. A floor on the raised hit's
    score (a tenth of the first's) kept most of it out: an aspect's rules share few of a long
    question's words, so coordination leaves them far below. Covering a lone aspect too: question
    hit@3 0.515 -> 0.545 (MRR@10 0.472 -> 0.487), question --as-of 0.533 -> 0.567 (0.453 ->
    0.469), the keyword modes level; judged nDCG@10 0.766 -> 0.768 (en-keyword 0.800 -> 0.806)."""
    depth = COVER_DEPTH if depth is None else depth
    aspects = [a for a in aspects if a]
    if not aspects or not ranked:
        return ranked
    out, rest = [ranked[0]], list(ranked[1:])
    while len(out) < depth and rest:
        shown = {n for n, aspect in enumerate(aspects) if any(hit[0] in aspect for hit in out)}
        open_ = [aspect for n, aspect in enumerate(aspects) if n not in shown]
        pick = next((n for n, hit in enumerate(rest) if any(hit[0] in aspect for aspect in open_)), 0)
        out.append(rest.pop(pick))
    return out + rest
