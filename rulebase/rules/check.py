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
import stat
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

from rulebase.core.eras import today
from rulebase.core.errors import UsageError
from rulebase.core.value import Frozen, Value
from rulebase.index.store import RecordStore
from rulebase.rules.citation import CR, Status, Timeline, change_of

# Every Comprehensive Rules citation holds a number of this shape: it is found first (a regular
# expression this plain scans a large tree fast), then what stands before and after it decides
# whether it is a citation (_cited). Tournament sections are found by their documents' names.
_NUMBER = re.compile(r"[1-9]\d\d(?:\.\d{1,3}[a-z]?)?")
_WORDS = ("rules", "rule", "cr", "c.r.", "comprehensive rules", "comprehensive rule")
_SIGNS = ("§", "¶")
_LOOK_BACK = 24  # characters before a number that may hold its context ('Comprehensive Rules: ')
_JOINED = re.compile(r"\s*(?:,|;|/|&|and\b|or\b)\s*(?:(?:and|or)\s+)?(?:rules?\s+)?")  # 'rules 510.1c and 510.1d'
_CLOSE = re.compile(r"\s*\]")
_DOC = re.compile(r"(?<![\w.])(?P<doc>MTR|IPG|JAR|DMTR|DTR|DIPG)\s*(?:section\s+|§\s*)?"
                  r"(?P<section>\d{1,2}(?:\.\d{1,2}){0,2})(?!\w)(?!\.\d)")
_DOCS = {"MTR": "mtr", "IPG": "ipg", "JAR": "jar", "DMTR": "dmtr", "DTR": "dmtr", "DIPG": "dipg"}


class Found(Frozen):
    """A citation in a text: where, as written, and what it names."""

    __slots__ = ("line", "column", "written", "source", "number")

    def __init__(self, line: int, column: int, written: str, source: str, number: str) -> None:
        object.__setattr__(self, "line", line)  # from 1
        object.__setattr__(self, "column", column)  # from 1
        object.__setattr__(self, "written", written)  # the number as written
        object.__setattr__(self, "source", source)  # cr, mtr, ipg, ...
        object.__setattr__(self, "number", number)


def find(text: str) -> Iterator[Found]:
    """Every citation in `text`, in order."""
    places = [(m.start("section"), m["section"], _DOCS[m["doc"]]) for m in _DOC.finditer(text)] \
        if "MTR" in text or "IPG" in text or "JAR" in text or "DTR" in text else []
    listed = -1  # where the last citation after a rule word ended: a list may go on from there
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        after = text[end:end + 1]
        if after and (after.isalnum() or after == "_" or (after == "." and text[end + 1:end + 2].isdigit())):
            continue  # runs on: 702.19bx, 1.2.3's tail, 702.19.1
        how = _cited(text, start, end, match.group(), listed)
        if how:
            places.append((start, match.group(), CR))
            listed = end if how == "word" else -1
    if len(places) > 1:
        places.sort()
    line, at = 1, 0
    for pos, written, source in places:
        line += text.count("\n", at, pos)
        at = pos
        yield _found(text, pos, line, written, source)


def _cited(text: str, start: int, end: int, number: str, listed: int) -> str:
    """How the number at text[start:end] is a citation: "word" (after a rule word, a sign or in a
    list after one), "bracket", "shape" (702.19b alone), or "" (none)."""
    if listed >= 0 and _JOINED.fullmatch(text, listed, start):
        return "word"
    before = text[max(0, start - _LOOK_BACK):start].rstrip()
    if before.endswith(":"):
        before = before[:-1].rstrip()
    low = before[-20:].lower()
    if low.endswith(_WORDS):
        for word in _WORDS:
            if low.endswith(word) and _edge(low, len(low) - len(word)):
                return "word"
    if before.endswith(_SIGNS):
        return "word"
    if before.endswith("[") and _edge(before, len(before) - 1, "])}") and _CLOSE.match(text, end):
        return "bracket"
    if "." in number and number[-1].isalpha() and _edge(text, start):
        return "shape"
    return ""


def _edge(text: str, at: int, also: str = ".") -> bool:
    """Nothing word-like stands just before text[at] (no letter, digit, '_' or one of `also`)."""
    if at <= 0:
        return True
    ch = text[at - 1]
    return not (ch.isalnum() or ch == "_" or ch in also)


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
        self._texts: dict[tuple[str, str], str] = {}  # (then id, now id) -> change_of

    def status(self, source: str, number: str) -> Status:
        key = (source, number)
        found = self._statuses.get(key)
        if found is None:
            timeline = self._timelines.get(source)
            if timeline is None:
                timeline = self._timelines[source] = Timeline.read(self.store, source)
            found = self._statuses[key] = timeline.status(number, self.day, self.now)
        return found

    def settle(self, problems: list[Problem]) -> None:
        """Whether each problem's rule has other words now than that day (quotes, dashes and
        spacing aside): the texts of all their versions read at once, in batches."""
        pairs = {(p.status.then.id, p.status.now.id) for p in problems
                 if p.status.then is not None and p.status.now is not None and p.status.then.id != p.status.now.id}
        wanted = sorted({i for pair in pairs for i in pair} - {i for pair in self._texts for i in pair})
        records = {}
        for at in range(0, len(wanted), BATCH):
            records.update({r.id: r for r in self.store.get_many(wanted[at:at + BATCH])})
        for then, now in pairs - self._texts.keys():
            a, b = records.get(then), records.get(now)
            self._texts[then, now] = change_of(a, b) if a and b else "same"
        for problem in problems:
            status = problem.status
            if status.then is not None and status.now is not None:
                problem.change = self._texts.get((status.then.id, status.now.id), "same")


BATCH = 500  # record ids per query (SQLite's limit on a statement's variables is 999 in old builds)


class Problem(Value):
    """A citation that does not hold, with what it is now."""

    __slots__ = ("path", "found", "status", "change")

    def __init__(self, path: str, found: Found, status: Status, change: str = "same") -> None:
        self.path = path
        self.found = found
        self.status = status
        self.change = change  # its words then -> now, as citation.change_of says (Checker.settle decides)

    @property
    def text_changed(self) -> bool:
        return self.change != "same"


class Report(Value):
    __slots__ = ("day", "files", "citations", "problems", "skipped")

    def __init__(self, day: int, files: int = 0, citations: int = 0, problems: list[Problem] | None = None,
                 skipped: dict[str, list[str]] | None = None) -> None:
        self.day = day
        self.files = files
        self.citations = citations
        self.problems = [] if problems is None else problems
        self.skipped = {} if skipped is None else skipped  # why -> paths (binary, unreadable, too large)

    def count(self, state: str) -> int:
        return sum(1 for p in self.problems if p.status.state == state)

    @property
    def holding(self) -> int:
        return self.citations - len(self.problems)


def check_text(checker: Checker, text: str, path: str, report: Report) -> None:
    """Check one text's citations into `report` (then Checker.settle says which texts changed)."""
    report.files += 1
    for found in find(text):
        report.citations += 1
        status = checker.status(found.source, found.number)
        if not status.holds:
            report.problems.append(Problem(path, found, status))


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
    checker.settle(report.problems)
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
    oversized file, or no regular file at all (a device or a pipe named: /dev/zero never ends)."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            report.skipped.setdefault("not a regular file", []).append(path)
            return None
        if info.st_size > MAX_BYTES:
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
