"""What a plan must satisfy before anything is written: no two pages share a file, every
redirect leads to a page, and no published address vanishes (the ledger). It is checked from
what each group makes (`state.GroupFacts`, kept in the build state with the group), so a rebuild
only unites sets."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import urls
from ..content.redirects import Redirect
from ..ledger import dropped
from ..report import ContentError, Diagnostic
from ..state import GroupFacts
from .page import MOVED, REDIRECT_TEMPLATE, Page


def group_facts(pages: Sequence[Page], in_sitemap: bool) -> GroupFacts:
    """What the checks, the sitemap and the summary need of a group's pages."""
    return GroupFacts(tuple(page.file for page in pages),
                      tuple(page.path for page in pages if in_sitemap and urls.is_folder(page.path)
                            and page.template != REDIRECT_TEMPLATE),
                      frozenset("/" + page.path for page in pages if urls.is_published(page.path) and not page.draft),
                      frozenset(page.file for page in pages if page.draft),
                      frozenset("/" + page.path for page in pages if page.draft),
                      sum(page.template == REDIRECT_TEMPLATE for page in pages))


@dataclass(frozen=True)
class CheckedPlan:
    """A plan that passed: every file it makes, the addresses it publishes, the drafts' files."""

    files: frozenset[str]
    published: frozenset[str]
    drafts: frozenset[str]  # files made only for draft papers: no published page may link there
    html_pages: int
    redirects: int


def check_plan(groups: Sequence[tuple[str, GroupFacts]], redirects: tuple[Redirect, ...],
               ledger: tuple[Path, dict[str, int]] | None, redirects_file: Path,
               leaves_out: Callable[[str], bool]) -> CheckedPlan:
    """The plan's files and addresses, from each group's facts (id, facts, in the plan's
    order); raises ContentError with every problem found. `ledger` is the ledger's path and
    its paths (None: no ledger is kept)."""
    facts = [each for _, each in groups]
    files = frozenset().union(*(f.files for f in facts))
    plan = CheckedPlan(files, frozenset().union(*(f.published for f in facts), ("/" + r.old for r in redirects)),
                       frozenset().union(*(f.drafts for f in facts)), sum(file.endswith(".html") for file in files),
                       sum(f.redirects for f in facts))
    pages_only = frozenset().union(*(f.files for group_id, f in groups if group_id != MOVED))
    problems = _redirect_problems(redirects, pages_only, plan.files, redirects_file, leaves_out)
    if len(plan.files) != sum(len(f.files) for f in facts):
        problems += _shared_files(facts, {urls.file_of(r.old) for r in redirects} & pages_only)
    if ledger:
        draft_paths = frozenset().union(*(f.draft_paths for f in facts))
        problems += dropped(ledger[1], plan.published, ledger[0], leaves_out, draft_paths)
    if problems:
        raise ContentError(problems)
    return plan


def _redirect_problems(redirects: tuple[Redirect, ...], pages: frozenset[str], planned: frozenset[str],
                       redirects_file: Path, leaves_out: Callable[[str], bool]) -> list[Diagnostic]:
    """A redirect keeps an address no page has (`pages`: every file but the redirects'), and
    leads to one that is there."""
    problems = []
    for redirect in redirects:
        asked_by = redirect.path or redirects_file
        if urls.file_of(redirect.old) in pages:
            problems.append(Diagnostic(asked_by, redirect.line, f"/{redirect.old} is a page of the site",
                                       "a redirect keeps an address no page has: delete this line"))
        target = urls.file_of(redirect.new)
        if target not in planned and not leaves_out(target):
            problems.append(Diagnostic(asked_by, redirect.line,
                                       f"the redirect leads to /{redirect.new}, which is no page",
                                       "point it at a page of the site"))
    return problems


def _shared_files(facts: list[GroupFacts], explained: set[str]) -> list[Diagnostic]:
    """Two pages that would be one file; those a redirect's line already explains are left out."""
    problems, seen = [], set()
    for each in facts:
        for file in each.files:
            if file in seen and file not in explained:
                problems.append(Diagnostic("content", 0, f"two pages would both be /{urls.path_of(file)}",
                                           "check content/redirects.txt and the papers' aliases"))
            seen.add(file)
    return problems
