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
                                 "comprules, crystalkeep-2008, crystalkeep-1999, forum-rulebook or hu-guide")


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
