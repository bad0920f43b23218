"""The concept table: each term the rules in force now name (a glossary entry, a chapter or a
rule's heading), as the index's analyser reads it, and the documents of the rules it names.

Written by build/concepts.py beside DOCMETA, read by the searcher: JSON, then its CRC-32 on the
last line (bit rot here would quietly reorder every answer, so a mismatch is damage).
"""

from __future__ import annotations

import json
import os
import zlib

from rulebase.core.paths import read_bytes

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path

CONCEPTS = "concepts.json"

Listed = dict[tuple[str, ...], list[int]]  # a table as the file lists it


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


def read_concepts(path: str | os.PathLike) -> tuple[Listed, Listed] | None:
    """The table and each term's citing documents (terms no rule cites left out), from one parse
    of the file, or None when it is missing or fails its checksum. Each term's documents stay a
    list: search.concepts.Concepts freezes only the terms a question names. (The bundled corpus's
    table: 10 ms to parse, 4 ms more to freeze every term; it was parsed twice, once a table.)"""
    rows = _rows(path)
    if rows is None:
        return None
    return {tuple(row[0]): row[1] for row in rows}, {tuple(row[0]): row[3] for row in rows if len(row) > 3}


def read_names(path: str | os.PathLike) -> dict[tuple[str, ...], str] | None:
    """Each term's name as the rules write it ("State-Based Actions"), or None as read_concepts.
    Read apart from the table, and only for a query that needs it (an abbreviation)."""
    rows = _rows(path)
    return None if rows is None else {tuple(row[0]): row[2] for row in rows if len(row) > 2 and row[2]}


def _rows(path: str | os.PathLike) -> list | None:
    try:
        data, _, crc = read_bytes(path).rpartition(b"\n")
        if not crc.isdigit() or zlib.crc32(data) != int(crc):
            return None
        rows = json.loads(data)
        if not all(isinstance(row, list) and len(row) >= 2 for row in rows):
            return None
        return rows
    except (OSError, ValueError, TypeError):
        return None
