"""Help a new user can learn from: examples on every help page, every argument and option described,
-h, --version, global options after the command, the curated topics in `compare --help`; and the
fast path accepting what the typer path accepts (--index after the command, lookup --full)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import click
import pytest
import typer
from typer.testing import CliRunner

from rulebase.cli import common
from rulebase.cli import entry as fastpath
from rulebase.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def _command_paths() -> list[tuple[str, ...]]:
    """Every group and command, found from the app itself so a new command is covered too."""
    paths: list[tuple[str, ...]] = []

    def walk(command: click.Command, path: tuple[str, ...]) -> None:
        paths.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return paths


PATHS = _command_paths()
ID = " ".join


def _examples(text: str) -> list[str]:
    """The command lines of a help page's Examples section (comments dropped)."""
    lines = text.split("\nExamples:\n", 1)[1].splitlines()
    found = []
    for line in lines:
        if not line.startswith("  "):
            break
        found.append(line.split("  # ", 1)[0].strip())
    return found


def test_the_walk_finds_every_command():
    assert {ID(p) for p in PATHS} >= {"", "lookup", "search", "define", "show", "sources", "ingest", "export",
                                     "index", "index build", "index status", "add", "remove", "compare", "diff",
                                     "changes", "history", "glossary", "glossary build"}


@pytest.mark.parametrize("path", PATHS, ids=[ID(p) or "rulebase" for p in PATHS])
def test_every_help_page_has_examples_and_h_is_help(path):
    long = runner.invoke(app, [*path, "--help"])
    short = runner.invoke(app, [*path, "-h"])
    assert long.exit_code == 0, long.output
    assert (short.exit_code, short.stdout, short.stderr) == (0, long.stdout, long.stderr)
    assert "  -h, --help  " in long.stdout
    examples = _examples(long.stdout)
    assert 2 <= len(examples) <= 4
    prefix = " ".join(("rulebase", *path))
    if path:  # a command's examples use that command; the top page shows several
        assert all(e.startswith(prefix + " ") or e == prefix for e in examples), examples
    for line in long.stdout.splitlines():
        assert len(line) <= 80, line


def test_examples_print_as_written_not_rewrapped():
    out = runner.invoke(app, ["search", "--help"]).stdout
    assert out.endswith(
        "Examples:\n"
        "  rulebase search damage prevention            # two words, no quotes needed\n"
        "  rulebase search trample -e 4e -n 3           # top 3 hits in the 4e rulebook\n"
        '  rulebase search "mana burn" --as-of 2009-06  # in the rules of June 2009\n'
        "  rulebase search sebzés --lang hu --json      # Hungarian guide, as JSON\n")
    edition = out[out.index("-e, --edition"):out.index("-k, --kind")]  # every edition label a user can give
    assert " ".join(edition.split()).startswith("-e, --edition TEXT Only this edition: alpha, 4e, 5e, 6e, 10e or")


def test_top_level_help_shows_usage_examples():
    out = runner.invoke(app, ["--help"], prog_name="rulebase").stdout
    assert out.startswith("Usage: rulebase [OPTIONS] COMMAND [ARGS]...\n")
    assert "  rulebase lookup 502.83a  " in out and '  rulebase search "damage prevention"  ' in out
    assert "--index and --traceback may also follow the command." in out
    assert "  --version  " in out


# Commands that change the index or write files are tried by hand, not here; so is the MCP
# server (it answers its client until the client closes it: tests/test_mcp.py).
WRITES = {"add", "remove", "ingest", "index build", "glossary build", "mcp"}
READ_ONLY = [p for p in PATHS if ID(p) not in WRITES and ID(p) not in ("index", "glossary")]


@pytest.mark.parametrize("path", READ_ONLY, ids=[ID(p) or "rulebase" for p in READ_ONLY])
def test_every_example_works(index_dir, path):
    """The examples are real: each runs on the bundled corpus and exits 0."""
    help_text = runner.invoke(app, [*path, "--help"]).stdout
    run = set()
    for example in _examples(help_text):
        argv = shlex.split(example)
        for stop in ("|", ">"):  # shell plumbing: `rulebase export | head -3`
            if stop in argv:
                argv = argv[: argv.index(stop)]
        assert argv[0] == "rulebase"
        if tuple(argv) in run:  # (the same command again, piped elsewhere: the whole export, 10 s)
            continue
        run.add(tuple(argv))
        result = runner.invoke(app, ["--index", str(index_dir), *argv[1:]])
        # (`check` exits 1 for a stale citation, and this project's docs cite old rules on purpose)
        assert result.exit_code == 0 or (path == ("check",) and result.exit_code == 1), (example, result.stderr)
        assert result.stdout, example


