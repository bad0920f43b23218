"""The second card file: MTGJSON 5.2's cards of April 2022 (one record per card name), read for
what the current Oracle file lacks: every face of a multi-face card, the official rulings with
their dates, and the card's names in ten other languages.

Its Oracle text is the wording of April 2022; the current file's wins wherever both hold a face
(supplement.py merges them). What cannot be read is a warning naming the record's place in the
file's `data` list, never dropped silently.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from rulebase.core.errors import SourceError
from rulebase.ingest.text import Warning_

DATE = "2022-04-25"  # the MTGJSON build the file was made from (5.2.0+20220425)
_FACE_TEXT = ("faceName", "manaCost", "type", "power", "toughness", "loyalty", "defense", "text")


@dataclass(slots=True)
class OldCard:
    """One card as the 2022 file holds it: its faces by name (in the file's order), its dated
    rulings, and its names in other languages (language -> name, faces joined by ' // ')."""

    name: str
    layout: str
    faces: list[dict] = field(default_factory=list)
    rulings: list[dict] = field(default_factory=list)
    foreign: dict[str, str] = field(default_factory=dict)
    colour_identity: list[str] = field(default_factory=list)

    def face(self, name: str) -> dict | None:
        return next((f for f in self.faces if f["name"] == name), None)


def read(data: bytes, name: str) -> tuple[dict[str, OldCard], list[Warning_]]:
    """The file's cards by name, and what could not be read of it."""
    # lazy: a `card` command reads this module's constants, never the file (_lzma: a cold start's ms)
    import lzma

    try:
        raw = lzma.decompress(data) if data[:6] == b"\xfd7zXZ\x00" else data
        document = json.loads(raw.decode("utf-8"))
    except (lzma.LZMAError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceError(f"not an xz-compressed UTF-8 JSON file ({exc})", name,
                          "restore the file from corpus/sources.toml's provenance") from None
    items = document.get("data") if isinstance(document, dict) else None
    if not isinstance(items, list):
        raise SourceError("not MTGJSON card data (no 'data' list)", name,
                          "give the file as corpus/sources.toml's provenance describes")
    file = name.rsplit("/", 1)[-1]
    cards: dict[str, OldCard] = {}
    warnings: list[Warning_] = []
    for n, item in enumerate(items, 1):
        where = f"data[{n - 1}]"
        card = _card(item)
        if card is None:
            warnings.append(Warning_(file, 1, f"{where}: not a card (no name or faces): skipped"))
        elif card.name in cards:
            warnings.append(Warning_(file, 1, f"{where}: a second record named {card.name!r}: skipped"))
        else:
            cards[card.name] = card
            dropped = len(item.get("rulings") or []) - len(card.rulings)
            if dropped:
                warnings.append(Warning_(file, 1, f"{where} ({card.name}): {dropped} ruling(s) without a date or "
                                                  "text: skipped"))
    return cards, warnings


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _card(item: object) -> OldCard | None:
    if not isinstance(item, dict) or not _text(item.get("name")) or not isinstance(item.get("faces"), list):
        return None
    faces = []
    for face in item["faces"]:
        if not isinstance(face, dict):
            continue
        read = {key: _text(face.get(key)) for key in _FACE_TEXT}
        faces.append({"name": read.pop("faceName") or item["name"], "mana_cost": read.pop("manaCost"),
                      "type_line": read.pop("type") or "", "text": read.pop("text") or "", **read,
                      "types": _strings(face.get("types")), "supertypes": _strings(face.get("supertypes")),
                      "subtypes": _strings(face.get("subtypes")), "keywords": _strings(face.get("keywords"))})
    if not faces:
        return None
    rulings = [{"date": r["date"], "text": r["text"]} for r in item.get("rulings") or []
               if isinstance(r, dict) and _text(r.get("date")) and _text(r.get("text"))]
    foreign = {lang: names["name"] for lang, names in (item.get("foreignNames") or {}).items()
               if isinstance(lang, str) and isinstance(names, dict) and _text(names.get("name"))
               and names["name"] != item["name"]}  # (a printing of the English name in another language's set)
    return OldCard(item["name"], _text(item.get("layout")) or "normal", faces, rulings, foreign,
                   _strings(item.get("colorIdentity")))


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def as_entry(card: OldCard) -> dict:
    """A card the current file does not hold, in that file's entry shape (its first face's
    characteristics, the card's name), so it becomes a card the same way."""
    first = card.faces[0]
    return {"name": card.name, "manaCost": first["mana_cost"], "type": first["type_line"],
            "types": first["types"], "subtypes": first["subtypes"], "supertypes": first["supertypes"],
            "keywords": first["keywords"] or None, "power": first["power"], "toughness": first["toughness"],
            "loyalty": first["loyalty"], "text": first["text"], "layout": card.layout,
            "colorIdentity": card.colour_identity}
