"""How alike two names are, for 'did you mean': typing slips, the names close enough to offer,
and the names that hold the words typed (a word of a name: 'bolt' for Lightning Bolt).

A suggestion is only worth printing when it is what the user meant to type: `define flurble`
offered "double" (three slips), and a list of anything vaguely alike reads as noise.
"""

from __future__ import annotations

from collections.abc import Iterable


def slips(a: str, b: str) -> int:
    """Typing slips between two strings: a wrong, missing or extra character, or two neighbours
    swapped, each count one (optimal string alignment distance): '520.83a' is one from '502.83a'."""
    before, row = [0] * (len(b) + 1), list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return row[-1]


def allowed_slips(word: str) -> int:
    """How many slips a word of this length may carry and still be recognised (as search engines'
    fuzzy matching allows): none in two letters, one in up to five, two beyond."""
    return 0 if len(word) <= 2 else 1 if len(word) <= 5 else 2


COMPLETES = 4  # a word this long or longer is also offered the names it begins ('tramp' -> 'trample')


def close_names(word: str, names: Iterable[str], limit: int = 5) -> list[str]:
    """The names (lower-cased, each once) the user may have meant by `word`: those within its
    allowed slips, fewest slips first, then those it is the start of; shorter names first."""
    word = word.strip().lower()
    most = allowed_slips(word)
    scored = []
    for name in dict.fromkeys(n.lower() for n in names):
        if abs(len(name) - len(word)) <= most and (near := slips(word, name)) <= most:
            scored.append((near, len(name), name))
        elif len(word) >= COMPLETES and name.startswith(word):
            scored.append((most + 1, len(name), name))
    return [name for *_, name in sorted(scored)][:limit]


def holding_words(text: str, names: Iterable[str], limit: int = 40) -> list[str]:
    """The names (as given, each once) that hold every word of `text` as a whole word, shortest
    first: `card bolt` meant one of the cards called "... Bolt", which no count of slips finds
    ('Jolt' and 'Boil' are one slip away, 'Lightning Bolt' ten). Words are compared lower-cased;
    `names` are expected folded as the caller folds `text`."""
    words = text.lower().split()
    if not words:
        return []
    found = {name for name in names if set(words) <= set(name.lower().split())}
    return sorted(found, key=lambda name: (len(name), name))[:limit]
