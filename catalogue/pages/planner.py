"""Catalogue + related papers → every page group of the site. A group is a maker and the
arguments it makes its pages from (`PageGroup`): planning makes no page and remembers nothing,
and the build state makes a group again only when its arguments moved."""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Iterator
from functools import cached_property
from pathlib import Path

from .. import urls
from ..config import SiteConfig
from ..content.catalogue import Catalogue
from ..content.citekeys import cite_keys
from ..content.history import History
from ..content.model import Listing, Paper, Taxonomy
from ..relate.map_marks import MainTheme
from ..relate.maps import MAP_SIZE, geometry, home_map, topic_map
from ..relate.related import related_listings
from ..relate.review import Costly, costly_in_watch, grouped, review_items
from ..relate.similarity import NOTHING, Similarity
from . import changelog, lists, site_files
from .lists import LISTING, counts, venue_theme_matrix
from .page import MOVED, REDIRECT_TEMPLATE, Page, PageGroup
from .papers import neighbour, paper_pages

SITEMAP = "sitemap"  # the group made last, from where every other group's pages are
INDEXES = ("home", "about", "map", "counts", "papers", "tags", "venues", "themes", "reading-list", "404", "search",
           "site-image")


class Plan:
    """The page groups of one catalogue: every one, in the site's order (`groups`), or one by
    its id (`group`), which is how watch mode makes the pages a reader looks at first. `review`
    is the review page's costly part, as far as it is known (watch mode works it out later)."""

    def __init__(self, config: SiteConfig, catalogue: Catalogue, similarity: Similarity = NOTHING,
                 history: History | None = None, review: Costly | None = None):
        self.config, self.catalogue, self.similarity, self.history = config, catalogue, similarity, history
        self.review = review

    def groups(self) -> Iterator[PageGroup]:
        """Every group but the sitemap, which `sitemap` makes once the others are known."""
        return (group for group_id in self.ids() if (group := self.group(group_id)) is not None)

    def ids(self) -> Iterator[str]:
        catalogue, site_files = self.catalogue, self.config.site_files
        yield from (name for name in INDEXES if (name != "search" or self.config.search)
                    and (name != "site-image" or self.config.social_images))
        yield from (f"guide:{page.slug}" for page in catalogue.prose.guides)
        for venue in catalogue.venues:
            yield from (f"paper:{paper.slug}" for paper in catalogue.papers_in_venue(venue))
            yield f"venue:{venue.slug}"
            yield from (f"feed:venue:{venue.slug}", f"venue-citations:{venue.slug}") if site_files else ()
        for tag in catalogue.taxonomy.tags:
            yield f"tag:{tag}"
            yield from (f"feed:tag:{tag}",) if site_files else ()
            yield from (f"tag-citations:{tag}",) if site_files and catalogue.papers_with_tag(tag) else ()
        for theme in catalogue.taxonomy.themes:
            yield f"theme:{theme}"
            yield from (f"feed:theme:{theme}",) if site_files else ()
        yield from (f"author:{slug}" for _, bucket in sorted(catalogue.author_buckets().items()) for slug in sorted(bucket))
        yield "authors"
        yield from (f"withdrawn:{slug}" for slug in catalogue.withdrawn)
        yield from (MOVED, "changes")
        yield from ("site-feed", "site-citations", "redirects", "robots") if site_files else ()
        yield from ("review",) if self.config.curating else ()

    def group(self, group_id: str) -> PageGroup | None:
        """The group of this id, or None if this catalogue has none."""
        kind, _, key = group_id.partition(":")
        if kind in ("paper", "withdrawn", "venue", "tag", "theme", "author", "feed", "venue-citations", "tag-citations",
                    "guide"):
            return getattr(self, "_" + kind.replace("-", "_"))(key)
        return self._single(kind)

    def sitemap(self, paths: tuple[str, ...]) -> PageGroup | None:
        return PageGroup(SITEMAP, site_files.sitemap, (paths,)) if self.config.site_files else None

    @cached_property
    def tally(self) -> dict[str, tuple]:
        return counts(self.catalogue)

    @cached_property
    def listings(self) -> tuple[Listing, ...]:
        return tuple(map(LISTING, self.catalogue.papers))

    @cached_property
    def cite_keys(self) -> dict[str, str]:
        """slug → cite key, over the whole catalogue (withdrawn papers keep theirs): a group is
        given the keys of its papers, so one a collision moves is made again."""
        return cite_keys((*self.catalogue.papers, *self.catalogue.withdrawn.values()))

    def keys_of(self, papers: list[Paper] | tuple[Paper, ...]) -> tuple[str, ...]:
        return tuple(self.cite_keys[paper.slug] for paper in papers)

    def _single(self, name: str) -> PageGroup | None:
        """A group of a kind of its own (the home page, the indexes, the site files…)."""
        catalogue, config = self.catalogue, self.config
        papers, taxonomy = tuple(catalogue.papers), catalogue.taxonomy
        made: Callable[[], tuple] | None = {
            "home": lambda: (_home, (config.title, len(papers), self.tally, self.similarity, taxonomy,
                                     lists.newest(papers), lists.links(papers))),
            "about": lambda: (_single, (urls.ABOUT, "about.html", "About", {
                "counts": self.tally, "about": lists.about(papers), "links": lists.links(papers),
                "paper_count": len(papers)}, (("About", urls.ABOUT),))),
            "map": lambda: (_map, (tuple(listing.headline for listing in self.listings), self.similarity, taxonomy)),
            "counts": lambda: (_single, (urls.COUNTS_CSS, "counts.css", "Counts", {"counts": self.tally})),
            "papers": lambda: (lists.all_papers, (self.listings,)),
            "tags": lambda: _index(urls.TAGS, "tags.html", "Tags", self.tally),
            "venues": lambda: (_venues_index, (self.tally, venue_theme_matrix(catalogue))),
            "themes": lambda: _index(urls.THEMES, "themes.html", "Themes", self.tally),
            "reading-list": lambda: _index(urls.READING_LIST, "reading-list.html", "Reading list", None),
            "404": lambda: (_single, (urls.NOT_FOUND, "404.html", "Page not found", {})),
            "search": lambda: _index(urls.SEARCH, "search.html", "Search", None),
            "site-image": lambda: (site_files.site_image, (config.tagline, tuple(t.title for t in taxonomy.themes.values()))),
            "authors": lambda: (lists.author_index, self._author_names()),
            MOVED: lambda: (_moved_pages, (catalogue.redirects,)),
            "changes": self._changelog,
            "site-feed": lambda: (site_files.site_feed, (papers, config.title)),
            "site-citations": lambda: (site_files.catalogue_citations, (papers, self.keys_of(papers))),
            "redirects": lambda: (site_files.redirect_rules, (site_files.alias_rules(catalogue),)),
            "robots": lambda: (site_files.robots, ()),
            "review": self._review,
        }.get(name)
        return PageGroup(name, *made()) if made else None

    def _paper(self, slug: str) -> PageGroup | None:
        """A paper's pages, from only what they show of it, of its neighbours in its venue, of
        the papers related to it and of its tags."""
        paper = self.catalogue.by_slug.get(slug)
        if paper is None:
            return None
        in_venue = self.catalogue.papers_in_venue(paper.venue)
        index = bisect.bisect_left(in_venue, paper.catalogue_order, key=_catalogue_order)
        related = related_listings(paper, self.similarity, self.catalogue.by_slug)
        return PageGroup(f"paper:{slug}", paper_pages, (*self._shown_with(paper), True, neighbour(in_venue, index - 1),
                                                        neighbour(in_venue, index + 1), related, self.config.social_images))

    def _withdrawn(self, slug: str) -> PageGroup | None:
        """A withdrawn paper's pages, at the addresses they had: no neighbours, no related papers."""
        paper = self.catalogue.withdrawn.get(slug)
        if paper is None:
            return None
        listed = bool(self.catalogue.papers_in_venue(paper.venue))
        return PageGroup(f"withdrawn:{slug}", paper_pages, (*self._shown_with(paper), listed, None, None, ((), ()),
                                                            self.config.social_images), in_sitemap=False)

    def _shown_with(self, paper: Paper) -> tuple:
        """The paper, with its tags and themes as its page shows them, and its cite key."""
        return (paper, tuple(self.catalogue.taxonomy.tags[t] for t in paper.tags), tuple(self.catalogue.themes_of(paper)),
                self.cite_keys[paper.slug])

    def _venue(self, slug: str) -> PageGroup | None:
        venue = self._venues().get(slug)
        if venue is None:
            return None
        in_venue = tuple(map(LISTING, self.catalogue.papers_in_venue(venue)))
        return PageGroup(f"venue:{slug}", lists.venue_pages, (venue, in_venue, self.catalogue.taxonomy,
                                                              self.catalogue.prose.intro("venue", slug)))

    def _venue_citations(self, slug: str) -> PageGroup | None:
        venue = self._venues().get(slug)
        if venue is None:
            return None
        papers = tuple(self.catalogue.papers_in_venue(venue))
        return PageGroup(f"venue-citations:{slug}", site_files.venue_citations, (venue, papers, self.keys_of(papers)))

    def _venues(self) -> dict:
        return {venue.slug: venue for venue in self.catalogue.venues}

    def _tag(self, tag_id: str) -> PageGroup | None:
        taxonomy = self.catalogue.taxonomy
        tag = taxonomy.tags.get(tag_id)
        if tag is None:
            return None
        tagged = tuple(map(LISTING, self.catalogue.papers_with_tag(tag_id)))
        themes = tuple(t for t in taxonomy.themes.values() if tag_id in t.tags)
        return PageGroup(f"tag:{tag_id}", lists.tag_pages, (tag, tagged, themes, taxonomy,
                                                            self.catalogue.prose.intro("tag", tag_id)))

    def _tag_citations(self, tag_id: str) -> PageGroup | None:
        tag, tagged = self.catalogue.taxonomy.tags.get(tag_id), tuple(self.catalogue.papers_with_tag(tag_id))
        return PageGroup(f"tag-citations:{tag_id}", site_files.tag_citations,
                         (tag, tagged, self.keys_of(tagged))) if tag and tagged else None

    def _theme(self, theme_id: str) -> PageGroup | None:
        theme = self.catalogue.taxonomy.themes.get(theme_id)
        return theme and PageGroup(f"theme:{theme_id}", lists.theme_page,
                                   (theme, *lists.theme_shown(self.catalogue, theme),
                                    self.catalogue.prose.intro("theme", theme_id)))

    def _guide(self, slug: str) -> PageGroup | None:
        page = next((page for page in self.catalogue.prose.guides if page.slug == slug), None)
        return page and PageGroup(f"guide:{slug}", lists.guide_page, (page,))

    def _feed(self, of: str) -> PageGroup | None:
        """The Atom feed of a venue's, tag's or theme's page (`of`: `venue:iclr-2025`…)."""
        kind, _, key = of.partition(":")
        catalogue, taxonomy = self.catalogue, self.catalogue.taxonomy
        if kind == "venue" and (venue := self._venues().get(key)):
            listing, title, papers = urls.venue(key), venue.label, catalogue.papers_in_venue(venue)
        elif kind == "tag" and key in taxonomy.tags:
            listing, title, papers = urls.tag(key), taxonomy.tags[key].label, catalogue.papers_with_tag(key)
        elif kind == "theme" and key in taxonomy.themes:
            listing, title, papers = urls.theme(key), taxonomy.themes[key].title, catalogue.papers_in_theme(key)
        else:
            return None
        return PageGroup(f"feed:{of}", lists.feed, (urls.feed_of(listing), f"{title} · {self.config.title}", listing,
                                                    tuple(papers)))

    def _author(self, slug: str) -> PageGroup | None:
        papers = self.catalogue.author_buckets().get(slug[:1], {}).get(slug)
        return papers and PageGroup(f"author:{slug}", lists.author_page, (slug, tuple(map(LISTING, papers))))

    def _author_names(self) -> tuple[dict[str, str], dict[str, int]]:
        """Each author as their page names them, and their number of papers: what the index shows."""
        every = sorted(((slug, papers) for bucket in self.catalogue.author_buckets().values()
                        for slug, papers in bucket.items()), key=lambda item: item[0])
        return ({slug: lists.author_name(slug, [papers[0].listing]) for slug, papers in every},
                {slug: len(papers) for slug, papers in every})

    def _changelog(self) -> tuple:
        """/changes/ and its feed: from the history, and the pages its papers have now; without
        git, from the dates papers were added."""
        history, catalogue, config = self.history, self.catalogue, self.config
        pages = changelog.resolved(history, catalogue)
        papers = tuple(catalogue.papers) if history is None else ()
        return (_changelog_pages, (history, pages, papers, config.title, config.base_url, config.site_files))

    def _review(self) -> tuple:
        """Watch mode's review page. Its costly parts (tags to confirm, possible duplicates) are
        watch mode's to work out in the background; what else it shows is its arguments: the
        papers, and where their titles and authors are in their files."""
        catalogue = self.catalogue
        large = not costly_in_watch(len(catalogue.papers))
        costly = None if large else self.review
        state = "large" if large else "pending" if costly is None else "ready"
        lines = tuple((p.path, p.line_of("title"), p.line_of("authors")) for p in catalogue.papers)
        return (_review, (tuple(catalogue.papers), lines, self.config.content_dir, costly, state))


