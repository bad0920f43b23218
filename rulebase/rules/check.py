"""Checking the rule citations in files or text: each found in its written forms, resolved against
the rules of the day it was written (citation.Timeline), and reported where it no longer holds.

What counts as a citation (docs/reference.md says the same):
  - a Comprehensive Rules number after 'rule'/'rules', 'CR', 'C.R.', 'Comprehensive Rules', '§'
    or '¶' ('rule 702.19b', 'CR 704', 'rules 510.1c and 510.1d'), or alone in square brackets
    ('[704.3]'); a number is 100-999, optionally '.' and 1-3 digits and a letter;
  - a number of the full shape NNN.NNx (three digits from 100, a dot, digits and a letter:
    702.19b) anywhere, as no version number, address, date or decimal is written so;
  - a tournament document's section after its name in capitals: 'MTR 2.3', 'IPG 2.1', 'JAR 1',
    'DMTR 1.10', 'DTR 1.10', 'DIPG 2.1' (optionally 'section' or '§' between).
Not counted: a number that runs on into more digits or dots (192.168.1.1, 1.2.3, 702.19.1), or
letters (702.19bx), or follows a letter or digit (v702.19b).
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulebase.core.eras import today
from rulebase.core.errors import UsageError
from rulebase.index.store import RecordStore
from rulebase.rules.citation import CR, Status, Timeline, same_words

_NUM = r"[1-9]\d\d(?:\.\d{1,3}[a-z]?)?"
_END = r"(?![\w\u00c0-\uffff])(?!\.\d)"  # not running on into a longer word or number
_LIST = rf"{_NUM}{_END}(?:\s*(?:,|;|/|&|\band\b|\bor\b)\s*(?:and\s+|or\s+)?(?:rules?\s+)?{_NUM}{_END})*"
# the rule words in any case ('Rule', 'RULES', 'cr'); the documents' names in capitals only (a
# 'jar 1.5' is a jar)
_CITATION = re.compile(
    rf"(?P<ctx>(?<![\w.])(?i:rules?|CR|C\.R\.|Comprehensive\s+Rules?)\s*:?\s*|[§¶]\s*)(?P<list>{_LIST})"
    rf"|(?<![\w\])}}])\[\s*(?P<bracket>{_NUM})\s*\]"
    rf"|(?<![\w.])(?P<bare>[1-9]\d\d\.\d{{1,3}}[a-z]){_END}"
    rf"|(?<![\w.])(?P<doc>MTR|IPG|JAR|DMTR|DTR|DIPG)\s*(?:section\s+|§\s*)?"
    rf"(?P<section>\d{{1,2}}(?:\.\d{{1,2}}){{0,2}})(?!\w)(?!\.\d)")
_ONE = re.compile(_NUM + _END)
_DOCS = {"MTR": "mtr", "IPG": "ipg", "JAR": "jar", "DMTR": "dmtr", "DTR": "dmtr", "DIPG": "dipg"}


@dataclass(frozen=True, slots=True)
class Found:
    """A citation in a text: where, as written, and what it names."""

    line: int  # from 1
    column: int  # from 1
    written: str  # the number as written
    source: str  # cr, mtr, ipg, ...
    number: str


def find(text: str) -> Iterator[Found]:
    """Every citation in `text`, in order."""
    line, at = 1, 0
    for match in _CITATION.finditer(text):
        line += text.count("\n", at, match.start())
        at = match.start()
        if match["doc"]:
            yield _found(text, match.start("section"), line, match["section"], _DOCS[match["doc"].upper()])
        elif match["bracket"]:
            yield _found(text, match.start("bracket"), line, match["bracket"], CR)
        elif match["bare"]:
            yield _found(text, match.start("bare"), line, match["bare"], CR)
        else:
            base = match.start("list")
            for one in _ONE.finditer(match["list"]):
                pos = base + one.start()
                yield _found(text, pos, line + text.count("\n", at, pos), one.group(), CR)


def _found(text: str, pos: int, line: int, written: str, source: str) -> Found:
    column = pos - text.rfind("\n", 0, pos)
    number = written.lower() if source == CR else written
    return Found(line, column, written, source, number)


# -- resolving what was found -----------------------------------------------------------------


class Checker:
    """Resolves citations written on one day against the rules then and now: each document's
    versions are read once (Timeline), each number resolved once."""

    def __init__(self, store: RecordStore, when: int | None = None):
        self.store = store
        self.day = today() if when is None else when
        self.now = today()
        self._timelines: dict[str, Timeline] = {}
        self._statuses: dict[tuple[str, str], Status] = {}
        self._texts: dict[tuple[str, str], bool] = {}

    def status(self, source: str, number: str) -> Status:
        key = (source, number)
        found = self._statuses.get(key)
        if found is None:
            timeline = self._timelines.get(source)
            if timeline is None:
                timeline = self._timelines[source] = Timeline.read(self.store, source)
            found = self._statuses[key] = timeline.status(number, self.day, self.now)
        return found

    def text_changed(self, status: Status) -> bool:
        """The rule's words now differ from that day's (quotes, dashes and spacing aside)."""
        if status.then is None or status.now is None or status.then.id == status.now.id:
            return False
        key = (status.then.id, status.now.id)
        if key not in self._texts:
            then, now = (self.store.get(i) for i in key)
            self._texts[key] = bool(then and now and not same_words(then, now))
        return self._texts[key]


@dataclass(slots=True)
class Problem:
    """A citation that does not hold, with what it is now."""

    path: str
    found: Found
    status: Status
    text_changed: bool


@dataclass(slots=True)
class Report:
    day: int
    files: int = 0
    citations: int = 0
    problems: list[Problem] = field(default_factory=list)
    skipped: dict[str, list[str]] = field(default_factory=dict)  # why -> paths (binary, unreadable, too large)

    def count(self, state: str) -> int:
        return sum(1 for p in self.problems if p.status.state == state)

    @property
    def holding(self) -> int:
        return self.citations - len(self.problems)


def check_text(checker: Checker, text: str, path: str, report: Report) -> None:
    """Check one text's citations into `report`."""
    report.files += 1
    for found in find(text):
        report.citations += 1
        status = checker.status(found.source, found.number)
        if not status.holds:
            report.problems.append(Problem(path, found, status, checker.text_changed(status)))


