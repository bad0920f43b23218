"""Rule lineage across Comprehensive Rules releases: which numbered rules are the same rule.

Consecutive releases share almost all their text, but numbers are not identities: 2009-07-11
renumbered everything (502.83 Exalted became 702.80, later 702.83) and numbers freed by a removal
are reused. `trace` gives every entry of every release a lineage id, matching each release to the
previous non-empty one in passes, strongest evidence first, each one-to-one:

1. same number, same text;
2. same text once cited rule numbers are masked ("See rule 306.5." == "See rule 506.5.") and
   quotes, dashes and case folded: at the same number, then at any number when the text is unique
   on both sides (a renumbering; a title-only heading such as "Exalted" matches by its title).
   A heading kept by 1-2 is let go when its rules went elsewhere (2009-05-01's "300 General" is
   2009-07-11's "500 General", not its "300 General");
3. "the same place" with word similarity >= SAME_PLACE_MIN: the same number, the same subrule
   letter under a parent that was matched (502.83 -> 702.80 puts 502.83c at 702.80c), or for a
   chapter, where most of its rules went - but not the same number when the parents (or the
   children) went different ways: that number was reused;
4. anywhere else with word similarity >= MOVED_MIN, greedy by best score, STRUCTURE_BONUS for a
   pair whose parents match. MOVED_MIN is above 2/3, so a rule split into two even halves, or two
   merged into one, does not continue at a new number. A heading moves only by an equal title;
5. rewritten in place: the same number, where pass 3 would look, nothing else claimed either
   text, and both cite the same rules (a non-empty set). Deathtouch's 702.2b of 2009 ("can
   divide that damage as he or she chooses ... an exception to the procedures described in
   rules 510.1c-d") became 2010's "any nonzero amount of combat damage ... is lethal damage ...
   See rules 510.1c-d": one rule, rewritten. Over the archive (1999-2025) this joins 11 pairs,
   each a rewrite read by hand (103.2 "can't" beats "can", 308.2a declaring attackers, 217.1c a
   new object, 702.102a bestow...); a number reused for another rule cites other rules.

Only entries of one level match: a chapter ("702") with a chapter, a heading with a heading, a
rule with a rule. `match_score` is difflib's ratio over the words of the masked text; pass 4 never
compares all pairs (see _Match._moved_pairs). Rules missing from a release (a parse that lost
part of a file) are kept for BRIDGE releases: passes 1-4 match them when they come back in the
next release, passes 1-2 the one after. An empty release is skipped, not read as "every rule was
removed". Deterministic: ties go to document order, ids are dense in order of first appearance.
"""


from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from difflib import SequenceMatcher
from functools import lru_cache

from rulebase.core.records import number_key
from rulebase.core.value import Frozen, Value

SAME_PLACE_MIN = 0.5  # an edit in place: half the words survive
MOVED_MIN = 0.7  # a move elsewhere needs more: an even split/merge scores 2/3
STRUCTURE_BONUS = 0.05  # parent matched to parent: preferred among near-equal scores
BRIDGE = 2  # releases a vanished rule may be missing and still continue its lineage

Entry = tuple[str, str]

_NUMBER = re.compile(r"\d{1,3}(?:\.\d+[a-z]?)?(?!\w)")  # leading digits: re scans fast
_FOLD = (("\u201c", '"'), ("\u201d", '"'), ("\u2018", "'"), ("\u2019", "'"), ("\u2013", "-"), ("\u2014", "-"),
         ("\u2212", "-"))
_WORD = re.compile(r"[\w#]+")
_TITLE_END = '.:;!?")\u201d'
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def mask(text: str) -> str:
    """The text with cited rule numbers (306.5, 601.2f, 702: any number of three digits) and
    section numbers ('section 6') replaced by '#': what a renumbering keeps. Other numbers
    (+1/+1, 20 life, 1000) stay."""
    out, at = [], 0
    for m in _citations(text):
        out += [text[at:m.start()], "#"]
        at = m.end()
    return "".join(out) + text[at:]


