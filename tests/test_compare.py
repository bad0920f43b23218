"""Curated topics checked against the real corpus, uncurated search per edition, and rendering."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console

from rulebase.cli.render_changes import render_compare
from rulebase.core.eras import OPEN_END, edition_for_date, labels_between, next_day, show, today
from rulebase.core.errors import ManifestError, UsageError
from rulebase.core.records import fold_space
from rulebase.core.sources import default_corpus_dir
from rulebase.rules.compare import (
    EDITIONS,
    NOT_COVERED,
    TOPICS_FILE,
    compare,
    comparison_json,
    find_topic,
    hungarian_query,
    load_topics,
    parse_editions,
)
from rulebase.rules.history import classify
from rulebase.rules.periods import SAME_RULE, is_era, topic_columns

REQUIRED = {
    "damage timing", "mana burn", "first player's first draw", "deck size and copies", "turn structure",
    "summoning sickness", "mulligans", "ante", "legends", "winning and losing", "hand size and discard",
    "interrupts and the stack", "trample", "banding", "regeneration", "who plays first", "walls",
}
# The topics the 1993 Alpha rulebook covers (issue 19): each has an alpha column quoting it.
ALPHA = {
    "damage timing", "mana burn", "deck size and copies", "ante", "walls", "trample", "banding", "regeneration",
    "interrupts and the stack", "who plays first", "winning and losing",
}


@pytest.fixture(scope="module")
def topics():
    return load_topics(Path(default_corpus_dir()) / TOPICS_FILE)


def test_required_topics_are_curated(topics):
    assert {t.name for t in topics} >= REQUIRED


def _periods(library, topic) -> dict:
    """Each curated column's days in force (several stretches' when its text came back: the first)."""
    out = {}
    for column in topic_columns(library.store, topic):
        if column.curated is not None:
            out.setdefault(column.curated, column.period)
    return out


def test_every_citation_exists_in_its_edition_and_quotes_verbatim(topics, library):
    """An edition column quotes that edition's documents; a Comprehensive Rules era column quotes
    archive versions in force during the column's period (read from the archive)."""
    checked = 0
    for topic in topics:
        periods = _periods(library, topic)
        for edition, (_summary, quotes) in topic.editions.items():
            for quote in quotes:
                record = library.store.get(quote.id)
                assert record is not None, (topic.name, quote.id)
                if is_era(edition):
                    first, last = library.store.windows([quote.id])[quote.id]
                    period = periods[edition]
                    assert record.source == "cr" and first <= period.last and last >= period.first, \
                        (topic.name, edition, quote.id)
                else:
                    assert record.edition == edition, (topic.name, quote.id, record.edition)
                assert fold_space(quote.quote) in fold_space(record.text), (topic.name, quote.id, quote.quote)
                checked += 1
    assert checked >= 150


@pytest.mark.parametrize("name", [t.name for t in load_topics(Path(default_corpus_dir()) / TOPICS_FILE)])
def test_the_columns_cover_every_day_from_the_first_text_to_now_without_overlap(topics, library, name):
    """Every era the topic's text was in force has a column, the Comprehensive Rules releases of
    1999-2026 included (`compare "mana burn"` jumped from 6th Edition's 1999 text to 10th's, and
    10th Edition's column carried the edition's dates, not its text's); each curated column is
    shown, and each column quotes only texts in force in it."""
    topic = find_topic(topics, name)
    columns = topic_columns(library.store, topic)
    assert {c.curated for c in columns} >= set(topic.editions), name  # every curated column has days
    for before, after in zip(columns, columns[1:], strict=False):
        assert next_day(before.period.last) == after.period.first, (name, before.label, after.label)
    assert columns[0].period.first == min(c.period.first for c in columns)
    assert columns[-1].period.last == OPEN_END and columns[-1].period.first <= today(), name
    assert len({c.label for c in columns}) == len(columns), name
    spans = library.store.windows([rid for c in columns for rid in c.versions])
    for column in columns:
        if column.curated is None:  # read from the archive: the versions in force on its first day
            assert column.versions or column.removed, (name, column.label)
            for rid in column.versions:
                first, last = spans[rid]
                assert first <= column.period.first <= last, (name, column.label, rid)
        if column.label not in (*EDITIONS, "alpha"):  # labelled by the era its first day falls in
            era = edition_for_date(show(column.period.first))[0]
            assert column.label in (era, f"cr{show(column.period.first)}"), (name, column.label)


