"""The catalogue's data: papers, tags, themes and venues, as loaded and validated."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
URL_PATTERN = re.compile(r"^https?://[^\s<>\"]+$")


@dataclass(frozen=True, order=True)
class Venue:
    """A conference edition, identified by name and year: `ICML 2024`."""

    year: int
    name: str

    @property
    def label(self) -> str:
        return f"{self.name} {self.year}"

    @property
    def slug(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.label.lower()).strip("-")

    @classmethod
    def parse(cls, text: str) -> Venue | None:
        """`ICLR 2025` → Venue; None when the text is not a name followed by a year."""
        match = re.fullmatch(r"\s*(\S.*?)\s+((?:19|20)\d\d)\s*", text)
        return cls(int(match.group(2)), match.group(1)) if match else None


@dataclass(frozen=True)
class Tag:
    id: str
    label: str
    description: str
    phrases: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Theme:
    id: str
    title: str
    description: str
    tags: tuple[str, ...]
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Taxonomy:
    """The controlled vocabulary: tags in their file order, and themes grouping them."""

    tags: dict[str, Tag]
    themes: dict[str, Theme]

    def themes_of(self, tag_ids: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(t.id for t in self.themes.values() if set(t.tags) & set(tag_ids))


@dataclass(frozen=True)
class Paper:
    """One paper page's data, validated."""

    slug: str
    title: str
    title_source: str
    venue: Venue
    tags: tuple[str, ...]
    body: str
    path: Path
    authors: tuple[str, ...] = ()
    arxiv: str = ""
    code: str = ""
    project: str = ""
    url: str = ""
    aliases: tuple[str, ...] = ()
    fingerprint: str = ""
    source: str = ""
    draft: bool = False
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def line_of(self, key: str) -> int:
        """The line of a front matter key in the file, for messages."""
        return self.lines.get(key, 1)

    @property
    def arxiv_url(self) -> str:
        return f"https://arxiv.org/abs/{self.arxiv}" if self.arxiv else ""

    @property
    def sort_key(self) -> tuple[str, str]:
        return (self.title.casefold(), self.slug)


@dataclass
class Catalogue:
    """Everything the site is made from: papers (by venue, newest first, then title) and the taxonomy."""

    papers: list[Paper]
    taxonomy: Taxonomy

    @cached_property
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
        return [self.taxonomy.themes[t] for t in self.taxonomy.themes_of(paper.tags)]

    @cached_property
    def _by_venue(self) -> dict[Venue, list[Paper]]:
        groups: dict[Venue, list[Paper]] = {}
        for paper in self.papers:
            groups.setdefault(paper.venue, []).append(paper)
        return groups

    @cached_property
    def _by_tag(self) -> dict[str, list[Paper]]:
        groups: dict[str, list[Paper]] = {}
        for paper in self._by_title:
            for tag in paper.tags:
                groups.setdefault(tag, []).append(paper)
        return groups

    @cached_property
    def _by_theme(self) -> dict[str, list[Paper]]:
        theme_tags = {t.id: set(t.tags) for t in self.taxonomy.themes.values()}
        groups: dict[str, list[Paper]] = {}
        for paper in self._by_title:
            for theme, tags in theme_tags.items():
                if tags.intersection(paper.tags):
                    groups.setdefault(theme, []).append(paper)
        return groups

    @cached_property
    def _by_title(self) -> list[Paper]:
        return sorted(self.papers, key=lambda p: p.sort_key)
