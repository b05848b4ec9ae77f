"""Each paper's related papers as its page shows them."""

from __future__ import annotations

from ..content.model import Paper
from .similarity import Related, Similarity


def related_of(paper: Paper, similarity: Similarity, by_slug: dict[str, Paper]) -> tuple[tuple, ...]:
    """(listing, reason) of each related paper still in the catalogue. Watch mode may be a step
    behind, so a reason keeps only the tags both papers still have."""
    return tuple((by_slug[r.slug].listing, _shared_tags(r, paper, by_slug[r.slug]))
                 for r in similarity.related.get(paper.slug, ()) if r.slug in by_slug)


def _shared_tags(related: Related, paper: Paper, other: Paper) -> Related:
    tags = tuple(t for t in related.tags if t in paper.tags and t in other.tags)
    return related if tags == related.tags else related._replace(tags=tags)  # mostly the same object
