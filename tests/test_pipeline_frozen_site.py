"""The frozen catalogue (tests/fixtures/catalogue), built into a temporary folder (only read)."""

import csv
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import FROZEN
from linkcheck import broken_links

PAPERS = 95  # the five raw lists in content/sources/
PROVENANCE = FROZEN / "content" / "sources" / "provenance.tsv"
RAW_LATEX = re.compile(r"\$[^$\s][^$]*\$|\\(textbf|textit|texttt|emph|underline|url)\{")


class _VisibleText(HTMLParser):
    """The text a reader sees: no tags, scripts or TeX fallbacks."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "code", "math"):
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "code", "math"):
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


@pytest.fixture
def catalogue(frozen_catalogue):
    return frozen_catalogue


@pytest.fixture
def site(frozen_site) -> Path:
    """The session's one build of the frozen catalogue (conftest): only read here."""
    return frozen_site


def test_every_paper_has_a_page(catalogue, site):
    assert len(catalogue.papers) == PAPERS
    assert len(list((site / "papers").glob("*/index.html"))) == PAPERS


def test_every_paper_links_to_itself(catalogue):
    """Its venue page (proceedings or OpenReview) or, where no venue page is known, its arXiv entry."""
    assert [p.slug for p in catalogue.papers if not (p.own_page or p.arxiv)] == []


def test_every_venue_fact_says_where_it_was_found(catalogue):
    lines = [line for line in PROVENANCE.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    found = {(row["slug"], row["field"], row["value"]) for row in csv.DictReader(lines, delimiter="\t")}
    unsourced = [(p.slug, key, getattr(p, key)) for p in catalogue.papers for key in ("openreview", "pages", "presentation")
                 if getattr(p, key) and (p.slug, key, getattr(p, key)) not in found]
    assert unsourced == []
    assert all(row[3].startswith(("https://", "http://")) for row in csv.reader(lines[1:], delimiter="\t"))


def test_no_page_shows_raw_latex(site):
    offenders = []
    for page in site.rglob("*.html"):
        if "pagefind" in page.parts:
            continue
        parser = _VisibleText()
        parser.feed(page.read_text(encoding="utf-8"))
        found = RAW_LATEX.search(" ".join(parser.parts))
        if found:
            offenders.append(f"{page.relative_to(site)}: {found.group(0)[:40]}")
    assert offenders == []


def test_no_broken_internal_link(site):
    assert broken_links(site) == []


def test_search_index_covers_every_paper(site):
    entry = (site / "pagefind/pagefind-entry.json").read_text()
    assert re.search(rf'"page_count":\s*{PAPERS}\b', entry)


def test_taxonomy_places_every_paper(catalogue):
    taxonomy = catalogue.taxonomy
    assert 25 <= len(taxonomy.tags) <= 45 and 6 <= len(taxonomy.themes) <= 10
    for paper in catalogue.papers:
        assert len(paper.tags) >= 2, paper.slug
        assert catalogue.themes_of(paper), paper.slug
    used = {t for p in catalogue.papers for t in p.tags}
    assert used == set(taxonomy.tags)


def test_long_tailed_papers_are_not_filed_under_long_context(catalogue):
    tail = [p for p in catalogue.papers if "long-tailed-learning" in p.tags]
    assert len(tail) >= 3
    long_context_themes = {"efficient-long-context-inference", "context-extension", "long-sequence-architectures"}
    for paper in tail:
        assert not long_context_themes & {t.id for t in catalogue.themes_of(paper)}, paper.slug


def test_slugs_are_unique_readable_and_stored(catalogue):
    slugs = [p.slug for p in catalogue.papers]
    assert len(set(slugs)) == len(slugs)
    for paper in catalogue.papers:
        assert paper.path.stem == paper.slug and len(paper.slug) <= 60


def test_related_papers_are_on_topic(catalogue, site):
    html = (site / "papers/longrope/index.html").read_text()
    related = html[html.index('id="related"'):html.index('id="cite"')]
    assert related.count("<li>") == 5 and "Shares tags: Positional encoding" in related
    for page in (site / "papers").glob("*/index.html"):
        assert page.read_text().count('<ol class="related-list">') == 1, page


def test_topic_map_places_every_paper(site):
    html = (site / "map/index.html").read_text()
    assert len(set(re.findall(r'<a href="/papers/([a-z0-9-]+)/" aria-label', html))) == PAPERS


ABBREVIATIONS = {"icl": "in-context", "rl": "reinforcement"}


def _named_by(address: str, label: str) -> list[str]:
    """The words of an address (`efficient-inference`) its label does not name (by their first
    four letters, so `optimization` is named by `optimisation`)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", label)]
    parts = [ABBREVIATIONS.get(p, p).split("-")[0] for p in address.split("-") if len(p) > 1]
    return [p for p in parts if len(p) > 2 and not any(w[:4] == p[:4] for w in words)]


def test_every_tag_and_theme_address_reads_as_its_label(frozen_catalogue):
    """`/tags/efficient-inference/` is "Efficient inference": people read addresses."""
    taxonomy = frozen_catalogue.taxonomy
    unnamed = {t.id: _named_by(t.id, t.label) for t in taxonomy.tags.values()}
    unnamed |= {t.id: _named_by(t.id, t.title) for t in taxonomy.themes.values()}
    assert {address: words for address, words in unnamed.items() if words} == {}
    assert _named_by("efficient-inference", "Efficient long-context processing") == ["inference"]