def _catalogue_order(paper: Paper) -> tuple:
    return paper.catalogue_order


def _single(path: str, template: str, title: str, context: dict, crumbs: tuple = ()) -> tuple[Page]:
    return (Page(path, template, title, crumbs, context),)


def _index(path: str, template: str, title: str, tally: dict | None) -> tuple[Callable, tuple]:
    return (_single, (path, template, title, {"counts": tally}, ((title, path),)))


def _home(title: str, count: int, tally: dict, similarity: Similarity, taxonomy: Taxonomy,
          newest: dict, links: dict[str, int]) -> tuple[Page]:
    return (Page(urls.HOME, "home.html", title, context={"paper_count": count, "counts": tally, "newest": newest,
                                                         "links": links,
                                                         "map": home_map(similarity, MainTheme(taxonomy))}),)


def _map(listings: tuple[Listing, ...], similarity: Similarity, taxonomy: Taxonomy) -> tuple[Page]:
    main_theme = MainTheme(taxonomy)
    made = topic_map(listings, geometry(similarity, main_theme, MAP_SIZE), main_theme)
    return (Page(urls.MAP, "map.html", "Topic map", (("Topic map", urls.MAP),), {"map": made}),)


def _venues_index(tally: dict, matrix: tuple) -> tuple[Page]:
    return (Page(urls.VENUES, "venues.html", "Venues", (("Venues", urls.VENUES),), {"counts": tally, "matrix": matrix}),)


