"""The words people use for the documents' words: corpus/vocabulary.toml, read and applied to a query.

The rules never abbreviate and seldom speak as players do ("HCE", "blink", "said go"); the file
says, entry by entry and with its source, which of the documents' words each stands for. Four
kinds (the file's header says more): an abbreviation is replaced by what it stands for, a
player's phrase gains the documents' words as its alternatives, a digital word makes a
question one about MTG Arena or Magic Online, and a tournament word one about how a tournament
handles it. Pure text: the searcher decides what a word's
alternatives score (Searcher.search), this module only finds them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable

from rulebase.core.errors import ManifestError
from rulebase.core.paths import read_bytes
from rulebase.core.value import Frozen, Value
from rulebase.index.seal import blake2b, keep, state_dir

VOCABULARY_FILE = "vocabulary.toml"
PARSED = "vocabulary"  # under seal.state_dir(): the file as last parsed, by its path
KINDS = ("abbreviation", "phrase", "digital", "tournament")
_EDGE_BEFORE, _EDGE_AFTER = r"(?<![\w'’/-])", r"(?![\w'’/-])"


def _pattern(forms: list[str], any_case: Callable[[str], bool]) -> re.Pattern | None:
    """One pattern for the forms, longest first, each as whole words; a form matched in any case
    when `any_case` says so, else only as written."""
    parts = []
    for form in sorted(dict.fromkeys(forms), key=len, reverse=True):
        body = r"\s+".join(re.escape(word) for word in form.split())
        parts.append(f"(?i:{body})" if any_case(form) else body)
    return re.compile(_EDGE_BEFORE + "(?:" + "|".join(parts) + ")" + _EDGE_AFTER) if parts else None


def _holds_word(folded: str, word: str) -> bool:
    """Whether `word` stands in `folded` as a whole word, at the edges _pattern's forms need: the
    forms of "on the play" begin with "on", which "damage prevention" holds only inside a word
    (and compiling the entry's pattern cost that search 1.3 ms)."""
    at = folded.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not _in_word(folded[at - 1])) and (end == len(folded) or not _in_word(folded[end])):
            return True
        at = folded.find(word, at + 1)
    return False


def _in_word(char: str) -> bool:
    """A character _EDGE_BEFORE and _EDGE_AFTER read as part of a word."""
    return char.isalnum() or char in "_'’/-"


class Entry(Frozen):
    __slots__ = ("kind", "say", "means", "source")

    def __init__(self, kind: str, say: tuple[str, ...], means: str, source: str):
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "say", say)
        object.__setattr__(self, "means", means)
        object.__setattr__(self, "source", source)


def _any_case(form: str) -> bool:
    """An abbreviation of up to three capitals is read only as written: "to" is no tournament
    organizer, "mt" no missed trigger."""
    return len(form) > 3 or not form.isupper()


