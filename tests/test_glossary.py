"""Glossary site: the real corpus (conftest's session `library`), plus hostile hand-made records."""

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

from rulebase.core.errors import UsageError
from rulebase.core.records import Record, Ref
from rulebase.core.sources import Source
from rulebase.glossary.plan import MARKER, build_from_library, build_glossary, plan, term_key
from rulebase.glossary.site import md, rewritten


@pytest.fixture(scope="session")
def html_site(library, tmp_path_factory):
    out = tmp_path_factory.mktemp("glossary") / "site"
    stages = []
    summary = build_from_library(library, out, progress=lambda *a: stages.append(a))
    return out, summary, stages


@pytest.fixture(scope="session")
def md_site(library, tmp_path_factory):
    out = tmp_path_factory.mktemp("glossary-md") / "site"
    return out, build_from_library(library, out, fmt="md")


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


_LATEST: dict[int, set[str]] = {}


def descendants(store, record_id: str) -> list[str]:
    """A record's parts; of an archive version's parts, the newest of each (as the site shows)."""
    if id(store) not in _LATEST:
        _LATEST[id(store)] = {r.id for kind in ("example", "glossary") for r in store.of_kind(kind)}
    latest = _LATEST[id(store)]
    found, todo = [], store.children(record_id)
    while todo:
        found.append(todo.pop(0))
        todo[:0] = store.children(found[-1].id)
    return [r.id for r in sorted(found, key=lambda r: r.order) if not r.span or r.id in latest]


def check_html_links(out: Path) -> int:
    """Every href/src is relative, lands on a file inside OUT, and its fragment is an id there."""
    pages = {p: soup(p) for p in out.rglob("*.html")}
    ids = {p.resolve(): {t["id"] for t in s.find_all(id=True)} for p, s in pages.items()}
    checked = 0
    for page, parsed in pages.items():
        for tag in parsed.find_all(["a", "link", "script", "img"]):
            url = tag.get("href") or tag.get("src")
            if url is None:
                continue
            parts = urlsplit(url)
            assert not parts.scheme and not parts.netloc, f"{page}: external link {url}"
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
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
    assert {"index.html", "credits.html", "assets/search.js", "assets/style.css", "search-index.json",
            MARKER} <= set(written)
    assert summary.terms == sum(1 for name in written if name.startswith("terms/"))
    assert summary.rule_pages == sum(1 for name in written if name.startswith("rules/"))
    assert all(re.fullmatch(r"(terms|rules)/[a-z0-9-]+\.html", n) for n in written if "/" in n
               and not n.startswith("assets/"))
    assert stages[-1] == ("write", len(written) - 1, len(written) - 1)
    assert ("terms", summary.terms, summary.terms) in stages


def test_every_internal_link_and_anchor_resolves(html_site):
    assert check_html_links(html_site[0]) > 3000


def test_every_glossary_entry_is_on_exactly_one_term_page_with_its_parts(html_site, library):
    out = html_site[0]
    found: dict[str, list[str]] = {}
    for page in (out / "terms").glob("*.html"):
        for article in soup(page).find_all("article", class_="definition"):
            found.setdefault(article["id"], []).append(page.name)
            parts = [div["id"] for div in article.find_all("div", class_="part")]
            record = library.store.get(article["id"])
            kids = descendants(library.store, article["id"])
            if record.kind == "passage" and parts and parts != kids:  # and the paragraphs continuing it
                siblings = [s.id for s in library.store.children(record.parent) if s.order > record.order]
                assert parts == siblings[:len(parts)]
                assert not any(library.store.get(i).title for i in parts)
            else:
                assert parts == kids
    store = library.store
    entries = [r for r in store.of_kind("glossary") if not r.span  # the archive is not in the site
               and (not r.parent or store.get(r.parent).kind != "glossary")]
    kinds = {i: store.get(i).kind for i in found}
    assert sorted(i for i in found if kinds[i] == "glossary") == sorted(r.id for r in entries)
    assert all(len(found[r.id]) == 1 for r in entries)
    # where a source has no glossary entry, its defining paragraph or rule stands in (as in `define`)
    assert {kinds[i] for i in found if kinds[i] != "glossary"} == {"passage", "rule"}
    assert "rb4e:creature-special-abilities.8" in found and "ck1999:A.27.2" in found
    assert "ck1999:A.27.1" not in found  # 'The ability is written "Trample".' defines nothing
    # parts of an entry are rendered inside their parent's definition
    for part in (r for r in store.of_kind("glossary")
                 if not r.span and r.parent and store.get(r.parent).kind == "glossary"):
        page = found[part.parent][0]
        article = soup(out / "terms" / page).find("article", id=part.parent)
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


def test_editions_are_diffed_side_by_side(library, html_site):
    # the records the site is built from (build_from_library): the archive's versions stay out,
    # and its 1999-2002 versions are labelled 6e like the Hungarian guide
    records = [r for r in library.store.all(latest=True) if not r.span]
    site = plan(records, library.ensure().meta["sources"])
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
            assert table.find("td", class_="old").find("del") and table.find("td", class_="new").find("ins")
    assert any(not rewritten(ops) for p in with_diffs for _, _, ops in p.diffs)


def test_index_page(html_site):
    out, summary, _ = html_site
    page = soup(out / "index.html")
    assert page.find("input", id="search") is not None
    assert page.find("script", src="assets/search.js") is not None
    entries = json.loads(page.find("script", id="search-data").string)
    assert entries == json.loads((out / "search-index.json").read_text(encoding="utf-8"))
    assert len(entries) == summary.terms
    artifact = next(e for e in entries if e["t"] == "Artifact")
    assert artifact["u"] == "terms/artifact.html" and artifact["h"] == ["varázstárgy"] and "10e" in artifact["e"]
    nav = [a.get_text() for a in page.find("nav", class_="az").find_all("a")]
    assert nav[:3] == ["A", "B", "C"] and nav == sorted(nav)
    counts = {tr.find_all("td")[0].get_text(): int(tr.find_all("td")[1].get_text())
              for tr in page.find("table", class_="counts").find_all("tr")[1:]}
    assert counts["10e"] > 390 and counts["6e"] == 11
    listed = [a["href"] for a in page.select("section[id^=letter-] a")]
    assert len(listed) == summary.terms == len(set(listed))


def test_credits_page(html_site, library):
    page = soup(html_site[0] / "credits.html")
    for source in library.ensure().meta["sources"]:
        section = page.find("section", id=f"source-{source['id']}")
        assert section.h2.get_text() == source["title"]
        text = section.get_text()
        assert source["provenance"] in text and source["credit"] in text


def test_two_builds_are_byte_identical(library, tmp_path):
    build_from_library(library, tmp_path / "a")
    build_from_library(library, tmp_path / "b")
    first = files(tmp_path / "a")
    assert first == files(tmp_path / "b")
    build_from_library(library, tmp_path / "a")  # rebuilding in place is identical too
    assert files(tmp_path / "a") == first


def test_editions_filter_and_stale_pages(library, tmp_path):
    out = tmp_path / "site"
    full = build_from_library(library, out)
    assert (out / "terms" / "konyvtar.html").is_file()
    only = build_from_library(library, out, editions=["10e"])
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
        MARKER, "assets/search.js", "assets/style.css", "credits.html", "index.html", "search-index.json",
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
    assert [a["id"] for a in x.find_all("article")] == ["old:glossary.x", "evil:glossary.x", "evil:glossary.x2"]
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
