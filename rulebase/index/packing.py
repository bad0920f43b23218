"""How records.db stores the JSON of its most numerous records: zlib-compressed against a preset
dictionary drawn from records of the same kind.

A card's JSON (1.4 kB) repeats the keys and the link titles every other card has; compressed
alone it shrinks 2.3x, against a dictionary of its kind's own text 5.4x. Measured on the whole
corpus: the cards' 47 MB of JSON are 8.7 MB, the rules' 22 MB are 5.4 MB (records.db 145 MB ->
about 90 MB), for 5 s of build and 25 microseconds a record read. The kinds whose JSON a query
prefilters with SQL LIKE (glossary entries, sections, passages, terms) stay plain text.
"""

from __future__ import annotations

import zlib

PACKED_KINDS = frozenset({"card", "rule", "example", "note"})
DICTIONARY_SIZE = 16_384  # bytes: 8 kB left the cards at 9.8 MB, 32 kB cost 40% more build time
SAMPLES = 300  # records an even sample over the kind takes; the dictionary keeps the last 16 kB


def dictionary(texts: list[bytes]) -> bytes:
    """A preset dictionary for one kind's records: the last DICTIONARY_SIZE bytes of an even
    sample of them, so a dozen cards (or thirty rules) from the end of the kind. What they share
    with every other record is the JSON's keys and the common words and link titles, which a
    dozen records hold; zlib looks back at most 32 kB, and the nearest bytes are the cheapest."""
    step = max(1, len(texts) // SAMPLES)
    return b"".join(texts[::step])[-DICTIONARY_SIZE:]


def pack(text: bytes, zdict: bytes) -> bytes:
    packer = zlib.compressobj(6, zdict=zdict)
    return packer.compress(text) + packer.flush()


def unpack(blob: bytes, zdict: bytes) -> bytes:
    """The record's JSON; zlib.error when the blob or the dictionary is not what packed it."""
    unpacker = zlib.decompressobj(zdict=zdict)
    text = unpacker.decompress(blob) + unpacker.flush()
    if not unpacker.eof:
        raise zlib.error("truncated record")
    return text
