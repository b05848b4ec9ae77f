"""The pages in a real browser (Chromium, as test_browser_search drives it): the theme switch,
the keyboard order of a paper page."""

from __future__ import annotations

import pytest
from test_browser_search import browser, page, site  # noqa: F401 -- the fixtures, shared

pytestmark = pytest.mark.slow  # the browser tier: Chromium drives the served site (CI, or --slow)


@pytest.mark.parametrize("system, other", [("dark", "light"), ("light", "dark")])
def test_the_theme_switch_names_the_theme_in_effect_and_every_click_shows_the_other(site, page, system, other):
    page.emulate_media(color_scheme=system)
    page.goto(f"{site.url}papers/samba/")
    switch = page.locator("#theme-switch")
    html = page.locator("html")
    assert switch.inner_text() == f"Theme: {system} (system)"
    switch.click()
    assert (switch.inner_text(), html.get_attribute("data-theme")) == (f"Theme: {other}", other)
    page.reload()  # remembered
    assert (switch.inner_text(), html.get_attribute("data-theme")) == (f"Theme: {other}", other)
    switch.click()
    assert (switch.inner_text(), html.get_attribute("data-theme")) == (f"Theme: {system} (system)", None)
    background = page.locator("body").evaluate("body => getComputedStyle(body).backgroundColor")
    page.emulate_media(color_scheme=other)  # following the system again
    assert page.locator("body").evaluate("body => getComputedStyle(body).backgroundColor") != background
    # The page hears of the system's change as an event, which may come a moment after the colours.
    page.wait_for_function("name => document.querySelector('#theme-switch').innerText === name",
                           arg=f"Theme: {other} (system)", timeout=5000)
    assert switch.inner_text() == f"Theme: {other} (system)"


def tab_order(page, stop_text: str, limit: int = 60) -> list[str]:
    """The text of each element Tab reaches, from the top of the page, until `stop_text`."""
    reached = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        text = page.locator(":focus").inner_text().strip()
        reached.append(text)
        if text == stop_text:
            break
    return reached


def test_a_paper_page_tabs_through_title_authors_and_actions_before_the_side_column(site, page):
    page.goto(f"{site.url}papers/samba/")
    reached = tab_order(page, "Themes and tags")  # the side column's second link
    assert reached[-1] == "Themes and tags", reached
    for first in ("Liliang Ren", "arXiv 2406.07522", "Cite"):
        assert reached.index(first) < reached.index("Themes and tags"), reached


def test_removing_from_the_reading_list_keeps_focus_in_the_list(site, page):
    for slug in ("samba", "longrope", "hip"):
        page.goto(f"{site.url}papers/{slug}/")
        page.locator("[data-save-paper]").click()
    page.goto(f"{site.url}reading-list/")
    removes = page.locator("#reading-list button")
    labels = [removes.nth(i).get_attribute("aria-label") for i in range(3)]
    removes.nth(1).click()  # the middle one: focus moves to the next paper's Remove
    assert page.locator(":focus").get_attribute("aria-label") == labels[2]
    assert page.locator("#reading-list-status").inner_text() == labels[1].replace("Remove", "Removed") + "."
    page.locator(":focus").click()  # the last one: focus moves to the one before
    assert page.locator(":focus").get_attribute("aria-label") == labels[0]
    page.locator(":focus").click()  # the list is empty: focus on the message that says so
    assert page.locator(":focus").get_attribute("id") == "reading-list-empty"
