"""Decoded postings of the index's common terms, written once per build beside the Whoosh files.

A query's time goes to reading the postings of its common words for the first time: Whoosh
unpickles and decompresses every block of 128 postings, and a word like "spell" sits in 10,000
documents. The few hundred terms in at least COMMON documents hold most postings a query reads, so
the build stores theirs ready to use: document numbers (uint32), BM25F scores (float64, computed by
scorer.Scorer exactly as at query time, over the finished index's statistics) and, for positional
fields, each posting's positions as an array of unsigned integers (2 bytes each, 4 in a term whose
positions reach 65,536). Whoosh's own form of a position list (a length and a pickled list of
deltas, 15 bytes for one position) took 9.7 of the file's 21 MB; an array is 2 bytes a position and
reads back with one C call. A reader maps the file and turns a term into arrays with two byte
copies. The file belongs to one generation of the index, like DOCMETA.

Layout of FILE: per term, ids | scores | value offsets (uint32, n + 1) | values; TABLE (JSON) maps
"field<TAB>token" to [start, n, values length, CRC-32 of ids and scores, CRC-32 of offsets and values,
bytes per position] (values length -1: the field has no positions). Each part is checked against its CRC when it is first
read (a few microseconds a term, a fraction of reading it): bit rot there is DamagedData (the index
is rebuilt and the query answered again), never a wrong score.
"""

from __future__ import annotations

import json
import mmap
import os
import zlib
from array import array

from rulebase.core.errors import DamagedData
from rulebase.core.paths import read_bytes

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path

FILE, TABLE = "postings.bin", "postings.json"
BM25_B, BM25_K1 = 0.75, 1.2  # the ranking's BM25F parameters: the stored scores are computed with them
COMMON = 300  # documents a term must be in to be stored here
FIELDS = ("title", "text", "context", "title_hu", "text_hu", "context_hu")


def write(path: Path, reader, scorer) -> int:
    """Store the common terms of an open index (its reader and a scorer.Scorer over it); returns
    how many. Written to temporary names and renamed, so a reader never sees half a file."""
    table: dict[str, list[int]] = {}
    tmp_file, tmp_table = path / (FILE + ".tmp"), path / (TABLE + ".tmp")
    with open(tmp_file, "wb") as out:
        start = 0
        for field in FIELDS:
            if field not in reader.schema:
                continue
            positional = reader.schema[field].format.supports("positions")
            decode = reader.schema[field].format.decoder("positions") if positional else None
            for token in common_terms(reader, field):
                found = scorer._read(field, token, positional)
                parts = [array("I", found.ids).tobytes(), array("d", found.scores).tobytes()]
                blob_length, width = -1, 0
                if positional:
                    lists = [decode(value) for value in found.values]
                    code = "H" if max((p for one in lists for p in one), default=0) < 1 << 16 else "I"
                    values = [array(code, one).tobytes() for one in lists]
                    offsets, at = array("I", [0]), 0
                    for value in values:
                        at += len(value)
                        offsets.append(at)
                    parts += [offsets.tobytes(), b"".join(values)]
                    blob_length, width = at, array(code).itemsize
                for part in parts:
                    out.write(part)
                head, tail = zlib.crc32(parts[1], zlib.crc32(parts[0])), 0
                for part in parts[2:]:
                    tail = zlib.crc32(part, tail)
                table[f"{field}\t{token}"] = [start, len(found.ids), blob_length, head, tail, width]
                start += sum(map(len, parts))
    tmp_table.write_text(json.dumps(table), encoding="utf-8")
    tmp_file.replace(path / FILE)
    tmp_table.replace(path / TABLE)
    return len(table)


def common_terms(reader, field: str) -> list[str]:
    """The field's terms in at least COMMON documents, in lexicon order. Each segment's terms are
    read in one pass with their document counts: asking the index for each term's count (a hash
    lookup per term and segment) took 0.6 s of an add's 10 s, this 0.1 s."""
    # lazy: only this rarer path needs it
    from collections import Counter

    counts: Counter = Counter()
    for segment, _ in reader.leaf_readers():
        for term, info in segment.iter_field(field):
            counts[term] += info.doc_frequency()
    # UTF-8 bytes sort as their code points: the order of the lexicon
    return sorted(term.decode("utf-8") for term, n in counts.items() if n >= COMMON)


class Values:
    """One term's positions, posting by posting, read from the mapped file on demand."""

    __slots__ = ("_data", "_offsets", "_base", "_code")

    def __init__(self, data, offsets: array, base: int, code: str):
        self._data, self._offsets, self._base, self._code = data, offsets, base, code

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def counts(self) -> list[int]:
        """How many positions each posting has: how often the term occurs in each document."""
        offsets, width = self._offsets, array(self._code).itemsize
        return [(end - start) // width for start, end in zip(offsets, offsets[1:], strict=False)]

    def positions(self, i: int) -> list[int]:
        """The positions of the i-th posting (scorer.py asks this instead of decoding Whoosh's form)."""
        one = array(self._code)
        one.frombytes(self._data[self._base + self._offsets[i]:self._base + self._offsets[i + 1]])
        return one.tolist()


class Stored:
    """The common terms of one generation, opened lazily; `get` is None for any other term (and
    for all of them when the files are missing: an index from before them reads Whoosh)."""

    def __init__(self, path: str | os.PathLike):
        self.path = path
        self._table: dict[str, list[int]] | None = None
        self._data = None
        self._checked: set[tuple[str, bool]] = set()  # (key, values): parts whose CRC matched

    def _open(self) -> None:
        self._table = {}
        try:
            self._table = json.loads(read_bytes(os.path.join(self.path, TABLE)))
            with open(os.path.join(self.path, FILE), "rb") as handle:
                self._data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if self._table else None
        except (OSError, ValueError):
            self._table, self._data = {}, None

    def get(self, field: str, token: str, positions: bool) -> tuple[array, array, Values | None] | None:
        if self._table is None:
            self._open()
        entry = self._table.get(f"{field}\t{token}")
        if entry is None or self._data is None:
            return None
        key = f"{field}\t{token}"
        start, n, blob_length, *crcs, width = entry
        head = self._data[start:start + 12 * n]
        self._check(key, False, head, crcs)
        ids, scores = array("I"), array("d")
        ids.frombytes(head[:4 * n])
        scores.frombytes(head[4 * n:])
        values = None
        if positions and blob_length >= 0:
            at = start + 12 * n
            tail = self._data[at:at + 4 * (n + 1) + blob_length]
            self._check(key, True, tail, crcs)
            offsets = array("I")
            offsets.frombytes(tail[:4 * (n + 1)])
            values = Values(self._data, offsets, at + 4 * (n + 1), "H" if width == 2 else "I")
        return ids, scores, values

    def _check(self, key: str, values: bool, data, crcs: list[int]) -> None:
        """The part's CRC-32 against the table's, once per part (a table without CRCs: unchecked)."""
        if len(crcs) < 2 or (key, values) in self._checked:
            return
        if zlib.crc32(data) != crcs[values]:
            raise DamagedData(f"{FILE} fails its checksum at the term {key.split(chr(9))[-1]!r}")
        self._checked.add((key, values))

    def close(self) -> None:
        if self._data is not None:
            self._data.close()
            self._data = None
