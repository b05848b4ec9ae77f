"""The builder: every stage of the pipeline (load → relate → plan → render and write) over one
build state (`state.BuildState`), redoing what one change set (`changeset.ChangeSet`) reaches.
A build from the command line and `check` (`pipeline`) and watch mode (`serve.watch`) each
keep one, and differ only in the state they start from, where they write and what they leave
out."""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .changeset import ChangeSet, Ready
from .config import PAPERS_DIR, REDIRECTS_FILE, SiteConfig
from .content.catalogue import Catalogue
from .content.history import History, read_history
from .content.loader import ContentLoader
from .content.model import Paper
from .output.links import LinkReport, check_links, explain, written_by_curators
from .output.static import fingerprint_assets, sync_static, write_assets
from .output.writer import Made, SiteWriter
from .pages.checks import CheckedPlan, check_plan
from .pages.lists import navigation
from .pages.page import PageGroup
from .pages.planner import Plan
from .progress import Stages
from .relate.review import Costly, costly_in_watch, costly_parts
from .relate.similarity import Similarity, related_papers, texts
from .render.renderer import PageRenderer
from .report import Diagnostic, Report
from .state import BuildState, Derived, identity

SIMILARITY_INLINE_LIMIT = 200  # papers: up to here related papers take ~20 ms, so a rebuild waits for them
SIMILARITY, REVIEW = "similarity", "review"  # derived values, by name (and search.SEARCH)
Item = TypeVar("Item")


@dataclass(frozen=True)
class RenderResult:
    """What one build did: the files it wrote (`first`: the pages a reader was looking at, and
    the edited papers' own), those it removed, and what its checked plan makes and publishes
    (None: a newer change stopped the build after its first pages)."""

    plan: CheckedPlan | None
    written: list[str]
    removed: list[str]
    first: list[str]
    added: bool  # files were added or removed, or a page's ids moved: every page's links are checked again


class Stopped(Exception):
    """A newer change stopped a build's rest (watch mode): the next build does it."""


