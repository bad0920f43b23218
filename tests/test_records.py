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
