"""The command line's grammar on top of typer and click: help printed as written with an
Examples section, the global options accepted after the command, and usage errors as two lines
(what was wrong, then the usage and where -h is) with exit 2.
"""

from __future__ import annotations

import functools
import inspect
import sys
from pathlib import Path

import click
from typer.core import TyperCommand, TyperGroup

from rulebase.cli import common as state
from rulebase.core.errors import RulebaseError


def examples_section(*lines: tuple[str, str]) -> str:
    """An "Examples:" section of (command line, comment) pairs, the comments aligned."""
    width = max(len(line) for line, _ in lines)
    return "Examples:\n" + "\n".join(f"  {line:<{width}}  # {note}" for line, note in lines)


class _Verbatim:
    """The epilog (Examples) prints as written, a section like "Options:", instead of being
    re-wrapped by click into one indented paragraph. Help is plain text (rich_markup_mode=None)."""

    def format_epilog(self, ctx, formatter) -> None:
        if self.epilog:
            formatter.write_paragraph()
            formatter.write(self.epilog.rstrip("\n") + "\n")


class _Context:
    """Usage errors carry the command they are about: click raises an option's missing value
    without it, and the error could then not name the command's usage and help."""

    def parse_args(self, ctx, args):
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            if exc.ctx is None:
                exc.ctx = ctx
            raise


