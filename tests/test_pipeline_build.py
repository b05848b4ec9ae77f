"""A whole build of a small site: its pages, the command line, failures that leave the last good
site whole, and the same bytes however the site is built."""

import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import paper
from helpers import build_py, tree
from linkcheck import broken_links

from catalogue.config import PROJECT_ROOT
from catalogue.pipeline import build_site
from catalogue.report import ContentError, Report


@pytest.fixture
def built(small_built):
    """The session's small site, built with search and images: only read."""
    return small_built.project, small_built.result


@pytest.fixture
def built_copy(small_built_copy):
    """A copy of it of this test's own, for the builds that must fail and leave it whole."""
    return small_built_copy.project, small_built_copy.result


def test_every_page_is_written_with_pretty_urls(built):
    site, result = built
    expected = ["index.html", "404.html", "papers/index.html", "papers/samba/index.html",
                "papers/rocketkv/index.html", "papers/icv/index.html", "tags/index.html",
                "tags/kv-cache/index.html", "venues/index.html", "venues/iclr-2025/index.html",
                "venues/icml-2024/index.html", "themes/index.html", "themes/architectures/index.html",
                "search/index.html", "static/style.css"]
    for name in expected:
        assert (site.site / name).is_file(), name
    assert result.papers == 3
    assert result.pages == len([p for p in site.site.rglob("*.html") if "pagefind" not in p.parts])


def test_paper_page_shows_facts_math_and_links(built):
    html = (built[0].site / "papers/samba/index.html").read_text()
    assert "Samba: Simple Hybrid State Space Models" in html
    assert '<a href="/authors/ada-lovelace/">Ada Lovelace</a>, <a href="/authors/alan-turing/">Alan Turing</a>' in html
    assert 'href="https://arxiv.org/abs/2406.07522"' in html and 'href="https://github.com/example/samba"' in html
    assert html.count("<math") == 2 and "$" not in html
    assert 'href="/tags/state-space-models/"' in html and 'href="/themes/architectures/"' in html
    assert 'rel="next"' not in html  # the only ICLR 2025 paper has no neighbours


def test_previous_and_next_stay_within_the_venue(built):
    html = (built[0].site / "papers/icv/index.html").read_text()
    assert 'href="/papers/rocketkv/" rel="next"' in html and 'rel="prev"' not in html


def test_theme_page_groups_papers_by_tag(built):
    html = (built[0].site / "themes/efficient-inference/index.html").read_text()
    kv, sparse = html.index('id="kv-cache"'), html.index('id="sparse-attention"')
    assert kv < html.index("In-context Vectors", kv) < sparse
    assert "RocketKV" in html[sparse:]


def test_navigation_counts_papers_in_one_stylesheet(built):
    html = (built[0].site / "papers/samba/index.html").read_text()
    assert '<li><a href="/venues/icml-2024/">ICML 2024</a></li>' in html  # its count comes from counts.css
    assert 'href="/counts.css"' in html
    css = (built[0].site / "counts.css").read_text()
    assert '.site-nav li:has(> a[href="/venues/icml-2024/"])::after { content: "2"; }' in css
    assert '.site-nav li:has(> a[href="/themes/efficient-inference/"])::after { content: "3"; }' in css
    assert ".c-tag-" not in css  # the navigation names no tag: the tag index counts its own
    views = re.compile(r'<link rel="stylesheet" href="/assets/views\.[0-9a-f]{10}\.css">')  # the map's styles
    assert not views.search(html) and views.search((built[0].site / "map/index.html").read_text())
    home = (built[0].site / "index.html").read_text()
    assert '<a href="/venues/icml-2024/">ICML 2024</a> <span class="count">2 papers</span>' in home


def test_pagefind_indexes_paper_content_with_filters(built):
    site = built[0].site
    assert (site / "pagefind/pagefind.js").is_file()
    assert list((site / "pagefind/filter").glob("*.pf_filter"))
    html = (site / "papers/samba/index.html").read_text()
    assert "data-pagefind-body" in html
    for name in ("venue", "theme", "tag"):
        assert f'data-pagefind-filter="{name}"' in html
    assert "data-pagefind-body" not in (site / "tags/kv-cache/index.html").read_text()


def test_search_page_loads_the_pagefind_ui(built):
    html = (built[0].site / "search/index.html").read_text()
    assert '<script type="module" src="/static/search-page.js"></script>' in html
    assert "<noscript>" in html and 'href="/papers/"' in html


