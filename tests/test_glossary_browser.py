"""The glossary site in a real browser: headless Chromium over a local HTTP server.

Needs Debian's chromium (/usr/bin/chromium) and the playwright Python package (Playwright's own
browser download is never used). Skipped only when Chromium itself is absent.
"""

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass


@pytest.fixture(scope="module")
def site(html_site):  # conftest's site of the real index, built once per session
    return html_site[0]


@pytest.fixture(scope="module")
def server(site):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright Python package is missing: pip install playwright (test extra)")
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=str(CHROMIUM), headless=True,
            args=FLAGS)
        yield context
        context.close()


@pytest.fixture
def page(browser, server):
    page = browser.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}")
            if r.status >= 400 and not r.url.endswith("/favicon.ico") else None)
    yield page
    page.close()
    assert errors == []
    assert requests and all(url.startswith(server) for url in requests), requests


def _follow_first_result(page, server, query: str, title: str, url: str) -> None:
    """Type `query` into the index page's search, check the first result is `title`, follow it."""
    page.locator("#search").press_sequentially(query)
    first = page.locator("#results li a").first
    first.wait_for()
    assert first.inner_text() == title
    first.click()
    page.wait_for_url(server + url)


def test_search_then_follow_a_result(page, server):
    page.goto(server + "index.html")
    assert page.title() == "Index · Rules glossary"
    assert page.locator("#results li").count() == 0
    _follow_first_result(page, server, "exalt", "Exalted", "terms/exalted.html")
    assert page.locator("h1").inner_text() == "Exalted"
    definition = page.locator('[id="cr2008:glossary.exalted"]')
    assert definition.is_visible()
    assert "Exalted is a triggered ability." in definition.inner_text()
    assert page.locator("link[rel=stylesheet]").evaluate("l => l.sheet.cssRules.length") > 10


def test_hungarian_search_without_accents_and_enter(page, server):
    page.goto(server + "index.html")
    page.locator("#search").fill("varazstargy")
    results = page.locator("#results li")
    results.first.wait_for()
    texts = results.all_inner_texts()[:2]
    assert texts[0].startswith("Artifact alpha 4e 5e ") and texts[0].endswith(" · varázstárgy")  # its eras
    assert texts[1].startswith("Artifact Creature ") and texts[1].endswith(" · eleven varázstárgy")
    page.locator("#search").press("Enter")
    page.wait_for_url(server + "terms/artifact.html")
    assert page.locator("p.hungarian").inner_text() == "Hungarian: varázstárgy"
    page.locator("p.hungarian a").click()
    page.wait_for_url(server + "terms/kartyatipus.html#hu-guide:term.varazstargy")
    assert page.locator("h1").inner_text() == "Kártyatípus"
    assert page.locator('[id="hu-guide:term.varazstargy"]').is_visible()


def test_no_match_and_a_to_z(page, server):
    page.goto(server + "index.html")
    page.locator("#search").fill("zzzz-no-such-term")
    assert page.locator("#results li").inner_text() == "No matching term."
    page.locator("#search").fill("")
    assert page.locator("#results li").count() == 0
    page.locator("nav.az a", has_text="T").first.click()
    page.wait_for_url(server + "index.html#letter-T")
    assert page.locator("#letter-T h2").inner_text() == "T"
    assert page.locator("#letter-T ul.terms li").count() > 10


def test_current_term_rule_page_and_its_history(page, server):
    page.goto(server + "index.html")
    _follow_first_result(page, server, "ward", "Ward", "terms/ward.html")
    current = page.locator("article.definition").first
    assert "in force" in current.locator("h3").inner_text() and "to now" in current.locator("h3").inner_text()
    current.locator("p.see-also a").first.click()  # "See rule 702.21" leads to the rule in force now
    page.wait_for_url(server + "rules/cr-702-21.html#*")
    assert page.locator("h1").inner_text() == "702.21 Ward"
    assert page.locator("section.subrules li").count() >= 1
    assert "Ward" in page.locator("p.cited-by").inner_text()
    page.goto(server + "index.html")
    page.locator("#search").fill("702.83a")
    page.locator("#results li a").first.wait_for()
    assert page.locator("#results li").first.inner_text().startswith(
        "702.83a rule in force now · was 502.83a, 702.80a, 702.81a, 702.82a · Exalted is"
    )
    page.locator("#search").press("Enter")
    page.wait_for_url(server + "rules/cr-702-83a.html")
    history = page.locator("section#history")
    assert history.locator("p.lineage").inner_text() == "502.83a → 702.80a → 702.81a → 702.82a → 702.83a (8 versions)"
    assert history.locator("li.version").count() == 8
    oldest = history.locator("li.version").last
    assert oldest.is_visible() and oldest.locator("p.period").inner_text().startswith("2008-10-01 to 2009-07-10 · 502.83a")
    history.locator("p.same-text a").first.click()
    page.wait_for_url(server + "rules/cr2008-502.html#cr2008:502.83a")
    assert page.locator('[id="cr2008:502.83a"]').is_visible()
