"""Glossary site: the real corpus (conftest's session `library`), plus hostile hand-made records."""

import html
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

from rulebase.core.errors import UsageError
from rulebase.core.records import Record, Ref
from rulebase.core.sources import Source, edition_rank
from rulebase.glossary.plan import MARKER, build_from_library, build_glossary, from_library, plan, term_key
from rulebase.glossary.site import md, rewritten


@pytest.fixture(scope="session")
def md_site(library, tmp_path_factory):
    out = tmp_path_factory.mktemp("glossary-md") / "site"
    return out, build_from_library(library, out, fmt="md")


@pytest.fixture(scope="module")
def site_input(library):
    """What build_from_library reads from the library (from_library: every record, the archives'
    versions and their histories), read once for the tests that look at it directly."""
    return from_library(library)


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def search_entries(out: Path) -> list[dict]:
    """The offline search's entries: the JSON the index page carries (the page reads no file)."""
    return json.loads(soup(out / "index.html").find("script", id="search-data").string)


def files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def descendants(store, record_id: str) -> list[str]:
    """A record's parts: for an archive version, the versions filed under it (as the site shows)."""
    found, todo = [], store.children(record_id)
    while todo:
        found.append(todo.pop(0))
        todo[:0] = store.children(found[-1].id)
    return [r.id for r in sorted(found, key=lambda r: r.order)]


_ATTR = re.compile(r'\s(id|href|src)="([^"]*)"')


def check_html_links(out: Path) -> int:
    """Every href/src is relative, lands on a file inside OUT, and its fragment is an id there.
    (The pages' attributes read with a regular expression: the writer quotes every attribute
    with '"' and escapes the values, and BeautifulSoup would take a minute over 4,000 pages.)"""
    pages = {p.resolve(): [(k, html.unescape(v)) for k, v in _ATTR.findall(p.read_text(encoding="utf-8"))]
             for p in out.rglob("*.html")}
    ids = {p: {v for k, v in attrs if k == "id"} for p, attrs in pages.items()}
    assert all(len(ids[p]) == sum(1 for k, _ in attrs if k == "id") for p, attrs in pages.items())  # unique
    checked = 0
    for page, attrs in pages.items():
        for kind, url in attrs:
            if kind == "id":
                continue
            parts = urlsplit(url)
            assert not parts.scheme and not parts.netloc, f"{page}: external link {url}"
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert target.is_relative_to(out.resolve()) and target.is_file(), f"{page}: broken {url}"
            if parts.fragment:
                assert unquote(parts.fragment) in ids[target], f"{page}: no anchor for {url}"
            checked += 1
    return checked


# -- the real corpus -------------------------------------------------------------------------

def test_summary_and_layout(html_site, library):
    out, summary, stages = html_site
    assert summary.out == out and summary.format == "html"
    written = files(out)
    assert summary.files == len(written)
    assert summary.pages == sum(1 for name in written if name.endswith(".html"))
    assert summary.pages == summary.terms + summary.rule_pages + 2
    assert {"index.html", "credits.html", "assets/search.js", "assets/style.css", MARKER} <= set(written)
    assert not [name for name in written if name.endswith(".json")]  # the index page carries its search data
    assert summary.terms == sum(1 for name in written if name.startswith("terms/"))
    assert summary.rule_pages == sum(1 for name in written if name.startswith("rules/"))
    assert all(re.fullmatch(r"(terms|rules)/[a-z0-9-]+\.html", n) for n in written if "/" in n
               and not n.startswith("assets/"))
    assert stages[-1] == ("write", len(written) - 1, len(written) - 1)
    assert ("terms", summary.terms, summary.terms) in stages


def test_a_site_built_in_the_checkout_is_ignored_by_git():
    """`rulebase glossary build site/` in a checkout (the usage the help and README show) left an
    untracked folder that git did not ignore."""
    import shutil
    import subprocess

    root = Path(__file__).resolve().parent.parent
    if shutil.which("git") is None or subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=root,
                                                      capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    for path in ("site/index.html", "site/rules/cr-702-83a.html"):
        # One path per call: git before 2.40 refuses --quiet with several.
        ignored = subprocess.run(["git", "check-ignore", "-q", path], cwd=root)
        assert ignored.returncode == 0, path


def test_every_internal_link_and_anchor_resolves(html_site):
    assert check_html_links(html_site[0]) > 3000


