import json

from rulebase.core.records import (
    Citation,
    Link,
    Record,
    Ref,
    fold_accents,
    fold_space,
    from_dict,
    number_key,
    slugify,
    to_dict,
)

EXPORT_FIELDS = ["id", "source", "edition", "lang", "kind", "number", "title", "text", "pages", "section",
                 "parent", "refs", "citations", "flags"]


def make(**kw) -> Record:
    base = dict(id="cr2008:502.83a", source="cr2008", edition="10e", lang="en", kind="rule",
                text="Exalted is a triggered ability.", raw="502.83a Exalted is a triggered ability.")
    base.update(kw)
    return Record(**base)


def test_to_dict_starts_with_the_documented_fields_in_order():
    data = to_dict(make())
    assert list(data)[: len(EXPORT_FIELDS)] == EXPORT_FIELDS


def test_round_trip_through_json_keeps_nested_types():
    record = make(refs=[Ref("rule 702.1", "rule", "702.1", "cr2008:702.1")],
                  citations=[Citation("[CompRules 2008/10/01]", "CompRules", "2008-10-01")],
                  links=[Link("same-rule", "ck2008:502.83a")], pages=["11"], flags=["x"])
    back = from_dict(json.loads(json.dumps(to_dict(record))))
    assert back == record
    assert isinstance(back.refs[0], Ref) and isinstance(back.citations[0], Citation)


def test_number_key_sorts_numerically_not_alphabetically():
    numbers = ["701.10", "701.9", "701.1", "502.83b", "502.83a", "502.83.Ruling.2", "502.83.Ruling.10", "G5.19"]
    assert sorted(numbers, key=number_key) == [
        "502.83a", "502.83b", "502.83.Ruling.2", "502.83.Ruling.10", "701.1", "701.9", "701.10", "G5.19"]


def test_slugify_folds_accents_and_never_returns_empty_or_a_path():
    assert slugify("Sebzések kiosztása") == "sebzesek-kiosztasa"
    assert slugify("../x") == "x"
    assert slugify("!!!") == "x"


def test_fold_space():
    assert fold_space(" a\n\n b\tc ") == "a b c"


def test_fold_accents():
    assert fold_accents("Sebzések kiosztása") == "sebzesek kiosztasa"
    assert fold_accents("Győzelem és Vereség") == "gyozelem es vereseg"
    assert fold_accents("ŐRÜLT ÜTŐ ű") == "orult uto u"
    assert fold_accents("library") == "library"


def test_typography_folds_quotes_dashes_markup_and_spacing_only():
    from rulebase.core.records import fold_typography

    assert fold_typography("That\u2019s \u201cExile\u201d \u2014 see 510.1c\u2013d,\n  _Example_") == (
        "that's \"exile\" - see 510.1c-d, example")
    assert fold_typography("A creature's +1/+1\u00a0counter") == "a creature's +1/+1 counter"  # nbsp is space
    assert fold_typography("\u00e9let \u2212 \u2018\u2019") == "\u00e9let \u2212 ''"  # only its seven characters


def test_typography_folding_matches_a_table_on_real_rules_text():
    """The str.replace chain gives what str.translate with the same table gave, line by line of
    the 2025 release (curly quotes, dashes) and the corpus's 2008 one (straight quotes)."""
    from pathlib import Path

    from rulebase.core.records import fold_typography
    from rulebase.core.sources import load_manifest
    from rulebase.ingest.text import decode

    table = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\u2014": "-",
                           "\u2013": "-", "_": None})
    paths = [Path(__file__).parent / "fixtures" / "comprules-2025-11-14.txt",
             next(s for s in load_manifest() if s.id == "cr2008").path]
    lines = [line for path in paths for line in decode(path.read_bytes(), str(path)).text.splitlines()]
    assert sum("\u2019" in line for line in lines) > 1000
    for line in lines:
        assert fold_typography(line) == fold_space(line.translate(table)).lower()


def test_exported_is_to_dict_of_the_stored_form_for_every_record(library):
    """`export` writes records.exported of each stored form: the same JSON as to_dict of the
    record read back, for every record of the real corpus (cards, versions, glossary, sections)."""
    from rulebase.core.records import exported, stored_form

    seen = 0
    for data in library.store.stored_forms():
        assert json.dumps(exported(data), ensure_ascii=False) == json.dumps(to_dict(from_dict(data)), ensure_ascii=False)
        seen += 1
    assert seen == library.status(checksums=False).generation.meta["records"] > 90_000
    bare = stored_form(make(order=0, changed=False, line=None, card=None))
    assert exported(bare) == to_dict(make()) and "card" not in exported(bare)
