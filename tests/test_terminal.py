"""What reaches the terminal: no control characters from documents or input, quiet broken
pipes, colour through the pager, and filter values checked against the index.

The hostile document is a user-added Comprehensive Rules text whose rules, titles and glossary
carry a screen-clearing CSI, a window-retitling OSC ended by BEL, a C1 CSI and a bidi override.
Both output paths run as real processes: the fast path (`python -m rulebase`, piped) and the
typer/rich path (`rulebase.cli.app.main`).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
EVIL = "\x1b[2J\x1b]0;pwned\x07"
SHOWN = "\\x1b[2J\\x1b]0;pwned\\x07"  # how EVIL is printed
C1_BIDI = "\x9b31m\u202e"
ECHO, ECHOED = "\x1b\x07\x9b", "\\x1b\\x07\\x9b"  # in input: no word to search for
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
SGR = re.compile("\x1b\\[[0-9;]*m")  # rich's own colour codes, the only escapes allowed on a terminal
FAST = [sys.executable, "-m", "rulebase"]
TYPER = [sys.executable, "-c", "from rulebase.cli.app import main; main()"]

MANIFEST = """[[source]]
id = "mini"
title = "Mini rules"
edition = "10e"
date = "2008-10-01"
lang = "en"
file = "mini.txt"
format = "comprules"
provenance = "test fixture"
credit = "test fixture"
"""


def _hostile_text() -> str:
    filler = "\n\n".join(f"100.2{c} Filler subrule {c}." for c in "abcdefghijkmnpqrstuvwxyz")
    return (f"Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of November 14, 2025.\n\n"
            f"Contents\n\n1. Game Concepts\n100. General\n\nGlossary\n\nCredits\n\n1. Game Concepts\n\n"
            f"100. General\n\n100.1. Zorblax Rules{EVIL}\n\n100.1a Zorblax {EVIL}wipes the screen.\n\n"
            f"100.1b Zorblax {C1_BIDI}reverses the line.\n\n100.2. Filler\n\n{filler}\n\n"
            f"Glossary\n\nZorblax\nA zorblax {EVIL}definition. See rule 100.1a.\n\nCredits\n\nNobody.\n")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> dict:
    """Environment of a small index: a one-document bundled corpus plus the hostile user document."""
    root = tmp_path_factory.mktemp("terminal")
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "mini.txt").write_bytes((FIXTURES / "cr-letters.txt").read_bytes())
    (corpus / "sources.toml").write_text(MANIFEST)
    (corpus / "topics.toml").write_text("")  # no curated topics: compare searches
    doc = root / "hostile.txt"
    doc.write_text(_hostile_text(), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "LESS", "PAGER")}
    env.update(RULEBASE_CORPUS=str(corpus), RULEBASE_USER_CORPUS=str(root / "user"),
               RULEBASE_INDEX=str(root / "index"), PYTHONDONTWRITEBYTECODE="1")
    added = subprocess.run([*TYPER, "add", str(doc)], env=env, capture_output=True, timeout=120)
    assert added.returncode == 0, added.stderr
    return env


def _run(env: dict, path: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*path, *args], env=env, capture_output=True, timeout=60)


def _text(raw: bytes) -> str:
    return raw.decode("utf-8")  # strict: a stray C1 byte would fail here too


# -- control characters ------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["lookup", "100.1a"], ["lookup", "100.1b"], ["lookup", "cr2025:100.1"],
                                  ["search", "zorblax"], ["define", "zorblax"], ["show", "cr2025:100.1a"],
                                  ["show", "cr2025:100.1b"]])
@pytest.mark.parametrize("path", [FAST, TYPER], ids=["fast", "typer"])
def test_document_text_reaches_the_terminal_escaped(hostile, path, args):
    done = _run(hostile, path, *args)
    out, err = _text(done.stdout), _text(done.stderr)
    assert done.returncode == 0, err
    assert not CONTROL.search(out) and not CONTROL.search(err)
    assert SHOWN in out or "\\x9b31m\\u202e" in out


@pytest.mark.parametrize("args", [["lookup", "100.1a"], ["lookup", "100.1b"], ["search", "zorblax"],
                                  ["search", "zorblax", "--json"], ["lookup", "100.1b", "--json"]])
def test_both_paths_print_the_same_bytes(hostile, args):
    fast, slow = _run(hostile, FAST, *args), _run(hostile, TYPER, *args)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)


@pytest.mark.parametrize(("words", "quoted"), [
    (["search", "zorblax", "screen"], ["search", "zorblax screen"]),
    (["search", "-n", "1", "zorblax", "screen", "--json"], ["search", "zorblax screen", "-n", "1", "--json"]),
    (["lookup", "rule", "100.1a"], ["lookup", "rule 100.1a"]),
    (["lookup", "--full", "CR", "100.1a"], ["lookup", "CR 100.1a", "--full"]),
])
def test_several_words_are_one_query_on_both_paths(hostile, words, quoted):
    """The fast path (no typer) reads several words as one query, as the typer path does: the same
    bytes as the words given in quotes."""
    expected = _run(hostile, FAST, *quoted)
    assert expected.returncode == 0 and expected.stdout
    for path in (FAST, TYPER):
        done = _run(hostile, path, *words)
        assert (done.returncode, done.stdout, done.stderr) == (0, expected.stdout, expected.stderr)


@pytest.mark.parametrize("path", [FAST, TYPER], ids=["fast", "typer"])
def test_plain_lookup_line_shows_the_escape_visibly(hostile, path):
    out = _text(_run(hostile, path, "lookup", "100.1a").stdout)
    assert f"  Zorblax {SHOWN}wipes the screen." in out.splitlines()
    out = _text(_run(hostile, path, "lookup", "100.1b").stdout)
    assert "  Zorblax \\x9b31m\\u202ereverses the line." in out.splitlines()


@pytest.mark.parametrize("args", [["lookup", "100.1b"], ["search", "reverses"], ["show", "cr2025:100.1b"]])
def test_json_stays_exact_with_every_control_character_escaped(hostile, args):
    done = _run(hostile, FAST if args[0] != "show" else TYPER, *args, "--json")
    out = _text(done.stdout)
    assert done.returncode == 0
    assert not CONTROL.search(out)  # json.dumps escapes C0; DEL, C1 and bidi overrides too
    assert "\\u009b31m\\u202e" in out
    data = json.loads(out)
    text = data["hits"][0]["text"] if args[0] == "search" else data["text"]
    assert text == f"Zorblax {C1_BIDI}reverses the line."


@pytest.mark.parametrize("path", [FAST, TYPER], ids=["fast", "typer"])
@pytest.mark.parametrize("args", [["lookup", f"x{ECHO}"], ["search", f"qqqq{ECHO}"], ["define", f"q{ECHO}"],
                                  ["show", f"cr2025:{ECHO}"], ["search", "zorblax", "--edition", f"7e{ECHO}"],
                                  ["compare", f"zorblax {ECHO}"]])
def test_echoed_input_is_escaped(hostile, path, args):
    done = _run(hostile, path, *args)
    out, err = _text(done.stdout), _text(done.stderr)
    assert done.returncode in (0, 1, 2)
    assert not CONTROL.search(out) and not CONTROL.search(err)
    assert ECHOED in out + err


@pytest.mark.parametrize("path", [FAST, TYPER], ids=["fast", "typer"])
def test_error_line_quoting_a_path_is_escaped(hostile, path, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    done = _run(hostile, path, "--index", str(blocker / EVIL), "lookup", "100.1a")
    err = _text(done.stderr)
    assert done.returncode == 2
    assert not CONTROL.search(err)
    assert err.startswith(f"error: {blocker}/{SHOWN}")
    assert err.count("\n") == 1


def test_rich_terminal_output_carries_only_its_own_colour_codes(hostile, monkeypatch):
    from rulebase.cli.console import SafeConsole
    from rulebase.cli.render import render_definitions, render_lookup, render_search, render_show
    from rulebase.cli.render_changes import render_compare
    from rulebase.library import Library
    from rulebase.rules import compare as comparing
    from rulebase.rules import lookup as lookups
    from rulebase.rules.definitions import define
    from rulebase.search.request import run_search

    for key in ("RULEBASE_CORPUS", "RULEBASE_USER_CORPUS"):
        monkeypatch.setenv(key, hostile[key])
    library = Library(Path(hostile["RULEBASE_INDEX"]))
    buf = io.StringIO()
    console = SafeConsole(file=buf, force_terminal=True, color_system="truecolor", width=100)
    render_lookup(console, lookups.lookup(library.store, "100.1a"))
    render_lookup(console, lookups.lookup(library.store, "100.1b"))
    results = run_search(library, "[/x] zorblax", {}, 10)  # brackets: markup would raise here
    render_search(console, results)
    found = define(library.store, "zorblax")
    found.term = "[/x]"
    render_definitions(console, found)
    render_show(console, library.store.get("cr2025:100.1a"))
    render_compare(console, comparing.compare(library, "[/x] zorblax", None))
    out = buf.getvalue()
    assert SGR.search(out)  # it is coloured
    assert not CONTROL.search(SGR.sub("", out))
    assert SHOWN in out and "\\x9b31m\\u202e" in out and "[/x]" in out


def test_printable_escapes_only_control_characters():
    from rulebase.cli.views.plain import printable

    assert printable("a\tb\nc · ű “q” 🙂") == "a\tb\nc · ű “q” 🙂"
    assert printable(f"{EVIL}\r\x00\x7f{C1_BIDI}\u2066") == f"{SHOWN}\\x0d\\x00\\x7f\\x9b31m\\u202e\\u2066"


# -- broken pipes ------------------------------------------------------------------------------


def _into_closed_pipe(env: dict, cmd: list[str]) -> subprocess.CompletedProcess:
    """Run `cmd` with stdout a pipe whose reader has already gone (`cmd | head -0`): its first
    write fails with EPIPE, wherever the output is written from."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(cmd, env=env, stdout=write, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(write)


