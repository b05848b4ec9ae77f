"""The pages that list papers: all papers, venues, tags, themes, authors; feeds; the counts."""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .. import urls
from ..content.catalogue import Catalogue
from ..content.model import (
    Listing,
    Paper,
    Tag,
    Taxonomy,
    Theme,
    Venue,
)
from ..content.names import author_slug, family_initial, name_order
from ..content.prose import Guide, Written
from ..relate.map_marks import MainTheme
from .page import Page

FEED_LIMIT = 50
HOME_NEWEST = 6
ALPHABET = (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "#")
AUTHORS_PER_PAGE = 500
PAGE_SIZE = 100
THEME_GROUP_LIMIT = 12
# Venue labels, not Venue objects: a string's hash is cached, a dataclass's is computed each time.
VENUE_LABEL, LISTING = operator.attrgetter("venue.label"), operator.attrgetter("listing")


def counts(catalogue: Catalogue) -> dict[str, tuple]:
    """Themes, venues and tags, each with its number of papers."""
    taxonomy = catalogue.taxonomy
    tags = sorted(taxonomy.tags.values(), key=lambda t: t.label.casefold())
    return {
        "themes": tuple((t, len(catalogue.papers_in_theme(t.id))) for t in taxonomy.themes.values()),
        "venues": tuple((v, len(catalogue.papers_in_venue(v))) for v in catalogue.venues),
        "tags": tuple((t, len(catalogue.papers_with_tag(t.id))) for t in tags),
    }


def newest(papers: Sequence[Paper], count: int = HOME_NEWEST) -> dict[str, Any]:
    """The latest additions for the home page: the newest `count`, the day of the latest, and
    how many papers joined on it."""
    ordered = sorted(papers, key=lambda p: p.added, reverse=True)
    latest = ordered[0].added if ordered else ""
    return {"papers": tuple(p.listing for p in ordered[:count]), "day": latest,
            "on_day": sum(1 for p in ordered if p.added == latest)}


def about(papers: Sequence[Paper]) -> dict[str, Any]:
    """What the About page says of the catalogue: when it last changed, how its titles were found."""
    return {"updated": max((p.added for p in papers), default=""),
            "derived": sum(1 for p in papers if p.title_source == "derived"),
            "with_authors": sum(1 for p in papers if p.authors)}


def links(papers: Sequence[Paper]) -> dict[str, int]:
    """How many papers link to each of their own places: the venue's page (OpenReview or the
    proceedings), arXiv, a PDF, the code; what the home and About pages promise, counted."""
    return {"own_page": sum(1 for p in papers if p.own_page), "arxiv": sum(1 for p in papers if p.arxiv),
            "pdf": sum(1 for p in papers if p.pdf_url), "code": sum(1 for p in papers if p.code)}


def navigation(tally: dict[str, tuple], guides: tuple[Guide, ...] = ()) -> dict[str, tuple]:
    """The left navigation shown on every page: the curator's guides (by slug and title: what
    they say is theirs), themes and venues (counts are in counts.css); the tags, a long list,
    have their own page."""
    return {"guides": tuple((page.slug, page.title) for page in guides),
            **{kind: tuple(item for item, _ in tally[kind]) for kind in ("themes", "venues")}}


def guide_page(guide: Guide) -> tuple[Page]:
    """A curator's hand-written page."""
    path = urls.guide(guide.slug)
    return (Page(path, "guide.html", guide.title, ((guide.title, path),), {"guide": guide}),)


def paginated(first: str, template: str, title: str, crumbs: tuple, listings: Sequence[Listing],
              context: dict[str, Any]) -> list[Page]:
    """A list of papers as pages of PAGE_SIZE: `first`, `first/page/2/`, …"""
    chunks = _chunks(list(listings), PAGE_SIZE)
    return _numbered(first, template, title, crumbs, chunks, [context] * len(chunks), len(listings))


def all_papers(listings: tuple[Listing, ...]) -> list[Page]:
    return paginated(urls.PAPERS, "papers.html", "All papers", (("Papers", urls.PAPERS),), listings, {})


def _chunks(items: list, size: int) -> list[tuple]:
    return [tuple(items[i:i + size]) for i in range(0, len(items), size)] or [()]


def _numbered(first: str, template: str, title: str, crumbs: tuple, chunks: list[tuple],
              contexts: list[dict[str, Any]], total: int) -> list[Page]:
    """Pages 1…n of a list, each with its chunk of papers, its own context and the pager."""
    pages = []
    for number, (chunk, context) in enumerate(zip(chunks, contexts), start=1):
        pager = {"number": number, "count": len(chunks), "first": first,
                 "total": total, "start": (number - 1) * PAGE_SIZE + 1}
        page_title = title if number == 1 else f"{title} (page {number})"
        pages.append(Page(urls.numbered(first, number), template, page_title, crumbs,
                          {**context, "papers": chunk, "pager": pager}))
    return pages


def venue_pages(venue: Venue, listings: tuple[Listing, ...], taxonomy: Taxonomy,
                intro: Written | None = None) -> list[Page]:
    """A venue's papers grouped by their main theme (in the taxonomy's order), in pages."""
    main_theme = MainTheme(taxonomy)
    last = len(main_theme.themes)
    ordered = sorted(listings, key=lambda p: (_or(main_theme.index(p.tags), last), p.title.casefold(), p.slug))
    sizes = Counter(main_theme(p.tags) for p in listings)
    chunks = _chunks(ordered, PAGE_SIZE)
    contexts, previous_theme = [], ()  # the theme the previous page ended with
    for chunk in chunks:
        sections = _sections(chunk, main_theme)
        contexts.append({"venue": venue, "intro": intro, "sections": tuple(
            (theme, sizes[theme], tuple(items), index == 0 and theme == previous_theme)
            for index, (theme, items) in enumerate(sections))})
        previous_theme = sections[-1][0] if sections else ()
    return _numbered(urls.venue(venue.slug), "venue.html", venue.label, (("Venues", urls.VENUES),),
                     chunks, contexts, len(listings))


