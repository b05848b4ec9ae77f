"""Permanent links, previews, citations, feeds and site files; every internal link checked."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
import venv
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import bibtexparser
import feedparser
import pytest
from conftest import add_small_site, new_project, paper
from helpers import FROZEN, tree
from linkcheck import broken_links
from PIL import Image

from catalogue.config import PROJECT_ROOT, SiteConfig
from catalogue.output.links import check_folder, check_links
from catalogue.pages.lists import FEED_LIMIT
from catalogue.pipeline import build_site, check_site
from catalogue.render import social
from catalogue.report import ContentError, Report

BASE = "https://example.org/catalogue/"


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, list[str]] = {}
        self.links: dict[str, str] = {}
        self.json_ld: list[str] = []
        self._in_json = False

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "meta" and values.get("content") is not None:
            self.meta.setdefault(values.get("property") or values.get("name"), []).append(values["content"])
        if tag == "link":
            self.links[values.get("rel")] = values.get("href")
        self._in_json = tag == "script" and values.get("type") == "application/ld+json"

    def handle_data(self, data):
        if self._in_json:
            self.json_ld.append(data)
            self._in_json = False


def head(path: Path) -> _Head:
    parser = _Head()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The small site built once at BASE, without search, for the tests that only read it."""
    project = add_small_site(new_project(tmp_path_factory.mktemp("links")))
    build_site(project.config(base_url=BASE, search=False), Report())
    return project.site


def test_paper_pages_carry_previews_and_scholarly_metadata(built):
    for name in ("samba", "rocketkv", "icv"):
        page = head(built / f"papers/{name}/index.html")
        assert page.links["canonical"] == f"{BASE}papers/{name}/"
        assert page.meta["og:url"] == [f"{BASE}papers/{name}/"]
        assert page.meta["og:image"] == [f"{BASE}papers/{name}/social.png"]
        assert page.meta["og:type"] == ["article"] and page.meta["twitter:card"] == ["summary_large_image"]
        assert len(page.meta["og:description"][0]) <= 201 and "$" not in page.meta["og:description"][0]
        assert page.meta["citation_title"] and page.meta["citation_publication_date"]
        data = json.loads(page.json_ld[0])
        assert data["@type"] == "ScholarlyArticle" and data["url"] == f"{BASE}papers/{name}/"
    samba = head(built / "papers/samba/index.html")
    assert samba.meta["citation_author"] == ["Ada Lovelace", "Alan Turing"]
    assert samba.meta["citation_conference_title"] == ["International Conference on Learning Representations (ICLR 2025)"]
    assert samba.meta["citation_arxiv_id"] == ["2406.07522"]
    assert "O(T log T)" in samba.meta["og:description"][0]


def test_every_page_has_title_description_and_absolute_canonical(built):
    for page in built.rglob("index.html"):
        parsed = head(page)
        if "robots" in parsed.meta:  # redirect pages
            continue
        assert parsed.links["canonical"].startswith(BASE), page
        assert parsed.meta["description"][0].strip(), page


KINDS = ("", "papers/", "papers/samba/", "tags/", "tags/kv-cache/", "venues/", "venues/iclr-2025/", "themes/",
         "themes/efficient-inference/", "authors/", "authors/ada-lovelace/", "map/", "about/", "search/",
         "reading-list/", "changes/")


def test_every_kind_of_page_shares_with_a_preview_image_and_its_own_description(small_built):
    """A link to any page previews it: title, description, absolute address and an image; a
    paper's own, the site's for every other page. No page names any of them twice, nor again for
    X, which reads OpenGraph's where its own are missing."""
    site, base = small_built.project.site, "http://localhost:8000/"
    pages = {page.parent.relative_to(site).as_posix().removeprefix(".") + "/": head(page)
             for page in site.rglob("index.html")}
    pages = {path.lstrip("/"): parsed for path, parsed in pages.items() if "robots" not in parsed.meta}  # not redirects
    assert set(KINDS) <= set(pages)
    for path, parsed in pages.items():
        address, paper = base + path, path.startswith("papers/") and path != "papers/"
        image = f"{address}social.png" if paper else f"{base}social.png"
        assert parsed.meta["og:url"] == [address] == [parsed.links["canonical"]], path
        assert parsed.meta["og:description"] == parsed.meta["description"], path
        assert parsed.meta["og:image"] == [image] and not {"twitter:image", "twitter:title"} & set(parsed.meta), path
        assert parsed.meta["twitter:card"] == ["summary_large_image"] and len(parsed.meta["og:title"]) == 1, path
        assert parsed.meta["og:type"] == ["article" if paper else "website"], path
    assert head(site / "tags/kv-cache/index.html").meta["og:description"] == ["Storing and compressing the key-value cache."]
    assert Image.open(site / "social.png").size == (1200, 630)


