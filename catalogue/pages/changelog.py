"""The changelog: /changes/ and its Atom feed, from the history git keeps (`content.history`),
or, without git, from the papers' `added:` dates (additions only, and the page says so)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from urllib.parse import urlparse

from .. import urls
from ..content.catalogue import Catalogue
from ..content.history import LIMIT, Deploy, Edit, Entry, History
from ..content.model import Paper
from .page import Page

SHORT = 7  # characters of a commit shown


@dataclass(frozen=True)
class Item:
    """One change as the page shows it: `slug` the paper's then, `path` its page now ("" if gone)."""

    kind: str
    title: str
    slug: str
    path: str
    fields: tuple[str, ...] = ()
    old_slug: str = ""
    old_title: str = ""


@dataclass(frozen=True)
class Change:
    """A commit's changes (or, without git, one day's additions): `anchor` is its id on the page."""

    anchor: str
    commit: str
    time: str
    summary: str
    items: tuple[Item, ...]

    @property
    def date(self) -> str:
        return self.time[:10]

    @property
    def short(self) -> str:
        return self.commit[:SHORT]


def resolved(history: History | None, catalogue: Catalogue) -> tuple[tuple[str, str], ...]:
    """Each slug the history names, with the page it leads to now ("" if none): what the page
    depends on beyond the history itself, looked up for the few slugs shown only."""
    if history is None:
        return ()
    renamed = {edit.old_slug: edit.slug for entry in reversed(history.entries) for edit in entry.edits
               if edit.kind == "renamed"}
    named = {edit.slug for entry in history.entries for edit in entry.edits}
    if history.deploy and history.deploy.edits:
        named |= {edit.slug for edit in history.deploy.edits}
    return tuple((slug, _page_of(slug, renamed, catalogue)) for slug in sorted(named))


def _page_of(slug: str, renamed: dict[str, str], catalogue: Catalogue) -> str:
    seen = {slug}
    while slug in renamed and renamed[slug] not in seen:  # follow later renames, once each
        slug = renamed[slug]
        seen.add(slug)
    paper = catalogue.by_slug.get(slug) or catalogue.withdrawn.get(slug)  # a withdrawn paper's page stays
    return urls.paper(slug) if paper and not paper.draft else ""


def changelog(history: History | None, pages: tuple[tuple[str, str], ...], papers: list[Paper],
              title: str, base_url: str) -> tuple[Page, Page | None]:
    """The page, and its feed (left out by a caller that writes no site files)."""
    links = dict(pages)
    if history is None:
        changes, deploy = _from_added(papers), None
    else:
        changes = tuple(_change(entry, links) for entry in history.entries)
        deploy = _deploy_view(history.deploy, links)
    days = _by_day(changes)
    context = {"days": days, "deploy": deploy, "from_git": history is not None, "limit": LIMIT,
               "count": sum(len(change.items) for change in changes)}
    page = Page(urls.CHANGES, "changes.html", "Changes", (("Changes", urls.CHANGES),), context)
    feed = Page(urls.CHANGES_FEED, "changes-feed.xml", f"Changes · {title}",
                context={"changes": changes, "from_git": history is not None,
                         "authority": urlparse(base_url).hostname or "localhost"})
    return page, feed


def _by_day(changes: tuple[Change, ...]) -> tuple[tuple[str, tuple[Change, ...]], ...]:
    """The changes under their days, newest day first, each day's in the history's order."""
    days: dict[str, list[Change]] = {}
    for change in changes:
        days.setdefault(change.date, []).append(change)
    return tuple((day, tuple(days[day])) for day in sorted(days, reverse=True))


def _item(edit: Edit, links: dict[str, str]) -> Item:
    path = "" if edit.kind == "removed" else links.get(edit.slug, "")
    return Item(edit.kind, edit.title, edit.slug, path, edit.fields, edit.old_slug, edit.old_title)


def _change(entry: Entry, links: dict[str, str]) -> Change:
    return Change(f"c-{entry.commit[:SHORT]}", entry.commit, entry.time, entry.summary,
                  tuple(_item(edit, links) for edit in entry.edits))


def _deploy_view(deploy: Deploy | None, links: dict[str, str]) -> dict | None:
    if deploy is None:
        return None
    items = None if deploy.edits is None else tuple(_item(edit, links) for edit in deploy.edits)
    return {"since": deploy.since[:SHORT], "until": deploy.until[:SHORT], "shown": items}


def _from_added(papers: list[Paper]) -> tuple[Change, ...]:
    """Without git: the papers added on each day, newest first, whole days until LIMIT."""
    dated = sorted((p for p in papers if p.added and not p.draft), key=lambda p: (p.added, p.sort_key), reverse=True)
    changes, count = [], 0
    for day, group in groupby(dated, key=lambda paper: paper.added):
        if count >= LIMIT:
            break
        items = tuple(Item("added", p.title, p.slug, urls.paper(p.slug)) for p in sorted(group, key=lambda p: p.sort_key))
        changes.append(Change(f"d-{day}", "", f"{day}T00:00:00Z", "", items))
        count += len(items)
    return tuple(changes)