def _sections(listings: tuple[Listing, ...], main_theme: MainTheme) -> list[tuple[Theme | None, list[Listing]]]:
    """Runs of listings that share a main theme."""
    sections: list[tuple[Theme | None, list[Listing]]] = []
    for listing in listings:
        theme = main_theme(listing.tags)
        if not sections or sections[-1][0] != theme:
            sections.append((theme, []))
        sections[-1][1].append(listing)
    return sections


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def tag_pages(tag: Tag, tagged: tuple[Listing, ...], themes: tuple[Theme, ...], taxonomy: Taxonomy,
              intro: Written | None = None) -> list[Page]:
    return paginated(urls.tag(tag.id), "tag.html", tag.label, (("Tags", urls.TAGS),), tagged,
                     {"tag": tag, "themes": themes, "related": related_tags(tag.id, tagged, taxonomy), "intro": intro})


def related_tags(tag_id: str, tagged: Sequence[Listing], taxonomy: Taxonomy) -> tuple:
    """The tags most often found together with this one, with how often."""
    together = Counter(other for paper in tagged for other in paper.tags if other != tag_id)
    return tuple((taxonomy.tags[t], n) for t, n in sorted(together.items(), key=lambda i: (-i[1], i[0]))[:8])


def venue_theme_matrix(catalogue: Catalogue) -> tuple:
    """Rows of (theme, counts per venue in the venues' order)."""
    venues = catalogue.venues
    rows = []
    for theme in catalogue.taxonomy.themes.values():
        per_venue = Counter(map(VENUE_LABEL, catalogue.papers_in_theme(theme.id)))
        rows.append((theme, tuple(per_venue.get(v.label, 0) for v in venues)))
    return (tuple(venues), tuple(rows))


def theme_shown(catalogue: Catalogue, theme: Theme) -> tuple:
    """What a theme's page shows: the first papers of each of its tags (with how many), how
    many papers it has, and how many of them each venue has."""
    taxonomy = catalogue.taxonomy
    labels = Counter(map(VENUE_LABEL, catalogue.papers_in_theme(theme.id)))
    per_venue = {venue: labels[venue.label] for venue in catalogue.venues if labels[venue.label]}
    groups = tuple((taxonomy.tags[t], tuple(p.listing for p in catalogue.papers_with_tag(t)[:THEME_GROUP_LIMIT]),
                    len(catalogue.papers_with_tag(t))) for t in theme.tags)
    return (tuple(g for g in groups if g[2]), len(catalogue.papers_in_theme(theme.id)),
            tuple(sorted(per_venue.items(), reverse=True)))


def theme_page(theme: Theme, groups: tuple, count: int, per_venue: tuple, intro: Written | None = None) -> tuple[Page]:
    """A theme: its papers per venue, and the first papers of each of its tags."""
    return (Page(urls.theme(theme.id), "theme.html", theme.title, (("Themes", urls.THEMES),), {
        "theme": theme, "groups": groups, "count": count, "per_venue": per_venue, "intro": intro}),)


def author_name(slug: str, listings: Sequence[Listing]) -> str:
    """An author as their page names them: as on their first paper here."""
    return next(a for a in listings[0].authors if author_slug(a) == slug)


def author_page(slug: str, listings: tuple[Listing, ...]) -> tuple[Page]:
    """An author's papers and co-authors, named as on their first paper here."""
    others = Counter(a for p in listings for a in dict.fromkeys(p.authors) if author_slug(a) != slug)
    coauthors = tuple((a, author_slug(a), n) for a, n in sorted(others.items(), key=lambda i: name_order(i[0])))
    name = author_name(slug, listings)
    return (Page(urls.author(slug), "author.html", name, (("Authors", urls.AUTHORS),), {
        "name": name, "papers": listings, "coauthors": coauthors}),)


def author_index(names: dict[str, str], counts_of: dict[str, int]) -> list[Page]:
    """Every author, by family name, with their number of papers, in pages of AUTHORS_PER_PAGE,
    and A–Z jumps to the first author of each letter, wherever their page is."""
    order = sorted(names, key=lambda slug: name_order(names[slug]))
    rows = [(names[slug], slug, counts_of[slug], family_initial(names[slug])) for slug in order]
    chunks = _chunks(rows, AUTHORS_PER_PAGE)
    letters: dict[str, str] = {}
    for number, chunk in enumerate(chunks, start=1):
        for *_, letter in chunk:
            letters.setdefault(letter, f"{urls.numbered(urls.AUTHORS, number)}#{letter_id(letter)}")
    return [Page(urls.numbered(urls.AUTHORS, number), "authors.html",
                 "Authors" if number == 1 else f"Authors (page {number})", (("Authors", urls.AUTHORS),),
                 {"authors": chunk, "letters": letters, "alphabet": ALPHABET, "letter_id": letter_id,
                  "pager": {"number": number, "count": len(chunks), "first": urls.AUTHORS, "total": len(rows)}})
            for number, chunk in enumerate(chunks, start=1)]


def letter_id(letter: str) -> str:
    return f"letter-{letter.lower() if letter != '#' else 'other'}"


def feed(path: str, title: str, home: str, papers: Sequence[Paper]) -> tuple[Page]:
    """An Atom feed of the newest additions first."""
    newest = sorted(papers, key=lambda p: p.added, reverse=True)[:FEED_LIMIT]
    return (Page(path, "feed.xml", title, context={"home": home, "papers": tuple(newest)}),)