def test_every_glossary_entry_is_on_exactly_one_term_page_with_its_parts(html_site, library, site_input):
    out = html_site[0]
    found: dict[str, list[str]] = {}
    for page in (out / "terms").glob("*.html"):
        for article in soup(page).find_all("article", class_="definition"):
            if "named" in article["class"]:
                continue  # a sentence naming the term inside another entry (test_named_definitions)
            found.setdefault(article.get("id") or article["data-record"], []).append(page.name)
            parts = [div["id"] for div in article.find_all("div", class_="part")]
            key = article.get("id") or article["data-record"]
            record = library.store.get(key)
            kids = descendants(library.store, key)
            if record.kind == "passage" and parts and parts != kids:  # and the paragraphs continuing it
                siblings = [s.id for s in library.store.children(record.parent) if s.order > record.order]
                assert parts == siblings[:len(parts)]
                assert not any(library.store.get(i).title for i in parts)
            else:
                assert parts == kids
    store = library.store
    records, _, archives, _ = site_input
    entries = [r for r in records if r.kind == "glossary" and (not r.parent or store.get(r.parent).kind != "glossary")]
    entries += archives[0].glossary  # every version of every release, but for twins of cr2008's entries
    assert len(archives[0].glossary) > 5000
    kinds = {i: store.get(i).kind for i in found}
    assert sorted(i for i in found if kinds[i] == "glossary") == sorted(r.id for r in entries)
    assert all(len(found[r.id]) == 1 for r in entries)
    # where a source has no glossary entry, its defining paragraph or rule stands in (as in `define`)
    assert {kinds[i] for i in found if kinds[i] != "glossary"} == {"passage", "rule"}
    assert "rb4e:creature-special-abilities.8" in found and "ck1999:A.27.2" in found
    assert "ck1999:A.27.1" not in found  # 'The ability is written "Trample".' defines nothing
    # parts of an entry are rendered inside their parent's definition
    read: dict[str, BeautifulSoup] = {}  # each page parsed once (a page holds many entries' parts)
    for part in (r for r in store.of_kind("glossary")
                 if not r.span and r.parent and store.get(r.parent).kind == "glossary"):
        page = found[part.parent][0]
        if page not in read:
            read[page] = soup(out / "terms" / page)
        article = read[page].find("article", id=part.parent)
        assert article.find(id=part.id) is not None


def test_artifact_page(html_site):
    page = soup(html_site[0] / "terms" / "artifact.html")
    assert page.h1.get_text() == "Artifact"
    article = page.find("article", id="cr2008:glossary.artifact")
    assert article.h3.get_text() == "10e Magic: The Gathering Comprehensive Rules (cr2008)"
    assert article.find("p", class_="term").get_text() == "Artifact"
    assert "Magic: The Gathering Comprehensive Rules (C) Wizards of the Coast" in article.find(
        "p", class_="credit").get_text()
    hungarian = page.find("p", class_="hungarian")
    assert hungarian.get_text() == "Hungarian: varázstárgy"
    assert hungarian.a["href"].endswith("#hu-guide:term.varazstargy")
    see = article.find("p", class_="see-also")
    assert see.get_text() == "See also: rule 212.2"
    assert see.a["href"] == "../rules/cr2008-212.html#cr2008:212.2"


def test_hungarian_pages_link_back_to_english(html_site):
    page = soup(html_site[0] / "terms" / "konyvtar.html")
    assert page.html["lang"] == "hu"
    assert page.find("article", id="hu-guide:glossary.konyvtar")["lang"] == "hu"
    assert page.find("div", id="hu-guide:term.konyvtar") is not None
    english = page.find("p", class_="english")
    assert english.get_text() == "English: library"
    assert english.a["href"] == "library.html"
    creature = soup(html_site[0] / "terms" / "creature.html").find("p", class_="hungarian")
    assert creature.get_text() == "Hungarian: teremtmény"


def test_referrers_and_see_also_are_linked(html_site):
    page = soup(html_site[0] / "terms" / "library.html")
    referrers = page.find("section", class_="referrers")
    assert "hu-guide: Könyvtár" in [a.get_text() for a in referrers.find_all("a")]
    exalted = soup(html_site[0] / "terms" / "exalted.html")
    see = exalted.find("article", id="cr2008:glossary.exalted").find("p", class_="see-also")
    assert see.a.get_text() == "rule 502.83"
    assert see.a["href"] == "../rules/cr2008-502.html#cr2008:502.83"
    rule = soup(html_site[0] / "rules" / "cr2008-502.html")
    assert rule.h1.get_text() == "502 Keyword Abilities"
    assert rule.find(id="cr2008:502.83a").get_text().strip().startswith("502.83a")


def test_editions_are_diffed_side_by_side(site_input, html_site):
    records, sources, archives, also_named = site_input  # what build_from_library builds
    site = plan(records, sources, None, None, archives, also_named)
    with_diffs = [p for p in site.terms if p.diffs]
    assert with_diffs
    for page in with_diffs:
        for old, new, ops in page.diffs:
            assert old.record.edition != new.record.edition and old.record.lang == new.record.lang
            assert "".join(o.a for o in ops) == old.text and "".join(o.b for o in ops) == new.text
        table = soup(html_site[0] / (page.path + ".html")).find("table", class_="diff")
        old, new, ops = page.diffs[0]
        assert [th.get_text() for th in table.find_all("th")] == [f"{old.record.edition} · {old.record.source}",
                                                                  f"{new.record.edition} · {new.record.source}"]
        assert table.find("td", class_="old").get_text() == old.text
        assert table.find("td", class_="new").get_text() == new.text
        if rewritten(ops):
            assert table.caption.get_text().startswith("Rewritten")
        else:
            assert table.find("td", class_="old").find("del") or table.find("td", class_="new").find("ins")
    assert any(not rewritten(ops) for p in with_diffs for _, _, ops in p.diffs)


