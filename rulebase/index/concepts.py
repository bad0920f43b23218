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


def write_concepts(path: Path, table: dict[tuple[str, ...], list[int]]) -> None:
    rows = sorted([list(tokens), sorted(docs)] for tokens, docs in table.items())
    data = json.dumps(rows, separators=(",", ":")).encode()
    path.write_bytes(data + b"\n" + str(zlib.crc32(data)).encode())


def read_concepts(path: Path) -> Table | None:
    """The table, or None when the file is missing or fails its checksum."""
    try:
        data, _, crc = path.read_bytes().rpartition(b"\n")
        if not crc.isdigit() or zlib.crc32(data) != int(crc):
            return None
        return {tuple(tokens): frozenset(docs) for tokens, docs in json.loads(data)}
    except (OSError, ValueError, TypeError):
        return None
