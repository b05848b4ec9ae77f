"""Lists people can work through (each paper's abstract folded, its PDF, a Save button), a reading
list shared as a link, and topic-map labels that cover neither each other nor a dot."""

from __future__ import annotations

import html
import itertools
import json
import random
import re

import pytest
from browsing import ARGS, CHROMIUM, require_chromium, site  # noqa: F401 -- the served real catalogue
from siteserver import SiteServer

from catalogue.content.model import Listing, Venue
from catalogue.relate.map_labels import HALO, LINE_HEIGHT, place, text_width
from catalogue.relate.map_marks import MapPoint

pytestmark = pytest.mark.slow  # the browser tier: Chromium drives the served site (CI, or --slow)

sync_playwright = require_chromium()

LISTS = ("tags/sparse-attention/", "venues/iclr-2025/", "themes/architectures/", "authors/ada-lovelace/", "papers/", "")


def items(page: str) -> dict[str, str]:
    """Each list item of a page, by the slug it links to."""
    found = re.findall(r'<li class="paper-item">\s*<a class="paper-title" href="/papers/([^/]+)/">(.*?)\n</li>', page, re.DOTALL)
    return dict(found)


BROWSING = ("tags/sparse-attention/", "themes/architectures/", "")  # lists that fold each abstract


@pytest.mark.parametrize("path", LISTS)
def test_a_list_item_offers_its_pdf_and_a_save_button_and_on_a_topic_folds_its_abstract(small_built, path):
    page = (small_built.project.site / path / "index.html").read_text()
    samba = items(page)["samba"]
    if path in BROWSING:
        abstract = samba[samba.index('<details class="item-abstract"><summary>Abstract</summary>'):samba.index("</details>")]
        assert "<strong>Samba</strong>" in abstract and "<math" in abstract  # the abstract's Markdown and math, rendered
    else:
        assert "item-abstract" not in page and "Samba</strong>" not in samba
    assert '<a href="https://arxiv.org/pdf/2406.07522">PDF</a>' in samba
    save = re.search(r"""<button class="button" type="button" data-save-paper='([^']+)' hidden>Save</button>""", samba)
    assert json.loads(html.unescape(save.group(1))) == {
        "slug": "samba", "title": "Samba: Simple Hybrid State Space Models", "venue": "ICLR 2025"}
    assert 'static/reading-list.js" defer' in page


def test_a_paper_without_a_known_pdf_offers_none(small_built):
    rocketkv = items((small_built.project.site / "tags/kv-cache/index.html").read_text())["rocketkv"]
    assert "PDF" not in rocketkv and "data-save-paper" in rocketkv and "<details" in rocketkv


def test_an_abstract_edit_moves_the_lists_but_not_what_only_names_the_paper():
    venue = Venue(2025, "ICLR")
    one, other = (Listing("x", "X", venue, (), ("t",), False, abstract, "") for abstract in ("One.", "Other."))
    assert one != other and one.headline == other.headline and one.headline.abstract == ""
    assert one.headline is one.headline  # made once: lists of thousands share it


# The reading list, in Chromium, on the small site.

@pytest.fixture(scope="module")
def served(small_built):
    server = SiteServer(small_built.project.site)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def tab(browser):
    """A page of a fresh context (its own localStorage), failing the test on a script error."""
    context = browser.new_context()
    page, problems = context.new_page(), []
    page.on("pageerror", lambda error: problems.append(str(error)))
    yield page
    context.close()
    assert problems == []


def saved(page) -> list[str]:
    return [item["slug"] for item in page.evaluate("JSON.parse(localStorage.getItem('reading-list') || '[]')")]


def test_save_in_a_list_keeps_the_paper_and_the_list_gives_a_link_to_share(tab, served):
    tab.goto(served.url + "tags/sparse-attention/")
    buttons = tab.locator(".paper-item [data-save-paper]")
    assert buttons.count() == 2 and buttons.first.is_visible()
    buttons.nth(1).click()
    assert buttons.nth(1).get_attribute("aria-pressed") == "true" and buttons.nth(1).inner_text().startswith("Saved ✓")
    assert buttons.nth(0).text_content() == "Save “RocketKV: Two-Stage KV Cache Compression”"  # as read aloud
    buttons.nth(0).click()
    assert saved(tab) == ["samba", "rocketkv"]
    tab.goto(served.url + "reading-list/")
    assert tab.locator("#share-link").input_value() == f"{served.url}reading-list/#papers=samba,rocketkv"


