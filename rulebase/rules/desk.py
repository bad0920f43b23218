"""A tournament document as a judge reads it at the desk: `lookup` of a document's name is its
table of contents ('IPG', 'jar'), of an IPG infraction everything needed for a call on one screen
(below), and every answer from a dated document says which release it reads and whether
the corpus's newest release of it is over a year old.

`lookup` here wraps rules.lookup.lookup: what it answers is the same, with these added.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from rulebase.core.eras import OPEN_END, show, today
from rulebase.core.errors import NotFound
from rulebase.core.pattern import lazy
from rulebase.core.records import Record
from rulebase.core.value import Value
from rulebase.index.store import RecordStore
from rulebase.rules import documents
from rulebase.rules import lookup as lookups
from rulebase.rules.lookup import Entry, Lookup

STALE_DAYS = 365  # a newest release older than this is said to be so


class Contents(Value):
    """A document's sections in force on a day: (depth, section) in the document's order."""

    __slots__ = ("source", "title", "release", "now", "sections")

    def __init__(self, source: str, title: str, release: str, now: bool, sections: list[tuple[int, Record]]):
        self.source = source
        self.title = title
        self.release = release  # the release read (YYYY-MM-DD)
        self.now = now  # the release in force today (else the one of --as-of)
        self.sections = sections


class Freshness(Value):
    """The newest release the corpus holds of a dated document, and how old it is."""

    __slots__ = ("source", "newest", "days")

    def __init__(self, source: str, newest: str, days: int):
        self.source = source
        self.newest = newest  # YYYY-MM-DD
        self.days = days  # from that release to today

    @property
    def stale(self) -> bool:
        return self.days > STALE_DAYS

    def line(self) -> str:
        """'the newest IPG this corpus holds is of 2024-09-23, 26 months before today: ...'."""
        return f"the newest {self.source.upper()} this corpus holds is of {self.newest}, {self.age()}"

    def age(self) -> str:
        """'26 months before today: a newer release may be in force'."""
        return f"{self.days * 12 // 365} months before today: a newer release may be in force"


class Cited(Value):
    """A rule of the Comprehensive Rules a tournament document cites: the version of the day its
    words were written (ingest/tournament/links.written), and the rule's version in force now."""

    __slots__ = ("label", "then", "now")

    def __init__(self, label: str, then: Record, now: Record | None):
        self.label = label
        self.then = then
        self.now = now  # None: no longer in the rules

    def line(self) -> str:
        """'rule 103.4 (2013) — now 103.5 (cr:103.5@2022-10-07)'."""
        cited = f"rule {self.then.number} ({self.then.span[0][:4]})"
        if self.now is None:
            return f"{cited} \u2014 no longer in the rules"
        if self.now.id == self.then.id:
            return f"{cited} \u2014 the same rule now"
        if self.now.number != self.then.number:
            return f"{cited} \u2014 now {self.now.number} ({self.now.id})"
        return f"{cited} \u2014 still {self.now.number}, its text since changed ({self.now.id})"


class DeskLookup(Lookup):
    __slots__ = ("contents", "infraction", "fresh", "cited")

    def __init__(self, ref: str, kind: str, entries: list[Entry], diff_hint: str | None = None, full: bool = True,
                 contents: Contents | None = None, infraction: object | None = None,
                 fresh: list[Freshness] | None = None, cited: list[Cited] | None = None):
        super().__init__(ref, kind, entries, diff_hint, full)
        self.contents = contents
        self.infraction = infraction  # Infraction
        self.fresh = [] if fresh is None else fresh  # stale documents the answer reads
        self.cited = [] if cited is None else cited  # the first entry's rules cited, then and now


def cited_rules(store: RecordStore, record: Record) -> list[Cited]:
    """The Comprehensive Rules a tournament document's section cites, each as of the day its
    words were written, and where that rule is now; the same for an old release's own 'See rule'
    references (resolved in its release), where a rule of that release is no longer in force."""
    if record.source not in documents.TOURNAMENT_DOCUMENTS:
        if not record.span or store.windows([record.id])[record.id][1] >= OPEN_END:
            return []
        return [c for c in _cited(store, record) if c.now is None or c.now.id != c.then.id]
    return _cited(store, record)


def _cited(store: RecordStore, record: Record) -> list[Cited]:
    out, seen = [], set()
    for ref in record.refs:
        if ref.kind != "rule" or not ref.target or ref.target in seen:
            continue
        seen.add(ref.target)
        then = store.get(ref.target)
        if then is None or not then.span or not then.lineage:
            continue
        live = store.lineage(then.lineage, today())
        out.append(Cited(ref.label, then, live[-1] if live else None))
    return out


