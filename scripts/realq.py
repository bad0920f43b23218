#!/usr/bin/env python3
"""Real-question evaluation: 33 rules questions people asked, scored by the rules their answers cited.

    python scripts/realq.py [--index DIR] [--verbose] [--mode M]

`tests/eval/real-questions-dev.tsv` (a byte-for-byte copy of the shared set; columns qid, date,
cited_rules, question, keywords, url, source) is run in four modes: the asker's question, the
question with `--as-of` the answer's date, the keyword version, and the keywords with `--as-of`.
The as-of modes take only the rows dated on or after the archive's first release (2003-03-15):
before it, and for `n.d.`, there is no release to ask about. rulebase is asked exactly as
`rulebase search QUERY [--as-of DATE]` asks (`query.run_search` with the CLI's checked filters
and the day `--as-of` means); the FTS5 and grep baselines of scripts/eval.py rank the same
records, in the as-of modes only those in force that day (eras.py's windows), each day's
baseline indexed over that day's records.

Which hits answer (`Answers`): a cited number names, on the answer's date, every rule of the
archive in force that day whose number is the cited one or a sibling (702.19c cited: 702.19 and
702.19a-z; a three-digit 613: 613 and every 613.x). Their lineages (lineage.py: the same rule
across edits and renumberings) are the answer set, so 702.17 cited in 2010 is answered by
today's 702.19 Trample. A hit answers when its lineage is in the set; an example (and a Crystal
Keep ruling) counts through the record it is attached to, a glossary entry through the rules it
cites (its resolved rule references). Undated and pre-archive rows:

- `n.d.`: the cited number in every release that held it (the date is unknown, so any era the
  number was in counts; the newest release alone would make q31's 702.17, trample when it was
  asked, today's Reach);
- a release dated at most GRACE_DAYS (7) after the answer counts too: answers quote a new
  release's numbers days before its date (q19, 2019-10-03, cites Adventure's 715.3 of the
  2019-10-04 release; the 715.3 in force that day was a Mindslaver rule);
- a date before the first release (q07, 2002): the release nearest in time that holds the
  number (the 2003-03-15 release when it has it); the same for a dated row whose release lacks
  the number (q16, 2021-09-29: the archive has no 2021-09 release, so daybound's 702.145 is
  first in the 2021-11-15 one, and the as-of modes cannot find it).

A row none of whose cited numbers the archive ever held is left out of the averages and counted
(`left out`). Metrics per mode and system: hit@1, hit@3, hit@5 (the share of questions with an
answering hit in the top k) and MRR@10 (1/rank of the first answering hit in the top 10, 0 when
none), over the top 10 hits as the user sees them.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from eval import Fts5Baseline, GrepBaseline  # noqa: E402

from rulebase.cli.common import check_filters  # noqa: E402
from rulebase.core.eras import OPEN_END  # noqa: E402
from rulebase.core.records import Record  # noqa: E402
from rulebase.library import Library  # noqa: E402
from rulebase.rules.history import as_of_day  # noqa: E402
from rulebase.search.request import run_search  # noqa: E402

QUESTIONS = ROOT / "tests" / "eval" / "real-questions-dev.tsv"
MODES = ("question", "question-as-of", "keywords", "keywords-as-of")
SYSTEMS = ("rulebase", "fts5", "grep")
DEPTH = 10
GRACE_DAYS = 7  # an answer may quote a release published days before its date (q19, Adventure)
_SUBRULE = re.compile(r"^(\d{3}\.\d+)([a-z])?$")
_CHAPTER = re.compile(r"^\d{3}$")
_THROUGH_PARENT = ("example", "ruling")
_RULE_REFS = ("rule", "section")


@dataclass(frozen=True, slots=True)
class Question:
    qid: str
    date: str  # YYYY-MM-DD, YYYY-MM or "n.d."
    cited: tuple[str, ...]
    question: str
    keywords: str
    url: str

    @property
    def day(self) -> int | None:
        """The answer's date as `--as-of` reads it (a month means its last day); None for n.d."""
        return None if self.date == "n.d." else as_of_day(self.date)


READ_CARDS = True  # --no-cards: the questions searched without reading the cards they name


def read_questions(path: Path = QUESTIONS) -> list[Question]:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        if not line.strip():
            continue
        row = dict(zip(header, line.split("\t"), strict=True))
        rows.append(Question(row["qid"], row["date"], tuple(c.strip() for c in row["cited_rules"].split(";")),
                             row["question"], row["keywords"], row["url"]))
    return rows


