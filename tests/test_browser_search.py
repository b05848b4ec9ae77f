"""Search in a real browser: headless Chromium (Debian's) driven by Playwright, against the real
catalogue served on 127.0.0.1 under a strict Content-Security-Policy."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from browsing import ARGS, CHROMIUM, require_chromium, site  # noqa: F401 -- the served catalogue
from helpers import FROZEN
from siteserver import SiteServer

from catalogue.config import SiteConfig
from catalogue.pipeline import build_site
from catalogue.report import Report

pytestmark = pytest.mark.slow  # the browser tier: Chromium drives the served site (CI, or --slow)

sync_playwright = require_chromium()



@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True,
            viewport={"width": 1280, "height": 900})
        yield context
        context.close()


@pytest.fixture
def page(browser):
    """A tab that fails the test on any script error or CSP violation."""
    tab = browser.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    tab.on("console", lambda message: problems.append(f"console: {message.text}")
           if message.type == "error" or "Content Security Policy" in message.text else None)
    yield tab
    tab.close()
    assert problems == []


def wait_for_status(page, pattern: str) -> None:
    """Wait through Playwright's selector engine: evaluating strings in the page breaks the CSP."""
    page.locator("#search-status").filter(has_text=re.compile(pattern)).wait_for()


def results(page) -> list[str]:
    wait_for_status(page, r"^\d+ paper")
    page.wait_for_timeout(150)
    return page.locator("#search-results .result-title").all_inner_texts()


@pytest.mark.parametrize("method", ["LongRoPE", "Samba", "FlexPrefill", "ZETA"])
def test_a_method_name_ranks_its_paper_first(site, page, method):
    page.goto(f"{site.url}search/?q={method}")
    assert results(page)[0].startswith(f"{method}:")


def test_slash_opens_search_and_results_appear_as_you_type(site, page):
    page.goto(f"{site.url}papers/samba/")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "header-q"
    page.keyboard.type("flexprefill")
    first = page.locator(".search-panel .result-title").first
    first.wait_for()
    assert first.inner_text().startswith("FlexPrefill:")
    assert page.url.endswith("/papers/samba/")  # without leaving the page
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/search/\?q=flexprefill$"))
    assert results(page)[0].startswith("FlexPrefill:")


def test_control_k_focuses_the_search_box(site, page):
    page.goto(f"{site.url}tags/")
    page.keyboard.press("Control+k")
    assert page.evaluate("document.activeElement.id") == "header-q"


def test_search_code_loads_only_when_search_is_opened(site, page):
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(f"{site.url}papers/longrope/")
    page.wait_for_load_state("networkidle")
    assert not [url for url in fetched if "pagefind" in url or "search-panel" in url]
    page.focus("#header-q")
    page.locator(".search-panel").wait_for(state="attached")
    page.wait_for_load_state("networkidle")
    assert any(url.endswith("/pagefind/pagefind.js") for url in fetched)


def test_a_tag_label_finds_the_tagged_papers(site, page, frozen_catalogue):
    tagged = {p.title for p in frozen_catalogue.papers_with_tag("state-space-models")}
    page.goto(f"{site.url}search/?q=state-space+models")
    found = results(page)
    assert tagged <= set(found)
    assert set(found[:len(tagged)]) == tagged  # tagged papers first


def test_partial_words_match(site, page):
    page.goto(f"{site.url}search/?q=extrapol")
    found = results(page)
    assert len(found) >= 5
    assert any("Extrapolation" in title for title in found)


def test_a_venue_filter_narrows_results_with_the_right_counts(site, page):
    page.goto(f"{site.url}search/?q=kv+cache")
    before = results(page)
    option = page.locator("label", has=page.locator("input[name=venue][value='ICML 2025']"))
    count = int(option.locator(".count").inner_text())
    option.locator("input").check()
    wait_for_status(page, f"^{count} paper")
    after = results(page)
    assert len(after) == count < len(before)
    assert set(after) <= set(before)
    assert all(facts.startswith("ICML 2025") for facts in page.locator("#search-results .result-byline").all_inner_texts())
    assert parse_qs(urlsplit(page.url).query) == {"q": ["kv cache"], "venue": ["ICML 2025"]}


