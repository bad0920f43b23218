"""What a user's rules file is: its format, date and edition, read from the file itself.

`rulebase add` uses this so users need not know our format names. Everything here is pure
(text in, answer out) and raises only typed errors.

Edition labels. The bundled corpus uses alpha, 4e, 5e, 6e and 10e. A document is labelled by the rules
era it belongs to: the edition its text names ("under the FIFTH EDITION rules"), else the era
its effective date falls in. Wizards stopped naming rules eras after Tenth Edition (the Magic
2010 rules change of 2009-07-11), and 7th-9th Edition have no label in the corpus, so a document
outside the four labelled eras is labelled by the year its rules took effect: "cr2025". Such a
label sorts after 10e, by year (`sources.edition_rank`), and works as a --edition filter and a compare
column like any other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date as _date
from pathlib import Path

from rulebase.core.eras import FIRST_DAY, LAST_DAY, edition_for_date
from rulebase.core.errors import UsageError
from rulebase.ingest.rulebooks import forum

_EDITION_WORDS = {"fourth": "4e", "4th": "4e", "fifth": "5e", "5th": "5e", "sixth": "6e", "6th": "6e",
                  "classic sixth": "6e", "tenth": "10e", "10th": "10e"}
_CR_DATE = re.compile(r"(?:current|effective) as of ([A-Z][a-z]+ \d{1,2},? \d{4})(?!\d)")
_CR_RULE = re.compile(r"^\s*\d{3}\.\d+[a-z]?\.?\s+\S", re.MULTILINE)  # 1999 indents its subrules
_CR_RUN_IN = re.compile(r"[a-z.]\d{3}\.\d+[a-z]?\.? [A-Z]")  # 'General100.1. These': a text that lost its line breaks
_CR_MARK = re.compile(r"comprehensive\s+rules", re.IGNORECASE)  # 'COMPREHENSIVE' / 'RULES' (1999-11-01)
_CR_HEADER_DATE = re.compile(r"comprehensive\s+rules\s+(\d\d)/(\d\d)/(\d\d)\b", re.IGNORECASE)  # '04/23/99'
_CK_MARK = re.compile(r"(?:Rules|Rulings) Summary|crystalkeep|Rulings are collected", re.IGNORECASE)
_CK99_ENTRY = re.compile(r"^[A-Z]\.\d+(?:\.\d+)? - ", re.MULTILINE)
_CK08_ENTRY = re.compile(r"(?<!\S)\d{3}\.\d+[a-z]? - ")
_CK_UPDATED = re.compile(r"Updated\s+(\d{4})/(\d\d)/(\d\d)")
_CK_VERSION = re.compile(r"version of\s+(\d\d)/(\d\d)/(\d\d)")  # not "last released version on"
_RULES_OF = re.compile(r"(?:rules used by|under the)\s+((?:CLASSIC\s+)?[A-Z0-9]+)\s+EDITION", re.IGNORECASE)
_PAGE_MARK = re.compile(r"^--(?:\d{1,3}|[ivxlc]{1,6})\s*$", re.MULTILINE)
_HUNGARIAN = re.compile(r"\b(?:és|a játékos|lapot|lapja|kör|fázis|varázslat|sebzés)\b", re.IGNORECASE)
_MONTHS = {m: n for n, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                        "september", "october", "november", "december"), 1)}
HEAD = 4000  # how far into the file titles and dates are looked for


@dataclass(slots=True)
class Detected:
    format: str
    title: str
    date: str  # "2025-11-14", "1999-04", or "undated"
    edition: str | None  # None: the file does not say and the date does not tell
    lang: str = "en"
    part: str | None = None
    edition_note: str | None = None
    evidence: list[str] = field(default_factory=list)  # what in the file told us, for the report


def detect(text: str, name: str) -> Detected:
    """Format, title, date and edition of `text`; UsageError when the format is not recognised."""
    head = text[:HEAD]
    if _CR_MARK.search(head) and (len(_CR_RULE.findall(text, 0, 400_000)) >= 20
                                  or len(_CR_RUN_IN.findall(text, 0, 400_000)) >= 20):
        return _comprules(text, head, name)  # run-in rules: the parser says the line breaks were lost
    if _CK_MARK.search(head):
        if len(_CK99_ENTRY.findall(text, 0, 400_000)) >= 3:
            return _crystalkeep(head, "crystalkeep-1999", name)
        if _CK08_ENTRY.search(text, 0, 400_000):
            return _crystalkeep(head, "crystalkeep-2008", name)
    if len(_PAGE_MARK.findall(text, 0, 2_000_000)) >= 3:
        return _rulebook(text)
    visible = _visible(text[:200_000])[:HEAD]
    if _TOURNAMENT.search(visible) or _SQUEEZED_TOURNAMENT.search(visible.replace(" ", "")):
        return _tournament(text, name)
    if len(_HUNGARIAN.findall(text, 0, 200_000)) >= 5:
        return Detected("hu-guide", _first_line(head) or "Hungarian rules guide", "undated", None, lang="hu",
                        evidence=["Hungarian prose with headings"])
    raise UsageError(f"{name}: cannot tell what kind of rules document this is",
                     hint="pass --format comprules, crystalkeep-2008, crystalkeep-1999, forum-rulebook, hu-guide "
                          "or tournament")


def detect_as(text: str, name: str, fmt: str) -> Detected:
    """What `detect` says when it agrees with the format the user gave; else that format with the
    date and edition read as that format's files print them (a Comprehensive Rules text detection
    did not recognise still has its 'current as of' line)."""
    try:
        found = detect(text, name)
    except UsageError:
        found = None
    if found is not None and found.format == fmt:
        return found
    if fmt == "comprules":
        found = _comprules(text, text[:HEAD], name)
        found.evidence.insert(0, f"format given: {fmt}")
        return found
    if fmt == "tournament":
        found = _tournament(text, name)
        found.evidence.insert(0, f"format given: {fmt}")
        return found
    return Detected(fmt, Path(name).stem, "undated", None, evidence=[f"format given: {fmt}"])


def _first_line(head: str) -> str:
    """The first line with text; not a ruler of '=' or '-' (Crystal Keep's 1999 banner)."""
    return next((line.strip() for line in head.split("\n") if line.strip().strip("=-")), "")[:120]


def _cr_title(head: str) -> str:
    """The first line, joined with the next when both are capitals ('COMPREHENSIVE' / 'RULES'), its
    spacing folded and a 1999 header date dropped ('COMPREHENSIVE RULES      04/23/99')."""
    lines = [line.strip() for line in head.split("\n")]
    at = next((n for n, line in enumerate(lines) if line.strip("=-")), None)
    if at is None:
        return ""
    title = lines[at]
    if at + 1 < len(lines) and title.isupper() and lines[at + 1].isupper():
        title = f"{title} {lines[at + 1]}"
    return " ".join(re.sub(r"\s\d\d/\d\d/\d\d$", "", title).split())[:120]


def _checked_date(name: str, text: str, found: re.Match, year: int, month: int, day: int) -> str:
    """`year-month-day` as YYYY-MM-DD, or a UsageError naming the file and line of a date that
    does not exist (February 30), so no impossible date reaches the index."""
    line = text.count("\n", 0, found.start()) + 1
    try:
        iso = _date(year, month, day).isoformat()
    except ValueError:
        raise UsageError(f"{name} line {line}: {found.group(0)!r} is not a real date",
                         hint="correct the date in a copy of the file and add that copy") from None
    if not FIRST_DAY <= iso <= LAST_DAY:  # 1066 and 2100 failed the build after the copy was stored
        raise UsageError(f"{name} line {line}: {found.group(0)!r} is outside the dates rulebase knows "
                         f"({FIRST_DAY}, Magic's first rules, to {LAST_DAY})",
                         hint="correct the date in a copy of the file and add that copy")
    return iso


def _comprules(text: str, head: str, name: str) -> Detected:
    """The release's date from 'current as of' / 'effective as of' (at the top, or where 1999's files
    print it, at the end), else from a 1999 header 'COMPREHENSIVE RULES   04/23/99'."""
    found = _CR_DATE.search(head) or _CR_DATE.search(text)
    title = _cr_title(head)
    if found:
        month_name, day, year = found.group(1).replace(",", "").split()
        date = _checked_date(name, text, found, int(year), _MONTHS.get(month_name.lower(), 0), int(day))
        evidence = [f"'{found.group(0)}'"]
    elif header := _CR_HEADER_DATE.search(head):
        month, day, year = header.groups()
        evidence = [f"'{' '.join(header.group(0).split())}'"]
        date = _checked_date(name, text, header, 1900 + int(year) if int(year) > 50 else 2000 + int(year),
                             int(month), int(day))
    else:
        return Detected("comprules", title, "undated", None, evidence=["numbered rules (100.1 ...)"])
    edition, why = edition_for_date(date)
    return Detected("comprules", f"{title} ({date})", date, edition, edition_note=f"inferred: {why}",
                    evidence=[*evidence, "numbered rules (100.1 ...)"])


def _crystalkeep(head: str, fmt: str, name: str) -> Detected:
    evidence = ["a Crystal Keep rulings summary"]
    updated, version = _CK_UPDATED.search(head), _CK_VERSION.search(head)
    date = "undated"
    if updated:
        date = _checked_date(name, head, updated, *map(int, updated.groups()))
        evidence.append(f"'{updated.group(0)}'")
    elif version:
        month, day, year = map(int, version.groups())
        date = _checked_date(name, head, version, 1900 + year if year > 50 else 2000 + year, month, day)
        evidence.append(f"'{version.group(0)}'")
    edition, note = None, None
    named = _RULES_OF.search(head)
    if named:
        edition = _EDITION_WORDS.get(" ".join(named.group(1).lower().split()))
        evidence.append(f"'{named.group(0)}'")
        note = f"stated: '{named.group(0)}'" if edition else None
    if edition is None and date != "undated":
        edition, why = edition_for_date(date)
        note = f"inferred: {why}"
    title = "Crystal Keep rulings summary" + (f" ({date})" if date != "undated" else "")
    header = re.search(r"={10,}\s*(.+?)\s+Updated", head)
    if header:
        title = f"Crystal Keep {header.group(1).strip()}"
    return Detected(fmt, title, date, edition, edition_note=note, evidence=evidence)


def _rulebook(text: str) -> Detected:

    parts = [b.part for b in forum.split_thread(text).books if b.part]
    evidence = ["rulebook page markers (--N)"]
    if len(set(parts)) == 1:
        part = parts[0]
        year = {"4e": "1995", "5e": "1997"}.get(part, "undated")
        return Detected("forum-rulebook", f"Magic: The Gathering {part} rulebook", year, part, part=part,
                        edition_note=f"stated: the text names the {part} rulebook", evidence=evidence)
    note = f"the file holds the {' and '.join(sorted(set(parts)))} rulebooks" if parts else None
    return Detected("forum-rulebook", "Magic: The Gathering rulebook", "undated", None,
                    edition_note=note, evidence=evidence)


# The tournament documents, by the title they print near the top (in HTML, Markdown or text).
_TOURNAMENT = re.compile(r"tournament\s+rules|infraction\s+procedure\s+guide|judging\s+at\s+regular", re.IGNORECASE)
# the same, spaces removed: HTML converted from a PDF splits small capitals ("T OURNAMENT R ULES")
_SQUEEZED_TOURNAMENT = re.compile(r"tournamentrules|infractionprocedureguide|judgingatregular", re.IGNORECASE)
_MARKUP = re.compile(r"<(style|script)\b.*?</\1\s*>|<[^>]*>|&[a-z]+;|&#\d+;", re.IGNORECASE | re.DOTALL)
_DATED = re.compile(r"(?:Effective|Updated)\s*:?\s+([A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4})")


def _visible(text: str) -> str:
    """The words of a page, markup removed: only to recognise a tournament document's title."""
    return " ".join(_MARKUP.sub(" ", text).split())


def _tournament(text: str, name: str) -> Detected:
    """A release of the MTR, IPG, JAR, DMTR or DIPG: which one and its date, read as the archive's
    files are (ingest.tournament.release): the date it prints, else its own evidence (the app's
    stamp, its changes appendix), flagged. A printed date that does not exist is a usage error."""
    # lazy: only a tournament document needs its parser
    from rulebase.ingest.tournament.dating import parse_date
    from rulebase.ingest.tournament.release import DOCUMENTS, read_file

    for found in _DATED.finditer(text, 0, 400_000):
        if parse_date(found[1]) is None and found[1].split()[0].lower().rstrip(".") in _MONTHS_ABBR:
            line = text.count("\n", 0, found.start()) + 1
            raise UsageError(f"{name} line {line}: {found.group(0)!r} is not a real date",
                             hint="correct the date in a copy of the file and add that copy")
    got = read_file(text, name, "probe", {"edition": "dated", "lang": "en"})
    if got.document is None:
        raise UsageError(f"{name}: cannot tell which tournament document this is",
                         hint="its title should name the Tournament Rules, the Infraction Procedure Guide or the JAR")
    title = f"{DOCUMENTS[got.document]} ({got.document.upper()})"
    evidence = [f"the title names the {got.document.upper()}", f"read as {got.reader}"]
    when = got.printed
    note = None
    if when is None and got.evidence:
        when, why = got.evidence[0]
        note = f"no date printed; dated from {why}"
        evidence.append(note)
    elif when is not None:
        evidence.append(got.how)
    if when is None:
        raise UsageError(f"{name}: the {got.document.upper()} prints no date (no 'Effective MONTH DAY, YEAR')",
                         hint="add a copy with its date line, as the official document prints it")
    date = when.isoformat()
    if not FIRST_DAY <= date <= LAST_DAY:  # an MTR of 1990 joined the timeline; one of 2100 asked for --edition
        said = f" ({got.how})" if got.how and when == got.printed else ""
        raise UsageError(f"{name}: the {got.document.upper()}'s date {date}{said} is outside the dates rulebase knows "
                         f"({FIRST_DAY}, Magic's first rules, to {LAST_DAY})",
                         hint="correct the date in a copy of the file and add that copy")
    edition, why = edition_for_date(date)
    return Detected("tournament", f"{title} ({date})", date, edition, part=got.document,
                    edition_note=note or f"inferred: {why}", evidence=evidence)


_MONTHS_ABBR = {m[:3] for m in _MONTHS} | set(_MONTHS) | {"sept"}
