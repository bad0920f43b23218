"""When a tournament document took effect: the date it prints, else what its text and its
companions say.

The documents print their date near the top, in many ways: 'Effective January 21, 2019',
'Effective Oct 3rd, 2018', 'Effective Sept 25, 2020', 'Updated September 26, 2014' (the JAR),
'Effective June 2020' with 'Last updated June 25, 2020' beside it. A file that prints none is
dated from its evidence (`infer`): the app's date stamp on its first line (the app writes months
from 0, as JavaScript does: '2016-00-21' is January 21), the newest entry of its 'Changes from
previous versions' appendix, and the date a companion document of the same app update prints (the
MTR and IPG are revised together); the result is flagged and says which evidence decided it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

MONTHS = {name: n for n, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",), ("june", "jun"),
    ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
    ("december", "dec")), 1) for name in names}
_MONTH = "(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?\s*,?\s*"
DATE = re.compile(rf"\b({_MONTH})\s+(?:{_DAY})?(\d{{4}})\b", re.IGNORECASE)
PRINTED = re.compile(rf"^(?P<kind>Effective|Last\s+updated|Updated)\s*:?\s+(?P<date>{_MONTH}\s+(?:{_DAY})?\d{{4}})",
                     re.IGNORECASE)
NEAR = 45  # days: a companion's date this close to a file's own evidence dates that file


@dataclass(frozen=True, slots=True)
class Printed:
    """A date line of a file: its kind ('effective', 'updated'), the day (the 1st when only a
    month is printed: `month_only`), the words as printed and the source line."""

    kind: str
    day: date
    month_only: bool
    words: str
    line: int


def parse_date(words: str) -> tuple[date, bool] | None:
    """('October 5, 2018' | 'Oct 3rd, 2018' | 'June 2020') -> (the day, month only), else None
    (also for a day that does not exist)."""
    found = DATE.search(words)
    if not found:
        return None
    month = MONTHS[found[1].lower().rstrip(".")]
    try:
        return date(int(found[3]), month, int(found[2] or 1)), found[2] is None
    except ValueError:
        return None


def printed(text: str, line: int) -> Printed | None:
    """The date line `text` is ('Effective ...', 'Last updated ...', 'Updated ...'), or None."""
    found = PRINTED.match(text.strip())
    if not found:
        return None
    parsed = parse_date(found["date"])
    if parsed is None:
        return None
    kind = "effective" if found["kind"].lower().startswith("effective") else "updated"
    return Printed(kind, parsed[0], parsed[1], found.group(0), line)


def effective(dates: list[Printed]) -> tuple[date, str] | None:
    """The day a file took effect from its date lines, and how it was read: its 'Effective' date;
    a month alone ('Effective June 2020') takes the day of an update printed in that month; a
    file that prints only 'Updated DATE' (the JAR) took effect that day."""
    eff = next((d for d in dates if d.kind == "effective"), None)
    upd = next((d for d in dates if d.kind == "updated"), None)
    if eff is not None and not eff.month_only:
        return eff.day, f"'{eff.words}'"
    if eff is not None:
        if upd is not None and (upd.day.year, upd.day.month) == (eff.day.year, eff.day.month):
            return upd.day, f"'{eff.words}' (a month), the day from '{upd.words}'"
        return eff.day, f"'{eff.words}' (a month: its first day)"
    if upd is not None:
        return upd.day, f"'{upd.words}'"
    return None


def stamp_readings(stamp: str | None) -> list[date]:
    """The days an app date stamp may mean: months from 0 (as the app writes them from 2015 on:
    '2016-00-21') and, when that is a real date too, from 1."""
    if not stamp:
        return []
    y, m, d = (int(x) for x in stamp.split("-"))
    out = []
    for month in (m + 1, m):
        try:
            out.append(date(y, month, d))
        except ValueError:
            continue
    return out


def infer(own: list[tuple[date, str]], companions: list[tuple[date, str]]) -> tuple[date, str] | None:
    """A date for a file that prints none. `own`: what the file itself says, strongest first
    (each with how it says it); `companions`: dates printed by the documents of the same app
    update. A companion's date within NEAR days of the file's own evidence wins (the documents
    are revised together); else the file's own strongest evidence; else a companion's."""
    for day, why in own:
        near = [(abs((c - day).days), c, cw) for c, cw in companions if abs(c - day) <= timedelta(days=NEAR)]
        if near:
            _, c, cw = min(near)
            return c, f"{cw}, matching {why}"
    if own:
        return own[0]
    return companions[0] if companions else None
