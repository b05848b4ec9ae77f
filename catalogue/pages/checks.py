"""What a plan must satisfy before anything is written: no two pages share a file, every
redirect leads to a page, and no published address vanishes (the ledger)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import urls
from ..content.redirects import Redirect
from ..ledger import dropped
from ..report import ContentError, Diagnostic
from .page import MOVED, PageGroup


@dataclass(frozen=True)
class GroupFiles:
    """What the check needs of one group: its files, its published paths, its drafts' files."""

    version: int
    pages: int
    files: frozenset[str]
    published: frozenset[str]
    drafts: frozenset[str]
    draft_paths: frozenset[str]
    html: int

    @classmethod
    def of(cls, group: PageGroup) -> GroupFiles:
        pages = group.pages
        files = frozenset(page.file for page in pages)
        return cls(group.version, len(pages), files,
                   frozenset("/" + page.path for page in pages if urls.is_published(page.path) and not page.draft),
                   frozenset(page.file for page in pages if page.draft),
                   frozenset("/" + page.path for page in pages if page.draft),
                   sum(f.endswith(".html") for f in files))


@dataclass(frozen=True)
class Plan:
    """A checked plan: every file it makes, the addresses it publishes, the drafts' files."""

    files: frozenset[str]
    published: frozenset[str]
    drafts: frozenset[str]  # files made only for draft papers: no published page may link there
    html_pages: int


class PlanCheck:
    """Checks each plan, remembering each group's files by its version, so a rebuild only
    unites sets."""

    def __init__(self, redirects_file: Path, leaves_out: Callable[[str], bool]):
        self.redirects_file, self.leaves_out = redirects_file, leaves_out
        self._groups: dict[str, GroupFiles] = {}

    def check(self, groups: list[PageGroup], redirects: tuple[Redirect, ...],
              ledger: tuple[Path, dict[str, int]] | None) -> Plan:
        """The plan's files and addresses; raises ContentError with every problem found.
        `ledger` is the ledger's path and its paths (None: no ledger is kept)."""
        summaries = [self._summary(group) for group in groups]
        self._groups = {group.id: summary for group, summary in zip(groups, summaries)}
        plan = Plan(frozenset().union(*(s.files for s in summaries)),
                    frozenset().union(*(s.published for s in summaries), ("/" + r.old for r in redirects)),
                    frozenset().union(*(s.drafts for s in summaries)), sum(s.html for s in summaries))
        pages_only = frozenset().union(*(s.files for g, s in zip(groups, summaries) if g.id != MOVED))
        problems = self._redirect_problems(redirects, pages_only, plan.files)
        if len(plan.files) != sum(s.pages for s in summaries):
            problems += _shared_files(groups, {urls.file_of(r.old) for r in redirects} & pages_only)
        if ledger:
            draft_paths = frozenset().union(*(s.draft_paths for s in summaries))
            problems += dropped(ledger[1], plan.published, ledger[0], self.leaves_out, draft_paths)
        if problems:
            raise ContentError(problems)
        return plan

    def _summary(self, group: PageGroup) -> GroupFiles:
        known = self._groups.get(group.id)
        return known if known is not None and known.version == group.version else GroupFiles.of(group)

    def _redirect_problems(self, redirects: tuple[Redirect, ...], pages: frozenset[str],
                           planned: frozenset[str]) -> list[Diagnostic]:
        """A redirect keeps an address no page has (`pages`: every file but the redirects'), and
        leads to one that is there."""
        problems = []
        for redirect in redirects:
            asked_by = redirect.path or self.redirects_file
            if urls.file_of(redirect.old) in pages:
                problems.append(Diagnostic(asked_by, redirect.line, f"/{redirect.old} is a page of the site",
                                           "a redirect keeps an address no page has: delete this line"))
            target = urls.file_of(redirect.new)
            if target not in planned and not self.leaves_out(target):
                problems.append(Diagnostic(asked_by, redirect.line,
                                           f"the redirect leads to /{redirect.new}, which is no page",
                                           "point it at a page of the site"))
        return problems


def _shared_files(groups: list[PageGroup], explained: set[str]) -> list[Diagnostic]:
    """Two pages that would be one file; those a redirect's line already explains are left out."""
    problems, seen = [], set()
    for group in groups:
        for page in group.pages:
            if page.file in seen and page.file not in explained:
                problems.append(Diagnostic("content", 0, f"two pages would both be /{page.path}",
                                           "check content/redirects.txt and the papers' aliases"))
            seen.add(page.file)
    return problems
