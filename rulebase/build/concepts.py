"""Which rules each term of the rules in force now names, for the index's concept table.

A question's words reach the rules through the rules' own vocabulary: the current glossary
("Dies ... See rule 700.4"), the chapter titles ("704. State-Based Actions") and the rules'
headings ("702.2. Deathtouch"). A question naming one of these terms is asking, most likely,
about the rule that defines it, whatever its other words (card names, narrative) match.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rulebase.core.eras import OPEN_END
from rulebase.core.records import Record

_OBSOLETE = re.compile(r"\s*\(obsolete\)\s*$", re.IGNORECASE)
_RULE_WORD = re.compile(r"\s+rules?$", re.IGNORECASE)  # "Summoning Sickness Rule", "Legend Rule"
_RULE = re.compile(r"^\d{3}\.\d+$")  # a rule whose subrules are 702.2a-z: a heading when short
_SUBRULE = re.compile(r"^(\d{3}\.\d+)[a-z]$")
HEADING_WORDS = 4  # a numbered rule this short is a heading ("702.19. Trample")
_NAMING_REFS = ("rule", "section")


def concept_table(order: list[tuple], analyse: Callable[[str], list[str]],
                  names: dict[tuple[str, ...], str] | None = None,
                  citing: dict[tuple[str, ...], list[int]] | None = None) -> dict[tuple[str, ...], list[int]]:
    """Term tokens -> document numbers of the rules the term names and their subrules (702.2 for
    "Deathtouch": 702.2 and 702.2a-z; a chapter: every rule in it), in force now, and the earlier
    versions of those rules (their lineage: a question asked --as-of 2010 names the same rules).
    `order` is the index's documents in number order, as (record, window, ...) (writer.documents_of).
    `names`, when given, receives each term as the rules write it ("State-Based Actions"), the
    first of its spellings: a player's "SBA" is read through its initials (search/concepts.py).
    `citing`, when given, receives each term's citing documents: those of the rules in force now
    (and their lineage) that send the reader to a rule the term names or one of its subrules ("see
    rule 704" is state-based actions); a rule citing two terms a question names is where they meet
    (117.5: state-based actions, then triggered abilities)."""
    numbered: dict[str, list[int]] = {}  # rule number -> documents (a number's current version)
    naming: list[tuple[str, list[str]]] = []  # (term, numbers it names)
    cites: list[tuple[int, list[str]]] = []  # (a document in force now, the rule numbers it cites)
    versions: dict[str, list[int]] = {}  # lineage -> every version's documents, for --as-of
    pointing = _glossary_numbers(order)
    for docnum, (record, window, *_) in enumerate(order):
        if record.span and record.lineage:
            versions.setdefault(record.lineage, []).append(docnum)
        if not record.span or window[1] != OPEN_END:
            continue
        if record.kind in ("rule", "chapter") and record.number:
            numbered.setdefault(record.number, []).append(docnum)
        naming.extend(_names(record, pointing))
        keys = [ref.key for ref in record.refs if ref.kind in _NAMING_REFS and ref.key]
        if keys:
            cites.append((docnum, keys))
    within: dict[str, list[int]] = {}  # a number -> its own documents and its subrules'
    for number, docs in numbered.items():
        within.setdefault(number, []).extend(docs)
        sub = _SUBRULE.match(number)
        if sub:
            within.setdefault(sub[1], []).extend(docs)
        if "." in number:
            within.setdefault(number[:3], []).extend(docs)
    table: dict[tuple[str, ...], set[int]] = {}
    terms_of: dict[str, set[tuple[str, ...]]] = {}  # a rule number a term names -> those terms
    for term, numbers in naming:
        tokens = tuple(analyse(term))
        docs = {d for number in numbers for d in within.get(number, ())}
        docs |= {v for d in list(docs) for v in versions.get(order[d][0].lineage or "", ())}
        if tokens and docs:
            table.setdefault(tokens, set()).update(docs)
            if names is not None:
                names.setdefault(tokens, term)
            for number in numbers:
                terms_of.setdefault(number, set()).add(tokens)
    if citing is not None:
        cited_by: dict[tuple[str, ...], set[int]] = {}
        for docnum, keys in cites:
            for tokens in {t for key in keys for number in _ancestry(key) for t in terms_of.get(number, ())}:
                cited_by.setdefault(tokens, set()).update(versions.get(order[docnum][0].lineage or "", [docnum]))
        citing.update({tokens: sorted(docs) for tokens, docs in cited_by.items()})
    return {tokens: sorted(docs) for tokens, docs in table.items()}


def _ancestry(number: str) -> list[str]:
    """A rule number and the rules it is within: 704.5g, 704.5, 704."""
    out = [number]
    sub = _SUBRULE.match(number)
    if sub:
        out.append(sub[1])
    if "." in number:
        out.append(number[:3])
    return out


def _glossary_numbers(order: list[tuple]) -> dict[str, list[str]]:
    """Version id of a glossary entry -> the rule numbers its version in force now cites (a
    pointer from another entry names whichever version it was resolved to, often an older one)."""
    current = {record.lineage: [ref.key for ref in record.refs if ref.kind in _NAMING_REFS]
               for record, window, *_ in order
               if record.kind == "glossary" and record.span and record.lineage and window[1] == OPEN_END}
    return {record.id: current[record.lineage] for record, *_ in order
            if record.kind == "glossary" and record.lineage in current}


def _names(record: Record, pointing: dict[str, list[str]] | None = None) -> list[tuple[str, list[str]]]:
    """(term, the rule numbers it names) for each term a record names: a glossary entry's title
    (and, for "Summoning Sickness Rule", the term without "Rule": what players call it), a
    chapter's title, a short rule's heading. An entry that only sends the reader to another
    entry ("Redirect (Obsolete) ... See Redirection Effect") names that entry's rules."""
    if record.kind == "glossary" and record.title:
        numbers = [ref.key for ref in record.refs if ref.kind in _NAMING_REFS]
        if not numbers and pointing:
            numbers = [n for ref in record.refs if ref.kind == "glossary" and ref.target
                       for n in pointing.get(ref.target, ())]
        term = _OBSOLETE.sub("", record.title)
        bare = _RULE_WORD.sub("", term)
        return [(t, numbers) for t in dict.fromkeys((term, bare)) if t] if numbers else []
    if record.kind == "chapter" and record.title and record.number:
        return [(record.title, [record.number])]
    if (record.kind == "rule" and record.number and _RULE.match(record.number)
            and len(record.text.split()) <= HEADING_WORDS):
        return [(record.text.strip(" .:"), [record.number])]
    return []
