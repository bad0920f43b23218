"""What both entry paths share: the version line, the one error funnel, pipe handling and the
search filters' validation. Imports nothing heavy at module level: the fast path loads it on
every `rulebase lookup`.
"""

from __future__ import annotations

import errno
import os
import sys

from rulebase.core.errors import NotFound, NotText, RulebaseError, bounded

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path


def failure(exc: BaseException) -> tuple[list[str], int]:
    """The lines (unescaped) and the exit code an exception becomes, for either entry path:
    not found 1 with candidates, a usage or input error its own code, anything else 3."""
    if isinstance(exc, NotFound):
        lines = [f"error: {exc.message}"]
        if exc.suggestions:
            lines.append("did you mean: " + ", ".join(exc.suggestions))
        return lines, 1
    if isinstance(exc, NotText):
        return [f"error: {exc.path} is not a text file (it looks like {exc.kind}) - 'rulebase add' reads rules "
                "documents saved as plain text"], exc.exit_code
    if isinstance(exc, RulebaseError):
        return [f"error: {exc.message}"], exc.exit_code
    if output_failed(exc):
        drop_output()  # what is still buffered would fail again at exit
        return [f"error: cannot write the answer to standard output ({exc.strerror}) - check where the output "
                "goes (a full disk, a closed or read-only file)"], 2
    return [f"error: internal error: {type(exc).__name__}: {bounded(str(exc))} (run with --traceback for details)"], 3


def failure_json(exc: BaseException) -> dict:
    """What --json writes on stdout for an error, beside the lines on stderr (docs/reference.md,
    JSON shapes, errors): the message, what to do next, any suggestions and the exit code."""
    lines, code = failure(exc)
    hint = exc.hint if isinstance(exc, RulebaseError) else None
    what = lines[0].removeprefix("error: ")
    if isinstance(exc, RulebaseError) and not isinstance(exc, NotText):  # (the hint on its own)
        what = f"{exc.where}: {exc.what}" if exc.where else exc.what
    return {"error": what, "hint": hint,
            "suggestions": list(getattr(exc, "suggestions", []) or []), "exit_code": code}


def usage_json(lines: list[str]) -> dict:
    """A usage error's --json form: the same shape as failure_json's, exit code 2."""
    return {"error": lines[0].removeprefix("error: "), "hint": lines[1] if len(lines) > 1 else None,
            "suggestions": [], "exit_code": 2}


def json_asked(argv: list[str]) -> bool:
    """Whether --json is among a command line's options (before any `--`)."""
    options = argv[:argv.index("--")] if "--" in argv else argv
    return "--json" in options


def version_line() -> str:
    """What `rulebase --version` prints."""
    return f"rulebase {package_version()}"


def package_version() -> str:
    """The installed distribution's version, else (a checkout run without installing) pyproject's."""
    # lazy: only this rarer path needs it
    from importlib import metadata

    try:
        return metadata.version("rulebase")
    except metadata.PackageNotFoundError:
        pass
    # lazy: only this rarer path needs it
    import tomllib
    from pathlib import Path

    try:
        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        return str(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"])
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError):
        # lazy: each command loads only what it runs (cold start)
        from rulebase import __version__

        return __version__


_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF}


def output_failed(exc: BaseException) -> bool:
    """Whether `exc` is a write to standard output that failed (`> /dev/full`, a full disk, a
    descriptor closed under us): an OSError with no file name. Every file this tool opens itself
    is named in its errors, and the index's and the user corpus's writes become typed errors."""
    return (isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError) and exc.errno in _OUTPUT_ERRNOS
            and exc.filename is None)


def drop_output() -> None:
    """Point standard output at /dev/null (stderr stays): after a write to it failed."""
    # lazy: only this rarer path needs it
    from contextlib import suppress

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        with suppress(OSError, ValueError, AttributeError):  # closed, or not a real file (tests)
            os.dup2(devnull, sys.stdout.fileno())
    finally:
        os.close(devnull)


def standard_streams() -> str | None:
    """Make sure descriptors 0-2 are open before any file is: a closed one (`>&-`) is taken by
    the next file opened, and a write meant for the terminal would land in it (the index's
    records.db). stdin and stderr are opened on /dev/null; a closed stdout is an error to report
    (the answer has nowhere to go): its message, else None."""
    closed = []
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
    for fd in closed:
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    if 2 in closed:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
    if 0 in closed:
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    if 1 in closed or sys.stdout is None:
        return ("error: standard output is closed - give the command somewhere to write its answer "
                "(a terminal, a pipe or a file; '> /dev/null' to discard it)")
    return None


