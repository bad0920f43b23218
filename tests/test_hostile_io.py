"""Hostile terminals and output streams (issue 35, items 8-10): a closed or full stdout, absurd
terminal widths and very long terms each give a one-line error or a bounded answer, never a
traceback (exit 3), an empty screen or megabytes of padding.

Runs real processes on a one-document corpus (Crystal Keep 2008); the terminal cases run under
a pseudo-terminal, as a user's shell would run them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


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

    index = mini[1]
    store = RecordStore(index / (index / "CURRENT").read_text().strip() / "records.db")
    everything = store.of_kind("rule")
    assert store.of_kind("rule", None, ("%" + "x" * LIKE_LIMIT + "%",)) == everything
    some = store.of_kind("rule", None, ("%exalted%",))  # a prefilter of a length SQLite takes still filters
    assert {r.id for r in everything if "exalted" in r.text.lower()} <= {r.id for r in some} < {r.id for r in everything}
