#!/usr/bin/env python3
"""What a reader downloads, gzip-compressed as Netlify serves it: a paper page, then a search.

    .venv/bin/python scripts/search_weight.py [--site site] [--paper longrope]

Serves the built site on 127.0.0.1, opens it in headless Chromium, records every response,
and sums each file's gzip size (level 6, as web servers use). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402
from siteserver import SiteServer  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def gzip_size(site: Path, url: str) -> int:
    path = urlsplit(url).path
    file = site / path.lstrip("/")
    if path.endswith("/"):
        file = file / "index.html"
    if not file.is_file():
        return 0
    if file.suffix == ".pagefind" or file.suffix.startswith(".pf_"):
        return file.stat().st_size  # Pagefind writes these already gzip-compressed
    return len(gzip.compress(file.read_bytes(), 6))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--paper", default="longrope", help="the slug of the paper page to open first")
    args = parser.parse_args()
    site = args.site
    server = SiteServer(site)
    steps = []
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", args=ARGS, headless=True)
        page = browser.new_page()
        fetched: list[str] = []
        page.on("response", lambda response: fetched.append(response.url))

        def step(name: str, action) -> None:
            start = len(fetched)
            action()
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)
            urls = list(dict.fromkeys(fetched[start:]))
            steps.append((name, len(urls), sum(gzip_size(site, url) for url in urls)))

        step("open a paper page", lambda: page.goto(server.url + f"papers/{args.paper}/"))
        step("type `kv cache` in the header box", lambda: (page.focus("#header-q"), page.keyboard.type("kv cache"),
                                                            page.locator(".search-panel .result").first.wait_for()))
        step("a second query, `samba`", lambda: (page.fill("#header-q", "samba"),
                                                  page.locator(".search-panel .result").first.wait_for()))
        step("open /search/ with facets", lambda: (page.goto(server.url + "search/?q=kv+cache"),
                                                   page.locator("#search-results .result").first.wait_for()))
        browser.close()
    server.stop()
    print("| step | files fetched | bytes (gzip) |\n|---|---|---|")
    for name, count, size in steps:
        print(f"| {name} | {count} | {size / 1024:.1f} KB |")


if __name__ == "__main__":
    main()
