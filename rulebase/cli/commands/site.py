"""The glossary and rules site: glossary build."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rulebase.cli.program import JsonOpt, command, funnel, glossary_app, print_json, ready_library


@command(glossary_app, "build", examples=[
    ("rulebase glossary build site", "static HTML site in ./site"),
    ("rulebase glossary build md-out --format md", "Markdown pages in ./md-out"),
    ("rulebase glossary build site --editions 4e,10e", "4e and 10e only")])
@funnel
def glossary_build(
    out: Annotated[Path, typer.Argument(help="Output directory (created if missing).")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="html (a static site) or md (Markdown).")] = "html",
    editions: Annotated[str | None, typer.Option("--editions", help="Comma-separated, e.g. 4e,10e.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Write into a non-empty directory we did not create.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """One page per glossary term of every era, a page with its history for every rule in force
    now, the older documents' rule pages, an A-Z index with search, credits."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress
    from rulebase.glossary.plan import build_from_library

    library = ready_library(json_out, beside=False)
    chosen = [e.strip() for e in editions.split(",") if e.strip()] if editions else None
    with build_progress(enabled=not json_out) as progress:
        summary = build_from_library(library, out, fmt=fmt, editions=chosen, force=force, progress=progress)
    if summary.kept:  # stderr: --json stays JSON
        # lazy: each command loads only what it runs (cold start)
        from rulebase.cli.common import say_notes

        say_notes([f"kept {len(summary.kept)} file(s) the previous build listed, as they no longer hold what it "
                   f"wrote (or never did): {', '.join(summary.kept)}"])
    if json_out:
        print_json({"out": str(summary.out), "format": summary.format, "pages": summary.pages,
                    "terms": summary.terms, "rule_pages": summary.rule_pages, "files": summary.files,
                    "kept": list(summary.kept)})
        return
    typer.echo(f"wrote {summary.pages} pages ({summary.terms} terms, {summary.rule_pages} rule pages, "
               f"{summary.files} files) as {summary.format} to {summary.out}")
