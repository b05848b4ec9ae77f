"""The pages people land on, in the frozen catalogue: the home page's newest papers and themes,
and the About page."""

from __future__ import annotations

import re

from catalogue.render.environment import long_date


def section(html: str, heading_id: str) -> str:
    start = html.index(f'id="{heading_id}"')
    return html[start:html.index("</section>", start)]


def test_the_home_page_shows_the_newest_papers_and_every_theme_above_the_map(frozen_site, frozen_catalogue):
    home = (frozen_site / "index.html").read_text()
    newest = sorted(frozen_catalogue.papers, key=lambda p: p.added, reverse=True)
    shown = re.findall(r'class="paper-title" href="/papers/([^/]+)/"', section(home, "newest-heading"))
    assert len(shown) == 6 and {newest[0].added} == {p.added for p in frozen_catalogue.papers if p.slug in shown}
    on_day = sum(p.added == newest[0].added for p in frozen_catalogue.papers)
    assert f"{on_day} papers added on {long_date(newest[0].added)}" in home
    themes = section(home, "themes-heading")
    assert all(f'href="/themes/{theme}/"' in themes for theme in frozen_catalogue.taxonomy.themes)
    assert home.index('id="newest-heading"') < home.index('id="themes-heading"') < home.index('id="map-heading"')


def test_the_newest_papers_on_the_home_page_can_be_read_and_saved_from_there(frozen_site):
    newest = section((frozen_site / "index.html").read_text(), "newest-heading")
    assert newest.count('<details class="item-abstract"><summary>Abstract</summary>') == 6
    assert newest.count("data-save-paper=") == 6 and ">PDF</a>" in newest


def test_landing_pages_share_with_the_sites_image_and_their_own_description(frozen_site):
    for path in ("", "about/"):
        page = (frozen_site / path / "index.html").read_text()
        description = re.search(r'<meta name="description" content="([^"]+)">', page).group(1)
        assert f'<meta property="og:description" content="{description}">' in page
        assert '<meta property="og:image" content="http://localhost:8000/social.png">' in page
    assert (frozen_site / "social.png").is_file()


def test_the_about_page_says_what_is_covered_and_when_it_last_changed(frozen_site, frozen_catalogue):
    about = (frozen_site / "about/index.html").read_text()
    latest = max(p.added for p in frozen_catalogue.papers)
    assert f"Last updated {long_date(latest)}." in about
    assert f"{len(frozen_catalogue.papers)} papers from" in about
    for heading in ("What it covers", "How papers are chosen", "How papers are titled", "How papers are tagged"):
        assert f">{heading}</h2>" in about
    assert 'href="/about/"' in (frozen_site / "papers/samba/index.html").read_text()  # in every footer


def test_the_home_and_about_pages_count_the_links_they_promise(frozen_site, frozen_catalogue):
    papers = frozen_catalogue.papers
    own, arxiv, code = (sum(1 for p in papers if test(p)) for test in (
        lambda p: p.url or p.openreview, lambda p: p.arxiv, lambda p: p.code))
    for page in ("index.html", "about/index.html"):
        text = " ".join((frozen_site / page).read_text().split())
        assert f"{own} link to their page at the venue" in text and f"{arxiv} to arXiv" in text, page
        assert f"{code} to their code" in text and "links to code and arXiv" not in text, page


def test_dates_read_as_people_write_them():
    assert long_date("2026-12-01") == "1 December 2026"
    assert long_date("") == ""
