from pathlib import Path

import pytest

from rulebase.core.eras import edition_for_date
from rulebase.core.errors import UsageError
from rulebase.ingest.detect import detect
from rulebase.ingest.text import read_source

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = Path(__file__).parent.parent / "corpus"


def _detect(path: Path):
    return detect(read_source(path).text, str(path))


def test_comprules_2025_date_and_year_label():
    found = _detect(FIXTURES / "comprules-2025-11-14.txt")
    assert (found.format, found.date, found.edition, found.lang) == ("comprules", "2025-11-14", "cr2025", "en")
    assert found.title == "Magic: The Gathering Comprehensive Rules (2025-11-14)"
    assert found.evidence[0] == "'effective as of November 14, 2025'"
    assert found.edition_note == "inferred: rules in force in 2025 (no edition label for that era)"


def test_comprules_2008_is_tenth_edition():
    found = _detect(CORPUS / "comprules-2008-10-01.txt")
    assert (found.format, found.date, found.edition) == ("comprules", "2008-10-01", "10e")
    assert found.edition_note == "inferred: effective 2008-10-01, within the 10e rules era"


def test_crystalkeep_2008_reads_updated_date_and_stated_edition():
    found = _detect(FIXTURES / "ck-2008-mini.txt")
    assert (found.format, found.date, found.edition) == ("crystalkeep-2008", "2008-10-20", "10e")
    assert found.title == "Crystal Keep General Rulings Summary (CHANGES ONLY)"
    assert found.edition_note == "stated: 'rules used by TENTH EDITION'"


def test_crystalkeep_1999_previous_version_date_is_not_its_date():
    found = _detect(FIXTURES / "ck-1999-mini.txt")
    assert (found.format, found.date, found.edition) == ("crystalkeep-1999", "undated", "5e")


def test_forum_rulebook_and_hungarian_guide():
    book = _detect(FIXTURES / "forum-thread.txt")
    assert (book.format, book.edition, book.part, book.date) == ("forum-rulebook", "4e", "4e", "1995")
    guide = _detect(CORPUS / "003_0262e3a98fc56fa1.txt")
    assert (guide.format, guide.lang, guide.edition) == ("hu-guide", "hu", None)


def test_unrecognised_text_names_the_formats():
    with pytest.raises(UsageError) as err:
        detect("just some words\nand more words\n", "notes.txt")
    assert err.value.message == ("notes.txt: cannot tell what kind of rules document this is - pass --format "
                                 "comprules, crystalkeep-2008, crystalkeep-1999, forum-rulebook, hu-guide or tournament")


@pytest.mark.parametrize(("date", "label"), [
    ("1995-06", "4e"), ("1997-04-01", "5e"), ("1999-04", "5e"), ("1999-04-22", "5e"), ("1999-04-23", "6e"), ("1999-04-28", "6e"), ("2000", "6e"),
    ("2004-10-01", "cr2004"), ("2007-07-13", "10e"), ("2009-07-10", "10e"), ("2009-07-11", "cr2009"),
    ("2025-11-14", "cr2025"), ("1994-01-01", "alpha"), ("1993-01-01", "cr1993"),
])
def test_edition_for_date(date, label):
    assert edition_for_date(date)[0] == label


def test_undated_text_has_no_edition():
    with pytest.raises(UsageError, match="cannot tell the edition from the date 'undated'"):
        edition_for_date("undated")


@pytest.mark.parametrize("when", ["February 30, 2025", "Smarch 5, 2025", "November 0, 2025", "Feb 5, 2025"])
def test_an_impossible_comprules_date_names_the_file_and_line(when):
    """Issue 21.4: 'effective as of February 30, 2025' crashed with a ValueError (exit 3)."""
    text = (FIXTURES / "comprules-2025-11-14.txt").read_text(encoding="utf-8-sig").replace("November 14, 2025", when)
    with pytest.raises(UsageError) as caught:
        detect(text.replace("\r\n", "\n"), "doc.txt")
    assert caught.value.message == (f"doc.txt line 3: 'effective as of {when}' is not a real date - "
                                    "correct the date in a copy of the file and add that copy")


