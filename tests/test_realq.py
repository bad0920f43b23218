"""scripts/realq.py: which hits answer a real question (lineage, siblings, examples, glossary
entries), on the real corpus, and the floor the ranking must keep on the 33 real questions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulebase.core.eras import OPEN_END

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import realq  # noqa: E402

SHARED = Path("/work/shared/eval/real-questions-dev.tsv")


def ask(cited: str, date: str, qid: str = "t") -> realq.Question:
    return realq.Question(qid, date, tuple(cited.split(";")), "question", "keywords", "https://example.org")


def version(library, number: str, day: int = OPEN_END, kind: str = "rule"):
    """The archive version numbered `number` in force on `day` (today by default)."""
    found = [r for r in library.store.by_number(number) if r.span and r.kind == kind]
    spans = library.store.windows([r.id for r in found])
    (record,) = [r for r in found if spans[r.id][0] <= day <= spans[r.id][1]]
    return record


@pytest.fixture(scope="module")
def answers(library):
    return realq.Answers(library.store)


def test_the_bundled_set_is_the_shared_one_and_reads_whole():
    rows = realq.read_questions()
    assert len(rows) == 33 and len({q.qid for q in rows}) == 33
    assert all(q.question and q.keywords and q.cited for q in rows)
    assert sum(q.date == "n.d." for q in rows) == 3
    if SHARED.is_file():
        assert realq.QUESTIONS.read_bytes() == SHARED.read_bytes()


def test_siblings_are_the_subrules_of_one_rule_and_a_chapter_is_everything_in_it():
    prefix, exact = realq.siblings("702.19c")
    assert prefix == "702.19"
    assert all(exact.match(n) for n in ("702.19", "702.19a", "702.19c", "702.19z"))
    assert not any(exact.match(n) for n in ("702.1", "702.190", "702.190a", "702.2"))
    prefix, exact = realq.siblings("613")
    assert prefix == "613" and exact.match("613") and exact.match("613.6") and exact.match("613.1f")
    assert not exact.match("6130") and not exact.match("614.1")


def test_a_sibling_answers_and_a_neighbour_does_not(library, answers):
    wanted = answers.wanted(ask("702.19c", "2015-01-01"))
    assert answers.answers(version(library, "702.19"), wanted)  # trample, today
    assert answers.answers(version(library, "702.19a"), wanted)
    assert not answers.answers(version(library, "702.20"), wanted)
    assert not answers.answers(version(library, "702.1"), wanted)


def test_a_renumbered_rule_answers_through_its_lineage(library, answers):
    """702.17 was trample from July 2009 to June 2011; today's 702.17 is Reach."""
    wanted = answers.wanted(ask("702.17", "2010-03-01"))
    trample = version(library, "702.19")
    assert "Trample" in trample.text
    assert answers.answers(trample, wanted)
    reach = version(library, "702.17")
    assert "Reach" in reach.text and not answers.answers(reach, wanted)


def test_an_example_answers_through_its_rule(library, answers):
    """702.19b's examples answer 702.17b cited in 2010 (the same rule); 702.19c's (trample over
    planeswalkers, 2021) does not: its rule had no number in 702.17 then."""
    examples = {r.id: r for r in library.store.of_kind("example", when=20260201)
                if (r.parent or "").startswith("cr:702.19")}
    wanted = answers.wanted(ask("702.17b", "2010-03-01"))
    assert answers.answers(examples["cr:702.19b.example2@2019-05-03"], wanted)
    assert answers.answers(examples["cr:702.19b.example1@2013-07-13"], wanted)
    assert not answers.answers(examples["cr:702.19c.example1@2021-06-18"], wanted)
    assert answers.answers(examples["cr:702.19c.example1@2021-06-18"], answers.wanted(ask("702.19", "2022-01-01")))
    assert not any(answers.answers(r, answers.wanted(ask("613.6", "2023-11-12"))) for r in examples.values())


def test_a_glossary_entry_answers_through_the_rules_it_cites(library, answers):
    wanted = answers.wanted(ask("702.17", "2010-03-01"))
    today = library.store.get("cr:glossary.trample@2019-05-03")
    assert [ref.key for ref in today.refs] == ["702.19"]
    assert answers.answers(today, wanted)
    assert answers.answers(library.store.get("cr2008:glossary.trample"), wanted)  # cites cr2008's 502.9
    reach = [r for r in library.store.of_kind("glossary") if r.id.startswith("cr:glossary.reach@")]
    assert reach and not answers.answers(reach[0], wanted)


def test_a_ruling_answers_through_its_rule(library, answers):
    ruling = library.store.get("ck2008:502.83.Ruling.1")
    assert answers.answers(ruling, answers.wanted(ask("502.83a", "2008-11-01")))
    assert not answers.answers(ruling, answers.wanted(ask("502.82a", "2008-11-01")))


def test_a_chapter_cited_covers_every_rule_in_it(library, answers):
    wanted = answers.wanted(ask("613", "2023-11-12"))
    assert answers.answers(version(library, "613.6"), wanted)
    assert answers.answers(version(library, "613.1f"), wanted)
    assert not answers.answers(version(library, "614.1"), wanted)


