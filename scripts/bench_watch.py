#!/usr/bin/env python3
"""What a curator waits for: watch mode, `check` and a build after an edit, beside `hugo server`.

    .venv/bin/python scripts/bench_watch.py [--sizes real,10000] [--edits 10] [--code DIR]

Each row is a whole process, started as the README says, on a copy of the code (so its
`.cache/` is the copy's) and a copy of the catalogue: the real one with its ledger, or a
synthetic one of N papers (scripts/synthetic.py, built with `--no-images`).

- watch start-up, cold (no saved state), until a paper page is served, beside a clean
  `build.py --no-search` of the same papers (watch mode serves before search is made);
- watch start-up again with nothing changed, and after 50 papers changed while it was not
  running (a `git pull`), until the changed page shows the change;
- save → reload for an abstract, a title and a tags edit (the median of `--edits`), with the
  edited paper's page open as a browser opens it; edits are saved as editors save them (a
  temporary file renamed over the paper), each once the last one's rebuild has ended (its log
  line), as a curator's next save finds it;
- search caught up: from a save to the search index's refresh;
- `build.py check` after one edit, a first check having left its state;
- `build.py` (with search) after one abstract edit, a first build having left its state;
- `hugo server` on the same papers as a Hugo site (scripts/benchmark.py's templates): its
  start-up until a paper page is served, and a title edit until the page shows it.

`--code DIR` measures another checkout (its `build.py`, package, templates and static files),
so that the same script gives the before and the after. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "scripts")]

from benchmark import hugo_binary, hugo_site  # noqa: E402
from helpers import copy_code  # noqa: E402
from synthetic import generate  # noqa: E402
from test_serve_watch import Events, WatchProcess  # noqa: E402  (the same client the tests use)

PULLED = 50  # papers changed while watch mode was not running
EDITS = {
    "abstract": lambda text, i: text.replace("\n---\n\n", f"\n---\n\nRevised ({i}). ", 1),
    "title": lambda text, i: re.sub(r"^title: .*$", "title: " + json.dumps(f"Zeta {i}: a retitled paper"),
                                    text, count=1, flags=re.M),
    "tags": lambda text, i: (text.replace("fairness, ", "").replace(", fairness", "") if "fairness" in text
                             else re.sub(r"^tags: \[", "tags: [fairness, ", text, count=1, flags=re.M)),
}
SHOWN = {"abstract": lambda i: f"Revised ({i})", "title": lambda i: f"Zeta {i}: a retitled paper",
         "tags": lambda i: None}


def prepare(size: str, root: Path, source: Path) -> None:
    """The catalogue to measure on, with the templates and static files of the code measured."""
    if size == "real":  # the real content with its real ledger, as a curator's checkout has them
        shutil.copytree(ROOT / "content", root / "content")
        shutil.copy(ROOT / "published-urls.txt", root / "published-urls.txt")
    else:
        generate(int(size), root / "content")
    shutil.copytree(source / "templates", root / "templates")
    shutil.copytree(source / "static", root / "static")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def save(path: Path, text: str) -> float:
    """Save as editors do, by atomic rename; return the moment of the rename."""
    temporary = path.with_name(f".{path.name}.swp-save")
    temporary.write_text(text, encoding="utf-8")
    moment = time.perf_counter()
    os.replace(temporary, path)
    return moment


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""
    except (OSError, http.client.HTTPException):  # not up yet, or a page cut short while it is rewritten
        return 0, ""


def wait_for(url: str, text: str | None = None, timeout: float = 900, pause: float = 0.005) -> float:
    """The moment `url` answers 200 (with `text` in it, if given)."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        status, body = fetch(url)
        if status == 200 and (text is None or text in body):
            return time.perf_counter()
        time.sleep(pause)
    raise AssertionError(f"{url} never showed {text!r}")


class Watch:
    """Our watch mode on the project in `root`, from the code in `code`, on a fixed port (the
    address is part of what a saved state is for)."""

    def __init__(self, root: Path, code: Path, port: int, extra: tuple[str, ...]):
        self.root, self.code, self.port, self.extra = root, code, port, extra

    def start(self, page: str, shows: str | None = None) -> tuple[WatchProcess, float]:
        """Start, and return the process with the seconds until `page` is served (showing `shows`)."""
        started = time.perf_counter()
        process = WatchProcess(self.root, *self.extra, code=self.code, startup_seconds=900, port=self.port)
        served = wait_for(process.url + page.lstrip("/"), shows)
        return process, served - started