def test_without_images_a_page_shares_a_summary_card(small_site):
    build_site(small_site.config(search=False, social_images=False), Report())
    parsed = head(small_site.site / "tags/kv-cache/index.html")
    assert "og:image" not in parsed.meta and parsed.meta["twitter:card"] == ["summary"]
    assert not (small_site.site / "social.png").exists()


def test_bibtex_parses_with_stable_keys(built):
    entry = bibtexparser.parse_string((built / "papers/samba/cite.bib").read_text()).entries[0]
    assert entry.key == "lovelace2025samba" and entry.entry_type == "inproceedings"
    assert entry["title"] == "{Samba: Simple Hybrid State Space Models}"
    assert entry["author"] == "Ada Lovelace and Alan Turing"
    assert entry["year"] == "2025" and entry["eprint"] == "2406.07522"
    everything = bibtexparser.parse_string((built / "papers.bib").read_text())
    assert sorted(e.key for e in everything.entries) == ["context2024", "lovelace2025samba", "rocketkv2024"]
    assert not everything.failed_blocks
    page = (built / "papers/samba/index.html").read_text()
    assert "@inproceedings{lovelace2025samba," in page and 'id="cite"' in page and 'href="#cite"' in page


def test_feeds_parse_newest_additions_first(small_site):
    papers = small_site.content / "papers"
    for name, day in (("samba", "2026-01-03"), ("icv", "2026-01-01"), ("rocketkv", "2026-01-02")):
        text = (papers / f"{name}.md").read_text()
        (papers / f"{name}.md").write_text(text.replace("title_source:", f"added: {day}\ntitle_source:", 1))
    build_site(small_site.config(base_url=BASE, search=False, social_images=False), Report())
    feed = feedparser.parse((small_site.site / "feed.xml").read_text())
    assert not feed.bozo
    assert [e.link for e in feed.entries] == [f"{BASE}papers/{s}/" for s in ("samba", "rocketkv", "icv")]
    theme = feedparser.parse((small_site.site / "themes/architectures/feed.xml").read_text())
    assert {e.link for e in theme.entries} == {f"{BASE}papers/samba/", f"{BASE}papers/rocketkv/"}


def test_every_theme_tag_and_venue_page_of_the_frozen_catalogue_names_its_feed(frozen_site, frozen_catalogue):
    """Each listing's feed is named in its head and linked on the page; it holds the listing's
    newest papers (FEED_LIMIT of them at most, none older than one left out), each dated by when
    it was added and when its conference began."""
    listings = [*(("themes", t, frozen_catalogue.papers_in_theme(t)) for t in frozen_catalogue.taxonomy.themes),
                *(("tags", t, frozen_catalogue.papers_with_tag(t)) for t in frozen_catalogue.taxonomy.tags),
                *(("venues", v.slug, frozen_catalogue.papers_in_venue(v)) for v in frozen_catalogue.venues)]
    for section, name, papers in listings:
        page = (frozen_site / section / name / "index.html").read_text()
        feed_path = f"/{section}/{name}/feed.xml"
        assert f'<link rel="alternate" type="application/atom+xml" title="' in page
        assert page.count(f'href="{feed_path}"') == 2, feed_path  # in the head, and on the page
        feed = feedparser.parse((frozen_site / feed_path.lstrip("/")).read_text())
        assert not feed.bozo and len(feed.entries) == min(len(papers), FEED_LIMIT) > 0, feed_path
        by_link = {e.link.rsplit("/", 2)[-2]: e for e in feed.entries}
        shown = [paper for paper in papers if paper.slug in by_link]
        assert len(shown) == len(by_link), feed_path
        assert min(p.added for p in shown) >= max((p.added for p in papers if p not in shown), default="")
        for paper in shown:
            entry = by_link[paper.slug]
            assert entry.updated.startswith(paper.added) and entry.published.startswith(paper.venue.date)


