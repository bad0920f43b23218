"""Thread splitting, chrome detection, copy reconciliation, HTML input, and markup folding."""

from __future__ import annotations

from pathlib import Path

from rulebase.core.sources import Source, load_manifest
from rulebase.ingest.rulebooks import forum
from rulebase.ingest.rulebooks.markup import (
    LOST_SYMBOL_FLAG,
    canon_symbols,
    clean,
    lost_symbols,
    strip_bbcode,
)
from rulebase.ingest.rulebooks.rulebook import assign_pages, parse

FIXTURES = Path(__file__).parent / "fixtures"


def corpus_text() -> str:
    source = next(s for s in load_manifest() if s.id == "rb4e")
    return source.path.read_text(encoding="utf-8")


def test_real_thread_splits_into_two_books_of_two_copies():
    thread = forum.split_thread(corpus_text())
    assert [b.part for b in thread.books] == ["4e", None]
    four, five = thread.books
    assert [(c.start + 1, c.end + 1, c.title) for c in four.copies] == [
        (13, 1518, "4th Edition Part 1"), (1937, 3442, "4th Edition Part 1")]
    assert [(c.start + 1, c.end + 1) for c in five.copies] == [(1527, 1889), (3447, 3809)]
    assert forum.book_for(thread, "5e") is five
    assert four.copies[0].holes == {816: (829, 836)}
    assert four.copies[1].holes == {818: (2755, 2758)}
    assert [r.no for r in five.requests] == [3840]


def test_reconciliation_notes():
    four = forum.split_thread(corpus_text()).books[0]
    assert four.notes == [
        "line 213 of copy 1 and lines 2137-2138 of copy 2 differ only in wrapping: used the wrapped lines 2137-2138",
        "line 518 of copy 1 and lines 2443-2444 of copy 2 differ only in wrapping: used the wrapped lines 2443-2444",
        "copy 2 has line 2759 ('MORE ON THE TURN SEQUENCE') that copy 1 lacks after line 828 (copy 1 has forum "
        "chrome at lines 829-836 there: the line was lost under it): kept",
        "line 1151 of copy 1 and lines 3074-3075 of copy 2 differ only in wrapping: used the wrapped lines 3074-3075",
    ]
    texts = [ln.text for ln in four.lines]
    assert texts.count("MORE ON THE TURN SEQUENCE") == 1
    assert not any("Every English card" in t for t in texts)


def test_page_marker_shapes():
    assert forum.is_mark("--15") and forum.is_mark("--ii") and forum.mark_label("--ii") == "ii"
    assert not forum.is_mark("--Our condolences to everyone who has been killed by an Ornithopter.--")
    assert not forum.is_mark("-- and the results of previous effects")
    assert not forum.is_mark("----------")


def test_assign_pages_spans_and_tail():
    lines = [forum.Line(n, t) for n, t in enumerate(["a", "--35", "b", "--37", "c", "--38", "tail"], 1)]
    items = [i for i in assign_pages(lines) if not i.mark]
    assert [(i.line.text, i.pages) for i in items] == [("a", ("35",)), ("b", ("36", "37")), ("c", ("38",)),
                                                        ("tail", ("38",))]
    assert items[1].flag == "page marker --36 missing: text spans pages 36-37"
    assert items[3].flag == "after the last page marker (--38): placed on page 38"


def test_html_fixture_parses_like_the_text_fixture():
    def src(name: str) -> Source:
        return Source(id="fx", title="t", edition="4e", date="1995", lang="en", file=name,
                      format="forum-rulebook", provenance="p", credit="c", path=FIXTURES / name, part="4e")

    html = (FIXTURES / "forum-thread.html").read_text(encoding="utf-8")
    assert forum.looks_like_html(html)
    text_records = parse((FIXTURES / "forum-thread.txt").read_text(encoding="utf-8"), src("forum-thread.txt"))
    html_records = parse(html, src("forum-thread.html"))
    assert [(r.id, r.text, r.pages) for r in html_records.records] == [
        (r.id, r.text, r.pages) for r in text_records.records]
    assert html_records.set_aside == text_records.set_aside


def test_html_to_text_breaks():
    assert forum.html_to_text("<html><body><p>One<br>Two</p><div>Three &amp; four</div></body></html>") == \
        "One\nTwo\nThree & four"


def test_markup_folding():
    assert clean("or -library-. Near your _graveyard_, or") == ("or library. Near your graveyard, or",
                                                                 ["library", "graveyard"])
    assert clean("gives -1/-1 and +*/+* until") == ("gives -1/-1 and +*/+* until", [])
    assert clean("Relax -- you know") == ("Relax -- you know", [])
    assert clean("combat - attacking and blocking - isn't") == ("combat - attacking and blocking - isn't", [])
    assert clean("the -power,- or attack")[0] == "the power, or attack"
    assert clean("call 0345-125599 or +32-(0)3-272-0511")[0] == "call 0345-125599 or +32-(0)3-272-0511"
    assert clean("-\"Inflatable\" Creatures-: Some") == ('"Inflatable" Creatures: Some', ['"inflatable" creatures'])


def test_symbols():
    assert canon_symbols("costs <1RR> and <tap> or <Tap>, <W>, <XR>, <0>") == \
        "costs {1}{R}{R} and {T} or {T}, {W}, {X}{R}, {0}"
    assert canon_symbols('says "<BB,Tap>: Jumps') == 'says "{B}{B},{T}: Jumps'
    assert canon_symbols("Gathering^{TM} and ^{R} and ^{tm}") == "Gathering\u2122 and \u00ae and \u2122"
    assert canon_symbols('Tom W\\"anerstrand') == "Tom W\u00e4nerstrand"
    assert canon_symbols("Summon <creature type>") == "Summon <creature type>"
    assert strip_bbcode('to [EMAIL="-x@y.com"]-x@y.com[/EMAIL]- and') == ("to -x@y.com- and", 2)


def test_lost_symbol_gaps():
    for gap in ["a sorcery with a casting cost of . Raise Dead", "(an instant with a casting cost of ) to",
                'the following special ability: ": +1/+1 until', "for every you spend",
                "the mana symbols ({W}, , , {G}, {R}) are", "blue (), black ()", "a card with and {R} in",
                "an interrupt that costs to cast", "A spell with a casting cost of would require"]:
        assert lost_symbols(gap), gap
    for fine in ["a casting cost of {1}{R}{R}.", "a casting cost of 4.", 'the ability "B: Regenerate."',
                 "for every point you spend"]:
        assert lost_symbols(fine) == [], fine
    assert LOST_SYMBOL_FLAG.startswith("mana symbol lost in transcription")