@pytest.mark.parametrize("path", [FAST, TYPER], ids=["fast", "typer"])
@pytest.mark.parametrize("args", [["search", "filler"], ["search", "filler", "--json"], ["lookup", "100.2"],
                                  ["define", "zorblax"], ["show", "cr2025:100.1a"], ["changes"],
                                  ["sources"], ["compare", "filler"]])
def test_a_closed_pipe_exits_0_quietly(hostile, path, args):
    done = _into_closed_pipe(hostile, [*path, *args])
    assert (done.returncode, done.stderr) == (0, b"")


def test_head_reading_one_line_of_long_output(hostile):
    """`rulebase search filler | head -1`: the reader goes away mid-output."""
    for path in (FAST, TYPER):
        proc = subprocess.Popen([*path, "search", "filler", "-n", "500"], env=hostile, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        first = proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 0
        assert first.endswith(b"'filler'\n") and err == b""


# -- the pager ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("user", "expected"), [
    (None, "-FRX"), ("", "-FRX"), ("-i", "-R -i"), ("-iM", "-R -iM"), ("iM", "-R iM"), ("-R", "-R"),
    ("-FRX", "-FRX"), ("-i -r", "-i -r"), ("--RAW-CONTROL-CHARS -i", "--RAW-CONTROL-CHARS -i"),
    ("-Ps Rome", "-R -Ps Rome"), ("-x4R", "-R -x4R"), ("-x4 -R", "-x4 -R"),
])
def test_less_flags_keep_the_users_and_add_raw_colour(user, expected):
    from rulebase.cli.console import less_flags

    assert less_flags(user) == expected