def test_a_stylesheet_is_served_without_its_comments_under_the_digest_of_what_is_served(built):
    import hashlib
    site = built[0].site
    for source in (PROJECT_ROOT / "static/style.css", PROJECT_ROOT / "static/views.css"):
        [served] = (site / "assets").glob(f"{source.stem}.*.css")
        css = served.read_text()
        assert "/*" not in css and "\n\n" not in css and css.count("{") == source.read_text().count("{")
        assert served.name == f"{source.stem}.{hashlib.sha256(served.read_bytes()).hexdigest()[:10]}.css"


def test_sub_path_base_url_prefixes_every_link(small_site):
    build_site(small_site.config(base_url="https://example.org/catalogue/", search=False, social_images=False),
               Report())
    html = (small_site.site / "papers/samba/index.html").read_text()
    assert re.search(r'href="/catalogue/assets/style\.[0-9a-f]{10}\.css"', html)
    assert '<link rel="canonical" href="https://example.org/catalogue/papers/samba/">' in html
    assert broken_links(small_site.site, "/catalogue/") == []


def test_invalid_content_leaves_the_previous_site_whole(built_copy):
    site, _ = built_copy
    before = tree(site.site, mtimes=True)
    site.write("content/papers/bad.md", paper("bad", "Bad", tags="[no-such-tag]"))
    with pytest.raises(ContentError, match="bad.md:6: unknown tag `no-such-tag`"):
        build_site(site.config(), Report())
    assert tree(site.site, mtimes=True) == before
    assert [p.name for p in site.root.iterdir() if p.name.startswith(".build-")] == []


def test_cli_builds_and_prints_one_summary_line(small_site, code):
    done = build_py(code, "--content", str(small_site.content), "--out", str(small_site.site), "--no-search")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Built 27 pages (3 papers; 78 files with feeds, citations and images) into ")


def test_cli_fresh_builds_from_scratch_and_no_index_keeps_search_engines_away(small_site, code):
    """As docs/speed.md and docs/cli.md run them: a second build links the unchanged files of the
    first (the same inode); `--fresh` writes every file anew, the same bytes; `--no-index` asks
    search engines to stay away from every page."""
    args = ("--content", str(small_site.content), "--out", str(small_site.site), "--no-images", "--no-search")
    page = small_site.site / "papers" / "samba" / "index.html"
    assert build_py(code, *args).returncode == 0
    first = (page.stat().st_ino, page.read_bytes())
    assert build_py(code, *args).returncode == 0
    assert page.stat().st_ino == first[0]
    assert build_py(code, *args, "--fresh").returncode == 0
    assert page.stat().st_ino != first[0] and page.read_bytes() == first[1]
    assert '<meta name="robots" content="noindex">' not in first[1].decode()
    assert build_py(code, *args, "--no-index").returncode == 0
    assert '<meta name="robots" content="noindex">' in page.read_text(encoding="utf-8")


def test_cli_help_documents_every_command(code):
    done = build_py(code, "--help", env={**os.environ, "COLUMNS": "100"})
    assert done.returncode == 0
    for command in ("build", "check", "import"):  # each named with what it does
        assert re.search(rf"^ +{command} +\w+", done.stdout, re.M), command
    for option in ("--out DIR", "--base-url URL", "--content DIR", "--templates DIR", "--static DIR", "--no-search",
                   "--no-images", "--no-index", "--watch", "--host HOST", "--port PORT"):  # README, Commands
        assert re.search(rf"^ +{re.escape(option)} +\w", done.stdout, re.M), option


def test_options_given_before_the_command_are_kept(small_site, code):
    done = build_py(code, "--content", str(small_site.content), "--out", str(small_site.site), "--no-search", "build")
    assert done.returncode == 0, done.stderr
    assert (small_site.site / "papers/samba/index.html").is_file()


@pytest.mark.parametrize("target", ["content", "stranger"])
def test_output_folder_is_never_a_source_or_a_strangers_folder(small_site, target):
    folder = small_site.root / target
    folder.mkdir(exist_ok=True)
    (folder / "notes.txt").write_text("mine")
    before = sorted(p.relative_to(small_site.root) for p in small_site.root.rglob("*"))
    with pytest.raises(ContentError) as error:
        build_site(small_site.config(out_dir=folder, search=False), Report())
    assert str(folder) in str(error.value)
    assert sorted(p.relative_to(small_site.root) for p in small_site.root.rglob("*")) == before