def test_sitemap_lists_every_page_and_robots_points_to_it(built):
    locs = set(re.findall(r"<loc>([^<]+)</loc>", (built / "sitemap.xml").read_text()))
    pages = {BASE + str(p.parent.relative_to(built)).replace(".", "") + "/" if p.parent != built else BASE
             for p in built.rglob("index.html") if 'http-equiv="refresh"' not in p.read_text()}
    assert locs == {p.replace("//", "/").replace("https:/", "https://") for p in pages}
    assert (built / "robots.txt").read_text() == f"User-agent: *\nAllow: /\nSitemap: {BASE}sitemap.xml\n"


def test_previews_of_deploy_previews_are_not_indexed(small_site):
    build_site(small_site.config(search=False, social_images=False, noindex=True), Report())
    assert "Disallow: /" in (small_site.site / "robots.txt").read_text()
    assert '<meta name="robots" content="noindex">' in (small_site.site / "papers/samba/index.html").read_text()


def test_aliases_become_netlify_301s_and_redirect_pages(small_site):
    path = small_site.content / "papers/samba.md"
    path.write_text(path.read_text().replace("slug: samba", "slug: samba-ssm\naliases: [samba]"))
    build_site(small_site.config(base_url=BASE, search=False, social_images=False), Report())
    assert "/catalogue/papers/samba/ /catalogue/papers/samba-ssm/ 301" in (small_site.site / "_redirects").read_text()
    page = (small_site.site / "papers/samba/index.html").read_text()
    assert '<meta http-equiv="refresh" content="0; url=/catalogue/papers/samba-ssm/">' in page
    assert f'<link rel="canonical" href="{BASE}papers/samba-ssm/">' in page
    assert "Samba: Simple Hybrid" in (small_site.site / "papers/samba-ssm/index.html").read_text()


def test_the_ledger_keeps_every_published_url(small_site):
    ledger = small_site.root / "published-urls.txt"
    config = small_site.config(search=False, social_images=False, ledger=ledger)
    build_site(config, Report())
    assert "/papers/samba/\n" in ledger.read_text() and "/feed.xml\n" in ledger.read_text()
    path = small_site.content / "papers/samba.md"
    good = path.read_text()
    path.write_text(good.replace("slug: samba", "slug: samba-ssm"))
    with pytest.raises(ContentError) as error:
        build_site(config, Report())
    line = ledger.read_text().splitlines().index("/papers/samba/") + 1
    assert str(error.value) == (f"{ledger}:{line}: /papers/samba/ was published, and this build would drop it"
                                " — add `aliases: [samba]` to the paper it became, or a line "
                                "`/papers/samba/ /papers/<replacement>/` to content/redirects.txt")
    path.write_text(good.replace("slug: samba", "slug: samba-ssm\naliases: [samba]"))
    build_site(config, Report())
    assert "/papers/samba-ssm/\n" in ledger.read_text()
    path.unlink()
    small_site.write("content/redirects.txt", "/papers/samba/ /papers/icv/\n/papers/samba-ssm/ /papers/icv/\n"
                                              "/venues/iclr-2025/ /venues/  # its only paper left\n"
                                              "/venues/iclr-2025/feed.xml /feed.xml\n")
    build_site(config, Report())  # a deleted paper, and its emptied venue, kept through redirects
    assert 'url=/papers/icv/"' in (small_site.site / "papers/samba-ssm/index.html").read_text()


