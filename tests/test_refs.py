import pytest

from rulebase.ingest.refs import find_rule_refs


@pytest.mark.parametrize("text, expected", [
    ("see Rule 306.5.", [("rule", "306.5", "Rule 306.5")]),
    ("(see rule 401.3)", [("rule", "401.3", "rule 401.3")]),
    ("See rule 212.4k", [("rule", "212.4k", "rule 212.4k")]),
    ('Also see Rule 502.82, "Devour."', [("rule", "502.82", "Rule 502.82")]),
    ("rules 601.2g-h", [("rule", "601.2g-h", "rules 601.2g-h")]),
    ("rules 702.21j\u2013k", [("rule", "702.21j-k", "rules 702.21j\u2013k")]),
    ("see rule 509", [("rule", "509", "rule 509")]),
    ("see section 4", [("section", "4", "section 4")]),
    ("see Damage Prevention, Rule G.12", [("rule", "G.12", "Rule G.12")]),
    ("(see Rule T.10)", [("rule", "T.10", "Rule T.10")]),
    ("rules 602.1 and 602.2", [("rule", "602.1", "rules 602.1 and 602.2"), ("rule", "602.2", "rules 602.1 and 602.2")]),
    ("no reference here, 20 life", []),
])
def test_reference_forms(text, expected):
    assert [(r.kind, r.key, r.label) for r in find_rule_refs(text)] == expected