class Group(_Context, _Verbatim, TyperGroup):
    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode: bool = True, **extra):
        """Run the command line; a usage error (an unknown command or option, a missing or
        extra argument, a bad value) is two lines on stderr and exit 2: what was wrong, then
        the usage and where the help is. Click's own four lines ended, for `rulebase lokup`,
        "Did you mean 'lookup'? Did you mean 'lookup'?" (typer and click each added it)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:  # `rulebase` alone: the help, as before
            exc.show()
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            # lazy: only the output form asked for
            from rulebase.cli.views.plain import printable

            lines = usage_lines(exc)
            for line in lines:
                click.echo(printable(line), err=True)
            # lazy: only this rarer path needs it
            from rulebase.cli.common import json_asked, usage_json

            if json_asked(list(sys.argv[1:] if args is None else args)):  # --json answers in JSON, errors too
                from rulebase.cli.views.shapes import dumps

                click.echo(dumps(usage_json(lines)))
            sys.exit(2)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def usage_lines(exc: click.UsageError) -> list[str]:
    """A usage error as two lines: 'error: ' and what was wrong; then the command's usage and
    its help option (one line when there is no command to name)."""
    ctx = exc.ctx
    lines = [f"error: {_usage_what(exc)}"]
    if ctx is not None:
        usage = " ".join(ctx.get_usage().removeprefix("Usage:").split())
        what = "lists the commands" if isinstance(ctx.command, click.Group) else "shows its options and examples"
        lines.append(f"usage: {usage} ('{ctx.command_path} -h' {what})")
    return lines


def _did_you_mean(possibilities) -> str:
    return f" - did you mean {' or '.join(map(repr, possibilities))}?" if possibilities else ""


def _usage_what(exc: click.UsageError) -> str:
    """What was wrong, worded once: click's message, lower-cased, with our own words for the
    common slips."""
    # lazy: only this rarer path needs it
    import re

    no_such_command = getattr(click.exceptions, "NoSuchCommand", ())
    if no_such_command and isinstance(exc, no_such_command):
        return f"no command {exc.command_name!r}{_did_you_mean(exc.possibilities)}"
    if isinstance(exc, click.NoSuchOption):
        if re.fullmatch(r"-[\d+*xX].*", exc.option_name or ""):  # "-1/-1 counters": a query, not an option
            return (f"no option {exc.option_name!r} - a query that starts with '-' goes after '--' (the options "
                    f"before it), e.g. rulebase search -n 3 -- \"-1/-1 counters\"")
        return f"no option {exc.option_name!r}{_did_you_mean(exc.possibilities)}"
    message = " ".join(exc.format_message().split())
    extra = re.fullmatch(r"Got unexpected extra arguments? \((.*)\)", message)
    if extra:
        return f"unexpected extra argument {extra.group(1)!r} (a name that has spaces goes in quotes)"
    option = re.fullmatch(r"Option '(.*)' requires an argument\.", message)
    if option:
        return f"option {option.group(1)} needs a value"
    if message == "Missing command." and exc.ctx is not None:
        return "missing command - choose from " + ", ".join(exc.ctx.command.list_commands(exc.ctx))
    if message[:1].isupper() and not message[1:2].isupper():
        message = message[0].lower() + message[1:]
    return message.removesuffix(".")


class SubGroup(Group):
    """`rulebase index` and `rulebase glossary`: they take the global options too
    (`rulebase index --index DIR status`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.params.extend(_global_options())


class Command(_Context, _Verbatim, TyperCommand):
    """A command that also takes the global options, after its name: `rulebase lookup 502.83a
    --index DIR` is `rulebase --index DIR lookup 502.83a`. Click parses them (`--index=DIR`, `--`,
    values that look like options); given before and after the command, the later wins."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.params.extend(_global_options())

    def format_help(self, ctx, formatter) -> None:
        _restore_argument_help(self)
        super().format_help(ctx, formatter)

    def format_arguments(self, ctx, formatter) -> None:
        """Nothing: typer's "Arguments:" section lists them already (click 8.5 would list them twice)."""


INDEX_HELP = "Index directory (default: ./index in a checkout)."
TRACEBACK_HELP = "Show Python tracebacks (for developers)."


@functools.cache
def _global_options() -> tuple[click.Option, ...]:
    """--index and --traceback for every command (made once: click options hold no per-command
    state). They update the state the root callback made (it runs before a command's options are
    parsed) and are not passed to the command function. No envvar: RULEBASE_INDEX is the root
    option's default, never an override of `--index DIR`."""

    def set_index(ctx, param, value: Path | None) -> None:
        if value is not None:
            state.current().override(index=value)

    def set_traceback(ctx, param, value: bool) -> None:
        if value:
            state.current().override(traceback=True)

    return (click.Option(["--index"], type=click.Path(path_type=Path), metavar="DIR", expose_value=False,
                         callback=set_index, help=INDEX_HELP),
            click.Option(["--traceback"], is_flag=True, expose_value=False, callback=set_traceback,
                         help=TRACEBACK_HELP))


def _restore_argument_help(command) -> None:
    """Give each argument its help back. typer 0.24 sets it on the click Argument and then calls
    click's constructor, which since click 8.5 sets `help` itself (to None): arguments showed only
    "[required]". Restored when help is shown, so running a command costs nothing."""
    missing = [p for p in command.params if p.param_type_name == "argument" and not p.help]
    if not missing or command.callback is None:
        return
    # lazy: only this rarer path needs it
    from typer.utils import get_params_from_function

    declared = get_params_from_function(inspect.unwrap(command.callback))
    for param in missing:
        meta = declared.get(param.name)
        param.help = getattr(meta.default, "help", None) if meta else None


class CompareCommand(Command):
    """`compare --help` also lists the curated topics, read from corpus/topics.toml only when help
    is shown (importing this module reads nothing)."""

    def format_epilog(self, ctx, formatter) -> None:
        # lazy: each command loads only what it runs (cold start)
        from rulebase.core.sources import default_corpus_dir
        from rulebase.rules.compare import TOPICS_FILE, load_topics

        try:
            names = [topic.name for topic in load_topics(Path(default_corpus_dir()) / TOPICS_FILE)]
            listed = _pack(names, max(formatter.width, 60) - 2, "  ") or ["  (none)"]
        except RulebaseError as exc:
            listed = [f"  (unavailable: {exc.message})"]
        formatter.write_paragraph()
        formatter.write("Curated topics (or their aliases; other words are searched in each edition):\n")
        formatter.write("\n".join(listed) + "\n")
        super().format_epilog(ctx, formatter)


def _pack(items: list[str], width: int, indent: str) -> list[str]:
    """Comma-separated items on lines of at most `width` characters, never breaking an item."""
    lines: list[str] = []
    line = ""
    for n, item in enumerate(items):
        piece = item + ("," if n < len(items) - 1 else "")
        if line and len(indent) + len(line) + 1 + len(piece) > width:
            lines.append(indent + line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    return [*lines, indent + line] if line else lines
