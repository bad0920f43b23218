"""The Whoosh full-text index: its schema, its side file of document metadata, and a health check.

English and Hungarian records go to separate stemmed fields (Snowball English / Hungarian, the
Hungarian one accent-folded *before* stemming so "sebzes" and "sebzések" meet); `exact` is an
unstemmed, accent-folded copy of everything for fuzzy matching and spelling suggestions, which
silently fail on stemmed fields. Queries are built as scorer.Clause lists rather than with
whoosh.qparser: the syntax we accept (words and "quoted phrases") is small, and skipping the
parser keeps a cold search fast and immune to query-syntax errors. searcher.py ranks, scorer.py
sums BM25F scores over the index's postings, build/writer.py writes. Search code lives outside this
module on purpose: changing this module (the schema) rebuilds every index, changing how a query is
ranked does not.
"""

from __future__ import annotations

import os
import warnings
from bisect import bisect_left
from itertools import compress

TYPE_CHECKING = False  # (typing.TYPE_CHECKING without importing typing: 6.5 ms of a cold command)
if TYPE_CHECKING:
    from pathlib import Path

from rulebase.index.standins import spare  # noqa: E402 - before the first whoosh import

warnings.filterwarnings("ignore", category=SyntaxWarning, module=r"whoosh(\..*)?")
spare()

from whoosh import index as whoosh_index  # noqa: E402
from whoosh.analysis import CharsetFilter, LowercaseFilter, RegexTokenizer, StemFilter, StemmingAnalyzer  # noqa: E402
from whoosh.columns import VarBytesColumn  # noqa: E402
from whoosh.fields import ID, KEYWORD, TEXT, Schema  # noqa: E402
from whoosh.lang import stemmer_for_language  # noqa: E402

from rulebase.core.paths import read_bytes  # noqa: E402
from rulebase.core.records import POWER_TOUGHNESS  # noqa: E402


def _hungarian_analyzer():
    from whoosh.support.charset import accent_map  # building only: the schema is stored with the index

    return (RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map)
            | StemFilter(stemfn=stemmer_for_language("hu")))


def _exact_analyzer():
    # lazy: Whoosh (~140 ms) only where this path reads the index
    from whoosh.support.charset import accent_map

    return RegexTokenizer() | LowercaseFilter() | CharsetFilter(accent_map)


WORDS = rf"{POWER_TOUGHNESS}|\w+(\.?\w+)*"  # power/toughness one token, then Whoosh's default words


def _column_only(field):
    """A field kept as a column alone (read per hit by document number), with no terms: Whoosh
    indexes every field unless told otherwise."""
    field.indexed = False
    return field


def _listed_column() -> VarBytesColumn:
    """A column of strings written with its table of offsets. Whoosh writes that table only for
    segments of over 32,768 documents and otherwise rebuilds it, value by value in Python, each
    time the column is opened: 2.7 ms for each of the id, lead and kind columns a cold search
    reads, against 0.1 ms to read the table (one uint32 a document)."""
    return VarBytesColumn(write_offsets_cutoff=0)