def test_the_ledger_is_a_sorted_set_that_a_build_tidies(small_site):
    """A union merge of two branches leaves both sides' lines unsorted, maybe twice: the next
    build writes them back once each, in order, and adds nothing it did not publish."""
    ledger = small_site.root / "published-urls.txt"
    build_site(small_site.config(search=False, social_images=False, ledger=ledger), Report())
    lines = [line for line in ledger.read_text().splitlines() if not line.startswith("#")]
    assert lines == sorted(lines) and "/papers/samba/" in lines
    ledger.write_text(ledger.read_text() + "/papers/gone/\n/papers/samba/\n/papers/another-gone/\n")
    small_site.write("content/redirects.txt", "/papers/gone/ /papers/samba/\n/papers/another-gone/ /papers/icv/\n")
    build_site(small_site.config(search=False, social_images=False, ledger=ledger), Report())
    tidied = [line for line in ledger.read_text().splitlines() if not line.startswith("#")]
    assert tidied == sorted(set(lines) | {"/papers/gone/", "/papers/another-gone/"})


def test_each_kind_of_build_checks_the_ledger_for_what_it_publishes(small_site):
    """Watch previews leave out feeds and site files, --no-search the search page: the ledger
    does not count those as dropped, and counts everything else as in a full build."""
    ledger = small_site.root / "published-urls.txt"
    build_site(small_site.config(ledger=ledger, social_images=False), Report())
    assert {"/feed.xml", "/search/", "/themes/icl/feed.xml"} <= set(ledger.read_text().splitlines())
    preview = small_site.config(ledger=ledger, social_images=False, site_files=False, drafts=True,
                                out_dir=small_site.root / "preview")
    build_site(replace(preview, search=False), Report())  # nothing it leaves out is "dropped"
    (small_site.content / "papers/samba.md").unlink()
    for config in (preview, replace(preview, search=False),
                   small_site.config(ledger=ledger, search=False, social_images=False)):
        with pytest.raises(ContentError) as error:
            build_site(config, Report())
        feeds = ["/venues/iclr-2025/feed.xml"] if config.site_files else []  # previews write no feeds
        assert [d.message for d in error.value.diagnostics] == [  # samba was ICLR 2025's only paper
            f"{path} was published, and this build would drop it"
            for path in ("/papers/samba/", "/venues/iclr-2025/", *feeds)]


def test_a_paper_made_a_draft_is_dropped_from_what_is_published(small_site):
    ledger = small_site.root / "published-urls.txt"
    build_site(small_site.config(search=False, social_images=False, ledger=ledger), Report())
    path = small_site.content / "papers/icv.md"
    path.write_text(path.read_text().replace("tags:", "draft: true\ntags:"))
    watch_like = small_site.config(search=False, social_images=False, ledger=ledger, drafts=True, site_files=False,
                                   out_dir=small_site.root / "preview")
    with pytest.raises(ContentError, match="/papers/icv/ was published") as error:
        build_site(watch_like, Report())  # a preview shows the draft, and still says it would vanish
    assert error.value.diagnostics[0].hint.startswith("its paper is now a draft: remove `draft: true`")


def test_a_link_to_a_draft_is_broken_in_every_mode(small_site):
    """A preview renders drafts, a published build does not: a link from a published page to a
    draft must fail in both (and in check), not only once it is published."""
    small_site.write("content/papers/soon.md", paper("soon", "Soon", extra="draft: true\n"))
    path = small_site.content / "papers/icv.md"
    path.write_text(path.read_text() + "\nSee [the next one](/papers/soon/).\n")
    line = path.read_text().count("\n")
    for config, problem in ((small_site.config(search=False, social_images=False), "leads to no page"),
                            (small_site.config(search=False, social_images=False, drafts=True, site_files=False,
                                               out_dir=small_site.root / "preview"), "leads to a draft")):
        with pytest.raises(ContentError) as error:
            build_site(config, Report())
        assert str(error.value).startswith(f"{path}:{line}: the link /papers/soon/ {problem}")
    with pytest.raises(ContentError, match="the link /papers/soon/ leads to a draft"):
        check_site(small_site.config(search=False), Report())


def test_a_redirect_must_lead_to_a_page_and_keep_an_address_no_page_has(small_site):
    redirects = small_site.write("content/redirects.txt", "/old/ /papers/nowhere/\n/papers/samba/ /papers/icv/\n"
                                                         "/themes/x/feed.xml /nofeed.xml\n")
    with pytest.raises(ContentError) as error:
        build_site(small_site.config(search=False), Report())
    assert [str(d) for d in error.value.diagnostics] == [
        f"{redirects}:1: the redirect leads to /papers/nowhere/, which is no page — point it at a page of the site",
        f"{redirects}:2: /papers/samba/ is a page of the site — a redirect keeps an address no page has: delete this line",
        f"{redirects}:3: the redirect leads to /nofeed.xml, which is no page — point it at a page of the site"]


