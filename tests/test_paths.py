"""Paths on the read path (rulebase/core/paths.py): strings spelled as pathlib spells them."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

import pytest

from rulebase.core.paths import package_parent, parent, read_bytes, spelled, user_folder


@pytest.mark.parametrize("text", ["", ".", "./", "idx", "idx/", "./idx/./sub//", "/", "//", "///", "//host/share",
                                  "///abs", "/a/../b", "a/..", "../x", "~/x", "a b/c"])
def test_spelled_is_what_str_of_a_path_prints(text):
    """Messages and a build's recorded inputs name a folder the same way whichever side made it."""
    assert spelled(text) == str(PurePosixPath(text))


def test_spelled_takes_a_path_and_read_bytes_reads_it(tmp_path):
    (tmp_path / "f").write_bytes(b"abc")
    assert spelled(tmp_path) == str(tmp_path)
    assert read_bytes(os.path.join(spelled(tmp_path), "f")) == b"abc"
    assert read_bytes(tmp_path / "f", 2) == b"ab"


def test_package_parent_holds_the_package():
    assert Path(package_parent(), "rulebase", "core", "paths.py").is_file()


@pytest.mark.parametrize("text", ["idx", "a/b", "/a/b", "/a", "/", "..", "../x", "//host/share"])
def test_parent_is_what_a_paths_parent_prints(text):
    assert parent(spelled(text)) == str(PurePosixPath(text).parent)


def test_user_folder_is_the_xdg_folder_else_its_fallback_under_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state") + "/")
    assert user_folder("XDG_STATE_HOME", ".local/state") == str(tmp_path / "state" / "rulebase")
    monkeypatch.delenv("XDG_STATE_HOME")
    assert user_folder("XDG_STATE_HOME", ".local/state") == str(tmp_path / ".local" / "state" / "rulebase")
