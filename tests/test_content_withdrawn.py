"""A withdrawn paper keeps its address: its page says it was withdrawn (and why), and it is in
no list, count, map, feed, search index or citation file of the catalogue."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import paper
from helpers import copy_project, run
from siteserver import SiteServer
from test_browser_quality import ARGS, AXE, CHROMIUM, VNU, require
from test_content_load import errors_for

from catalogue.pipeline import build_site
from catalogue.report import Report

WITHDRAWN = "withdrawn: 2025-02-10\nwithdrawn_reason: \"An error in Table 2; the results do not hold.\"\n"


@pytest.fixture
def withdrawn_site(small_site):
    """The small site with a fourth paper, withdrawn, alone in its venue, with an earlier slug."""
    small_site.write("content/papers/gone.md", paper(
        "gone", "Gone: Caches Remembered", "NeurIPS 2023", "[kv-cache, sparse-attention]",
        "We compress caches with remembered keys.",
        "authors: [Grace Hopper]\narxiv: '2402.01234'\naliases: [gone-old]\n" + WITHDRAWN))
    result = build_site(small_site.config(search=False), Report())
    assert result.papers == 3
    return small_site


def page_of(site: Path, slug: str) -> str:
    return (site / "papers" / slug / "index.html").read_text(encoding="utf-8")


def test_its_page_says_it_was_withdrawn_and_why_above_the_paper(withdrawn_site):
    page = page_of(withdrawn_site.site, "gone")
    notice = "<strong>Withdrawn</strong> on 10 February 2025: An error in Table 2; the results do not hold.</p>"
    assert notice in page
    assert page.index(notice) < page.index("<h1") < page.index("Grace Hopper</p>") < page.index("<section class=\"abstract\"")
    assert "<title>Withdrawn: Gone: Caches Remembered · Context Window</title>" in page
    assert "NeurIPS 2023</p>" in page and 'href="/venues/neurips-2023/"' not in page  # no venue page to link
    assert 'href="/authors/grace-hopper/"' not in page  # nor an author page


def test_machines_are_told_too(withdrawn_site):
    page = page_of(withdrawn_site.site, "gone")
    assert '<meta name="robots" content="noindex">' in page
    assert "citation_title" not in page and "citation_pdf_url" not in page  # Google Scholar: not a paper
    assert "data-pagefind-body" not in page  # the search index leaves it out
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', page).group(1))
    assert data["creativeWorkStatus"] == "Withdrawn" and "datePublished" not in data and "isPartOf" not in data
    live = page_of(withdrawn_site.site, "samba")
    assert "citation_title" in live and 'name="robots"' not in live and "data-pagefind-body" in live
    cite = (withdrawn_site.site / "papers/gone/cite.bib").read_text(encoding="utf-8")
    assert "note = {Withdrawn 2025-02-10: An error in Table 2; the results do not hold.}" in cite
    assert '"status": "withdrawn"' in (withdrawn_site.site / "papers/gone/cite.json").read_text(encoding="utf-8")


def test_it_is_in_no_list_feed_map_or_citation_file(withdrawn_site):
    site = withdrawn_site.site
    mentions = sorted(str(path.relative_to(site)) for path in site.rglob("*")
                      if path.is_file() and path.suffix in (".html", ".xml", ".bib", ".ris", ".json", ".txt", "")
                      and b"gone" in path.read_bytes())
    assert mentions == ["_redirects", "papers/gone-old/index.html", "papers/gone/cite.bib",
                        "papers/gone/cite.json", "papers/gone/cite.ris", "papers/gone/index.html"]
    assert "/papers/gone-old/ /papers/gone/ 301" in (site / "_redirects").read_text(encoding="utf-8")
    assert not (site / "venues/neurips-2023").exists() and not (site / "authors/grace-hopper").exists()
    assert (site / "papers/gone/social.png").is_file()


def test_the_ledger_keeps_its_address(withdrawn_site):
    """Published once, withdrawn later: the page is still there, so nothing is dropped."""
    ledger = withdrawn_site.root / "published-urls.txt"
    ledger.write_text("/papers/gone/\n/papers/gone-old/\n", encoding="utf-8")
    report = Report()
    build_site(withdrawn_site.config(search=False, ledger=ledger), report)
    assert not report.errors


@pytest.mark.parametrize("extra, expected", [
    ("withdrawn: true\n", "papers/a.md:7: `withdrawn` must be a date like 2024-07-21, not true"),
    ("withdrawn: 2025-02-30\n", "papers/a.md:7:"),
    ("withdrawn_reason: Wrong.\n", "papers/a.md:7: `withdrawn_reason` without `withdrawn` — add the day"),
    ("withdrawn: 2025-02-10\nwithdrawn_reason: [a, b]\n", "papers/a.md:8: `withdrawn_reason` must be text"),
])
def test_a_bad_withdrawal_names_its_line(scratch, extra, expected):
    assert errors_for(scratch, {"a.md": paper("a", "A", extra=extra)})[0].startswith(expected)


@pytest.mark.slow
@pytest.mark.slow  # the project copied and run as a process
def test_withdrawing_a_real_paper_keeps_its_page_and_leaves_search(tmp_path):
    """The README's build on a copy of this repository with samba withdrawn: 94 papers in every
    list and in Pagefind's index, samba's page still there, the ledger satisfied."""
    project = copy_project(tmp_path / "project")
    samba = project / "content/papers/samba.md"
    samba.write_text(samba.read_text(encoding="utf-8").replace("\ntags:", "\nwithdrawn: 2026-12-01\ntags:", 1),
                     encoding="utf-8")
    done = run(project)
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"Built \d+ pages \(94 papers;", done.stdout), done.stdout
    page = (project / "site/papers/samba/index.html").read_text(encoding="utf-8")
    assert "<strong>Withdrawn</strong> on 1 December 2026.</p>" in page
    entry = json.loads((project / "site/pagefind/pagefind-entry.json").read_text(encoding="utf-8"))
    assert sum(language["page_count"] for language in entry["languages"].values()) == 94
    assert "/papers/samba/" not in (project / "site/feed.xml").read_text(encoding="utf-8")
    assert "/papers/samba/" not in (project / "site/sitemap.xml").read_text(encoding="utf-8")


@pytest.mark.slow  # the quality tier: the Nu Html Checker and axe-core in Chromium
def test_its_page_is_valid_html_and_accessible_in_light_and_dark(withdrawn_site):
    """The Nu Html Checker and axe-core, as tests/test_browser_quality.py runs them on the frozen catalogue."""
    require(VNU, AXE, CHROMIUM)
    page_file = withdrawn_site.site / "papers/gone/index.html"
    done = subprocess.run(["java", "-jar", str(VNU), "--errors-only", "--format", "json", str(page_file)],
                          capture_output=True, text=True, check=False)
    assert json.loads(done.stderr or '{"messages": []}')["messages"] == []
    from playwright.sync_api import sync_playwright
    server = SiteServer(withdrawn_site.site)
    found = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
            for scheme in ("light", "dark"):
                page = browser.new_page(bypass_csp=True, color_scheme=scheme)
                page.goto(server.url + "papers/gone/")
                page.add_script_tag(path=str(AXE))
                result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
                found |= {f"{scheme} {v['id']}: {v['nodes'][0]['target']}": v["help"] for v in result["violations"]}
            browser.close()
    finally:
        server.stop()
    assert found == {}