def test_every_argument_and_option_is_described():
    """Each parameter has help, and the page shows it (arguments lost theirs with click 8.5)."""
    root = typer.main.get_command(app)
    checked = 0

    def visit(command: click.Command, ctx: click.Context) -> None:
        nonlocal checked
        shown = " ".join(command.get_help(ctx).split())
        for param in command.get_params(ctx):
            assert param.help, f"{ctx.command_path}: {param.name} has no help"
            assert " ".join(param.help.split()) in shown, f"{ctx.command_path}: {param.name}"
            checked += 1
        for name, sub in getattr(command, "commands", {}).items():
            visit(sub, click.Context(sub, info_name=name, parent=ctx))

    visit(root, click.Context(root, info_name="rulebase"))
    assert checked > 60


def test_arguments_are_listed_once_with_their_help():
    out = runner.invoke(app, ["lookup", "--help"]).stdout
    arguments = out[out.index("Arguments:\n"):out.index("Options:\n")]  # (wrapped to the terminal's width)
    assert " ".join(arguments.split()) == ("Arguments: REF Rule number (502.83a), record id, or page (4e p17: several "
                                           "words are one reference). [required]")
    assert "Positional arguments" not in out
    assert "  -n, --limit INTEGER RANGE  Show at most this many hits." in runner.invoke(app, ["search", "-h"]).stdout


def test_version_is_the_package_version():
    expected = f"rulebase {metadata.version('rulebase')}\n"
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.stdout, result.stderr) == (0, expected, "")
    # the console script answers without typer, with the same bytes
    fast = subprocess.run([sys.executable, "-m", "rulebase", "--version"], capture_output=True, text=True)
    assert (fast.returncode, fast.stdout, fast.stderr) == (0, expected, "")


