"""The CLI prints the golden transcript byte for byte (tests/golden/transcript.json): 75 commands on
the real corpus, piped, --json and error cases, with exit codes and what the writing commands wrote.
A deliberate change of output records it again: python scripts/transcript.py record --index DIR."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "transcript.py"


def _transcript():
    spec = importlib.util.spec_from_file_location("transcript", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_main_command_and_option_is_in_the_transcript():
    commands = {args[0] for args in _transcript().COMMANDS if not args[0].startswith("-")}
    assert {"lookup", "search", "define", "show", "sources", "compare", "diff", "changes", "history",
            "index", "glossary", "add", "remove"} <= commands
    assert len(_transcript().COMMANDS) >= 60


def test_the_cli_prints_the_golden_transcript(index_dir):
    problems = _transcript().differences(index_dir)
    assert not problems, "\n\n".join(problems[:5])
