"""Catalogue + related papers → every page of the site, in groups that a rebuild can skip."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import urls
from ..config import SiteConfig
from ..content.history import History
from ..content.model import Catalogue, Listing, Paper, Taxonomy
from ..relate.maps import MAP_SIZE, MainTheme, MapPoint, geometry, home_map, topic_map
from ..relate.related import RelatedViews
from ..relate.review import Costly, grouped, review_items
from ..relate.similarity import NOTHING, Similarity
from . import changelog, lists, site_files
from .lists import LISTING, counts, venue_theme_matrix
from .page import MOVED, REDIRECT_TEMPLATE, WITHDRAWN, Page, PageGroup
from .papers import neighbour, paper_pages, withdrawn_pages

REVIEW_COSTLY_LIMIT = 2_000  # papers: above, watch mode's review page leaves out tags to confirm and duplicates


@dataclass(frozen=True)
class _Inputs:
    """What every group is planned from, computed once a plan."""

    catalogue: Catalogue
    similarity: Similarity
    tally: dict[str, tuple]  # themes, venues and tags with their numbers of papers
    listings: tuple[Listing, ...]  # every paper's listing, in catalogue order
    related: RelatedViews
    main_theme: MainTheme


class Planner:
    """Decides which pages the catalogue makes, in groups. A group is made anew only when its
    inputs differ from last time's; otherwise the same `PageGroup` (same version) comes back,
    which is what keeps rebuilds cheap: the writer skips it without comparing its pages."""

    def __init__(self, config: SiteConfig):
        self.config = config
        self._memo: dict[str, tuple[tuple, PageGroup]] = {}
        self._versions = itertools.count(1)
        self._paper_memo: dict[str, tuple[tuple, tuple[Page, ...]]] = {}
        self._author_memo: dict[str, tuple[list[Paper], Page]] = {}
        self._related = RelatedViews()
        self._listings: tuple[int | None, tuple[Listing, ...]] = (None, ())  # (catalogue revision, listings)
        self._summaries: tuple[int | None, tuple] = (None, ())  # (catalogue revision, (newest, about))
        self._main_theme: MainTheme | None = None
        self._geometry: tuple[tuple, dict[str, MapPoint]] = ((), {})
        # The review page's tags to confirm and possible duplicates, and the catalogue revision
        # they are for: set by watch mode's ReviewRefresher, never worked out in a rebuild.
        self.review_costly: tuple[int | None, Costly | None] = (None, None)

    def plan(self, catalogue: Catalogue, similarity: Similarity = NOTHING,
             history: History | None = None) -> list[PageGroup]:
        """Every page of the site: the indexes, then per venue, tag, theme and author, the
        redirects of content/redirects.txt, the changelog (from `history`, else the dates
        papers were added), and the files for machines (not in previews)."""
        inputs = _Inputs(catalogue, similarity, counts(catalogue), self._all_listings(catalogue),
                         self._related.update(catalogue, similarity), self._main_theme_for(catalogue.taxonomy))
        groups = [*self._index_groups(inputs), *self._venue_groups(inputs), *self._tag_groups(inputs),
                  *self._theme_groups(inputs), *self._author_groups(catalogue, inputs.listings),
                  self._group(WITHDRAWN, (catalogue.withdrawn, catalogue.taxonomy, tuple(catalogue.venues)),
                              withdrawn_pages, catalogue, self.config.social_images),
                  self._group(MOVED, (catalogue.redirects,), _moved_pages, catalogue),
                  self._changelog(catalogue, history)]
        if self.config.site_files:
            groups += self._site_files(catalogue, groups)
        if self.config.curating:
            groups.append(self._review_group(catalogue, inputs.listings))
        return groups

    def _review_group(self, catalogue: Catalogue, listings: tuple[Listing, ...]) -> PageGroup:
        """Watch mode's review page. Its costly parts (tags to confirm, possible duplicates) come
        from `review_costly`, which watch mode works out in the background once edits settle:
        never in a rebuild, which they would slow by 0.1 s at 95 papers and a minute at 10,000.
        The rest (80 ms at 10,000) is redone when what it shows moves: the listings, where the
        title and authors lines are, and the derived papers' abstracts."""
        large = len(catalogue.papers) > REVIEW_COSTLY_LIMIT
        costly = None if large else self.review_costly[1]
        state = "large" if large else "pending" if costly is None else "ready"
        shown = tuple((p.path, p.line_of("title"), p.line_of("authors"), p.title_source,
                       p.body if p.title_source == "derived" else "") for p in catalogue.papers)
        return self._group("review", (listings, shown, catalogue.taxonomy, costly, state), _review, catalogue,
                           self.config.content_dir, costly, state)

    def review_stale(self, catalogue: Catalogue) -> bool:
        """Whether watch mode should work out the review page's costly parts for this catalogue."""
        return len(catalogue.papers) <= REVIEW_COSTLY_LIMIT and self.review_costly[0] != catalogue.revision

    def _group(self, group_id: str, inputs: tuple, make: Callable, *args) -> PageGroup:
        """The group's pages, from `make(*args)` only if `inputs` differ from last time.
        `inputs` must hold everything `make` reads, or an edit could go unseen."""
        previous = self._memo.get(group_id)
        if previous is None or previous[0] != inputs:
            previous = (inputs, PageGroup(group_id, tuple(make(*args)), next(self._versions)))
            self._memo[group_id] = previous
        return previous[1]

    def _index_groups(self, inputs: _Inputs) -> list[PageGroup]:
        catalogue, similarity, tally = inputs.catalogue, inputs.similarity, inputs.tally
        taxonomy, count = catalogue.taxonomy, len(catalogue.papers)
        newest, about = self._newest_and_about(catalogue)
        groups = [
            self._group("home", (count, tally, similarity, taxonomy, newest),
                        _home, self.config.title, count, tally, similarity, inputs.main_theme, newest),
            self._group(urls.ABOUT, (tally, about), _single, urls.ABOUT,
                        "about.html", "About", {"counts": tally, "about": about, "paper_count": count},
                        (("About", urls.ABOUT),)),
            self._group(urls.MAP, (inputs.listings, similarity, taxonomy), self._map, inputs),
            self._group("counts", (tally,), _single, urls.COUNTS_CSS, "counts.css", "Counts", {"counts": tally}),
            self._group("papers", (catalogue.papers,), lists.paginated, urls.PAPERS, "papers.html", "All papers",
                        (("Papers", urls.PAPERS),), catalogue.papers, {}),
            self._index(urls.TAGS, "tags.html", "Tags", tally),
            self._group(urls.VENUES, (tally, inputs.listings), _venues_index, catalogue, tally),  # venues, tags
            self._index(urls.THEMES, "themes.html", "Themes", tally),
            self._index(urls.READING_LIST, "reading-list.html", "Reading list", None),
            self._group("404", (), _single, urls.NOT_FOUND, "404.html", "Page not found", {}),
        ]
        if self.config.search:
            groups.append(self._index(urls.SEARCH, "search.html", "Search", None))
        return groups

    def _index(self, path: str, template: str, title: str, tally: dict | None) -> PageGroup:
        return self._group(path, (tally,), _single, path, template, title, {"counts": tally}, ((title, path),))

    def _venue_groups(self, inputs: _Inputs) -> list[PageGroup]:
        catalogue, taxonomy, groups = inputs.catalogue, inputs.catalogue.taxonomy, []
        for venue in catalogue.venues:
            in_venue = catalogue.papers_in_venue(venue)
            groups.append(self._group(f"papers:{venue.slug}", (in_venue, taxonomy, inputs.related.version(venue)),
                                      self._paper_pages, catalogue, in_venue, inputs.related.views))
            groups.append(self._group(f"venue:{venue.slug}", (venue, in_venue, taxonomy), lists.venue_pages,
                                      venue, in_venue, inputs.main_theme))
            groups += self._feed(f"venue:{venue.slug}", urls.venue(venue.slug), venue.label, in_venue)
            if self.config.site_files:
                groups.append(self._group(f"venue-citations:{venue.slug}", (venue, in_venue),
                                          site_files.venue_citations, venue, in_venue))
        return groups

    def _tag_groups(self, inputs: _Inputs) -> list[PageGroup]:
        catalogue, taxonomy, groups = inputs.catalogue, inputs.catalogue.taxonomy, []
        for tag in taxonomy.tags.values():
            tagged = catalogue.papers_with_tag(tag.id)
            themes = tuple(t for t in taxonomy.themes.values() if tag.id in t.tags)
            groups.append(self._group(f"tag:{tag.id}", (tag, tagged, themes, taxonomy), lists.tag_pages,
                                      tag, tagged, themes, taxonomy))
            groups += self._feed(f"tag:{tag.id}", urls.tag(tag.id), tag.label, tagged)
            if self.config.site_files and tagged:
                groups.append(self._group(f"tag-citations:{tag.id}", (tag, tagged), site_files.tag_citations,
                                          tag, tagged))
        return groups

    def _theme_groups(self, inputs: _Inputs) -> list[PageGroup]:
        catalogue, taxonomy, groups = inputs.catalogue, inputs.catalogue.taxonomy, []
        for theme in taxonomy.themes.values():
            tagged = tuple(catalogue.papers_with_tag(t) for t in theme.tags)
            in_theme = catalogue.papers_in_theme(theme.id)
            groups.append(self._group(f"theme:{theme.id}", (theme, tagged, in_theme, taxonomy), _one,
                                      lists.theme_page, catalogue, theme))
            groups += self._feed(f"theme:{theme.id}", urls.theme(theme.id), theme.title, in_theme)
        return groups

    def _feed(self, group_id: str, listing: str, title: str, papers: Sequence[Paper]) -> list[PageGroup]:
        """The Atom feed of a theme's, tag's or venue's page; none in a watch preview."""
        if not self.config.site_files:
            return []
        return [self._group(f"feed:{group_id}", (title, papers), _one, lists.feed, urls.feed_of(listing),
                            f"{title} · {self.config.title}", listing, papers)]

    def _changelog(self, catalogue: Catalogue, history: History | None) -> PageGroup:
        """/changes/ and its feed: planned again when the history moves (a commit, another
        deploy) or a paper it links to comes or goes; without git, after an edit to the papers."""
        pages = changelog.resolved(history, catalogue)
        papers = catalogue.papers if history is None else ()
        return self._group("changes", (history, pages, papers), _changelog_pages, history, pages, papers, self.config)

    def _author_groups(self, catalogue: Catalogue, listings: tuple[Listing, ...]) -> list[PageGroup]:
        """A page per author, in groups by first letter; and the index of all authors, which
        shows only what the papers' listings hold (names, and how many papers each)."""
        buckets = catalogue.author_buckets()
        groups = [self._group(f"authors:{letter}", (bucket,), self._author_pages, bucket)
                  for letter, bucket in sorted(buckets.items())]
        groups.append(self._group("authors", (listings,), self._author_index, buckets))
        return groups

    def _author_pages(self, bucket: dict[str, list[Paper]]) -> list[Page]:
        return [self._author_page(slug, papers) for slug, papers in sorted(bucket.items())]

    def _author_index(self, buckets: dict[str, dict[str, list[Paper]]]) -> list[Page]:
        """The index names each author as their page does (their first paper's spelling)."""
        every = [(slug, papers) for bucket in buckets.values() for slug, papers in bucket.items()]
        return lists.author_index({slug: self._author_page(slug, papers).context["name"] for slug, papers in every},
                                  {slug: len(papers) for slug, papers in every})

    def _author_page(self, slug: str, papers: list[Paper]) -> Page:
        previous = self._author_memo.get(slug)
        if previous is None or previous[0] != papers:
            previous = (list(papers), lists.author_page(slug, papers))
            self._author_memo[slug] = previous
        return previous[1]

    def _site_files(self, catalogue: Catalogue, groups: list[PageGroup]) -> list[PageGroup]:
        """Feeds, the citations of everything, redirects, robots.txt and the sitemap."""
        rules, paths = site_files.alias_rules(catalogue), site_files.sitemap_paths(groups)
        return [
            self._group("feed", (catalogue.papers,), site_files.site_feed, catalogue, self.config.title),
            self._group("citations", (catalogue.papers,), site_files.catalogue_citations, catalogue),
            self._group(urls.NETLIFY_REDIRECTS, (rules,), site_files.redirect_rules, rules),
            self._group("robots", (), site_files.robots),
            self._group("sitemap", (paths,), site_files.sitemap, paths),
        ]

    def _map(self, inputs: _Inputs) -> tuple[Page, ...]:
        placed = self._map_geometry(inputs.similarity, inputs.main_theme)
        return (Page(urls.MAP, "map.html", "Topic map", (("Topic map", urls.MAP),),
                     {"map": topic_map(inputs.listings, placed, inputs.main_theme)}),)

    def _main_theme_for(self, taxonomy: Taxonomy) -> MainTheme:
        if self._main_theme is None or self._main_theme.taxonomy is not taxonomy:
            self._main_theme = MainTheme(taxonomy)
        return self._main_theme

    def _map_geometry(self, similarity: Similarity, main_theme: MainTheme) -> dict[str, MapPoint]:
        """The topic map's dots, placed again only when the similarity or the taxonomy changed."""
        if self._geometry[0] != (similarity, main_theme):
            self._geometry = ((similarity, main_theme), geometry(similarity, main_theme, MAP_SIZE))
        return self._geometry[1]

    def _newest_and_about(self, catalogue: Catalogue) -> tuple:
        """What the home and About pages say of the catalogue, counted again only after an edit
        to a listing, a date added or a title's source (not after an abstract's)."""
        revision, summaries = self._summaries
        if catalogue.changes_since(revision).alter(lambda p: (p.listing, p.added, p.title_source)):
            summaries = (lists.newest(catalogue.papers), lists.about(catalogue.papers))
        self._summaries = (catalogue.revision, summaries)
        return summaries

    def _all_listings(self, catalogue: Catalogue) -> tuple[Listing, ...]:
        """Every paper's listing, in catalogue order: the same tuple while no edit changes one."""
        revision, listings = self._listings
        if catalogue.changes_since(revision).alter(LISTING):
            listings = tuple(map(LISTING, catalogue.papers))
        self._listings = (catalogue.revision, listings)
        return listings

    def _paper_pages(self, catalogue: Catalogue, in_venue: list[Paper], related: dict[str, tuple]) -> list[Page]:
        """A venue's paper pages; each remade only if it, its neighbours, its related papers
        or the taxonomy changed."""
        pages: list[Page] = []
        for index, paper in enumerate(in_venue):
            before, after = neighbour(in_venue, index - 1), neighbour(in_venue, index + 1)
            inputs = (paper, before, after, catalogue.taxonomy, related.get(paper.slug, ()))
            previous = self._paper_memo.get(paper.slug)
            if previous is None or previous[0] != inputs:
                made = paper_pages(catalogue, paper, before, after, inputs[-1], self.config.social_images)
                previous = self._paper_memo[paper.slug] = (inputs, made)
            pages += previous[1]
        return pages