class Builder:
    """Every stage over one build state: each build redoes only what its change set reaches,
    into `out_dir` (None: in memory only, as `check` does).

    With `staged`, `out_dir` is a staging folder that no reader sees before it is swapped in.
    With `later` (watch mode), a build of a catalogue larger than SIMILARITY_INLINE_LIMIT
    renders with the related papers last worked out, and so does the review page; `wanted`
    then says what to work out in the background, which comes back as a `Ready` result.
    """

    def __init__(self, config: SiteConfig, state: BuildState | None = None, out_dir: Path | None = None,
                 stages: Stages | None = None, later: bool = False, staged: bool = False):
        self.config, self.out_dir = config, out_dir
        self.state = state if state is not None else BuildState(identity(config))
        self.stages = stages or Stages()
        self.later = later
        self.loader = ContentLoader(config.content_dir, config.ledger, self.state)
        self.renderer = PageRenderer(config, self.state)
        self.writer = SiteWriter(self.renderer, self.state, out_dir, staged)
        self.catalogue: Catalogue | None = None  # the last one loaded
        self.history: History | None = None  # the papers' git history, read at a builder's first load
        self.wanted: dict[str, tuple] = {}  # background work: name → (key, function, arguments)
        self.drafts: frozenset[str] = frozenset()  # the files the last plan made only for draft papers
        self.assets: dict[str, tuple[str, bytes]] = {}  # the fingerprinted static files, as last read
        self._planned = 0  # the revision of the catalogue last planned
        self._group_ids = frozenset(self.state.groups)  # the groups of the last plan
        self._coming: frozenset[str] = frozenset()  # made, not yet written: see `links`
        self._has_new_groups: Callable[[], bool] = bool  # while the pages written first are checked: see `links`

    def build(self, changes: ChangeSet, report: Report, first: Collection[str] = (),
              shown_first: Callable[[list[str]], None] | None = None,
              stop: Callable[[], bool] = lambda: False) -> RenderResult:
        """Bring the output up to date with `changes`; raises ContentError, writing nothing, if the
        content or the plan is wrong. With `shown_first` (watch mode), the groups of the files in
        `first` (the pages open in a browser) and of the papers just edited are made, written and
        handed to it before the rest, and before the whole plan is checked (a preview may then
        show a page of a plan that fails, beside the errors); `stop()` ends the rest early for a
        newer change."""
        self.take(changes.ready)
        self.writer.moved = False
        with self.stages("load"):
            catalogue = self._load(changes, report)
        with self.stages("relate"):
            similarity = self._similarity(catalogue)
        with self.stages("plan"):
            plan = Plan(self.config, catalogue, similarity, self.history, self._review(catalogue))
            self._prepare(plan)
        early = self._write_first(plan, first, changes) if shown_first else []
        if shown_first:
            known = self._group_ids
            self._has_new_groups = functools.cache(lambda: any(group_id not in known for group_id in plan.ids()))
            try:
                shown_first(early)
            finally:
                self._has_new_groups = bool
        checked, written, removed = self._write_rest(plan, stop)
        self._planned = catalogue.revision
        return RenderResult(checked, early + written, removed, early,
                            bool(removed) or self.writer.moved or bool(self._coming))

    def _write_rest(self, plan: Plan, stop: Callable[[], bool]) -> tuple[CheckedPlan | None, list[str], list[str]]:
        """Check the whole plan and write what moved: the checked plan, the files written and
        those removed (None and nothing, if `stop()` said so while the plan was made). A page
        a reader asks for meanwhile waits for the plan, then is written at once
        (`SiteWriter.write_now`)."""
        self.writer.planning()
        try:
            with self.stages("plan"):
                groups, made, checked = self._plan(plan, stop)
                self._group_ids = frozenset(group.id for group in groups)
            with self.stages("render"):
                written = self.writer.write(made, stop)
                self._coming = frozenset(page.file for each in made for page, _ in each.stale).difference(written)
        except Stopped:
            return None, [], []
        finally:
            self.writer.planned()
        with self.stages("render"):
            removed = self.writer.remove_vanished(groups, checked.files)
            files_before = list(self.state.files)
            write_assets(self.assets, self.out_dir, self.state)
            sync_static(self.config.static_dir, self.out_dir, self.state)
            removed += [file for file in files_before if file not in self.state.files]
        self.drafts = checked.drafts
        if self.later and not stop():  # else the next build asks
            self._want(plan.catalogue)
        return checked, written, removed

    def save(self, path: Path | None) -> None:
        """Save the state, a page written on request meanwhile waiting for it."""
        with self.writer.held():
            self.state.save(path)

    def take(self, results: tuple[Ready, ...]) -> None:
        """Background results handed back: each is what its name is known by from now on."""
        for result in results:
            self.state.derived[result.name] = Derived(result.key, result.value)

    def _load(self, changes: ChangeSet, report: Report) -> Catalogue:
        """The catalogue, read again where `changes` say content moved. The history is read at a
        builder's first load only: an edit in watch mode makes no commit."""
        if self.catalogue is not None and not changes.content:
            return self.catalogue
        papers_dir = self.config.content_dir / PAPERS_DIR
        rescan = changes.settings or any(path == papers_dir or path.is_dir() for path in changes.papers)
        catalogue = self.loader.load(report, self.config.drafts, changes.papers, rescan)
        if self.catalogue is None:
            self.history = read_history(self.config.content_dir, self.config.cache_dir)
        self.catalogue = catalogue
        return catalogue

    def _similarity(self, catalogue: Catalogue) -> Similarity:
        """Related papers and the map: worked out now, unless a build in watch mode of a large
        catalogue can show the last ones while `wanted` asks for the new ones."""
        known = self.state.derived.get(SIMILARITY)
        if self.later and known and len(catalogue.papers) > SIMILARITY_INLINE_LIMIT:
            return known.value
        return self.state.derive(SIMILARITY, related_papers, texts(catalogue))

    def _review(self, catalogue: Catalogue) -> Costly | None:
        """The review page's costly part, as last worked out (watch mode works it out later)."""
        known = self.state.derived.get(REVIEW)
        return known.value if self.config.curating and known else None

    def _want(self, catalogue: Catalogue) -> None:
        """What watch mode should work out in the background for this catalogue: related papers
        and the review page's costly part whose arguments moved (after the first pages: their
        keys take a few milliseconds at 10,000 papers)."""
        self.wanted = {}
        for name, function, args in ((SIMILARITY, related_papers, (texts(catalogue),)),
                                     (REVIEW, costly_parts, (tuple(catalogue.papers), catalogue.taxonomy))):
            if name == REVIEW and not (self.config.curating and costly_in_watch(len(catalogue.papers))):
                continue
            key = self.state.key(name, function, args)
            known = self.state.derived.get(name)
            if known is None or known.key != key:
                self.wanted[name] = (key, function, args)

    def _prepare(self, plan: Plan) -> None:
        """The templates and what every page shares: the navigation and the assets."""
        self.assets = fingerprint_assets(self.config.static_dir)
        self.renderer.prepare(navigation(plan.tally, plan.catalogue.prose.guides), plan.catalogue.taxonomy,
                              {name: path for name, (path, _) in self.assets.items()})

    def _write_first(self, plan: Plan, first: Collection[str], changes: ChangeSet) -> list[str]:
        """Make the groups of the pages in `first` and of the papers just edited, and write their
        HTML pages (not after a template or static file moved: then every page is the reader's
        first)."""
        if changes.templates or changes.static or changes.settings:
            return []
        edited = plan.catalogue.changes_since(self._planned)
        ids = [record.group for file in first if (record := self.state.outputs.get(file))]
        ids += [] if edited.everything else [f"paper:{paper.slug}" for change in edited.papers
                                               for paper in change.papers]
        groups = [group for group in map(plan.group, dict.fromkeys(ids)) if group is not None]
        return self.writer.write(self.writer.made(groups), only=_shown_in_a_browser)

    def _plan(self, plan: Plan, stop: Callable[[], bool]) -> tuple[list[PageGroup], list[Made], CheckedPlan]:
        """Every group, the groups made anew, and the checked plan (the sitemap made last, from
        where the other pages are). Raises Stopped as soon as `stop()` says so."""
        groups = list(_until(stop, plan.groups()))
        made = self.writer.made(_until(stop, groups))
        facts = self.writer.facts(groups, made)
        sitemap = plan.sitemap(tuple(path for _, each in facts for path in each.sitemap))
        if sitemap:
            groups.append(sitemap)
            made += self.writer.made([sitemap])
            facts = self.writer.facts(groups, made)
        ledger = (self.config.ledger, self.loader.published) if self.config.ledger else None
        checked = check_plan(facts, plan.catalogue.redirects, ledger, self.config.content_dir / REDIRECTS_FILE,
                             self.config.leaves_out)
        return groups, made, checked

    def links(self, only: Collection[str] | None = None) -> LinkReport:
        """The links of the pages in `only` (None: every page), checked from what the state keeps
        and what is not written yet. The pages written first are checked before the rest is
        planned: if the plan has groups not yet made (a new paper's authors, a new guide), a file
        not yet known may be theirs, and the check after the rest judges it. A newer edit may
        stop the writing: the next build writes what was made, or removes it, and then every
        link is checked again (`RenderResult.added`)."""
        unwritten = _Unwritten(self.state, self._coming, self._has_new_groups)
        return check_links(self.state.outputs, _SiteFiles(self.state, unwritten), self.config.base_url, only,
                           self.config.leaves_out, self.drafts, unwritten)

    def paper_of(self, file: str) -> Paper | None:
        """The paper `file` is the page of, as the renderer recorded it."""
        known = self.state.outputs.get(file)
        if known is None or not known.source or self.catalogue is None:
            return None
        return self.catalogue.by_slug.get(known.source) or self.catalogue.withdrawn.get(known.source)

    def broken(self, report: LinkReport, site: Path) -> list[tuple[str, Diagnostic]]:
        """Each broken link that counts (see `written_by_curators`): its page, and the message
        that names the paper file and line writing it (else the page in `site`)."""
        return [(each.page, explain(each, self.paper_of, site))
                for each in written_by_curators(report.broken, self.paper_of)]

    def titles(self) -> list[str]:
        """The papers' slugs in title order: what the search index is sharded by."""
        return [paper.slug for paper in sorted(self.catalogue.papers, key=lambda p: p.sort_key)]

    @property
    def warnings(self) -> list[Diagnostic]:
        """What rendering the pages gave (formulas shown as code), at the papers' lines."""
        return sorted({w for record in self.state.outputs.values() for w in record.warnings},
                      key=lambda d: (str(d.path), d.line, d.message))