def test_index_page(html_site):
    out, summary, _ = html_site
    page = soup(out / "index.html")
    assert page.find("input", id="search") is not None
    assert page.find("script", src="assets/search.js") is not None
    entries = json.loads(page.find("script", id="search-data").string)
    assert len(entries) > 4000
    terms = [e for e in entries if e["u"].startswith("terms/")]
    rules = [e for e in entries if not e["u"].startswith("terms/")]
    assert len(terms) == summary.terms and len(rules) > 3000
    tournament = [e for e in rules if e["d"].startswith("section in force now")]  # the MTR, IPG, JAR ...
    assert all(e["u"].split("/")[1].split("-")[0] in ("mtr", "ipg", "jar", "dmtr", "dipg") for e in tournament)
    assert len(tournament) > 200
    assert all(e["d"].startswith("rule in force now") and e["u"].startswith("rules/cr-")
               for e in rules if e not in tournament)
    artifact = next(e for e in entries if e["t"] == "Artifact")
    assert artifact["u"] == "terms/artifact.html" and artifact["h"] == ["varázstárgy"] and "10e" in artifact["e"]
    nav = [a.get_text() for a in page.find("nav", class_="az").find_all("a")]
    assert nav[:3] == ["A", "B", "C"] and nav == sorted(nav, key=lambda x: (x == "#", x))
    listed = page.select("section[id^=letter-] li")
    assert len(listed) == summary.terms == len({li.a["href"] for li in listed})
    # the edition table agrees with the list under it and with the term pages
    editions = [li.find("span", class_="editions").get_text().split() for li in listed]
    articles = [a for p in (out / "terms").glob("*.html") for a in soup(p).find_all("article")]
    rows = [[td.get_text() for td in tr.find_all("td")] for tr in page.find("table", class_="counts").find_all("tr")[1:]]
    *by_edition, total = rows
    for edition, sources, terms, defs in by_edition:
        assert int(terms) == sum(1 for e in editions if edition in e)
        assert int(defs) == sum(1 for a in articles if a["data-edition"] == edition)
        assert sources.split() == sorted({(a.get("id") or a["data-record"]).split(":")[0] for a in articles
                                          if a["data-edition"] == edition})
    assert [r[0] for r in by_edition] == sorted({e for es in editions for e in es}, key=edition_rank)
    assert {"alpha", "4e", "5e", "6e", "10e", "cr2009", "cr2026"} <= {r[0] for r in by_edition}
    sources = {s for r in by_edition for s in r[1].split()}
    assert total == ["all", f"{len(sources)} sources", str(summary.terms), str(len(articles))]
    assert page.find("p", class_="summary").get_text().startswith(f"{summary.terms} terms from {len(sources)} sources; ")
    assert sources == {"alpha", "rb4e", "rb5e", "ck1999", "hu-guide", "cr2008", "ck2008", "cr"}


def test_current_terms_and_rule_numbers_are_in_the_search(html_site):
    entries = search_entries(html_site[0])
    titles = {e["t"]: e for e in entries}
    for term in ("Ward", "Hexproof", "Day"):  # today's glossary: the 1995-2008 documents lack them
        assert titles[term]["u"] == f"terms/{term.lower()}.html"
        assert "cr2026" in titles[term]["e"] or titles[term]["e"][-1].startswith("cr20")
    assert titles["702.83a"]["u"] == "rules/cr-702-83a.html"
    assert titles["702.83 Exalted"]["u"] == "rules/cr-702-83.html"
    assert titles["702.19 Trample"]["u"] == "rules/cr-702-19.html"
    # found by the numbers it had, as `cite 702.17 --as-of 2010` resolves one (702.17 is reach now)
    assert titles["702.19 Trample"]["n"] == ["502.9", "702.17", "702.18"]
    assert titles["702.19 Trample"]["d"].startswith("rule in force now · was 502.9, 702.17, 702.18 · ")
    assert titles["702.17 Reach"]["n"] == [n for n in titles["702.17 Reach"]["n"] if n != "702.17"]


def test_mana_burn_page_has_every_definition_define_shows(html_site, library):
    from rulebase.rules.definitions import curated_names, define

    found = define(library.store, "mana burn", None, curated_names(library.corpus_dir, "mana burn"))
    assert len(found.definitions) >= 5  # every era's wording of five documents
    page = soup(html_site[0] / "terms" / "mana-burn.html")
    shown = [a.get("id") or a["data-record"] for a in page.find_all("article")]
    # each era's text define shows is on the page, as itself or as a copy printing the same text
    assert all({e.record.id, *e.same_text, *e.versions} & set(shown) for e in found.entries), shown
    assert len({i.split(":")[0] for i in shown}) == 5  # rb4e, ck1999, hu-guide, cr2008, cr
    # newest first: the obsolete entry of today's rules, down to the 1995 rulebook's Mana pool
    assert shown[0] == "cr:glossary.mana-burn@2019-05-03" and shown[-1] == "rb4e:glossary.mana-pool"
    first = page.find("article")
    assert first.h3.get_text().startswith("cr2019 Comprehensive Rules (cr) · in force 2019-05-03 to now")
    assert "That rule no longer exists." in first.get_text()
    named = page.find("article", attrs={"data-record": "rb4e:glossary.mana-pool"})
    assert "named" in named["class"] and "This kind of damage is called mana burn." in named.get_text()
    assert named.find("p", class_="named-in").a["href"] == "mana-pool.html#rb4e:glossary.mana-pool"
    hungarian = page.find("article", id="hu-guide:altalanos-tudnivalok.1") or page.find(
        "article", attrs={"data-record": "hu-guide:altalanos-tudnivalok.1"})
    assert hungarian["lang"] == "hu" and "Ezt manaégésnek hívjuk." in hungarian.get_text()


