#!/usr/bin/env python3
"""Take the README's screenshots of a built site with headless Chromium.

    .venv/bin/python scripts/screenshots.py [--site site] [--out docs]

Serves the site on 127.0.0.1 for the duration, so Pagefind search works as it does when hosted.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = [("home", "", "light"), ("paper", "papers/longrope/", "light"),
         ("paper-dark", "papers/samba/", "dark"), ("search", "search/?q=kv%20cache", "light"),
         ("map", "map/", "light"), ("map-dark", "map/", "dark"), ("venue", "venues/icml-2024/", "light")]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(site: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--out", type=Path, default=Path("docs"))
    args = parser.parse_args()
    args.out.mkdir(exist_ok=True)
    server = serve(args.site)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1280, "height": 800})
        for name, path, scheme in SHOTS:
            page = browser.new_page()
            page.emulate_media(color_scheme=scheme)
            page.goto(base + path)
            if path.startswith("search"):
                page.wait_for_selector("#search-results .result")
            page.screenshot(path=str(args.out / f"{name}.png"))
            page.close()
        browser.close()
    server.shutdown()
    print(f"Wrote {len(SHOTS)} screenshots to {args.out}/")


if __name__ == "__main__":
    main()
