"""Errors with --json (cli/common.py's funnel): every command that takes --json writes its error as
JSON on stdout, `{error, hint, suggestions, exit_code}`, exits with the documented code, and keeps
the one-line message on stderr. Both entry paths: the typer app and the fast path."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.cli.common import json_asked

runner = CliRunner()
SHAPE = {"error", "hint", "suggestions", "exit_code"}


def run(index_dir, *args: str):
    return runner.invoke(app, ["--index", str(index_dir), *args])


def _check(result, code: int, says: str) -> dict:
    assert result.exit_code == code, (result.stdout, result.stderr)
    data = json.loads(result.stdout)
    assert set(data) == SHAPE and data["exit_code"] == code, data
    assert says in data["error"], data
    assert result.stderr.startswith("error: " + data["error"]), result.stderr  # the same message, on stderr
    return data


@pytest.mark.parametrize("args, code, says", [
    (["lookup", "999.9z"], 1, "no rule, record or page matches '999.9z'"),
    (["search", "trample", "--edition", "7e"], 2, "unknown edition '7e'"),
    (["define", "zzqxflurb"], 1, "zzqxflurb"),
    (["show", "cr2008:nope"], 1, "cr2008:nope"),
    (["card", "Lightening", "Bolt"], 1, "Lightening Bolt"),
    (["compare", "mana burn", "--editions", "7e"], 2, "unknown edition '7e'"),
    (["diff", "ck2008:306.5", "cr2008:nope"], 1, "cr2008:nope"),
    (["changes", "--from", "notadate"], 2, "not a date"),
    (["history", "999.9z"], 1, "999.9z"),
    (["remove", "cr"], 2, "'cr' is part of the bundled corpus"),
    (["add", "/nonexistent-file.txt"], 2, "/nonexistent-file.txt"),
    (["glossary", "build", "out", "--format", "pdf"], 2, "pdf"),
])
def test_a_command_error_with_json_is_json(index_dir, args, code, says):
    _check(run(index_dir, *args, "--json"), code, says)


def test_a_not_found_lists_its_suggestions(index_dir):
    data = _check(run(index_dir, "lookup", "520.83a", "--json"), 1, "520.83a")
    assert "502.83a" in data["suggestions"] and data["hint"]


@pytest.mark.parametrize("args, says", [
    (["sources", "--json", "--bogus"], "no option '--bogus'"),
    (["index", "status", "--json", "--bogus"], "no option '--bogus'"),
    (["index", "build", "--json", "--bogus"], "no option '--bogus'"),
    (["ingest", "--json", "--bogus"], "no option '--bogus'"),
    (["search", "trample", "-n", "0", "--json"], "0"),
])
def test_a_usage_error_with_json_is_json(index_dir, args, says):
    data = _check(run(index_dir, *args), 2, says)
    assert data["hint"].startswith("usage: ")


def test_without_json_an_error_writes_nothing_to_stdout(index_dir):
    result = run(index_dir, "lookup", "999.9z")
    assert result.exit_code == 1 and result.stdout == ""


def test_a_query_after_double_dash_is_not_the_json_option():
    assert json_asked(["search", "--json", "x"]) and not json_asked(["search", "--", "--json"])


@pytest.mark.parametrize("args, code", [(["lookup", "999.9z"], 1), (["card", "Lightening Bolt"], 1),
                                        (["search", "trample", "-s", "nope"], 2)])
def test_the_fast_path_writes_json_errors_too(index_dir, args, code):
    done = subprocess.run([sys.executable, "-m", "rulebase", "--index", str(index_dir), *args, "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == code, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == SHAPE and data["exit_code"] == code
    assert done.stderr.startswith("error: ")


def test_a_search_that_finds_nothing_is_an_answer_not_an_error(index_dir):
    result = run(index_dir, "search", "zzzqqq", "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["hits"] == []