def test_a_paragraph_opening_with_the_term_is_on_its_page_as_define_finds_it(html_site, library):
    """`define interrupt` and the Interrupt page both show the 4th Edition's paragraph that opens
    "Interrupts always happen ...", linked to its home."""
    page = soup(html_site[0] / "terms" / "interrupt-obsolete.html")
    article = page.find("article", attrs={"data-record": "rb4e:resolving-fast-effects.2"})
    assert article is not None and article["data-edition"] == "4e"
    assert article.find("p", class_="named-in").get_text() == (
        "A paragraph opening with the term, in rb4e:resolving-fast-effects.2")
    assert article.find("p", class_="named-in").a["href"] == (
        "../rules/rb4e-resolving-fast-effects.html#rb4e:resolving-fast-effects.2")
    assert "Interrupts always happen" in article.get_text()


def test_a_current_rule_page_with_its_history(html_site, library):
    from rulebase.rules.history import change_text, history

    store = library.store
    page = soup(html_site[0] / "rules" / "cr-702-83a.html")
    assert page.h1.get_text() == "702.83a"
    block = page.find("div", id="cr:702.83a@2021-04-22")
    assert block.find_all("p")[1].get_text() == store.get("cr:702.83a@2021-04-22").text
    crumbs = [(a.get_text(), a["href"]) for a in page.find("nav", class_="section").find_all("a")]
    assert crumbs == [("7 Additional Rules", "cr-7.html"), ("702 Keyword Abilities", "cr-702.html"),
                      ("702.83 Exalted", "cr-702-83.html")]
    steps = history(store, "cr:702.83a@2021-04-22").lineages[0].steps
    items = page.find("section", id="history").find_all("li", class_="version")
    assert page.find("p", class_="lineage").get_text() == "502.83a → 702.80a → 702.81a → 702.82a → 702.83a (8 versions)"
    assert len(items) == len(steps) == 8
    for li, step in zip(items, reversed(steps), strict=True):
        period = li.find("p", class_="period").get_text()
        assert change_text(step) in period and step.record.id in period
        text = li.find("p", class_="text")
        for gone in text.find_all("del"):
            gone.decompose()
        assert text.get_text() == step.record.text  # verbatim, the deletions aside
        assert li.get("id") == (None if step.record.id == "cr:702.83a@2021-04-22" else step.record.id)
    assert items[0].find("p", class_="period").get_text().startswith("2021-04-22 to now · 702.83a · renumbered from 702.82a")
    assert items[-1].find("p", class_="period").get_text().startswith("2008-10-01 to 2009-07-10 · 502.83a · first appears")
    same = [a["href"] for a in page.find("p", class_="same-text").find_all("a")]
    assert same == ["cr2008-502.html#cr2008:502.83a", "ck2008-502-83.html#ck2008:502.83a"]
    parent = soup(html_site[0] / "rules" / "cr-702-83.html")
    assert [a["href"] for a in parent.find("section", class_="subrules").find_all("a")] == [
        "cr-702-83a.html", "cr-702-83b.html"]
    assert "Exalted" in [a.get_text() for a in parent.find("p", class_="cited-by").find_all("a")]


def test_every_current_rule_is_under_its_parent_rule(html_site, library):
    """601.3's page listed only 601.3e and 601.3f under Subrules, and the pages of 601.3a-d had no
    section path: they were printed under a 601.3 since rewritten as another rule, and were filed
    under that rule's lineage, which is no longer in force."""
    from rulebase.glossary.current import RULE_KINDS, load_archives

    page = soup(html_site[0] / "rules" / "cr-601-3.html")
    assert [a.get_text() for a in page.find("section", class_="subrules").find_all("a")] == [
        "601.3a", "601.3b", "601.3c", "601.3d", "601.3e", "601.3f"]
    trample = soup(html_site[0] / "rules" / "cr-702-19.html")  # in number order, as the rules print them
    assert [a.get_text() for a in trample.find("section", class_="subrules").find_all("a")] == [
        f"702.19{c}" for c in "abcdefg"]
    contents = soup(html_site[0] / "index.html").find(id="current-rules").find_next("ul").find_all("li")
    assert [li.get_text().split()[0] for li in contents][:4] == ["1", "100", "101", "102"]
    sub = soup(html_site[0] / "rules" / "cr-601-3a.html")
    assert [a["href"] for a in sub.find("nav", class_="section").find_all("a")] == [
        "cr-6.html", "cr-601.html", "cr-601-3.html"]
    archive = next(a for a in load_archives(library.store, []) if a.source == "cr")  # and the tournament documents
    live = {r.id: r for r in archive.live}
    for record in archive.live:  # every subrule and rule sits under the rule its number names
        if record.kind in RULE_KINDS and record.number and re.fullmatch(r"\d{3}\.\d+[a-z]?", record.number):
            parent = live[archive.parent[record.id]].number
            assert parent and record.number.startswith(parent) and record.number != parent, record.id


def test_terms_link_to_the_current_rules_they_cite(html_site, library):
    out = html_site[0]
    trample = soup(out / "terms" / "trample.html")
    current = next(a for a in trample.find_all("article") if "to now" in a.h3.get_text())
    see = current.find("p", class_="see-also").a
    assert see.get_text() == "rule 702.19"
    assert unquote(see["href"]).startswith("../rules/cr-702-19.html#cr:702.19@")
    rule = soup(out / "rules" / "cr-702-19.html")
    assert "Trample" in [a.get_text() for a in rule.find("p", class_="cited-by").find_all("a")]
    # a current rule's own references lead to the rules in force now
    store = library.store
    record = store.get(unquote(see["href"].split("#")[1]))
    assert record.span[1] == store.releases()["cr"][-1]["date"]
    newest = store.releases()["cr"][-1]
    citing = [r for r in store.in_force(newest["first_day"], "cr") if any(ref.target for ref in r.refs)]
    assert len(citing) > 500
    links = []
    for record in citing[::50]:
        page = soup(out / "rules" / ("cr-" + record.number.lower().replace(".", "-") + ".html"))
        links += page.find("div", class_="current").find("p", class_="see-also").find_all("a")
    assert len(links) >= len(citing[::50])
    for a in links:
        target = store.get(unquote(a["href"].split("#")[1]))
        assert target.span[1] == store.releases()["cr"][-1]["date"] and a["href"].startswith("cr-")