def test_a_five_digit_year_is_not_read_as_its_first_four():
    """'effective as of November 14, 20255' was added as a release of 2025-11-14."""
    text = (FIXTURES / "comprules-2025-11-14.txt").read_text(encoding="utf-8-sig").replace("November 14, 2025",
                                                                                            "November 14, 20255")
    found = detect(text.replace("\r\n", "\n"), "doc.txt")
    assert (found.date, found.edition) == ("undated", None)  # `add` then asks for --edition (exit 2)


@pytest.mark.parametrize(("stamp", "shown"), [("Updated 2008/02/30", "Updated 2008/02/30"),
                                              ("Updated 2008/13/01", "Updated 2008/13/01")])
def test_an_impossible_crystal_keep_date_names_the_file_and_line(stamp, shown):
    text = (FIXTURES / "ck-2008-mini.txt").read_text(encoding="utf-8").replace("Updated 2008/10/20", stamp)
    with pytest.raises(UsageError, match=rf"^ck\.txt line 1: '{shown}' is not a real date - "):
        detect(text, "ck.txt")


@pytest.mark.parametrize("when", ["March 3, 1066", "August 4, 1993", "January 1, 2100", "December 31, 9999"])
def test_a_real_date_outside_the_dates_rulebase_knows_names_the_file_and_line(when):
    """Issue 35.4: a release dated 1066, 2100 or 9999 was stored (given --edition), then every
    build failed on its date and every read with it."""
    text = (FIXTURES / "comprules-2025-11-14.txt").read_text(encoding="utf-8-sig").replace("November 14, 2025", when)
    with pytest.raises(UsageError) as err:
        detect(text, "doc.txt")
    assert str(err.value) == (f"doc.txt line 3: 'effective as of {when}' is outside the dates rulebase knows "
                              "(1993-08-05, Magic's first rules, to 2099-12-31) - correct the date in a copy of the "
                              "file and add that copy")


@pytest.mark.parametrize(("when", "label"), [("August 5, 1993", "alpha"), ("December 31, 2099", "cr2099")])
def test_the_first_and_last_days_rulebase_knows_are_accepted(when, label):
    text = (FIXTURES / "comprules-2025-11-14.txt").read_text(encoding="utf-8-sig").replace("November 14, 2025", when)
    assert detect(text, "doc.txt").edition == label


def test_add_of_a_file_with_an_impossible_date_is_a_usage_error(tmp_path):
    import os
    import subprocess
    import sys

    doc = tmp_path / "doc.txt"
    doc.write_bytes((FIXTURES / "comprules-2025-11-14.txt").read_bytes().replace(b"November 14, 2025",
                                                                                 b"February 30, 2025"))
    env = {**os.environ, "RULEBASE_USER_CORPUS": str(tmp_path / "user"), "NO_COLOR": "1"}
    run = subprocess.run([sys.executable, "-m", "rulebase", "--index", str(tmp_path / "index"), "add", str(doc)],
                         env=env, capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (f"error: {doc} line 3: 'effective as of February 30, 2025' is not a real date - "
                          "correct the date in a copy of the file and add that copy\n")
    assert not (tmp_path / "user").exists()


def test_a_format_given_for_a_text_detection_did_not_recognise_reads_its_date():
    """`rulebase add --format comprules` of a Comprehensive Rules text too short for detection
    (fewer than 20 numbered rules) read its date without the file name: a TypeError, exit 3."""
    from rulebase.ingest.detect import detect_as

    text = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, 2026.\n\n"
            "100. General\n\n100.1. These Magic rules apply to any Magic game with two or more players.\n")
    with pytest.raises(UsageError, match="cannot tell what kind"):
        detect(text, "short.txt")
    found = detect_as(text, "short.txt", "comprules")
    assert (found.format, found.date, found.edition) == ("comprules", "2026-04-17", "cr2026")
    assert found.evidence[:2] == ["format given: comprules", "'effective as of April 17, 2026'"]


