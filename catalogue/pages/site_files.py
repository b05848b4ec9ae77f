"""The files for machines: feeds, the citations of everything and of each venue and tag,
redirects, robots.txt, the sitemap; and the preview image that links to any page but a paper's show."""

from __future__ import annotations

import functools
from collections.abc import Callable

from .. import urls
from ..content.catalogue import Catalogue
from ..content.model import Paper, Tag, Venue
from .lists import feed
from .page import Page
from .papers import SOCIAL_IMAGE_TEMPLATE


def site_feed(papers: tuple[Paper, ...], title: str) -> tuple[Page, ...]:
    return feed(urls.FEED, title, urls.HOME, papers)


def citations(file_of: Callable[[str], str], papers: tuple[Paper, ...], keys: tuple[str, ...], about: str,
              home: str) -> tuple[Page, ...]:
    """The papers' citations as BibTeX, RIS and CSL-JSON under their cite `keys`: the files
    `file_of(urls.BIBTEX)`, … (each made by the template of its name). `about` says whose they
    are, `home` their page."""
    context = {"papers": tuple(papers), "keys": keys, "about": about, "home": home}
    return tuple(Page(file_of(name), name, f"Citations of {about}", context=context) for name in urls.CITATIONS)


def catalogue_citations(papers: tuple[Paper, ...], keys: tuple[str, ...]) -> tuple[Page, ...]:
    return citations(str, papers, keys, "every paper", urls.HOME)


def venue_citations(venue: Venue, papers: tuple[Paper, ...], keys: tuple[str, ...]) -> tuple[Page, ...]:
    return citations(functools.partial(urls.venue_file, venue.slug), papers, keys, f"every paper of {venue.label}",
                     urls.venue(venue.slug))


def tag_citations(tag: Tag, papers: tuple[Paper, ...], keys: tuple[str, ...]) -> tuple[Page, ...]:
    return citations(functools.partial(urls.tag_file, tag.id), papers, keys, f"every paper tagged “{tag.label}”",
                     urls.tag(tag.id))


def site_image(tagline: str, themes: tuple[str, ...]) -> tuple[Page, ...]:
    """The preview image of every page but a paper's: the site's name, its tagline, its themes."""
    return (Page(urls.SOCIAL_IMAGE, SOCIAL_IMAGE_TEMPLATE, "Preview", context={
        "title": tagline, "venue": "", "tags": themes}),)


def redirect_rules(rules: tuple[tuple[str, str], ...]) -> tuple[Page, ...]:
    """Netlify's `_redirects`: a 301 for each alias and each line of content/redirects.txt."""
    return (Page(urls.NETLIFY_REDIRECTS, "netlify-redirects.txt", "Redirects", context={"redirects": rules}),)


def robots() -> tuple[Page, ...]:
    return (Page(urls.ROBOTS, "robots.txt", "Robots"),)


def sitemap(paths: tuple[str, ...]) -> tuple[Page, ...]:
    return (Page(urls.SITEMAP, "sitemap.xml", "Sitemap", context={"paths": paths}),)


def alias_rules(catalogue: Catalogue) -> tuple[tuple[str, str], ...]:
    """(old, new) site paths: each paper's earlier slugs, then content/redirects.txt."""
    papers = (*catalogue.papers, *catalogue.withdrawn.values())
    aliases = tuple((urls.paper(alias), urls.paper(p.slug)) for p in papers for alias in p.aliases)
    return aliases + tuple((r.old, r.new) for r in catalogue.redirects)