def test_a_feed_can_be_kept_by_a_redirect_to_another_file(small_site):
    ledger = small_site.root / "published-urls.txt"
    ledger.write_text("/themes/retired/feed.xml\n")
    with pytest.raises(ContentError) as error:
        build_site(small_site.config(search=False, social_images=False, ledger=ledger), Report())
    assert error.value.diagnostics[0].hint == "add a line `/themes/retired/feed.xml /<new place>` to content/redirects.txt"
    small_site.write("content/redirects.txt", "/themes/retired/feed.xml /feed.xml\n")
    build_site(small_site.config(search=False, social_images=False, ledger=ledger), Report())
    assert "/themes/retired/feed.xml /feed.xml 301" in (small_site.site / "_redirects").read_text()


def test_social_images_are_drawn_once_and_cached(small_site, monkeypatch):
    build_site(small_site.config(search=False), Report())
    image = Image.open(small_site.site / "papers/samba/social.png")
    assert image.size == (1200, 630) and image.format == "PNG"
    drawn = []
    monkeypatch.setattr(social, "_draw", lambda *args: drawn.append(args) or b"png")
    build_site(small_site.config(search=False), Report())
    assert drawn == []
    path = small_site.content / "papers/icv.md"
    path.write_text(path.read_text().replace("In-context Vectors", "In-context Vectors Revisited"))
    build_site(small_site.config(search=False), Report())
    assert [args[0] for args in drawn] == ["In-context Vectors Revisited"]


