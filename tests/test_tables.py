"""The glossary's and the MTR's tables an index keeps (index/tables.py): each answer as of the day
asked, the same as reading the records in force that day, and damage refused."""

from __future__ import annotations

import os

import pytest

from rulebase.core.eras import today
from rulebase.core.errors import DamagedData
from rulebase.core.records import Record
from rulebase.index.tables import PROGRAMS_TITLE, TABLES, Tables, compute_tables, programs, write_tables


def _record(rid: str, kind: str, title: str, text: str = "", source: str = "cr", lineage: str | None = None) -> Record:
    return Record(id=rid, source=source, edition="dated", lang="en", kind=kind, text=text, raw=text, title=title,
                  lineage=lineage, span=["2009-07-11", "2009-07-11"])


CHART = "Program Rules Enforcement Level Friday Night Magic Regular Pro Tour Professional"


def _tables(tmp_path) -> Tables:
    """Two glossary releases (the second on 2010-01-01) and two MTR releases of Appendix F."""
    records = [
        _record("g1", "glossary", "Mana Burn", "Loss of life.", lineage="burn"),
        _record("g2", "glossary", "Mana Burn (Obsolete)", "That rule no longer exists.", lineage="burn"),
        _record("g3", "glossary", "Interrupt (Obsolete)", "An obsolete term.", lineage="interrupt"),
        _record("g4", "glossary", "Battlefield", "The zone."),
        _record("m1", "section", "Rules Enforcement Levels of Programs", CHART, source="mtr"),
        _record("m2", "section", "Rules Enforcement Levels of Programs", CHART.replace("Regular", "Competitive"),
                source="mtr"),
    ]
    windows = {"g1": (20090101, 20091231), "g2": (20100101, 99991231), "g3": (20080101, 99991231),
               "g4": (20100101, 99991231), "m1": (20090101, 20091231), "m2": (20100101, 99991231)}
    documents = [(r, windows[r.id]) for r in records]
    analyse = lambda text: [w.lower().strip("()") for w in text.split()]  # noqa: E731
    write_tables(tmp_path / TABLES, compute_tables(records, windows, documents, analyse))
    return Tables(str(tmp_path / TABLES))


def test_each_table_answers_as_of_the_day_asked(tmp_path):
    tables = _tables(tmp_path)
    # an entry's lineage is obsolete since its first title saying so (Mana Burn: 2010, Interrupt: 2008)
    assert tables.obsolete_glossary(20100601) == [("Interrupt (Obsolete)", "An obsolete term.", 20080101),
                                                  ("Mana Burn (Obsolete)", "That rule no longer exists.", 20100101)]
    assert tables.obsolete_glossary(20090601) == [("Interrupt (Obsolete)", "An obsolete term.", 20080101)]
    assert tables.glossary_words(20090601) == {"mana", "burn"}
    assert tables.glossary_words(20100601) == {"battlefield"}  # (an obsolete title's words are no glossary word)
    assert tables.programs(20090601) == {"friday night magic": "Regular", "pro tour": "Professional"}
    assert tables.programs(20100601)["friday night magic"] == "Competitive"
    assert tables.programs(20000101) == {}


@pytest.mark.parametrize("damage", [lambda data: data[:-3] + b"999", lambda data: data[:10], lambda data: b""])
def test_a_damaged_or_missing_file_is_damage(tmp_path, damage):
    _tables(tmp_path)
    path = tmp_path / TABLES
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(DamagedData, match=TABLES):
        Tables(str(path))
    path.unlink()
    with pytest.raises(DamagedData, match=TABLES):
        Tables(str(path))


def test_the_real_tables_are_what_the_records_in_force_say(library):
    """The real index's tables beside the records in force today, read from the store."""
    tables = Tables(os.path.join(library.searcher.path, TABLES))
    day = today()
    glossary = library.store.of_kind("glossary", when=day)
    obsolete = sorted(r.title for r in glossary if "(obsolete)" in (r.title or "").lower())
    assert len(obsolete) > 20 and [title for title, _, _ in tables.obsolete_glossary(day)] == obsolete
    analyse = library.searcher.analyzers["text"]
    words = {t.text for r in glossary if "(obsolete)" not in (r.title or "").lower() for t in analyse(r.title or "")}
    assert tables.glossary_words(day) == words
    appendix = [r for r in library.store.titled("mtr", list(PROGRAMS_TITLE), day=day) if r.span]
    assert tables.programs(day) == programs(appendix[-1].text)
    assert tables.programs(day)["friday night magic"] == "Regular"
