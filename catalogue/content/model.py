"""The catalogue's data: papers, tags, themes and venues, as loaded and validated."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path

from .keys import Key, KeyTable
from .paperlinks import openreview_url, page_label, pdf_url

URL_PATTERN = re.compile(r"^https?://[^\s<>\"]+$")
DOI_PATTERN = re.compile(r"^10\.\d{4,9}/\S+$")  # a DOI alone, as citations write it: 10.1145/3600006.3613165


@dataclass(frozen=True, order=True)
class Venue:
    """A conference edition, identified by name and year: `ICML 2024`."""

    year: int
    name: str
    title: str = ""  # the full name, from content/venues.yaml: International Conference on …
    proceedings: str = ""  # the edition's proceedings, if published
    date: str = ""  # its first day, `2024-07-21`: when its papers were presented
    booktitle: str = ""  # the proceedings' title as citations write it: Proceedings of the 41st …
    publisher: str = ""  # who publishes the proceedings (PMLR), if anyone does
    series: str = ""  # the series they appear in (Proceedings of Machine Learning Research)
    volume: int = 0  # their volume in that series; 0: none

    @cached_property  # made once: lists of thousands of papers count by it
    def label(self) -> str:
        return f"{self.name} {self.year}"

    @cached_property
    def slug(self) -> str:
        return venue_slug(self.label)

    @classmethod
    def parse(cls, text: str) -> Venue | None:
        """`ICLR 2025` → Venue; None when the text is not a name followed by a year."""
        match = re.fullmatch(r"\s*(\S.*?)\s+((?:19|20)\d\d)\s*", text)
        return cls(int(match.group(2)), match.group(1)) if match else None


def venue_slug(label: str) -> str:
    """A venue's part of its address: `ICML 2024` → `icml-2024`."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


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
    """What a list of papers shows of one paper, its abstract (Markdown) and PDF included; lists
    that only name papers (related papers, the map) take its `headline`, which abstract edits leave alone."""

    slug: str
    title: str
    venue: Venue
    authors: tuple[str, ...]
    tags: tuple[str, ...]
    draft: bool
    abstract: str = ""  # the paper's body, as written
    pdf: str = ""  # the PDF's address, where known

    def __hash__(self) -> int:  # lists and maps of thousands of papers look listings up: hash once
        return self._hash

    @cached_property
    def _hash(self) -> int:
        return hash((self.slug, self.title, self.venue, self.authors, self.tags, self.draft, self.abstract, self.pdf))

    @cached_property
    def headline(self) -> Listing:  # without its abstract and PDF; made once, for lists of thousands
        return Listing(self.slug, self.title, self.venue, self.authors, self.tags, self.draft)

    def __getstate__(self) -> dict:  # a string's hash differs in every process: never keep one
        return {name: value for name, value in self.__dict__.items() if name not in ("_hash", "headline")}


def _front_matter(kind: type, doc: str, required: bool = False) -> dict[str, object]:
    """A field written in a paper file's front matter, as YAML of this `kind`, and what it means
    (the reference, docs/reference.md, is written from it)."""
    return {"front_matter": kind, "doc": doc, "required": required}