def test_undated_early_and_just_released_numbers(library, answers):
    # n.d.: every era the number was in (702.17 was trample in 2009-2011; it is Reach now)
    undated = answers.wanted(ask("702.17", "n.d."))
    assert answers.answers(version(library, "702.19"), undated)
    assert answers.answers(version(library, "702.17"), undated)
    # 2002, before the archive: the oldest release holding 409.1f (2003-03-15)
    early = answers.wanted(ask("409.1f", "2002-10-21"))
    assert answers.answers(version(library, "409.1f", 20030315), early)
    # a release dated the day after the answer: Adventure's 715.3 (2019-10-04) counts
    adventure = version(library, "715.3", 20191004)
    assert "adventurer card" in adventure.text
    assert answers.answers(adventure, answers.wanted(ask("715.3", "2019-10-03")))
    assert not answers.answers(adventure, answers.wanted(ask("715.3", "2019-09-01")))


def test_a_rule_the_archive_never_held_is_left_out_and_counted(library):
    rows = [ask("999.99z", "2015-01-01", "never"), ask("702.17", "2010-03-01", "trample")]
    for mode in realq.MODES:
        scores = realq.evaluate(library, mode, rows)
        assert {s: (m["n"], m["left_out"], m["skipped"]) for s, m in scores.items()} == {
            s: (1, 1, 0) for s in realq.SYSTEMS}


def test_the_as_of_modes_skip_undated_and_pre_archive_rows(library):
    rows = [ask("702.17", "n.d.", "a"), ask("409.1f", "2002-10-21", "b"), ask("702.17", "2010-03-01", "c")]
    assert realq.evaluate(library, "keywords", rows)["rulebase"]["n"] == 3
    as_of = realq.evaluate(library, "keywords-as-of", rows)["rulebase"]
    assert (as_of["n"], as_of["skipped"]) == (2, 1)  # the 2002 row is in the archive since its 1999-2002 releases


def test_rulebase_is_asked_as_the_cli_asks(library, index_dir):
    """r22's keywords with --as-of its date: the ids the evaluation ranks are the CLI's own hits."""
    q = next(q for q in realq.read_questions() if q.qid == "r22")
    ranked = [r.id for r in realq.context(library).ranked("rulebase", q.keywords, q.day)]
    out = subprocess.run([sys.executable, "-m", "rulebase", "search", q.keywords, "--as-of", q.date, "-n", "10",
                          "--json", "--index", str(index_dir)], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert ranked == [h["id"] for h in json.loads(out.stdout)["hits"]]


def test_deep_ranks_look_past_the_top_ten(library):
    """r22's keywords answer first; a question whose rule the words never name is beyond 100."""
    rows = [q for q in realq.read_questions() if q.qid == "r22"]
    rows.append(realq.Question("x", "n.d.", ("702.17",), "zzzz", "qqqq zzzz", "https://example.org"))
    ranks, older_first = realq.deep_ranks(library, "keywords", questions=rows)
    assert ranks == [1, None] and older_first == 0
    assert realq.rank_lines("keywords", ranks, older_first) == [
        "keywords: 1 at 1, 1 beyond 100; older text first 0 of 2"]
    assert realq.rank_lines("keywords-as-of", [3, 3], 0) == ["keywords-as-of: 2 at 3, 0 beyond 100"]


def test_script_prints_the_table_and_refuses_an_unknown_mode(index_dir, library, capsys):
    """The script's own entry point, in this process: its baselines are the ones the floor tests
    below build for the same index (realq.context), not built again."""
    assert realq.main(["--index", str(index_dir), "--mode", "keywords-as-of"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["mode", "system", "n", "hit@1", "hit@3", "hit@5", "MRR@10", "left", "out"]
    assert [line.split()[:3] for line in lines[1:4]] == [["keywords-as-of", s, "30"] for s in realq.SYSTEMS]
    assert lines[4] == "not in the as-of modes (undated, or before the archive): keywords-as-of 3"
    bad = subprocess.run([sys.executable, "scripts/realq.py", "--mode", "nonsense"], capture_output=True, text=True,
                         cwd=ROOT)
    assert bad.returncode == 2 and "invalid choice: 'nonsense'" in bad.stderr


# Measured on the whole corpus (scripts/realq.py), rulebase / fts5 / grep:
#   mode            hit@3                  MRR@10
#   question        0.576 / 0.364 / 0.030  0.465 / 0.315 / 0.010
#   question-as-of  0.567 / 0.400 / 0.067  0.456 / 0.329 / 0.067
#   keywords        0.818 / 0.485 / 0.333  0.648 / 0.452 / 0.302
#   keywords-as-of  0.767 / 0.667 / 0.533  0.548 / 0.548 / 0.402
# In keywords-as-of FTS5 is level with rulebase on MRR@10 (rulebase ahead on hit@3): that floor is written
# where rulebase is clearly ahead (above grep). (Keywords: 0.818 -> 0.788 with Snowball's stemmer, q25's third
# hit, the 2008 glossary's Tombstone Icon, fourth; back to 0.818 with the rule where two named terms meet, r46.)
HIT3 = {"question": 0.576, "question-as-of": 0.567, "keywords": 0.818, "keywords-as-of": 0.767}
BEATS = {"question": ("fts5", "grep"), "question-as-of": ("fts5", "grep"), "keywords": ("fts5", "grep"),
         "keywords-as-of": ("grep",)}


@pytest.mark.parametrize("mode", realq.MODES)
def test_real_question_floor(library, mode):
    scores = realq.evaluate(library, mode)
    ours = scores["rulebase"]
    assert ours["n"] == (30 if mode.endswith("-as-of") else 33) and ours["left_out"] == 0
    assert ours["hit@3"] >= HIT3[mode] - 0.03, ours
    for baseline in BEATS[mode]:
        assert ours["mrr@10"] >= scores[baseline]["mrr@10"], (baseline, ours, scores[baseline])
