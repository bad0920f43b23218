"""Commands about the corpus and the index: sources, ingest, export, index build/status, add, remove."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from rulebase.cli import common as state
from rulebase.cli.program import (
    JsonOpt,
    app,
    command,
    funnel,
    index_app,
    print_json,
    ready_library,
    rebuild_after,
    terminal,
)
from rulebase.index.generation import built_from


@command(app, examples=[
    ("rulebase sources", "a table of the documents"),
    ("rulebase sources --json", "with counts by kind, as JSON")])
@funnel
def sources(json_out: JsonOpt = False) -> None:
    """The documents in the corpus: edition, date, records by kind, references, credit."""
    library = ready_library(json_out, beside=False)
    report = library.ensure().report()
    if json_out:
        print_json(report["sources"])
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_sources

    render_sources(terminal(), report["sources"])


@command(app, examples=[
    ("rulebase ingest", "rebuild, then summarise what was parsed"),
    ("rulebase ingest --verbose", "with every note and warning")])
@funnel
def ingest(verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Every note and warning.")] = False,
           json_out: JsonOpt = False) -> None:
    """Parse every source again, rebuild the index and print the ingest report."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress
    from rulebase.cli.render import render_ingest_report

    library = state.current().library()
    with build_progress(enabled=not json_out) as progress:
        generation = library.build(progress, force=True)
    report = generation.report()
    if json_out:
        print_json({"sources": report["sources"], "links": report["links"]})
        return
    render_ingest_report(terminal(), report, verbose)


@command(app, examples=[
    ("rulebase export > records.jsonl", "every record, one JSON object a line"),
    ("rulebase export | head -3", "the first three")])
@funnel
def export() -> None:
    """Every record as JSON Lines on stdout, in a deterministic order."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.views.shapes import escape_raw
    from rulebase.core.records import exported

    library = ready_library(True, beside=False)
    out = sys.stdout
    for data in library.store.stored_forms():  # control and bidi characters as \uXXXX, as --json writes them
        out.write(escape_raw(json.dumps(exported(data), ensure_ascii=False)) + "\n")
    out.flush()


@command(index_app, "build", examples=[
    ("rulebase index build", "rebuild the index now"),
    ("rulebase index build --index /tmp/rb-index --json", "another index, as JSON")])
@funnel
def index_build(json_out: JsonOpt = False) -> None:
    """Rebuild the index now (beside the old one, switched atomically)."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress

    library = state.current().library()
    with build_progress(enabled=not json_out) as progress:
        generation = library.build(progress, force=True)
    if json_out:
        print_json({"index": str(library.index_dir), "generation": generation.name,
                    "records": generation.meta["records"], "seconds": generation.meta["build_seconds"]})
        return
    typer.echo(f"built {generation.meta['records']} records in {generation.meta['build_seconds']} s "
               f"-> {generation.path}")


@command(index_app, "status", examples=[
    ("rulebase index status", "where it is, whether it is current"),
    ("rulebase index status --json", "as JSON")])
@funnel
def index_status(json_out: JsonOpt = False) -> None:
    """Where the index is, what it was built from, and whether it is current."""
    status = state.current().library().status()
    if json_out:
        gen = status.generation
        print_json({"index": str(status.index_dir), "current": status.current, "writable": status.writable,
                    "problem": getattr(status, "problem", None),
                    "generation": gen.name if gen else None,
                    "built_at": gen.meta.get("built_at") if gen else None,
                    "fingerprint": gen.fingerprint if gen else None, "expected": status.expected,
                    "sources": [s["id"] for s in built_from(gen)]})
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_status

    render_status(terminal(), status)


@command(app, examples=[
    ("rulebase add MagicCompRules-20251114.txt", "a Comprehensive Rules file"),
    ("rulebase add cr.txt --edition cr2025 --id mine", "set its edition and id"),
    ("rulebase add a.txt b.txt --json", "two files, one rebuild")])
@funnel
def add(
    files: Annotated[list[Path], typer.Argument(
        metavar="FILE...", help="Rules text files: Comprehensive Rules, Crystal Keep summary...")],
    fmt: Annotated[str | None, typer.Option("--format",
                                            help="Force the format of every file (default: detected).")] = None,
    edition: Annotated[str | None, typer.Option("--edition",
                                                help="4e, 5e, 6e, 10e or crYYYY, for every file.")] = None,
    doc_id: Annotated[str | None, typer.Option(
        "--id", help="Document id, one file only (default: from format and date).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Add your own rules documents to the per-user corpus, then rebuild the index once.

    Every file is checked before any is stored: one bad file and nothing is added."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress

    library = state.current().library()
    with build_progress(enabled=not json_out) as progress:
        added, generation = library.add(files, fmt, edition, doc_id, progress)
    if json_out:
        items = [{"id": a.source.id, "title": a.source.title, "edition": a.source.edition, "date": a.source.date,
                  "format": a.source.format, "file": str(a.source.path), "encoding": a.encoding,
                  "repairs": a.repairs, "records": a.records, "kinds": a.kinds, "evidence": a.detected.evidence}
                 for a in added]
        print_json(items[0] if len(files) == 1 else items)  # one file: one object, as before
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_added

    console = terminal()
    for n, one in enumerate(added, 1):
        render_added(console, one, generation if n == len(added) else None)


@command(app, examples=[
    ("rulebase remove cr2025", "what 'rulebase add' stored as cr2025"),
    ("rulebase remove mine --json", "report as JSON")])
@funnel
def remove(doc_id: Annotated[str, typer.Argument(metavar="ID", help="Id of a document you added.")],
           json_out: JsonOpt = False) -> None:
    """Remove a document added with 'rulebase add' (bundled documents stay) and rebuild the index."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase import usercorpus

    library = state.current().library()
    gone = usercorpus.remove_document(doc_id, library.sources)
    generation = rebuild_after(library, json_out, f"removed {gone.id}")
    if json_out:
        print_json({"removed": gone.id, "records": generation.meta["records"]})
        return
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.render import render_removed

    render_removed(terminal(), gone, generation)
