"""Each paper's related papers as its page shows them, kept up to date edit by edit."""

from __future__ import annotations

from ..content.model import Catalogue, Paper, Venue
from .similarity import Related, Similarity


class RelatedViews:
    """Each paper's related papers as its page shows them: (listing, reason) pairs. After an
    edit only the papers it touches, and those whose lists show them, are looked at again, and
    each venue holding a changed list gets a new version, which is what its pages are planned by."""

    def __init__(self) -> None:
        self.views: dict[str, tuple] = {}
        self._revision: int | None = None  # of the catalogue the views are for
        self._similarity: Similarity | None = None
        self._versions: dict[Venue, int] = {}
        self._counter = 0

    def version(self, venue: Venue) -> int:
        return self._versions.get(venue, 0)

    def update(self, catalogue: Catalogue, similarity: Similarity) -> RelatedViews:
        changes = catalogue.changes_since(self._revision)
        by_slug = catalogue.by_slug
        self._counter += 1
        if changes.everything:
            self.views = {p.slug: related_of(p, similarity, by_slug) for p in catalogue.papers}
            self._versions = dict.fromkeys(catalogue.venues, self._counter)
        else:
            touched = changes.slugs | self._moved_by(similarity)
            listed_by = similarity.listed_by
            for slug in touched.union(*(listed_by.get(t, ()) for t in touched)):
                self._refresh(by_slug.get(slug), slug, similarity, by_slug)
        self._revision, self._similarity = catalogue.revision, similarity
        return self

    def _moved_by(self, similarity: Similarity) -> set[str]:
        """The papers whose related lists a new similarity computation changed."""
        if similarity is self._similarity:
            return set()
        old = self._similarity.related if self._similarity else {}
        moved = {slug for slug, related in similarity.related.items() if old.get(slug) != related}
        return moved | {slug for slug in old if slug not in similarity.related}

    def _refresh(self, paper: Paper | None, slug: str, similarity: Similarity, by_slug: dict[str, Paper]) -> None:
        view = related_of(paper, similarity, by_slug) if paper else None
        if self.views.get(slug) != view:
            if paper:
                self.views[slug] = view
                self._versions[paper.venue] = self._counter
            else:
                self.views.pop(slug, None)


def related_of(paper: Paper, similarity: Similarity, by_slug: dict[str, Paper]) -> tuple[tuple, ...]:
    """(listing, reason) of each related paper still in the catalogue. Watch mode may be a step
    behind, so a reason keeps only the tags both papers still have."""
    return tuple((by_slug[r.slug].listing, _shared_tags(r, paper, by_slug[r.slug]))
                 for r in similarity.related.get(paper.slug, ()) if r.slug in by_slug)


def _shared_tags(related: Related, paper: Paper, other: Paper) -> Related:
    return related._replace(tags=tuple(t for t in related.tags if t in paper.tags and t in other.tags))