def test_every_rule_of_the_newest_release_has_a_page(html_site, library):
    store = library.store
    newest = store.releases()["cr"][-1]
    live = [r for r in store.in_force(newest["first_day"], "cr", ("section", "chapter", "rule")) if r.number]
    pages = {p.name for p in (html_site[0] / "rules").glob("cr-*.html")}
    assert len(live) > 3000 and len(pages) == len(live)
    for record in live[::97]:
        name = "cr-" + record.number.lower().replace(".", "-") + ".html"
        assert soup(html_site[0] / "rules" / name).find(id=record.id) is not None


def test_credits_page(html_site, library):
    page = soup(html_site[0] / "credits.html")
    for source in library.ensure().report()["sources"]:
        section = page.find("section", id=f"source-{source['id']}")
        assert section.h2.get_text() == source["title"]
        text = section.get_text()
        assert source["provenance"] in text and source["credit"] in text


def test_two_builds_are_byte_identical(html_site, library, tmp_path):
    first = files(html_site[0])  # conftest's build of the session: this one is the second
    read = from_library(library)  # (read again: the library's reading is part of what must repeat)
    build_glossary(*read[:2], tmp_path / "a", archives=read[2], also_named=read[3])
    assert files(tmp_path / "a") == first
    build_glossary(*read[:2], tmp_path / "a", archives=read[2], also_named=read[3])  # in place: identical too
    assert files(tmp_path / "a") == first


def test_editions_filter_and_stale_pages(library, site_input, tmp_path):
    records, sources, archives, also_named = site_input  # what build_from_library builds
    out = tmp_path / "site"
    full = build_glossary(records, sources, out, archives=archives, also_named=also_named)
    assert (out / "terms" / "konyvtar.html").is_file()
    only = build_glossary(records, sources, out, editions=["10e"], archives=archives, also_named=also_named)
    assert only.terms < full.terms
    assert not (out / "terms" / "konyvtar.html").exists()  # our own stale page is removed
    assert (out / MARKER).read_text(encoding="utf-8").count("\n") == only.files
    assert check_html_links(out) > 1000
    for article in soup(out / "terms" / "artifact.html").find_all("article"):
        assert article["data-edition"] == "10e"
    with pytest.raises(UsageError, match="unknown edition '11e'"):
        build_from_library(library, tmp_path / "never", editions=["11e"])
    assert not (tmp_path / "never").exists()


def test_markdown_links_resolve(md_site):
    out, summary = md_site
    assert summary.format == "md" and summary.pages == summary.terms + summary.rule_pages + 2
    pages = {p: p.read_text(encoding="utf-8") for p in out.rglob("*.md")}
    ids = {p.resolve(): set(re.findall(r'<a id="([^"]+)"></a>', t)) for p, t in pages.items()}
    checked = 0
    for page, text in pages.items():
        for url in re.findall(r"\]\(([^)\s]+)\)", text):
            parts = urlsplit(url)
            assert not parts.scheme
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
            assert target.is_relative_to(out.resolve()) and target.is_file(), f"{page}: broken {url}"
            if parts.fragment:
                assert unquote(parts.fragment) in ids[target], f"{page}: no anchor {url}"
            checked += 1
    assert checked > 3000
    artifact = (out / "terms" / "artifact.md").read_text(encoding="utf-8")
    assert artifact.startswith("[Glossary index](../index.md) · [Credits](../credits.md)\n\n# Artifact\n")
    assert "Hungarian: [varázstárgy](kartyatipus.md#hu-guide:term.varazstargy)" in artifact
    assert '<a id="cr2008:glossary.artifact"></a> **Artifact**' in artifact


# -- refusing and creating OUT ----------------------------------------------------------------

def test_missing_out_is_created_and_foreign_out_refused(tmp_path):
    records, sources = hostile()
    nested = tmp_path / "new" / "deeper"
    build_glossary(records, sources, nested)
    assert (nested / MARKER).is_file() and (nested / "index.html").is_file()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(UsageError) as err:
        build_glossary(records, sources, foreign)
    assert str(err.value) == (f"{foreign} is not empty and was not written by 'rulebase glossary build' - "
                              "choose a new or empty directory, or pass --force to write into it anyway")
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]
    build_glossary(records, sources, foreign, force=True)
    assert (foreign / "notes.txt").read_text(encoding="utf-8") == "mine"
    build_glossary(records, sources, foreign)  # now it is ours: no force needed
    assert (foreign / "notes.txt").read_text(encoding="utf-8") == "mine"  # never ours to delete
    empty = tmp_path / "empty"
    empty.mkdir()
    build_glossary(records, sources, empty)
    a_file = tmp_path / "file.txt"
    a_file.write_text("x", encoding="utf-8")
    with pytest.raises(UsageError, match="exists and is not a directory"):
        build_glossary(records, sources, a_file)
    with pytest.raises(UsageError, match="unknown format 'pdf'"):
        build_glossary(records, sources, tmp_path / "pdf", fmt="pdf")