@dataclass(frozen=True, kw_only=True)
class Paper:
    """One paper page's data, validated. The fields marked `_front_matter` are the front
    matter's schema (`content.schema` derives the checks from them), in the order tools write
    them; `venue` is written as its label (`ICML 2024`), `added` as a date."""

    title: str = field(metadata=_front_matter(
        str, "The paper's title, as the paper gives it.", required=True))
    title_source: str = field(default="curated", metadata=_front_matter(
        str, "Where the title came from: `derived` (made from the abstract by `import`, listed by `review` "
             "until a person writes the real one), `metadata` (a metadata file gave it) or `curated` (a "
             "person checked it; the default)."))
    slug: str = field(metadata=_front_matter(
        str, "The last part of the paper's address, `/papers/<slug>/`: lower-case ASCII letters, digits and "
             "single hyphens. Permanent once published; `build.py` refuses to drop a published address.",
        required=True))
    venue: Venue = field(metadata=_front_matter(
        str, "The conference edition, as `content/venues.yaml` names it: `ICML 2024`.", required=True))
    presentation: str = field(default="", metadata=_front_matter(
        str, "How the venue presented the paper: `oral`, `spotlight` or `poster`, as the venue or the "
             "authors' own pages state it; leave it out when unknown."))
    added: str = field(default="", metadata=_front_matter(
        datetime.date, "The day the paper joined the catalogue (`import` writes it); orders the feeds."))
    authors: tuple[str, ...] = field(default=(), metadata=_front_matter(
        list, "The authors, in the paper's order, each as the paper spells the name (`content/authors.yaml` "
              "joins several spellings of one person)."))
    arxiv: str = field(default="", metadata=_front_matter(
        str, "The arXiv id alone, in quotes: `'2406.07522'`."))
    openreview: str = field(default="", metadata=_front_matter(
        str, "The OpenReview forum id alone, in quotes: `'aMBSY2ebPw'`."))
    doi: str = field(default="", metadata=_front_matter(
        str, "The DOI alone, without `https://doi.org/`: `10.1145/3600006.3613165`."))
    url: str = field(default="", metadata=_front_matter(
        str, "The paper's own page in the proceedings (PMLR, OpenReview, the ACL Anthology…): a full "
             "http(s) address."))
    pages: str = field(default="", metadata=_front_matter(
        str, "Its first and last page in the proceedings, in quotes: `'1234--1250'`."))
    tags: tuple[str, ...] = field(metadata=_front_matter(
        list, "Tag ids from `content/taxonomy.yaml`: `[kv-cache, sparse-attention]`; at least one is expected "
              "(`check` lists papers with fewer than two).", required=True))
    code: str = field(default="", metadata=_front_matter(
        str, "The authors' code repository: a full http(s) address."))
    project: str = field(default="", metadata=_front_matter(
        str, "The authors' project page: a full http(s) address."))
    aliases: tuple[str, ...] = field(default=(), metadata=_front_matter(
        list, "Earlier slugs of this paper: each address keeps leading here (`merge` and `import --update` add "
              "them)."))
    fingerprint: str = field(default="", metadata=_front_matter(
        str, "A digest of the abstract `import` read, so a later import of the same paper is recognised; "
             "written by tools, never by hand."))
    merged: tuple[str, ...] = field(default=(), metadata=_front_matter(
        list, "The fingerprints of the files `build.py merge` joined into this one, so an import knows them; "
              "written by tools."))
    source: str = field(default="", metadata=_front_matter(
        str, "The raw list in `content/sources/` the paper was imported from."))
    draft: bool = field(default=False, metadata=_front_matter(
        bool, "`true` keeps the paper out of the published site; watch mode shows it."))
    withdrawn: str = field(default="", metadata=_front_matter(
        datetime.date, "The day the paper was withdrawn: its page stays at its address and says so; it "
                       "leaves every list."))
    withdrawn_reason: str = field(default="", metadata=_front_matter(
        str, "Why it was withdrawn, shown on its page; only with `withdrawn`."))
    body: str  # the abstract
    path: Path
    body_start: int = field(default=0, compare=False, repr=False)  # the file's line where `body` starts
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    notes: str = ""  # the curator's own words, after a `## Notes` line: shown under the abstract
    notes_start: int = field(default=0, compare=False, repr=False)

    def body_line(self, text: str) -> int:
        """The file's line where `text` (its first line) first appears in the abstract, for
        messages about what the abstract renders to; 0 if it is not there."""
        first = text.split("\n")[0]
        if not first:
            return 0
        return next((self.body_start + number for number, line in enumerate(self.body.split("\n"))
                     if first in line), 0)

    def line_of(self, key: str) -> int:
        """The line of a front matter key in the file, for messages."""
        return self.lines.get(key, 1)

    @property
    def arxiv_url(self) -> str:
        return f"https://arxiv.org/abs/{self.arxiv}" if self.arxiv else ""

    @property
    def openreview_url(self) -> str:
        return openreview_url(self.openreview)

    @property
    def pdf_url(self) -> str:
        """The PDF, where its address is known (arXiv, the proceedings, OpenReview)."""
        return pdf_url(self.arxiv, self.url, self.openreview)

    @property
    def own_page(self) -> str:
        """The paper's own page at its venue: the proceedings', else OpenReview's forum."""
        return self.url or self.openreview_url

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
        return Listing(self.slug, self.title, self.venue, self.authors, self.tags, self.draft, self.body, self.pdf_url)

    @cached_property
    def catalogue_order(self) -> tuple[int, str, str, str]:
        """Venue, newest first, then title."""
        return (-self.venue.year, self.venue.name, *self.sort_key)


PAPER_KEYS = KeyTable(
    "Paper front matter", "content/papers/<slug>.md",
    "A paper's front matter, between `---` lines, above its abstract in Markdown; after the abstract, a "
    "`## Notes` line starts the curator's own notes.",
    tuple(Key(f.name, f.metadata["front_matter"], f.metadata["doc"], f.metadata["required"])
          for f in fields(Paper) if "front_matter" in f.metadata))
FRONT_MATTER: dict[str, type] = PAPER_KEYS.kinds  # key → the YAML type it takes
REQUIRED_KEYS = PAPER_KEYS.required
FIELD_ORDER = tuple(FRONT_MATTER)  # as tools write them