def test_add_of_a_release_whose_line_breaks_were_lost_says_so(tmp_path):
    """The 2023-09-01 release ends its lines with bare CRs; a copy saved by a tool that dropped them
    is 13 lines with the rules run into each other. It is a Comprehensive Rules text (detected as
    one, dated 2023-09-01) whose rules cannot be placed: one line saying why, exit 2, nothing added."""
    import os
    import subprocess
    import sys
    import tarfile

    with tarfile.open(CORPUS / "comprules-extra-2023-2026.tar.xz", "r:xz") as tar:
        raw = tar.extractfile("HeliumOctahelide-magic-comp-rules-zh-cn/plain_text/20230901_En.txt").read()
    doc = tmp_path / "rules.txt"
    doc.write_bytes(raw.replace(b"\r", b""))
    found = _detect(doc)
    assert (found.format, found.date) == ("comprules", "2023-09-01")
    env = {**os.environ, "RULEBASE_USER_CORPUS": str(tmp_path / "user"), "NO_COLOR": "1"}
    run = subprocess.run([sys.executable, "-m", "rulebase", "--index", str(tmp_path / "index"), "add", str(doc)],
                         env=env, capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        f"error: {doc}: no numbered rule starts a line: the text is 13 line(s), the longest 287,255 characters, its "
        "rules run into each other (' Concepts100. General100.1. These Magic rules appl'): its line breaks were "
        "lost - take a copy with its line breaks (LF, CRLF or CR) and read that\n")
    assert not (tmp_path / "user").exists()


def test_format_comprules_given_for_a_text_detection_does_not_recognise():
    """Issue 35.6: `add --format comprules` of a text that is not recognised as one (a greeting, or
    a release with fewer than 20 numbered rules in its first 400 kB) crashed (TypeError, exit 3)."""
    from rulebase.ingest.detect import detect_as

    found = detect_as("hello world\n", "h.txt", "comprules")
    assert (found.format, found.date, found.edition) == ("comprules", "undated", None)
    padded = "Comprehensive Rules\n\nThese rules are effective as of May 2, 2025.\n\n" + "x\n" * 250_000 + (
        "100.1. A rule.\n" * 30)
    found = detect_as(padded, "late.txt", "comprules")
    assert (found.format, found.date, found.edition) == ("comprules", "2025-05-02", "cr2025")
    assert found.evidence[0] == "format given: comprules"


@pytest.mark.parametrize("member, document, date", [
    ("AEFeinstein-mtg-familiar/MTR/fad8917d-mtr.html", "mtr", "2025-11-10"),  # HTML from the PDF: small capitals
])
def test_a_tournament_release_converted_from_its_pdf_is_recognised_without_format(member, document, date):
    """The PDF's small capitals come out as 'T OURNAMENT R ULES': `add` asked for --format."""
    import tarfile

    with tarfile.open(CORPUS / "tournament-rules-2013-2025.tar.xz", "r:xz") as tar:
        text = tar.extractfile(member).read().decode("utf-8")
    found = detect(text, "mtr.html")
    assert (found.format, found.part, found.date) == ("tournament", document, date)


@pytest.mark.parametrize("when, iso", [("January 1, 1990", "1990-01-01"), ("January 1, 2100", "2100-01-01")])
def test_a_tournament_document_dated_outside_the_known_dates_is_refused(when, iso):
    """the date bounds were not applied to tournament documents: an MTR of 1990 joined
    the timeline (answering --as-of 2000), an IPG of 2100 asked for --edition."""
    text = (FIXTURES / "tournament-mtr-next.txt").read_text(encoding="utf-8").replace("February 27, 2026", when)
    with pytest.raises(UsageError, match=rf"mtr.txt: the MTR's date {iso} \(.*\) is outside the dates rulebase "
                                         r"knows \(1993-08-05, Magic's first rules, to 2099-12-31\)"):
        detect(text, "mtr.txt")
