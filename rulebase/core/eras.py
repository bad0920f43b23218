"""When each record was in force, and what "as of DATE" means.

A record's window is a pair of days written as integers (YYYYMMDD, so they compare as dates).
An archive version is in force from its first release's date until the day before the release
that replaced it (open-ended when it is in the newest release). Any other document is in force
during its edition's rules era (ERAS below), from its own date when it has one:
the 1995 rulebook answers for 1995-1997, the 2008 release from 2008-10-01 to the Magic 2010 rules.
"""

from __future__ import annotations

import os
import re
import time
from functools import lru_cache

from rulebase.core.errors import UsageError
from rulebase.core.pattern import lazy

OPEN_END = 99991231
# (first day, label): the era a rules date belongs to; None means "label by year".
# "alpha" is the original rulebook's rules (the Alpha printing of 1993-08-05, and Beta to Revised
# after it); Sixth Edition starts with its Comprehensive Rules, "current as of April 23, 1999".
ERAS = (("1993-08-05", "alpha"), ("1995-04-01", "4e"), ("1997-03-24", "5e"), ("1999-04-23", "6e"),
        ("2001-04-11", None), ("2007-07-13", "10e"), ("2009-07-11", None))
_DATE = lazy(r"^(?P<y>(?:19|20)\d\d)(?:-(?P<m>\d\d)(?:-(?P<d>\d\d))?)?$")
_ANY_YEAR = lazy(r"^\d{4}(?:-\d\d(?:-\d\d)?)?$")
FIRST_YEAR, LAST_YEAR = 1900, 2099  # the dates the tool knows (the rules began in 1993)
FIRST_DAY, LAST_DAY = ERAS[0][0], f"{LAST_YEAR}-12-31"  # the dates a document added may carry


def day(text: str, end: bool = False) -> int:
    """'2009-07-11' -> 20090711; 'YYYY' or 'YYYY-MM' take their first day (their last with `end`)."""
    match = _DATE.match(text.strip())
    if not match:
        if _ANY_YEAR.match(text.strip()):  # a date, only not one of ours (0001-01-01, 9999-12-31)
            raise UsageError(f"{text.strip()!r} is outside the dates rulebase knows",
                             hint=f"give a date from {FIRST_YEAR}-01-01 to {LAST_YEAR}-12-31 "
                                  f"(Magic's rules begin in {ERAS[0][0][:4]})")
        raise UsageError(f"not a date: {text!r}", hint="write YYYY-MM-DD, YYYY-MM or YYYY, e.g. 2009-07-11")
    y, m, d = int(match["y"]), int(match["m"] or (12 if end else 1)), match["d"]
    if not 1 <= m <= 12:
        raise UsageError(f"not a date: {text!r} (month {m})", hint="write YYYY-MM-DD, e.g. 2009-07-11")
    last = _days_in(y, m)
    d_int = (last if end else 1) if d is None else int(d)
    if not 1 <= d_int <= last:
        raise UsageError(f"not a date: {text!r} (no such day)", hint="write YYYY-MM-DD, e.g. 2009-07-11")
    return y * 10000 + m * 100 + d_int


def _days_in(year: int, month: int) -> int:
    """The days of a month of the Gregorian calendar (datetime, which knows them too, costs every
    command 1.5 ms to import)."""
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


@lru_cache(maxsize=4096)  # a build asks for the same few hundred days 200,000 times
def edition_for_date(date: str) -> tuple[str, str]:
    """The label of the rules era `date` (YYYY, YYYY-MM or YYYY-MM-DD) falls in, and why."""
    if not re.match(r"^(?:19|20)\d\d(?:-\d\d){0,2}$", date):
        raise UsageError(f"cannot tell the edition from the date {date!r}", hint="pass --edition")
    day = (date + "-01-01")[:10] if len(date) == 4 else (date + "-01")[:10]
    label: str | None = None
    for start, era in ERAS:
        if day >= start:
            label = era
    if label is None:
        return f"cr{date[:4]}", f"rules in force in {date[:4]} (no edition label for that era)"
    return label, f"effective {date}, within the {label} rules era"


