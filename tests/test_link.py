from pathlib import Path

from rulebase.core.records import Citation, Record, Ref
from rulebase.core.sources import Source
from rulebase.ingest.link import fold_term, link


def src(id_, edition, fmt, date="2008-10-01", lang="en"):
    return Source(id=id_, title=id_, edition=edition, date=date, lang=lang, file=f"{id_}.txt", format=fmt,
                  provenance="p", credit="c", path=Path(f"/nonexistent/{id_}.txt"))


SOURCES = [src("rb5e", "5e", "forum-rulebook", "1997"), src("ck1999", "5e", "crystalkeep-1999", "1999-04"),
           src("hu", "6e", "hu-guide", "undated", "hu"), src("cr", "10e", "comprules"),
           src("ck", "10e", "crystalkeep-2008", "2008-10-20")]


def rec(id_, kind="rule", number=None, text="t", refs=(), **kw):
    source = id_.split(":")[0]
    edition = next(s.edition for s in SOURCES if s.id == source)
    lang = "hu" if source == "hu" else "en"
    return Record(id=id_, source=source, edition=edition, lang=lang, kind=kind, text=text, raw=text,
                  number=number, refs=list(refs), **kw)


def records():
    return [
        rec("rb5e:p52", kind="passage", pages=["15"]),
        rec("ck1999:T.10", number="T.10"),
        rec("ck1999:G.12.1", number="G.12.1", refs=[Ref("Rule T.10", "rule", "T.10")],
            citations=[Citation("[Fifth Edition, Page 52]", "Fifth Edition", page="52"),
                       Citation("[Fifth Edition, Page 15]", "Fifth Edition", page="15")]),
        rec("hu:term.konyvtar", kind="term", title="Könyvtár", aliases=["library"],
            refs=[Ref("library", "glossary", "library")]),
        rec("cr:212.4j", number="212.4j", refs=[Ref("rule 212.4k", "rule", "212.4k")]),
        rec("cr:212.4k", number="212.4k"),
        rec("cr:601.2g", number="601.2g"), rec("cr:601.2h", number="601.2h"), rec("cr:601.2i", number="601.2i"),
        rec("cr:100.1", number="100.1", refs=[Ref("rules 601.2g-h", "rule", "601.2g-h"),
                                              Ref("rule 999.9", "rule", "999.9")]),
        rec("cr:glossary.library", kind="glossary", title="Library"),
        rec("cr:502.83a", number="502.83a", text="Exalted is a triggered ability."),
        rec("ck:502.83a", number="502.83a", text="Exalted is a  triggered _ability_.",
            citations=[Citation("[CompRules 2008/10/01]", "CompRules", "2008-10-01")]),
        rec("ck:401.3", number="401.3", text="Other text.", refs=[Ref("Rule 212.4k", "rule", "212.4k")],
            citations=[Citation("[CompRules 2005/08/01]", "CompRules", "2005-08-01")]),
    ]


def by_id(recs):
    return {r.id: r for r in recs}


def test_refs_resolve_in_own_source_and_reverse_links_are_computed():
    recs = records()
    report = link(recs, SOURCES)
    r = by_id(recs)
    assert [(x.key, x.target) for x in r["cr:212.4j"].refs] == [("212.4k", "cr:212.4k")]
    assert r["cr:212.4k"].refs_in == ["cr:212.4j", "ck:401.3"]
    assert ("cr:100.1", "rule 999.9",
            "no rule 999.9 in cr, ck: they have no chapter 999, so it cites a document the corpus lacks") in report.unresolved


def test_ranges_expand_to_the_rules_that_exist():
    recs = records()
    link(recs, SOURCES)
    assert [x.target for x in by_id(recs)["cr:100.1"].refs][:2] == ["cr:601.2g", "cr:601.2h"]


def test_changes_only_file_resolves_against_the_official_rules():
    recs = records()
    link(recs, SOURCES)
    assert by_id(recs)["ck:401.3"].refs[0].target == "cr:212.4k"


def test_same_rule_join_and_text_difference_report():
    recs = records()
    report = link(recs, SOURCES)
    r = by_id(recs)
    assert [(k.kind, k.target) for k in r["ck:502.83a"].links] == [("same-rule", "cr:502.83a")]
    assert [(k.kind, k.target) for k in r["cr:502.83a"].links] == [("same-rule", "ck:502.83a")]
    assert report.differences == []  # only whitespace and markup differ
    assert r["ck:502.83a"].citations[0].target == "cr:502.83a"
    assert r["ck:401.3"].citations[0].reason == "Comprehensive Rules of 2005-08-01 are not in the corpus"


def test_rulebook_page_citations():
    recs = records()
    link(recs, SOURCES)
    cites = by_id(recs)["ck1999:G.12.1"].citations
    assert cites[0].target is None
    assert cites[0].reason == ("page 52 of the Fifth Edition rulebook is not in the corpus "
                               "(rb5e; pages held: 15)")
    assert cites[1].target == "rb5e:p52"
    assert by_id(recs)["ck1999:G.12.1"].refs[0].target == "ck1999:T.10"


def test_hungarian_terms_link_to_english_glossary_across_editions():
    recs = records()
    link(recs, SOURCES)
    assert [x.target for x in by_id(recs)["hu:term.konyvtar"].refs] == ["cr:glossary.library"]
    assert by_id(recs)["cr:glossary.library"].refs_in == ["hu:term.konyvtar"]


def test_fold_term():
    assert fold_term("Tapped and Untapped.") == "tapped and untapped"
    assert fold_term("Creatures") == "creature"
    assert fold_term("Loss") == "loss"
    assert fold_term("Ante (Obsolete)") == "ante"


def test_same_rule_join_falls_back_to_identical_text_for_misprinted_numbers():
    recs = records() + [rec("cr:306.b", number="306.b", text="If an effect would put a creature into play."),
                        rec("ck:306.1b", number="306.1b", text="If an effect would put a creature into play.")]
    link(recs, SOURCES)
    assert [(k.kind, k.target) for k in by_id(recs)["ck:306.1b"].links] == [("same-rule", "cr:306.b")]


def test_unresolved_references_on_the_real_corpus_are_exactly_the_external_ones(library):
    """Everything resolves except references to pages and documents the corpus does not hold."""
    unresolved = [tuple(u) for u in library.ensure().report()["links"]["unresolved"]]
    assert unresolved == [
        ("alpha:beta-clarification-to-rules.12", "page 40", "page 40 is not in alpha"),  # the address page
        ("rb5e:more-about-permanents.2", '"Regeneration", p. 19',
         "page 19 is beyond the end of this transcription (page 15)"),
        ("rb5e:more-about-permanents.3", '"Basic Creature Abilities", p. 20',
         "page 20 is beyond the end of this transcription (page 15)"),
        ("hu-guide:term.jatekbol-eltavolitott", "out of play", "no glossary entry for 'out of play' in the corpus"),
        ("ck2008:803.7", "Rule 800.4",
         "no rule 800.4 in ck2008, cr2008: they have no chapter 800, so it cites a document the corpus lacks"),
    ]