def _citations(text: str) -> Iterator[re.Match]:
    """The rule and section numbers `text` cites (what mask hides), as matches."""
    for m in _NUMBER.finditer(text):
        start = m.start()
        before = text[start - 1: start]
        if before and (before.isalnum() or before in "._"):
            continue  # inside a longer number or word
        if len(m.group().split(".")[0]) == 3 or text[max(0, start - 8): start] in ("section ", "Section "):
            yield m


def _cited(text: str) -> frozenset[str]:
    """The rule numbers a text cites ('See rules 510.1c-d': 510.1c), as mask finds them."""
    return frozenset(m.group() for m in _citations(text))


def _ratio_words(wa: Sequence[str], wb: Sequence[str]) -> float:
    """difflib's ratio of two word lists, with their common first and last words counted as
    matching before difflib sees the rest: for an edit inside a rule (what most edits are) the
    same figure but in 1 of ~3000 random edits, at a fraction of the cost."""
    n = min(len(wa), len(wb))
    head = 0
    while head < n and wa[head] == wb[head]:
        head += 1
    tail = 0
    while tail < n - head and wa[-1 - tail] == wb[-1 - tail]:
        tail += 1
    same = head + tail
    if same < len(wa) and same < len(wb):
        middle = SequenceMatcher(None, wa[head: len(wa) - tail], wb[head: len(wb) - tail], autojunk=False)
        same += sum(block.size for block in middle.get_matching_blocks())
    return 2 * same / (len(wa) + len(wb)) if wa or wb else 1.0


def match_score(x: str, y: str) -> float:
    """The word similarity the matching uses (0..1): _ratio_words over the masked, folded words."""
    norm = _Norm()
    return _ratio_words(norm.form(x)[0], norm.form(y)[0])


class _Norm:
    """Per-text derived forms, computed once per distinct text (texts repeat across releases)."""

    __slots__ = ("keys", "titles", "forms")

    def __init__(self) -> None:
        self.keys: dict[str, str] = {}
        self.titles: dict[str, bool] = {}
        self.forms: dict[str, tuple[tuple[str, ...], frozenset]] = {}

    def key(self, text: str) -> str:
        """The matching key: cited numbers masked, quotes and dashes folded, lower case."""
        got = self.keys.get(text)
        if got is None:
            folded = text
            if not text.isascii():  # str.replace beats str.translate several times over here
                for curly, plain in _FOLD:
                    folded = folded.replace(curly, plain)
            got = self.keys[text] = mask(folded).lower()
        return got

    def title(self, text: str) -> bool:
        """A title-only heading ('Exalted', 'General'), not a sentence."""
        got = self.titles.get(text)
        if got is None:
            got = self.titles[text] = bool(text) and text[-1] not in _TITLE_END and len(text.split()) <= 8
        return got

    def form(self, text: str) -> tuple[tuple[str, ...], frozenset]:
        """(the words of the key, the words tagged with their occurrence count - 'the', then
        ('the', 2)... - a set whose intersections count the words two texts share, as multisets)."""
        got = self.forms.get(text)
        if got is None:
            words = tuple(_WORD.findall(self.key(text)))
            counts = Counter(words)
            tagged: set = set(counts)  # a word's first occurrence is the word itself
            for w in [w for w, n in counts.items() if n > 1]:
                tagged.update((w, k) for k in range(2, counts[w] + 1))
            got = self.forms[text] = (words, frozenset(tagged))
        return got


@lru_cache(maxsize=1 << 15)  # the same few thousand numbers recur in every release
def _up(number: str) -> str | None:
    """The parent number: 702.80a -> 702.80, 702.80 -> 702 (the chapter), 702 -> None."""
    stem = number.rstrip(_LETTERS)
    if stem != number:
        return stem.rstrip(".")
    return number.split(".")[0] if "." in number else None


def _suffix(number: str) -> str:
    return number[len(number.rstrip(_LETTERS)):]


