"""Word-level differences between two texts (glossary pages, `rulebase diff`).

Words are compared, whitespace is not: "a  b" and "a\nb" are equal. Every op carries the exact
slices of both texts it covers, so joining the `a` sides gives back `a` byte for byte (and the `b`
sides give back `b`): a renderer never loses or invents text. Pure functions, no I/O.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Literal

from rulebase.core.eras import in_force_today
from rulebase.core.records import Record
from rulebase.core.value import Frozen, Value
from rulebase.index.store import RecordStore
from rulebase.index.versions import by_era, newest_first
from rulebase.rules.lookup import cited_number

Op = Literal["equal", "insert", "delete", "replace"]
_WORD = re.compile(r"\S+")


class DiffOp(Frozen):
    """One run of the diff. `a`/`b` are the texts' slices (trailing whitespace included)."""

    __slots__ = ("op", "a", "b")

    def __init__(self, op: Op, a: str, b: str) -> None:
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)


def tokens(text: str) -> tuple[list[str], list[int]]:
    """The words of `text` and where each token's slice starts (the first always at 0)."""
    matches = list(_WORD.finditer(text))
    starts = [m.start() for m in matches]
    if starts:
        starts[0] = 0
    return [m.group() for m in matches], starts


def _slice(text: str, starts: list[int], i: int, j: int) -> str:
    """Tokens i..j-1 with the whitespace that follows them."""
    if i == j:
        return ""
    end = starts[j] if j < len(starts) else len(text)
    return text[starts[i]:end]


def word_diff(a: str, b: str) -> list[DiffOp]:
    """The word-level diff from `a` to `b` (non-equal ops are always separated by equal ones)."""
    words_a, starts_a = tokens(a)
    words_b, starts_b = tokens(b)
    if not words_a and not words_b:
        return [DiffOp("equal", a, b)] if a or b else []
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    ops: list[DiffOp] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        piece_a = _slice(a, starts_a, i1, i2) if words_a else ""
        piece_b = _slice(b, starts_b, j1, j2) if words_b else ""
        ops.append(DiffOp(tag, piece_a, piece_b))  # type: ignore[arg-type]
    return _fix_blank_side(ops, a, b)


def _fix_blank_side(ops: list[DiffOp], a: str, b: str) -> list[DiffOp]:
    """A side with no words (only whitespace) has nothing to slice: hang it on the first op."""
    if "".join(op.a for op in ops) != a:
        ops[0] = DiffOp(ops[0].op, a + ops[0].a, ops[0].b)
    if "".join(op.b for op in ops) != b:
        ops[0] = DiffOp(ops[0].op, ops[0].a, b + ops[0].b)
    return ops


def merge_short_equals(ops: list[DiffOp], min_words: int = 3) -> list[DiffOp]:
    """Absorb equal runs of fewer than `min_words` words that sit between changes, so a rewritten
    text reads as one replacement instead of a soup of shared 'the' and 'a'."""
    out: list[DiffOp] = []
    for n, op in enumerate(ops):
        if op.op == "equal" and 0 < n < len(ops) - 1 and len(op.a.split()) < min_words:
            op = DiffOp("replace", op.a, op.b)
        if op.op != "equal" and out and out[-1].op != "equal":
            prev = out.pop()
            a, b = prev.a + op.a, prev.b + op.b
            op = DiffOp("insert" if not a.split() else "delete" if not b.split() else "replace", a, b)
        out.append(op)
    return out


def similarity(a: str, b: str) -> float:
    """Share of matching words, 0..1 (1.0 when both are empty)."""
    words_a, _ = tokens(a)
    words_b, _ = tokens(b)
    if not words_a and not words_b:
        return 1.0
    return difflib.SequenceMatcher(None, words_a, words_b, autojunk=False).ratio()


def changed(ops: list[DiffOp]) -> bool:
    """True when the diff has any op other than equal."""
    return any(op.op != "equal" for op in ops)


# -- sentences: what a reader of a policy update wants ----------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?\u201d\"])\s+(?=[A-Z0-9\u201c\"(\[-])|\n\n+|\s*\u2022\s*")
_MARKS = re.compile(r"[\u2122\u00ae\u00a9]|\((?:TM|R)\)")  # trade marks a release adds or drops
ITEM_WORDS = 8  # a sentence this short is a list's item: two such are one changed only when alike
PAIRED = 0.5  # a removed and an added sentence this alike (share of words) are one sentence changed


