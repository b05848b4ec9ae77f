"""The unit of output: a page (or file) of the site, and the groups the planner makes them in."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    """Pages made together: `make(*args)` makes them, and its arguments are all it reads, so
    they are what the group is made from (the build state keys the group by them, and makes it
    again only when they move). `id` names the group (`paper:samba`, `tag:kv-cache`, `home`);
    `in_sitemap` is False for pages a reader should not land on from a search engine."""

    id: str
    make: Callable[..., Sequence[Page]]
    args: tuple = ()
    in_sitemap: bool = True


MOVED = "moved"  # the group of redirect pages for content/redirects.txt
REDIRECT_TEMPLATE = "redirect.html"  # the page an alias or a moved address leaves behind
