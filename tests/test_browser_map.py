"""The topic map in headless Chromium on a 390 px touch screen and at 1280 px: no sideways
scrolling, a tap or a focus shows the paper in the preview box, finger-sized targets, labels
upright on the turned map, and plain links without JavaScript. The frozen catalogue, served under
the site's Content-Security-Policy."""

from __future__ import annotations

import re

import pytest
from browsing import ARGS, CHROMIUM, require_chromium, site  # noqa: F401 -- the served catalogue

pytestmark = pytest.mark.slow  # the browser tier: Chromium drives the served site (CI, or --slow)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True}

sync_playwright = require_chromium()



@pytest.fixture(scope="module")
def chromium():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def open_page(chromium):
    """A tab of a new context with `options`, failing the test on a script error or a CSP report."""
    contexts, problems = [], []

    def opened(url: str, **options):
        context = chromium.new_context(**options)
        contexts.append(context)
        tab = context.new_page()
        tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
        tab.on("console", lambda message: problems.append(f"console: {message.text}")
               if message.type == "error" or "Content Security Policy" in message.text else None)
        tab.goto(url)
        return tab

    yield opened
    for context in contexts:
        context.close()
    assert problems == []


def tap_centre(page, dot) -> None:
    dot.scroll_into_view_if_needed()
    box = dot.locator("path").bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def no_sideways_scrolling(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("document.documentElement.clientWidth")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["map/", ""])
def test_the_map_and_home_fit_a_phone(site, open_page, path, scheme):
    page = open_page(site.url + path, color_scheme=scheme, **PHONE)
    no_sideways_scrolling(page)
    svg = page.locator(".map-svg").first.bounding_box()
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= 390


def test_a_tap_shows_the_paper_in_the_preview_box_and_a_second_tap_opens_it(site, open_page):
    page = open_page(site.url + "map/", **PHONE)
    preview = page.locator("#map-preview")
    assert preview.is_visible() and "tap" in preview.inner_text()
    dot = page.locator(".map-svg a").nth(7)
    title, href = dot.get_attribute("aria-label"), dot.get_attribute("href")
    tap_centre(page, dot)  # where dots overlap, the nearest centre wins
    assert page.url == site.url + "map/"
    assert preview.locator("a").inner_text() == title
    assert preview.locator("a").get_attribute("href") == href
    assert re.search(r"(ICLR|ICML) 20\d\d", preview.inner_text())
    tap_centre(page, dot)
    page.wait_for_url(re.compile(re.escape(href) + "$"))


def test_a_phones_targets_are_finger_sized_and_its_dots_visible(site, open_page):
    page = open_page(site.url + "map/", **PHONE)
    for index in (0, 40):
        dot = page.locator(".map-svg a").nth(index)
        target, mark = dot.locator(".map-hit").bounding_box(), dot.locator("path").bounding_box()
        assert min(target["width"], target["height"]) >= 24
        assert min(mark["width"], mark["height"]) >= 8


def test_a_turned_map_shows_the_upright_labels(site, open_page):
    page = open_page(site.url + "map/", **PHONE)
    assert page.locator(".map-labels-wide").is_hidden()
    label = page.locator(".map-labels-narrow text").first
    box = label.bounding_box()
    assert box["width"] > box["height"]  # upright: a line is wider than it is tall
    assert 0 <= box["x"] and box["x"] + box["width"] <= 390


def test_focus_from_the_keyboard_shows_the_title(site, open_page):
    page = open_page(site.url + "map/", viewport={"width": 1280, "height": 900})
    dots = page.locator(".map-svg a")
    title, href = dots.nth(1).get_attribute("aria-label"), dots.nth(1).get_attribute("href")
    dots.nth(0).focus()
    page.keyboard.press("Tab")
    assert page.locator("#map-preview a").inner_text() == title
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(href) + "$"))


def test_pointing_with_a_mouse_previews_and_a_click_opens(site, open_page):
    page = open_page(site.url + "map/", viewport={"width": 1280, "height": 900})
    dot = page.locator(".map-svg a").nth(12)
    dot.locator("path").hover()
    assert page.locator("#map-preview a").inner_text() == dot.get_attribute("aria-label")
    assert 5 <= page.locator(".map-labels-wide text").count() <= 9  # a theme with no room near its dots: the legend's


def test_without_javascript_the_dots_are_links_with_titles(site, open_page):
    page = open_page(site.url + "map/", java_script_enabled=False, **PHONE)
    assert page.locator("#map-preview").is_hidden()
    dot = page.locator(".map-svg a").first
    assert dot.locator("title").text_content().startswith(dot.get_attribute("aria-label"))
    dot.locator("path").tap()
    page.wait_for_url(re.compile("/papers/"))


def test_the_home_pages_map_has_a_legend_of_shapes_and_names(site, open_page):
    page = open_page(site.url, **PHONE)
    entries = page.locator(".home-map .map-legend li")
    assert entries.count() >= 8
    first = entries.first
    assert first.locator("svg.map-swatch path").count() == 1 and first.inner_text().strip()
    assert first.is_visible()