def freshness(store: RecordStore, source: str) -> Freshness | None:
    """How old the newest release of a dated tournament document is (None for other sources)."""
    if source not in documents.TOURNAMENT_DOCUMENTS:
        return None
    newest = documents.newest_release(store, source)
    return None if newest is None else aged(source, newest["date"])


def aged(source: str, newest: str) -> Freshness:
    """The Freshness of a document whose newest release is of `newest` (YYYY-MM-DD)."""
    # lazy: dates only where a dated document is answered from
    from datetime import date

    now = date.fromisoformat(show(today()))
    return Freshness(source, newest, max(0, (now - date.fromisoformat(newest)).days))


def lookup(store: RecordStore, ref: str, when: int | None = None, full: bool = False,
           spell_out: Callable[[str], str] | None = None) -> DeskLookup:
    """rules.lookup.lookup, with a document's contents, an infraction's screen and freshness."""
    alone = documents.named_alone(store, ref)
    if alone is not None:
        result = _contents(store, ref, alone, when)
    else:
        try:
            found = lookups.lookup(store, ref, when, full, spell_out)
        except NotFound as exc:
            raise _unnumbered(store, ref, exc) from None
        result = DeskLookup(found.ref, found.kind, found.entries, found.diff_hint, found.full)
        result.infraction = of(store, result, when)  # (an infraction's screen: None but for the IPG's)
        if result.entries and not result.entries[0].era:
            result.cited = cited_rules(store, result.entries[0].record)
    for source in dict.fromkeys(e.record.source for e in result.entries if e.record.span):
        fresh = freshness(store, source)
        if fresh is not None and fresh.stale:
            result.fresh.append(fresh)
    return result


def _contents(store: RecordStore, ref: str, source: str, when: int | None) -> DeskLookup:
    day = when if when is not None else today()
    release = documents.release_in_force(store, source, day)
    if release is None:
        raise NotFound(f"no release of the {source.upper()} was in force on {show(day)}",
                       hint=f"'rulebase sources' lists the {source.upper()}'s releases")
    sections = documents.contents(store, source, day)
    heads = store.in_force(day, source, ("document",))
    head = heads[0] if heads else Record(id=f"{source}:document", source=source, edition="dated", lang="en",
                                         kind="document", text="", raw="")
    title = documents.TOURNAMENT_DOCUMENTS.get(source) or head.title or source.upper()
    contents = Contents(source, title, release["date"], release["last_day"] >= OPEN_END and when is None, sections)
    return DeskLookup(ref, "contents", [Entry(head)], None, True, contents=contents)


def _unnumbered(store: RecordStore, ref: str, exc: NotFound) -> NotFound:
    """A section number, or a title no heading holds, asked of a document that numbers none (the
    JAR): say so, and how to ask (not "give a section number", which it has none of)."""
    inside = documents.scoped(store, ref)
    if inside is None or documents.numbered(documents.contents(store, inside[0], today())):
        return exc
    source, rest = inside
    name = source.upper()
    heads = [r.title for _, r in documents.contents(store, source, today()) if r.title]
    example = f" ('rulebase lookup \"{name} {heads[0].lower()}\"')" if heads else ""
    if documents.number_of(rest) is None:
        return NotFound(exc.what, exc.suggestions, hint=f"'rulebase lookup {name}' lists its headings; give words of "
                                                       f"one{example}, or try 'rulebase search --source {source}'")
    return NotFound(f"the {name} numbers no sections, so there is no {name} {rest}", [],
                    hint=f"'rulebase lookup {name}' lists its headings; give words of one{example}")


# --- An IPG infraction on one screen: its title and penalty, the upgrade and downgrade rules that
# apply to it, its additional remedy, its definition, examples and philosophy, the fix the Judging
# at Regular REL document gives for the same problem, and one line of its penalty's history.
#
# Everything is read from the documents in force on the day asked: the parts from the section's
# own headings, the upgrade rules from the section ('Upgrade:', 'Downgrade:'), its category's
# introduction and the IPG's general part (section 1) in the IPG's words, the JAR's text by the
# words it shares with the infraction (its headings and bullets, each a problem the JAR names), the
# history from the section's versions.