def test_nothing_is_written_through_a_link_out_of_out(tmp_path):
    records, sources = hostile()
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "terms").symlink_to(outside, target_is_directory=True)
    with pytest.raises(UsageError, match="outside"):
        build_glossary(records, sources, out, force=True)
    assert list(outside.iterdir()) == []


# -- hostile records ----------------------------------------------------------------------------

SCRIPT = "<script>alert(1)</script>"


def hostile():
    src = Source(id="evil", title=f"Evil {SCRIPT}", edition="10e", date="2008", lang="en", file="e.txt",
                 format="comprules", provenance='<img src=x onerror="alert(2)">', credit=f"credit {SCRIPT}",
                 path=Path("/nonexistent/e.txt"))
    other = {"id": "old", "title": "Old & rules", "edition": "4e", "date": "1995", "lang": "en",
             "provenance": "p", "credit": "c"}

    def rec(id_, kind, text, **kw):
        source = id_.split(":")[0]
        return Record(id=id_, source=source, edition="10e" if source == "evil" else "4e", lang="en", kind=kind,
                      text=text, raw=text, **kw)

    records = [
        rec("evil:glossary", "section", "Glossary", title="Glossary"),
        rec("evil:glossary.script", "glossary", f"Runs {SCRIPT} and <b>bold</b> & \"quotes\". See rule 1.1.",
            title=SCRIPT, parent="evil:glossary", order=1,
            refs=[Ref(f"rule {SCRIPT}", "rule", "1.1", target='evil:1.1"><script>')],
            refs_in=['evil:1.1"><script>']),
        rec("evil:glossary.x", "glossary", "Escapes ../../etc/passwd", title="../x", parent="evil:glossary",
            order=2, aliases=["../../x"]),
        rec("evil:glossary.x2", "glossary", "Another one", title="x", parent="evil:glossary", order=3),
        rec("evil:1", "chapter", "One", number="1", title="One", order=4),
        rec('evil:1.1"><script>', "rule", f"A rule {SCRIPT}", number="1.1", parent="evil:1", order=5,
            refs=[Ref("dangling", "rule", "9", target="evil:missing")]),
        rec("evil:glossary.cyr", "glossary", "No ASCII letters in the name", title="Щ", parent="evil:glossary",
            order=6),
        rec("old:glossary.x", "glossary", "Escapes ../x in 4e", title="x", order=1),
    ]
    return records, [src, other]


def test_hostile_text_is_escaped_everywhere(tmp_path):
    records, sources = hostile()
    out = tmp_path / "site"
    summary = build_glossary(records, sources, out)
    assert sorted(files(out)) == sorted([
        MARKER, "assets/search.js", "assets/style.css", "credits.html", "index.html",
        "rules/evil-1.html", "terms/script-alert-1-script.html", "terms/x.html", "terms/x-2.html"])
    assert summary.terms == 3 and summary.rule_pages == 1
    assert check_html_links(out) > 10
    for page in out.rglob("*.html"):
        parsed = soup(page)
        scripts = parsed.find_all("script")
        if page.name == "index.html":
            assert [(s.get("id"), s.get("src")) for s in scripts] == [("search-data", None),
                                                                       (None, "assets/search.js")]
        else:
            assert scripts == []
        assert not parsed.find_all(attrs={"onerror": True}) and not parsed.find_all("img")
        assert not parsed.find_all("b")
    page = soup(out / "terms" / "script-alert-1-script.html")
    assert page.h1.get_text() == SCRIPT
    assert page.title.get_text() == f"{SCRIPT} · Rules glossary"
    article = page.find("article", id="evil:glossary.script")
    assert article.find_all("p")[1].get_text() == f"Runs {SCRIPT} and <b>bold</b> & \"quotes\". See rule 1.1."
    link = article.find("p", class_="see-also").a
    assert link.get_text() == f"rule {SCRIPT}"
    assert unquote(link["href"]) == '../rules/evil-1.html#evil:1.1"><script>'
    rule = soup(out / "rules" / "evil-1.html")
    assert rule.find(id='evil:1.1"><script>').find("span", class_="unlinked").get_text() == "dangling"
    assert soup(out / "credits.html").find("section", id="source-evil").h2.get_text() == f"Evil {SCRIPT}"
    x = soup(out / "terms" / "x.html")  # "../x", "x" (evil) and "x" (old) merge on the name "x"
    assert x.h1.get_text() == "../x"
    assert [a["id"] for a in x.find_all("article")] == ["evil:glossary.x", "evil:glossary.x2", "old:glossary.x"]
    assert x.find("p", class_="names").get_text() == "Also: ../../x, x"
    diff = x.find("table", class_="diff")  # 4e "Escapes ../x in 4e" against 10e "Escapes ../../etc/passwd"
    assert str(diff.find("td", class_="old")) == '<td class="old">Escapes <del>../x in 4e</del></td>'
    assert str(diff.find("td", class_="new")) == '<td class="new">Escapes <ins>../../etc/passwd</ins></td>'
    assert soup(out / "terms" / "x-2.html").h1.get_text() == "Щ"  # slug "x" taken: de-duplicated
    entries = json.loads(soup(out / "index.html").find("script", id="search-data").string)
    assert [e["t"] for e in entries] == ["../x", SCRIPT, "Щ"]
    raw_index = (out / "index.html").read_text(encoding="utf-8")
    assert raw_index.count("<script") == 2 and "\\u003cscript\\u003e" in raw_index
    assert not (tmp_path / "x.html").exists() and not (tmp_path / "x").exists()


