#!/usr/bin/env python3
"""Time from saving a paper to the browser's reload event, in a real `build.py --watch`.

    .venv/bin/python scripts/bench_watch.py [--sizes real,10000] [--edits 10]

For each catalogue (the real one, and synthetic ones made by scripts/synthetic.py) it starts
watch mode, listens to the live-reload stream like a browser, and saves edits the way editors
do (write a temporary file, rename it over the paper): an abstract edit, a title edit (which
reorders lists) and a retag. Pagefind's refresh is timed separately, after the last edit.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "scripts")]

from helpers import copy_code  # noqa: E402
from synthetic import generate  # noqa: E402
from test_watch import Events, WatchProcess  # noqa: E402  (the same client the tests use)

EDITS = {
    "abstract": lambda text, i: text.replace("\n---\n\n", f"\n---\n\nRevised ({i}). ", 1),
    "title": lambda text, i: re.sub(r"^title: .*$", "title: " + json.dumps(f"Zeta {i}: a retitled paper"),
                                    text, count=1, flags=re.M),
    "tags": lambda text, i: (text.replace("fairness, ", "").replace(", fairness", "") if "fairness" in text
                             else re.sub(r"^tags: \[", "tags: [fairness, ", text, count=1, flags=re.M)),
}


def prepare(size: str, root: Path) -> None:
    if size == "real":  # the real content with its real ledger, as a curator's checkout has them
        shutil.copytree(ROOT / "content", root / "content")
        shutil.copy(ROOT / "published-urls.txt", root / "published-urls.txt")
    else:
        generate(int(size), root / "content")
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copytree(ROOT / "static", root / "static")


def save(path: Path, text: str) -> float:
    """Save as editors do, by atomic rename; return the moment of the rename."""
    temporary = path.with_name(f".{path.name}.swp-save")
    temporary.write_text(text, encoding="utf-8")
    moment = time.perf_counter()
    os.replace(temporary, path)
    return moment


def measure(size: str, edits: int) -> list[dict]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        prepare(size, root)
        papers = sorted((root / "content/papers").glob("*.md"))
        started = time.perf_counter()
        code = copy_code(root / "code")  # its .cache/ is the run's own: read from the checkout's, never written
        if (ROOT / ".cache/social").is_dir():  # images drawn already, as in a curator's checkout
            shutil.copytree(ROOT / ".cache/social", code / ".cache/social")
        server = WatchProcess(root, *([] if size == "real" else ["--no-images"]), code=code, startup_seconds=600)
        events = Events(server.url)
        first_build = time.perf_counter() - started
        events.wait("search", timeout=600)
        if size != "real":  # above 200 papers related papers are computed in the background: let it finish
            while not any(line.startswith("related papers and map") for line in server.lines):
                time.sleep(0.5)
            time.sleep(3)
        rows = []
        try:
            for kind, change in EDITS.items():
                times, written = [], []
                for i in range(edits):
                    path = papers[(i * 7919) % len(papers)]
                    original = path.read_text(encoding="utf-8")
                    lines_before = len(server.lines)
                    moment = save(path, change(original, i))
                    assert events.wait("reload", timeout=60), "no reload event"
                    times.append((time.perf_counter() - moment) * 1000)
                    time.sleep(0.15)
                    written += [int(m.group(1)) for line in server.lines[lines_before:]
                                if (m := re.search(r"(\d+) page\(s\) written", line))]
                    save(path, original)
                    events.wait("reload", timeout=60)
                    time.sleep(0.15)
                rows.append({"size": size, "papers": len(papers), "edit": kind,
                             "median": statistics.median(times), "max": max(times),
                             "pages": statistics.median(written) if written else 0,
                             "first": first_build})
            moment = save(papers[0], EDITS["abstract"](papers[0].read_text(encoding="utf-8"), 99))
            events.wait("reload", timeout=60)
            assert events.wait("search", timeout=600), "no search refresh"
            search_after = time.perf_counter() - moment
            pagefind = [float(m.group(1)) for line in server.lines
                        if (m := re.match(r"search index refreshed in ([\d.]+) s", line))][-1]
            for row in rows:
                row.update(search_after=search_after, pagefind=pagefind)
        finally:
            events.close()
            server.stop()
        return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="real,10000")
    parser.add_argument("--edits", type=int, default=10)
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}\n")
    print("| catalogue | edit | save → reload, median | max | pages rewritten | search refreshed after (Pagefind alone) | watch start-up |")
    print("|---|---|---|---|---|---|---|")
    for size in args.sizes.split(","):
        for row in measure(size, args.edits):
            print(f"| {row['papers']:,} papers | {row['edit']} | {row['median']:.0f} ms | {row['max']:.0f} ms | "
                  f"{row['pages']:.0f} | {row['search_after']:.1f} s ({row['pagefind']:.1f} s) | {row['first']:.1f} s |",
                  flush=True)


if __name__ == "__main__":
    main()