def test_a_shared_link_shows_its_papers_titles_and_adds_them_to_the_list_here(tab, served):
    tab.goto(served.url + "papers/icv/")
    tab.locator("[data-save-paper]").click()
    tab.goto(served.url + "reading-list/#papers=samba,icv,gone-paper")
    shared = tab.locator("#shared-list")
    shared.locator("#shared-papers li").nth(2).wait_for()
    assert shared.is_visible()
    titles = shared.locator("#shared-papers li a")
    assert [titles.nth(i).inner_text() for i in range(titles.count())] == [
        "Samba: Simple Hybrid State Space Models", "In-context Vectors"]
    assert "gone-paper: not in the catalogue now" in shared.inner_text()
    assert "1 of them in your list already" in tab.locator("#shared-summary").inner_text()
    tab.locator("#shared-save").click()
    assert saved(tab) == ["icv", "samba"] and shared.is_hidden()
    assert tab.locator("#reading-list li a").all_inner_texts() == ["In-context Vectors", "Samba: Simple Hybrid State Space Models"]
    assert "#papers" not in tab.url and tab.locator("#reading-list-status").inner_text() == "Added 1 paper to your reading list."


def test_without_javascript_list_items_still_fold_and_hide_the_save_button(browser, served):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(served.url + "tags/sparse-attention/")
    item = page.locator(".paper-item").first
    assert item.locator("[data-save-paper]").is_hidden() and item.locator(".item-abstract-text").is_hidden()
    item.locator("summary").click()
    assert item.locator(".item-abstract-text").is_visible()
    context.close()


# The topic map's labels.

def label_boxes(labels, font: float, turned: bool) -> list[tuple[float, float, float, float]]:
    boxes = []
    for label in labels:
        width = max(map(text_width, label.lines)) * font + 2 * HALO
        height = len(label.lines) * font * LINE_HEIGHT + 2 * HALO
        width, height = (height, width) if turned else (width, height)
        boxes.append((label.x - width / 2, label.y - height / 2, label.x + width / 2, label.y + height / 2))
    return boxes


def apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("turned", [False, True])
def test_labels_are_placed_clear_of_every_dot_and_label_or_left_to_the_legend(turned):
    rng = random.Random(7)
    clusters = [(200, 200), (700, 150), (500, 450), (820, 500)]
    points = tuple(MapPoint(round(cx + rng.gauss(0, 60), 1), round(cy + rng.gauss(0, 40), 1), "m0")
                   for cx, cy in clusters for _ in range(150))
    anchors = [(f"t{i}", f"Theme number {i} with a long name", [(p.x, p.y) for p in points[i * 150:(i + 1) * 150]])
               for i in range(4)]
    anchors.append(("lost", "A theme lost in a crowd", [(500.0, 450.0)]))
    labels = place(anchors, points, 4, 15, 18, (1000, 620), turned=turned)
    boxes = label_boxes(labels, 15, turned)
    reach = 4 * 1.45
    assert all(apart(a, b) for a, b in itertools.combinations(boxes, 2))
    assert all(apart(box, (p.x - reach, p.y - reach, p.x + reach, p.y + reach)) for box in boxes for p in points)
    assert {label.theme_id for label in labels} == {"t0", "t1", "t2", "t3"}  # the lost one: too far to place
    assert labels == place(anchors, points, 4, 15, 18, (1000, 620), turned=turned)  # the same every build


def test_a_map_with_no_room_left_has_no_labels():
    crowded = tuple(MapPoint(float(x), float(y), "m0") for x in range(0, 1000, 8) for y in range(0, 620, 8))
    assert place([("a", "Alpha", [(500.0, 300.0)])], crowded, 3, 15, 20, (1000, 620)) == ()


@pytest.mark.parametrize("width, kind", [(1280, "wide"), (390, "narrow")])
def test_on_the_real_map_no_label_covers_another_or_a_dot(browser, site, width, kind):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900}, has_touch=width < 500)
    page = context.new_page()
    page.goto(site.url + "map/")
    boxes = page.evaluate("""kind => {
        const box = (element) => { const r = element.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        return {labels: [...document.querySelectorAll(`.map-labels-${kind} text`)].map(box),
                dots: [...document.querySelectorAll('.map-svg a path')].map(box)};
    }""", kind)
    context.close()
    inset = lambda b: (b[0] + 0.5, b[1] + 0.5, b[2] - 0.5, b[3] - 0.5)  # touching is not covering
    assert len(boxes["labels"]) >= 5 and len(boxes["dots"]) > 50
    assert all(apart(inset(a), inset(b)) for a, b in itertools.combinations(boxes["labels"], 2))
    assert all(apart(inset(label), inset(dot)) for label in boxes["labels"] for dot in boxes["dots"])


def test_the_legend_says_what_a_dot_its_place_and_its_mark_mean(site):  # noqa: F811
    import urllib.request
    page = urllib.request.urlopen(site.url + "map/").read().decode()
    assert "Each dot is one paper. Papers close together share words" in page
    assert re.search(r'<span class="count">\d+ of its \d+ papers</span>', page)
    assert " dots of " not in page and " dot of " not in page