def _moved_pages(redirects: tuple) -> tuple[Page, ...]:
    """A redirect page for each folder address in content/redirects.txt (a file's move is a
    301 in `_redirects` only)."""
    return tuple(Page(r.old, REDIRECT_TEMPLATE, "Moved", context={"target": r.new}) for r in redirects
                 if r.old.endswith("/"))


def _changelog_pages(history: History | None, pages: tuple, papers: tuple[Paper, ...], title: str,
                     base_url: str, site_files: bool) -> tuple[Page, ...]:
    page, feed = changelog.changelog(history, pages, list(papers), title, base_url)
    return (page, feed) if site_files else (page,)


def _review(papers: tuple[Paper, ...], lines: tuple, content_dir: Path, costly: Costly | None,
            state: str) -> tuple[Page]:
    """Watch mode's review page: each item with the file to edit, named from the project folder.
    `costly` may be from before the last edits: the items of papers gone are left out."""
    project = content_dir.absolute().parent  # not resolved: a paper may be a link to a file elsewhere
    slugs = {paper.slug for paper in papers}
    items = [item for item in review_items(papers, content_dir, costly or Costly((), ()))
             if not item.slug or item.slug in slugs]
    groups = {heading: [(item, Path(os.path.relpath(Path(item.path).absolute(), project)).as_posix()) for item in group]
              for heading, group in grouped(items).items()}
    return (Page(urls.REVIEW, "review.html", "To review", (("To review", urls.REVIEW),),
                 {"groups": groups, "costly": state}),)
