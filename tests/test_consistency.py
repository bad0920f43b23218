"""Small inconsistencies between commands (issue 35, item 14): the same kind of question gets the
same kind of answer and exit code from each command that takes it.

Runs on the three-release archive (conftest.three_release_archive), through real processes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def archive(tmp_path_factory, three_release_archive):
    import shutil

    root = tmp_path_factory.mktemp("consistency")
    corpus = root / "corpus"
    shutil.copytree(three_release_archive, corpus)
    shutil.copy(Path(__file__).resolve().parent.parent / "corpus" / "topics.toml", corpus)  # (compare reads it)
    env = {k: v for k, v in os.environ.items() if k != "RULEBASE_INDEX"}
    env.update(RULEBASE_CORPUS=str(corpus), RULEBASE_USER_CORPUS=str(root / "user"),
               RULEBASE_CACHE=str(root / "cache"), XDG_STATE_HOME=str(root / "state"), NO_COLOR="1")
    index = root / "index"
    assert _run(env, index, "index", "build").returncode == 0
    return env, index


def _run(env: dict, index: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulebase", "--index", str(index), *args], env=env,
                          capture_output=True, text=True, timeout=600)


def test_history_of_a_version_id_that_names_nothing_is_not_found(archive):
    """`history cr:702.80a@0000-00-00` answered with the rule's history (exit 0) where lookup and
    show say no record has that id (exit 1)."""
    env, index = archive
    for command in ("lookup", "show", "history"):
        result = _run(env, index, command, "cr:702.80a@0000-00-00")
        assert (result.returncode, result.stdout) == (1, ""), command
    result = _run(env, index, "history", "cr:702.80a@0000-00-00")
    assert result.stderr.startswith("error: no record 'cr:702.80a@0000-00-00' - 'rulebase history 702.80a' lists "
                                    "every version of the rule\ndid you mean: cr:702.80a@2009-07-11")
    for ref in ("cr:702.80a@2009-07-11", "cr:702.80a", "702.80a"):  # what names the rule still answers
        assert _run(env, index, "history", ref).returncode == 0, ref


def test_compare_before_the_first_rules_is_not_found_as_lookup_says(archive):
    """`compare "mana burn" --as-of 1992` exited 2 (a usage error) where lookup exits 1."""
    env, index = archive
    lookup = _run(env, index, "lookup", "702.80a", "--as-of", "1992")
    compare = _run(env, index, "compare", "exalted", "--as-of", "1992")
    assert lookup.returncode == compare.returncode == 1
    assert compare.stderr.splitlines()[-1] == ("error: no edition's rules had taken effect by 1992-12-31 - the corpus "
                                               "starts in 1993")


def test_changes_reads_kind_as_search_does(archive):
    """`changes -k Rule` was refused ('unknown kind') where `search -k Rule` is read as rule."""
    env, index = archive
    spelt = _run(env, index, "changes", "--from", "2009-05-01", "--to", "2009-09-04", "-k", "Rule", "--json")
    plain = _run(env, index, "changes", "--from", "2009-05-01", "--to", "2009-09-04", "-k", "rule", "--json")
    assert (spelt.returncode, spelt.stdout) == (0, plain.stdout)
    assert _run(env, index, "search", "exalted", "-k", "Rule").returncode == 0


def test_a_word_typed_as_a_prefix_is_read_as_the_index_word_it_begins(archive):
    """`search 'exal*'` was searched as 'exal': "Did you mean: that"-style suggestions and hits
    about other words. It is read as the most used word that begins so, and says so."""
    env, index = archive
    starred = _run(env, index, "search", "exal*", "--json")
    assert starred.returncode == 0
    assert starred.stderr == "note: read 'exal*' as 'exalted'\n"
    found = json.loads(starred.stdout)
    assert found["suggestion"] is None
    assert [h["id"] for h in found["hits"]] == [h["id"] for h in json.loads(
        _run(env, index, "search", "exalted", "--json").stdout)["hits"]]
    none = _run(env, index, "search", "zzqq*")
    assert none.returncode == 1 and "note: read 'zzqq*' as 'zzqq' ('*' is no wildcard here)" in none.stderr