def test_the_presentation_is_a_filter_of_its_own(site, page, frozen_catalogue):
    orals = sorted((p.title for p in frozen_catalogue.papers if p.presentation == "oral"), key=str.casefold)
    page.goto(f"{site.url}search/?presentation=Oral&sort=title")
    wait_for_status(page, "with these filters")
    assert orals and results(page) == orals
    assert page.locator("fieldset.facet legend").all_text_contents()[:2] == ["Venue", "Presentation"]


def test_a_deep_link_restores_query_and_filters(site, page):
    page.goto(f"{site.url}search/?q=kv+cache&venue=ICML+2025")
    first = results(page)
    assert page.input_value("#search-q") == "kv cache"
    assert page.is_checked("input[name=venue][value='ICML 2025']")
    page.reload()
    assert results(page) == first and len(first) >= 2


def test_an_empty_query_browses_every_paper_and_sorts(site, page):
    page.goto(f"{site.url}search/?sort=title")
    titles = results(page)
    assert page.locator("#search-status").inner_text() == "95 papers in the catalogue"
    assert titles == sorted(titles, key=str.casefold)
    page.locator("input[name=theme][value='Long-tailed and long-horizon learning']").check()
    wait_for_status(page, "with these filters")
    assert 3 <= len(results(page)) < 20


def test_following_a_result_highlights_the_terms(site, page):
    page.goto(f"{site.url}search/?q=passkey")
    results(page)
    page.locator("#search-results .result-title").first.click()
    page.wait_for_url(re.compile(r"/papers/[a-z0-9-]+/\?highlight=passkey"))
    page.locator("mark.search-hit").first.wait_for()
    assert "passkey" in page.locator("mark.search-hit").first.inner_text().lower()


def test_a_result_links_its_pdf_and_saves_to_the_reading_list(site, page):
    page.goto(f"{site.url}reading-list/")
    page.evaluate("localStorage.clear()")
    page.goto(f"{site.url}search/?q=samba")
    results(page)
    first = page.locator("#search-results .result").first
    assert first.locator("a.result-pdf").get_attribute("href") == "https://arxiv.org/pdf/2406.07522"
    save = first.locator("button.result-save")
    assert save.get_attribute("aria-pressed") == "false"
    assert save.text_content().startswith("Save Samba: Simple Hybrid")  # the title unseen, for screen readers
    save.click()
    assert save.get_attribute("aria-pressed") == "true" and save.text_content().startswith("Saved ✓ Samba:")
    saved = page.evaluate("JSON.parse(localStorage.getItem('reading-list'))")  # reading-list.js's key and items
    assert saved == [{"slug": "samba", "venue": "ICLR 2025",
                      "title": "Samba: Simple Hybrid State Space Models for Efficient Unlimited Context Language Modeling"}]
    page.goto(f"{site.url}papers/samba/")
    assert page.locator("button[data-save-paper]").get_attribute("aria-pressed") == "true"
    page.goto(f"{site.url}search/?q=samba")
    results(page)
    save = page.locator("#search-results .result").first.locator("button.result-save")
    assert save.get_attribute("aria-pressed") == "true"
    save.click()
    assert page.evaluate("localStorage.getItem('reading-list')") == "[]"


def test_without_javascript_papers_read_and_search_points_to_the_list(browser, site):
    context = browser.browser.new_context(java_script_enabled=False) if browser.browser else None
    if context is None:
        pytest.skip("persistent contexts cannot switch JavaScript off")
    tab = context.new_page()
    tab.goto(f"{site.url}search/")
    assert "Searching needs JavaScript" in tab.locator("main").inner_text()
    assert tab.locator("main a[href='/papers/']").count() == 1
    tab.goto(f"{site.url}papers/longrope/")
    assert tab.locator("h1").inner_text().startswith("LongRoPE")
    context.close()


