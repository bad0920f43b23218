"""The concept table: each term the rules in force now name (a glossary entry, a chapter or a
rule's heading), as the index's analyser reads it, and the documents of the rules it names.

Written by build/concepts.py beside DOCMETA, read by the searcher: JSON, then its CRC-32 on the
last line (bit rot here would quietly reorder every answer, so a mismatch is damage).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

CONCEPTS = "concepts.json"

Table = dict[tuple[str, ...], frozenset[int]]


def write_concepts(path: Path, table: dict[tuple[str, ...], list[int]],
                   names: dict[tuple[str, ...], str] | None = None,
                   citing: dict[tuple[str, ...], list[int]] | None = None) -> None:
    """One row a term: its tokens, its documents and, when known, its name as the rules write it
    ("" when not) and the documents citing its rules (build/concepts.py)."""
    names, citing = names or {}, citing or {}
    rows = sorted([list(tokens), sorted(docs), *([names.get(tokens, "")] if tokens in names or citing.get(tokens) else []),
                   *([sorted(citing[tokens])] if citing.get(tokens) else [])]
                  for tokens, docs in table.items())
    data = json.dumps(rows, separators=(",", ":")).encode()
    path.write_bytes(data + b"\n" + str(zlib.crc32(data)).encode())


def read_concepts(path: Path) -> Table | None:
    """The table, or None when the file is missing or fails its checksum."""
    rows = _rows(path)
    return None if rows is None else {tuple(row[0]): frozenset(row[1]) for row in rows}


def read_names(path: Path) -> dict[tuple[str, ...], str] | None:
    """Each term's name as the rules write it ("State-Based Actions"), or None as read_concepts.
    Read apart from the table, and only for a query that needs it (an abbreviation)."""
    rows = _rows(path)
    return None if rows is None else {tuple(row[0]): row[2] for row in rows if len(row) > 2 and row[2]}


def read_citing(path: Path) -> Table | None:
    """Each term's citing documents (terms no rule cites left out), or None as read_concepts."""
    rows = _rows(path)
    return None if rows is None else {tuple(row[0]): frozenset(row[3]) for row in rows if len(row) > 3}


def _rows(path: Path) -> list | None:
    try:
        data, _, crc = path.read_bytes().rpartition(b"\n")
        if not crc.isdigit() or zlib.crc32(data) != int(crc):
            return None
        rows = json.loads(data)
        if not all(isinstance(row, list) and len(row) >= 2 for row in rows):
            return None
        return rows
    except (OSError, ValueError, TypeError):
        return None
