"""The unit of output: a page (or file) of the site, and the groups the planner makes them in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import urls


@dataclass(frozen=True)
class Page:
    """One output page: where it goes, which template makes it, and the data it shows.

    Two pages that compare equal render to the same bytes (given the same templates and
    shared fragments), which is what lets a rebuild skip them. Its context is complete when
    it is made, and never changed after.
    """

    path: str
    template: str
    title: str
    crumbs: tuple[tuple[str, str], ...] = ()
    context: dict[str, Any] = field(default_factory=dict)
    draft: bool = False  # made for a draft paper: never published, so never in the ledger

    @property
    def file(self) -> str:
        return urls.file_of(self.path)


@dataclass(frozen=True)
class PageGroup:
    """Pages planned together from the same inputs. `version` changes exactly when the planner
    makes the group's pages anew, so later stages skip a group whose version they have seen
    (the pages are then equal to last time's) without comparing its pages."""

    id: str
    pages: tuple[Page, ...]
    version: int


MOVED = "moved"  # the group of redirect pages for content/redirects.txt
REDIRECT_TEMPLATE = "redirect.html"  # the page an alias or a moved address leaves behind
WITHDRAWN = "withdrawn"  # the group of withdrawn papers' pages: kept, but in no list and no sitemap