@pytest.mark.parametrize(("user", "expected"), [(None, "-FRX"), ("-i", "-R -i")])
def test_the_pager_gets_less_r_and_the_environment_is_restored(monkeypatch, user, expected):
    import pydoc

    from rich.text import Text

    from rulebase.cli.console import SafeConsole, paged

    if user is None:
        monkeypatch.delenv("LESS", raising=False)
    else:
        monkeypatch.setenv("LESS", user)
    seen = []
    monkeypatch.setattr(pydoc, "pager", lambda text: seen.append((os.environ.get("LESS"), text)))
    console = SafeConsole(file=io.StringIO(), force_terminal=True, height=5, width=60)
    with paged(console) as out:
        for n in range(20):
            out.print(Text(f"line {n}", style="bold"))
    assert len(seen) == 1
    less, text = seen[0]
    assert less == expected
    assert "\x1b[1mline 19" in text  # colour codes go to the pager, which now shows them as colour
    assert os.environ.get("LESS") == user


# -- filter values -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", [FAST, TYPER], ids=["fast", "typer"])
@pytest.mark.parametrize(("args", "message"), [
    (["--edition", "7e"], "error: unknown edition '7e' - choose from 10e, cr2025\n"),
    (["-e", "10e", "-e", "7e", "-e", "8e"], "error: unknown edition '7e', '8e' - choose from 10e, cr2025\n"),
    (["--kind", "rules"], "error: unknown kind 'rules' - choose from document, note, section, chapter, heading, "
                          "passage, rule, ruling, example, glossary, term, table, quiz, index, card, card-ruling\n"),
    (["--lang", "de"], "error: unknown language 'de' - choose from en\n"),
    (["--source", "cr2008"], "error: unknown source 'cr2008' - choose from mini, cr2025\n"),
])
def test_unknown_filter_values_are_usage_errors_listing_the_choices(hostile, path, args, message):
    done = _run(hostile, path, "search", "zorblax", *args)
    assert (done.returncode, _text(done.stdout), _text(done.stderr)) == (2, "", message)


