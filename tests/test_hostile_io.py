"""Hostile terminals and output streams (issue 35, items 8-10): a closed or full stdout, absurd
terminal widths and very long terms each give a one-line error or a bounded answer, never a
traceback (exit 3), an empty screen or megabytes of padding.

Runs real processes on a one-document corpus (Crystal Keep 2008); the terminal cases run under
a pseudo-terminal, as a user's shell would run them.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulebase.cli.console import HEIGHTS, WIDTHS

SGR = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture(scope="module")
def mini(tmp_path_factory, ck2008_corpus):
    root = tmp_path_factory.mktemp("hostile-io")
    _, env = ck2008_corpus(root, RULEBASE_USER_CORPUS=str(root / "user"), XDG_STATE_HOME=str(root / "state"))
    index = root / "index"
    built = _run(env, index, "index", "build")
    assert built.returncode == 0, built.stderr
    return env, index


def _cmd(index: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "rulebase", "--index", str(index), *args]


def _run(env: dict, index: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(_cmd(index, *args), env=env, capture_output=True, text=True, timeout=300, **kwargs)


COMMANDS = [("lookup", "502.83a"), ("lookup", "502.83a", "--json"), ("search", "exalted"), ("export",),
            ("define", "exalted"), ("sources",), ("show", "ck2008:502.83a"), ("changes",)]


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_full_stdout_is_a_one_line_error(mini, args):
    """`> /dev/full` (ENOSPC on every write) was an internal error, exit 3."""
    env, index = mini
    with open("/dev/full", "w") as full:
        result = subprocess.run(_cmd(index, *args), env=env, stdout=full, stderr=subprocess.PIPE, text=True,
                                timeout=300)
    assert result.returncode == 2
    assert result.stderr == ("error: cannot write the answer to standard output (No space left on device) - check "
                             "where the output goes (a full disk, a closed or read-only file)\n")


@pytest.mark.parametrize("args", [("--version",), ("-h",), ("--help",), ("lookup", "-h"), ("search", "--help"),
                                  ("index", "-h"), ("lookup", "--bogus")], ids=" ".join)
def test_version_and_help_to_a_full_stdout_are_a_one_line_error(mini, args):
    """`rulebase --version > /dev/full` and any `-h` printed a traceback (exit 1)."""
    env, _ = mini
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "rulebase", *args], env=env, stdout=full,
                                stderr=subprocess.PIPE, text=True, timeout=300)
    if args[-1] == "--bogus":  # a usage error goes to stderr: stdout is never written
        assert result.returncode == 2 and "Traceback" not in result.stderr
        return
    assert (result.returncode, result.stderr) == (2, "error: cannot write the answer to standard output (No space "
                                                     "left on device) - check where the output goes (a full disk, "
                                                     "a closed or read-only file)\n")


@pytest.mark.parametrize("args", COMMANDS[:4], ids=" ".join)
def test_a_closed_stdout_is_a_one_line_error(mini, args):
    """`>&-` left sys.stdout None (AttributeError, exit 3), and the next file opened took its
    descriptor."""
    env, index = mini
    result = subprocess.run(_cmd(index, *args), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, timeout=300, preexec_fn=lambda: os.close(1))
    assert result.returncode == 2
    assert result.stderr == ("error: standard output is closed - give the command somewhere to write its answer "
                             "(a terminal, a pipe or a file; '> /dev/null' to discard it)\n")


def test_closed_stdin_and_stderr_do_not_matter(mini):
    env, index = mini
    expected = _run(env, index, "lookup", "502.83a").stdout

    def close_them():
        os.close(0)
        os.close(2)

    result = subprocess.run(_cmd(index, "lookup", "502.83a"), env=env, stdout=subprocess.PIPE, text=True,
                            timeout=300, preexec_fn=close_them)
    assert (result.returncode, result.stdout) == (0, expected)


def _on_a_terminal(env: dict, args: list[str]) -> tuple[int, str]:
    """Run `args` with stdout on a pseudo-terminal; (exit code, what the terminal received)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, env=env, stdin=slave, stdout=slave, stderr=subprocess.DEVNULL)
    os.close(slave)
    received = b""
    while True:
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        received += chunk
    os.close(master)
    return proc.wait(timeout=300), SGR.sub("", received.decode("utf-8", "replace")).replace("\r\n", "\n")


