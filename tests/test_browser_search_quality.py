"""Search finds what people type: the query set in tests/search_queries.tsv run through /search/
of the frozen catalogue in Chromium, the fallbacks the search page adds to Pagefind (most words, a
corrected typo, suggestions), what it says of words no paper holds, questions, results with
authors, venue and the words found, the arrow keys, and the layout of a 390 px phone."""

from __future__ import annotations

import csv
import re
from pathlib import Path
from urllib.parse import quote_plus

import pytest
from test_browser_search import browser, page, site  # noqa: F401 (fixtures)

from catalogue import urls

pytestmark = pytest.mark.slow  # the browser tier: Chromium drives the served site (CI, or --slow)

QUERIES = Path(__file__).parent / "search_queries.tsv"
TOP = 5  # a query hits when its paper is among the first TOP results
# Measured on the frozen catalogue (95 papers, 54 queries) when the set was written: 40 first and
# 44 in the first five with Pagefind alone; 50 and 54 with this search. With 11 queries more (stop
# words, swapped letters, OpenReview ids, questions): 58 and 63 of 65 before honest search, 59 and
# 65 after. The set may only do better.
AT_LEAST_FIRST, AT_LEAST_IN_TOP = 59, 65
PHONE = {"width": 390, "height": 844}


def queries() -> list[dict[str, str]]:
    lines = [line for line in QUERIES.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def search(tab, server, query: str) -> list[str]:
    """The slugs /search/ lists for `query`, in order, once it says it is done."""
    tab.goto(f"{server.url}search/?q={quote_plus(query)}")
    tab.locator("#search-status[data-done]").wait_for()
    hrefs = [link.get_attribute("href") for link in tab.locator("#search-results .result-title").all()]
    return [re.match(r"/papers/([^/]+)/", href).group(1) for href in hrefs]


def status(tab) -> str:
    return tab.locator("#search-status").inner_text()


def test_the_query_set_is_real_and_big_enough():
    rows = queries()
    assert len(rows) >= 30 and all(row["expected"] and row["query"] for row in rows)
    assert sum(row["must"] == "must" for row in rows) >= 5


def test_the_query_set_finds_its_papers(site, page, frozen_catalogue):  # noqa: F811
    slugs = {paper.slug for paper in frozen_catalogue.papers}
    ranks, missed = {}, []
    for row in queries():
        assert row["expected"] in slugs, f"{row['expected']} is not a paper"
        found = search(page, site, row["query"])
        ranks[row["query"]] = found.index(row["expected"]) + 1 if row["expected"] in found else None
        if row["must"] == "must" and not (ranks[row["query"]] and ranks[row["query"]] <= TOP):
            missed.append(f"{row['query']!r}: {row['expected']} at {ranks[row['query']]}, first {found[:TOP]}")
    assert missed == []
    first = sum(rank == 1 for rank in ranks.values())
    in_top = sum(rank is not None and rank <= TOP for rank in ranks.values())
    report = {query: rank for query, rank in ranks.items() if rank != 1}
    assert first >= AT_LEAST_FIRST and in_top >= AT_LEAST_IN_TOP, report


def test_rope_finds_longrope_first_and_the_papers_that_use_rope(site, page):  # noqa: F811
    found = search(page, site, "RoPE")
    assert found[0] == "longrope"
    assert {"wavelet-based-positional-representation-long-context", "comemo"} <= set(found[:TOP])


def test_an_arxiv_id_in_any_form_finds_its_paper_alone(site, page):  # noqa: F811
    for query in ("2406.07522", "arXiv:2406.07522", "https://arxiv.org/abs/2406.07522v2"):
        assert search(page, site, query) == ["samba"]
    assert status(page) == "1 paper matches “2406.07522”"


def test_a_theme_in_other_words_finds_the_themes_papers_first(site, page, frozen_catalogue):  # noqa: F811
    theme = {paper.slug for paper in frozen_catalogue.papers_in_theme("icl-theory")}
    found = search(page, site, "in-context learning theory")
    assert set(found[:len(theme)]) == theme


def test_a_phrase_ranks_the_papers_that_hold_it_first(site, page, frozen_catalogue):  # noqa: F811
    tagged = {paper.slug for paper in frozen_catalogue.papers_with_tag("state-space-models")}
    assert set(search(page, site, "state space")[:len(tagged)]) == tagged
    assert search(page, site, "kv cache compression")[0] == "rocketkv"  # the phrase is in its title


def test_few_papers_with_every_word_are_followed_by_papers_with_most_and_it_says_so(site, page):  # noqa: F811
    found = search(page, site, "icl steering latent space")
    assert found[0] == "in-context-vectors" and len(found) > 5
    assert re.fullmatch(r"No paper has every word of “icl steering latent space”; showing \d+ papers"
                        r" with 2 or more of its 4 words\.", status(page))
    found = search(page, site, "long rope")
    assert found[0] == "longrope"
    assert re.match(r"\d+ papers have every word of “long rope”; below them, \d+ more with one of its 2 words\.$", status(page))


def test_a_typo_is_corrected_and_the_original_is_a_link_away(site, page):  # noqa: F811
    assert search(page, site, "retreival head")[0] == "retrieval-head-mechanistically-explains-long-context"
    assert search(page, site, "smaba") == ["samba"]
    assert status(page).startswith("Showing 1 paper for “samba”: no paper mentions “smaba”.")
    page.get_by_role("link", name="Search for “smaba” instead").click()
    page.wait_for_url(re.compile(r"\?q=smaba&exact=1$"))
    page.locator("#search-status[data-done]").wait_for()
    assert "samba" not in status(page) and page.input_value("#search-q") == "smaba"


def test_two_letters_swapped_are_corrected_even_where_pagefind_finds_something(site, page):  # noqa: F811
    found = search(page, site, "attnetion")  # Pagefind alone: 33 papers, for the "att" of it
    assert status(page).startswith("Showing ") and "for “attention”: no paper mentions “attnetion”." in status(page)
    assert found == search(page, site, "attention")


def test_a_typo_is_corrected_only_to_a_word_of_the_papers_own_text(site, page):  # noqa: F811
    search(page, site, "ring attention")  # "ring" is one letter from names only: Jing, Ding, Ming…
    assert re.fullmatch(r"No paper mentions “ring”\. Showing \d+ papers with “attention”\.", status(page))
    assert search(page, site, "Mahony") == []  # never "many", two letters away, for Mahoney, one away
    assert status(page).startswith("No paper mentions “Mahony”. Did you mean “Mahoney”?")
    page.get_by_role("link", name="“Mahoney”").click()
    page.locator("#search-status[data-done]").wait_for()
    assert page.input_value("#search-q") == "Mahoney" and "hope" in [
        re.match(r"/papers/([^/]+)/", href).group(1)
        for href in (a.get_attribute("href") for a in page.locator("#search-results .result-title").all())]
    search(page, site, "Beidi Chne")  # a name among names may be corrected to a name
    assert status(page).startswith("Showing ") and "for “Beidi Chen”: no paper mentions “Chne”." in status(page)


def test_a_word_of_the_catalogue_is_never_corrected(site, page):  # noqa: F811
    assert search(page, site, "jamba") == ["scbench"]  # one letter from samba and mamba, and in an abstract
    assert status(page) == "1 paper matches “jamba”"


def test_a_word_no_paper_holds_matches_nothing_and_the_page_offers_what_there_is(site, page):  # noqa: F811
    assert search(page, site, "kubernetes") == []  # Pagefind alone: 3 papers, for their "k"
    assert status(page).startswith("No paper mentions “kubernetes”. The catalogue's largest themes: ")
    themes = [link.get_attribute("href") for link in page.locator("#search-status a[href*='theme=']").all()]
    assert len(themes) == 4 and all(href.startswith("/search/?theme=") for href in themes)
    page.locator("#search-status a[href*='theme=']").first.click()
    page.locator("#search-status[data-done]").wait_for()
    assert re.fullmatch(r"\d+ papers with these filters", status(page))


def test_a_search_that_finds_nothing_suggests_where_to_browse(site, page):  # noqa: F811
    assert search(page, site, "xqzzyv") == []
    assert status(page).startswith("No paper mentions “xqzzyv”.") and "Try fewer or other words" in status(page)
    links = page.locator("#search-status a:not([href*='theme='])").all()
    assert [link.get_attribute("href") for link in links] == ["/" + path for path in (urls.TAGS, urls.THEMES, urls.VENUES, urls.AUTHORS)]
    assert all(page.request.get(site.url + link.get_attribute("href").lstrip("/")).ok for link in links)


def test_a_query_of_punctuation_alone_browses_the_catalogue(site, page):  # noqa: F811
    assert len(search(page, site, "?")) > 0 and status(page).endswith("papers in the catalogue")


def test_stop_words_are_not_counted_among_most_of_the_words(site, page):  # noqa: F811
    found = search(page, site, "needle in a haystack")  # was: "92 more with 2 or more of its 4 words"
    assert found[0] == "artificial-needles-real-haystacks-improving-retrieval" and len(found) < 10
    assert "of its 4 words" not in status(page)
    search(page, site, "the needle in a haystack test")
    assert re.search(r"with 2 or more of its 3 words besides “the”, “in”, “a”\.$", status(page))


def test_an_openreview_id_or_address_finds_its_paper_alone(site, page):  # noqa: F811
    for query in ("aMBSY2ebPw", "https://openreview.net/forum?id=aMBSY2ebPw",
                  "openreview.net/pdf?id=aMBSY2ebPw", "https://openreview.net/forum?id=aMBSY2ebPw&noteId=x1"):
        assert search(page, site, query) == ["llms-really-learn-translate-low-resource"]
        assert status(page) == "1 paper matches “aMBSY2ebPw”"


def test_a_question_ranks_papers_about_its_key_words_above_those_in_passing(site, page):  # noqa: F811
    found = search(page, site, "why does in-context learning work")
    assert status(page).endswith("match “in-context learning work”, the key words of the question")
    titles = page.locator("#search-results .result-title").all_inner_texts()
    about = [i for i, title in enumerate(titles) if re.search(r"\bin-context\b.*\blearn|\blearn.*\bin-context\b", title, re.I)]
    assert about == list(range(len(about))) and len(about) >= 5  # title matches first
    assert found.index("inference-scaling-long-context-retrieval-augmented") > len(about)  # was 2nd: a tag only
    assert "pretrained-transformers-learn-in-context-gradient" in found[:len(about)]


def test_results_show_venue_and_the_first_authors(site, page):  # noqa: F811
    search(page, site, "samba")
    assert page.locator("#search-results .result-byline").first.inner_text() == \
        "ICLR 2025 · Liliang Ren, Yang Liu, Yadong Lu et al."


def test_excerpts_show_the_abstract_around_the_words_found_marked(site, page):  # noqa: F811
    search(page, site, "samba")
    excerpt = page.locator("#search-results .result-excerpt").first
    assert excerpt.inner_text().startswith("… ")  # not the abstract's opening: its first "Samba"
    assert "2406.07522" not in excerpt.inner_text() and "Liliang" not in excerpt.inner_text()
    assert {mark.strip(",.") for mark in excerpt.locator("mark").all_inner_texts()} == {"Samba"}
    search(page, site, "kv cache")
    for item in page.locator("#search-results .result-excerpt").all()[:5]:
        marked = " ".join(item.locator("mark").all_inner_texts()).lower()
        assert "kv" in marked and "cache" in marked
    search(page, site, "speculativ decodng")  # the words searched for, corrected
    assert "decoding" in page.locator("#search-results .result-excerpt mark").first.inner_text().lower()


def test_the_panel_counts_in_words_and_moves_with_the_arrow_keys(site, page):  # noqa: F811
    page.goto(f"{site.url}papers/samba/")
    page.focus("#header-q")
    page.keyboard.type("samba")
    summary = page.locator(".panel-summary")
    summary.filter(has_text="See it on the search page").wait_for()
    page.fill("#header-q", "mamba")
    summary.filter(has_text=re.compile(r"See all \d+ results, with filters")).wait_for()
    titles = page.locator(".search-panel .result-title")
    for key, focused in (("ArrowDown", 0), ("ArrowDown", 1), ("ArrowUp", 0)):
        page.keyboard.press(key)
        assert page.evaluate("document.activeElement.textContent") == titles.nth(focused).inner_text()
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.id") == "header-q"
    page.keyboard.press("ArrowDown")
    href = titles.first.get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape(href) + "$"))