def test_hostile_markdown(tmp_path):
    records, sources = hostile()
    out = tmp_path / "md"
    build_glossary(records, sources, out, fmt="md")
    text = (out / "terms" / "script-alert-1-script.md").read_text(encoding="utf-8")
    assert "<script" not in text and "<b>" not in text
    assert "# &lt;script&gt;alert(1)&lt;/script&gt;\n" in text
    assert "Runs &lt;script&gt;alert(1)&lt;/script&gt; and &lt;b&gt;bold&lt;/b&gt; &amp; \"quotes\"." in text
    assert '<a id="evil:glossary.script"></a>' in text
    assert "[rule &lt;script&gt;alert(1)&lt;/script&gt;](../rules/evil-1.md#evil:1.1%22%3E%3Cscript%3E)" in text
    x = (out / "terms" / "x.md").read_text(encoding="utf-8")
    assert "### 4e (old) → 10e (evil)\n\nEscapes ~~../x in 4e~~ **../../etc/passwd**\n" in x
    rule = (out / "rules" / "evil-1.md").read_text(encoding="utf-8")
    assert '<a id="evil:1.1&quot;&gt;&lt;script&gt;"></a>' in rule


def test_markdown_escaping():
    assert md("502.1") == "502\\.1" and md("5. Additional Rules") == "5\\. Additional Rules"
    assert md("# x") == "\\# x" and md("- x") == "\\- x" and md("+1/+1") == "\\+1/+1"
    assert md("2008-10-01 a - b") == "2008-10-01 a - b"
    assert md("<b>*x*</b> [l](u) a|b_c & `d`") == "&lt;b&gt;\\*x\\*&lt;/b&gt; \\[l\\](u) a\\|b\\_c &amp; \\`d\\`"


def test_term_keys():
    assert term_key("Removed from the Game") == term_key("remove from game")
    assert term_key("Blocked Creature") == term_key("Blocking Creature")  # only merged across sources
    assert term_key("Játékból eltávolított") == "jatekbol eltavolitott"


def hostile_archive():
    """A two-release archive by hand: rule 1.1 changed between them (its text and a glossary
    entry carry markup), chapter 1 holds it, and the glossary entry cites the old version."""
    from rulebase.glossary.current import Archive
    from rulebase.rules.history import steps_of

    def rec(id_, kind, text, span, **kw):
        return Record(id=id_, source="arc", edition="cr2020" if span[0] == "2020-01-01" else "cr2021", lang="en",
                      kind=kind, text=text, raw=text, span=span, **kw)

    old = rec("arc:1.1@2020-01-01", "rule", f"Old {SCRIPT} text & more.", ["2020-01-01", "2020-12-31"],
              number="1.1", parent="arc:1@2020-01-01", lineage="arc:1.1@2020-01-01", order=2)
    new = rec("arc:1.1@2021-01-01", "rule", f"New {SCRIPT} text & more. See rule 1.", ["2021-01-01", "2021-01-01"],
              number="1.1", parent="arc:1@2020-01-01", lineage="arc:1.1@2020-01-01", order=2,
              refs=[Ref("rule 1", "rule", "1", target="arc:1@2020-01-01")])
    chapter = rec("arc:1@2020-01-01", "chapter", "One <b>", ["2020-01-01", "2021-01-01"], number="1",
                  title="One <b>", lineage="arc:1@2020-01-01", order=1)
    entry = rec("arc:glossary.evil@2020-01-01", "glossary", f"Means {SCRIPT}. See rule 1.1.",
                ["2020-01-01", "2021-01-01"], title=f"Evil {SCRIPT}", lineage="arc:glossary.evil@2020-01-01",
                refs=[Ref("rule 1.1", "rule", "1.1", target="arc:1.1@2021-01-01")], order=3)
    spans = {"arc:1.1@2020-01-01": (20200101, 20201231), "arc:1.1@2021-01-01": (20210101, 99991231),
             "arc:1@2020-01-01": (20200101, 99991231), "arc:glossary.evil@2020-01-01": (20200101, 99991231)}
    rule_steps, chapter_steps = steps_of([old, new], spans), steps_of([chapter], spans)
    archive = Archive("arc", {"date": "2021-01-01", "first_day": 20210101}, [chapter, new],
                      parent={new.id: chapter.id},
                      steps={old.lineage: rule_steps, chapter.lineage: chapter_steps},
                      current={old.id: new.id, new.id: new.id, chapter.id: chapter.id},
                      glossary=[entry], spans=spans,
                      step_of={s.record.id: s for s in [*rule_steps, *chapter_steps, *steps_of([entry], spans)]})
    source = {"id": "arc", "title": f"Archive {SCRIPT}", "edition": "dated", "date": "2020-01-01/2021-01-01",
              "lang": "en", "provenance": "p", "credit": f"c {SCRIPT}"}
    return archive, source


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_hostile_archive_pages_are_escaped_and_linked(tmp_path, fmt):
    archive, source = hostile_archive()
    out = tmp_path / fmt
    summary = build_glossary([], [source], out, fmt=fmt, archives=[archive])
    assert summary.terms == 1 and summary.rule_pages == 2
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob(f"*.{fmt}"))
    assert names == [f"credits.{fmt}", f"index.{fmt}", f"rules/arc-1-1.{fmt}", f"rules/arc-1.{fmt}",
                     f"terms/evil-script-alert-1-script.{fmt}"]
    for page in out.rglob(f"*.{fmt}"):
        text = page.read_text(encoding="utf-8")
        assert "<script>" not in text and "<b>" not in text
    if fmt == "md":
        rule = (out / "rules" / "arc-1-1.md").read_text(encoding="utf-8")
        assert "New &lt;script&gt;alert(1)&lt;/script&gt; text &amp; more." in rule
        assert '<a id="arc:1.1@2020-01-01"></a> **2020-01-01 to 2020-12-31**' in rule
        return
    assert check_html_links(out) > 10
    rule = soup(out / "rules" / "arc-1-1.html")
    assert rule.find("div", id="arc:1.1@2021-01-01").find_all("p")[1].get_text() == f"New {SCRIPT} text & more. See rule 1."
    assert rule.find("p", class_="see-also").a["href"] == "arc-1.html#arc:1@2020-01-01"
    items = rule.find_all("li", class_="version")
    assert [li.get("id") for li in items] == [None, "arc:1.1@2020-01-01"]
    assert items[0].find("p", class_="period").get_text().startswith("2021-01-01 to now · 1.1 · text changed")
    assert [x.get_text() for x in items[0].find_all("del")] == ["Old "] and items[1].find("del") is None
    assert items[1].find("p", class_="text").get_text() == f"Old {SCRIPT} text & more."
    assert rule.find("nav", class_="section").a.get_text() == "1 One <b>"
    term = soup(out / "terms" / "evil-script-alert-1-script.html")
    assert term.h1.get_text() == f"Evil {SCRIPT}"
    assert term.find("p", class_="see-also").a["href"] == "../rules/arc-1-1.html#arc:1.1@2021-01-01"
    assert "Evil <script>alert(1)</script>" in [a.get_text() for a in rule.find("p", class_="cited-by").find_all("a")]
    entries = search_entries(out)
    assert [e["t"] for e in entries] == [f"Evil {SCRIPT}", "1 One <b>", "1.1"]
    raw = (out / "index.html").read_text(encoding="utf-8")
    assert raw.count("<script") == 2