@pytest.mark.parametrize("path", [FAST, TYPER], ids=["fast", "typer"])
def test_known_filter_values_from_the_index_work_in_any_case(hostile, path):
    done = _run(hostile, path, "search", "zorblax", "-e", "CR2025", "--kind", "Glossary", "--lang", "en",
                "--source", "cr2025", "--json")
    assert done.returncode == 0, done.stderr
    assert [h["id"] for h in json.loads(done.stdout)["hits"]] == ["cr2025:glossary.zorblax"]


def test_export_escapes_control_and_bidi_characters_and_keeps_the_data(hostile):
    """Issue 21.8: export wrote U+202E raw."""
    done = _run(hostile, TYPER, "export")
    out = _text(done.stdout)
    assert done.returncode == 0 and not CONTROL.search(out)
    rows = [json.loads(line) for line in out.splitlines()]
    assert any(row["text"] == f"Zorblax {C1_BIDI}reverses the line." for row in rows)


# -- wrapping on a terminal (issue 20.4) -------------------------------------------------------

WIDTH = 80
BORDER = re.compile("[│╭╮╰╯─]")
MARKERS = ("[-", "-]", "{+", "+}")
PUNCT = "“”\"'’‘()[]{}+-,.;:!?<>—…›·⚠→"


def _terminal(render, *args, width: int = WIDTH, no_color: bool = False) -> str:
    """What a terminal of `width` columns shows, colour codes removed (checked present)."""
    from rulebase.cli.console import SafeConsole

    out = io.StringIO()
    console = SafeConsole(file=out, force_terminal=True, width=width, color_system="truecolor",
                          highlight=False, soft_wrap=False, emoji=False, no_color=no_color)
    render(console, *args)
    text = out.getvalue()
    assert no_color or SGR.search(text)
    return SGR.sub("", text)


def _piped(render, *args) -> str:
    from rulebase.cli.console import SafeConsole

    out = io.StringIO()
    render(SafeConsole(file=out, force_terminal=False, width=WIDTH, highlight=False, soft_wrap=False,
                       emoji=False), *args)
    return out.getvalue()


def _assert_wrapped(screen: str, words: set[str], width: int = WIDTH) -> None:
    """No line is wider than the terminal, and every word on the screen is a word of the text
    shown (a word broken at the margin, 'dealin' / 'g', is not); a diff marker never stands
    alone, parted from its word."""
    from rich.cells import cell_len

    lines = screen.splitlines()
    assert lines and max(cell_len(line) for line in lines) <= width
    known = {w.strip(PUNCT) for w in words}
    for token in BORDER.sub(" ", screen).split():
        assert token not in MARKERS, token
        assert token.strip(PUNCT) in known or token.endswith("…"), token  # '…': cut on purpose


@pytest.mark.parametrize("ref", ["702.19b", "502.83a", "510.2"])
@pytest.mark.parametrize("width", [80, 50])
def test_history_wraps_at_word_boundaries_and_shows_what_a_pipe_shows(library, ref, width):
    from rulebase.cli.render_changes import render_history
    from rulebase.rules.history import history

    found = history(library.store, ref)
    screen, piped = _terminal(render_history, found, width=width), _piped(render_history, found)
    assert max(len(line) for line in piped.splitlines()) > width  # the lines a terminal used to break
    _assert_wrapped(screen, set(piped.split()), width)
    assert screen.split() == piped.split()  # the same words in the same order: only the breaks differ


def test_history_keeps_each_diff_marker_with_its_word(library):
    """Issue 20.4: '{+' at the right margin, 'creature’s+}' on the next line."""
    from rulebase.cli.render_changes import render_history
    from rulebase.rules.history import history

    screen = _terminal(render_history, history(library.store, "702.19b"))
    assert "{+creature’s+}" in screen.split() and "[-creature's-]" in screen.split()
    indents = {len(line) - len(line.lstrip(" ")) for line in screen.splitlines() if line.strip()}
    assert indents == {0, 2, 4, 6}  # title, version, its text; a version's line goes on at 6


