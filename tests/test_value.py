"""core/value.py: the value classes of the records and answers every command reads."""

from __future__ import annotations

import pickle

import pytest

from rulebase.core.records import Record, Ref
from rulebase.core.sources import Source
from rulebase.core.value import Frozen, Value, replace


class Point(Value):
    __slots__ = ("x", "y", "_seen")

    def __init__(self, x: int, y: int = 0):
        self.x, self.y = x, y
        self._seen = 0


class Pin(Frozen):
    __slots__ = ("name",)

    def __init__(self, name: str):
        object.__setattr__(self, "name", name)


def test_fields_are_the_slots_but_a_cache():
    assert Point._fields == ("x", "y")
    assert Point(1, 2) == Point(1, 2) and Point(1, 2) != Point(2, 1)
    moved = Point(1, 2)
    moved._seen = 5  # a cache: not compared, not shown
    assert moved == Point(1, 2) and repr(moved) == "Point(x=1, y=2)"
    assert Point(1) != (1, 0) and Point(1).__eq__((1, 0)) is NotImplemented


def test_a_value_is_unhashable_and_a_frozen_one_hashable_and_fixed():
    with pytest.raises(TypeError):
        hash(Point(1))
    assert hash(Pin("a")) == hash(Pin("a")) and {Pin("a"), Pin("a")} == {Pin("a")}
    with pytest.raises(AttributeError, match="cannot assign to field 'name' of a frozen Pin"):
        Pin("a").name = "b"
    with pytest.raises(AttributeError):
        del Pin("a").name


def test_replace_copies_with_changes_and_refuses_an_unknown_field():
    record = Record("cr:1", "cr", "cr2026", "en", "rule", "text", "raw", number="1", refs=[Ref("1", "rule", "1")])
    copy = replace(record, text="other")
    assert copy.text == "other" and copy.number == "1" and copy.refs is record.refs and record.text == "text"
    assert replace(Pin("a"), name="b") == Pin("b")
    with pytest.raises(TypeError, match="Pin has no field 'nmae'"):
        replace(Pin("a"), nmae="b")


def test_values_pickle_as_the_build_workers_pass_them():
    record = Record("cr:1", "cr", "cr2026", "en", "rule", "text", "raw", card={"cost": "{R}"})
    assert pickle.loads(pickle.dumps(record)) == record
    source = Source("cr", "CR", "cr2026", "2026-01-01", "en", "cr.txt", "comprules", "test", "test", path=None)
    assert pickle.loads(pickle.dumps(source)) == source and hash(pickle.loads(pickle.dumps(source))) == hash(source)


def test_each_record_gets_lists_of_its_own():
    a = Record("a", "s", "e", "en", "rule", "t", "t")
    b = Record("b", "s", "e", "en", "rule", "t", "t")
    a.refs.append(Ref("1", "rule", "1"))
    assert b.refs == [] and a.pages is not b.pages
