"""The catalogue: every paper, by venue, tag, theme and author, made once and then updated
revision by revision (`Catalogue.updated`), sharing every list no change touches."""

from __future__ import annotations

import bisect
from functools import cached_property
from typing import NamedTuple

from .changes import Changes, PaperChange, next_revision
from .model import Paper, Taxonomy, Theme, Venue
from .names import author_slug
from .prose import Prose


class _Place(NamedTuple):
    """Where a catalogue lists a paper: an index, the key in it and, for an author, the slug in
    the bucket of their first letter (`_Place("author", "a")` is the bucket itself)."""

    index: str  # venue, tag, theme or author
    key: object
    slug: str = ""


_INDEXES = {"venue": "_by_venue", "tag": "_by_tag", "theme": "_by_theme"}


class Catalogue:
    """Everything the site is made from: papers (by venue, newest first, then title), the
    taxonomy, and indexes by venue, tag, theme and author (each in title order). Withdrawn
    papers are in none of these: only in `withdrawn` (slug → paper), which keeps their pages.

    A catalogue is never changed once made; `updated` makes the next revision, sharing every
    list no change touches (so a page group whose arguments are such a list is known unchanged
    at a glance), and `changes_since` tells which papers an edit touched (`changes.Changes`)."""

    def __init__(self, papers: list[Paper], taxonomy: Taxonomy, redirects: tuple = (), prose: Prose | None = None):
        self.withdrawn = {p.slug: p for p in sorted(papers, key=lambda p: p.slug) if p.withdrawn}
        self.papers = sorted((p for p in papers if not p.withdrawn), key=_catalogue_order)
        self.taxonomy = taxonomy
        self.redirects = redirects  # content/redirects.txt, as `redirects.Redirect`s
        self.prose = prose or Prose()  # the curator's guides and introductions
        self.revision = next_revision()
        self.changes = Changes.all()  # what made this revision from the one before
        self._themes_of_tag: dict[str, tuple[str, ...]] = {}
        for theme in taxonomy.themes.values():
            for tag in theme.tags:
                self._themes_of_tag[tag] = self._themes_of_tag.get(tag, ()) + (theme.id,)
        self._by_venue: dict[Venue, list[Paper]] = {}
        self._by_tag: dict[str, list[Paper]] = {}
        self._by_theme: dict[str, list[Paper]] = {t: [] for t in taxonomy.themes}
        self._by_author: dict[str, dict[str, list[Paper]]] = {}  # first letter → slug → papers
        for paper in self.papers:
            self._by_venue.setdefault(paper.venue, []).append(paper)
        for paper in sorted(self.papers, key=_title_order):
            for place in self._places(paper):
                self._list_at(place).append(paper)

    def updated(self, changes: list[PaperChange], redirects: tuple, prose: Prose) -> Catalogue:
        """The next revision: each change's `old` paper replaced by its `new` (either may be
        None). Lists that no change touches are shared with this catalogue; the others are
        copied once, then edited in place by bisection. A withdrawn paper is no paper to them:
        the changes kept for later stages are those of the papers listed."""
        copy = object.__new__(Catalogue)
        copy.withdrawn = _updated_withdrawn(self.withdrawn, changes)
        changes = [change for change in map(_listed, changes) if change.papers]
        copy.taxonomy, copy._themes_of_tag, copy.redirects = self.taxonomy, self._themes_of_tag, redirects
        copy.prose = prose
        copy.revision, copy.changes = next_revision(), Changes(self.revision, tuple(changes))
        copy.papers = list(self.papers)
        copy._by_venue, copy._by_tag, copy._by_theme = dict(self._by_venue), dict(self._by_tag), dict(self._by_theme)
        copy._by_author = dict(self._by_author)
        if "by_slug" in self.__dict__:
            copy.by_slug = _updated_by_slug(self.by_slug, changes)
        owned: set[_Place] = set()  # the places whose list (or author bucket) this update copied
        for change in changes:
            for paper, edit in ((change.old, _remove), (change.new, _insert)):
                if paper:
                    edit(copy.papers, paper, _catalogue_order)
                    edit(copy._own(_Place("venue", paper.venue), owned), paper, _catalogue_order)
                    for place in copy._places(paper):
                        edit(copy._own(place, owned), paper, _title_order)
        copy._by_venue = {venue: papers for venue, papers in copy._by_venue.items() if papers}
        copy._by_tag = {tag: papers for tag, papers in copy._by_tag.items() if papers}
        for place in [place for place in owned if place.index == "author" and place.slug]:
            if not copy._by_author[place.key][place.slug]:
                del copy._by_author[place.key][place.slug]
        return copy

    def changes_since(self, revision: int | None) -> Changes:
        """What changed since `revision` (the one a stage last worked from); `everything` if
        this catalogue was not made from it in one step."""
        if revision == self.revision:
            return Changes(revision)
        if revision is not None and self.changes.since == revision and not self.changes.everything:
            return self.changes
        return Changes.all()

    def _places(self, paper: Paper) -> list[_Place]:
        """Where a paper is listed in title order: each tag and theme, each author (its
        venue's list keeps catalogue order)."""
        themes = {theme for tag in paper.tags for theme in self._themes_of_tag.get(tag, ())}
        return ([_Place("tag", tag) for tag in paper.tags]
                + [_Place("theme", theme) for theme in sorted(themes)]
                + [_Place("author", slug[:1], slug) for slug in dict.fromkeys(map(author_slug, paper.authors))])

    def _index(self, place: _Place) -> dict:
        """The dict that holds the list at `place`: an author's is their letter's bucket."""
        if place.index == "author":
            return self._by_author.setdefault(place.key, {})
        return getattr(self, _INDEXES[place.index])

    def _list_at(self, place: _Place) -> list[Paper]:
        return self._index(place).setdefault(place.slug or place.key, [])

    def _own(self, place: _Place, owned: set[_Place]) -> list[Paper]:
        """The list at `place`, copied (with its author bucket) the first time an update edits it."""
        if place not in owned:
            bucket = _Place("author", place.key)
            if place.index == "author" and bucket not in owned:
                self._by_author[place.key] = dict(self._by_author.get(place.key, {}))
                owned.add(bucket)
            self._index(place)[place.slug or place.key] = list(self._list_at(place))
            owned.add(place)
        return self._list_at(place)

    @property
    def venues(self) -> list[Venue]:
        return sorted(self._by_venue, reverse=True)

    @cached_property
    def by_slug(self) -> dict[str, Paper]:
        return {p.slug: p for p in self.papers}

    def papers_in_venue(self, venue: Venue) -> list[Paper]:
        return self._by_venue.get(venue, [])

    def papers_with_tag(self, tag_id: str) -> list[Paper]:
        return self._by_tag.get(tag_id, [])

    def papers_in_theme(self, theme_id: str) -> list[Paper]:
        return self._by_theme.get(theme_id, [])

    def themes_of(self, paper: Paper) -> list[Theme]:
        """The themes a paper is in through its tags, in the taxonomy's order."""
        held = {theme for tag in paper.tags for theme in self._themes_of_tag.get(tag, ())}
        return [theme for theme_id, theme in self.taxonomy.themes.items() if theme_id in held]

    def author_buckets(self) -> dict[str, dict[str, list[Paper]]]:
        """Authors by the first letter of their slug: slug → papers, in title order. A bucket
        no change touched is the same dict as in the revision before."""
        return self._by_author


