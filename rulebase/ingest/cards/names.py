"""Card names as a player types them: any case, no accents or punctuation ("urzas saga",
"aether vial" for Æther Vial, "lim duls vault"), a face of a multi-face card ("Petty Theft"), the
part of a legendary name before its comma ("Thalia")."""

from __future__ import annotations

import re
import unicodedata

_LIGATURES = str.maketrans({"æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ø": "o", "Ø": "O",
                            "ð": "d", "þ": "th", "ł": "l", "Ł": "L"})
_APOSTROPHES = re.compile(r"['’‘`]")
_NOT_WORD = re.compile(r"[^a-z0-9]+")
FACES = " // "


def fold_name(name: str) -> str:
    """The form names are compared in: lower case, accents and ligatures folded, apostrophes
    dropped (Urza's -> urzas), any other punctuation a space, spaces collapsed."""
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
