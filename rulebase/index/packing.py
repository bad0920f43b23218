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

TYPE_CHECKING = False  # (typing itself costs 3 ms to import, on every command)
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

PACKED_KINDS = frozenset({"card", "card-ruling", "rule", "example", "note"})
DICTIONARY_SIZE = 16_384  # bytes: 8 kB left the cards at 9.8 MB, 32 kB cost 40% more build time
SAMPLES = 300  # records an even sample over the kind takes; the dictionary keeps the last 16 kB


def sample(items: list[T]) -> list[T]:
    """An even sample of one kind's records, about SAMPLES of them: what its dictionary is drawn
    from (only these need serialising before the packing starts)."""
    return items[::max(1, len(items) // SAMPLES)]


def dictionary(sampled: list[bytes]) -> bytes:
    """A preset dictionary for one kind's records, from the texts of its `sample`: their last
    DICTIONARY_SIZE bytes, so a dozen cards (or thirty rules) from the end of the kind. What they
    share with every other record is the JSON's keys and the common words and link titles, which
    a dozen records hold; zlib looks back at most 32 kB, and the nearest bytes are the cheapest."""
    return b"".join(sampled)[-DICTIONARY_SIZE:]


class Packer:
    """Packs records against one dictionary. The compressor is primed with the dictionary once
    and copied for each record: priming it (hashing 16 kB) cost more than compressing a 1.4 kB
    card, and a copy gives the same bytes (measured on the 34,632 cards: 1.5 s -> 1.05 s)."""

    def __init__(self, zdict: bytes):
        self._primed = zlib.compressobj(6, zdict=zdict)

    def pack(self, text: bytes) -> bytes:
        packer = self._primed.copy()
        return packer.compress(text) + packer.flush()


def unpack(blob: bytes, zdict: bytes, limit: int) -> bytes:
    """The record's JSON; zlib.error when the blob or the dictionary is not what packed it, or
    when it would inflate past `limit` bytes (never inflated further: a 600 kB blob of zeros is
    600 MB)."""
    unpacker = zlib.decompressobj(zdict=zdict)
    text = unpacker.decompress(blob, limit + 1)
    if len(text) > limit or unpacker.unconsumed_tail:
        raise zlib.error(f"it inflates past {limit} bytes")
    if not unpacker.eof:
        raise zlib.error("truncated record")
    return text
