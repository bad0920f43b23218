"""A mana cost read as the Comprehensive Rules read it (rule 107.4, mana symbols; rule 202.3, mana
value): which kinds of symbol it holds and what it adds up to."""

from __future__ import annotations

import re

SYMBOL = re.compile(r"\{([^{}]*)\}")
_COLOURS = "WUBRG"


def symbols(cost: str | None) -> list[str]:
    """The symbols of a cost, as written between braces: '{2}{W/P}{X}' -> ['2', 'W/P', 'X']."""
    return SYMBOL.findall(cost or "")


def symbol_value(symbol: str) -> float:
    """What one symbol adds to mana value (202.3): a generic number its number; X, Y, Z nothing
    (202.3e, off the stack); a hybrid symbol its largest part (202.3f: {2/W} is 2); a Phyrexian
    symbol 1 (202.3g); a half symbol ({HW}) one half; a coloured, colourless or snow symbol 1."""
    upper = symbol.upper()
    if upper.isdigit():
        return float(int(upper))
    if upper in ("X", "Y", "Z"):
        return 0.0
    if upper.startswith("H") and len(upper) == 2:
        return 0.5
    parts = [p for p in upper.split("/") if p != "P"]
    if not parts:
        return 1.0
    return max(float(int(p)) if p.isdigit() else 1.0 for p in parts)


def mana_value(cost: str | None) -> float:
    """202.3: the total amount of mana in a mana cost, regardless of colour. A card with no mana
    cost (a land, a back face) has mana value 0."""
    return sum(symbol_value(s) for s in symbols(cost))


def shown_value(value: float) -> int | float:
    """A mana value as printed: 3, not 3.0 (half symbols keep their half)."""
    return int(value) if value == int(value) else value


def kinds(cost: str | None) -> list[str]:
    """Which kinds of symbol a cost holds that the rules treat on their own: 'X' (107.3),
    'hybrid' (107.4e), 'Phyrexian' (107.4f), 'snow' (107.4h), in that order, each once."""
    found: list[str] = []
    for symbol in symbols(cost):
        upper = symbol.upper()
        parts = upper.split("/")
        if upper in ("X", "Y", "Z"):
            found.append("X")
        if "P" in parts:
            found.append("Phyrexian")
        if len([p for p in parts if p != "P"]) > 1:
            found.append("hybrid")
        if upper == "S":
            found.append("snow")
    order = ("X", "hybrid", "Phyrexian", "snow")
    return [k for k in order if k in found]


def colours(cost: str | None) -> list[str]:
    """The colours of a cost's symbols, in WUBRG order (202.2)."""
    letters = {c for s in symbols(cost) for c in s.upper().split("/") if c in _COLOURS}
    return [c for c in _COLOURS if c in letters]
