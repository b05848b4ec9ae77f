"""Each paper's related papers as its page shows them."""

from __future__ import annotations

from ..content.model import Listing, Paper
from .similarity import Related, Similarity


def related_listings(paper: Paper, similarity: Similarity, by_slug: dict[str, Paper]) -> tuple:
    """What a paper's related list is made from: the similarity's reasons (the same tuple while
    the similarity is the same) and the headline of each related paper still in the catalogue."""
    reasons = similarity.related.get(paper.slug, ())
    return reasons, tuple(by_slug[r.slug].listing.headline if r.slug in by_slug else None for r in reasons)


def related_view(paper: Paper, reasons: tuple[Related, ...], listings: tuple[Listing | None, ...]) -> tuple:
    """(listing, reason) of each related paper still in the catalogue. Watch mode may be a step
    behind, so a reason keeps only the tags both papers still have."""
    return tuple((listing, _shared_tags(reason, paper.tags, listing.tags))
                 for reason, listing in zip(reasons, listings) if listing is not None)


def _shared_tags(related: Related, tags: tuple[str, ...], other: tuple[str, ...]) -> Related:
    shared = tuple(t for t in related.tags if t in tags and t in other)
    return related if shared == related.tags else related._replace(tags=shared)
