"""The build's progress on a terminal (cli/console.py): what each stage says, never a bar stuck at 0%."""

from __future__ import annotations

import io

from rich.console import Console

from rulebase.cli.console import build_progress, stage_text


def test_each_stage_says_what_it_reads_or_indexes():
    assert stage_text("ingest", 0, 14) == "building index: reading 14 sources"
    assert stage_text("ingest", 14, 14) == "building index: read 14 sources"
    assert stage_text("index", 0, 71530) == "building index: indexing 71,530 records"
    assert stage_text("index", 30000, 71530) == "building index: indexing 71,530 records (30,000 of 71,530)"
    assert stage_text("index", 71530, 71530) == "building index: indexed 71,530 records"


def test_a_first_build_shows_no_percentage_stuck_at_zero():
    """A stage reports its start and its end only: the first build showed 'ingest 0%', then
    'index 0%' for two to three minutes."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system=None)
    with build_progress(console=console) as update:
        update("ingest", 0, 14)
        update("ingest", 14, 14)
        update("index", 0, 71530)
    shown = out.getvalue()
    assert "indexing 71,530 records" in shown and "read 14 sources" in shown
    assert "%" not in shown


def test_no_progress_when_piped():
    console = Console(file=io.StringIO(), force_terminal=False)
    with build_progress(console=console) as update:
        assert update is None
