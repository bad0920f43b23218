"""The README's examples are what the commands print (scripts/readme.py): a change that alters
one fails here until the README shows it (`python scripts/readme.py update`)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import readme  # noqa: E402

TEXT = """Intro.

    $ rulebase lookup 1
    first line

    after a blank line
    $ rulebase lookup 2
    error: no rule
Prose again.

    $ ls
    not an example
"""


def test_an_example_is_a_command_and_the_indented_lines_after_it():
    found = readme.examples(TEXT)
    assert [(e.command, e.output) for e in found] == [
        ("rulebase lookup 1", ["first line", "", "after a blank line"]),
        ("rulebase lookup 2", ["error: no rule"])]


def test_what_changes_between_builds_is_a_placeholder(tmp_path):
    printed = readme.normalise(f"index: {tmp_path}\ngeneration: gen-20261201134742-27956\n"
                               "built: 2026-12-01T13:47:42Z in 35.16 s, 35154 records  \n", tmp_path)
    assert printed == ["index: <INDEX>", "generation: gen-<ID>", "built: <WHEN> in <SECONDS> s, 35154 records"]


def test_every_readme_example_prints_what_the_readme_shows(index_dir):
    differing = readme.check(index_dir)
    assert not differing, "README examples differ from what the commands print (run: python scripts/readme.py " \
        "update):\n" + "\n".join(f"README.md:{e.line + 1}: $ {e.command}\n  " + "\n  ".join(p) for e, p in differing)
    assert len(readme.examples(readme.README.read_text(encoding="utf-8"))) >= 15
