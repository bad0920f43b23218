"""Every Comprehensive Rules release in the three bundled archives (1999-2026) parses completely.

The coverage check here is computed from the records alone (each record's `line` and `raw`
against the source text), never from the parser's bookkeeping: every non-blank source line must
be a line of exactly one record's raw, inside that record's line span, or carry a warning.
Regenerate the golden counts after a deliberate parser change with
`.venv/bin/python tests/test_archive_parse.py --write` and review the diff.
"""

from __future__ import annotations

import gc
import re
import sys
import tarfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulebase.core.errors import SourceError
from rulebase.core.sources import Source
from rulebase.core.value import replace
from rulebase.ingest.comprules import release as comprules
from rulebase.ingest.comprules.archive import member_date
from rulebase.ingest.comprules.release import parse
from rulebase.ingest.text import Parsed, decode

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / "corpus" / "comprules-archive-2003-2026.tar.xz"
EXTRA = ROOT / "corpus" / "comprules-extra-1999-2018.tar.xz"  # pit142857/mtg-cr's CR-<date>.txt
# plain_text/<YYYYMMDD>_En.txt (a translation's English text) and 'MagicCompRules 20260227.txt'
NEWER = ROOT / "corpus" / "comprules-extra-2023-2026.tar.xz"
COUNTS = Path(__file__).parent / "fixtures" / "archive-counts.tsv"
HEADER = ["release", "effective", "rules", "examples", "glossary", "warnings"]


@dataclass
class Release:
    date: str  # the date the archive files it under (comprules-YYYY-MM-DD.txt, ..., YYYYMMDD_En.txt)
    name: str
    text: str
    parsed: Parsed


def _source(sid: str, name: str) -> Source:
    path = Path(name)
    return Source(id=sid, title="Magic: The Gathering Comprehensive Rules", edition="10e", date="x", lang="en",
                  file=name, format="comprules", provenance="test", credit="test", path=path)


def _texts() -> list[tuple[str, str, str]]:
    """(date, file name, decoded text) for every release in the three archives, by file date
    (the date in the file's name, as the archive parser reads it)."""
    out = []
    for archive in (ARCHIVE, EXTRA, NEWER):
        with tarfile.open(archive, "r:xz") as tar:
            for member in tar.getmembers():
                name = member.name.rsplit("/", 1)[-1]
                date = member_date(member.name)
                if member.isfile() and date:
                    data = tar.extractfile(member).read()
                    out.append((date, name, decode(data, name).text))
    return sorted(out)