class _Match:
    """One-to-one matching of the entries `a` to release `b`. `a` is the previous release followed
    by the bridge pool; each pass runs on one `scope` of `a` at a time, so the previous release
    always has the first claim on a pass's evidence and numbers of different releases never mix."""

    def __init__(self, a: Sequence[Entry], b: Sequence[Entry], norm: _Norm, a_title: list[bool]) -> None:
        """`a_title[i]`: a[i] is a title-only heading (computed once per release by the caller)."""
        self.a, self.b, self.norm, self.a_title = a, b, norm, a_title
        self.b_of_a: list[int | None] = [None] * len(a)
        self.a_of_b: list[int | None] = [None] * len(b)
        self.scope = range(len(a))
        self.votes: dict[int, dict[str, str]] = {}  # scope start -> _votes(), once per scope

    def pair(self, i: int, j: int) -> None:
        self.b_of_a[i], self.a_of_b[j] = j, i

    def free_a(self) -> list[int]:
        return [i for i in self.scope if self.b_of_a[i] is None]

    def _pairs(self) -> list[tuple[int, int]]:
        return [(i, j) for i in self.scope if (j := self.b_of_a[i]) is not None]

    def free_b(self) -> list[int]:
        return [j for j, i in enumerate(self.a_of_b) if i is None]

    def _level(self, entry: Entry) -> tuple[bool, bool]:
        """(a rule rather than a chapter, a title-only heading): only equal levels match."""
        return "." in entry[0], self.norm.title(entry[1])

    def exact(self, scope: range) -> None:
        """Passes 1 and 2: same number and text; same number and key; unique key anywhere.
        Then headings matched at the same number whose children went elsewhere are let go
        ('300 General' of 2009-05-01 is not '300 General' of 2009-07-11, but 500)."""
        self.scope = scope
        a, b, a_of_b, key = self.a, self.b, self.a_of_b, self.norm.key
        first = {a[i]: i for i in reversed(scope)}
        again: dict[Entry, list[int]] = defaultdict(list)  # the same rule printed twice
        if len(first) < len(scope):
            for i in scope:
                if first[a[i]] != i:
                    again[a[i]].append(i)
        b_of_a = self.b_of_a
        for j, entry in enumerate(b):
            if a_of_b[j] is None and (i := first.get(entry)) is not None:
                if b_of_a[i] is not None:
                    if not again.get(entry):
                        continue
                    i = again[entry].pop(0)
                b_of_a[i], a_of_b[j] = j, i
        by_place: dict[tuple[str, str], list[int]] = defaultdict(list)
        for i in self.free_a():
            by_place[(a[i][0], key(a[i][1]))].append(i)
        for j in self.free_b():
            got = by_place.get((b[j][0], key(b[j][1])))
            if got:
                self.pair(got.pop(0), j)
        keys_a: dict[tuple, list[int]] = defaultdict(list)
        keys_b: dict[tuple, list[int]] = defaultdict(list)
        for i in self.free_a():
            keys_a[(self._level(a[i]), key(a[i][1]))].append(i)
        for j in self.free_b():
            keys_b[(self._level(b[j]), key(b[j][1]))].append(j)
        for k, js in keys_b.items():
            is_ = keys_a.get(k)
            if is_ and len(is_) == 1 and len(js) == 1:
                self.pair(is_[0], js[0])
        votes = self.votes[scope.start] = self._votes()  # headings do not vote: still valid below
        for i in scope:
            if self.a_title[i] and (j := b_of_a[i]) is not None and votes.get(a[i][0], b[j][0]) != b[j][0]:
                b_of_a[i] = a_of_b[j] = None

    def _votes(self) -> dict[str, str]:
        """Where the children of each number of `a` went, by majority of its matched non-heading
        children: {'502.83': '702.80', '502': '702'}."""
        counts: Counter = Counter()
        a, b, b_of_a, a_title = self.a, self.b, self.b_of_a, self.a_title
        for i in self.scope:
            j = b_of_a[i]
            if j is not None and not a_title[i]:
                counts[(_up(a[i][0]), _up(b[j][0]))] += 1
        counts.pop((None, None), None)
        votes: dict[str, str] = {}
        for (up_a, up_b), _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            votes.setdefault(up_a, up_b)
        return votes

    def _moved(self) -> tuple[dict[str, str], dict[str, str]]:
        """Where each number of `a` went (and back): matched entries, else its children's vote."""
        fwd: dict[str, str] = {}
        for i, j in self._pairs():
            fwd.setdefault(self.a[i][0], self.b[j][0])
        votes = self.votes.get(self.scope.start)
        for up_a, up_b in (self._votes() if votes is None else votes).items():
            fwd.setdefault(up_a, up_b)
        back: dict[str, str] = {}
        for na, nb in fwd.items():
            back.setdefault(nb, na)
        return fwd, back

    def _ratio(self, i: int, j: int, floor: float) -> float:
        """difflib's ratio of the words, or 0.0 once a bound shows it is below `floor`: the
        levels differ, the length bound, then the shared-words bound (quick_ratio's)."""
        if self._level(self.a[i]) != self._level(self.b[j]):
            return 0.0
        (wa, ta), (wb, tb) = self.norm.form(self.a[i][1]), self.norm.form(self.b[j][1])
        total = len(wa) + len(wb)
        if not wa or not wb or 2 * min(len(wa), len(wb)) < floor * total or 2 * len(ta & tb) < floor * total:
            return 0.0
        return _ratio_words(wa, wb)

    def similar(self, scope: range) -> None:
        """Passes 3 (same place, SAME_PLACE_MIN) and 4 (anywhere, MOVED_MIN), greedy by score."""
        self.scope = scope
        if not self.free_a() or not self.free_b():
            return
        fwd, back = self._moved()
        b_at: dict[str, int] = {}
        for j in self.free_b():
            b_at.setdefault(self.b[j][0], j)

        def fits(na: str, nb: str) -> bool:
            pa, pb = _up(na), _up(nb)
            return pa is None or pb is None or (fwd.get(pa, pb) == pb and back.get(pb, pa) == pa)

        def kept(na: str) -> bool:
            """The number may hold the same rule: neither its parents nor its children moved."""
            return fits(na, na) and fwd.get(na, na) == na and back.get(na, na) == na

        scored: list[tuple[float, int, int]] = []
        for i in self.free_a():
            na = self.a[i][0]
            places = []
            if na in b_at and kept(na):
                places.append(b_at[na])  # the same number, unless the parents or children moved
            up, letter = _up(na), _suffix(na)
            if up is None and fwd.get(na) in b_at:  # a chapter: where its rules went
                places.append(b_at[fwd[na]])
            if letter and up in fwd and fwd[up] + letter in b_at:  # a subrule: under its parent
                places.append(b_at[fwd[up] + letter])
            for j in dict.fromkeys(places):
                score = self._ratio(i, j, SAME_PLACE_MIN)
                if score >= SAME_PLACE_MIN:
                    scored.append((score, i, j))
        self._greedy(scored)
        self._greedy(self._moved_pairs(fits))
        for i in self.free_a():  # pass 5: rewritten in place
            na = self.a[i][0]
            j = b_at.get(na)
            if (j is not None and self.a_of_b[j] is None and kept(na)
                    and self._level(self.a[i]) == self._level(self.b[j])
                    and (cited := _cited(self.a[i][1])) and cited == _cited(self.b[j][1])):
                self.pair(i, j)

    def _greedy(self, scored: list[tuple[float, int, int]]) -> None:
        for _, i, j in sorted(scored, key=lambda s: (-s[0], s[1], s[2])):
            if self.b_of_a[i] is None and self.a_of_b[j] is None:
                self.pair(i, j)

    def _moved_pairs(self, fits: Callable[[str, str], bool]) -> list[tuple[float, int, int]]:
        """Scored pairs of free entries with ratio >= MOVED_MIN, never comparing all pairs.

        Candidates share a word among their rarest-words prefixes (prefix filtering on words
        tagged with their occurrence count: a pair with ratio >= t shares at least t/(2-t) of each
        side's words, so prefixes of n - ceil(n*t/(2-t)) + 1 words must meet); then the level,
        length and shared-words (quick_ratio) bounds prune before ratio. Headings move only by
        an equal title."""
        t = MOVED_MIN
        na = {i: self.norm.form(self.a[i][1]) for i in self.free_a()}
        nb = {j: self.norm.form(self.b[j][1]) for j in self.free_b()}
        df: Counter = Counter()
        for forms in (na, nb):
            for _, tagged in forms.values():
                df.update(tagged)
        rank = {tok: r for r, tok in enumerate(sorted(df, key=lambda tok: (df[tok], str(tok))))}.__getitem__
        share = t / (2 - t)

        def prefix(tagged: frozenset) -> list:
            toks = sorted(tagged, key=rank)
            return toks[: len(toks) - math.ceil(len(toks) * share) + 1]

        index: dict[tuple, tuple[list[int], list[int]]] = {}  # (level, word) -> (lengths, entries of b)
        for j in sorted(nb, key=lambda j: len(nb[j][0])):
            level = self._level(self.b[j])
            for tok in prefix(nb[j][1]):
                lens, js = index.setdefault((level, tok), ([], []))
                lens.append(len(nb[j][0]))
                js.append(j)
        nothing: tuple[list[int], list[int]] = ([], [])
        scored: list[tuple[float, int, int]] = []
        for i, (wa, ta) in na.items():
            la, level = len(wa), self._level(self.a[i])
            lo, hi = share * la - 1e-9, la / share + 1e-9  # the length bound, on the index
            found = [index.get((level, tok), nothing) for tok in prefix(ta)]
            for j in set().union(*[js[bisect_left(lens, lo):bisect_right(lens, hi)] for lens, js in found]):
                wb, tb = nb[j]
                if 2 * len(ta & tb) < t * (la + len(wb)):
                    continue
                score = _ratio_words(wa, wb)
                if score >= t and (score == 1.0 or not level[1]):
                    bonus = STRUCTURE_BONUS if fits(self.a[i][0], self.b[j][0]) else 0.0
                    scored.append((score + bonus, i, j))
        return scored


