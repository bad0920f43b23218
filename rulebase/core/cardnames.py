"""Card names as a player types them: any case, no accents or punctuation ("urzas saga",
"aether vial" for Æther Vial, "lim duls vault"), a face of a multi-face card ("Petty Theft"), the
part of a legendary name before its comma ("Thalia"), a printing's name in another language
("Zorn Gottes", "神の怒り")."""

from __future__ import annotations

import re
import unicodedata

# The bundled Oracle file's month, as a face's "from" says it (ingest/cards/supplement.py writes it;
# the card view names a face's source only when it is older). Kept here, below the ingest layer, so
# the card view reads it without importing that layer (measured: 23 ms of a cold `rulebase card`).
ORACLE_MONTH = "2026-06"

_LIGATURES = str.maketrans({"æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ø": "o", "Ø": "O",
                            "ð": "d", "þ": "th", "ł": "l", "Ł": "L"})
_APOSTROPHES = re.compile(r"['’‘`]")
_NOT_WORD = re.compile(r"[\W_]+")  # (after lower(): ASCII's [^a-z0-9]; a Japanese or Russian name keeps its letters)
FACES = " // "


def fold_name(name: str) -> str:
    """The form names are compared in: lower case, accents and ligatures folded, apostrophes
    dropped (Urza's -> urzas), any other punctuation a space, spaces collapsed; letters of other
    scripts kept (a card's name in Japanese or Russian: "神の怒り", "гнев божий")."""
    if name.isascii():  # (most names: nothing to fold; 240,000 names in 0.82 s, not 1.33)
        text = name.lower()
    else:
        text = unicodedata.normalize("NFKD", name.translate(_LIGATURES))
        text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    text = _APOSTROPHES.sub("", text)
    return _NOT_WORD.sub(" ", text).strip()


def face_names(name: str) -> list[str]:
    """The faces' names of a multi-face card ('Fire // Ice' -> ['Fire', 'Ice']); one name else."""
    return [part.strip() for part in name.split(FACES)] if FACES in name else [name]


def before_comma(name: str) -> str | None:
    """'Thalia' of 'Thalia, Guardian of Thraben': what players call a legendary character."""
    head, comma, _ = name.partition(",")
    return head.strip() if comma and head.strip() else None


def ruling_id(card_id: str, n: int) -> str:
    """The id of a card's n-th ruling (from 1, oldest first): 'card:fire-ice:ruling-1'."""
    return f"{card_id}:ruling-{n}"