def sentences(text: str) -> list[str]:
    """A text's sentences, in order: a list's items one each ('•' opens an item wherever it
    stands, as a PDF's two-column list of sets prints several on a line), a paragraph without a
    full stop one too."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


class SentenceChange(Frozen):
    """One sentence that differs: the old and the new one (None: added, removed), their word diff,
    and the sentence before it in its text (context; None at the start)."""

    __slots__ = ("old", "new", "ops", "before")

    def __init__(self, old: str | None, new: str | None, ops: list[DiffOp], before: str | None) -> None:
        object.__setattr__(self, "old", old)
        object.__setattr__(self, "new", new)
        object.__setattr__(self, "ops", ops)
        object.__setattr__(self, "before", before)

    @property
    def kind(self) -> str:
        return "added" if self.old is None else "removed" if self.new is None else "changed"


def sentence_diff(a: str, b: str) -> list[SentenceChange]:
    """The sentences that differ between two texts, as multisets (a list whose items moved
    between columns or places has not changed them): each removed sentence paired with the
    likest added one (PAIRED) is changed, with its word diff; the others are added or removed.
    In the new text's order, the removed ones after, in the old text's."""
    old, new = sentences(a), sentences(b)
    gone = Counter(map(_plain, old)) - Counter(map(_plain, new))
    came = Counter(map(_plain, new)) - Counter(map(_plain, old))
    removed = [(k, s) for k, s in enumerate(old) if gone[_plain(s)] > 0 and not gone.subtract([_plain(s)])]
    added = [(k, s) for k, s in enumerate(new) if came[_plain(s)] > 0 and not came.subtract([_plain(s)])]
    pairs: dict[int, tuple[int, str]] = {}
    free = list(removed)
    for k, sentence in added:
        best = max(free, key=lambda r: similarity(r[1], sentence), default=None)
        short = max(len(sentence.split()), len(best[1].split())) <= ITEM_WORDS if best else True
        if best is not None and similarity(best[1], sentence) >= (0.8 if short else PAIRED):
            pairs[k] = best
            free.remove(best)
    for k, was in list(pairs.items()):
        pairs[k] = _joined(was, new[k], free)
    out: list[SentenceChange] = []
    for k, sentence in added:
        was = pairs.get(k)
        if was and _plain(was[1]) == _plain(sentence):
            continue  # only the break between its halves differed
        ops = merge_short_equals(word_diff(was[1], sentence)) if was else [DiffOp("insert", "", sentence)]
        out.append(SentenceChange(was[1] if was else None, sentence, ops, new[k - 1] if k else None))
    out += [SentenceChange(sentence, None, [DiffOp("delete", sentence, "")], old[k - 1] if k else None)
            for k, sentence in free]
    return out


def _joined(was: tuple[int, str], sentence: str, free: list[tuple[int, str]]) -> tuple[int, str]:
    """A changed sentence whose old text one release printed as two (a line or page break read
    as a sentence's end: "... what expectations they" / "can have of the ...") is joined with
    its unpaired other half when the whole is likelier the new sentence, so the half is not
    shown again as removed."""
    k, text = was
    for other in [r for r in free if r[0] in (k - 1, k + 1)]:
        whole = f"{other[1]} {text}" if other[0] < k else f"{text} {other[1]}"
        if similarity(whole, sentence) > similarity(text, sentence):
            free.remove(other)
            k, text = min(k, other[0]), whole
    return k, text


def _plain(sentence: str) -> str:
    """A sentence as compared: quotes, dashes and spacing folded, trade marks dropped (a release
    that adds '™' to a set's name has not changed the sentence)."""
    return " ".join(_MARKS.sub("", sentence).translate(_TYPOGRAPHY).split())


_TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                             "\u2014": "-", "\u00a0": " "})


# --- The one record a reference names, for the commands that take one record: `show` and `diff`.
#
# A record id names itself. A rule number is read as `lookup` reads it: the rule the number means
# now (the Comprehensive Rules version in force), else the official text, newest first
# (lookup.newest_first, index/versions.by_era). When the number names other records too, a note
# says which one was taken and what else is numbered so, so that a user who meant Crystal Keep's
# copy knows to give its id.

NAMED_OTHERS = 3  # other records named in the note; the rest are counted


class Named(Value):
    __slots__ = ("record", "note")

    def __init__(self, record: Record, note: str | None = None) -> None:
        self.record = record
        self.note = note  # how a rule number was read, when others print it too


def record_named(store: RecordStore, ref: str) -> Named | None:
    """The record `ref` (a record id or a rule number, cited as judges cite it) names, or None."""
    ref = ref.strip()
    record = store.get(ref)
    if record is not None:
        return Named(record)
    if ":" in ref:
        return None
    number = cited_number(ref)
    found = by_era(store, newest_first(store.by_number(number), store.documents()), None)
    if not found:
        return None
    chosen, others = found[0], found[1:]
    if not others:
        return Named(chosen)
    shown = ", ".join(r.id for r in others[:NAMED_OTHERS])
    if len(others) > NAMED_OTHERS:
        shown += f" and {len(others) - NAMED_OTHERS} more"
    return Named(chosen, f"{number} is read as {chosen.id}, {_why(store, chosen)}; also numbered so: {shown} "
                         "(give a record id to choose)")


def _why(store: RecordStore, record: Record) -> str:
    """Why a number's first record was taken: it is the rule in force now, or the official text."""
    if record.span and in_force_today(*store.windows([record.id])[record.id]):
        return "the rule in force now"
    documents = store.documents()
    if record.span or documents.get(record.source, {}).get("format") == "comprules":
        return "the Comprehensive Rules' text"
    return "the newest document's text"