ENV_TODAY = "RULEBASE_TODAY"


def today() -> int:
    """The day "now" means (YYYYMMDD): $RULEBASE_TODAY (YYYY-MM-DD: the rules as that day sees
    them, and a clock tests can set), else the system's date. What is in force now is what is in
    force on this day: a release dated after it is upcoming, not in force until its day (a real
    update added a week early must not retire today's rules)."""
    told = os.environ.get(ENV_TODAY)
    if told:
        return day(told)
    now = time.localtime()
    return now.tm_year * 10000 + now.tm_mon * 100 + now.tm_mday


def in_force_today(first: int, last: int) -> bool:
    """Whether a window holds today (see today): the newest window of an upcoming release is
    open-ended but not yet in force, and the one it ends is in force until its day."""
    return first <= today() <= last


def upcoming(first: int) -> bool:
    """Whether a window starting on `first` has not begun yet (see today)."""
    return first > today()


def span_text(first: int, last: int) -> str:
    """Days in force as every command words them: '2021-04-22 to now', '2009-07-11 to 2011-06-16';
    a window that has not begun is upcoming: '2031-03-03 on, upcoming'."""
    if first > today():
        return f"{show(first)} on, upcoming" if last >= OPEN_END else f"{show(first)} to {show(last)}, upcoming"
    return f"{show(first)} to {show(last)}"


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


def previous_day(value: int) -> int:
    """The day before `value` (YYYYMMDD)."""
    return _shift(value, -1)


def _shift(value: int, days: int) -> int:
    """`value` (YYYYMMDD) one day on (`days` 1) or back (-1) by the Gregorian calendar (_days_in):
    a search reads a day before or after for every hit's history, and datetime costs it 1.5 ms."""
    if days not in (1, -1):
        raise ValueError(f"a day's step is 1 or -1, not {days}")
    y, m, d = value // 10000, value // 100 % 100, value % 100 + days
    if d < 1:
        y, m = (y - 1, 12) if m == 1 else (y, m - 1)
        d = _days_in(y, m)
    elif d > _days_in(y, m):
        y, m, d = (y + 1, 1, 1) if m == 12 else (y, m + 1, 1)
    return y * 10000 + m * 100 + d


def release_windows(dates: list[str]) -> list[tuple[int, int]]:
    """Each release is in force from its date to the day before the next one."""
    out = []
    for n, iso in enumerate(dates):
        end = _day_before(dates[n + 1]) if n + 1 < len(dates) else OPEN_END
        out.append((day(iso), end))
    return out


def era_window(edition: str, doc_date: str | None) -> tuple[int, int]:
    """The days an edition label's rules were in force, from the document's own date if later."""

    start, end = 0, OPEN_END
    year = re.match(r"^cr(\d{4})$", edition)
    if year:
        start, end = int(year[1]) * 10000 + 101, int(year[1]) * 10000 + 1231
    else:
        for n, (first, label) in enumerate(ERAS):
            if label == edition:
                start = day(first)
                end = _day_before(ERAS[n + 1][0]) if n + 1 < len(ERAS) else OPEN_END
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
        elif record.kind in ("card", "card-ruling"):  # today's card text, and its rulings: shown whatever day is asked
            out[record.id] = (0, OPEN_END)
        else:
            source = per_source.get(record.source)
            out[record.id] = era_window(record.edition, source.date if source else None)
    return out


def labels_between(first: str, last: str) -> list[str]:
    """Every edition label a span of releases touches: cr2005 .. 10e .. cr2010."""
    return list(_labels_between(first, last))


@lru_cache(maxsize=8192)  # the archive's 17,000 spans are a few thousand distinct ones: 0.6 s a build
def _labels_between(first: str, last: str) -> tuple[str, ...]:
    probes = [first] + [f"{y}-{md}" for y in range(int(first[:4]), int(last[:4]) + 1)
                        for md in ("01-01", "07-12", "12-31")] + [last]
    labels: list[str] = []
    for probe in probes:
        if first <= probe <= last:
            label = edition_for_date(probe)[0]
            if label not in labels:
                labels.append(label)
    return tuple(labels)