def make_schema() -> Schema:
    # Snowball's English stemmer (Porter2), not Whoosh's default Porter: that one reads "tapped"
    # as "tapp" beside "tap", "dies" and "died" as "di" beside "die", "dying" as "dy", "activated"
    # as "activat" beside "activ", so a player's "can I tap it" or "does it die" missed the rules'
    # "tapped" and "dies" (tests/test_schema.py).
    english = StemmingAnalyzer(expression=WORDS, stoplist=None, stemfn=stemmer_for_language("en"))
    hungarian = _hungarian_analyzer()
    # Nothing is stored: a hit's id, lead and kind are read from their columns, and its group
    # and days in force from DOCMETA. Stored copies of the three, a group column, a "window"
    # field of days (both superseded by DOCMETA) and the id's terms (one a document, never asked
    # for) took 20 MB of the three indexes' 108 MB.
    return Schema(
        id=_column_only(ID(sortable=_listed_column())),
        lead=_column_only(ID(sortable=_listed_column())),
        # edition: every era label a record is in force in (an archive version spans several)
        source=ID, edition=KEYWORD, lang=ID, kind=ID(sortable=_listed_column()),
        group=ID,  # a rule's lineage, else the record: the terms `search --within` asks for
        title=TEXT(analyzer=english),
        text=TEXT(analyzer=english),
        context=TEXT(analyzer=english, phrase=False),
        title_hu=TEXT(analyzer=hungarian),
        text_hu=TEXT(analyzer=hungarian),
        context_hu=TEXT(analyzer=hungarian, phrase=False),
        exact=TEXT(analyzer=_exact_analyzer(), phrase=False),  # fuzzy terms and suggestions only
    )


# uint32 arrays: group number, first day, last day (one entry per document); then the documents
# ordered by their last day, and those last days (in force on a day: a bisection, then a filter of
# the few thousand documents whose last day is that day or later, not a pass over all 22,806);
# then 1 for a document of the tournament documents (core.sources.TOURNAMENT_DOCUMENTS), else 0
# (their documents were read from the `source` field's postings: 2.3 ms of every cold search)
DOCMETA = "docmeta.bin"
DOCMETA_COLUMNS = 6


def read_docmeta(path: str | os.PathLike, count: int):
    """The DOCMETA columns, or None when the file is missing, the wrong size, or fails the CRC-32
    stored after the columns (bit rot there gave duplicate hits and wrong totals)."""
    # lazy: only this rarer path needs it
    import zlib
    from array import array

    try:
        data = read_bytes(path)
    except OSError:
        return None
    size = 4 * count
    if len(data) != DOCMETA_COLUMNS * size + 4 or zlib.crc32(data[:-4]) != int.from_bytes(data[-4:], "little"):
        return None
    columns = [array("I") for _ in range(DOCMETA_COLUMNS)]
    for n, column in enumerate(columns):
        column.frombytes(data[n * size:(n + 1) * size])
    return columns


def in_force_on(columns, day: int) -> set[int]:
    """The documents in force on `day`, from read_docmeta's columns: of those whose last day is
    `day` or later (a bisection of the documents in order of their last day), those in force by
    then: 0.4 ms for today's 4,544 of the real index's 22,806, where a pass over every document
    took 2.2-2.7 ms."""
    first, ending, ends = columns[1], columns[3], columns[4]
    return {d for d in ending[bisect_left(ends, day):] if first[d] <= day}


def tournament_documents(columns) -> set[int]:
    """The documents of the tournament documents, every release, from read_docmeta's columns."""
    return set(compress(range(len(columns[5])), columns[5]))


def open_reader(path: str | os.PathLike):
    """A reader of the Whoosh index in `path`. Whoosh's `open_dir(path).reader()` reads the table of
    contents twice, unpickling the schema and the segments each time; this reads it once (1.5
    million instructions of a cold search)."""
    from whoosh.filedb.filestore import FileStorage

    storage = FileStorage(os.fspath(path), readonly=True)
    toc = whoosh_index.TOC.read(storage, whoosh_index._DEF_INDEX_NAME)  # noqa: SLF001
    return whoosh_index.FileIndex._reader(storage, toc.schema, toc.segments, toc.generation)  # noqa: SLF001


def check(path: Path) -> bool:
    """True when the index opens and its segment files read back."""
    try:
        with open_reader(path) as reader:
            if reader.doc_count() and not reader.column_reader("id")[0]:
                return False
            for fieldname in ("kind", "exact"):
                first = next(iter(reader.lexicon(fieldname)), None)
                if first is not None:
                    reader.postings(fieldname, first).id()
    except Exception:  # noqa: BLE001 - any failure to read means unhealthy
        return False
    return True