def test_every_topic_has_comprehensive_rules_eras_up_to_today(topics, library):
    """The newest column is in force now and quotes a text in force now."""
    store = library.store
    for topic in topics:
        newest = topic_columns(store, topic)[-1]
        assert newest.period.now, topic.name
        ids = [q.id for q in topic.editions[newest.curated].citations] if newest.curated else list(newest.versions)
        spans = store.windows(ids)
        assert any(last == OPEN_END for _, last in spans.values()), (topic.name, "quotes no text in force now")


def test_a_since_version_is_a_change_and_summary_dates_come_from_the_data(topics, library):
    """`since` names a version whose text changed on that day (not a mere retyping), and any date a
    column's summary gives is its period's first day or a day a cited version took effect."""
    store = library.store
    for topic in topics:
        periods = _periods(library, topic)
        for ed, column in topic.editions.items():
            if column.since:
                record = store.get(column.since)
                versions = [v for v in store.lineage(record.lineage) if v.span]
                at = [v.id for v in versions].index(record.id)
                assert at == 0 or classify(versions[at - 1], record) not in SAME_RULE, (topic.name, column.since)
            if is_era(ed):
                days = {show(periods[ed].first)} | {show(first) for first, _ in
                                                    store.windows([q.id for q in column.citations]).values()}
                for said in re.findall(r"\d{4}-\d\d-\d\d", column.summary):
                    assert said in days, (topic.name, ed, said)


@pytest.mark.parametrize("topic, day, column, says", [
    ("mana burn", "2005-06-01", "cr2003", "Note that mana burn is loss of life, not damage"),
    ("mana burn", "2002-06-01", "cr1999-11-01", "Note that mana burn is loss of life, not damage"),
    ("legends", "2005-06-01", "cr2004", "the supertype legendary, all are put into their owners' graveyards"),
    ("legends", "2002-06-01", "cr2001", "all except the one that has been a Legend or legendary permanent"),
])
def test_as_of_ends_with_the_text_in_force_that_day(library, topic, day, column, says):
    """`compare "mana burn" --as-of 2005` ended at 6th Edition's 1999 text; `compare legends
    --as-of 2005` quoted the 1999 rule, not 2004's 'all are put into their owners' graveyards'."""
    from rulebase.core.eras import day as day_of

    when = day_of(day)
    result = compare(library, topic, when=when)
    last = result.editions[-1]
    assert last.edition == column and last.period.first <= when <= last.period.last
    assert any(says in q.quote for q in last.citations), [q.quote for q in last.citations]
    record = library.store.get(next(q.id for q in last.citations if says in q.quote))
    first, end = library.store.windows([record.id])[record.id]
    assert record.source == "cr" and first <= when <= end  # the archive's own text of that day


def test_editions_keep_their_labels_with_their_texts_days(library):
    data = comparison_json(compare(library, "damage timing"))["editions"]
    assert data["10e"]["in_force"]["first"] != "2007-07-13"  # (the text's days, not the edition's)
    assert data["cr2001"]["in_force"] == {"first": "2001-09-24", "last": "2003-06-30"}
    labels = list(data)
    assert labels.index("cr2001") < labels.index("10e") < labels.index("cr2009")


def test_mana_burn_is_gone_from_2009_07_11_by_the_archive(library):
    result = compare(library, "mana burn")
    column = next(s for s in result.editions if s.edition == "cr2009")
    assert (show(column.period.first), column.period.now) == ("2009-07-11", True)
    [gone] = column.removed
    assert (gone.id, gone.number, gone.last_release, show(gone.gone)) == (
        "cr:300.3@2008-07-15", "300.3", "2009-05-01", "2009-07-11")
    assert column.citations[0].id == "cr:glossary.mana-burn@2019-05-03"
    assert "That rule no longer exists." in column.citations[0].quote


def test_an_era_asked_for_shows_the_curated_column_in_force_then(library):
    data = comparison_json(compare(library, "mana burn", "4e,cr2026"))
    assert list(data["editions"]) == ["4e", "cr2026"]
    now = data["editions"]["cr2026"]
    assert now["column"] == "cr2009" and now["in_force"] == {"first": "2009-07-11", "last": "now"}
    assert [c["id"] for c in now["citations"]] == ["cr:glossary.mana-burn@2019-05-03"]  # no "Mana Symbol"
    assert now["removed"][0]["gone"] == "2009-07-11"
    legends = comparison_json(compare(library, "legends", "cr2015"))["editions"]["cr2015"]
    assert legends["column"] == "cr2013" and legends["in_force_now"] is True


