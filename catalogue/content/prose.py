"""The curator's own words as the catalogue holds them: guides (hand-written pages, in
`content/pages/`) and introductions to theme, tag and venue pages (read and checked by
`content.handwritten`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple


class Written(NamedTuple):
    """Markdown a curator wrote, with the file and line it starts at (for messages about it)."""

    text: str
    path: Path
    start: int

    def line_of(self, found: str) -> int:
        """The file's line where `found` first appears in the text; 0 if it is not there."""
        index = self.text.find(found) if found else -1
        return self.start + self.text.count("\n", 0, index) if index >= 0 else 0


@dataclass(frozen=True)
class Guide:
    """A guide: a curator's hand-written page, `content/pages/<slug>.md`, at `/pages/<slug>/`."""

    slug: str
    title: str
    description: str
    body: Written


@dataclass(frozen=True)
class Prose:
    """Every guide (in title order) and introduction (`(kind, id)` → Markdown)."""

    guides: tuple[Guide, ...] = ()
    intros: tuple[tuple[tuple[str, str], Written], ...] = ()

    def intro(self, kind: str, key: str) -> Written | None:
        return dict(self.intros).get((kind, key))