def test_history_on_a_terminal_colours_the_changes(library):
    from rich.console import Console

    from rulebase.cli.render_changes import render_history
    from rulebase.rules.history import history

    console = Console(file=io.StringIO(), width=WIDTH, force_terminal=True, record=True, color_system="standard")
    render_history(console, history(library.store, "702.19b"))
    styled = console.export_text(styles=True)
    assert "\x1b[1;9;31m[-creature's-]\x1b[0m" in styled and "\x1b[1;4;32m{+creature’s+}\x1b[0m" in styled


def test_history_golden_at_80_columns(library):
    """The terminal layout of a short history (tests/golden/terminal-history-502.83a.txt)."""
    from rulebase.cli.render_changes import render_history
    from rulebase.rules.history import history

    golden = Path(__file__).parent / "golden" / "terminal-history-502.83a.txt"
    assert _terminal(render_history, history(library.store, "502.83a")) == golden.read_text(encoding="utf-8")


def test_changes_between_wraps_at_word_boundaries(library):
    from rulebase.cli.render_changes import render_changes_between
    from rulebase.rules.history import changes_between

    found = changes_between(library.store, "2009-05-01", "2009-07-11", kinds=("rule",))
    screen, piped = _terminal(render_changes_between, found), _piped(render_changes_between, found)
    _assert_wrapped(screen, set(piped.split()))
    assert screen.split() == piped.split()
    assert screen.startswith("cr 2009-05-01 -> 2009-07-11: ")


@pytest.mark.parametrize("ref", ["502", "702.19", "702.83a"])
@pytest.mark.parametrize("full", [False, True])
def test_lookup_wraps_at_word_boundaries(library, ref, full):
    from rulebase.cli.render import render_lookup
    from rulebase.rules.lookup import lookup

    result = lookup(library.store, ref, full=full)
    words = set(_piped(render_lookup, result).split())
    words |= {w for e in result.entries for r in [e.record, *e.children] for w in r.text.split()}
    _assert_wrapped(_terminal(render_lookup, result), words)


@pytest.mark.parametrize("topic", ["trample", "mana burn", "first strike"])
def test_compare_wraps_at_word_boundaries(library, topic):
    from rulebase.cli.render_changes import render_compare
    from rulebase.rules.compare import compare

    result = compare(library, topic, None)
    words = set(_piped(render_compare, result).split())
    words |= {w for s in result.editions for w in (s.summary or "").split()}
    _assert_wrapped(_terminal(render_compare, result), words)


def test_search_on_a_wide_terminal_keeps_each_id_whole(library):
    """The review's 'cr:glossary.legend-legend-rule@1999…' in the table: an id cut could not be
    copied into 'rulebase show'. A long one folds onto the next line of its cell instead."""
    from rulebase.cli.render import SEARCH_TABLE_WIDTH, render_search
    from rulebase.search.request import run_search

    results = run_search(library, "at FNM my opponent forgot a trigger", {}, 5)  # (the JAR's ids are long)
    lines = _terminal(render_search, results, width=SEARCH_TABLE_WIDTH).splitlines()
    head = next(line for line in lines if " where " in line)
    column = "".join(line[head.index("where"):head.index("ed.")].strip() for line in lines)  # its cells, read down
    assert max(len(line) for line in lines) <= SEARCH_TABLE_WIDTH and not any("…" in line[head.index("where"):head.index("ed.")] for line in lines)
    assert any(len(hit.id) > head.index("ed.") - head.index("where") for hit in results.hits)  # one is folded
    assert all(hit.id in column for hit in results.hits), column