PARTS = ("Definition", "Examples", "Philosophy", "Additional Remedy")
_PENALTIES = ("No Penalty", "Warning", "Game Loss", "Match Loss", "Disqualification", "Caution")
_RULE = lazy(r"^(?:Upgrade|Downgrade)\s*:", re.IGNORECASE)
_RULE_WORDS = lazy(r"\b(?:upgrad|downgrad)\w*", re.IGNORECASE)
_SENTENCE = lazy(r"(?<=[.!?])\s+(?=[A-Z\u201c\"])")
_EXAMPLE = lazy(r"(?:For example|For instance|Example)\b")
_ITS_CASE = lazy(r"\b(?:that|these|those|this)\s+(?:player|players|opponent|card|cards|deck|decklist|judge|game|match)\b",
                 re.IGNORECASE)
JAR_MATCH = 0.3  # the least likeness (cosine of the words' weights) a JAR text needs to be its fix


class Rule(Value):
    """An upgrade or downgrade rule as the IPG states it, and where ('IPG 2.3', 'IPG 2')."""

    __slots__ = ("where", "text")

    def __init__(self, where: str, text: str):
        self.where = where
        self.text = text


class JarFix(Value):
    """The JAR's text for the same problem: the heading or bullet that names it, and its fix."""

    __slots__ = ("record", "problem", "fix", "likeness")

    def __init__(self, record: Record, problem: str, fix: list[str], likeness: float):
        self.record = record
        self.problem = problem
        self.fix = fix
        self.likeness = likeness


class Infraction(Value):
    __slots__ = ("record", "penalty", "rules", "parts", "jar", "history")

    def __init__(self, record: Record, penalty: str, rules: list[Rule] | None = None,
                 parts: dict[str, list[str]] | None = None, jar: JarFix | None = None,
                 history: list[tuple[str, int, int]] | None = None):
        self.record = record
        self.penalty = penalty
        self.rules = [] if rules is None else rules
        self.parts = {} if parts is None else parts  # PARTS -> paragraphs
        self.jar = jar
        self.history = [] if history is None else history  # (penalty, first day, last day)

    def history_line(self) -> str:
        """'Warning until 2016-01-21, No Penalty since 2016-01-22' (a section no longer in force:
        '... to 2019-01-20')."""
        out = []
        for n, (penalty, first, last) in enumerate(self.history):
            if n + 1 == len(self.history) and last >= OPEN_END:
                out.append(f"{penalty} since {show(first)}")
            elif n == 0 and len(self.history) > 1:
                out.append(f"{penalty} until {show(last)}")
            else:
                out.append(f"{penalty} {show(first)} to {show(last)}")
        return ", ".join(out)


def penalty_of(text: str) -> str | None:
    """The penalty a section prints: its first paragraph ('No Penalty'), or the one after a
    'Penalty' heading ('Warning*'; 'None' is No Penalty), else None."""
    paras = [p.strip() for p in text.split("\n\n")]
    first = paras[0] if paras else ""
    if first == "Penalty" and len(paras) > 1:
        first = paras[1]
    first = first.rstrip("*").strip()
    if first == "None":
        return "No Penalty"
    return first if first in _PENALTIES else None


def parts_of(text: str) -> tuple[dict[str, list[str]], list[str]]:
    """A section's paragraphs under each of its headings, and its 'Upgrade:'/'Downgrade:' rules."""
    out: dict[str, list[str]] = {}
    rules: list[str] = []
    current = None
    for para in text.split("\n\n"):
        para = para.strip()
        if para in PARTS:
            current = para
            continue
        if _RULE.match(para):
            rules.append(para)
        elif current is not None:
            out.setdefault(current, []).append(para)
    return out, rules


def of(store: RecordStore, result, when: int | None) -> Infraction | None:
    """The infraction a lookup found, on one screen; None when its first entry is not one."""
    if not result.entries or result.entries[0].era:
        return None
    record = result.entries[0].record
    number = record.number or ""
    if record.source not in ("ipg", "dipg") or not re.fullmatch(r"[2-9]\.\d{1,2}", number) or not record.span:
        return None
    penalty = penalty_of(record.text)
    if penalty is None:
        return None
    first, last = store.windows([record.id])[record.id]
    day = min(max(when if when is not None else today(), first), last)  # a day the section was in force
    parts, own = parts_of(record.text)
    found = Infraction(record, penalty, [Rule(f"{record.source.upper()} {number}", r) for r in own], parts)
    found.rules += _general_rules(store, record, day)
    found.jar = jar_fix(store, record, parts, day)
    found.history = _history(store, record)
    return found