def test_on_the_search_page_slash_and_the_arrow_keys_use_its_own_box(site, page):  # noqa: F811
    search(page, site, "mamba")
    page.locator("h1").click()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "search-q"
    page.keyboard.press("ArrowDown")
    first = page.locator("#search-results .result-title").first
    assert page.evaluate("document.activeElement.textContent") == first.inner_text()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/papers/[a-z0-9-]+/\?highlight=mamba$"))


@pytest.fixture
def phone(browser):  # noqa: F811
    context = browser.browser.new_context(viewport=PHONE) if browser.browser else None
    if context is None:
        pytest.skip("persistent contexts cannot open a phone-sized context")
    tab = context.new_page()
    yield tab
    context.close()


def wider_than_the_screen(tab) -> bool:
    return tab.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")


def test_the_search_page_fits_a_phone_with_filters_before_results(site, phone):  # noqa: F811
    phone.goto(f"{site.url}search/?q=kv+cache")
    phone.locator("#search-status[data-done]").wait_for()
    assert not wider_than_the_screen(phone)
    filters, results = phone.locator("#search-filters"), phone.locator("#search-results")
    assert filters.bounding_box()["y"] < results.bounding_box()["y"]
    assert filters.get_attribute("open") is None  # folded: the results stay in sight
    assert phone.locator("#search-sort").is_visible()