def _shown_in_a_browser(file: str) -> bool:
    """What a reader waits for after an edit: the HTML page (its preview image follows with the rest)."""
    return file.endswith(".html")


class _Unwritten:
    """The files a build may still write: those `coming` (made, written next) and, while the
    plan has new groups not yet made, any the state does not know."""

    def __init__(self, state: BuildState, coming: frozenset[str], has_new_groups: Callable[[], bool]):
        self.outputs, self.files, self.coming, self.has_new_groups = state.outputs, state.files, coming, has_new_groups

    def __contains__(self, file: object) -> bool:
        return file in self.coming or (file not in self.outputs and file not in self.files and self.has_new_groups())


class _SiteFiles:
    """The site's files, as the state records them (its pages and its other files), and those
    it may still write."""

    def __init__(self, state: BuildState, unwritten: _Unwritten):
        self.outputs, self.files, self.unwritten = state.outputs, state.files, unwritten

    def __contains__(self, file: object) -> bool:
        return file in self.outputs or file in self.files or file in self.unwritten


def _until(stop: Callable[[], bool], items: Iterable[Item], every: int = 256) -> Iterator[Item]:
    """The items, asking `stop()` every so often: raises Stopped when it says so."""
    for number, item in enumerate(items):
        if number % every == 0 and stop():
            raise Stopped
        yield item
