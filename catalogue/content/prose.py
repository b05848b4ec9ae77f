"""The curator's own words as the catalogue holds them: hand-written pages and introductions
(read and checked by `content.handwritten`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Writing:
    """A curator's hand-written page (content/pages/, see `content.prose`)."""

    slug: str
    title: str
    description: str
    body: str
    path: Path


@dataclass(frozen=True)
class Prose:
    """Every hand-written page (in title order) and introduction (`(kind, id)` → Markdown)."""

    pages: tuple[Writing, ...] = ()
    intros: tuple[tuple[tuple[str, str], str], ...] = ()

    def intro(self, kind: str, key: str) -> str:
        return dict(self.intros).get((kind, key), "")
