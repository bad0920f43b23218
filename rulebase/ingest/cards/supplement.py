"""The current Oracle file's cards, completed from the 2022 file (mtgjson.py): the faces the
current file lacks, each card's dated rulings and its names in other languages, and the card's
mana value as the rules define it for its layout.

The current text wins wherever both files hold a face. A face neither holds (a multi-face card
printed after April 2022) stays a face without text, said per card in `card["missing"]` and
counted in the parse report.
"""

from __future__ import annotations

from collections import Counter

from rulebase.core.cardnames import ORACLE_MONTH
from rulebase.core.records import Record
from rulebase.ingest.cards.mana import mana_value, shown_value
from rulebase.ingest.cards.mtgjson import DATE, OldCard

# 709.4b (aftermath cards are split cards, 702.127): a split card's mana cost is its halves'
# combined, and its mana value is read from that cost in every zone but the stack.
SUMMED = {"split", "aftermath"}
LATER = "in neither card file (the 2022 file holds the cards printed to April 2022, but Commander Legends')"


def face_value(layout: str, faces: list[dict], n: int) -> int | float | None:
    """A face's own mana value: its cost's (202.3), but a transforming card's back face takes its
    front face's (202.3b), and a melded face's is its pair's fronts' together (202.3c: not one
    card's, so none here)."""
    if n and layout == "transform":
        return faces[0].get("mana_value")
    if n and layout == "meld":
        return None
    return shown_value(mana_value(faces[n].get("mana_cost"))) if not faces[n].get("missing") else None


def card_cost(layout: str, faces: list[dict], front_cost: str | None) -> tuple[str | None, int | float | None]:
    """The card's mana cost and mana value off the stack: a split card's halves combined (709.4b;
    None while a half's cost is unknown), any other card's front face's (712.8a, 715.4, 710.1c,
    722.4: each has only its main characteristics there)."""
    if layout in SUMMED and len(faces) > 1:
        if any(face.get("missing") for face in faces):
            return front_cost, None
        costs = [face.get("mana_cost") or "" for face in faces]
        return " // ".join(costs), shown_value(sum(mana_value(cost) for cost in costs))
    return front_cost, shown_value(mana_value(front_cost))


def supplement(records: list[Record], old: dict[str, OldCard]) -> Counter:
    """Complete each card in place from the 2022 file; returns what was filled and what is still
    missing, counted, for the parse report."""
    counts: Counter = Counter()
    standalone = {r.title: r for r in records if r.card is not None and not r.card["faces"]}
    for record in records:
        card = record.card
        older = old.get(record.title or "")
        for n, face in enumerate(card["faces"]):
            if face.get("missing"):
                filled = _fill(face, standalone.get(face["name"]), older)
                if filled:
                    counts[f"faces filled from the {filled} file"] += 1
                    card["missing"] = [m for m in card["missing"] if f"({face['name']})" not in m]
                else:
                    counts["faces in neither file"] += 1
                    card["missing"] = [f"{m}: {LATER}" if f"({face['name']})" in m else m for m in card["missing"]]
            face["mana_value"] = face_value(card["layout"], card["faces"], n)
        if card["faces"]:
            card["mana_cost"], card["mana_value"] = card_cost(card["layout"], card["faces"],
                                                              card["faces"][0].get("mana_cost"))
            record.text = "\n".join(face["text"] for face in card["faces"] if face.get("text"))
            keywords = [k for face in card["faces"] for k in face.pop("keywords", None) or []]
            card["keywords"] = list(dict.fromkeys([*card["keywords"], *keywords]))
        if older is None:
            card["rulings"], card["foreign"] = [], {}
            card["missing"].append("rulings (only the 2022 file has rulings, and it does not hold the card)")
            counts["cards the 2022 file does not hold"] += 1
            continue
        card["rulings"] = sorted(older.rulings, key=lambda r: r["date"])
        card["foreign"] = dict(older.foreign)
        counts["rulings"] += len(older.rulings)
        counts["cards with rulings"] += bool(older.rulings)
        counts["cards with names in other languages"] += bool(older.foreign)
    return counts


def _fill(face: dict, entry: Record | None, older: OldCard | None) -> str | None:
    """Fill a face the card's entry lacks: from the current file's entry of that name (a meld
    card's back face is listed as a card of its own), else from the 2022 file's face. Returns
    which file it came from, or None."""
    if entry is not None and entry.card is not None:
        facts = entry.card
        face.update(mana_cost=facts["mana_cost"], type_line=facts["type_line"], text=entry.text,
                    power=facts["power"], toughness=facts["toughness"], loyalty=facts["loyalty"],
                    missing=False, keywords=facts["keywords"])
        face["from"] = ORACLE_MONTH
        return "current"
    held = older.face(face["name"]) if older is not None else None
    if held is None:
        return None
    face.update(mana_cost=held["mana_cost"], type_line=held["type_line"], text=held["text"],
                power=held["power"], toughness=held["toughness"], loyalty=held["loyalty"],
                defense=held["defense"], missing=False, keywords=held["keywords"])
    face["from"] = DATE
    return DATE
