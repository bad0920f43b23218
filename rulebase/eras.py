"""When each record was in force, and what "as of DATE" means.

A record's window is a pair of days written as integers (YYYYMMDD, so they compare as dates).
An archive version is in force from its first release's date until the day before the release
that replaced it (open-ended when it is in the newest release). Any other document is in force
during its edition's rules era (detect.py's era table), from its own date when it has one:
the 1995 rulebook answers for 1995-1997, the 2008 release from 2008-10-01 to the Magic 2010 rules.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from rulebase.errors import UsageError

OPEN_END = 99991231
_DATE = re.compile(r"^(?P<y>(?:19|20)\d\d)(?:-(?P<m>\d\d)(?:-(?P<d>\d\d))?)?$")
_ANY_YEAR = re.compile(r"^\d{4}(?:-\d\d(?:-\d\d)?)?$")
FIRST_YEAR, LAST_YEAR = 1900, 2099  # the dates the tool knows (the rules began in 1993)


def day(text: str, end: bool = False) -> int:
    """'2009-07-11' -> 20090711; 'YYYY' or 'YYYY-MM' take their first day (their last with `end`)."""
    match = _DATE.match(text.strip())
    if not match:
        if _ANY_YEAR.match(text.strip()):  # a date, only not one of ours (0001-01-01, 9999-12-31)
            raise UsageError(f"{text.strip()!r} is outside the dates rulebase knows",
                             hint=f"give a date from {FIRST_YEAR}-01-01 to {LAST_YEAR}-12-31 "
                                  "(the rules documents span 1995 to 2026)")
        raise UsageError(f"not a date: {text!r}", hint="write YYYY-MM-DD, YYYY-MM or YYYY, e.g. 2009-07-11")
    y, m, d = int(match["y"]), int(match["m"] or (12 if end else 1)), match["d"]
    if not 1 <= m <= 12:
        raise UsageError(f"not a date: {text!r} (month {m})", hint="write YYYY-MM-DD, e.g. 2009-07-11")
    if d is None:
        last = (date(y + (m == 12), m % 12 + 1, 1) - timedelta(days=1)).day
        d_int = last if end else 1
    else:
        d_int = int(d)
    try:
        date(y, m, d_int)
    except ValueError:
        raise UsageError(f"not a date: {text!r} (no such day)", hint="write YYYY-MM-DD, e.g. 2009-07-11") from None
    return y * 10000 + m * 100 + d_int


def show(value: int) -> str:
    """20090711 -> '2009-07-11'; the open end -> 'now'."""
    if value >= OPEN_END:
        return "now"
    text = f"{value:08d}"
    return f"{text[:4]}-{text[4:6]}-{text[6:]}"


def _day_before(iso: str) -> int:
    return _shift(day(iso), -1)


def next_day(value: int) -> int:
    """The day after `value` (YYYYMMDD); the open end stays open."""
    return value if value >= OPEN_END else _shift(value, 1)


def _shift(value: int, days: int) -> int:
    moved = date(value // 10000, value // 100 % 100, value % 100) + timedelta(days=days)
    return moved.year * 10000 + moved.month * 100 + moved.day


def release_windows(dates: list[str]) -> list[tuple[int, int]]:
    """Each release is in force from its date to the day before the next one."""
    out = []
    for n, iso in enumerate(dates):
        end = _day_before(dates[n + 1]) if n + 1 < len(dates) else OPEN_END
        out.append((day(iso), end))
    return out


def era_window(edition: str, doc_date: str | None) -> tuple[int, int]:
    """The days an edition label's rules were in force, from the document's own date if later."""
    from rulebase.detect import _ERAS

    start, end = 0, OPEN_END
    year = re.match(r"^cr(\d{4})$", edition)
    if year:
        start, end = int(year[1]) * 10000 + 101, int(year[1]) * 10000 + 1231
    else:
        for n, (first, label) in enumerate(_ERAS):
            if label == edition:
                start = day(first)
                end = _day_before(_ERAS[n + 1][0]) if n + 1 < len(_ERAS) else OPEN_END
    if doc_date and _DATE.match(doc_date):
        start = max(start, day(doc_date))
    return start, max(start, end)


def windows(records: list, sources: list, releases: dict[str, list[dict]]) -> dict[str, tuple[int, int]]:
    """Every record's window. `releases`: per archive source id, its releases (archive.py's meta)."""
    per_source = {s.id: s for s in sources}
    by_release: dict[str, dict[str, tuple[int, int]]] = {}
    for source_id, rows in releases.items():
        dates = [row["date"] for row in rows]
        by_release[source_id] = dict(zip(dates, release_windows(dates), strict=True))
    out: dict[str, tuple[int, int]] = {}
    for record in records:
        table = by_release.get(record.source)
        if table is not None and record.span:
            out[record.id] = (table[record.span[0]][0], table[record.span[1]][1])
        else:
            source = per_source.get(record.source)
            out[record.id] = era_window(record.edition, source.date if source else None)
    return out


def labels_between(first: str, last: str) -> list[str]:
    """Every edition label a span of releases touches: cr2005 .. 10e .. cr2010."""
    from rulebase.detect import edition_for_date

    probes = [first] + [f"{y}-{md}" for y in range(int(first[:4]), int(last[:4]) + 1)
                        for md in ("01-01", "07-12", "12-31")] + [last]
    labels: list[str] = []
    for probe in probes:
        if first <= probe <= last:
            label = edition_for_date(probe)[0]
            if label not in labels:
                labels.append(label)
    return labels
