"""The curator's own words as the catalogue holds them: guides (hand-written pages, in
`content/pages/`) and introductions to theme, tag and venue pages (read and checked by
`content.handwritten`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Guide:
    """A guide: a curator's hand-written page, `content/pages/<slug>.md`, at `/pages/<slug>/`."""

    slug: str
    title: str
    description: str
    body: str
    path: Path


@dataclass(frozen=True)
class Prose:
    """Every guide (in title order) and introduction (`(kind, id)` → Markdown)."""

    guides: tuple[Guide, ...] = ()
    intros: tuple[tuple[tuple[str, str], str], ...] = ()

    def intro(self, kind: str, key: str) -> str:
        return dict(self.intros).get((kind, key), "")
