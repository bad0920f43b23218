"""The documentation's examples are what the commands print (scripts/readme.py): a change that
alters one fails here until README.md or docs/*.md shows it (`python scripts/readme.py update`).
And docs/reference.md documents every command and option the program has."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click
import typer

from rulebase.cli.app import app

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
GLOBAL = {"--index", "--traceback", "-h", "--help", "--version"}  # documented once, under Conventions


def test_an_example_is_a_command_and_the_indented_lines_after_it():
    found = readme.examples(TEXT)
    assert [(e.command, e.output) for e in found] == [
        ("rulebase lookup 1", ["first line", "", "after a blank line"]),
        ("rulebase lookup 2", ["error: no rule"])]


def test_what_changes_between_builds_is_a_placeholder(tmp_path):
    printed = readme.normalise(f"index: {tmp_path}\ngeneration: gen-20261201134742-27956\n"
                               "built: 2026-12-01T13:47:42Z in 35.16 s, 35154 records  \n", tmp_path)
    assert printed == ["index: <INDEX>", "generation: gen-<ID>", "built: <WHEN> in <SECONDS> s, 35154 records"]


def test_the_documents_are_the_readme_then_every_docs_page():
    names = [path.relative_to(readme.ROOT).as_posix() for path in readme.documents()]
    assert names[0] == "README.md"
    assert {"docs/reference.md", "docs/corpus.md", "docs/evaluation.md", "docs/architecture.md"} <= set(names)


def test_every_example_prints_what_its_page_shows(index_dir):
    differing = [(path, example, printed) for path in readme.documents()
                 for example, printed in readme.check(index_dir, path)]
    assert not differing, "examples differ from what the commands print (run: python scripts/readme.py update):\n" \
        + "\n".join(f"{readme.shown(path)}:{e.line + 1}: $ {e.command}\n  " + "\n  ".join(p) for path, e, p in differing)
    counts = {readme.shown(path): len(readme.examples(path.read_text(encoding="utf-8"))) for path in readme.documents()}
    assert counts["README.md"] >= 15 and counts["docs/reference.md"] >= 20, counts


def test_the_readme_is_read_in_five_minutes():
    assert len(readme.README.read_text(encoding="utf-8").splitlines()) <= 300


def _commands() -> dict[str, click.Command]:
    """Every command that runs (not a group), by its path: 'lookup', 'index build'."""
    found: dict[str, click.Command] = {}

    def walk(command: click.Command, path: tuple[str, ...]) -> None:
        subs = getattr(command, "commands", {})
        if not subs:
            found[" ".join(path)] = command
        for name, sub in subs.items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app), ())
    return found


def _sections(text: str) -> dict[str, str]:
    """docs/reference.md's '## ' sections by heading."""
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return {parts[n].strip(): parts[n + 1] for n in range(1, len(parts), 2)}


def test_the_reference_documents_every_command_and_option():
    sections = _sections((readme.DOCS / "reference.md").read_text(encoding="utf-8"))
    conventions = sections["Conventions"]
    assert all(f"`{opt}" in conventions for opt in GLOBAL), "a global option is missing from Conventions"
    missing = []
    for path, command in _commands().items():
        heading = next((h for h in sections if h == path or h.startswith(f"{path} ")
                        or f", {path}" in h or h.startswith(f"{path},")), None)
        if heading is None:
            missing.append(f"no section for 'rulebase {path}'")
            continue
        for param in command.params:
            for opt in param.opts if isinstance(param, click.Option) else []:
                if opt not in GLOBAL and f"`{opt}" not in sections[heading]:
                    missing.append(f"rulebase {path}: {opt}")
    assert not missing, missing
