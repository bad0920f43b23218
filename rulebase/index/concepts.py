"""The concept table: each term the rules in force now name (a glossary entry, a chapter or a
rule's heading), as the index's analyser reads it, and the documents of the rules it names.

Written by build/concepts.py beside DOCMETA, read by the searcher: one JSON row a line, sorted
by term, then the CRC-32 of the rows on the last line (bit rot here would quietly reorder every
answer, so a mismatch is damage). A row is parsed only when a question names its term: parsing
the whole table (717 terms, 344 KB for the bundled corpus) cost a cold search 6-10 ms; reading
its terms alone costs under 1 ms.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator, Mapping

from rulebase.core.errors import DamagedData
from rulebase.core.paths import read_bytes

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path

CONCEPTS = "concepts.json"

Listed = Mapping[tuple[str, ...], list[int]]  # a table as the file lists it
_DOCS, _NAME, _CITING = 1, 2, 3  # a row: [tokens, documents, name, citing documents]; the last two optional


def write_concepts(path: Path, table: dict[tuple[str, ...], list[int]],
                   names: dict[tuple[str, ...], str] | None = None,
                   citing: dict[tuple[str, ...], list[int]] | None = None) -> None:
    """One row a term: its tokens, its documents and, when known, its name as the rules write it
    ("" when not) and the documents citing its rules (build/concepts.py). A token holding a quote
    or a backslash would be escaped in JSON, and the reader finds each row's term unparsed: such
    a term is refused here (the analyser's tokens are words)."""
    names, citing = names or {}, citing or {}
    for tokens in table:
        if not tokens or any('"' in t or "\\" in t for t in tokens):
            raise ValueError(f"a concept term the table cannot hold: {tokens!r}")
    rows = sorted([list(tokens), sorted(docs), *([names.get(tokens, "")] if tokens in names or citing.get(tokens) else []),
                   *([sorted(citing[tokens])] if citing.get(tokens) else [])]
                  for tokens, docs in table.items())
    data = b"\n".join(json.dumps(row, separators=(",", ":"), ensure_ascii=False).encode() for row in rows)
    path.write_bytes(data + b"\n" + str(zlib.crc32(data)).encode())


class ConceptRows:
    """The table's rows by term, each parsed when first asked for."""

    def __init__(self, lines: dict[tuple[str, ...], bytes], where: str):
        self.lines, self._where = lines, where
        self._parsed: dict[tuple[str, ...], list] = {}

    def row(self, term: tuple[str, ...]) -> list | None:
        if term not in self._parsed:
            line = self.lines.get(term)
            if line is None:
                return None
            try:
                row = json.loads(line)
            except ValueError:
                row = None
            if not (isinstance(row, list) and len(row) >= 2 and isinstance(row[_DOCS], list)):
                raise DamagedData(f"{CONCEPTS} holds a row that does not read", self._where,
                                  "run 'rulebase index build' to rebuild it")
            self._parsed[term] = row
        return self._parsed[term]


class Column(Mapping):
    """One column of the table (the documents, the names or the citing documents) by term."""

    def __init__(self, rows: ConceptRows, at: int):
        self.rows, self.at = rows, at

    def __getitem__(self, term: tuple[str, ...]):
        row = self.rows.row(term)
        if row is None or len(row) <= self.at or (self.at != _DOCS and not row[self.at]):
            raise KeyError(term)
        return row[self.at]

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        if self.at == _DOCS:  # (every row has its documents: the terms, without a parse)
            return iter(self.rows.lines)
        return (term for term in self.rows.lines if term in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def read_concepts(path: str | os.PathLike) -> tuple[Listed, Listed] | None:
    """The table and each term's citing documents (terms no rule cites left out), or None when
    the file is missing or fails its checksum."""
    rows = _rows(path)
    return None if rows is None else (Column(rows, _DOCS), Column(rows, _CITING))


def read_names(path: str | os.PathLike) -> Mapping[tuple[str, ...], str] | None:
    """Each term's name as the rules write it ("State-Based Actions"), or None as read_concepts.
    Read only for a query that needs it (an abbreviation): it parses every row."""
    rows = _rows(path)
    return None if rows is None else Column(rows, _NAME)


def _rows(path: str | os.PathLike) -> ConceptRows | None:
    """The rows by their term, read without parsing them: each line begins with its term's
    tokens, `[["state","based","actions"],`."""
    try:
        data, _, crc = read_bytes(path).rpartition(b"\n")
    except OSError:
        return None
    if not crc.isdigit() or zlib.crc32(data) != int(crc):
        return None
    lines = {}
    for line in data.split(b"\n") if data else ():
        end = line.find(b'"]')
        if not line.startswith(b'[["') or end < 0:
            return None
        try:
            lines[tuple(line[3:end].decode("utf-8").split('","'))] = line
        except UnicodeDecodeError:
            return None
    return ConceptRows(lines, os.fspath(path))