def siblings(cited: str) -> tuple[str, re.Pattern]:
    """The number range a cited rule covers, as (prefix to read from the store, exact match):
    702.19c -> 702.19 and 702.19a-z; 613 -> 613 and every 613.x."""
    cited = cited.strip().lower().rstrip(".")
    if _CHAPTER.match(cited):
        return cited, re.compile(rf"^{cited}(?:\..+)?$")
    match = _SUBRULE.match(cited)
    if not match:
        return cited, re.compile(rf"^{re.escape(cited)}$")
    base = match[1]
    return base, re.compile(rf"^{re.escape(base)}[a-z]?$")


def _ordinal(value: int) -> int:
    value = min(value, 99991231)
    return date(value // 10000, value // 100 % 100, value % 100).toordinal()


def _distance(window: tuple[int, int], day: int) -> int:
    """Days from `day` to a window (0 inside it)."""
    if window[0] <= day <= window[1]:
        return 0
    return _ordinal(window[0]) - _ordinal(day) if day < window[0] else _ordinal(day) - _ordinal(window[1])


class Answers:
    """Which records answer a cited rule: the lineages that held its number (or a sibling's) on
    the answer's date, and the lineages a hit stands for (its own, its parent's, or for a
    glossary entry those of the rules it cites). Reads only the record store."""

    def __init__(self, store):
        self.store = store
        self.archives = tuple(store.releases())  # archive source ids ("cr")
        self._keys: dict[str, frozenset[str]] = {}

    def versions(self, cited: str) -> list[tuple[Record, tuple[int, int]]]:
        """Every archive version numbered `cited` or a sibling, with the days it was in force."""
        prefix, exact = siblings(cited)
        found = {r.id: r for r in self.store.by_number(prefix) if r.span and r.source in self.archives}
        for source in self.archives:
            found.update((r.id, r) for r in self.store.by_number_prefix(prefix, source))
        hits = [r for r in found.values() if r.number and exact.match(r.number.lower())]
        spans = self.store.windows([r.id for r in hits])
        return [(r, spans[r.id]) for r in hits if r.lineage]

    def lineages(self, cited: str, day: int | None) -> set[str]:
        """The lineages that had the cited number or a sibling on `day` (None: in any release), or
        in a release dated at most GRACE_DAYS after it; when none did, those of the release
        nearest in time that had one."""
        versions = self.versions(cited)
        if day is None or not versions:
            return {r.lineage for r, _ in versions}
        held = {r.lineage for r, window in versions
                if window[0] <= day <= window[1] or (day < window[0] and _distance(window, day) <= GRACE_DAYS)}
        if held:
            return held
        nearest = min(_distance(window, day) for _, window in versions)
        # the day nearest `day` on which some version was in force, then everything in force then
        probe = min((window for _, window in versions if _distance(window, day) == nearest),
                    key=lambda w: w[0])
        when = day if nearest == 0 else (probe[0] if day < probe[0] else probe[1])
        return {r.lineage for r, window in versions if window[0] <= when <= window[1]}

    def wanted(self, question: Question) -> set[str]:
        """The lineages answering a question: the union over its cited rules."""
        out: set[str] = set()
        for cited in question.cited:
            out |= self.lineages(cited, question.day)
        return out

    def keys(self, record: Record) -> frozenset[str]:
        """The rule lineages a record answers for."""
        if record.id in self._keys:
            return self._keys[record.id]
        keys: set[str] = set()
        if record.kind in _THROUGH_PARENT and record.parent:
            parent = self.store.get(record.parent)
            if parent is not None:
                keys |= self.keys(parent)
        elif record.kind == "glossary":
            targets = [ref.target for ref in record.refs if ref.target and ref.kind in _RULE_REFS]
            keys |= {r.lineage for r in self.store.get_many(list(dict.fromkeys(targets))) if r.lineage}
        elif record.lineage:
            keys.add(record.lineage)
        self._keys[record.id] = frozenset(keys)
        return self._keys[record.id]

    def answers(self, record: Record, wanted: set[str]) -> bool:
        return not self.keys(record).isdisjoint(wanted)

    def rank(self, hits: list[Record], wanted: set[str]) -> int | None:
        """The 1-based place of the first hit that answers, or None."""
        return next((n + 1 for n, r in enumerate(hits) if self.answers(r, wanted)), None)


def asked(q: Question, mode: str) -> tuple[str, int | None]:
    """What a mode searches for a question: its words or its keywords, and the day (as-of modes)."""
    return (q.keywords if mode.startswith("keywords") else q.question), (q.day if mode.endswith("-as-of") else None)


class Evaluation:
    """The three systems over one index, and the answer matching: built once, used per mode."""

    def __init__(self, library: Library):
        self.library = library
        self.answers = Answers(library.store)
        self.records = library.store.all(without=("card",))  # the rules documents: what a search ranks
        self.filters = check_filters(library, {"edition": [], "kind": [], "lang": [], "source": []})
        self.first_release = min((rows[0]["first_day"] for rows in library.store.releases().values() if rows),
                                 default=OPEN_END)
        self._windows: dict[str, tuple[int, int]] | None = None
        self._baselines: dict[int | None, tuple[Fts5Baseline, GrepBaseline]] = {}
        self._grep: GrepBaseline | None = None
        self._ranked: dict[tuple, list[Record]] = {}  # each system's ranking of a query on a day, made once

    def windows(self) -> dict[str, tuple[int, int]]:
        if self._windows is None:
            ids = [r.id for r in self.records]
            self._windows = {}
            for n in range(0, len(ids), 900):  # SQLite's limit on bound parameters
                self._windows.update(self.library.store.windows(ids[n:n + 900]))
        return self._windows

    def baselines(self, day: int | None) -> tuple[Fts5Baseline, GrepBaseline]:
        """FTS5 and grep over every record, or over the records in force on `day`."""
        if day not in self._baselines:
            if self._grep is None:  # (every day's grep reads the words folded once, for all records)
                self._grep = GrepBaseline(self.records)
            records, grep = self.records, self._grep
            if day is not None:
                spans = self.windows()

                def alive(record: Record) -> bool:
                    return spans[record.id][0] <= day <= spans[record.id][1]

                records, grep = [r for r in records if alive(r)], grep.among(alive)
            self._baselines[day] = (Fts5Baseline(records), grep)
        return self._baselines[day]

    def ranked(self, system: str, query: str, day: int | None) -> list[Record]:
        """A system's top DEPTH for `query` (on `day`): searched once per evaluation context, so
        a mode evaluated again (the script's table, then a test's floor) reads the same list."""
        key = (system, query, day, READ_CARDS)
        if key not in self._ranked:
            self._ranked[key] = self._search(system, query, day)
        return list(self._ranked[key])

    def _search(self, system: str, query: str, day: int | None) -> list[Record]:
        if system == "rulebase":
            hits = run_search(self.library, query, self.filters, DEPTH, day, read_cards_named=READ_CARDS).hits
            return self.library.store.get_many([h.id for h in hits])
        fts5, grep = self.baselines(day)
        return (fts5 if system == "fts5" else grep).search(query, None, DEPTH)

    def applies(self, question: Question, mode: str) -> bool:
        """The as-of modes take the rows dated on or after the archive's first release."""
        return not mode.endswith("-as-of") or (question.day is not None and question.day >= self.first_release)


def _metrics(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks)
    if not n:
        return {"hit@1": 0.0, "hit@3": 0.0, "hit@5": 0.0, "mrr@10": 0.0}
    return {**{f"hit@{k}": sum(1 for r in ranks if r is not None and r <= k) / n for k in (1, 3, 5)},
            "mrr@10": sum(1 / r for r in ranks if r is not None and r <= DEPTH) / n}


_CONTEXTS: dict[str, Evaluation] = {}


def context(library: Library) -> Evaluation:
    """One Evaluation per index generation (the baselines index every record: build them once,
    for every Library that reads the same generation)."""
    where = str(library.ensure().path)
    if where not in _CONTEXTS:
        _CONTEXTS[where] = Evaluation(library)
    return _CONTEXTS[where]


def evaluate(library: Library, mode: str, questions: list[Question] | None = None,
             report=None) -> dict[str, dict[str, float]]:
    """Per system: n (questions scored), hit@1, hit@3, hit@5, MRR@10, left_out (rows whose cited
    rules the archive never held) and skipped (rows the mode does not apply to: undated or before
    the archive, in the as-of modes). `report(line)` is told each question's ranks and top 3."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: choose from {', '.join(MODES)}")
    ev = context(library)
    questions = read_questions() if questions is None else questions
    ranks: dict[str, list[int | None]] = {s: [] for s in SYSTEMS}
    left_out = skipped = 0
    for q in questions:
        if not ev.applies(q, mode):
            skipped += 1
            continue
        wanted = ev.answers.wanted(q)
        if not wanted:
            left_out += 1
            if report:
                report(f"{q.qid} {mode}: left out (the archive never held {', '.join(q.cited)})")
            continue
        query, day = asked(q, mode)
        parts = []
        for system in SYSTEMS:
            hits = ev.ranked(system, query, day)
            rank = ev.answers.rank(hits, wanted)
            ranks[system].append(rank)
            top = " ".join(r.id for r in hits[:3]) if system == "rulebase" else ""
            parts.append(f"{system} {rank or '-'}" + (f" [{top}]" if top else ""))
        if report:
            report(f"{q.qid} {mode}: " + "  ".join(parts))
    return {s: {"n": len(ranks[s]), **_metrics(ranks[s]), "left_out": left_out, "skipped": skipped}
            for s in SYSTEMS}


def deep_ranks(library: Library, mode: str, depth: int = 100,
               questions: list[Question] | None = None) -> tuple[list[int | None], int]:
    """rulebase only, deeper than the metrics look: each scored question's rank of its first
    answering hit in the top `depth` (None beyond), and how many questions have a text no longer
    in force as their first hit (of interest in the modes with no date: today's rules first)."""
    ev = context(library)
    ranks, older_first = [], 0
    for q in read_questions() if questions is None else questions:
        wanted = ev.answers.wanted(q) if ev.applies(q, mode) else set()
        if not wanted:
            continue
        query, day = asked(q, mode)
        results = run_search(library, query, ev.filters, depth, day)
        ranks.append(ev.answers.rank(library.store.get_many([h.id for h in results.hits]), wanted))
        older_first += bool(results.hits) and results.hits[0].id not in results.now
    return ranks, older_first


def rank_lines(mode: str, ranks: list[int | None], older_first: int, depth: int = 100) -> list[str]:
    """'question: 12 at 1, 3 at 2, ..., 6 beyond 100; older text first 3 of 33'."""
    found = Counter(r for r in ranks if r is not None)
    parts = [f"{n} at {rank}" for rank, n in sorted(found.items())]
    parts.append(f"{sum(r is None for r in ranks)} beyond {depth}")
    older = f"; older text first {older_first} of {len(ranks)}" if not mode.endswith("-as-of") else ""
    return [f"{mode}: " + ", ".join(parts) + older]


def table(results: dict[str, dict[str, dict[str, float]]]) -> list[str]:
    """The mode x system table docs/evaluation.md shows."""
    lines = [f"{'mode':<16} {'system':<9} {'n':>3} {'hit@1':>6} {'hit@3':>6} {'hit@5':>6} {'MRR@10':>7} "
             f"{'left out':>8}"]
    for mode, per_system in results.items():
        for system, m in per_system.items():
            lines.append(f"{mode:<16} {system:<9} {m['n']:>3} {m['hit@1']:>6.3f} {m['hit@3']:>6.3f} "
                         f"{m['hit@5']:>6.3f} {m['mrr@10']:>7.3f} {m['left_out']:>8}")
    skipped = {mode: next(iter(per.values()))["skipped"] for mode, per in results.items()}
    if any(skipped.values()):
        lines.append("not in the as-of modes (undated, or before the archive): "
                     + ", ".join(f"{mode} {n}" for mode, n in skipped.items() if n))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path)
    parser.add_argument("--verbose", action="store_true", help="per question: rank of the first answer, top 3")
    parser.add_argument("--mode", choices=MODES, action="append", help="only this mode; repeatable")
    parser.add_argument("--ranks", action="store_true",
                        help="also where rulebase's first answer ranks in its top 100, and how often an older text is first")
    parser.add_argument("--no-cards", action="store_true", help="search without reading the cards a question names")
    parser.add_argument("--half", choices=("odd", "even"), help="only the odd (1st, 3rd...) or even rows: one half "
                        "chooses, the other checks")
    args = parser.parse_args(argv)
    global READ_CARDS
    READ_CARDS = not args.no_cards
    questions = read_questions()
    if args.half:
        questions = questions[0::2] if args.half == "odd" else questions[1::2]
    library = Library(args.index)
    library.ensure()
    started = time.perf_counter()
    report = print if args.verbose else None
    results = {mode: evaluate(library, mode, questions, report=report) for mode in args.mode or MODES}
    print("\n".join(table(results)))
    if args.ranks:
        for mode in args.mode or MODES:
            print("\n".join(rank_lines(mode, *deep_ranks(library, mode))))
    print(f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
