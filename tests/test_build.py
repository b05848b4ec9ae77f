import os
import re
import shutil
import subprocess
import sys

import pytest

from catalogue.pipeline import build_site
from catalogue.config import PROJECT_ROOT
from catalogue.output.links import check_links
from catalogue.config import SiteConfig
from catalogue.report import ContentError, Report
from conftest import paper
from linkcheck import broken_links


@pytest.fixture
def built(small_site):
    result = build_site(small_site.config(), Report())
    return small_site, result


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


def test_every_internal_link_resolves(built):
    site, _ = built
    assert broken_links(site.site) == []


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
    assert '>ICML 2024</a> <span class="count c-venue-icml-2024"></span>' in html
    assert 'href="/counts.css"' in html
    css = (built[0].site / "counts.css").read_text()
    assert '.c-venue-icml-2024::after { content: "2"; }' in css
    assert '.c-theme-efficient-inference::after { content: "3"; }' in css
    assert '.c-tag-long-tailed-learning::after { content: "0"; }' in css
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


def test_sub_path_base_url_prefixes_every_link(small_site):
    build_site(small_site.config(base_url="https://example.org/catalogue/", search=False), Report())
    html = (small_site.site / "papers/samba/index.html").read_text()
    assert re.search(r'href="/catalogue/assets/style\.[0-9a-f]{10}\.css"', html)
    assert '<link rel="canonical" href="https://example.org/catalogue/papers/samba/">' in html
    assert broken_links(small_site.site, "/catalogue/") == []


def test_invalid_content_leaves_the_previous_site_whole(built):
    site, _ = built
    before = {p: p.read_bytes() for p in site.site.rglob("*") if p.is_file()}
    site.write("content/papers/bad.md", paper("bad", "Bad", tags="[no-such-tag]"))
    with pytest.raises(ContentError):
        build_site(site.config(), Report())
    after = {p: p.read_bytes() for p in site.site.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in site.root.iterdir() if p.name.startswith(".build-")] == []


def test_a_failing_template_leaves_the_previous_site_and_no_staging(built, tmp_path):
    site, _ = built
    templates = tmp_path / "templates"
    templates.mkdir()
    for template in (PROJECT_ROOT / "templates").iterdir():
        (templates / template.name).write_text(template.read_text())
    (templates / "tag.html").write_text("{% extends 'base.html' %}{% block content %}{{ missing.x }}{% endblock %}")
    index = (site.site / "index.html").read_bytes()
    with pytest.raises(ContentError, match="tag.html:1: template failed on /tags/"):
        build_site(site.config(templates_dir=templates), Report())
    assert (site.site / "index.html").read_bytes() == index
    assert [p.name for p in site.root.iterdir() if p.name.startswith(".build-")] == []


def test_output_is_deterministic(small_site, tmp_path):
    build_site(small_site.config(search=False), Report())
    first = {p.relative_to(small_site.site): p.read_bytes() for p in small_site.site.rglob("*") if p.is_file()}
    build_site(small_site.config(search=False, out_dir=tmp_path / "again"), Report())
    second = {p.relative_to(tmp_path / "again"): p.read_bytes() for p in (tmp_path / "again").rglob("*") if p.is_file()}
    assert first == second


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(PROJECT_ROOT / "build.py"), *args],
                          capture_output=True, text=True, cwd=PROJECT_ROOT)


def test_cli_builds_and_prints_one_summary_line(small_site):
    done = run_cli("--content", str(small_site.content), "--out", str(small_site.site), "--no-search")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Built 25 pages (3 papers; 41 files with feeds, citations and images) into ")


def test_cli_prints_each_error_as_path_line_and_exits_non_zero(small_site):
    small_site.write("content/papers/bad.md", paper("bad", "Bad", tags="[kv-cach]"))
    done = run_cli("--content", str(small_site.content), "--out", str(small_site.site))
    assert done.returncode == 1
    assert f"{small_site.content}/papers/bad.md:6: unknown tag `kv-cach` — did you mean `kv-cache`?" in done.stderr
    assert not small_site.site.exists()


def test_cli_help_documents_every_command():
    done = run_cli("--help")
    assert done.returncode == 0
    for command in ("build", "import", "--out", "--base-url"):
        assert command in done.stdout


def test_cli_prints_yaml_errors_with_their_line(small_site):
    small_site.write("content/papers/bad.md", "---\ntitle: [unclosed\nslug: bad\n---\n\nText.\n")
    done = run_cli("--content", str(small_site.content), "--out", str(small_site.site))
    assert done.returncode == 1
    assert f"{small_site.content}/papers/bad.md:2: invalid YAML:" in done.stderr


def test_options_given_before_the_command_are_kept(small_site):
    done = run_cli("--content", str(small_site.content), "--out", str(small_site.site), "--no-search", "build")
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


def test_earlier_slugs_redirect_to_the_paper(small_site):
    path = small_site.content / "papers/samba.md"
    path.write_text(path.read_text().replace("slug: samba", "slug: samba-ssm\naliases: [samba]"))
    build_site(small_site.config(search=False), Report())
    html = (small_site.site / "papers/samba/index.html").read_text()
    assert '<meta http-equiv="refresh" content="0; url=/papers/samba-ssm/">' in html
    assert '<link rel="canonical" href="http://localhost:8000/papers/samba-ssm/">' in html
    assert (small_site.site / "papers/samba-ssm/index.html").is_file()


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
    points = re.findall(r'<a href="/papers/([a-z-]+)/" aria-label="[^"]+"><circle class="(m\d)"', html)
    assert sorted(points) == [("icv", "m0"), ("rocketkv", "m0"), ("samba", "m1")]  # by main theme
    assert html.count("<circle") == 3 and "<title>Samba: Simple Hybrid State Space Models · ICLR 2025 · Architectures</title>" in html
    assert '<li class="m0"><a href="/themes/efficient-inference/">Efficient inference</a> <span class="count">2</span>' in html
    home = (site.site / "index.html").read_text()
    assert home.count("<circle") == 3 and 'class="mini-map" href="/map/"' in home