def test_netlify_toml_sets_build_publish_and_headers():
    config = tomllib.loads((PROJECT_ROOT / "netlify.toml").read_text())
    assert config["build"]["publish"] == "site"
    # The address comes from Netlify's own variables (content/site.py; test_content_site_settings), so
    # every context runs the same plain build; a deploy preview checks strictly first
    # (test_cli_catalogue_ci runs it).
    assert config["build"]["command"] == "pip install -r requirements.txt && python build.py"
    assert set(config["context"]) == {"deploy-preview"}
    assert config["context"]["deploy-preview"]["command"] == config["build"]["command"].replace(
        " && python build.py", " && python build.py check --strict --quiet && python build.py")
    assert config["build"]["environment"]["PYTHON_VERSION"] == "3.11"
    every = next(rule["values"] for rule in config["headers"] if rule["for"] == "/*")
    csp = every["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert every["X-Content-Type-Options"] == "nosniff" and every["Referrer-Policy"] and every["Permissions-Policy"]
    assets = next(rule["values"] for rule in config["headers"] if rule["for"] == "/assets/*")
    assert "immutable" in assets["Cache-Control"]


@pytest.mark.slow  # a fresh virtual environment: every requirement installed again
def test_netlify_build_command_runs_in_a_clean_virtual_environment(tmp_path):
    """What Netlify runs, in a fresh venv, on a copy of the project as git has it, with the frozen
    catalogue (the real one is not touched)."""
    project = tmp_path / "project"
    files = subprocess.run(["git", "ls-files"], cwd=PROJECT_ROOT, capture_output=True, text=True).stdout.split()
    for name in files:
        if (PROJECT_ROOT / name).is_file() and not name.startswith(("content/", "published-urls.txt")):
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(PROJECT_ROOT / name, project / name)
    shutil.copytree(FROZEN / "content", project / "content")
    shutil.copy2(FROZEN / "published-urls.txt", project / "published-urls.txt")
    venv.create(tmp_path / "venv", with_pip=True)
    command = tomllib.loads((project / "netlify.toml").read_text())["build"]["command"]
    env = {**os.environ, "NETLIFY": "true", "CONTEXT": "production", "URL": "https://papers.example.org",
           "PATH": f"{tmp_path / 'venv/bin'}{os.pathsep}{os.environ['PATH']}"}
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(["bash", "-c", command], cwd=project, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert (project / "site/pagefind/pagefind.js").is_file()
    html = (project / "site/papers/samba/index.html").read_text()
    assert '<link rel="canonical" href="https://papers.example.org/papers/samba/">' in html


def test_every_internal_link_resolves(small_built):
    assert broken_links(small_built.project.site) == []


def test_a_broken_link_or_anchor_fails_the_build_and_external_links_are_listed(small_built_copy, tmp_path):
    site = small_built_copy.project
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates", templates)
    paper_template = templates / "paper.html"
    paper_template.write_text(paper_template.read_text().replace('href="#cite"', 'href="#citation"', 1)
                              .replace("{{ url(paths.paper_file(paper.slug, paths.CITATION)) }}", "{{ url('papers.bibtex') }}"))
    before = tree(site.site, mtimes=True)
    with pytest.raises(ContentError) as error:
        build_site(site.config(templates_dir=templates), Report())
    messages = [str(d) for d in error.value.diagnostics]
    assert f"{site.site}/papers/samba/index.html: the link #citation leads to no #citation on that page" \
        " — fix the template or the content that writes it" in messages
    assert any(m.endswith("the link /papers.bibtex leads to no page — fix the template or the content that writes it")
               for m in messages)
    assert tree(site.site, mtimes=True) == before
    external = (site.root / ".cache/external-links.txt").read_text().splitlines()  # by the build that passed
    assert "https://github.com/example/samba" in external and "https://arxiv.org/abs/2406.07522" in external


def test_a_preview_may_leave_out_site_files_and_nothing_else(small_built_copy):
    site = small_built_copy.project.site
    (site / "feed.xml").unlink()
    (site / "papers/samba/cite.bib").unlink()
    preview = SiteConfig(out_dir=site, site_files=False)
    broken = check_folder(site, "http://localhost:8000/", left_out=preview.leaves_out).broken
    assert [(b.page, b.link) for b in broken] == [("papers/samba/index.html", "/papers/samba/cite.bib")]
    assert len(check_folder(site, "http://localhost:8000/").broken) > 10  # feed.xml: on every page


def test_an_abstract_that_shows_html_code_is_not_a_broken_link(small_site):
    small_site.write("content/papers/code.md", paper("code", "Markup", body='We write `<a href="/nowhere/">` by hand.'))
    build_site(small_site.config(search=False, social_images=False), Report())
    assert '<code>&lt;a href="/nowhere/"&gt;</code>' in (small_site.site / "papers/code/index.html").read_text()


def test_the_link_checker_reads_paths_as_browsers_do(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a/index.html").write_text('<p id="x">A</p>')
    links = ["/a/", "/a//", "/a/index.html", "a/", "./a/#x", "/a/\n", "/%61/", "/a/?q=1", "/b/", "/a/#y"]
    (tmp_path / "index.html").write_text("".join(f'<a href="{link}">l</a>' for link in links))
    broken = check_folder(tmp_path, "https://example.org/").broken
    assert sorted(b.link for b in broken) == ["/a/#y", "/b/"]


def test_an_anchor_into_a_page_not_written_yet_waits_for_it():
    """Watch mode checks the pages it writes first before the rest: the anchors into a page
    still to be written are judged once it is; a file with no ids (a static page) has none."""
    class Page:
        def __init__(self, links: list[str], ids: frozenset[str] = frozenset()):
            self.links, self.ids = tuple(link.encode() for link in links), ids
    pages = {"index.html": Page(["/guide/#start", "/gone/#start", "/a/#nowhere", "/a/#x"]),
             "a/index.html": Page([], frozenset({"x"}))}
    files = {"index.html", "a/index.html", "guide/index.html"}
    expected = [("/a/#nowhere", "leads to no #nowhere on that page"), ("/gone/#start", "leads to no page")]
    broken = check_links(pages, files, "https://example.org/", unwritten={"guide/index.html"}).broken
    assert sorted((b.link, b.problem) for b in broken) == expected
    broken = check_links(pages, files, "https://example.org/").broken
    assert sorted((b.link, b.problem) for b in broken) == sorted([*expected, ("/guide/#start", "leads to no #start on that page")])
