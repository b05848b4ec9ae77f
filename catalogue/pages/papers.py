"""A paper's pages: its page, its citation files, its preview image, redirects from old slugs."""

from __future__ import annotations

from .. import urls
from ..content.model import Paper, Tag, Theme
from ..relate.related import related_view
from ..text import plain_text
from .page import REDIRECT_TEMPLATE, Page

SOCIAL_IMAGE_TEMPLATE = "social.png"  # drawn with Pillow, not a template


def neighbour(papers: list[Paper], index: int) -> tuple[str, str] | None:
    """Only what the pager shows of a neighbour, so its other edits leave this page alone."""
    if 0 <= index < len(papers):
        return (papers[index].slug, papers[index].title)
    return None


def paper_pages(paper: Paper, tags: tuple[Tag, ...], themes: tuple[Theme, ...], cite_key: str, listed: bool,
                previous: tuple[str, str] | None, next: tuple[str, str] | None, related: tuple,
                social_images: bool) -> tuple[Page, ...]:
    """A paper's page, its citation files (BibTeX, RIS, CSL-JSON), its preview image, and a
    redirect for each earlier slug. `cite_key`: its key in the catalogue (`citekeys`);
    `listed`: whether its venue has a page (a venue of withdrawn papers only has none);
    `related`: what its related list is made from (`related_listings`)."""
    venue, draft = paper.venue, paper.draft
    related = related_view(paper, *related)
    title = plain_text(paper.title)
    image = urls.paper_file(paper.slug, urls.SOCIAL_IMAGE) if social_images else ""
    crumbs = (("Venues", urls.VENUES), (venue.label, urls.venue(venue.slug))) if listed else (("Venues", urls.VENUES),)
    page = Page(urls.paper(paper.slug), "paper.html", title, crumbs, {
                    "paper": paper, "cite_key": cite_key, "paper_tags": tags, "image": image, "venue_listed": listed,
                    "themes": themes, "previous": previous, "next": next, "related": related}, draft)
    extras = [Page(urls.paper_file(paper.slug, name), name, title, context={"paper": paper, "cite_key": cite_key},
                   draft=draft)
              for name in (urls.CITATION, urls.CITATION_RIS, urls.CITATION_CSL_JSON)]
    if image:
        extras.append(Page(image, SOCIAL_IMAGE_TEMPLATE, title, context={
            "title": title, "venue": venue.label + (" · Withdrawn" if paper.withdrawn else ""), "tags": tuple(t.label for t in tags)}, draft=draft))
    redirects = tuple(Page(urls.paper(alias), REDIRECT_TEMPLATE, title, context={"target": urls.paper(paper.slug)},
                           draft=draft) for alias in paper.aliases)
    return (page, *extras, *redirects)
