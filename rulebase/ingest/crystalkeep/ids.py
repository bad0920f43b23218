"""Unique record ids when a source prints the same number twice (Crystal Keep 1999 prints D.18.5
and T.5.2 twice): the second becomes 'D.18.5~2'. Counters per id keep hostile input linear."""

from __future__ import annotations

from collections.abc import Container


def duplicate_suffix(record_id: str, taken: Container[str], counters: dict[str, int]) -> int | None:
    """None when `record_id` is free, else the n to use as `record_id~n`."""
    if record_id not in taken:
        return None
    n = counters.get(record_id, 2)
    while f"{record_id}~{n}" in taken:
        n += 1
    counters[record_id] = n + 1
    return n