def silence_output() -> None:
    """After a broken pipe: point stdout and stderr at /dev/null, so that what is still buffered
    is flushed there at exit instead of failing again (Python would print 'Exception ignored'
    and exit 120). Nothing is printed after this: the reader is gone."""
    # lazy: only this rarer path needs it
    from contextlib import suppress

    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (sys.stdout, sys.stderr):
            with suppress(OSError, ValueError, AttributeError):  # closed, or not a real file (tests)
                os.dup2(devnull, stream.fileno())
    finally:
        os.close(devnull)


def check_filters(library, filters: dict[str, list[str]]) -> dict[str, list[str]]:
    """Search filters as the index spells them; a value no record carries is a usage error that
    lists the choices (a misspelt --edition used to find nothing and exit 1, like a real miss).

    Editions, languages and sources are read from the full-text index's own terms (what a filter
    can match, era labels of archive versions and added documents included; a fraction of a
    millisecond); kinds are the documented ones."""
    # lazy: each command loads only what it runs (cold start)
    from rulebase.core.errors import UsageError

    if not any(filters.values()):
        return filters
    checked = {}
    for name, values in filters.items():
        if not values:
            checked[name] = values
            continue
        choices = _choices(library, name)
        known = set(choices)
        spelt = [v if v in known else v.lower() for v in values]
        unknown = [v for v, s in zip(values, spelt, strict=True) if s not in known]
        if unknown:
            raise UsageError(f"unknown {_NOUNS.get(name, name)} {', '.join(map(repr, unknown))}",
                             hint="choose from " + ", ".join(choices))
        checked[name] = list(dict.fromkeys(spelt))
    return checked


_NOUNS = {"lang": "language"}


def _choices(library, name: str) -> list[str]:
    """The values filter `name` can take, in the order users read them."""
    if name == "kind":
        # lazy: each command loads only what it runs (cold start)
        from rulebase.core.records import KINDS

        return list(KINDS)
    terms = [t.decode("utf-8") for t in library.searcher.reader.lexicon(name)]
    if name == "edition":
        # lazy: each command loads only what it runs (cold start)
        from rulebase.core.sources import edition_rank

        return sorted(terms, key=lambda label: (edition_rank(label), label))
    if name == "source":
        ranked = [d for d in library.store.documents() if d in terms]
        return ranked + sorted(set(terms) - set(ranked))
    return sorted(terms)


def say_notes(notes: list[str]) -> None:
    """Notes about an answer (a query shortened, a date past the newest release), on stderr so
    that --json output stays JSON only."""
    from rulebase.cli.views.plain import printable  # lazy: each command loads only what it runs (cold start)

    for note in notes:
        print(printable(f"note: {note}"), file=sys.stderr)


# --- The global options' values for one invocation (--index, --traceback), and the library they
# open: set by the root callback, updated by the same options given after the command (usage.py).

class State:
    def __init__(self, index: Path | None, traceback: bool):
        self.index = index
        self.traceback = traceback
        self._library = None

    def override(self, index: Path | None = None, traceback: bool = False) -> None:
        """Global options given after the command: they win over those before it."""
        if index is not None:
            self.index, self._library = index, None
        self.traceback = self.traceback or traceback

    def library(self):
        if self._library is None:
            # lazy: each command loads only what it runs (cold start)
            from rulebase.library import Library

            self._library = Library(self.index, typed=self.index is not None)  # (--index or RULEBASE_INDEX)
            self._library.notify = _warn  # what a build refused or repaired: one line each, on stderr
        return self._library


def _warn(message: str) -> None:
    # lazy: each command loads only what it runs (cold start)
    import sys

    from rulebase.cli.views.plain import printable

    print(printable(f"warning: {message}"), file=sys.stderr)


_STATE = State(None, False)  # replaced by the root callback on every invocation


def start(index: Path | None, traceback: bool) -> State:
    """A new invocation's state (the root callback, before any command's options)."""
    global _STATE
    _STATE = State(index, traceback)
    return _STATE


def current() -> State:
    return _STATE
