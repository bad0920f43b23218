"""The calendar arithmetic every command dates its answers with (rulebase/core/eras.py)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from rulebase.core.eras import OPEN_END, day, next_day, previous_day


def _number(d: date) -> int:
    return d.year * 10000 + d.month * 100 + d.day


def test_a_day_on_and_a_day_back_agree_with_the_gregorian_calendar():
    """Every day from Alpha's year to 2101, leap days and the century years among them."""
    d, end = date(1993, 1, 1), date(2101, 3, 2)
    while d < end:
        assert next_day(_number(d)) == _number(d + timedelta(days=1)), d
        assert previous_day(_number(d)) == _number(d - timedelta(days=1)), d
        d += timedelta(days=1)


def test_the_open_end_stays_open():
    assert next_day(OPEN_END) == OPEN_END


@pytest.mark.parametrize(("text", "end", "expected"), [
    ("2024", False, 20240101), ("2024", True, 20241231), ("2024-02", True, 20240229), ("2000-02", True, 20000229), ("1900-02", True, 19000228),
])
def test_a_year_or_month_reads_as_its_first_or_last_day(text, end, expected):
    assert day(text, end=end) == expected
