#!/usr/bin/env python3
"""Card links scored against the rules a judge cites for each card's text.

    python scripts/cardlinks.py [--index DIR] [--set tests/eval/card-rules-dev.tsv] [--split SEED] [--verbose]

The set (a byte-for-byte copy of the shared card-rules-dev.tsv; columns card, rules, why) names
cards as the card file spells them and the rules a judge cites for what their text does, as the
Comprehensive Rules of 2026-01-16 number them. A card's link answers a cited rule when it is that
rule, one of its ancestors (702.19 for 702.19b) or one of its subrules, or the same rule under
another number (the link's lineage holds the cited rule's version of 2026-01-16). Printed: link
recall (cited rules answered / cited rules) over the whole set and over its two halves (odd and
even rows: one chooses, the other checks; with --split SEED, a tuning and a test half drawn once
by random.Random(SEED) instead: tune on the first, report the second), the links per card (median and mean over every card
in the index, and over the set's cards), and with --verbose each card's links and misses.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulebase.core.eras import day  # noqa: E402
from rulebase.library import Library  # noqa: E402

SET = ROOT / "tests" / "eval" / "card-rules-dev.tsv"
CITED_ON = "2026-01-16"  # the release the set's numbers are those of


def within(number: str, ancestor: str) -> bool:
    return number == ancestor or number.startswith(ancestor + ".") or (
        "." in ancestor and number.startswith(ancestor) and number[len(ancestor):].isalpha())


def number_then(store, link: dict) -> str | None:
    """The link's rule as the set's release numbers it (its lineage's version in force on CITED_ON):
    the Monarch chapter, 725 since 2026-04-17, was 724."""
    versions = [r for r in store.lineage(link["lineage"], day(CITED_ON)) if r.source == "cr"] if link.get("lineage") else []
    return versions[0].number if versions else None


def answers(store, link: dict, cited: str) -> bool:
    """A link answers a cited rule when, as the set's release numbers them, one is the other, or its
    ancestor or subrule; a citation of alternatives ("704.5j|205.4d": the legend rule, or the rule
    that applies it) is answered by any of them."""
    return any(number and (within(alternative, number) or within(number, alternative))
               for number in (link["rule"], number_then(store, link)) for alternative in cited.split("|"))


def score(library: Library, rows: list[dict], verbose: bool) -> tuple[int, int, list[int]]:
    store = library.store
    hit = total = 0
    counts = []
    for row in rows:
        ids = [card_id for card_id, kind in store.card_named(_fold(row["card"])) if kind == "name"]
        if not ids:
            print(f"  {row['card']}: not in the index", file=sys.stderr)
            continue
        card = store.get(ids[0])
        links = card.card["links"]
        cited = [c.strip() for c in row["rules"].split(";") if c.strip()]
        got = [c for c in cited if any(answers(store, link, c) for link in links)]
        hit, total = hit + len(got), total + len(cited)
        counts.append(len(links))
        if verbose:
            print(f"{row['card']}: {len(got)}/{len(cited)}, {len(links)} links")
            for link in links:
                print(f"    {link['rule']:<9} {link['title'][:32]:<32} <- {link['reason'][:60]}")
            missed = [c for c in cited if c not in got]
            if missed:
                print(f"    missed: {', '.join(missed)}")
    return hit, total, counts


def _fold(name: str) -> str:
    from rulebase.core.cardnames import fold_name

    return fold_name(name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=Path, default=None)
    parser.add_argument("--set", type=Path, default=SET)
    parser.add_argument("--split", type=int, default=None, metavar="SEED",
                        help="halves drawn by random.Random(SEED): tuning, then test")
    parser.add_argument("--verbose", "-v", action="store_true")
    opts = parser.parse_args()
    library = Library(opts.index)
    library.ensure()
    with open(opts.set, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    hit, total, counts = score(library, rows, opts.verbose and opts.split is None)
    print(f"link recall: {hit}/{total} = {hit / max(total, 1):.3f} over {len(rows)} cards")
    halves = (("odd rows", rows[0::2]), ("even rows", rows[1::2]))
    if opts.split is not None:
        import random

        drawn = random.Random(opts.split).sample(rows, len(rows))
        halves = (("tuning half", drawn[:len(rows) // 2]), ("test half", drawn[len(rows) // 2:]))
    for name, half in halves:
        h, t, _ = score(library, half, opts.verbose and name == "tuning half")  # (never the test half's cards)
        print(f"  {name}: {h}/{t} = {h / max(t, 1):.3f}")
    every = library.store.links_per_card()
    print(f"links per card: median {statistics.median(every):g}, mean {statistics.mean(every):.2f} over "
          f"{len(every)} cards; the set's cards: median {statistics.median(counts):g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
