"""The bundled card files: every card's current Oracle text (a JSON list, xz-compressed, read from
its bytes) into one record per card, completed from the 2022 file the source's `also` names
(mtgjson.py, merged by supplement.py): the faces the current file lacks, rulings, foreign names.

A transform card's back face is listed in the current file as an entry of its own (face "back",
front NAME): it becomes a face of its front card, and both names find the card. The Arena-only "A-"
versions (Alchemy rebalances) are cards of their own, labelled as such. What neither file holds is
said per card (`card["missing"]`) and counted for the ingest report, never invented: the second
half of multi-face cards printed after April 2022, battles' defense, the rulings of cards printed
since.
"""

from __future__ import annotations

import json
import lzma
from collections import Counter

from rulebase.core.cardnames import FACES, ORACLE_MONTH, face_names, ruling_id
from rulebase.core.errors import SourceError
from rulebase.core.records import Record, slugify
from rulebase.core.sources import Source
from rulebase.ingest.cards import mtgjson
from rulebase.ingest.cards.mana import mana_value, shown_value
from rulebase.ingest.cards.supplement import supplement
from rulebase.ingest.text import Parsed, Warning_

FORMAT = "oracle-cards"
ARENA_PREFIX = "A-"
# Layouts whose second half the file does not hold (all but transform, whose back is an entry).
_SECOND_HALF_MISSING = {"split", "adventure", "modal_dfc", "reversible_card", "prepare", "aftermath", "flip",
                        "meld"}
_FIELDS = ("name", "manaCost", "type", "types", "subtypes", "supertypes", "keywords", "power", "toughness",
           "loyalty", "text", "layout")


def entries(data: bytes, name: str) -> list[tuple[int, object]]:
    """(offset, value) of each element of the file's JSON list, in order: the offset names an entry
    in a report (the file is one line)."""
    try:
        text = lzma.decompress(data).decode("utf-8") if data[:6] == b"\xfd7zXZ\x00" else data.decode("utf-8")
    except (lzma.LZMAError, UnicodeDecodeError) as exc:
        raise SourceError(f"not an xz-compressed UTF-8 JSON file ({exc})", name,
                          "restore the card file from corpus/sources.toml's provenance") from None
    decoder = json.JSONDecoder()
    at = _skip(text, 0)
    if not text.startswith("[", at):
        raise SourceError("not a JSON list of cards", name, "give the card file as its provenance describes")
    at = _skip(text, at + 1)
    found: list[tuple[int, object]] = []
    while at < len(text) and text[at] != "]":
        try:
            value, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise SourceError(f"invalid JSON at line {exc.lineno}, column {exc.colno} ({exc.msg})", name,
                              "restore the card file from corpus/sources.toml's provenance") from None
        found.append((at, value))
        at = _skip(text, end)
        if text.startswith(",", at):
            at = _skip(text, at + 1)
    return found


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def parse_file(source: Source) -> Parsed:
    try:
        data = source.path.read_bytes()
        extra = [(path, path.read_bytes()) for path in source.also]
    except OSError as exc:
        raise SourceError(f"cannot read file ({exc.strerror})", str(exc.filename or source.path)) from None
    old: dict[str, mtgjson.OldCard] = {}
    warnings: list[Warning_] = []
    for path, blob in extra:
        cards, problems = mtgjson.read(blob, str(path))
        old.update(cards)
        warnings += problems
    parsed = parse_entries(entries(data, str(source.path)), source, old)
    parsed.warnings[:0] = warnings
    return parsed


def parse_entries(items: list[tuple[int, object]], source: Source,
                  old: dict[str, mtgjson.OldCard] | None = None) -> Parsed:
    """One record per card; a back face joins its front card; what cannot be placed is a warning
    naming the entry and its offset. `old`: the 2022 file's cards, completing these (supplement.py)
    and adding the cards only it holds, after the current file's."""
    file = source.path.name
    warnings: list[Warning_] = []
    cards: dict[str, dict] = {}
    backs: list[tuple[int, int, dict]] = []
    for n, (offset, entry) in enumerate(items, 1):
        where = f"entry {n} at offset {offset}"
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
            warnings.append(Warning_(file, 1, f"{where}: not a card (no name): skipped"))
            continue
        odd = [f for f in _FIELDS if f in entry and f != "name" and not _plausible(f, entry[f])]
        if odd:
            warnings.append(Warning_(file, 1, f"{where} ({entry['name']}): unexpected value in "
                                              f"{', '.join(odd)}: read as empty"))
        if entry.get("face") == "back" and isinstance(entry.get("front"), str):
            backs.append((n, offset, entry))
            continue
        if entry["name"] in cards:
            warnings.append(Warning_(file, 1, f"{where}: a second entry named {entry['name']!r}: skipped"))
            continue
        cards[entry["name"]] = {"entry": entry, "n": n, "backs": []}
    by_front = {face_names(name)[0]: name for name in cards}
    for n, offset, entry in backs:
        front = by_front.get(entry["front"])
        if front is None:  # a back face whose front is not in the file: a card of its own, said so
            warnings.append(Warning_(file, 1, f"entry {n} at offset {offset}: back face {entry['name']!r} of "
                                              f"{entry['front']!r}, which the file does not hold: kept as a card"))
            cards.setdefault(entry["name"], {"entry": entry, "n": n, "backs": []})
            continue
        cards[front]["backs"].append(entry)
    old = old or {}
    only_old = [name for name in old if name not in cards]
    for k, name in enumerate(only_old, len(items) + 1):  # held by the 2022 file alone: its text, said so
        cards[name] = {"entry": mtgjson.as_entry(old[name]), "n": k, "backs": [], "old_only": True}
    records: list[Record] = []
    ids: set[str] = set()
    for held in cards.values():
        record = _record(source, held["entry"], held["backs"], held["n"], ids)
        if held.get("old_only"):
            record.card["missing"].insert(0, f"current Oracle text (not in the current file: its text of {mtgjson.DATE})")
            record.card["text_of"] = mtgjson.DATE
        records.append(record)
    records.sort(key=lambda r: r.order)  # the file's order, a back face kept as a card in its place
    filled = supplement(records, old) if old else Counter()
    missing: Counter = Counter()
    for record in records:
        for what in record.card["missing"]:
            missing[what.split(" (")[0]] += 1
    notes = [f"{len(records)} cards from {len(items)} entries ({len(backs)} back faces joined to their front card; "
             f"{sum(r.card['arena'] for r in records)} Arena-only 'A-' rebalanced cards; "
             f"{sum(not r.text for r in records)} with no rules text)"]
    if old:
        notes.append(f"the 2022 file ({len(old)} cards): {len(only_old)} cards only it holds (its text of "
                     f"{mtgjson.DATE}); " + "; ".join(f"{what} {count}" for what, count in sorted(filled.items())))
    notes += [f"the files lack, per card: {what} x{count}" for what, count in missing.most_common()]
    records += rulings(records)
    return Parsed(records, warnings, notes=notes, meta={"missing": dict(missing), "filled": dict(filled)})