def load_releases() -> list[Release]:
    """Every release parsed. The collector stays off while they pile up: collections that scan the
    ~300,000 records already kept would double the time, and parsing makes no cycles."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return [Release(date, name, text, parse(text, _source("cr" + date.replace("-", ""), name)))
                for date, name, text in _texts()]
    finally:
        if enabled:
            gc.enable()


@pytest.fixture(scope="module")
def releases() -> list[Release]:
    return load_releases()


@pytest.fixture(scope="module")
def by_date(releases) -> dict[str, Release]:
    """Each file by the date it is filed under (2026-02-27: the translators' file, the first of two)."""
    out: dict[str, Release] = {}
    for release in releases:
        out.setdefault(release.date, release)
    return out


@pytest.fixture(scope="module")
def by_name(releases) -> dict[str, Release]:
    return {r.name: r for r in releases}


def count_row(release: Release) -> list[str]:
    kinds = Counter(r.kind for r in release.parsed.records)
    return [release.date, release.parsed.meta.get("effective", "-"), str(kinds["rule"]), str(kinds["example"]),
            str(kinds["glossary"]), str(len(release.parsed.warnings))]


# -- the coverage invariant -------------------------------------------------------------------------


def unplaced(text: str, parsed: Parsed) -> list[str]:
    """Problems with line coverage, computed only from records' `line` and `raw` and warnings' lines.

    A record claims source line `line` (which must equal its raw's first line) and then each later
    raw line at its next occurrence below the previous one: the raw keeps its lines exactly and in
    order, and the claimed lines span [line, last claimed]. Every non-blank source line must be
    claimed exactly once or be the line of a warning."""
    lines = text.split("\n")
    claimed: dict[int, str] = {}
    problems: list[str] = []
    for record in parsed.records:
        raw = record.raw.split("\n")
        at = record.line - 1
        if not 0 <= at < len(lines) or lines[at] != raw[0]:
            problems.append(f"{record.id}: line {record.line} is not its raw's first line {raw[0][:50]!r}")
            continue
        pos = at
        claims = [at]
        for part in raw[1:]:
            if not part.strip():
                continue
            nxt = next((j for j in range(pos + 1, len(lines)) if lines[j] == part), None)
            if nxt is None:
                problems.append(f"{record.id}: raw line {part[:50]!r} is not a source line below line {pos + 1}")
                break
            claims.append(nxt)
            pos = nxt
        for j in claims:
            if j in claimed:
                problems.append(f"line {j + 1} is in two records: {claimed[j]} and {record.id}")
            claimed[j] = record.id
    warned = {w.line - 1 for w in parsed.warnings if w.line}
    problems += [f"line {i + 1} is in no record and no warning: {line.strip()[:60]!r}"
                 for i, line in enumerate(lines) if line.strip() and i not in claimed and i not in warned]
    return problems


def test_every_source_line_is_placed(releases):
    failures = {r.name: problems[:3] for r in releases if (problems := unplaced(r.text, r.parsed))}
    assert failures == {}
    assert len(releases) == 133  # 110 + 16 + 7 files


def test_coverage_check_fails_when_a_record_is_deleted(by_date):
    release = by_date["2008-10-01"]
    records = [r for r in release.parsed.records if r.id != "cr20081001:502.83a"]
    problems = unplaced(release.text, Parsed(records, release.parsed.warnings))
    assert problems == ["line 2318 is in no record and no warning: "
                        "'502.83a Exalted is a triggered ability. \"Exalted\" means \"Whe'"]


def test_coverage_check_fails_when_a_raw_line_is_dropped(by_date):
    release = by_date["2025-11-14"]
    records = list(release.parsed.records)
    n, entry = next((n, r) for n, r in enumerate(records) if r.id == "cr20251114:glossary.ability")
    records[n] = replace(entry, raw=entry.raw.rsplit("\n", 1)[0])
    problems = unplaced(release.text, Parsed(records, release.parsed.warnings))
    assert len(problems) == 1 and problems[0].startswith("line ")
    assert entry.raw.rsplit("\n", 1)[1][:40] in problems[0]


def test_coverage_check_fails_when_the_parser_skips_examples(by_date, monkeypatch):
    release = by_date["2003-03-15"]
    original = comprules._Body.line

    def skip_examples(self, i, raw, lines):
        if not raw.lstrip().startswith("Example:"):
            original(self, i, raw, lines)

    monkeypatch.setattr(comprules._Body, "line", skip_examples)
    parsed = parse(release.text, _source("cr20030315", release.name))
    problems = unplaced(release.text, parsed)
    examples = sum(1 for line in release.text.split("\n") if line.lstrip().startswith("Example:")
                   and line.startswith("Example:"))
    assert 0 < len(problems) <= examples
    assert all("Example:" in p for p in problems)


def test_coverage_check_fails_when_a_line_is_in_two_records(by_date):
    release = by_date["2003-03-15"]
    records = list(release.parsed.records)
    twice = records[-1]
    records.append(replace(twice, id="copy"))
    problems = unplaced(release.text, Parsed(records, release.parsed.warnings))
    assert problems and all(" is in two records: " in p for p in problems)


# -- counts: pinned per release, and compared between releases ---------------------------------------


def test_counts_match_golden(releases):
    lines = COUNTS.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == HEADER
    want = [line.split("\t") for line in lines[1:]]
    got = [count_row(r) for r in releases]
    assert [row for row in got if row not in want] == []
    assert got == want


def test_every_release_has_rules_glossary_and_date(releases):
    for release in releases:
        kinds = Counter(r.kind for r in release.parsed.records)
        early = release.parsed.meta["effective"] < "2003"  # the 1999-2002 rules: 346-500 rules, 5 sections
        assert kinds["rule"] > (300 if early else 500), release.name
        assert kinds["section"] >= (5 if early else 6) and kinds["chapter"] >= 60, release.name
        assert kinds["glossary"] > 0 and kinds["note"] >= 2 and kinds["document"] == 1, release.name
        assert len(release.parsed.meta["effective"]) == 10, release.name


def _deviations(releases: list[Release]) -> dict[str, list[str]]:
    """Releases (in order of the effective date they print) whose rule or glossary count falls, or
    whose rule count grows by more than a third, against the release before."""
    ordered = sorted(releases, key=lambda r: (r.parsed.meta["effective"], r.date))
    out: dict[str, list[str]] = {}
    for before, after in zip(ordered, ordered[1:], strict=False):
        a, b = Counter(r.kind for r in before.parsed.records), Counter(r.kind for r in after.parsed.records)
        for kind in ("rule", "glossary"):
            if b[kind] < a[kind] * 0.98 or b[kind] > a[kind] * 1.34:
                out.setdefault(after.date, []).append(f"{kind} {a[kind]} -> {b[kind]}")
    return out


def test_counts_grow_smoothly_except_where_a_warning_explains_it(releases, by_date):
    deviations = _deviations(releases)
    # 2001-09-24 is the Seventh Edition rules (Crystal Keep's wrapped 1999 text lists 355 rules, the
    # 2001 one 481: the releases between are missing); 2003-07-01 is the Eighth Edition rewrite
    # (rules 514 -> 647, 102 new glossary terms);
    # 2013-02-01 is cut off in the glossary's 'A' entries, and 2013-04-29 is the release after it.
    assert deviations == {"2001-09-24": ["rule 355 -> 481"], "2003-07-01": ["glossary 211 -> 290"], "2013-02-01": ["glossary 470 -> 31"],
                          "2013-04-29": ["glossary 31 -> 476"]}
    assert by_date["2013-02-01"].parsed.warnings


def test_effective_dates_are_read_from_the_text(by_date):
    # filed under 2006-06-01, the file is the 2004-06-01 release the archive lists as missing
    assert by_date["2006-06-01"].parsed.meta["effective"] == "2004-06-01"
    assert by_date["2021-02-24"].parsed.meta["effective"] == "2021-02-15"
    assert by_date["2009-07-11"].parsed.meta["effective"] == "2009-07-11"
    assert by_date["2024-04-10"].parsed.meta["effective"] == "2024-04-12"  # 20240410_En.txt


# -- the releases that used to fail -----------------------------------------------------------------


def test_2009_07_11_renumbering_parses_fully(by_date):
    parsed = by_date["2009-07-11"].parsed
    by_id = {r.id: r for r in parsed.records}
    assert parsed.warnings == []
    # 1470 lines numbered as rules (four of them indented: ' 509.1c ...'), and '702. 37a'/'702. 37b'
    # printed with a space
    assert sum(r.kind == "rule" for r in parsed.records) == 1472
    assert by_id["cr20090711:509.1c"].text.startswith("The defending player checks each creature")
    assert sum(r.kind == "glossary" for r in parsed.records) == 408  # its 408 blank-separated terms
    exalted = by_id["cr20090711:702.80"]
    assert (exalted.title, exalted.parent) == ("Exalted", "cr20090711:702")
    assert by_id["cr20090711:702.80a"].text.startswith("Exalted is a triggered ability.")
    # the Contents says "1. Game Concepts", the body "1. The Game": kept as printed, flagged
    section = by_id["cr20090711:1"]
    assert (section.title, section.line, section.flags) == ("The Game", 150, ["not listed in the Contents"])
    assert [r.id for r in parsed.records if r.kind == "note"] == [
        "cr20090711:introduction", "cr20090711:contents", "cr20090711:credits", "cr20090711:questions"]
    assert "100.1." not in by_id["cr20090711:credits"].raw


def test_2013_02_01_truncated_glossary_warns_with_file_and_line(by_date):
    release = by_date["2013-02-01"]
    lines = release.text.split("\n")
    last = max(i for i, line in enumerate(lines) if line.strip()) + 1
    assert [(w.file, w.line) for w in release.parsed.warnings] == [("comprules-2013-02-01.txt", last)]
    message = release.parsed.warnings[0].message
    assert "Attack Multiple Players" in message and "'Credits'" in message and "truncated" in message


def test_hard_wrapped_release_joins_its_lines(by_date):
    """2003-10-01 to 2004-02-01 are wrapped at about 100 columns: a rule, an example or a glossary
    definition runs on over several lines, and a wrapped 'See rule' may start a line with a number."""
    parsed = by_date["2003-10-01"].parsed
    by_id = {r.id: r for r in parsed.records}
    assert not any("~" in r.id for r in parsed.records)
    rule = by_id["cr20031001:200.9c"]
    assert rule.text.endswith('a source of damage. See rule 419.8 "Sources of Damage."')
    assert "\n" not in rule.text and [ref.key for ref in rule.refs] == ["419.8"]
    cost = by_id["cr20031001:glossary.activation-cost"]
    assert cost.text == ('The activation cost of an activated ability is everything before the colon in '
                         '"activation cost: effect." It must be paid to play the ability. See rule 403, '
                         '"Activated Abilities."')
    example = by_id["cr20031001:glossary.activation-cost.example1"]
    assert example.text.endswith("is two mana of any color plus tapping the permanent.")
    ability = by_id["cr20031001:glossary.ability"]
    assert ability.text.count("\n\n") == 2  # one paragraph, then two indented ones


def test_2003_expansion_symbol_table_stays_in_its_entry(by_date):
    parsed = by_date["2003-03-15"].parsed
    entries = [r for r in parsed.records if r.kind == "glossary"]
    assert not [r.id for r in entries if "no definition text" in r.flags]
    symbol = next(r for r in entries if r.title == "Expansion Symbol")
    assert "Expansions and Editions" in symbol.text and "Unglued(tm) [symbol]" in symbol.text


def test_rule_number_printed_with_a_space(by_date):
    parsed = by_date["2005-08-01"].parsed
    by_id = {r.id: r for r in parsed.records}
    rule = by_id["cr20050801:606.8b"]
    assert (rule.kind, rule.parent) == ("rule", "cr20050801:606.8")
    assert rule.flags == ["misprinted number '606. 8b' read as 606.8b"]
    assert not [r for r in parsed.records if r.kind == "chapter" and r.number == "606" and "~" in r.id]


def test_1999_crystal_keep_text_reads_its_indented_subrules_and_rulers(by_date):
    """CR-1999-04-23 (Crystal Keep's hard-wrapped copy of the first Comprehensive Rules): subrules
    indented two spaces and wrapped at that indent, headings framed by '-----' rulers, an Index
    after the glossary, the date only at the end."""
    release = by_date["1999-04-23"]
    parsed = release.parsed
    by_id = {r.id: r for r in parsed.records}
    assert parsed.warnings == [] and parsed.meta["effective"] == "1999-04-23"
    trample = [by_id[f"cr19990423:502.9{c}"] for c in "abcdefg"]
    assert all(r.parent == "cr19990423:502.9" for r in trample)
    assert trample[0].text == ("Trample is a static ability that modifies the rules for assigning an attacking "
                               "creature's combat damage. A creature with trample has no special abilities when "
                               "blocking or dealing noncombat damage.")
    assert by_id["cr19990423:502.9f.example1"].text.startswith("EXAMPLE: A 2/2 creature with an ability")
    assert by_id["cr19990423:502.9"].raw == "502.9. Trample"
    assert by_id["cr19990423:100"].raw == "100. General\n------------"
    glossary = [r for r in parsed.records if r.kind == "glossary"]
    assert not [r.title for r in glossary if any(ch.isdigit() for ch in r.title or "")]  # 'Trample, 502.9'
    assert "Trample, 502.9" in by_id["cr19990423:index"].raw
    assert parsed.records[0].title == "COMPREHENSIVE RULES 04/23/99"


def test_1999_11_indented_chapters_and_two_line_title(by_date):
    parsed = by_date["1999-11-01"].parsed
    by_id = {r.id: r for r in parsed.records}
    assert parsed.warnings == []
    assert by_id["cr19991101:100"].title == "General" and by_id["cr19991101:100.1"].parent == "cr19991101:100"
    assert by_id["cr19991101:217.2d"].kind == "rule"  # printed with a leading space
    assert parsed.records[0].title == "COMPREHENSIVE RULES"
    assert "Trample, 502.9" in by_id["cr19991101:index"].raw
    assert not by_id["cr19991101:index"].raw.count("Credits")


# -- the 2023-2026 files ----------------------------------------------------------------------------


def _rule_numbers(release: Release) -> set[str]:
    return {r.number for r in release.parsed.records if r.kind == "rule"}


def test_archive_members_are_named_as_each_archive_names_them():
    assert member_date("HeliumOctahelide-magic-comp-rules-zh-cn/plain_text/20240917_En.txt") == "2024-09-17"
    assert member_date("LilBeaky-mtg-data/MagicCompRules 20260227.txt") == "2026-02-27"
    assert member_date("comprules-archive/comprules-2009-07-11.txt") == "2009-07-11"
    assert member_date("comprules-extra-1999-2018/CR-2009-07-08.txt") == "2009-07-08"
    assert member_date("plain_text/20240917_Zh.txt") is member_date("SHA256SUMS") is None


def test_2023_09_01_breaks_its_lines_with_bare_crs_and_reads_like_its_neighbours(by_date):
    """20230901_En.txt ends its lines with bare CRs (12 CRLFs among them): split at LF alone it
    is 13 lines, the rules run into each other ('...1. Game Concepts\r\r100. General'). Read at
    every line end, it is the June 2023 release's rules plus Wilds of Eldraine's (bargain, Role
    tokens), every one of them still in the October 2023 release."""
    with tarfile.open(NEWER, "r:xz") as tar:
        raw = tar.extractfile("HeliumOctahelide-magic-comp-rules-zh-cn/plain_text/20230901_En.txt").read()
    assert (raw.count(b"\n"), raw.count(b"\r")) == (12, 8563)
    release = by_date["2023-09-01"]
    assert release.parsed.warnings == [] and release.parsed.meta["effective"] == "2023-09-01"
    june, september, october = (_rule_numbers(by_date[d]) for d in ("2023-06-16", "2023-09-01", "2023-10-13"))
    assert june < september < october
    assert sorted(september - june) == [
        "111.10j", "111.10k", "111.10m", "111.10n", "111.10p", "111.10q", "111.10r", "303.7", "303.7a", "614.13c",
        "701.18d", "701.42c", "701.42d", "701.52e", "702.166", "702.166a", "702.166b", "702.166c", "702.166d",
        "704.5y", "903.4f"]
    by_id = {r.id: r for r in release.parsed.records}
    bargain = by_id["cr20230901:702.166a"]
    assert bargain.text.startswith("Bargain is a static ability that functions while the spell with bargain")
    assert release.text.split("\n")[bargain.line - 1] == bargain.raw  # one line of its own
    assert (by_id["cr20230901:702.166"].title, by_id["cr20230901:1"].title) == ("Bargain", "Game Concepts")


def test_the_two_files_of_2026_02_27_print_the_same_rules(by_name):
    """The translators' LF file and Wizards' own CRLF file with a byte-order mark: the same lines
    (Wizards' ends with five more blank ones), the same records, each from the same line."""
    ours, wizards = by_name["20260227_En.txt"].parsed, by_name["MagicCompRules 20260227.txt"].parsed
    assert ours.meta["effective"] == wizards.meta["effective"] == "2026-02-27"
    assert [(r.kind, r.id, r.title, r.text) for r in ours.records] == \
           [(r.kind, r.id, r.title, r.text) for r in wizards.records]
    assert [(r.line, r.raw) for r in ours.records] == [(r.line, r.raw) for r in wizards.records]
    assert by_name["MagicCompRules 20260227.txt"].text == by_name["20260227_En.txt"].text + "\n" * 5


def test_2024_09_20_is_duskmourn_with_the_room_rules(by_date):
    """Filed as 20240917, dated by its text: the September 2024 release, the first with Room cards
    (709.5, the glossary's Door), manifest dread and impending; July's release has none of them."""
    release = by_date["2024-09-17"]
    assert release.parsed.meta["effective"] == "2024-09-20" and release.parsed.warnings == []
    by_id = {r.id: r for r in release.parsed.records}
    assert by_id["cr20240917:709.5"].text.startswith("Some split cards are permanent cards with a single shared "
                                                     "type line.")
    assert by_id["cr20240917:glossary.door"].text.startswith("A door is one half of a Room permanent.")
    assert (by_id["cr20240917:701.60"].title, by_id["cr20240917:702.176"].title) == ("Manifest Dread", "Impending")
    assert not {"709.5", "701.60", "702.176"} & _rule_numbers(by_date["2024-08-02"])
    assert _rule_numbers(by_date["2024-08-02"]) < _rule_numbers(release)


def test_zero_rules_is_an_error():
    text = ("Comprehensive Rules\n\nThese rules are effective as of May 5, 2005.\n\nContents\n\n1. Game\n"
            "100. General\nGlossary\nCredits\n\n1. Game\n\n100. General\n\nGlossary\n\nCredits\n\nSomeone.\n")
    with pytest.raises(SourceError, match="no numbered rules found"):
        parse(text, _source("z", "z.txt"))


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_archive_parse.py --write   (rewrites " + COUNTS.name + ")")
    rows = ["\t".join(HEADER)] + ["\t".join(count_row(r)) for r in load_releases()]
    COUNTS.write_text("\n".join(rows) + "\n", encoding="utf-8")
    print(f"wrote {COUNTS} ({len(rows) - 1} releases)")


def test_a_glossary_sense_is_never_a_term_of_its_own(releases):
    """1999-11-01 puts a blank line before "2. A counter is a marker..."; 2021-06-09 runs the term
    into its first sense ("Ability1. Text on an object..."). Both were entries titled with the
    sense; they are senses of the entry they belong to."""
    for release in releases:
        for record in release.parsed.records:
            if record.kind == "glossary":
                assert not re.match(r"\d+\. |.*[a-z]1\. ", record.title or ""), (release.name, record.title)
    by_title = {(r.date, rec.title): rec for r in releases for rec in r.parsed.records if rec.kind == "glossary"}
    counter = next(rec for (day, title), rec in by_title.items() if title == "Counter" and day.startswith("1999-11"))
    assert counter.text.split("\n\n")[1].startswith("2. A counter is a marker placed on a permanent")
    ability = [rec for (day, title), rec in by_title.items() if title == "Ability" and day.startswith("2021-06")]
    assert ability and ability[0].text.startswith("1. Text on an object that explains what that object does")
    assert "\n\n2. An activated or triggered ability on the stack." in ability[0].text
    assert ability[0].raw.startswith("Ability1. Text on an object")  # the source line as written