def _single(path: str, template: str, title: str, context: dict, crumbs: tuple = ()) -> tuple[Page]:
    return (Page(path, template, title, crumbs, context),)


def _review(catalogue: Catalogue, content_dir: Path, costly: Costly | None, state: str) -> tuple[Page]:
    """Watch mode's review page: each item with the file to edit, named from the project folder.
    `costly` may be from before the last edits: the items of papers gone are left out."""
    project = content_dir.absolute().parent  # not resolved: a paper may be a link to a file elsewhere
    items = [item for item in review_items(catalogue, content_dir, costly or Costly((), ()))
             if not item.slug or item.slug in catalogue.by_slug]
    groups = {heading: [(item, Path(os.path.relpath(Path(item.path).absolute(), project)).as_posix()) for item in group]
              for heading, group in grouped(items).items()}
    return (Page(urls.REVIEW, "review.html", "To review", (("To review", urls.REVIEW),),
                 {"groups": groups, "costly": state}),)


def _one(make: Callable[..., Page], *args) -> tuple[Page]:
    return (make(*args),)


def _changelog_pages(history: History | None, pages: tuple, papers: list[Paper],
                     config: SiteConfig) -> tuple[Page, ...]:
    page, feed = changelog.changelog(history, pages, papers, config.title, config.base_url)
    return (page, feed) if config.site_files else (page,)


def _home(title: str, count: int, tally: dict, similarity: Similarity, main_theme: MainTheme,
          newest: dict) -> tuple[Page]:
    return (Page(urls.HOME, "home.html", title, context={"paper_count": count, "counts": tally, "newest": newest,
                                                         "map": home_map(similarity, main_theme)}),)


def _venues_index(catalogue: Catalogue, tally: dict) -> tuple[Page]:
    return (Page(urls.VENUES, "venues.html", "Venues", (("Venues", urls.VENUES),),
                 {"counts": tally, "matrix": venue_theme_matrix(catalogue)}),)


def _moved_pages(catalogue: Catalogue) -> tuple[Page, ...]:
    """A redirect page for each folder address in content/redirects.txt (a file's move is a
    301 in `_redirects` only)."""
    return tuple(Page(r.old, REDIRECT_TEMPLATE, "Moved", context={"target": r.new})
                 for r in catalogue.redirects if r.old.endswith("/"))
