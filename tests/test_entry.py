"""The console script's fast path (rulebase/cli/entry.py): what a cold command imports.

Each module left out below was measured on a cold `lookup` (CPU time of a new process, medians of
41): pathlib 5.2 ms, the sqlite3 package over its _sqlite3 module 3.6 ms, typing 6.5 ms; typer,
rich and Whoosh far more. A change that brings one back is caught here, not in a timed test."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

_RUN = ("import sys, io, contextlib\n"
        "sys.argv = ['rulebase'] + sys.argv[1:]\n"
        "from rulebase.cli.entry import main\n"
        "try:\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        main()\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] in WATCHED))")
WATCHED = ("pathlib", "sqlite3", "typing", "typer", "click", "rich", "whoosh", "urllib", "tomllib", "hashlib",
           "dataclasses", "inspect")


def _imports(index_dir, *args: str, watched: tuple[str, ...] = WATCHED) -> tuple[int, list[str]]:
    env = dict(os.environ, RULEBASE_INDEX=str(index_dir))
    out = subprocess.run([sys.executable, "-c", f"WATCHED = {watched!r}\n" + _RUN, *args], env=env,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    code, _, modules = out.strip().partition(" ")
    return int(code), json.loads(modules.replace("'", '"'))


@pytest.mark.parametrize("args", [("lookup", "502.83a"), ("lookup", "IPG 2.1"), ("card", "Blood Moon")])
def test_a_cold_lookup_or_card_imports_none_of_the_costly_modules(index_dir, args):
    assert _imports(index_dir, *args) == (0, [])


def test_a_cold_search_imports_whoosh_but_not_the_rest(index_dir):
    _imports(index_dir, "search", "damage prevention")  # (the first reads the vocabulary file with tomllib)
    code, modules = _imports(index_dir, "search", "damage prevention")
    assert code == 0
    assert not [m for m in modules if m.split(".")[0] in ("pathlib", "sqlite3", "typing", "typer", "click", "rich",
                                                          "tomllib", "dataclasses", "inspect")]
    assert "whoosh" in modules


def test_a_cold_search_leaves_out_what_whoosh_imports_only_to_write(index_dir):
    """index/standins.py: the modules Whoosh imports for the network, writing and dates stand in
    while it is imported, and a search loads none of them."""
    spared = ("urllib", "hashlib", "_hashlib", "html", "shutil", "tempfile", "queue", "random", "calendar",
              "datetime", "fnmatch", "threading", "copy", "decimal", "whoosh.automata.lev", "whoosh.lang.porter", "whoosh.lang.dmetaphone")
    code, modules = _imports(index_dir, "search", "damage prevention", watched=(*spared, "whoosh"))
    assert code == 0 and [m for m in modules if m in spared or m.split(".")[0] in spared] == []


@pytest.mark.parametrize("args", [("search", "damage prevention"), ("card", "Blood Moon")])
def test_a_cold_search_or_card_leaves_the_lookups_modules_alone(index_dir, args):
    """The plain views name a lookup's types in annotations only: a search or a card printed
    without importing rules.lookup and rules.documents (2.5 ms of a cold search)."""
    code, modules = _imports(index_dir, *args, watched=("rulebase",))
    assert code == 0 and "rulebase.cli.views.plain" in modules
    assert not {"rulebase.rules.lookup", "rulebase.rules.documents"} & set(modules)


def test_a_stand_in_forwards_to_the_real_class():
    """whoosh.fields binds Decimal while a stand-in is in place (index/standins.py): in a new
    process, instance checks and calls reach decimal.Decimal."""
    code = ("import rulebase.index.schema, whoosh.fields, decimal\n"
            "stand_in = whoosh.fields.Decimal\n"
            "print(stand_in is not decimal.Decimal, isinstance(decimal.Decimal('1.5'), stand_in),\n"
            "      isinstance(1.5, stand_in), type(stand_in('2.25')) is decimal.Decimal, stand_in('2.25') * 4)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.split() == ["True", "True", "False", "True", "9.00"]
