"""Typed errors: the core raises these, the CLI turns them into one line and an exit code."""

from __future__ import annotations


class RulebaseError(Exception):
    """Base class. `exit_code` is what the CLI exits with; str(self) is the one-line message."""

    exit_code = 2

    def __init__(self, what: str, where: str | None = None, hint: str | None = None) -> None:
        self.what = what
        self.where = where
        self.hint = hint
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """One line; what and where echo inputs (a 100 kB query), so each is cut to ECHO_LIMIT."""
        parts = [f"{bounded(self.where)}: {bounded(self.what)}" if self.where else bounded(self.what)]
        if self.hint:
            parts.append(bounded(self.hint))
        return " - ".join(parts)


ECHO_LIMIT = 400  # characters of one part of a message (what, where, hint) before its middle is cut


def bounded(text: str, limit: int = ECHO_LIMIT) -> str:
    """`text`, or its first and last limit/2 characters and how many were cut between: a message
    that echoes an input stays one readable line whatever the input's length."""
    if len(text) <= limit:
        return text
    keep = limit // 2
    return f"{text[:keep]}… [{len(text) - 2 * keep} characters cut] …{text[-keep:]}"


class SourceError(RulebaseError):
    """A source file is missing, empty, undecodable, or not in the expected format."""


class NotText(SourceError):
    """A file given as a rules document is not text: a program, an archive, an image, a PDF.
    `kind` says what it looks like ("an ELF program", "binary data"); the CLI words the message."""

    def __init__(self, path: str, kind: str) -> None:
        self.path, self.kind = path, kind
        super().__init__(f"not a text file ({kind})", path, "give a rules document saved as plain text")


class BuildExhausted(SourceError):
    """A build ran out of memory, or one of its worker processes was killed (as the kernel's OOM
    killer does): the documents it was building are the likeliest cause, so it is handled as a
    document that cannot be built (an `add` takes it out again; reads keep the last index)."""


class ManifestError(RulebaseError):
    """corpus/sources.toml is missing, malformed, or names something that does not exist."""


class IndexError_(RulebaseError):
    """The index cannot be read, written or rebuilt."""


class NotFound(RulebaseError):
    """A lookup found nothing. Exit code 1, as the CLI contract says."""

    exit_code = 1

    def __init__(self, what: str, suggestions: list[str] | None = None, hint: str | None = None):
        self.suggestions = suggestions or []
        super().__init__(what, hint=hint)


class UsageError(RulebaseError):
    """The user asked for something that makes no sense (bad option value, bad ref)."""


class IndexBusy(IndexError_):
    """Another command holds the index's build lock (an add, a remove): a read that would build
    answers from the last generation instead of waiting for it."""


class DiskFull(IndexError_):
    """A build ran out of space (ENOSPC, EDQUOT, SQLite's 'disk is full'): nothing was published."""


class DamagedData(IndexError_):
    """Data read from the index failed its checksum (bit rot, a stray write): the index is
    rebuilt and the question answered again, never answered from the damaged bytes."""


class Unreadable(IndexError_):
    """An index file this user may not read (mode 000, another owner): not damage, so never
    "repaired" by a rebuild that would hide it; the message says which file and what to do."""