def test_alpha_columns_quote_the_alpha_rulebook(topics, library):
    with_alpha = {t.name for t in topics if "alpha" in t.editions}
    assert with_alpha >= ALPHA
    assert "legends" not in with_alpha and "mulligans" not in with_alpha  # not in the 1993 book
    for topic in topics:
        for quote in topic.editions.get("alpha", ("", ()))[1]:
            assert quote.id.startswith("alpha:"), (topic.name, quote.id)
            assert library.store.get(quote.id).source == "alpha"
    result = compare(library, "mana burn", "alpha,4e")
    assert [s.edition for s in result.editions] == ["alpha", "4e"]
    alpha = result.editions[0]
    assert alpha.citations[0].pages == ("14",)
    assert "You lose a life point for each mana lost in this manner." in alpha.citations[0].quote


def test_uncovered_editions_say_so_and_why(topics):
    for topic in topics:
        for edition, (summary, quotes) in topic.editions.items():
            if not quotes:
                assert summary.startswith(NOT_COVERED + ": "), (topic.name, edition)
                assert "does not mention" in summary or "describes no" in summary, (topic.name, edition)
    uncovered = {(t.name, ed) for t in topics for ed, (_s, q) in t.editions.items() if not q}
    assert uncovered == set()  # (the 1999 Comprehensive Rules cover what the Hungarian guide does not)


def test_sixth_edition_columns_quote_the_1999_comprehensive_rules_in_english(topics, library):
    """The 6th Edition's rules in English are the archive's 1999 releases: every 6e column quotes
    them first, then the Hungarian guide where it says something ("compare 'damage timing'" quoted
    only the guide, in Hungarian)."""
    for topic in topics:
        quotes = topic.editions["6e"][1]
        records = [library.store.get(q.id) for q in quotes]
        assert records and records[0].source == "cr" and records[0].lang == "en", topic.name
        first, _ = library.store.windows([records[0].id])[records[0].id]
        assert show(first) == "1999-04-23", (topic.name, records[0].id)
        sources = [r.source for r in records]
        assert sources == sorted(sources, key=lambda s: s != "cr"), topic.name  # English first
    sixth = compare(library, "damage timing", "6e").editions[0]
    assert [q.id for q in sixth.citations][:3] == ["cr:310.2@1999-04-23", "cr:310.4@1999-04-23", "cr:314.1b@1999-04-23"]
    assert sixth.citations[0].quote.startswith("All announcements of combat damage go on the stack as a single entry.")


def test_damage_timing_covers_all_four_editions(topics):
    topic = find_topic(topics, "damage timing")
    ids = {ed: [q.id for q in quotes] for ed, (_s, quotes) in topic.editions.items()}
    # the archive's damage-on-the-stack, Magic 2010 and Foundations eras
    assert list(ids) == [*EDITIONS, "alpha", "cr2001", "cr2009", "cr2024"]
    assert ids["cr2001"] == ["cr:310.2@2001-09-24", "cr:310.3@2001-09-24", "cr:310.4@2001-09-24"]
    assert ids["cr2009"] == ["cr:510.2@2009-07-11", "cr:510.1c@2009-07-11"]
    assert ids["cr2024"] == ["cr:510.1c@2024-11-08", "cr:510.2@2019-05-03"]
    assert ids["4e"] == ["rb4e:resolving-fast-effects.4", "rb4e:creature-combat.7", "rb4e:glossary.damage-prevention",
                         "rb4e:more-on-the-turn-sequence.10"]
    assert ids["5e"] == ["ck1999:T.10.1", "ck1999:T.10.3", "ck1999:T.10.1", "ck1999:G.11.2"]
    assert ids["6e"] == ["cr:310.2@1999-04-23", "cr:310.4@1999-04-23", "cr:314.1b@1999-04-23",
                         "hu-guide:sebzesek-kiosztasa.3", "hu-guide:sebzesek-kiosztasa.4", "hu-guide:takaritas.1"]
    assert ids["10e"] == ["cr2008:310.1", "cr2008:310.1", "cr2008:310.4a", "cr2008:419.7a", "cr2008:314.2"]
    assert "damage is always resolved last" in topic.editions["4e"][1][0].quote


