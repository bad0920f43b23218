"""An IPG infraction on one screen: its title and penalty, the upgrade and downgrade rules that
apply to it, its additional remedy, its definition, examples and philosophy, the fix the Judging
at Regular REL document gives for the same problem, and one line of its penalty's history.

Everything is read from the documents in force on the day asked: the parts from the section's
own headings, the upgrade rules from the section ('Upgrade:', 'Downgrade:'), its category's
introduction and the IPG's general part (section 1) in the IPG's words, the JAR's text by the
words it shares with the infraction (its headings and bullets, each a problem the JAR names), the
history from the section's versions.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from rulebase.core.eras import OPEN_END, show, today
from rulebase.core.records import Record
from rulebase.index.store import RecordStore
from rulebase.rules import documents

PARTS = ("Definition", "Examples", "Philosophy", "Additional Remedy")
_PENALTIES = ("No Penalty", "Warning", "Game Loss", "Match Loss", "Disqualification", "Caution")
_RULE = re.compile(r"^(?:Upgrade|Downgrade)\s*:", re.IGNORECASE)
_RULE_WORDS = re.compile(r"\b(?:upgrad|downgrad)\w*", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\u201c\"])")
JAR_MATCH = 0.3  # the least likeness (cosine of the words' weights) a JAR text needs to be its fix


@dataclass(slots=True)
class Rule:
    """An upgrade or downgrade rule as the IPG states it, and where ('IPG 2.3', 'IPG 2')."""

    where: str
    text: str


@dataclass(slots=True)
class JarFix:
    """The JAR's text for the same problem: the heading or bullet that names it, and its fix."""

    record: Record
    problem: str
    fix: list[str]
    likeness: float


@dataclass(slots=True)
class Infraction:
    record: Record
    penalty: str
    rules: list[Rule] = field(default_factory=list)
    parts: dict[str, list[str]] = field(default_factory=dict)  # PARTS -> paragraphs
    jar: JarFix | None = None
    history: list[tuple[str, int, int]] = field(default_factory=list)  # (penalty, first day, last day)

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
    IPG's general part (section 1 and 1.x) that upgrade or downgrade a penalty, as printed."""
    chapter = (record.number or "").split(".")[0]
    out = []
    for _, section in documents.contents(store, record.source, day):
        number = section.number or ""
        if number != chapter and number.split(".")[0] != "1":
            continue
        for para in section.text.split("\n\n"):
            for sentence in _SENTENCE.split(para):
                if _RULE_WORDS.search(sentence) and not _RULE.match(sentence):
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