def test_a_rule_page_names_the_cards_that_use_the_rule(html_site, md_site, library):
    """As lookup does: "used by 1,240 cards, e.g. ...", counted from the cards' links."""
    from rulebase.rules.cards import used_by
    from rulebase.rules.lookup import lookup

    trample = lookup(library.store, "702.19").entries[0].record  # the version in force now
    count, names = used_by(library.store, trample)
    assert count > 1000 and len(names) == 3
    used = soup(html_site[0] / "rules" / "cr-702-19.html").find("p", class_="used-by").get_text()
    assert used == f"Used by {count:,} cards, e.g. {', '.join(names)}"
    assert f"Used by {count:,} cards, e.g. " in (md_site[0] / "rules" / "cr-702-19.md").read_text(encoding="utf-8")
    assert soup(html_site[0] / "rules" / "cr-100.html").find("p", class_="used-by") is None  # no card uses it


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_no_raw_control_character_reaches_a_page(tmp_path, fmt):
    """ESC and BEL from an added document were written raw into the site's HTML and Markdown
    (`cat rules/ipg-2.md` set the terminal's title); they are shown as escapes, as the CLI does."""
    from rulebase.core.value import replace

    records, sources = hostile()
    evil = "\x1b]0;pwned\x07 and \x1b[31mred\x9b and \u202eright-to-left"
    records = [replace(r, text=r.text + evil, raw=r.raw + evil,
                                   title=(r.title + evil) if r.title else r.title) for r in records]
    build_glossary(records, sources, tmp_path / "out", fmt=fmt)
    for page in (tmp_path / "out").rglob("*"):
        if page.is_file():
            text = page.read_text(encoding="utf-8")
            assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", text), page
    shown = "\\x1b]0;pwned\\x07" if fmt == "html" else "\\\\x1b\\]0;pwned\\\\x07"  # (md escapes \\ and ])
    assert any(shown in p.read_text(encoding="utf-8") for p in (tmp_path / "out").rglob(f"*.{fmt}"))


def test_an_unknown_format_is_refused_before_the_library_is_read(tmp_path):
    """`glossary build OUT --format pdf` says so at once: it read every record first (20 s)."""
    class Unread:
        def __getattr__(self, name):
            raise AssertionError(f"the library's {name} was read")

    with pytest.raises(UsageError, match="unknown format 'pdf'"):
        build_from_library(Unread(), tmp_path / "x", fmt="pdf")
    assert not (tmp_path / "x").exists()


def test_an_unknown_edition_is_refused_before_the_records_are_read(tmp_path):
    """`glossary build OUT --editions 9x` lists the editions the manifest holds at once (it read
    every record first: 17 s); a well-formed label is checked against the records, as before."""
    from rulebase.core.sources import load_manifest

    class SourcesOnly:
        sources = load_manifest()

        def __getattr__(self, name):
            raise AssertionError(f"the library's {name} was read")

    with pytest.raises(UsageError, match="unknown edition '9x'") as raised:
        build_from_library(SourcesOnly(), tmp_path / "x", editions=["4e", "9x"])
    assert raised.value.hint.startswith("use one of alpha, 4e, 5e, 6e, cr2001") and "cr2026" in raised.value.hint
    assert "mtr" not in raised.value.hint and not (tmp_path / "x").exists()