def test_search_works_under_a_sub_path(tmp_path, page):
    out = tmp_path / "site"  # images are not under test here
    build_site(SiteConfig(out_dir=out, base_url="https://example.org/catalogue/", social_images=False,
                          cache_dir=tmp_path / "cache"), Report())
    server = SiteServer(out, "/catalogue/")
    try:
        page.goto(f"{server.url}search/?q=ZETA")
        assert results(page)[0].startswith("ZETA:")
        href = page.locator("#search-results .result-title").first.get_attribute("href")
        assert href.startswith("/catalogue/papers/zeta/")
        page.locator("#search-results .result-title").first.click()
        page.wait_for_url(re.compile(r"/catalogue/papers/zeta/"))
        assert page.locator("h1").inner_text().startswith("ZETA")
        page.goto("about:blank")  # leave before the server stops: a request still under way would fail
    finally:
        server.stop()


def test_an_alias_redirects_when_served(tmp_path, page):
    content = tmp_path / "content"
    shutil.copytree(FROZEN / "content", content)
    zeta = content / "papers/zeta.md"
    zeta.write_text(zeta.read_text().replace("slug: zeta", "slug: zeta-attention").replace("aliases: []", "aliases: [zeta]"))
    out = tmp_path / "site"
    build_site(SiteConfig(content_dir=content, out_dir=out, search=False, social_images=False,
                          cache_dir=tmp_path / "cache"), Report())
    server = SiteServer(out)
    try:
        page.goto(f"{server.url}papers/zeta/")
        page.wait_for_url(re.compile(r"/papers/zeta-attention/$"))
        assert page.locator("h1").inner_text().startswith("ZETA")
        page.goto("about:blank")  # leave before the server stops: a request still under way would fail
    finally:
        server.stop()


def test_a_paper_page_offers_anchors_citation_and_copy_buttons(site, page):
    page.goto(f"{site.url}papers/longrope/")
    assert page.locator("h2#abstract a.anchor[href='#abstract']").count() == 1
    assert page.locator("h2#cite a.anchor[href='#cite']").count() == 1
    copy = page.locator("button[data-copy='bibtex']")
    copy.wait_for(state="visible")  # shown by copy.js, hidden without JavaScript
    assert page.locator("button[data-copy-link]").is_visible()
    assert "@inproceedings{ding2024longrope," in page.locator("#bibtex").inner_text()
    assert page.locator("a[download='longrope.bib']").get_attribute("href") == "/papers/longrope/cite.bib"


def test_the_reading_list_saves_shows_and_exports(site, page):
    page.goto(f"{site.url}reading-list/")
    page.evaluate("localStorage.clear()")
    for slug in ("samba", "zeta"):
        page.goto(f"{site.url}papers/{slug}/")
        button = page.locator("button[data-save-paper]")
        button.click()
        assert button.get_attribute("aria-pressed") == "true"
    page.goto(f"{site.url}reading-list/")
    items = page.locator("#reading-list li a")
    items.first.wait_for()
    assert [t.split(":")[0] for t in items.all_inner_texts()] == ["Samba", "ZETA"]
    with page.expect_download() as download:
        page.click("#export-bibtex")
    bib = Path(download.value.path()).read_text()
    assert "@inproceedings{ren2025samba," in bib and "@inproceedings{zeng2025zeta," in bib
    with page.expect_download() as download:
        page.click("#export-markdown")
    markdown = Path(download.value.path()).read_text()
    assert f"]({site.url}papers/zeta/) (ICLR 2025)" in markdown
    page.locator("#reading-list button").first.click()
    assert [t.split(":")[0] for t in page.locator("#reading-list li a").all_inner_texts()] == ["ZETA"]


def test_a_curators_notes_are_searched_with_the_paper(small_site, page):
    samba = small_site.content / "papers/samba.md"
    samba.write_text(samba.read_text() + "\n## Notes\n\nA favourite of the Zanzibar reading group.\n")
    build_site(small_site.config(social_images=False), Report())
    server = SiteServer(small_site.site)
    try:
        page.goto(f"{server.url}search/?q=zanzibar")
        page.locator("#search-status[data-done]").wait_for()
        hrefs = [link.get_attribute("href") for link in page.locator("#search-results .result-title").all()]
    finally:
        server.stop()
    assert hrefs == ["/papers/samba/?highlight=zanzibar"]
