"""The command line: every command registered on the typer program, in the order `--help` lists
them. Each command parses its arguments, calls the library, renders and sets the exit code; the
error funnel and the shared steps are in program.py, the commands in commands/.

Exit codes: 0 found, 1 not found, 2 usage or input error, 3 internal error.
"""

from __future__ import annotations

from rulebase.cli.commands import cards, citing, corpus, reading, site, timeline
from rulebase.cli.program import app, register

COMMANDS = (
    reading.lookup, reading.search, reading.define, reading.show, cards.card,
    corpus.sources, corpus.ingest, corpus.export, corpus.index_build, corpus.index_status, corpus.add, corpus.remove,
    timeline.compare, timeline.diff, timeline.changes, timeline.history,
    citing.cite, citing.check, citing.mcp,
    site.glossary_build,
)
for _command in COMMANDS:
    register(_command)

__all__ = ["app", "main"]


def main() -> None:
    app(prog_name="rulebase")