@pytest.mark.parametrize(("columns", "bound"), [("0", WIDTHS[0]), ("1", WIDTHS[0]), ("100000", WIDTHS[1])])
@pytest.mark.parametrize("args", [("lookup", "502.83a"), ("search", "exalted"), ("define", "exalted"),
                                  ("sources",)], ids=" ".join)
def test_terminal_widths_are_held_within_bounds(mini, args, columns, bound):
    """COLUMNS=0 printed nothing (exit 0); COLUMNS=100000 padded `define trample` to 10 MB. A width
    outside the bounds answers as the nearest bound does."""
    env, index = mini
    env = {k: v for k, v in env.items() if k != "NO_COLOR"}  # panels and tables, drawn to the width
    code, shown = _on_a_terminal({**env, "COLUMNS": columns, "LINES": "0", "PAGER": "cat"}, _cmd(index, *args))
    assert code == 0 and shown.strip()
    assert max(len(line) for line in shown.split("\n")) <= WIDTHS[1]
    assert (code, shown) == _on_a_terminal({**env, "COLUMNS": str(bound), "LINES": str(HEIGHTS[0]),
                                            "PAGER": "cat"}, _cmd(index, *args))


@pytest.mark.parametrize("command", ["define", "diff --term"])
def test_a_very_long_term_is_a_usage_error(mini, command):
    """A 50,000-character term made an SQL LIKE pattern SQLite refuses (exit 3)."""
    env, index = mini
    result = _run(env, index, *command.split(), "x" * 50_000)
    assert result.returncode == 2
    assert result.stderr == ("error: the term is 50000 characters long; a glossary term has at most 200 - give a "
                             "glossary term, e.g. 'rulebase define trample', or use 'rulebase search'\n")


def test_the_store_scans_when_its_prefilter_is_too_long_for_sqlite(mini, monkeypatch):
    from rulebase.index.store import LIKE_LIMIT, RecordStore

    index, key = mini[1], (Path(mini[0]["XDG_STATE_HOME"]) / "rulebase" / "key").read_bytes()  # its rows' key
    store = RecordStore(index / (index / "CURRENT").read_text().strip() / "records.db", key=key)
    everything = store.of_kind("glossary")  # (a kind stored as text: packing.py's kinds are always scanned)
    assert store.of_kind("glossary", None, ("%" + "x" * LIKE_LIMIT + "%",)) == everything
    some = store.of_kind("glossary", None, ("%exalted%",))  # a prefilter of a length SQLite takes still filters
    assert {r.id for r in everything if "exalted" in r.text.lower()} <= {r.id for r in some} < {r.id for r in everything}
    assert store.of_kind("rule", None, ("%exalted%",)) == store.of_kind("rule")  # packed: scanned whole


@pytest.mark.parametrize("command", ["lookup", "history", "show"])
def test_an_input_of_100_kb_is_echoed_cut_to_a_bounded_length(mini, command):
    """Error lines echoed inputs of any length: 100 kB on stderr for lookup, history, show."""
    env, index = mini
    result = _run(env, index, command, "x" * 100_000)
    assert result.returncode == 1
    assert len(result.stderr) < 1_000 and "characters cut] …" in result.stderr
    assert "Traceback" not in result.stderr


def test_compares_heading_echoes_a_topic_cut_to_a_bounded_length():
    """compare printed a 100 kB topic whole on stdout."""
    from rulebase.cli.views.plain_changes import compare_title
    from rulebase.rules.compare import Comparison

    title = compare_title(Comparison("x" * 100_000, False, []))
    assert len(title) < 1_000 and title.endswith("characters cut] …" + "x" * 200 + ": search results per edition "
                                                 "(not a curated topic)")


def test_a_huge_valid_record_is_shown_cut_saying_so():
    """a valid 150 MB row was printed whole; a view prints at most SHOWN_LIMIT characters
    of a text and says how many it left out (`--json` keeps them all)."""
    from rulebase.cli.views.plain import SHOWN_LIMIT, record_lines, show_fields
    from rulebase.core.records import Record, to_dict

    text = "trample " * 40_000
    record = Record(id="d:1.1", source="d", edition="cr2025", lang="en", kind="rule", text=text, raw=text,
                    number="1.1")
    printed = "\n".join(record_lines(record))
    assert len(printed) < SHOWN_LIMIT + 500
    assert printed.endswith(f"… [{len(text) - SHOWN_LIMIT:,} more characters not shown: rulebase show d:1.1 --json "
                            "has them all]")
    fields = dict(show_fields(to_dict(record)))
    assert len(fields["text"]) < SHOWN_LIMIT + 200 and fields["text"].endswith("--json has them all]")