# -- files --------------------------------------------------------------------------------------

MAX_BYTES = 20_000_000  # a file larger than this is no text anybody cites rules in: skipped, and said
_SNIFF = 8192  # a NUL byte in the first this many bytes: binary
_VCS = {".git", ".hg", ".svn", ".bzr"}


def check_paths(store: RecordStore, paths: Iterable[str], when: int | None = None) -> Report:
    """Check every text file under `paths` (files as given; folders recursively, what git ignores
    and symbolic links left out)."""
    checker = Checker(store, when)
    report = Report(checker.day)
    for path in files_of(paths):
        text = _read(path, report)
        if text is not None:
            check_text(checker, text, path, report)
    return report


def require(paths: Iterable[str]) -> None:
    """UsageError for the first path that does not exist."""
    for path in paths:
        if not os.path.lexists(path):
            raise UsageError(f"no such file or folder: {path}", hint="give files or folders to check")


def files_of(paths: Iterable[str]) -> Iterator[str]:
    """The files to read: each file named, and each folder's files, recursively. In a git work
    tree a folder's files are the ones git lists (tracked, or untracked and not ignored); outside
    one, every file under it but version-control folders. Symbolic links inside a folder are not
    followed (a link could lead anywhere)."""
    paths = list(paths)
    require(paths)
    for path in paths:
        if os.path.isdir(path):
            listed = _git_files(path)
            for name in (listed if listed is not None else _walk(path)):
                if not os.path.islink(name) and os.path.isfile(name):
                    yield name
        else:
            yield path


def _git_files(folder: str) -> list[str] | None:
    """The files git lists under `folder` (tracked, and untracked but not ignored), or None when
    it is no git work tree (or git is not installed)."""
    try:
        done = subprocess.run(["git", "-C", folder, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                              capture_output=True, timeout=120, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    names = [os.fsdecode(n) for n in done.stdout.split(b"\0") if n]
    return [os.path.join(folder, n) for n in dict.fromkeys(names)]


def _walk(folder: str) -> Iterator[str]:
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in _VCS)
        for name in sorted(files):
            yield os.path.join(root, name)


def _read(path: str, report: Report) -> str | None:
    """A file's text, or None (and the reason in report.skipped) for a binary, unreadable or
    oversized file."""
    try:
        size = os.path.getsize(path)
        if size > MAX_BYTES:
            report.skipped.setdefault("too large", []).append(path)
            return None
        data = Path(path).read_bytes()
    except OSError as exc:
        report.skipped.setdefault(f"unreadable ({exc.strerror or exc})", []).append(path)
        return None
    if b"\0" in data[:_SNIFF]:
        report.skipped.setdefault("binary", []).append(path)
        return None
    return data.decode("utf-8", errors="replace")