class Parlance(Value):
    """The vocabulary's entries, each pattern compiled when a text first holds its words."""

    __slots__ = ("entries", "_compiled")

    def __init__(self, entries: list[Entry] | None = None):
        self.entries = [] if entries is None else entries
        self._compiled: dict[int, re.Pattern | None] = {}  # (a cache: not compared or shown)

    def _patterns(self, kind: str, text: str) -> list[tuple[Entry, re.Pattern]]:
        """The patterns of the entries of `kind` that can match `text`. One whose forms' first
        words the text does not hold (in any case) cannot: it is not compiled. Compiling all 59 cost
        a cold `rulebase search "damage prevention"` about 9 ms of its 255 ms of CPU (median of 9)."""
        return [(entry, pattern) for n, entry in enumerate(self.entries)
                if entry.kind == kind and (pattern := self._pattern(n, text)) is not None]

    def _pattern(self, n: int, text: str) -> re.Pattern | None:
        entry, folded = self.entries[n], text.casefold()
        if not any(_holds_word(folded, form.split()[0].casefold()) for form in entry.say if form.split()):
            return None
        if n not in self._compiled:
            self._compiled[n] = _pattern(list(entry.say), _any_case if entry.kind == "abbreviation" else lambda f: True)
        return self._compiled[n]

    def spell_out(self, text: str) -> tuple[str, list[tuple[str, str]]]:
        """The text with each abbreviation replaced by what it stands for, and (as typed, as read)
        for each: "HCE at competitive" is "hidden card error at competitive"."""
        said = []
        for n, entry in enumerate(self.entries):
            pattern = self._pattern(n, text) if entry.kind == "abbreviation" else None  # (text as replaced so far)
            if pattern is None:
                continue
            for typed in dict.fromkeys(m.group(0) for m in pattern.finditer(text)):
                said.append((typed, entry.means))
            text = pattern.sub(entry.means, text)
        return text, said

    def meanings(self, text: str) -> list[tuple[str, str]]:
        """(the words as typed, the documents' words for them) for each phrase the text holds,
        longer phrases first and none inside another's words: "chump blocked" is one phrase, not
        "chump" and then "blocked"."""
        found: list[tuple[int, int, str, str]] = []
        for entry, pattern in self._patterns("phrase", text):
            for match in pattern.finditer(text):
                found.append((match.start(), match.end(), match.group(0), entry.means))
        taken: list[tuple[int, int]] = []
        out = []
        for start, end, typed, means in sorted(found, key=lambda f: f[0] - f[1]):
            if not any(start < b and a < end for a, b in taken):
                taken.append((start, end))
                out.append((typed, means))
        return out

    def asks_digital(self, text: str) -> bool:
        """Whether the text names digital play (MTG Arena, Magic Online): the digital documents
        answer only such questions."""
        return any(pattern.search(text) for _, pattern in self._patterns("digital", text))


    def asks_tournament(self, text: str) -> bool:
        """Whether the text names what only the tournament documents speak of (a penalty, an
        infraction, a decklist): such a question asks how a tournament handles it."""
        return any(pattern.search(text) for _, pattern in self._patterns("tournament", text))


def load_parlance(path: str | os.PathLike | None) -> Parlance:
    """The vocabulary file's entries, shape-checked; an empty Parlance when there is no file (a
    corpus of the user's own, a test's small corpus)."""
    if path is None or not os.path.isfile(path):
        return Parlance()
    data = _read(path)
    entries = []
    for kind, rows in data.items():
        if kind not in KINDS or not isinstance(rows, list):
            raise ManifestError(f"unknown table {kind!r} (use [[{']], [['.join(KINDS)}]])", str(path),
                                "fix the vocabulary file (see the comment at its top)")
        for n, row in enumerate(rows, 1):
            say, means, source = row.get("say"), row.get("means", ""), row.get("source")
            problem = (
                "'say' must be a list of words" if not isinstance(say, list) or not say
                or not all(isinstance(w, str) and w.strip() for w in say) else
                "'means' must be words" if kind not in ("digital", "tournament") and (not isinstance(means, str) or not means.strip()) else
                "'source' must say where the reading comes from" if not isinstance(source, str) or not source.strip()
                else None)
            if problem:
                raise ManifestError(f"[[{kind}]] entry {n}: {problem}", str(path),
                                    "fix the vocabulary file (see the comment at its top)")
            entries.append(Entry(kind, tuple(w.strip() for w in say), means.strip(), source.strip()))
    return Parlance(entries)


def _read(path: str | os.PathLike) -> dict:
    """The file's tables, parsed. Read once a version of the file: the parse is kept as JSON in
    the user's state folder under the file's place, size and times, since importing tomllib and
    parsing cost a cold search 12 ms and reading the JSON 0.3 ms. A file changed in any way
    (its size, modification or change time, inode) is parsed again."""
    st = os.stat(path)
    where = os.path.realpath(path)
    version = [where, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
    kept = os.path.join(state_dir(), PARSED, blake2b(where.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
                        + ".json")
    with contextlib.suppress(OSError, ValueError):
        cached = json.loads(read_bytes(kept))
        if isinstance(cached, dict) and cached.get("version") == version and isinstance(cached.get("data"), dict):
            return cached["data"]
    import tomllib  # lazy: only a version of the file not parsed before

    try:
        data = tomllib.loads(read_bytes(path).decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"not valid TOML ({exc})", str(path), "fix the vocabulary file (see the comment at its top)") \
            from None
    with contextlib.suppress(TypeError, ValueError):  # (a value JSON cannot hold: not kept, the answer is the same)
        keep(kept, json.dumps({"version": version, "data": data}, ensure_ascii=False).encode("utf-8"))
    return data
