"""Finding and checking rule citations in files and text (rules/check.py) and `rulebase check`:
the written forms found, what is not a citation left alone, the files read and skipped, and each
stale citation reported with its file and line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from typer.testing import CliRunner

from rulebase.cli.app import app
from rulebase.rules.check import Checker, Report, check_paths, check_text, files_of, find

runner = CliRunner()

TARGET = "Trample is rule 702.17.\nExalted: see CR 502.83a.\nAnd rule 999.9z is made up.\n"


def run(index_dir, *args):
    return runner.invoke(app, ["--index", str(index_dir), *args])


def numbers(text: str) -> list[tuple[int, str, str]]:
    return [(f.line, f.source, f.number) for f in find(text)]


# -- what is a citation ----------------------------------------------------------------------------


def test_the_common_written_forms_are_found_with_their_lines():
    text = ("see rule 702.17 and CR 502.83a\n"
            "[704.3] and §702.19b, ¶ 100.1, Comprehensive Rules 702.2b, C.R. 704.5a\n"
            "rules 510.1c and 510.1d; Rule 702.19; cr 704\n"
            "702.19b. MTR 2.3 and IPG 2.1, DTR section 1.10\n")
    assert numbers(text) == [
        (1, "cr", "702.17"), (1, "cr", "502.83a"),
        (2, "cr", "704.3"), (2, "cr", "702.19b"), (2, "cr", "100.1"), (2, "cr", "702.2b"), (2, "cr", "704.5a"),
        (3, "cr", "510.1c"), (3, "cr", "510.1d"), (3, "cr", "702.19"), (3, "cr", "704"),
        (4, "cr", "702.19b"), (4, "mtr", "2.3"), (4, "ipg", "2.1"), (4, "dmtr", "1.10")]


@pytest.mark.parametrize("text", [
    "version 1.2.3", "listening on 192.168.1.1", "released 2010.06.01", "pi is 3.14", "v702.19b",
    "costs 123.45 dollars", "x = data[100.5]", "jar 1.5 and mtr 2.3", "702.19.1", "702.19bx", "rule 1.2",
    "rule 99.1", "rule 1000.1", "page 702.19 of the book", "the 4.2 release"])
def test_numbers_that_are_not_rule_citations_are_left_alone(text):
    assert numbers(text) == []


def test_a_column_is_where_the_number_starts():
    found = list(find("x\n  see rule 702.17"))
    assert (found[0].line, found[0].column, found[0].written) == (2, 12, "702.17")


# -- which files ---------------------------------------------------------------------------------


def test_a_folder_skips_binaries_links_and_what_git_ignores(tmp_path):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "a.md").write_text("rule 702.17\n")
    (root / "build.log").write_text("rule 999.9z\n")
    (root / ".gitignore").write_text("*.log\n")
    (root / "image.bin").write_bytes(b"\x89PNG\0\0 rule 999.9z")
    outside = tmp_path / "outside.txt"
    outside.write_text("rule 999.9z\n")
    os.symlink(outside, root / "link.txt")
    plain = sorted(os.path.relpath(p, root) for p in files_of([str(root)]))
    assert plain == [".gitignore", "build.log", os.path.join("docs", "a.md"), "image.bin"]  # no git: all but links
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    listed = sorted(os.path.relpath(p, root) for p in files_of([str(root)]))
    assert listed == [".gitignore", os.path.join("docs", "a.md"), "image.bin"]  # ignored and linked left out
    assert [str(outside)] == list(files_of([str(outside)]))  # a file named is read, wherever it is


def test_a_missing_path_is_a_usage_error(index_dir, tmp_path):
    result = run(index_dir, "check", str(tmp_path / "nope.txt"))
    assert result.exit_code == 2
    assert result.stderr == f"error: no such file or folder: {tmp_path / 'nope.txt'} - give files or folders to check\n"


# -- checking --------------------------------------------------------------------------------------


def test_text_written_in_2010_reports_each_stale_citation(library):
    checker = Checker(library.store, 20101231)
    report = Report(checker.day)
    check_text(checker, TARGET + "rule 704.5a holds\n", "notes.txt", report)
    checker.settle(report.problems)
    assert report.citations == 4 and report.holding == 1
    assert [(p.found.line, p.status.state) for p in report.problems] == [
        (1, "renumbered"), (2, "unknown"), (3, "unknown")]
    assert report.problems[0].status.now.number == "702.19"
    assert report.problems[1].status.now.number == "702.83a"  # exalted: not a rule in 2010, now 702.83a
    assert report.problems[2].status.then is None


def test_binaries_are_skipped_and_counted(library, tmp_path):
    (tmp_path / "a.txt").write_text("rule 702.19b\n")
    (tmp_path / "b.dat").write_bytes(b"\0\0rule 999.9z")
    report = check_paths(library.store, [str(tmp_path)])
    assert (report.files, report.citations, report.problems) == (1, 1, [])
    assert report.skipped == {"binary": [str(tmp_path / "b.dat")]}


def test_a_device_named_is_skipped_not_read_forever(library, tmp_path):
    (tmp_path / "a.txt").write_text("rule 702.19b\n")
    report = check_paths(library.store, [str(tmp_path / "a.txt"), "/dev/zero"])
    assert (report.files, report.citations) == (1, 1)
    assert report.skipped == {"not a regular file": ["/dev/zero"]}


def test_check_names_each_stale_citation_with_file_and_line(index_dir, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text(TARGET)
    result = run(index_dir, "check", str(notes), "--as-of", "2010")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"{notes}:1: 702.17 -> now 702.19 (renumbered 2011-06-17 and 2013-07-13; same text)",
        f"{notes}:2: 502.83a -> not a rule on 2010-12-31 (was 2008-10-01 to 2009-07-10; now 702.83a)",
        f"{notes}:3: 999.9z -> never a rule",
        "3 citations in 1 file as of 2010-12-31: 0 hold, 1 renumbered, 0 removed, 2 unknown"]


def test_check_exits_0_when_every_citation_holds(index_dir, tmp_path):
    (tmp_path / "ok.md").write_text("Trample is 702.19; see rule 702.19b and MTR 2.3.\nVersion 1.2.3.\n")
    result = run(index_dir, "check", str(tmp_path))
    assert result.exit_code == 0
    assert result.stdout.endswith(" 2 hold, 0 renumbered, 0 removed, 0 unknown\n")  # (702.19 alone: no citation)
    assert result.stdout.startswith("2 citations in 1 file as of ")


def test_check_json_has_the_documented_shape(index_dir, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text(TARGET)
    result = run(index_dir, "check", str(notes), "--as-of", "2010", "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert list(data) == ["as_of", "files", "citations", "holding", "counts", "problems", "skipped"]
    assert data["counts"] == {"renumbered": 1, "removed": 0, "unknown": 2}
    first = data["problems"][0]
    assert list(first) == ["path", "line", "column", "written", "source", "number", "state", "then", "now",
                           "now_number", "renumbered", "text_changed", "change", "removed", "message"]
    assert (first["path"], first["line"], first["column"], first["then"], first["now_number"]) == (
        str(notes), 1, 17, "cr:702.17@2009-07-11", "702.19")
    assert first["message"] == "702.17 -> now 702.19 (renumbered 2011-06-17 and 2013-07-13; same text)"
