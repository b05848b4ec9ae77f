"""The catalogue's data: papers, tags, themes and venues, as loaded and validated."""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from .paperlinks import page_label, pdf_url

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
URL_PATTERN = re.compile(r"^https?://[^\s<>\"]+$")


@dataclass(frozen=True, order=True)
class Venue:
    """A conference edition, identified by name and year: `ICML 2024`."""

    year: int
    name: str
    title: str = ""  # the full name, from content/venues.yaml: International Conference on …
    proceedings: str = ""  # the edition's proceedings, if published

    @cached_property  # made once: lists of thousands of papers count by it
    def label(self) -> str:
        return f"{self.name} {self.year}"

    @cached_property
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
class Listing:
    """What a list of papers shows of one paper, so an abstract edit leaves the lists alone."""

    slug: str
    title: str
    venue: Venue
    authors: tuple[str, ...]
    tags: tuple[str, ...]
    draft: bool

    def __hash__(self) -> int:  # lists and maps of thousands of papers look listings up: hash once
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.slug, self.title, self.venue, self.authors, self.tags, self.draft))


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
    added: str = ""  # ISO date the paper joined the catalogue: orders the feeds
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def line_of(self, key: str) -> int:
        """The line of a front matter key in the file, for messages."""
        return self.lines.get(key, 1)

    @property
    def arxiv_url(self) -> str:
        return f"https://arxiv.org/abs/{self.arxiv}" if self.arxiv else ""

    @property
    def pdf_url(self) -> str:
        """The PDF, where its address is known (arXiv, OpenReview, the proceedings)."""
        return pdf_url(self.arxiv, self.url)

    @property
    def url_label(self) -> str:
        """What the link to `url`, the paper's venue page, is called: OpenReview, PMLR…"""
        return page_label(self.url)

    @cached_property
    def sort_key(self) -> tuple[str, str]:
        """Title order, case-blind; computed once (`cached_property` works on frozen classes)."""
        return (self.title.casefold(), self.slug)

    @cached_property
    def listing(self) -> Listing:
        return Listing(self.slug, self.title, self.venue, self.authors, self.tags, self.draft)

    @cached_property
    def catalogue_order(self) -> tuple[int, str, str, str]:
        """Venue, newest first, then title."""
        return (-self.venue.year, self.venue.name, *self.sort_key)


class Catalogue:
    """Everything the site is made from: papers (by venue, newest first, then title), the
    taxonomy, and indexes by venue, tag and theme (each in title order)."""

    def __init__(self, papers: list[Paper], taxonomy: Taxonomy):
        self.papers = sorted(papers, key=_catalogue_order)
        self.taxonomy = taxonomy
        self.redirects: tuple = ()  # content/redirects.txt, as `load.Redirect`s
        self.parent: Catalogue | None = None  # the catalogue this one was updated from, if any
        self.changes: tuple[tuple[Paper | None, Paper | None], ...] = ()
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
            for key, index in self._index_entries(paper):
                index.setdefault(key, []).append(paper)

    def updated(self, changes: list[tuple[Paper | None, Paper | None]]) -> Catalogue:
        """A copy with each `old` paper replaced by `new` (either may be None); lists that no
        change touches are shared with this catalogue, so later stages can tell at a glance."""
        copy = object.__new__(Catalogue)
        copy.taxonomy, copy._themes_of_tag, copy.redirects = self.taxonomy, self._themes_of_tag, self.redirects
        copy.parent, copy.changes, self.parent = self, tuple(changes), None  # one step back is enough
        if "by_slug" in self.__dict__:
            copy.by_slug = dict(self.by_slug)
            copy.by_slug.update((old.slug, None) for old, _ in changes if old)
            copy.by_slug.update((new.slug, new) for _, new in changes if new)
            for slug in [old.slug for old, _ in changes if old and copy.by_slug[old.slug] is None]:
                del copy.by_slug[slug]
        copy.papers = list(self.papers)
        copy._by_venue, copy._by_tag, copy._by_theme = dict(self._by_venue), dict(self._by_tag), dict(self._by_theme)
        copy._by_author = dict(self._by_author)
        copied: set[int] = set()
        for old, new in changes:
            if old:
                _remove(copy.papers, old, _catalogue_order)
                _remove(copy._own(copy._by_venue, old.venue, copied), old, _catalogue_order)
                for key, index in copy._index_entries(old):
                    _remove(copy._own(index, key, copied), old, _title_order)
            if new:
                _insert(copy.papers, new, _catalogue_order)
                _insert(copy._own(copy._by_venue, new.venue, copied), new, _catalogue_order)
                for key, index in copy._index_entries(new):
                    _insert(copy._own(index, key, copied), new, _title_order)
        copy._by_venue = {venue: papers for venue, papers in copy._by_venue.items() if papers}
        copy._by_tag = {tag: papers for tag, papers in copy._by_tag.items() if papers}
        for authors in copy._by_author.values():
            if id(authors) in copy.__dict__.get("_copied_buckets", ()):
                for slug in [slug for slug, papers in authors.items() if not papers]:
                    del authors[slug]
        return copy

    def _index_entries(self, paper: Paper) -> list[tuple[str, dict[str, list[Paper]]]]:
        themes = {theme for tag in paper.tags for theme in self._themes_of_tag.get(tag, ())}
        return ([(tag, self._by_tag) for tag in paper.tags] + [(t, self._by_theme) for t in sorted(themes)]
                + [(slug, self._author_bucket(slug)) for slug in dict.fromkeys(map(author_slug, paper.authors))])

    def _author_bucket(self, slug: str) -> dict[str, list[Paper]]:
        """Authors are kept in buckets by first letter, so an edit copies one bucket, not all."""
        letter = slug[:1]
        bucket = self._by_author.get(letter)
        if bucket is None or id(bucket) not in getattr(self, "_copied_buckets", ()):
            bucket = dict(bucket or {})
            self._by_author[letter] = bucket
            self.__dict__.setdefault("_copied_buckets", set()).add(id(bucket))
        return bucket

    @staticmethod
    def _own(index: dict, key: object, copied: set[int]) -> list[Paper]:
        """The list at `key`, copied once before this update changes it."""
        papers = index.get(key, [])
        if id(papers) not in copied:
            papers = list(papers)
            index[key] = papers
            copied.add(id(papers))
        return papers

    def changes_since(self, earlier: Catalogue | None) -> tuple[tuple[Paper | None, Paper | None], ...] | None:
        """The (old, new) changes that made this catalogue from `earlier` in at most one step;
        None if it was not made from it, and the caller must look at everything."""
        if self is earlier:
            return ()
        if earlier is not None and self.parent is earlier:
            return self.changes
        return None

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
        return [self.taxonomy.themes[t] for t in self.taxonomy.themes_of(paper.tags)]

    def author_buckets(self) -> dict[str, dict[str, list[Paper]]]:
        """Authors by the first letter of their slug: slug → papers, in title order."""
        return self._by_author


@functools.lru_cache(maxsize=None)
def author_slug(name: str) -> str:
    """`Sean O'Brien` → `sean-o-brien`; `Gizem Yüce` → `gizem-yuce`."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "-".join(re.findall(r"[a-z0-9]+", ascii_name)) or "anonymous"


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
