#!/usr/bin/env python3
"""Lighthouse scores of home, a paper, search and the map, served with netlify.toml's headers.

    .venv/bin/python scripts/lighthouse.py [--site site]

Installs lighthouse@12 from npm into .cache/lighthouse the first time; runs Debian's Chromium.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from siteserver import SiteServer  # noqa: E402

TOOL = ROOT / ".cache/lighthouse"
PAGES = [("home", ""), ("paper", "papers/longrope/"), ("search", "search/?q=kv+cache"), ("map", "map/")]
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
FLAGS = ("--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking "
         "--disable-component-update --disable-sync")


def lighthouse() -> Path:
    binary = TOOL / "node_modules/.bin/lighthouse"
    if not binary.exists():
        subprocess.run(["npm", "install", "--prefix", str(TOOL), "--no-audit", "--no-fund",
                        "--loglevel=error", "lighthouse@12"], check=True)
    return binary


def scores(binary: Path, url: str) -> dict[str, int]:
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        subprocess.run([str(binary), url, "--quiet", f"--chrome-flags={FLAGS}",
                        f"--only-categories={','.join(CATEGORIES)}", "--output=json",
                        f"--output-path={report.name}"],
                       check=True, env={**os.environ, "CHROME_PATH": "/usr/bin/chromium"},
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        data = json.loads(Path(report.name).read_text())
    return {name: round(data["categories"][name]["score"] * 100) for name in CATEGORIES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    site = parser.parse_args().site
    binary = lighthouse()
    server = SiteServer(site)
    try:
        print("| page | " + " | ".join(CATEGORIES) + " |\n|---|" + "---|" * len(CATEGORIES))
        for name, path in PAGES:
            result = scores(binary, server.url + path)
            print(f"| {name} | " + " | ".join(str(result[c]) for c in CATEGORIES) + " |", flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