def rulings(cards: list[Record]) -> list[Record]:
    """The cards' rulings as records of their own, searched beside the cards: one per text, as
    23,597 texts make the 45,080 rulings (a split card's "Each split card has two names" is on 65
    cards). A record is named by the first card that has it and its date there, its id is that
    card's (ruling_id), and `refs_in` lists the other cards that have it; each card keeps its own
    rulings' dates and ids (`card["rulings"]`: [{date, id}], oldest first)."""
    by_text: dict[str, Record] = {}
    for card in cards:
        held = card.card["rulings"]
        card.card["rulings"] = []
        for n, ruling in enumerate(held, 1):
            record = by_text.get(ruling["text"])
            if record is None:
                record = by_text[ruling["text"]] = Record(
                    id=ruling_id(card.id, n), source=card.source, edition=card.edition, lang=card.lang,
                    kind="card-ruling", text=ruling["text"], raw="", title=f"{card.title} — ruling of {ruling['date']}",
                    parent=card.id, order=card.order, line=1)
            elif card.id not in record.refs_in and card.id != record.parent:
                record.refs_in.append(card.id)
            card.card["rulings"].append({"date": ruling["date"], "id": record.id})
    return list(by_text.values())


def _plausible(name: str, value: object) -> bool:
    if value is None:
        return True
    if name in ("types", "subtypes", "supertypes", "keywords"):
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, str)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _list(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _face(entry: dict, name: str) -> dict:
    return {"name": name, "mana_cost": _text(entry.get("manaCost")) or None, "type_line": _text(entry.get("type")),
            "text": _text(entry.get("text")), "power": _text(entry.get("power")) or None,
            "toughness": _text(entry.get("toughness")) or None, "loyalty": _text(entry.get("loyalty")) or None,
            "defense": None, "mana_value": None, "missing": False, "from": ORACLE_MONTH}


def _record(source: Source, entry: dict, backs: list[dict], n: int, ids: set[str]) -> Record:
    name = entry["name"]
    layout = _text(entry.get("layout")) or "normal"
    names = face_names(name)
    faces = [_face(entry, names[0])]
    for back in backs:
        faces.append(_face(back, back["name"]))
    held = {face["name"] for face in faces}
    missing: list[str] = []
    for other in names[1:]:
        if other not in held:
            faces.append({"name": other, "mana_cost": None, "type_line": "", "text": "", "power": None,
                          "toughness": None, "loyalty": None, "defense": None, "mana_value": None, "missing": True,
                          "from": None})
            missing.append(f"second half's text ({other})" if layout in _SECOND_HALF_MISSING
                           else f"face's text ({other})")
    types = _list(entry.get("types"))
    if "Battle" in types:
        missing.append("defense (a battle's)")
    cost = _text(entry.get("manaCost")) or None
    texts = [face["text"] for face in faces if face["text"]]
    slug = slugify(name)
    card_id = f"card:{slug}"
    suffix = 2
    while card_id in ids:
        card_id, suffix = f"card:{slug}-{suffix}", suffix + 1
    ids.add(card_id)
    card = {
        "name": name, "mana_cost": cost, "mana_value": shown_value(mana_value(cost)),
        "type_line": _text(entry.get("type")), "supertypes": _list(entry.get("supertypes")), "types": types,
        "subtypes": _list(entry.get("subtypes")), "power": faces[0]["power"], "toughness": faces[0]["toughness"],
        "loyalty": faces[0]["loyalty"], "layout": layout, "keywords": _list(entry.get("keywords")),
        "color_identity": _list(entry.get("colorIdentity")), "faces": faces if len(faces) > 1 else [],
        "arena": name.startswith(ARENA_PREFIX), "missing": missing, "links": [], "rulings": [], "foreign": {},
    }
    aliases = [f for f in dict.fromkeys(face["name"] for face in faces) if f != name] if FACES in name or backs else []
    text = "\n".join(texts)  # (raw: "", the text is the file's own; the entry is JSON, its line 1)
    return Record(id=card_id, source=source.id, edition=source.edition, lang=source.lang, kind="card",
                  text=text, raw="", title=name, order=n, line=1, aliases=aliases, card=card)