def _general_rules(store: RecordStore, record: Record, day: int) -> list[Rule]:
    """The sentences of the infraction's category introduction ('2. GAME PLAY ERRORS') and of the
    IPG's general part (section 1 and 1.x) that upgrade or downgrade a penalty, as printed; not
    those of an example, which apply a rule to one case (IPG 1: "For example, a player asks a
    judge whether a card is legal ... When that player's deck is found to be illegal because of
    these cards, ... may downgrade the penalty to a Warning")."""
    chapter = (record.number or "").split(".")[0]
    out = []
    for _, section in documents.contents(store, record.source, day):
        number = section.number or ""
        if number != chapter and number.split(".")[0] != "1":
            continue
        for para in section.text.split("\n\n"):
            example = False
            for sentence in _SENTENCE.split(para):
                # an example runs from its "For example" through the sentences that speak of its case
                example = bool(_EXAMPLE.match(sentence) or example and _ITS_CASE.search(sentence))
                if _RULE_WORDS.search(sentence) and not _RULE.match(sentence) and not example:
                    out.append(Rule(f"{record.source.upper()} {number}", sentence.strip()))
    return out


_STOP = frozenset(("that", "this", "with", "they", "their", "have", "from", "when", "what", "will", "should",
                   "been", "were", "which", "there", "only", "other", "into", "than", "them", "does", "more",
                   "such", "player", "players", "card", "cards", "game", "judge"))


def _words(text: str) -> Counter:
    return Counter(w[:5] for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 3 and w not in _STOP)


def jar_fix(store: RecordStore, record: Record, parts: dict[str, list[str]], day: int) -> JarFix | None:
    """The JAR's text for the problem an IPG infraction names, at Regular REL: of the problems
    the JAR names (each issue under a heading, each bullet of a list of behaviours) the one whose
    words are likest the infraction's name, definition and examples (words weighted by their rarity among
    those problems), with the JAR's fix for it (the issue's text, or the paragraphs after the
    list). None when no JAR was in force that day or nothing is alike enough."""
    jar = [r for _, r in documents.contents(store, "jar", day)]
    units: list[tuple[Record, str, list[str]]] = []
    for section in jar:
        paras = [p for p in section.text.split("\n\n") if p.strip()]
        if section.parent:
            units.append((section, section.title or "", paras))
            continue
        bullets = [p for p in paras if p.lstrip()[:1] in "\u2022-\u00b7"]
        fix = [p for p in paras if p not in bullets and "http" not in p]
        units += [(section, b, fix) for b in bullets]
    if not units:
        return None
    bags = [_words(_SENTENCE.split(title)[0]) for _, title, _ in units]  # a bullet's problem: its first sentence
    df = Counter(w for bag in bags for w in bag)

    # lazy: an infraction's screen alone compares texts
    import math

    def weights(bag: Counter) -> dict[str, float]:
        return {w: (1 + math.log(n)) * math.log((len(bags) + 1) / (df[w] + 0.5)) for w, n in bag.items() if w in df}

    name = (record.title or "").split("\u2014")[-1]
    query = weights(_words(" ".join([name, name, *parts.get("Definition", []), *parts.get("Examples", [])])))
    norm = math.sqrt(sum(v * v for v in query.values())) or 1.0
    best, score = None, 0.0
    for unit, bag in zip(units, bags, strict=True):
        vec = weights(bag)
        size = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        likeness = sum(query[w] * vec.get(w, 0.0) for w in query) / (norm * size)
        if likeness > score:
            best, score = unit, likeness
    if best is None or score < JAR_MATCH:
        return None
    section, problem, fix = best
    return JarFix(section, problem.lstrip("\u2022-\u00b7 "), fix, round(score, 2))


def _history(store: RecordStore, record: Record) -> list[tuple[str, int, int]]:
    """The penalty over the section's versions, runs of one penalty joined (a version that prints
    none goes with its neighbours)."""
    versions = [v for v in store.lineage(record.lineage) if v.span] if record.lineage else [record]
    spans = store.windows([v.id for v in versions])
    out: list[tuple[str, int, int]] = []
    for version in versions:
        penalty = penalty_of(version.text)
        first, last = spans[version.id]
        if penalty is None:
            if out:
                out[-1] = (out[-1][0], out[-1][1], last)
            continue
        if out and out[-1][0] == penalty:
            out[-1] = (penalty, out[-1][1], last)
        else:
            out.append((penalty, first, last))
    return out
