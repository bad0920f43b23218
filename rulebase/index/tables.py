"""Small tables a search reads of the glossary and the MTR, computed once per build: each row with
the days it holds, so the reader picks what is in force on the day asked.

- The glossary's obsolete entries (title, text, and since when their lineage is obsolete): what
  older rules called today's terms ("converted mana cost": mana value) and the terms no rule names
  now ("mana burn"), search/term_history.py.
- The words of the glossary's other titles, each with the days a title held it: a word of older
  rules the glossary still names ("summoning sickness") is no question about the past.
- The MTR's table of Rules Enforcement Levels (Appendix F): which level each program runs at.

A search found each from the index, on every new process: the obsolete entries 7.7 ms (their
title's postings, then their records), the table of levels 4.9 ms (its section by title in SQL,
then its rows), the glossary's words 69 ms (every glossary title in force, read and analysed) for
the questions that ask it. Here each is a line of JSON, parsed when first asked for (the obsolete
entries, 68 KB, in 0.3 ms); the last line is the CRC-32 of the rest (bit rot here would change
which questions read as asking the past).
"""

from __future__ import annotations

import json
import re
import zlib

from rulebase.core.eras import OPEN_END, next_day
from rulebase.core.errors import DamagedData
from rulebase.core.paths import read_bytes
from rulebase.core.records import fold_accents as fold

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from rulebase.core.records import Record

TABLES = "tables.json"

# The MTR's Appendix F, "Rules Enforcement Levels of Programs": a row is the program, then its
# level, a footnote's star and a parenthesis ("(Competitive recommended)").
LEVELS = ("Regular", "Competitive", "Professional")
PROGRAMS_TITLE = ("rules enforcement levels of programs",)
_ROW = re.compile(rf"(.+?)\s*\*?\s+({'|'.join(LEVELS)})\*?(?:\s*\([^)]*\))?(?=\s|$)")
_OBSOLETE = "(obsolete)"


def words(text: str) -> str:
    """The text's words, folded and lower case, one space apart (how program names are matched)."""
    return " ".join(re.findall(r"[\w'’]+", fold(text).lower()))


def programs(text: str) -> dict[str, str]:
    """Appendix F's table as {folded program name: level}; the chart's heading row and its
    footnotes are not programs."""
    body = " ".join(text.split())
    body = body.split("Program Rules Enforcement Level", 1)[-1]  # (the chart's heading row)
    found = {}
    for match in _ROW.finditer(body):
        name = words(match[1])
        if 0 < len(name.split()) <= 6:
            found[name] = match[2]
    return found


def compute_tables(records: list[Record], windows: dict[str, tuple[int, int]], documents: list[tuple],
                   analyse: Callable[[str], list[str]]) -> dict:
    """The tables of an index: `documents` are its documents in document order, as (record shown,
    window, ...) (writer.documents_of); `records` every record, `windows` their days in force;
    `analyse` the text field's analyser (a text's tokens)."""
    obsolete = analyse("obsolete")[0]
    held = []  # (record, window) of the documents whose title field holds the word
    since: dict[str, int] = {}  # a lineage's first day under such a title
    glossary: dict[str, list[list[int]]] = {}
    for record, window, *_ in documents:
        title = " ".join([record.title or "", *record.aliases]).strip()
        if record.lang != "hu" and "obsolet" in title.lower() and obsolete in analyse(title):
            held.append((record, window))
            group = record.lineage or record.id
            since[group] = min(window[0], since.get(group, window[0]))
        if record.kind == "glossary" and _OBSOLETE not in (record.title or "").lower():
            for token in dict.fromkeys(analyse(record.title or "")):
                glossary.setdefault(token, []).append(list(window))
    entries = [[*window, since[r.lineage or r.id], r.title, r.text] for r, window in held
               if _OBSOLETE in (r.title or "").lower()]
    levels = [[*windows.get(r.id, (0, OPEN_END)), programs(r.text)] for r in records
              if r.source == "mtr" and r.kind == "section" and r.span
              and all(w in (r.title or "").lower() for w in PROGRAMS_TITLE)]
    return {"obsolete": entries, "glossary": {t: _merged(w) for t, w in sorted(glossary.items())}, "programs": levels}


def _merged(windows: list[list[int]]) -> list[list[int]]:
    """The days of overlapping or consecutive windows as one."""
    out: list[list[int]] = []
    for first, last in sorted(windows):
        if out and first <= next_day(out[-1][1]):
            out[-1][1] = max(out[-1][1], last)
        else:
            out.append([first, last])
    return out


_NAMES = ("obsolete", "glossary", "programs")  # a line each, in this order


def write_tables(path: Path, tables: dict) -> None:
    """A table a line (each parsed when first asked for), then the CRC-32 of the lines."""
    data = b"\n".join(json.dumps(tables[name], separators=(",", ":"), ensure_ascii=False).encode()
                      for name in _NAMES)
    path.write_bytes(data + b"\n" + str(zlib.crc32(data)).encode())


class Tables:
    """An index's tables, each parsed when first asked for; each answer as of a day."""

    def __init__(self, path: str):
        self._path = path
        try:
            data, _, crc = read_bytes(path).rpartition(b"\n")
            lines = data.split(b"\n")
            if not crc.isdigit() or zlib.crc32(data) != int(crc) or len(lines) != len(_NAMES):
                raise ValueError
        except (OSError, ValueError):
            raise self._damaged() from None
        self._lines, self._parsed = dict(zip(_NAMES, lines, strict=True)), {}

    def _damaged(self) -> DamagedData:
        return DamagedData(f"{TABLES} is missing or fails its checksum", self._path,
                           "run 'rulebase index build' to rebuild it")

    def _table(self, name: str):
        if name not in self._parsed:
            try:
                self._parsed[name] = json.loads(self._lines[name])
            except ValueError:
                raise self._damaged() from None
        return self._parsed[name]

    def obsolete_glossary(self, day: int) -> list[tuple[str, str, int]]:
        """(title, text, the first day its lineage was obsolete) of the glossary entries in force
        on `day` marked '(Obsolete)', in order."""
        return sorted((title, text, since) for first, last, since, title, text in self._table("obsolete")
                      if first <= day <= last)

    def glossary_words(self, day: int) -> set[str]:
        """The tokens of the glossary's titles in force on `day`, obsolete entries aside."""
        return {token for token, held in self._table("glossary").items()
                if any(first <= day <= last for first, last in held)}

    def programs(self, day: int) -> dict[str, str]:
        """The table of levels of the MTR release in force on `day` ({} without the MTR)."""
        current = [table for first, last, table in self._table("programs") if first <= day <= last]
        return current[-1] if current else {}