@pytest.mark.parametrize("text, name", [
    ("DAMAGE TIMING", "damage timing"), ("Sebzések Kiosztása", "damage timing"),
    ("sebzesek kiosztasa", "damage timing"), ("manaégés", "mana burn"), ("Legend-rule", "legends"),
    ("first player's first draw", "first player's first draw"), ("  who   goes first ", "who plays first"),
    ("várólista", "interrupts and the stack"), ("a pakli", "deck size and copies"),
])
def test_topic_matching_ignores_case_accents_and_punctuation(topics, text, name):
    assert find_topic(topics, text).name == name


def test_unknown_topic_is_not_curated(topics):
    assert find_topic(topics, "first strike") is None


def test_parse_editions():
    assert parse_editions(None) == ["4e", "5e", "6e", "10e"]
    assert parse_editions("10e, 4E") == ["4e", "10e"]
    with pytest.raises(UsageError, match="unknown edition '3e' - choose from 4e, 5e, 6e, 10e"):
        parse_editions("4e,3e")
    with pytest.raises(UsageError):
        parse_editions(",")


def test_compare_json_for_mana_burn(library):
    assert comparison_json(compare(library, "Mana Burn", "4e,10e")) == {
        "topic": "mana burn",
        "curated": True,
        "editions": {
            "4e": {
                "summary": "The mana pool empties at the end of each phase and at the beginning and end of an attack; "
                           "each unused mana deals 1 damage to its owner (mana burn, a colorless source of damage).",
                "citations": [{
                    "id": "rb4e:glossary.mana-pool",
                    "quote": "Your mana pool empties at the end of each phase and at the beginning and end of an "
                             "attack; if any unused mana remains in your mana pool when it empties, you take 1 "
                             "damage for each point of mana you didn't use. This kind of damage is called mana "
                             "burn. Mana burn is a colorless source of damage.",
                    "pages": ["60", "61"],
                }],
                "in_force": {"first": "1995-04-01", "last": "1997-03-23"},
                "in_force_now": False,
                "column": "4e",
                "removed": [],
            },
            "10e": {
                "summary": "When a phase (not a step) ends, unused mana is lost and its player loses 1 life per "
                           "mana; mana burn is loss of life, not damage, so it can't be prevented.",
                "citations": [{
                    "id": "cr2008:300.3",
                    "quote": "When a phase ends (but not a step), any unused mana left in a player's mana pool is "
                             "lost. That player loses 1 life for each one mana lost this way. This is called mana "
                             "burn. Mana burn is loss of life, not damage, so it can't be prevented or altered by "
                             "effects that affect damage.",
                    "pages": [],
                }],
                "in_force": {"first": "2005-08-01", "last": "2009-07-10"},  # (its text's days)
                "in_force_now": False,
                "column": "10e",
                "removed": [],
            },
        },
    }


def test_uncurated_topic_is_searched_per_edition(library):
    result = compare(library, "first strike")
    data = comparison_json(result)
    assert data["topic"] == "first strike" and data["curated"] is False
    # the rules in force now first, then each era newest to oldest
    assert list(data["editions"]) == ["cr2026", "10e", "6e", "5e", "4e", "alpha"]
    assert data["editions"]["cr2026"]["in_force"] == {"first": "2026-04-17", "last": "now"}
    assert data["editions"]["cr2026"]["in_force_now"] is True and data["editions"]["4e"]["in_force_now"] is False
    records = {}
    for edition, column in data["editions"].items():
        assert column["summary"] is None
        for cite in column["citations"]:
            record = records[cite["id"]] = library.store.get(cite["id"])
            # an archive version answers for every era it was in force in
            assert edition in (labels_between(*record.span) if record.span else [record.edition])
            assert cite["quote"] and "\x02" not in cite["quote"]
    assert "rb4e:creature-special-abilities.6" in [c["id"] for c in data["editions"]["4e"]["citations"]]
    assert all(c["id"].startswith("ck1999:") for c in data["editions"]["5e"]["citations"])
    assert any("first strike" in c["quote"].lower() for c in data["editions"]["10e"]["citations"])
    assert len(data["editions"]["4e"]["citations"]) == 3