def cli(code: Path, root: Path, *options: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, str(code / "build.py"), *options, "--content", str(root / "content"),
                    "--templates", str(root / "templates"), "--static", str(root / "static")],
                   check=True, capture_output=True, text=True)
    return time.perf_counter() - started


def check(code: Path, root: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, str(code / "build.py"), "check", "--content", str(root / "content"),
                    "--templates", str(root / "templates"), "--static", str(root / "static")],
                   capture_output=True, text=True)  # warnings and notes are expected: the time is the point
    return time.perf_counter() - started


def slug_of(path: Path) -> str:
    return re.search(r"^slug: *(\S+)", path.read_text(encoding="utf-8"), re.M).group(1)


def measure_watch(root: Path, code: Path, size: str, edits: int) -> dict:
    papers = sorted((root / "content/papers").glob("*.md"))
    extra = () if size == "real" else ("--no-images",)
    watch = Watch(root, code, free_port(), extra)
    first = papers[len(papers) // 2]
    row: dict = {}
    process, row["cold"] = watch.start(f"/papers/{slug_of(first)}/")
    try:
        events = Events(process.url)
        events.wait("search", timeout=900)
        settle(process, size)
        events.close()
        row.update(measure_edits(process, papers, edits))
    finally:
        process.stop()
    process, row["restart"] = watch.start(f"/papers/{slug_of(first)}/")
    process.stop()
    pulled = [papers[(i * 7919) % len(papers)] for i in range(PULLED)]
    for path in pulled:
        path.write_text(EDITS["abstract"](path.read_text(encoding="utf-8"), 1000), encoding="utf-8")
    process, row["pulled"] = watch.start(f"/papers/{slug_of(pulled[-1])}/", SHOWN["abstract"](1000))
    process.stop()
    return row


def settle(process: WatchProcess, size: str) -> None:
    """Wait for the background work of the first start: code before issue 24 worked related
    papers out after its first build (above 200 papers), and rebuilt; since, the first build
    works them out itself (its log line says `start:`)."""
    afterwards = not any("(start:" in line for line in process.lines)
    if afterwards and size != "real" and int(size) > 200:
        deadline = time.perf_counter() + 600
        while not any(line.startswith("related papers and map") for line in process.lines):
            assert time.perf_counter() < deadline, "\n".join(process.lines[-20:])
            time.sleep(0.5)
    time.sleep(3)


def measure_edits(process: WatchProcess, papers: list[Path], edits: int) -> dict:
    """Save → reload for each kind of edit, with the edited paper's page open; then how long
    search takes to catch up with one more edit."""
    row: dict = {}
    for kind, change in EDITS.items():
        times = []
        for i in range(edits):
            path = papers[(i * 7919 + 13) % len(papers)]
            page = f"/papers/{slug_of(path)}/"
            events = Events(process.url, page)
            original = path.read_text(encoding="utf-8")
            before = process.rebuilds()
            moment = save(path, change(original, i))
            assert events.wait("reload", timeout=60, mine=True), f"no reload after a {kind} edit"
            times.append((time.perf_counter() - moment) * 1000)
            if SHOWN[kind](i):
                assert SHOWN[kind](i) in fetch(process.url + page.lstrip("/"))[1], f"{page} does not show the {kind} edit"
            assert process.settled(before, "", timeout=120)  # its whole rebuild, as a curator's next save finds it
            before = process.rebuilds()
            save(path, original)
            events.wait("reload", timeout=60, mine=True)
            assert process.settled(before, "", timeout=120)
            events.close()
            time.sleep(0.1)
        row[kind] = statistics.median(times)
    events = Events(process.url)
    time.sleep(2)  # any search refresh still running after the edits above ends
    while events.wait("search", timeout=3):
        pass
    moment = save(papers[0], EDITS["abstract"](papers[0].read_text(encoding="utf-8"), 99))
    assert events.wait("search", timeout=900), "no search refresh"
    row["search"] = time.perf_counter() - moment
    events.close()
    return row


def measure_hugo(root: Path, edits: int) -> dict:
    """`hugo server` on the same papers: start-up until a paper page is served, then title edits
    until the page shows them (Hugo's live reload follows its write)."""
    site = root / "hugo"
    hugo_site(root / "content", site)
    papers = sorted((site / "content/papers").glob("*.md"))
    papers = [p for p in papers if p.name != "_index.md"]
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen([str(hugo_binary()), "server", "--source", str(site), "--port", str(port),
                                "--bind", "127.0.0.1", "--cacheDir", str(site / ".hugo-cache")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/papers/"
    try:
        slug = lambda path: json.loads(path.read_text(encoding="utf-8").split("---\n")[1])["slug"]  # noqa: E731
        row = {"hugo_start": wait_for(base + slug(papers[len(papers) // 2]) + "/") - started}
        times = []
        for i in range(edits):
            path = papers[(i * 7919 + 13) % len(papers)]
            original = path.read_text(encoding="utf-8")
            front = json.loads(original.split("---\n")[1])
            edited = original.replace(json.dumps(front["title"], ensure_ascii=False)[1:-1], f"Zeta {i}: a retitled paper", 1)
            moment = save(path, edited)
            times.append((wait_for(base + front["slug"] + "/", f"Zeta {i}: a retitled paper", 60, 0.002) - moment) * 1000)
            save(path, original)
            time.sleep(1)
        row["hugo_edit"] = statistics.median(times)
        return row
    finally:
        process.terminate()
        process.wait()


def measure(size: str, edits: int, source: Path) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        prepare(size, root, source)
        extra = () if size == "real" else ("--no-images",)
        clean_code = copy_code(root / "clean-code", source)
        row = {"size": size, "papers": len(list((root / "content/papers").glob("*.md")))}
        row["clean"] = cli(clean_code, root, "--no-search", "--fresh", "--out", str(root / "clean"), *extra)
        shutil.rmtree(root / "clean")
        code = copy_code(root / "code", source)
        if size == "real" and (ROOT / ".cache/social").is_dir():  # images drawn already, as in a curator's checkout
            shutil.copytree(ROOT / ".cache/social", code / ".cache/social")
        row.update(measure_watch(root, code, size, edits))
        check(code, root)
        edited = sorted((root / "content/papers").glob("*.md"))[7]
        edited.write_text(EDITS["abstract"](edited.read_text(encoding="utf-8"), 2000), encoding="utf-8")
        row["check"] = check(code, root)
        cli(code, root, "--out", str(root / "site"), *extra)
        edited.write_text(EDITS["abstract"](edited.read_text(encoding="utf-8"), 2001), encoding="utf-8")
        row["build_edit"] = cli(code, root, "--out", str(root / "site"), *extra)
        if size != "real":
            row.update(measure_hugo(root, min(edits, 5)))
        return row


def tables(rows: list[dict]) -> str:
    lines = ["| catalogue | watch cold start-up | ÷ clean CLI build (no search) | restart, nothing changed "
             "| ÷ `hugo server` start-up | after 50 papers changed | `check` after one edit "
             "| build after one abstract edit |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        hugo = f"{r['restart'] / r['hugo_start']:.2f} ({r['hugo_start']:.1f} s)" if "hugo_start" in r else "–"
        lines.append(f"| {r['papers']:,} papers | {r['cold']:.1f} s | {r['cold'] / r['clean']:.2f} ({r['clean']:.1f} s) "
                     f"| {r['restart']:.2f} s | {hugo} | {r['pulled']:.2f} s | {r['check']:.1f} s | {r['build_edit']:.1f} s |")
    lines += ["", "| catalogue | save → reload: abstract | title | tags | `hugo server`, title edit → page shows it "
              "| search caught up after an edit |", "|---|---|---|---|---|---|"]
    for r in rows:
        hugo = f"{r['hugo_edit']:.0f} ms" if "hugo_edit" in r else "–"
        lines.append(f"| {r['papers']:,} papers | {r['abstract']:.0f} ms | {r['title']:.0f} ms | {r['tags']:.0f} ms "
                     f"| {hugo} | {r['search']:.1f} s |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="real,10000")
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    args = parser.parse_args()
    rows = []
    for size in args.sizes.split(","):
        rows.append(measure(size, args.edits, args.code))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d')}, "
          f"code: {args.code}\n")
    print(tables(rows))


if __name__ == "__main__":
    main()
