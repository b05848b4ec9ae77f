"""Valid HTML (the Nu Html Checker) on every page, and no axe-core accessibility violations on
each kind of page in light and dark, on the frozen catalogue."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from siteserver import SiteServer

pytestmark = pytest.mark.slow  # the browser tier: Chromium drives the served site (CI, or --slow)

TOOLS = Path(__file__).parent / "node_modules"
VNU = TOOLS / "vnu-jar/build/dist/vnu.jar"
AXE = TOOLS / "axe-core/axe.min.js"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PAGES = ["", "papers/longrope/", "tags/kv-cache/", "venues/iclr-2025/", "themes/context-extension/",
         "authors/yiran-ding/", "search/?q=kv+cache", "papers/", "authors/", "reading-list/", "map/", "about/", "changes/",
         "venues/"]


def require(*paths: Path) -> None:
    missing = [str(p) for p in paths if not p.exists()]
    if missing and os.environ.get("CI"):
        raise RuntimeError(f"CI must run these checks; missing {missing} (see .ci/run)")
    if missing:
        pytest.skip(f"missing {missing}: `npm install --prefix tests`, `apt-get install chromium`")


@pytest.fixture
def site(frozen_site) -> Path:
    """The session's one build of the frozen catalogue (conftest): only read here."""
    return frozen_site


def test_every_page_is_valid_html(site):
    require(VNU)
    pages = sorted(str(p) for p in site.rglob("*.html") if "pagefind" not in p.parts)
    done = subprocess.run(["java", "-jar", str(VNU), "--errors-only", "--format", "json", *pages],
                          capture_output=True, text=True)
    messages = json.loads(done.stderr or '{"messages": []}')["messages"]
    assert [f"{m.get('url', '')}:{m.get('lastLine')}: {m['message']}" for m in messages] == []
    assert len(pages) > 500


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_accessibility_violations(site, scheme):
    require(AXE, CHROMIUM)
    from playwright.sync_api import sync_playwright
    server = SiteServer(site)
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
            browser = playwright.chromium.launch_persistent_context(
                profile, executable_path=str(CHROMIUM), args=ARGS, headless=True,
                bypass_csp=True, color_scheme=scheme)  # axe is injected as an inline script
            page = browser.new_page()
            found = {}
            for path in PAGES:
                page.goto(server.url + path)
                if path.startswith("search"):
                    page.locator("#search-results .result").first.wait_for()
                page.add_script_tag(path=str(AXE))
                result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
                found.update({f"/{path} {v['id']}: {v['nodes'][0]['target']}": v["help"]
                              for v in result["violations"]})
            browser.close()
    finally:
        server.stop()
    assert found == {}