def test_venue_pages_group_papers_by_their_main_theme(small_site):
    small_site.write("content/papers/demos.md", paper("demos", "Choosing Demonstrations", tags="[in-context-learning]"))
    build_site(small_site.config(search=False), Report())
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


def tree(folder):
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_build_on_two_processes_equals_one_on_one(small_site, tmp_path, monkeypatch):
    from catalogue.render import renderer as render
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
    result = build_site(small_site.config(search=False, out_dir=tmp_path / "two"), Report())
    assert forks and tree(tmp_path / "one") == tree(tmp_path / "two") and result.papers == 15


@pytest.mark.parametrize("failing", ["paper.html", "tag.html"])
def test_a_template_failing_in_either_process_stops_the_build_whole(built, tmp_path, monkeypatch, failing):
    from catalogue.render import renderer as render
    monkeypatch.setattr(render, "FORK_MIN_PAGES", 0)
    site, _ = built
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates", templates)
    (templates / failing).write_text("{% extends 'base.html' %}{% block content %}{{ missing.x }}{% endblock %}")
    before = tree(site.site)
    with pytest.raises(ContentError, match=f"{failing}:1: template failed on /"):
        build_site(site.config(templates_dir=templates), Report())
    assert tree(site.site) == before
    assert [p.name for p in site.root.iterdir() if p.name.startswith(".build-")] == []


def faketime() -> list[str]:
    """The command that runs a build with the clock set years ahead (Debian's `faketime`); here
    without it, nothing (the rest of the test still runs); in CI it must be there."""
    if shutil.which("faketime"):
        return ["faketime", "2031-02-03 04:05:06"]
    if os.environ.get("CI"):
        raise RuntimeError("CI must test builds under another clock: install Debian's faketime (see .ci/run)")
    return []


def test_clean_builds_are_byte_identical_whatever_the_clock_hash_seed_or_file_order(small_site, tmp_path):
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
        for path in order((small_site.content / "papers").glob("*.md")):
            shutil.copy(path, content / "papers")
            if file_time:
                os.utime(content / "papers" / path.name, (file_time, file_time))
        done = subprocess.run([*clock, sys.executable, str(PROJECT_ROOT / "build.py"), "--content", str(content),
                               "--out", str(tmp_path / name), "--no-images"], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed, "TZ": "UTC" if seed == "1" else "Pacific/Kiritimati"})
        assert done.returncode == 0, done.stderr
        trees.append(tree(tmp_path / name))
    assert trees[0] == trees[1]
    assert len(trees[0]) > 40 and any(path.suffix == ".pf_filter" for path in trees[0])


def test_a_broken_link_or_anchor_fails_the_build_and_external_links_are_listed(built, tmp_path):
    site, _ = built
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates", templates)
    paper_template = templates / "paper.html"
    paper_template.write_text(paper_template.read_text().replace('href="#cite"', 'href="#citation"', 1)
                              .replace("{{ url('papers.bib') }}", "{{ url('papers.bibtex') }}"))
    before = tree(site.site)
    with pytest.raises(ContentError) as error:
        build_site(site.config(templates_dir=templates), Report())
    messages = [str(d) for d in error.value.diagnostics]
    assert f"{site.site}/papers/samba/index.html: the link #citation leads to no #citation on that page" \
        " — fix the template or the content that writes it" in messages
    assert any(m.endswith("the link /papers.bibtex leads to no page — fix the template or the content that writes it")
               for m in messages)
    assert tree(site.site) == before
    external = (site.root / ".cache/external-links.txt").read_text().splitlines()
    assert "https://github.com/example/samba" in external and "https://arxiv.org/abs/2406.07522" in external


def test_a_preview_may_leave_out_site_files_and_nothing_else(built):
    site, _ = built
    (site.site / "feed.xml").unlink()
    (site.site / "papers/samba/cite.bib").unlink()
    broken = check_links(site.site, "http://localhost:8000/", left_out=SiteConfig(site_files=False).leaves_out).broken
    assert [(b.page, b.link) for b in broken] == [("papers/samba/index.html", "/papers/samba/cite.bib")]
    assert len(check_links(site.site, "http://localhost:8000/").broken) > 10  # feed.xml: on every page


def test_an_abstract_that_shows_html_code_is_not_a_broken_link(small_site):
    small_site.write("content/papers/code.md", paper("code", "Markup", body='We write `<a href="/nowhere/">` by hand.'))
    build_site(small_site.config(search=False), Report())
    assert '&lt;a href="/nowhere/"&gt;' in (small_site.site / "papers/code/index.html").read_text()


def test_the_link_checker_reads_paths_as_browsers_do(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a/index.html").write_text('<p id="x">A</p>')
    links = ["/a/", "/a//", "/a/index.html", "a/", "./a/#x", "/a/\n", "/%61/", "/a/?q=1", "/b/", "/a/#y"]
    (tmp_path / "index.html").write_text("".join(f'<a href="{link}">l</a>' for link in links))
    broken = check_links(tmp_path, "https://example.org/").broken
    assert sorted(b.link for b in broken) == ["/a/#y", "/b/"]
