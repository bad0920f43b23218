"""Value classes without the dataclasses module, for the modules every command reads.

`dataclasses` imports inspect, ast and dis, and writes each class's methods with exec. On a
2-core machine whose bare interpreter starts in 14 ms of CPU, importing it took 20 ms (some of it
modules a command loads anyway) and each class 0.65 ms; a cold `rulebase lookup`, which reads 21
such classes, went from 84 to 54 ms with these and the other cold-start changes.

A class here names its fields in `__slots__` and writes its own `__init__`; `Value` gives it
equality, a repr and `replace` from those fields, `Frozen` also a hash and no assignment after
`__init__`. A slot whose name starts with "_" is a cache, not a field: not compared, shown,
copied or pickled.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing itself costs 3 ms to import)
if TYPE_CHECKING:
    from typing import Self


class Value:
    """A mutable value: equal to another of its class with equal fields, unhashable."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        own = cls.__dict__.get("__slots__", ())
        own = (own,) if isinstance(own, str) else own
        cls._fields = (*cls._fields, *(name for name in own if not name.startswith("_")))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._fields)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({shown})"

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, name) for name in self._fields)

    def __setstate__(self, state: tuple) -> None:
        for name, value in zip(self._fields, state, strict=True):
            object.__setattr__(self, name, value)


class Frozen(Value):
    """An immutable value: hashable by its fields, and no field set after `__init__` (which
    sets them with object.__setattr__)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in self._fields))


def replace(value: Self, **changes: object) -> Self:
    """A copy of `value` with some fields changed, as dataclasses.replace makes one."""
    unknown = set(changes) - set(value._fields)
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {sorted(unknown)[0]!r}")
    copy = object.__new__(type(value))
    for name in value._fields:
        object.__setattr__(copy, name, changes[name] if name in changes else getattr(value, name))
    return copy