def test_the_header_panel_shows_five_results_on_a_phone(site, phone):  # noqa: F811
    phone.goto(f"{site.url}papers/samba/")
    phone.focus("#header-q")
    phone.keyboard.type("attention")
    phone.locator(".panel-summary").wait_for()
    assert not wider_than_the_screen(phone)
    panel = phone.locator(".search-panel").bounding_box()
    shown = [box for box in (t.bounding_box() for t in phone.locator(".search-panel .result").all())
             if box["y"] + box["height"] <= min(panel["y"] + panel["height"], PHONE["height"])]
    assert len(shown) >= 5


def test_without_javascript_the_search_page_says_how_to_browse(browser, site):  # noqa: F811
    context = browser.browser.new_context(java_script_enabled=False) if browser.browser else None
    if context is None:
        pytest.skip("persistent contexts cannot switch JavaScript off")
    tab = context.new_page()
    tab.goto(f"{site.url}search/?q=rope")
    note = tab.locator("main .notice")
    assert "Searching needs JavaScript" in note.inner_text()
    assert [a.get_attribute("href") for a in note.locator("a").all()] == ["/papers/", "/tags/", "/themes/", "/venues/", "/authors/"]
    assert not tab.locator("#search-sort").is_visible() and not tab.locator("#search-filters").is_visible()
    assert tab.locator("#search-form").get_attribute("action") == "/search/"
    context.close()