def test_hungarian_guide_is_searched_with_the_term_map(library):
    terms = library.store.of_kind("term")
    assert hungarian_query("graveyard and library", terms) == "graveyard and library Temető Könyvtár"
    assert hungarian_query("first strike", terms) == "first strike"
    result = compare(library, "library", "6e")
    assert result.searched == {"6e": "library Könyvtár"}
    ids = [q.id for q in result.editions[0].citations]
    assert "hu-guide:glossary.konyvtar" in ids


def test_topics_file_errors(tmp_path: Path):
    bad = tmp_path / "topics.toml"
    bad.write_text("[[topic]\n", encoding="utf-8")
    with pytest.raises(ManifestError, match="not valid TOML"):
        load_topics(bad)
    bad.write_text('[[topic]]\nname = "x"\n[topic.editions.4e]\nsummary = "s"\n', encoding="utf-8")
    with pytest.raises(ManifestError, match="must give the editions 4e, 5e, 6e, 10e"):
        load_topics(bad)
    body = "".join(f'[topic.editions.{ed}]\nsummary = "s"\ncitations = []\n' for ed in EDITIONS)
    bad.write_text('[[topic]]\nname = "x"\n' + body, encoding="utf-8")
    with pytest.raises(ManifestError, match="no citations and not marked"):
        load_topics(bad)
    with pytest.raises(ManifestError, match="topics file not found"):
        load_topics(tmp_path / "missing.toml")


def _render(library, width: int, editions: str | None = None, terminal: bool = True) -> str:
    console = Console(width=width, force_terminal=terminal, record=True, color_system=None)
    if not terminal:
        console = Console(width=width, file=open("/dev/null", "w"), record=True)  # noqa: SIM115
    render_compare(console, compare(library, "damage timing", editions))
    return console.export_text()


def test_narrow_terminal_renders_one_panel_per_edition(library):
    out = _render(library, 60)
    assert out.splitlines()[0] == "damage timing: how the editions compare"
    for edition in EDITIONS:
        assert f"╭─ {edition} ─" in out
    assert max(len(line) for line in out.splitlines()) <= 60
    assert "rb4e:resolving-fast-effects.4 p46-47" in out
    assert "Miután a játékosok bejelentették" in out


def test_wide_terminal_renders_one_column_per_edition(library):
    out = _render(library, 600)  # (thirteen columns of 46)
    lines = out.splitlines()
    assert "damage timing: how the editions compare" in lines[0]
    header = next(line for line in lines if "4e" in line)
    assert header.split() == ["alpha", "4e", "5e", "6e", "cr2001", "cr2003", "cr2003-10-01", "10e", "cr2009-02-01",
                              "cr2009", "cr2011", "cr2016", "cr2024"]
    assert "in force 2024-11-08 to now" in out
    assert "╭" not in out
    assert "— rb4e:resolving-fast-effects.4 p46-47" in out and "— cr2008:310.4a" in out


def test_two_editions_fit_a_narrow_terminal_as_columns(library):
    out = _render(library, 60, "4e,10e")
    assert "╭" not in out
    assert next(line for line in out.splitlines() if "4e" in line).split() == ["4e", "10e"]


def test_plain_output_when_not_a_terminal(library):
    lines = _render(library, 80, "6e", terminal=False).splitlines()
    assert lines[:4] == [
        "damage timing: how the editions compare",
        "[6e]  in force 1999-04-23 to 2001-09-23",
        "  Combat damage is announced and goes on the stack as one entry; players may still play spells and "
        "abilities before it resolves, it is dealt as assigned even if its creature has left play, and damage is "
        "removed in the cleanup step. The Hungarian guide says the same.",
        '  "All announcements of combat damage go on the stack as a single entry. Then the active player receives '
        'priority to play spells and abilities."',
    ]
    assert lines[4] == "    - cr:310.2@1999-04-23"
    assert lines[9] == '  "Miután a játékosok bejelentették, hogyan kívánják a sebzést elosztani, a sebzés a várólistába kerül."'


def test_as_of_keeps_the_era_columns_in_force_by_then(library):
    from rulebase.core.eras import day

    before = compare(library, "damage timing", when=day("2024-06-30"))
    assert [s.edition for s in before.editions][-2:] == ["cr2011", "cr2016"]  # Foundations came in November
    after = compare(library, "damage timing", when=day("2024-12-31"))
    assert [s.edition for s in after.editions][-1] == "cr2024"