def test_authors_have_pages_with_their_papers_and_coauthors(built):
    site = built[0].site
    html = (site / "authors/ada-lovelace/index.html").read_text()
    assert "<h1>Ada Lovelace</h1>" in html and 'href="/papers/samba/"' in html
    assert '<a href="/authors/alan-turing/">Alan Turing</a>' in html
    index = (site / "authors/index.html").read_text()
    assert index.index("Ada Lovelace") < index.index("Alan Turing")  # by family name


def test_paper_pages_show_related_papers_and_why(built):
    html = (built[0].site / "papers/rocketkv/index.html").read_text()
    related = html[html.index('id="related"'):html.index('id="cite"')]
    assert related.index('href="/papers/icv/"') > 0 and 'href="/papers/samba/"' in related
    assert "Shares tag: Sparse attention" in related  # samba, by its one shared tag
    assert 'href="#related"' in html  # listed under "On this page"


def test_topic_map_links_every_paper_and_home_shows_a_small_one(built):
    site, _ = built
    html = (site.site / "map/index.html").read_text()
    points = re.findall(r'<a href="/papers/([a-z-]+)/" aria-label="[^"]+"><title>[^<]+</title>'
                        r'<circle class="map-hit"[^>]+/><path class="(m\d)"', html)
    assert sorted(points) == [("icv", "m0"), ("rocketkv", "m0"), ("samba", "m1")]  # by main theme
    assert html.count('class="map-hit"') == 3 and "<title>Samba: Simple Hybrid State Space Models · ICLR 2025 · Architectures</title>" in html
    # icv is drawn in efficient inference (its main theme) but counts in in-context learning too
    assert '<a href="/themes/efficient-inference/">Efficient inference</a> <span class="count">2 of its 3 papers</span>' in html
    assert html.count('<g class="map-labels map-labels-wide"') == 1 and ">Efficient inference</tspan>" in html
    home = (site.site / "index.html").read_text()
    legend = home[home.index('class="map-legend map-legend-compact"'):home.index("</section>", home.index("home-map"))]
    assert home.count('<path class="m') == 3 + legend.count("<li") and 'class="mini-map" href="/map/"' in home
    assert "Efficient inference</li>" in legend


def test_venue_pages_group_papers_by_their_main_theme(small_site):
    small_site.write("content/papers/demos.md", paper("demos", "Choosing Demonstrations", tags="[in-context-learning]"))
    build_site(small_site.config(search=False, social_images=False), Report())
    html = (small_site.site / "venues/icml-2024/index.html").read_text()
    efficient, icl = html.index('<h2 id="theme-efficient-inference">'), html.index('<h2 id="theme-icl">')
    assert efficient < html.index("In-context Vectors", efficient) < html.index("RocketKV", efficient) < icl
    assert html.index("Choosing Demonstrations") > icl  # in-context vectors: one tag each way, the earlier theme wins


def test_hostile_text_anywhere_in_a_paper_is_inert_on_every_page(small_site):
    small_site.write("content/taxonomy.yaml", (small_site.content / "taxonomy.yaml").read_text().replace(
        "label: KV cache", "label: \"KV <script>alert('tag')</script> cache\""))
    small_site.write("content/papers/evil.md", paper(
        "evil", "<img src=x onerror=alert('title')> Evil", tags="[kv-cache]",
        body="<script>alert('body')</script> <iframe src=//x></iframe> [x](javascript:alert('link'))",
        extra="authors: [\"<svg onload=alert('author')>\"]\n"))
    build_site(small_site.config(search=False), Report())
    for page in small_site.site.rglob("*.html"):
        html = page.read_text()
        for danger in ("<script>alert", "<img src=x", "<iframe", "<svg onload", "javascript:alert"):
            assert danger not in html, (page, danger)
    html = (small_site.site / "papers/evil/index.html").read_text()
    assert "&lt;img src=x onerror=alert(&#39;title&#39;)&gt; Evil" in html  # shown as text, not run


