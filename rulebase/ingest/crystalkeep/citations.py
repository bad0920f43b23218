"""Crystal Keep citations: '[CompRules 2008/10/01]', '[D'Angelo 02/03/98]', '[Fifth Edition, Page 52]'.

Both Crystal Keep summaries end (and sometimes interrupt) an entry with a bracketed source.
They are data, not prose: the parsers lift them into `Citation`s and strip them from `text`.
Square brackets are also used in rules text ("[Cost]: [Effect]"), so only brackets that carry
a date, a year, a page, or a known undated source name count as citations.
"""

from __future__ import annotations

import re

from rulebase.core.records import Citation

_MONTHS = {m: n for n, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}

# [CompRules 2008/10/01]
_YMD = re.compile(r"^(?P<src>.+?),?\s+(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})$")
# [D'Angelo 02/03/98] (month/day/two-digit year)
_MDY = re.compile(r"^(?P<src>.+?),?\s+(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{2}|\d{4})$")
# [DCI Letter, Jan 1997]
_MON_Y = re.compile(r"^(?P<src>.+?),?\s+(?P<mon>[A-Z][a-z]{2})[a-z]*\.?\s+(?P<y>\d{4})$")
# [bethmo 1994]
_YEAR = re.compile(r"^(?P<src>.+?),?\s+(?P<y>(?:19|20)\d{2})$")
# [Fifth Edition, Page 52], [Fifth Edition Page 47], [Mirage, Page 2-4], [PPG Page 57]
_PAGE = re.compile(r"^(?P<src>.+?),?\s+Page\s+(?P<page>\d+(?:-\d+)?)$")
# undated sources named in the 1999 summary
_NAMED = re.compile(r"^(?:.+ Rulecards?|.+ Rule Page)$")

CITATION = re.compile(r"\[(?P<body>[^\[\]\n]{2,80})\]")


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        year += 2000 if year < 50 else 1900
    return year


def _iso(year: int, month: int, day: int | None = None) -> str | None:
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}" + (f"-{day:02d}" if day is not None else "")


def parse_citation(label: str) -> Citation | None:
    """'[D'Angelo 02/03/98]' -> Citation(source="D'Angelo", date="1998-02-03"); None if not a citation."""
    body = label.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1].strip()
    label = f"[{body}]"
    if match := _YMD.match(body):
        date = _iso(int(match["y"]), int(match["m"]), int(match["d"]))
        return Citation(label, match["src"].strip(), date)
    if match := _MDY.match(body):
        date = _iso(_year(match["y"]), int(match["m"]), int(match["d"]))
        return Citation(label, match["src"].strip(), date)
    if (match := _MON_Y.match(body)) and match["mon"].lower() in _MONTHS:
        return Citation(label, match["src"].strip(), _iso(int(match["y"]), _MONTHS[match["mon"].lower()]))
    if match := _YEAR.match(body):
        return Citation(label, match["src"].strip(), match["y"])
    if match := _PAGE.match(body):
        return Citation(label, match["src"].strip(), page=match["page"])
    if _NAMED.match(body):
        return Citation(label, body)
    return None


def split_citations(text: str) -> tuple[str, list[Citation]]:
    """Lift every citation out of `text`: (text without them, whitespace folded; citations in order)."""
    citations: list[Citation] = []

    def lift(match: re.Match[str]) -> str:
        citation = parse_citation(match.group(0))
        if citation is None:
            return match.group(0)
        citations.append(citation)
        return " "

    stripped = CITATION.sub(lift, text)
    return " ".join(stripped.split()), citations


def late_citation_flags(citations: list[Citation], document_date: str) -> list[str]:
    """Flags for citations dated after the document itself (a typo in the source, usually)."""
    flags = []
    for citation in citations:
        if citation.date and document_date[:4].isdigit() and citation.date[:len(document_date)] > document_date:
            flags.append(f"citation {citation.label} is dated after the document ({document_date})")
    return flags