class Traced(Value):
    """Where `trace` stands after the releases it has seen: enough to go on with later releases
    (one added after the archive's newest) without tracing the earlier ones again. `trace` is
    online: a release's ids depend only on it and the releases before it."""

    __slots__ = ("prev", "prev_ids", "lost", "next_id", "steps")

    def __init__(self, prev: list[Entry] | None = None, prev_ids: list[int] | None = None,
                 lost: dict[int, tuple[Entry, int]] | None = None, next_id: int = 0, steps: int = 0) -> None:
        self.prev = [] if prev is None else prev  # the last (non-empty) release's entries
        self.prev_ids = [] if prev_ids is None else prev_ids
        self.lost = {} if lost is None else lost  # lineage -> (its last entry, step it went missing)
        self.next_id = next_id
        self.steps = steps  # non-empty releases seen


def trace(releases: Sequence[Sequence[Entry]], state: Traced | None = None) -> list[list[int]]:
    """A lineage id for every (number, text) entry of every release (releases in date order,
    entries in document order); same shape as the input. Ids are dense ints in order of first
    appearance, so the result depends only on the input. `state`: where an earlier call over the
    releases before these stopped (updated in place), so that trace(a + b) is
    trace(a, s) + trace(b, s) for one fresh Traced() s."""
    norm = _Norm()
    out: list[list[int]] = []
    state = state if state is not None else Traced()
    prev, prev_ids, lost, next_id = state.prev, state.prev_ids, state.lost, state.next_id
    prev_title = [norm.title(text) for _, text in prev]
    for step, given in enumerate((r for r in releases if r), state.steps):
        release = [(number, text) for number, text in given]  # hashable, whatever the caller's pairs
        pool = sorted(lost.items(), key=lambda kv: (-kv[1][1], kv[0]))  # missing from `prev` only first
        m = _Match(prev + [entry for _, (entry, _) in pool], release, norm,
                   prev_title + [norm.title(entry[1]) for _, (entry, _) in pool])
        here, back = range(len(prev)), range(len(prev), len(prev) + len(pool))
        recent = range(len(prev), len(prev) + sum(at == step - 1 for _, (_, at) in pool))
        m.exact(here)
        m.exact(back)  # rules missing from `prev` (a lossy parse) that come back continue
        m.similar(here)
        m.similar(recent)
        ids: list[int] = []
        for i in m.a_of_b:
            if i is None:
                ids.append(next_id)
                next_id += 1
            elif i < len(prev):
                ids.append(prev_ids[i])
            else:
                ids.append(pool[i - len(prev)][0])
                del lost[pool[i - len(prev)][0]]
        for i in here:
            if m.b_of_a[i] is None:
                lost[prev_ids[i]] = (prev[i], step)
        for lineage in [k for k, (_, at) in lost.items() if at < step - BRIDGE + 1]:
            del lost[lineage]
        out.append(ids)
        prev, prev_ids, prev_title = release, ids, [norm.title(text) for _, text in release]
    state.prev, state.prev_ids, state.lost, state.next_id = prev, prev_ids, lost, next_id
    state.steps += len(out)
    full = iter(out)
    return [next(full) if release else [] for release in releases]