@pytest.mark.parametrize("width", [80, 50])
def test_search_on_a_narrow_terminal_is_a_list_of_full_width_lines(library, width):
    """At 80 columns the table left the snippet a 24-cell column: each hit took 8-11 lines. A narrow
    terminal lists each hit as its name and era, its id, and the snippet across the width."""
    from rulebase.cli.render import render_search
    from rulebase.search.request import run_search

    results = run_search(library, "trample", {}, 10)
    screen = _terminal(render_search, results, width=width)
    lines = screen.splitlines()
    assert lines[0] == "57 results for 'trample'" and "─" not in screen  # no table
    starts = [n for n, line in enumerate(lines) if re.match(r" ?\d+\. ", line)]
    assert len(starts) == len(results.hits) == 10
    sizes = [b - a for a, b in zip(starts, [*starts[1:], len(lines)], strict=True)]
    assert max(sizes) <= (7 if width == 80 else 10), sizes  # (with "was 702.18a until ..." and "= same text")
    assert " ".join(" ".join(lines[1:3]).split()).startswith("1. cr 702.19a in force now, text since 2013-07-13")
    for hit, at, size in zip(results.hits, starts, sizes, strict=True):  # each id whole, on a line of its own
        assert any(line.split()[0] == hit.id for line in lines[at + 1:at + size] if line.strip()), hit.id
    from rulebase.search.hits import unmark

    words = set(_piped(render_search, results).split()) | {w for h in results.hits for w in unmark(h.snippet).split()}
    _assert_wrapped(screen, words | {"·", "history", "alpha", "4e", "5e"}, width)


def test_sources_stays_readable_at_80_columns(library):
    """Issue 20.4: a seven-column table squeezed titles and credits to eight letters a line."""
    from rulebase.cli.render import render_sources

    sources = library.ensure().report()["sources"]
    screen = _terminal(render_sources, sources)
    piped = _piped(render_sources, sources)
    _assert_wrapped(screen, set(piped.split()) | {str(len(sources)), "documents", "edition", "records", "references"})
    flowing = " ".join(screen.split())
    for s in sources:
        assert f"{s['id']} {' '.join(s['title'].split())}" in flowing
        assert f"credit {' '.join(s['credit'].split())}" in flowing
    lines = screen.splitlines()
    assert lines[0] == f"{len(sources)} documents"
    assert "  records     1843: chapter 85, document 1, example 173, glossary 399, note 4," in lines


def test_no_color_terminal_output_is_the_plain_text_wrapped(library):
    from rulebase.cli.render_changes import render_history
    from rulebase.rules.history import history

    found = history(library.store, "702.19b")
    screen, piped = _terminal(render_history, found, no_color=True), _piped(render_history, found)
    assert "\x1b" not in screen
    _assert_wrapped(screen, set(piped.split()))
    assert screen.split() == piped.split()


def test_diff_marked_is_the_plain_diff_line():
    from hypothesis import given
    from hypothesis import strategies as st

    from rulebase.cli.render_changes import diff_marked
    from rulebase.cli.views.plain_changes import diff_text
    from rulebase.rules.diff import word_diff

    words = st.lists(st.sampled_from(["a", "b", "c", "dé", "e\x1b", " ", "\n", "x\u2028y"]), max_size=12).map("".join)

    @given(words, words)
    def check(a, b):
        ops = word_diff(a, b)
        assert diff_marked(ops).plain == " ".join(diff_text(ops).split()).replace("\x1b", "\\x1b")

    check()


def test_history_and_sources_on_a_terminal_escape_document_text(hostile, monkeypatch):
    from rulebase.cli.console import SafeConsole
    from rulebase.cli.render import render_sources
    from rulebase.cli.render_changes import render_history
    from rulebase.library import Library
    from rulebase.rules.diff import word_diff
    from rulebase.rules.history import History, Lineage, Step

    for key in ("RULEBASE_CORPUS", "RULEBASE_USER_CORPUS"):
        monkeypatch.setenv(key, hostile[key])
    library = Library(Path(hostile["RULEBASE_INDEX"]))
    buf = io.StringIO()
    console = SafeConsole(file=buf, force_terminal=True, color_system="truecolor", width=WIDTH)
    wipes, reverses = library.store.get("cr2025:100.1a"), library.store.get("cr2025:100.1b")
    steps = [Step(wipes, 20251114, 20251231, "added"),  # the hostile rules as one rule's two versions
             Step(reverses, 20260101, 99991231, "changed", word_diff(wipes.text, reverses.text))]
    render_history(console, History("100.1a", [Lineage("cr:100.1a", steps, [])]))
    evil = {"id": "evil", "edition": "10e", "date": "2008", "lang": "en", "title": f"T{EVIL}[/x]", "records": 1,
            "kinds": {"rule": 1}, "refs": 0, "unresolved": 0, "credit": f"c{C1_BIDI}"}
    render_sources(console, [evil])
    out = buf.getvalue()
    assert SGR.search(out) and not CONTROL.search(SGR.sub("", out))
    shown = SGR.sub("", out)
    assert f"Zorblax {SHOWN}wipes" in shown and f"T{SHOWN}[/x]" in shown and "\\x9b31m\\u202e" in shown
