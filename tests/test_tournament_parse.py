"""Every file of the tournament documents' archive (66 files: MTR, IPG, JAR, DMTR, DIPG, 2013-2025)
parses completely, and every release is dated.

The coverage check is computed apart from the parser: the text on each source line is read here
with the standard library's HTML tokenizer (its data and the line it starts on; a Markdown file's
lines as they are), and every line holding text must be a line of a record (the record's `line`
and the lines of its `raw`, found in order below it), a line set aside (the app's date stamp, a
page title or number, listed by kind in the parse's meta), or a warning's line.
Regenerate the golden counts after a deliberate parser change with
`.venv/bin/python tests/test_tournament_parse.py --write` and review the diff.
"""

from __future__ import annotations

import html
import re
import sys
from collections import Counter
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulebase.core.sources import load_manifest
from rulebase.core.value import replace
from rulebase.ingest.text import Parsed, decode
from rulebase.ingest.tournament.archive import members, parse_all
from rulebase.ingest.tournament.release import as_parsed, read_file

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / "corpus" / "tournament-rules-2013-2025.tar.xz"
COUNTS = Path(__file__).parent / "fixtures" / "tournament-counts.tsv"
HEADER = ["file", "document", "reader", "effective", "sections", "notes", "set aside"]


class _TextLines(HTMLParser):
    """The lines that hold text, as the standard library's tokenizer reads an HTML file (the
    stylesheet and scripts are markup; a <title> is text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: set[int] = set()
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "script") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if self._skip:
            return
        line = self.getpos()[0]
        for k, part in enumerate(data.split("\n")):
            if part.strip():
                self.lines.add(line + k)


def text_lines(text: str, name: str) -> set[int]:
    if name.endswith(".md"):
        return {n for n, line in enumerate(text.split("\n"), 1) if line.strip()}
    reader = _TextLines()
    reader.feed(text)
    reader.close()
    return reader.lines


def unplaced(text: str, name: str, parsed: Parsed) -> list[str]:
    """Problems with line coverage, from the records' `line` and `raw`, the set-aside lines and
    the warnings only."""
    lines = text.split("\n")
    claimed: set[int] = set()
    problems: list[str] = []
    for record in parsed.records:
        raw = record.raw.split("\n")
        at = (record.line or 0) - 1
        if not 0 <= at < len(lines) or lines[at] != raw[0]:
            problems.append(f"{record.id}: line {record.line} is not its raw's first line {raw[0][:50]!r}")
            continue
        pos = at
        claimed.add(at + 1)
        for part in raw[1:]:
            nxt = next((j for j in range(pos + 1, len(lines)) if lines[j] == part), None)
            if nxt is None:
                problems.append(f"{record.id}: raw line {part[:50]!r} is not a source line below line {pos + 1}")
                break
            claimed.add(nxt + 1)
            pos = nxt
    aside = {n for numbers in parsed.meta["set_aside_lines"].values() for n in numbers}
    warned = {w.line for w in parsed.warnings if w.line}
    problems += [f"line {n} is in no record, not set aside and not warned: {lines[n - 1].strip()[:60]!r}"
                 for n in sorted(text_lines(text, name) - claimed - aside - warned)]
    return problems


@pytest.fixture(scope="module")
def files() -> list[tuple[str, str, str, Parsed]]:
    out = []
    for member in members(ARCHIVE):
        text = decode(member.data, member.name).text
        got = read_file(text, member.name, member.document, {"edition": "dated", "lang": "en"}, member.document)
        out.append((member.name, member.document, text, as_parsed(got), got))
    return out


def test_the_archive_is_bundled_byte_for_byte():
    import hashlib

    digest = hashlib.sha256(ARCHIVE.read_bytes()).hexdigest()
    assert digest == "c0e81f6acffd7d9a08c14563c1e02ea9c0275f47a2c7b7bb8fc2d7b293e5e7ad"


def test_every_source_line_is_placed(files):
    failures = {name: problems[:3] for name, _, text, parsed, _ in files if (problems := unplaced(text, name, parsed))}
    assert failures == {}
    assert len(files) == 66


def test_coverage_check_fails_when_a_record_is_deleted(files):
    name, _, text, parsed, _ = next(f for f in files if f[0].endswith("50b29579-ipg.html"))
    gone = next(r for r in parsed.records if r.id == "ipg:2.1")
    kept = [r for r in parsed.records if r is not gone]
    problems = unplaced(text, name, Parsed(kept, parsed.warnings, meta=parsed.meta))
    assert len(problems) == len(gone.raw.split("\n")) > 100  # each of its lines, and nothing else
    assert all("in no record" in p for p in problems)


def test_coverage_check_fails_when_a_raw_line_is_dropped(files):
    name, _, text, parsed, _ = next(f for f in files if f[0].endswith("fad8917d-mtr.html"))
    records = list(parsed.records)
    n, entry = next((n, r) for n, r in enumerate(records) if r.id == "mtr:2.2")
    records[n] = replace(entry, raw=entry.raw.rsplit("\n", 1)[0])
    problems = unplaced(text, name, Parsed(records, parsed.warnings, meta=parsed.meta))
    assert len(problems) == 1 and "in no record" in problems[0]


def test_coverage_check_fails_when_set_aside_lines_are_not_listed(files):
    name, _, text, parsed, _ = next(f for f in files if f[0].endswith("fad8917d-mtr.html"))
    meta = dict(parsed.meta, set_aside_lines={k: v for k, v in parsed.meta["set_aside_lines"].items()
                                              if k != "page number"})
    problems = unplaced(text, name, Parsed(parsed.records, parsed.warnings, meta=meta))
    assert len(problems) == len(parsed.meta["set_aside_lines"]["page number"]) == 55


def count_row(name: str, document: str, parsed: Parsed, got) -> list[str]:
    kinds = Counter(r.kind for r in parsed.records)
    aside = ", ".join(f"{k} {len(v)}" for k, v in sorted(parsed.meta["set_aside_lines"].items()))
    return [name, document, got.reader, parsed.meta["effective"] or "-", str(kinds["section"]), str(kinds["note"]),
            aside or "-"]


def test_counts_match_golden(files):
    lines = COUNTS.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == HEADER
    want = [line.split("\t") for line in lines[1:]]
    got = [count_row(name, doc, parsed, g) for name, doc, _, parsed, g in files]
    assert [row for row in got if row not in want] == []
    assert got == want


def test_the_app_stamps_page_titles_and_numbers_are_set_aside_and_counted(files):
    total: Counter = Counter()
    for _, _, _, parsed, _ in files:
        total.update(parsed.set_aside)
    assert total["app date stamp"] == 59  # every file of the app but the two of 2013 (27925944) and one of 2014
    assert total["page number"] > 600 and total["page title"] > 700


# -- the documents as a judge reads them ------------------------------------------------------------


@pytest.fixture(scope="module")
def timelines() -> dict[str, Parsed]:
    sources = [s for s in load_manifest(ROOT / "corpus") if s.format == "tournament-archive"]
    return parse_all(sources)


def _release_dates(parsed: Parsed) -> list[str]:
    return [row["date"] for row in parsed.meta["releases"]]


def test_every_release_is_dated(timelines):
    assert {sid: len(_release_dates(p)) for sid, p in timelines.items()} == {
        "mtr": 26, "ipg": 26, "jar": 5, "dmtr": 3, "dipg": 2}
    for parsed in timelines.values():
        assert all(len(d) == 10 for d in _release_dates(parsed))


def test_files_that_print_no_date_are_dated_from_their_evidence_and_flagged(timelines):
    mtr = {row["member"].rsplit("/", 1)[-1]: row for row in timelines["mtr"].meta["releases"]}
    assert mtr["27925944-mtr.html"]["date"] == "2013-02-08" and mtr["27925944-mtr.html"]["effective"] is None
    assert mtr["2e2b1e19-mtr.html"]["date"] == "2016-01-22"
    assert mtr["a406de35-mtr.html"]["date"] == "2016-04-08"
    assert "app's date stamp '2016-00-21'" in mtr["2e2b1e19-mtr.html"]["dated"]
    dmtr = {row["member"].rsplit("/", 1)[-1]: row for row in timelines["dmtr"].meta["releases"]}
    assert dmtr["a81ddad8-dmtr.html"]["date"] == "2021-07-23"
    flags = [f for r in timelines["mtr"].records if r.kind == "document" for f in r.flags]
    assert [f.split(" prints no date")[0] for f in flags] == [
        "the release of 2013-02-08", "the release of 2016-01-22", "the release of 2016-04-08"]


def test_two_files_of_one_release_are_merged_and_disagreeing_dates_noted(timelines):
    ipg = timelines["ipg"]
    dates = _release_dates(ipg)
    assert "2018-10-03" not in dates and "2018-10-05" in dates
    assert "2021-02-06" not in dates and "2021-02-05" in dates
    merged = [row for row in ipg.meta["releases"] if row["printings"]]
    assert [row["date"] for row in merged] == ["2018-07-13", "2018-10-05", "2019-01-21", "2021-02-05"]
    disagree = [n for n in ipg.notes if "the dates disagree" in n]
    assert len(disagree) == 2 and "Oct 3rd, 2018" in disagree[0] and "Feb 6, 2021" in disagree[1]


def _in(parsed: Parsed, number: str) -> list:
    return [r for r in parsed.records if r.number == number and r.kind == "section" and "~" not in r.id]


def test_sections_are_numbered_and_titled_as_printed(timelines):
    play_draw = _in(timelines["mtr"], "2.2")
    assert {r.title for r in play_draw} == {"Play/Draw Rule"}
    assert play_draw[0].span[0] == "2013-02-08" and play_draw[-1].span[1] == "2025-11-10"
    assert len({r.lineage for r in play_draw}) == 1
    missed = _in(timelines["ipg"], "2.1")
    assert missed[-1].title == "Game Play Error \u2014 Missed Trigger"
    assert missed[0].span[0] == "2013-02-08" and missed[-1].span[1] == "2024-09-23"
    assert len({r.lineage for r in missed}) == 1
    text = missed[-1].text.split("\n")
    assert text[0] == "No Penalty"  # the penalty, as the PDF prints it beside the heading
    for part in ("Definition", "Examples", "Philosophy", "Additional Remedy"):
        assert part in text
    assert any(line.startswith("Upgrade:") for line in text)


def test_the_jar_has_named_sections_and_issues_under_them(timelines):
    newest = [r for r in timelines["jar"].records if r.kind == "section" and r.span[1] == "2024-09-23"]
    tops = {r.title for r in newest if r.parent is None}
    assert tops == {"Common Issues", "General Unwanted Behaviors", "Serious Problems", "Resources"}
    issues = [r.title for r in newest if r.parent and r.parent.startswith("jar:common-issues@")]
    assert len(issues) == 5 and any(t.startswith("A player forgets a triggered ability (one that uses") for t in issues)


def test_references_within_a_release_resolve(timelines):
    pregame = _in(timelines["mtr"], "2.3")[-1]
    refs = [r for r in pregame.refs if r.kind == "section"]
    assert refs and refs[0].key == "2.2" and refs[0].target.startswith("mtr:2.2@")


# -- read right: headings, small capitals, page numbers, the changes appendix -------------------------

_PARTS = ("Definition", "Examples", "Philosophy", "Additional Remedy")  # the IPG's headings in a section
_TAGS = re.compile(r"<[^>]*>")


def _prints_heading(lines: list[str], heading: str) -> bool:
    """Whether source lines print `heading` as a heading of its own (markup stripped; not the
    word starting a sentence, 'Philosophy of ...')."""
    pattern = re.compile(rf"^\s*(?:#+\s*|\*\*)?{heading}\b(?!\s+[a-z])")
    return any(pattern.match(html.unescape(_TAGS.sub(" ", line))) for line in lines)


def _section_lines(parsed: Parsed, text: str) -> dict[str, list[str]]:
    """Each numbered section's source lines, from its first line to the next section's."""
    lines = text.split("\n")
    sections = sorted((r for r in parsed.records if r.kind == "section" and r.line), key=lambda r: r.line)
    return {r.number or r.id: lines[r.line - 1: (sections[k + 1].line - 1) if k + 1 < len(sections) else len(lines)]
            for k, r in enumerate(sections)}


def lost_headings(files: list) -> list[str]:
    """Each section's headings compared across every release of its document: a heading that the
    releases before and after a release print in a section, missing from that release's record,
    must be missing from its source too; else the parse lost it."""
    problems = []
    for document in {f[1] for f in files}:
        mine = sorted((f for f in files if f[1] == document), key=lambda f: f[4].printed or date.min)
        heads = [{r.number: {p for p in _PARTS if p in r.text.split("\n")} for r in f[3].records
                  if r.kind == "section" and r.number} for f in mine]
        for k in range(1, len(mine) - 1):
            name, _, text, parsed, _ = mine[k]
            region = None
            for number, have in heads[k].items():
                expected = heads[k - 1].get(number, set()) & heads[k + 1].get(number, set())
                for part in sorted(expected - have):
                    region = region if region is not None else _section_lines(parsed, text)
                    if _prints_heading(region.get(number, []), part):
                        problems.append(f"{name}: {document} {number} prints '{part}', its record lacks it")
    return sorted(problems)


def test_no_release_loses_a_heading_its_neighbours_print(files):
    assert lost_headings(files) == []


def test_the_heading_check_fails_when_a_heading_is_lost(files):
    at = next(k for k, f in enumerate(files) if f[0].endswith("56e76db6-ipg.html"))
    name, doc, text, parsed, got = files[at]
    records = [replace(r, text=r.text.replace("\n\nPhilosophy\n\n", "\n\n")) if r.number == "3.4" else r
               for r in parsed.records]
    broken = list(files)
    broken[at] = (name, doc, text, Parsed(records, parsed.warnings, meta=parsed.meta), got)
    assert lost_headings(broken) == [f"{name}: ipg 3.4 prints 'Philosophy', its record lacks it"]


def test_the_april_2024_ipg_keeps_its_philosophy_headings_and_example_letters(files):
    april = next(f[3] for f in files if f[0].endswith("56e76db6-ipg.html"))
    september = next(f[3] for f in files if f[0].endswith("50b29579-ipg.html"))
    for number in ("3.4", "3.9"):
        lines = next(r for r in april.records if r.number == number).text.split("\n")
        assert "Philosophy" in lines, number
    cheating = next(r for r in april.records if r.number == "4.8").text.split("\n")
    assert [line[:2] for line in cheating if re.match(r"^[A-G]\. ", line)] == ["A.", "B.", "C.", "D.", "E.", "F.", "G."]
    for number in ("3.4", "3.9", "4.8"):  # the same words as the next release's
        a, b = (next(r for r in p.records if r.number == number).text for p in (april, september))
        assert a == b, number
    examples = [line[:2] for line in next(r for r in april.records if r.number == "3.4").text.split("\n")
                if re.match(r"^[A-Z]\. ", line)]
    assert examples == ["A.", "B.", "C.", "D.", "E."]


def test_example_letters_run_without_a_gap_in_every_release(files):
    gaps = []
    for name, _, _, parsed, _ in files:
        for record in parsed.records:
            letters = [line[0] for line in record.text.split("\n") if re.match(r"^[A-Z]\. [A-Z]", line)]
            if letters and letters[0] == "A" and any(ord(b) - ord(a) > 1 for a, b in zip(letters, letters[1:], strict=False)):
                gaps.append(f"{name}: {record.id} {''.join(letters)}")
    assert gaps == []


def test_no_small_capitals_title_is_broken_in_any_record(files):
    """A small-capitals word loses no letter ('APPLYING ENALTIES', 'UNSPORTING ONDUCT'): no
    all-capitals word that no record writes in lower case while one writes it with a letter before."""
    lower: set[str] = set()
    capitals: dict[str, str] = {}
    for name, _, _, parsed, _ in files:
        for record in parsed.records:
            for text in (record.title or "", record.text):
                lower.update(re.findall(r"\b[a-z]{3,}\b", text))
                for word in re.findall(r"\b[A-Z]{4,}\b", text):
                    capitals.setdefault(word, f"{name}: {record.id}")
    broken = {w: where for w, where in capitals.items()
              if w.lower() not in lower and any(c + w.lower() in lower for c in "abcdefghijklmnopqrstuvwxyz")}
    assert broken == {}
    titles = {r.title for f in files if f[1] == "ipg" for r in f[3].records}
    assert {"APPLYING PENALTIES", "UNSPORTING CONDUCT"} <= titles
    assert not {"APPLYING ENALTIES", "UNSPORTING ONDUCT"} & titles


def test_page_numbers_inside_older_texts_are_set_aside_and_the_sentence_joined(files):
    by_name = {f[0].rsplit("/", 1)[-1]: f[3] for f in files}
    missed = next(r for r in by_name["27925944-ipg.html"].records if r.number == "2.1")
    assert "in the appropriate zone or zones when the ability should have triggered." in missed.text
    marked = next(r for r in by_name["f0e3de2f-ipg.html"].records if r.number == "3.8")
    assert "judges should keep this in mind when determining penalties. In cases of marked" in marked.text
    mtr = next(r for r in by_name["2db3c30c-mtr.html"].records if r.number == "7.3")
    assert "Sealed Deck tournaments and 3\n\nboosters per player" in mtr.text  # the document's own number stays
    stray = [f"{name}: {r.id}: {para[-40:]!r}" for name, parsed in by_name.items() for r in parsed.records
             if r.kind == "section" for para in r.text.split("\n")
             if re.search(r"[a-z][,.:;)] \d{1,3}$", para)]
    assert stray == []


def test_a_list_in_two_columns_is_read_column_by_column(files):
    modern = next(r for f in files if f[0].endswith("5b908bf9-mtr.html") for r in f[3].records if r.number == "6.4")
    items = [p for p in modern.text.split("\n\n") if p.startswith("\u2022 ")]
    assert items[:3] == ["\u2022 Eighth Edition", "\u2022 Mirrodin", "\u2022 Darksteel"]
    assert "\u2022 Innistrad: Midnight Hunt" in items  # an item the column wrapped, whole
    rows = [f"{name}: {r.id}" for name, doc, _, parsed, _ in files if doc == "mtr" for r in parsed.records
            for p in r.text.split("\n\n") if re.search(r"\u2022\s*\w.*\u2022\s*\w", p)
            and r.number in ("6.4", "6.5", "6.6", "6.7")]  # two items on one line (an empty bullet is the PDF's)
    assert rows == []


def test_the_changes_appendix_is_one_section_across_releases(timelines):
    appendix = [r for r in timelines["mtr"].records if r.number == "Appendix A" and r.span[0] >= "2018"]
    assert len(appendix) >= 12 and len({r.lineage for r in appendix}) == 1


if __name__ == "__main__" and "--write" in sys.argv:
    rows = []
    for member in members(ARCHIVE):
        text = decode(member.data, member.name).text
        got = read_file(text, member.name, member.document, {"edition": "dated", "lang": "en"}, member.document)
        rows.append("\t".join(count_row(member.name, member.document, as_parsed(got), got)))
    COUNTS.write_text("\t".join(HEADER) + "\n" + "\n".join(rows) + "\n", encoding="utf-8")


def test_an_mtr_of_9500_short_sections_reads_every_one_with_its_own_id():
    """a 320 KB HTML MTR of 9,500 short sections took 73 s to add: sections.split made a
    set of the headings' positions per unit, sections.records a set of the ids so far per heading
    (quadratic; `python scripts/hostile.py --parse` times it: 2.8 s to read now). Every section is
    read, each with its own id."""
    body = "\n".join(f"<h3>{n // 99 + 1}.{n % 99 + 1} S{n}</h3><p>x {n}</p>" for n in range(9_500))
    text = ("<html><body><h1>Magic: The Gathering Tournament Rules</h1>\n<p>Effective February 27, 2026</p>\n"
            f"{body}\n</body></html>\n")
    got = read_file(text, "mtr.html", "mtr", {"edition": "dated", "lang": "en"})
    sections = [r for r in got.records if r.kind == "section"]
    assert len(sections) == 9_500 and len({r.id for r in sections}) == 9_500
    assert (sections[-1].id, sections[-1].text) == ("mtr:96.95", "x 9499")


def test_a_list_copied_row_by_row_is_the_list_read_column_by_column():
    """A copy of the PDF's text reads the two-column lists row by row, a wrapped item split
    across rows and the next heading glued to the last row: the same lists, the same version.
    A card moved from one list to the next is a change."""
    from rulebase.ingest.tournament.timeline import _as_compared

    columns = ("Sets:\n\n\u2022 Mirrodin\n\n\u2022 Darksteel\n\n\u2022 Avatar: The Last Airbender\n\n"
               "\u2022 Kaladesh\n\nBanned:\n\n\u2022 Ponder\n\nRestricted:\n\n\u2022 Brainstorm")
    rows = ("Sets:\n\n\u2022 Mirrodin \u2022 Avatar: The Last\n\n\u2022 Darksteel Airbender \u2022 Kaladesh "
            "Banned:\n\n\u2022 Ponder Restricted:\n\n\u2022 Brainstorm")
    moved = columns.replace("Ponder\n\nRestricted:\n\n\u2022 Brainstorm", "Brainstorm\n\nRestricted:\n\n\u2022 Ponder")
    assert _as_compared(columns) == _as_compared(rows)
    assert _as_compared(moved) != _as_compared(columns)
    assert _as_compared("A player may draw.") != _as_compared("A draw player may.")  # (no list: as written)