class Change(Frozen):
    """One difference between two releases. `kind` is added, removed, changed (same number, new
    text), renumbered (new number; the text is the same apart from the rule numbers it cites,
    which follow a renumbering) or renumbered+changed. Numbers and texts are None on the side
    where the rule is absent."""

    __slots__ = ("kind", "lineage", "old_number", "new_number", "old_text", "new_text")

    def __init__(self, kind: str, lineage: int, old_number: str | None, new_number: str | None,
                 old_text: str | None, new_text: str | None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "lineage", lineage)
        object.__setattr__(self, "old_number", old_number)
        object.__setattr__(self, "new_number", new_number)
        object.__setattr__(self, "old_text", old_text)
        object.__setattr__(self, "new_text", new_text)


Lineaged = tuple[str, str, int]  # (number, text, lineage id)


def with_ids(release: Sequence[Entry], ids: Sequence[int]) -> list[Lineaged]:
    """A release's entries with their lineage ids from `trace`: the input of `changes`."""
    return [(number, text, lineage) for (number, text), lineage in zip(release, ids, strict=True)]


def changes(a: Sequence[Lineaged], b: Sequence[Lineaged]) -> list[Change]:
    """What changed from release `a` to release `b` (any two, in either order of dates), by
    lineage. Ordered by number in numeric order (records.number_key): the new number, or the old
    number for a removal (a removal sorts before an addition at the same number)."""
    old = {lineage: (number, text) for number, text, lineage in a}
    new = {lineage: (number, text) for number, text, lineage in b}
    out: list[tuple[tuple, Change]] = []
    for lineage, (number, text) in old.items():
        if lineage not in new:
            out.append(((number_key(number), 0, lineage), Change("removed", lineage, number, None, text, None)))
    for lineage, (number, text) in new.items():
        if lineage not in old:
            kind = "added"
            was_number, was_text = None, None
        else:
            was_number, was_text = old[lineage]
            if was_number == number:
                if was_text == text:
                    continue
                kind = "changed"
            else:
                kind = "renumbered" if mask(was_text) == mask(text) else "renumbered+changed"
        out.append(((number_key(number), 1, lineage), Change(kind, lineage, was_number, number, was_text, text)))
    return [change for _, change in sorted(out, key=lambda kc: kc[0])]