@pytest.mark.parametrize("processes", [2, 3])
def test_a_build_on_many_processes_equals_one_on_one(small_site, tmp_path, monkeypatch, processes):
    from catalogue.output import parallel as render
    monkeypatch.setattr(render, "workers", lambda: processes)
    venues = small_site.content / "venues.yaml"
    venues.write_text(venues.read_text() + "".join(f"  - {{name: ICML, year: {2010 + n}, title: ICML}}\n" for n in range(12)))
    for number in range(12):  # enough groups for both processes to have work
        small_site.write(f"content/papers/extra{number}.md", paper(f"extra{number}", f"Extra {number}",
                                                                    venue=f"ICML {2010 + number}"))
    monkeypatch.setattr(render, "FORK_MIN_PAGES", 10**9)
    build_site(small_site.config(search=False, out_dir=tmp_path / "one"), Report())
    monkeypatch.setattr(render, "FORK_MIN_PAGES", 0)
    forks = []
    monkeypatch.setattr(render.os, "fork", lambda fork=os.fork: forks.append(1) or fork())
    result = build_site(small_site.config(search=False, out_dir=tmp_path / "many"), Report())
    assert len(forks) == 2 * (processes - 1)  # typesetting the abstracts, then writing the pages
    assert tree(tmp_path / "one") == tree(tmp_path / "many") and result.papers == 15


@pytest.mark.parametrize("failing, forked", [("tag.html", False), ("paper.html", True), ("tag.html", True)])
def test_a_template_failing_in_either_process_stops_the_build_whole(built_copy, tmp_path, monkeypatch, failing,
                                                                     forked):
    from catalogue.output import parallel as render
    monkeypatch.setattr(render, "FORK_MIN_PAGES", 0 if forked else 10**9)
    site, _ = built_copy
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates", templates)
    (templates / failing).write_text("{% extends 'base.html' %}{% block content %}{{ missing.x }}{% endblock %}")
    before = tree(site.site, mtimes=True)
    with pytest.raises(ContentError, match=f"{failing}:1: template failed on /"):
        build_site(site.config(templates_dir=templates), Report())
    assert tree(site.site, mtimes=True) == before
    assert [p.name for p in site.root.iterdir() if p.name.startswith(".build-")] == []


def faketime() -> list[str]:
    """The command that runs a build with the clock set years ahead (Debian's `faketime`); here
    without it, nothing (the rest of the test still runs); in CI it must be there."""
    if shutil.which("faketime"):
        return ["faketime", "2031-02-03 04:05:06"]
    if os.environ.get("CI"):
        raise RuntimeError("CI must test builds under another clock: install Debian's faketime (see .ci/run)")
    return []


def test_clean_builds_are_byte_identical_whatever_the_clock_hash_seed_or_file_order(small_site, tmp_path, code):
    for number in range(6):
        small_site.write(f"content/papers/p{number}.md", paper(f"p{number}", f"Paper {number}",
                                                                body=f"Sparse attention for the KV cache, take {number}."))
    runs = (("1", "one", sorted, [], None),
            ("987654", "two", lambda paths: sorted(paths, reverse=True), faketime(), 1_000_000_000))
    trees = []
    for seed, name, order, clock, file_time in runs:
        content = tmp_path / f"content-{name}"  # the same files, created in another order, another time
        (content / "papers").mkdir(parents=True)
        shutil.copy(small_site.content / "taxonomy.yaml", content)
        shutil.copy(small_site.content / "venues.yaml", content)
        shutil.copy(small_site.content / "site.yaml", content)
        for path in order((small_site.content / "papers").glob("*.md")):
            shutil.copy(path, content / "papers")
            if file_time:
                os.utime(content / "papers" / path.name, (file_time, file_time))
        done = subprocess.run([*clock, sys.executable, str(code / "build.py"), "--content", str(content),
                               "--out", str(tmp_path / name), "--no-images"], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed, "TZ": "UTC" if seed == "1" else "Pacific/Kiritimati"})
        assert done.returncode == 0, done.stderr
        trees.append(tree(tmp_path / name))
    assert trees[0] == trees[1]
    assert len(trees[0]) > 40 and any(path.endswith(".pf_filter") for path in trees[0])


def test_a_failure_in_the_parents_part_is_the_error_raised_while_children_hold_big_results(monkeypatch):
    from catalogue.output import parallel
    monkeypatch.setattr(parallel, "workers", lambda: 3)

    def work(part: list[int]) -> bytes:
        if 0 in part:  # the parent's part: it fails while each child waits to send 1 MB
            raise ContentError([])
        return b"x" * 2**20
    with pytest.raises(ContentError):
        parallel.shared([0, 1, 2], lambda item: 3 - item, work)
    assert parallel.shared([5, 6, 7], lambda item: 1, lambda part: sum(part)) == [5, 6, 7]
