"""What the browser tests share: Debian's Chromium, the flags it runs with headless, and the
rule that CI must have it (a browser test skipped in CI would count for nothing)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from siteserver import SiteServer

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def require_chromium():
    """Playwright's `sync_playwright`; skips the module here without Chromium, fails it in CI."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            raise RuntimeError("CI must run the browser tests: install Debian's chromium (see .ci/run)")
        pytest.skip("no /usr/bin/chromium here (apt-get install chromium)", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api").sync_playwright


@pytest.fixture(scope="module")
def site(frozen_site):
    """The session's one build of the frozen catalogue (conftest), served: only read here."""
    server = SiteServer(frozen_site)
    yield server
    server.stop()
