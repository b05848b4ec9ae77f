"""axe-core on a paper's Cite section with every folded format open, in light and dark: a
browser of its own (axe is injected inline, so the page's CSP is bypassed here, and only here)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from browsing import ARGS, CHROMIUM
from test_browser_cite import site, sync_playwright  # noqa: F401 -- the served site

pytestmark = pytest.mark.slow  # the browser tier: Chromium drives the served site (CI, or --slow)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_citation_format_open_has_no_accessibility_violation(site, scheme):
    """axe-core on a paper with its folded formats open (closed, axe would not look at them)."""
    axe = Path(__file__).parent / "node_modules/axe-core/axe.min.js"
    if not axe.exists():
        if os.environ.get("CI"):
            raise RuntimeError("CI must run axe-core: `npm install --prefix tests` (see .ci/run)")
        pytest.skip("no axe-core here: `npm install --prefix tests`")
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True,
            bypass_csp=True, color_scheme=scheme, viewport={"width": 390, "height": 900})  # axe is inline
        tab = context.new_page()
        tab.goto(f"{site.url}papers/longrope/")
        summaries = tab.locator("section.cite details > summary")
        for index in range(summaries.count()):
            summaries.nth(index).click()
        tab.add_script_tag(path=str(axe))
        result = tab.evaluate("axe.run(document.querySelector('section.cite'), {resultTypes: ['violations']})")
        context.close()
    assert [(v["id"], v["nodes"][0]["target"]) for v in result["violations"]] == []

