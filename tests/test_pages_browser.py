"""The pages in a real browser (Chromium, as test_search_browser drives it): the theme switch,
the keyboard order of a paper page."""

from __future__ import annotations

import pytest
from test_search_browser import browser, page, site  # noqa: F401 -- the fixtures, shared


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
    assert switch.inner_text() == f"Theme: {other} (system)"
