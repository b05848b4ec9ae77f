"""Citations in a real browser (Debian's Chromium through Playwright, the frozen catalogue served
under the site's Content-Security-Policy): the cite blocks wrap on a phone and a desktop, each
format copies, and the reading list exports what reference managers read."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import jsonschema
import pytest
import rispy
from browsing import ARGS, CHROMIUM, require_chromium, site  # noqa: F401 -- the served catalogue

pytestmark = pytest.mark.slow  # the browser tier: Chromium drives the served site (CI, or --slow)

SCHEMA = json.loads((Path(__file__).parent / "schemas/csl-data.json").read_text(encoding="utf-8"))

sync_playwright = require_chromium()



@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True,
            viewport={"width": 1280, "height": 900})
        context.grant_permissions(["clipboard-read", "clipboard-write"])
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


# Papers with long author lists, long URLs and a long cite key (the widest blocks there are).
WIDE = ("longrope", "artificial-needles-real-haystacks-improving-retrieval", "samba")


@pytest.mark.parametrize("width", [390, 1280])
def test_no_cite_block_scrolls_sideways(site, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    for slug in WIDE:
        page.goto(f"{site.url}papers/{slug}/")
        summaries = page.locator("section.cite details > summary")
        for index in range(summaries.count()):
            summaries.nth(index).click()  # open the reference
        blocks = page.locator("section.cite .cite-block")
        assert blocks.count() == 2  # BibTeX and the reference; RIS and CSL-JSON are files
        for index in range(blocks.count()):
            block = blocks.nth(index)
            assert block.is_visible()
            sizes = block.evaluate("element => [element.scrollWidth, element.clientWidth]")
            assert sizes[0] <= sizes[1], (slug, index, sizes)
        assert page.locator("section.cite").evaluate("element => element.scrollWidth <= element.clientWidth")


def test_bibtex_shows_first_the_other_formats_copy_from_their_files(site, page):
    """RIS and CSL-JSON repeat the abstract: the page carries them as files, and copies them."""
    page.goto(f"{site.url}papers/samba/")
    assert page.locator("#bibtex").is_visible()
    assert page.locator("section.cite summary").all_inner_texts() == ["ACM Reference Format"]
    assert page.locator(".cite-file-name").all_inner_texts() == [
        "RIS for EndNote, Zotero, Mendeley", "CSL-JSON for Zotero, Pandoc, citeproc"]
    assert "Efficiently modeling" not in page.locator("section.cite").inner_text()
    page.locator("button[data-copy-from$='cite.ris']").click()
    page.locator("button[data-copy-from$='cite.ris']", has_text="Copied").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert rispy.loads(copied)[0]["id"] == "ren2025samba"
    page.locator("button[data-copy-from$='cite.json']").click()
    page.locator("button[data-copy-from$='cite.json']", has_text="Copied").wait_for()
    copied = page.evaluate("navigator.clipboard.readText()")
    jsonschema.validate(json.loads(copied), SCHEMA)
    page.locator("summary", has_text="ACM").click()
    page.locator("button[data-copy='reference']").click()
    page.locator("button[data-copy='reference']", has_text="Copied").wait_for()  # the write is asynchronous
    assert page.evaluate("navigator.clipboard.readText()").startswith("Liliang Ren, Yang Liu, ")
    for extension in ("bib", "ris", "json"):
        link = page.locator(f"a[download='samba.{extension}']")
        assert link.get_attribute("href") == f"/papers/samba/cite.{extension}"


def test_the_reading_list_exports_ris_and_csl_json(site, page):
    page.goto(f"{site.url}reading-list/")
    page.evaluate("localStorage.clear()")
    for slug in ("samba", "longrope"):
        page.goto(f"{site.url}papers/{slug}/")
        page.locator("button[data-save-paper]").click()
    page.goto(f"{site.url}reading-list/")
    page.locator("#reading-list li a").first.wait_for()
    with page.expect_download() as download:
        page.click("#export-ris")
    assert download.value.suggested_filename == "reading-list.ris"
    records = rispy.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert [r["id"] for r in records] == ["ren2025samba", "ding2024longrope"]
    with page.expect_download() as download:
        page.click("#export-csl-json")
    assert download.value.suggested_filename == "reading-list.json"
    items = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    jsonschema.validate(items, SCHEMA)
    assert [item["id"] for item in items] == ["ren2025samba", "ding2024longrope"]
