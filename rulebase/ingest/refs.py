"""Finding rule references in text: 'see rule 306.5', 'rules 601.2g-h', 'see Rule T.10'.

Shared by every numbered-rules parser so the forms are recognised the same way everywhere.
The parser records what was written; `link` resolves it against the records that exist.
"""

from __future__ import annotations

import re

from rulebase.core.records import Ref

# 702.21j-k, 601.2g–h (en dash), 212.4k, 306.5, 509, T.10, G.12, T.10.1, A.5.2
_NUMBER = r"(?:\d{3}(?:\.\d+[a-z]?)?|\d\b|[A-Z]\.\d+(?:\.\d+)?)"
_RANGE = rf"{_NUMBER}(?:\s*[-\u2013]\s*(?:[a-z]\b|{_NUMBER}))?"
RULE_REF = re.compile(
    rf"\b(?P<word>[Rr]ules?|[Ss]ections?)\s+(?P<first>{_RANGE})"
    rf"(?P<more>(?:(?:\s*,\s*|\s*,?\s+(?:and|or)\s+)(?:{_RANGE}))*)"
)
_ONE = re.compile(_RANGE)


def find_rule_refs(text: str) -> list[Ref]:
    """Every 'rule N' / 'section N' reference in `text`, in order, ranges kept as 'N-x' keys."""
    refs: list[Ref] = []
    for match in RULE_REF.finditer(text):
        kind = "section" if match.group("word").lower().startswith("section") else "rule"
        numbers = [match.group("first")] + _ONE.findall(match.group("more") or "")
        for number in numbers:
            key = re.sub(r"\s*[-\u2013]\s*", "-", number).rstrip(".")
            refs.append(Ref(label=match.group(0).rstrip(".,"), kind=kind, key=key))
    return refs
