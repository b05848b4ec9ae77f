"""The files for machines: feeds, the BibTeX of everything, redirects, robots.txt, the sitemap."""

from __future__ import annotations

from .. import urls
from ..content.model import Catalogue
from .lists import feed
from .page import Page, PageGroup


def site_feed(catalogue: Catalogue, title: str) -> tuple[Page, ...]:
    return (feed(urls.FEED, title, urls.HOME, catalogue.papers),)


def bibtex(catalogue: Catalogue) -> tuple[Page, ...]:
    return (Page(urls.BIBTEX, "papers.bib", "BibTeX", context={"papers": tuple(catalogue.papers)}),)


def redirect_rules(rules: tuple[tuple[str, str], ...]) -> tuple[Page, ...]:
    """Netlify's `_redirects`: a 301 for each alias and each line of content/redirects.txt."""
    return (Page(urls.NETLIFY_REDIRECTS, "netlify-redirects.txt", "Redirects", context={"redirects": rules}),)


def robots() -> tuple[Page, ...]:
    return (Page(urls.ROBOTS, "robots.txt", "Robots"),)


def sitemap(paths: tuple[str, ...]) -> tuple[Page, ...]:
    return (Page(urls.SITEMAP, "sitemap.xml", "Sitemap", context={"paths": paths}),)


def alias_rules(catalogue: Catalogue) -> tuple[tuple[str, str], ...]:
    """(old, new) site paths: each paper's earlier slugs, then content/redirects.txt."""
    aliases = tuple((urls.paper(alias), urls.paper(p.slug)) for p in catalogue.papers for alias in p.aliases)
    return aliases + tuple((r.old, r.new) for r in catalogue.redirects)


def sitemap_paths(groups: list[PageGroup]) -> tuple[str, ...]:
    """Every page a reader can land on: folder pages, not redirects."""
    return tuple(page.path for group in groups for page in group.pages
                 if urls.is_folder(page.path) and page.template != "redirect.html")
