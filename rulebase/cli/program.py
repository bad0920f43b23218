"""The typer program every command registers on: the apps, the global options, the error funnel and
the few steps every command shares (an index made ready, an answer as JSON or rendered). The commands
themselves live in cli/commands/; cli/app.py assembles them.

Exit codes: 0 found, 1 not found, 2 usage or input error, 3 internal error.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from rulebase.cli import common as state
from rulebase.cli.usage import (
    INDEX_HELP,
    TRACEBACK_HELP,
    Command,
    Group,
    SubGroup,
    examples_section,
)
from rulebase.core.errors import RulebaseError

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    cls=Group, no_args_is_help=True, add_completion=False, rich_markup_mode=None, context_settings=HELP_OPTIONS,
    help="Search and look up Magic: The Gathering rules documents, 1993 to 2026, and their history.\n\n"
         "--index and --traceback may also follow the command.",
    epilog=examples_section(("rulebase lookup 502.83a", "a rule, its subrules and rulings"),
                            ('rulebase search "damage prevention"', "ranked full-text search"),
                            ('rulebase compare "mana burn"', "how the editions treat a topic"),
                            ("rulebase lookup -h", "a command's options and examples")))
index_app = typer.Typer(
    cls=SubGroup, no_args_is_help=True, context_settings=HELP_OPTIONS, help="Build or inspect the search index.",
    epilog=examples_section(("rulebase index status", "where it is, whether it is current"),
                            ("rulebase index build", "rebuild the index now")))
app.add_typer(index_app, name="index")
glossary_app = typer.Typer(
    cls=SubGroup, no_args_is_help=True, context_settings=HELP_OPTIONS,
    help="Publish the glossary as a static site or Markdown.",
    epilog=examples_section(("rulebase glossary build site", "static HTML site in ./site"),
                            ("rulebase glossary build md-out --format md", "Markdown pages in ./md-out")))
app.add_typer(glossary_app, name="glossary")


def command(typer_app: typer.Typer, name: str | None = None, *, examples: list[tuple[str, str]],
            cls: type[Command] = Command):
    """Mark a function as a command of `typer_app`, with an Examples section of (command line,
    comment) pairs for its help. cli/app.py registers the marked functions in the order `--help`
    lists them."""

    def mark(fn):
        fn.registration = (typer_app, name, cls, examples_section(*examples))
        return fn

    return mark


def register(fn) -> None:
    """Register a function marked by `command` on its app."""
    typer_app, name, cls, epilog = fn.registration
    typer_app.command(name, cls=cls, epilog=epilog)(fn)


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON only (no colour, no progress).")]
AsOfOpt = Annotated[str | None, typer.Option(
    "--as-of", metavar="DATE", help="The rules in force that day: YYYY-MM-DD, YYYY-MM or YYYY (its last day).")]


def day_asked(as_of: str | None) -> int | None:
    if as_of is None:  # (history imports difflib: not for every command)
        return None
    # lazy: each command loads only what it runs (cold start)
    from rulebase.rules.history import as_of_day

    return as_of_day(as_of)


def note_outside(library, *days: int | None, sources: list[str] | None = None) -> None:
    """A note on stderr for each date given that lies past the newest release or before the
    oldest document (so --json stdout stays JSON): the answer is the newest rules, or none.
    `sources`: the documents a --source filter passes (the note speaks of those only)."""
    from rulebase.cli.common import say_notes
    from rulebase.rules.history import outside_note

    say_notes([note for when in dict.fromkeys(days) if when is not None
               if (note := outside_note(library.store, when, sources))])


def _echo_failure(exc: BaseException, json_out: bool = False) -> None:
    """Print what common.failure makes of an exception and exit with its code; with --json, the
    error as JSON on stdout too."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.cli.common import failure, failure_json
    from rulebase.cli.views.plain import printable

    lines, code = failure(exc)
    for line in lines:
        typer.echo(printable(line), err=True)
    if json_out:
        print_json(failure_json(exc))
    raise typer.Exit(code) from None


def funnel(fn):
    """The one place errors become messages and exit codes."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        invocation = state.current()
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except RulebaseError as exc:
            if invocation.traceback:
                raise
            _echo_failure(exc, bool(kwargs.get("json_out")))
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
        except BrokenPipeError:  # the reader went away (`rulebase changes | head -1`): not an error
            # lazy: each command loads only what it runs (cold start)
            from rulebase.cli.common import silence_output

            silence_output()
            raise typer.Exit(0) from None
        except Exception as exc:
            if invocation.traceback:
                raise
            _echo_failure(exc, bool(kwargs.get("json_out")))

    return wrapper


def _print_version(value: bool) -> None:
    if value:
        # lazy: each command loads only what it runs (cold start)
        from rulebase.cli.common import version_line

        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    index: Annotated[Path | None, typer.Option("--index", envvar="RULEBASE_INDEX", metavar="DIR",
                                               help=INDEX_HELP)] = None,
    traceback: Annotated[bool, typer.Option("--traceback", help=TRACEBACK_HELP)] = False,
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version,
                                          help="Print the version and exit.")] = False,
) -> None:
    ctx.obj = state.start(index, traceback)


def terminal():
    """The console for a terminal answer."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import make_console

    return make_console()


def ready_library(json_mode: bool = False, beside: bool = True):
    """The library with an index ready, showing a progress bar while it builds on a terminal.
    `beside`: a stale index whose documents changed answers now while it is rebuilt in the
    background (Library.ensure); what writes files from the index (the site, export) waits."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress

    # lazy: only the output form asked for
    from rulebase.cli.views.plain import printable

    library = state.current().library()
    with build_progress(enabled=not json_mode) as progress:
        library.notify = lambda message: typer.echo(f"warning: {message}", err=True)
        library.announce = lambda message: typer.echo(printable(f"note: {message}"), err=True)
        library.ensure(progress, beside=beside)
    if library.stale_reason:  # stderr, so --json output stays pure JSON
        typer.echo(printable(f"warning: {library.stale_reason}"), err=True)
    return library


def answer(json_out: bool, data: Callable[[], object], renderer: str, *args) -> None:
    """A read command's answer: with --json the data (built only then) as JSON; else the
    function `renderer` ("module.function" in rulebase.cli) draws `args` into a paged console.
    By name, so that --json never imports the renderers and rich."""
    if json_out:
        print_json(data())
        return
    # lazy: each command loads only what it runs (cold start)
    import importlib

    from rulebase.cli.console import paged

    module, function = renderer.rsplit(".", 1)
    with paged(terminal()) as console:
        getattr(importlib.import_module(f"rulebase.cli.{module}"), function)(console, *args)


def print_json(data) -> None:
    # lazy: only the output form asked for
    from rulebase.cli.views.shapes import dumps

    typer.echo(dumps(data))


def rebuild_after(library, json_out: bool, what: str):
    """Rebuild the index after the user corpus changed; the change stays if the build fails."""
    # lazy: rich (~40 ms) only for a terminal
    from rulebase.cli.console import build_progress
    from rulebase.core.errors import IndexError_

    library.reload()
    try:
        with build_progress(enabled=not json_out) as progress:
            return library.build(progress, force=False)
    except RulebaseError as exc:
        raise IndexError_(f"{what}, but the index was not rebuilt: {exc.message}",
                          hint="it rebuilds on next use of a writable --index") from None
