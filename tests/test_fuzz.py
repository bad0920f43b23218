"""Hostile input never produces a traceback: parsers return records or raise SourceError; the
query path returns results or a typed error (one line, non-zero exit on the command line)."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.core.errors import RulebaseError, SourceError
from rulebase.core.sources import Source
from rulebase.ingest import PARSERS, parser_for
from rulebase.ingest.text import decode

FIXTURES = Path(__file__).parent / "fixtures"
SEEDS = [FIXTURES / n for n in ("ck-2008-mini.txt", "ck-1999-mini.txt", "forum-thread.txt", "hu-structure.txt",
                                "cr-letters.txt")]
MARKERS = ["--1\n", "502.83a - ", "+ 502.83.Ruling.1 - ", "A.1.1 - ", "Note - ", "Example: ", "100.1. ",
           "4th Edition Part 1\n", "=" * 20, "Table of Contents:\n", "[Fifth Edition, Page 47]", "Glossary\n",
           "1. The Game\n", "<html><body>", "Credits\n", "- ", ":", "\u00a0", "\ufffd"]
HOSTILE = st.one_of(
    st.text(max_size=3000),
    st.binary(max_size=3000).map(lambda b: b.decode("latin-1")),
    st.lists(st.sampled_from(MARKERS), max_size=400).map("".join),
    st.tuples(st.sampled_from(SEEDS), st.floats(0, 1)).map(
        lambda t: t[0].read_text(encoding="utf-8")[: int(len(t[0].read_text(encoding="utf-8")) * t[1])]),
)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _source(fmt: str) -> Source:
    part = "4e" if fmt == "forum-rulebook" else None
    return Source(id="fz", title="fuzz", edition="10e", date="2008", lang="en", file="fz.txt", format=fmt,
                  provenance="fuzz", credit="fuzz", path=Path("fz.txt"), part=part)


def _parse(fmt: str, text: str) -> None:
    try:
        parsed = parser_for(fmt, "fz.txt")(text, _source(fmt))
    except SourceError:
        return
    assert all(r.id.startswith("fz") and r.source == "fz" for r in parsed.records)


@pytest.mark.parametrize("fmt", sorted(PARSERS))
@FAST
@given(text=HOSTILE)
def test_every_parser_survives_hostile_text(fmt, text):
    _parse(fmt, text)


HUGE = {"10 MB line": ("x", 10_000_000), "CK 2008 numbers": ("502.83a - ", 200_000),
        "page markers": ("--1\n", 50_000), "CK 1999 numbers": ("A.1.1 - x\n", 50_000)}


@pytest.mark.parametrize(("fmt", "case"), [(f, c) for f in sorted(PARSERS) for c in HUGE])
def test_every_parser_survives_huge_inputs(fmt, case):
    unit, times = HUGE[case]
    _parse(fmt, unit * times)


@FAST
@given(data=st.binary(max_size=4000))
def test_decode_returns_text_or_a_source_error(data):
    try:
        decoded = decode(data, "f.txt")
    except SourceError:
        return
    assert "\r" not in decoded.text and "\x00" not in decoded.text


QUERIES = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(['"', "(", ")", "edition:", "kind:", "*", "?", "~", "AND", "OR", "NOT", "502.83a",
                              "damage", "\u202e", "\u05e9\u05dc\u05d5\u05dd", "🙂", "\x00", "\x1b[31m", " ", "-",
                              "sebzés", "\\", "'", "{", "}", "^2", "G5.19a", "A.5.2"]),
             max_size=60).map("".join),
)


@settings(max_examples=150, deadline=None)
@given(query=QUERIES)
def test_query_path_returns_results_or_a_typed_error(library, query):  # conftest's real index, built once
    from rulebase.search.request import run_search

    try:
        results = run_search(library, query, {"edition": [], "kind": [], "lang": [], "source": []}, 10)
    except RulebaseError as exc:
        assert exc.exit_code in (1, 2) and "\n" not in exc.message
        return
    assert len(results.hits) <= 10


@pytest.mark.parametrize("query", ['"unbalanced', "((((", "edition:", "*", "x" * 100_000, "\x00\x01\x07",
                                   "\u202e\u05e9\u05dc\u05d5\u05dd 🙂", "   "])
def test_search_command_never_shows_a_traceback(library, query):
    result = CliRunner().invoke(app, ["--index", str(library.index_dir), "search", query])
    assert result.exit_code in (0, 1, 2)
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")


@pytest.mark.parametrize("ref", ["", "../../etc/passwd", "x" * 100_000, "4e p999999", "\x00", "🙂:🙂", "cr2008:"])
def test_lookup_command_never_shows_a_traceback(library, ref):
    result = CliRunner().invoke(app, ["--index", str(library.index_dir), "lookup", "--", ref])
    assert result.exit_code in (1, 2)
    assert "Traceback" not in result.output and result.stderr.startswith("error: ")