def _listed(change: PaperChange) -> PaperChange:
    """The change as the lists see it: a withdrawn paper is not in them."""
    return PaperChange(*(None if p is None or p.withdrawn else p for p in (change.old, change.new)))


def _updated_withdrawn(withdrawn: dict[str, Paper], changes: list[PaperChange]) -> dict[str, Paper]:
    """The withdrawn papers after `changes`, in slug order; the same dict if none touched them."""
    if not any(p.withdrawn for change in changes for p in change.papers):
        return withdrawn
    updated = dict(withdrawn)
    for change in changes:
        if change.old and change.old.withdrawn:
            updated.pop(change.old.slug, None)
    updated.update((c.new.slug, c.new) for c in changes if c.new and c.new.withdrawn)
    return dict(sorted(updated.items()))


def _updated_by_slug(by_slug: dict[str, Paper], changes: list[PaperChange]) -> dict[str, Paper]:
    updated = dict(by_slug)
    for change in changes:
        if change.old:
            updated.pop(change.old.slug, None)
    for change in changes:
        if change.new:
            updated[change.new.slug] = change.new
    return updated


def _catalogue_order(paper: Paper) -> tuple:
    return paper.catalogue_order


def _title_order(paper: Paper) -> tuple:
    return paper.sort_key


def _remove(papers: list[Paper], paper: Paper, key) -> None:
    index = bisect.bisect_left(papers, key(paper), key=key)
    if index < len(papers) and papers[index] == paper:
        del papers[index]


def _insert(papers: list[Paper], paper: Paper, key) -> None:
    bisect.insort(papers, paper, key=key)