def test_version_falls_back_to_pyproject(monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert common.version_line() == f"rulebase {pyproject['project']['version']}"


@pytest.mark.parametrize("args", [["lookup", "502.83a"], ["lookup", "502.83a", "--json"],
                                  ["search", "damage prevention", "-n", "3"], ["index", "status", "--json"],
                                  ["lookup", "502.83z"], ["show", "cr2008:502.83a"]])
def test_global_options_after_the_command(index_dir, args):
    before = runner.invoke(app, ["--index", str(index_dir), *args])
    after = runner.invoke(app, [*args, "--index", str(index_dir)])
    joined = runner.invoke(app, [*args, f"--index={index_dir}"])
    assert before.exit_code in (0, 1)
    assert (after.exit_code, after.stdout, after.stderr) == (before.exit_code, before.stdout, before.stderr)
    assert (joined.exit_code, joined.stdout, joined.stderr) == (before.exit_code, before.stdout, before.stderr)


def test_index_after_the_command_is_the_one_used(index_dir, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv("RULEBASE_INDEX", str(elsewhere))  # the env var must not beat an explicit option
    for argv in (["index", "status", "--json", "--index", str(index_dir)],
                 ["--index", str(elsewhere), "index", "status", "--json", "--index", str(index_dir)]):
        result = runner.invoke(app, argv)
        assert result.exit_code == 0
        assert json.loads(result.stdout)["index"] == str(index_dir)
    assert not elsewhere.exists()


def test_traceback_after_the_command(index_dir):
    quiet = runner.invoke(app, ["--index", str(index_dir), "lookup", "502.83z"])
    assert quiet.exit_code == 1 and quiet.exception.__class__ is SystemExit
    for argv in (["--index", str(index_dir), "--traceback", "lookup", "502.83z"],
                 ["lookup", "502.83z", "--traceback", "--index", str(index_dir)]):
        loud = runner.invoke(app, argv)
        assert type(loud.exception).__name__ == "NotFound", argv


def test_index_after_the_command_needs_a_value(index_dir):
    result = runner.invoke(app, ["lookup", "502.83a", "--index"], prog_name="rulebase")
    assert result.exit_code == 2
    assert result.stderr == ("error: option --index needs a value\nusage: rulebase lookup [OPTIONS] REF "
                             "('rulebase lookup -h' shows its options and examples)\n")


def test_compare_help_lists_every_curated_topic():
    topics = tomllib.loads((ROOT / "corpus" / "topics.toml").read_text(encoding="utf-8"))["topic"]
    out = runner.invoke(app, ["compare", "--help"]).stdout
    listed = out.split("Curated topics", 1)[1].split("\nExamples:\n", 1)[0]
    assert len(topics) >= 10
    for topic in topics:
        assert topic["name"] in listed  # whole: a name is never broken across lines


def test_importing_the_cli_reads_no_topics_and_no_index():
    code = ("import sys, builtins; opened = []; real = builtins.open\n"
            "builtins.open = lambda f, *a, **k: (opened.append(str(f)), real(f, *a, **k))[1]\n"
            "import rulebase.cli.app\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('whoosh', 'rich', 'tomllib')"
            " or m in ('rulebase.rules.compare', 'rulebase.library')))\n"
            "print([f for f in opened if f.endswith('.toml')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out == "[]\n[]\n"


def test_lookup_full_reaches_the_library(index_dir):
    compact = runner.invoke(app, ["--index", str(index_dir), "lookup", "502.83a"])
    full = runner.invoke(app, ["--index", str(index_dir), "lookup", "502.83a", "--full"])
    assert compact.exit_code == full.exit_code == 0
    assert full.stdout.startswith("cr2008 502.83a\n")
    from rulebase.cli.views.plain import lookup_lines
    from rulebase.library import Library
    from rulebase.rules.lookup import lookup

    store = Library(index_dir).store
    expected = "\n".join(lookup_lines(lookup(store, "502.83a", None, full=True))) + "\n"
    assert full.stdout == expected


# --- the fast path -------------------------------------------------------------------------------

def test_fastpath_parse_takes_index_before_or_after_the_command():
    for argv in (["--index", "/x", "lookup", "502.83a"], ["lookup", "502.83a", "--index", "/x"],
                 ["lookup", "--index=/x", "502.83a"], ["--index", "/y", "lookup", "502.83a", "--index", "/x"]):
        opts = fastpath.parse(argv)
        assert opts is not None, argv
        assert (opts["command"], opts["args"], opts["index"]) == ("lookup", ["502.83a"], "/x"), argv
    opts = fastpath.parse(["search", "damage prevention", "-n", "3", "--index", "/x", "--json"])
    assert (opts["index"], opts["limit"], opts["json"], opts["args"]) == ("/x", 3, True, ["damage prevention"])


def test_fastpath_parse_lookup_full():
    assert fastpath.parse(["lookup", "502.83a"])["full"] is False
    assert fastpath.parse(["lookup", "502.83a", "--full"])["full"] is True
    assert fastpath.parse(["lookup", "--full", "502.83a", "--json"])["full"] is True
    assert fastpath.parse(["search", "trample", "--full"]) is None  # typer words the error


@pytest.mark.parametrize("argv", [["lookup", "502.83a", "--index"], ["--index", "lookup", "502.83a"],
                                  ["lookup", "502.83a", "--index", "--json"], ["lookup", "502.83a", "--index="],
                                  ["--indexes", "x", "lookup", "502.83a"], ["lookup", "502.83a", "--traceback"],
                                  ["--traceback", "lookup", "502.83a"], ["lookup", "502.83a", "-h"],
                                  ["--version"], ["lookup", "--", "--index"]])
def test_fastpath_leaves_the_unusual_to_typer(argv):
    opts = fastpath.parse(argv)
    if argv == ["lookup", "--", "--index"]:
        assert opts["args"] == ["--index"] and opts["index"] is None  # after --, a value like any other
    else:
        assert opts is None


@pytest.mark.parametrize("args", [["lookup", "502.83a", "--index", "{index}"],
                                  ["lookup", "502.83a", "--full", "--index={index}"],
                                  ["lookup", "502.83a", "--full", "--json", "--index", "{index}"],
                                  ["search", "trample", "--index", "{index}", "-n", "2"]])
def test_fast_path_with_index_after_the_command_prints_the_same_bytes(index_dir, args):
    args = [a.format(index=index_dir) for a in args]
    env = {k: v for k, v in os.environ.items() if k != "RULEBASE_INDEX"}
    fast = subprocess.run([sys.executable, "-m", "rulebase", *args], capture_output=True, text=True, env=env)
    slow = runner.invoke(app, args)
    assert fastpath.parse(args) is not None  # really the fast path
    assert fast.returncode == 0
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.exit_code, slow.stdout, slow.stderr)
