"""The build as a script of stages: load → relate → plan → render and write → links → index →
swap, over one build state (`state.BuildState`) and one change set (`changeset.ChangeSet`).
`Builder.build` takes what changed and redoes what it reaches; a build from the command line
(`build_site`), watch mode (`serve.watch`) and `check_site` differ only in the state they start
from, where they write and what they leave out."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from pathlib import Path

from . import urls
from .changeset import ChangeSet, Ready
from .config import PAPERS_DIR, REDIRECTS_FILE, SiteConfig
from .content.history import History, read_history
from .content.history import state as history_state
from .content.loader import ContentLoader
from .content.model import Catalogue, Paper
from .ledger import record
from .output.links import LinkReport, check_links, explain, written_by_curators
from .output.search import INDEX_DIR, index_key, index_site, search_files, shard_folder, shards_of
from .output.static import fingerprint_assets, sync_static, write_assets
from .output.swap import MARKER, claim_output_dir, intact, seed, staging_dir, swap_in
from .output.writer import Made, SiteWriter
from .pages.checks import CheckedPlan, check_plan
from .pages.lists import navigation
from .pages.page import PageGroup
from .pages.planner import Plan
from .progress import Stages
from .relate.review import Costly, costly_parts
from .relate.similarity import Similarity, related_papers, texts
from .render.renderer import PageRenderer
from .report import ContentError, Diagnostic, Report
from .files import signature
from .state import BuildState, Derived, Outcome, digest, identity, state_file

SIMILARITY_INLINE_LIMIT = 200  # papers: up to here related papers take ~20 ms, so a rebuild waits for them
EXTERNAL_LINKS = "external-links.txt"  # in the cache folder: every outside address the site links to
SIMILARITY, REVIEW, SEARCH, HISTORY = "similarity", "review", "search", "history"  # derived values, by name


@dataclass(frozen=True)
class RenderResult:
    """What one build did: the files it wrote (`first`: the pages a reader was looking at, and
    the edited papers' own), those it removed, and what its checked plan makes and publishes."""

    plan: CheckedPlan
    written: list[str]
    removed: list[str]
    first: list[str]
    added: bool  # files were added or removed, or a page's ids moved: every page's links are checked again


@dataclass(frozen=True)
class BuildResult:
    pages: int
    papers: int
    seconds: float
    files: int = 0
    redirects: int = 0
    stages: dict[str, float] | None = None  # seconds per stage
    rendered: int = 0  # files rendered by this build; the others were the last build's


class Builder:
    """Every stage over one build state: each build redoes only what its change set reaches,
    into `out_dir` (None: in memory only, as `check` does).

    With `later` (watch mode), a build of a catalogue larger than SIMILARITY_INLINE_LIMIT
    renders with the related papers last worked out, and so does the review page; `wanted`
    then says what to work out in the background, which comes back as a `Ready` result.
    """

    def __init__(self, config: SiteConfig, state: BuildState | None = None, out_dir: Path | None = None,
                 stages: Stages | None = None, later: bool = False):
        self.config, self.out_dir = config, out_dir
        self.state = state if state is not None else BuildState(identity(config))
        self.stages = stages or Stages()
        self.later = later
        self.loader = ContentLoader(config.content_dir, config.ledger, self.state)
        self.renderer = PageRenderer(config, self.state)
        self.writer = SiteWriter(self.renderer, self.state, out_dir)
        self.catalogue: Catalogue | None = None  # the last one loaded
        self.history: History | None = None  # the papers' git history, read at a builder's first load
        self.wanted: dict[str, tuple] = {}  # background work: name → (key, arguments)
        self._planned = 0  # the revision of the catalogue last planned

    def build(self, changes: ChangeSet, report: Report, first: Collection[str] = (),
              shown_first: Callable[[list[str]], None] | None = None,
              stop: Callable[[], bool] = lambda: False) -> RenderResult:
        """Bring the output up to date with `changes`; raises ContentError, writing nothing, if the
        content or the plan is wrong. With `shown_first` (watch mode), the groups of the files in
        `first` (the pages open in a browser) and of the papers just edited are made, written and
        handed to it before the rest; `stop()` ends the rest early for a newer change."""
        self.take(changes.ready)
        self.writer.ids_moved = False
        with self.stages("load"):
            catalogue = self._load(changes, report)
        with self.stages("relate"):
            similarity = self._similarity(catalogue)
        with self.stages("plan"):
            plan = Plan(self.config, catalogue, similarity, self.history, self._review(catalogue))
            self._prepare(plan)
        early = self._write_first(plan, first, changes) if shown_first else []
        if shown_first:
            shown_first(early)
        with self.stages("plan"):
            self._want(catalogue)
            groups, made, checked = self._plan(plan)
        with self.stages("render"):
            known = set(self.state.outputs)
            written = self.writer.write(made, stop)
            if stop():
                self.writer.forget(made)
            removed = self.writer.remove_vanished(groups, checked.files)
            write_assets(self.assets, self.out_dir, self.state)
            sync_static(self.config.static_dir, self.out_dir, self.state)
        self._planned = catalogue.revision
        added = bool(removed) or bool(set(self.state.outputs) - known) or self.writer.ids_moved
        return RenderResult(checked, early + written, removed, early, added)

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
            if name == REVIEW and not self.config.curating:
                continue
            key = self.state.key(name, function, args)
            known = self.state.derived.get(name)
            if known is None or known.key != key:
                self.wanted[name] = (key, args)

    def _prepare(self, plan: Plan) -> None:
        """The templates and what every page shares: the navigation and the assets."""
        self.assets = fingerprint_assets(self.config.static_dir)
        self.renderer.prepare(navigation(plan.tally), plan.catalogue.taxonomy,
                              {name: path for name, (path, _) in self.assets.items()})

    def _write_first(self, plan: Plan, first: Collection[str], changes: ChangeSet) -> list[str]:
        """Make and write the groups of the pages in `first` and of the papers just edited (not
        after a template or static file moved: then every page is the reader's first)."""
        if changes.templates or changes.static or changes.settings:
            return []
        edited = plan.catalogue.changes_since(self._planned)
        ids = [record.group for file in first if (record := self.state.outputs.get(file))]
        ids += [] if edited.everything else [f"paper:{paper.slug}" for change in edited.papers
                                               for paper in change.papers]
        groups = [group for group in map(plan.group, dict.fromkeys(ids)) if group is not None]
        return self.writer.write(self.writer.made(groups))

    def _plan(self, plan: Plan) -> tuple[list[PageGroup], list[Made], CheckedPlan]:
        """Every group, the groups made anew, and the checked plan (the sitemap made last, from
        where the other pages are)."""
        groups = plan.groups()
        made = self.writer.made(groups)
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
        """The links of the pages in `only` (None: every page), checked from what the state keeps."""
        state, config = self.state, self.config
        return check_links(state.outputs, set(state.outputs) | set(state.files), config.base_url, only,
                           config.leaves_out, self.drafts)

    @property
    def drafts(self) -> frozenset[str]:
        """The files made only for draft papers."""
        return frozenset().union(*(record.facts.drafts for record in self.state.groups.values()))

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

    @property
    def warnings(self) -> list[Diagnostic]:
        """What rendering the pages gave (formulas shown as code), at the papers' lines."""
        return sorted({w for record in self.state.outputs.values() for w in record.warnings},
                      key=lambda d: (str(d.path), d.line, d.message))


def build_site(config: SiteConfig, report: Report, stages: Stages | None = None,
               cached: bool = True) -> BuildResult:
    """Build into a staging folder beside the output; replace the output only on success.
    `stages` times each stage (and shows them as they run, for a large catalogue). With
    `cached`, start from the state the last build left in `config.cache_dir`, and do nothing if
    nothing it read changed; either way, leave this one's there.

    Raises ContentError before anything is swapped in if `content/` is invalid.
    """
    started = time.perf_counter()
    stages = stages or Stages()
    out_dir = claim_output_dir(config)
    with stages("restore"):
        state = BuildState.restore(state_file(config, "build") if cached else None, identity(config))
        changes = state.changes(config)
        history = digest(history_state(config.content_dir))
        unchanged = _nothing_to_do(state, changes, history, out_dir)
    if unchanged:
        return _as_before(state, report, stages, started)
    staging = staging_dir(out_dir)
    try:
        builder, result = _build_into(config, staging, out_dir, state, changes, report, stages)
        with stages("swap"):
            old_site = swap_in(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        stages.finish()
        raise
    return _finish(builder, result, history, old_site, report, started)


def _output_files(state: BuildState) -> dict[str, tuple]:
    """Every file of the output the state knows, with its signature as written."""
    return {**{file: record.signature for file, record in state.outputs.items()}, **state.files}


def _nothing_to_do(state: BuildState, changes: ChangeSet, history: bytes, out_dir: Path) -> bool:
    """Whether nothing a build reads changed since the state was left (the git history
    included), and the output is as it left it."""
    known = state.derived.get(HISTORY)
    return (not changes and state.outcome is not None and known is not None and known.key == history
            and intact(out_dir, _output_files(state)))


def _as_before(state: BuildState, report: Report, stages: Stages, started: float) -> BuildResult:
    """The last build's result, and its warnings again."""
    report.extend(state.outcome.warnings)
    stages.finish()
    counts = state.outcome.counts
    return BuildResult(counts["pages"], counts["papers"], time.perf_counter() - started, counts["files"],
                       counts["redirects"], dict(stages.seconds))


def _build_into(config: SiteConfig, staging: Path, out_dir: Path, state: BuildState, changes: ChangeSet,
                report: Report, stages: Stages) -> tuple[Builder, RenderResult]:
    """Every stage up to the swap, into `staging`, which starts as a copy (hard links) of the
    files of the last output that are as the state says."""
    with stages("restore"):
        _forget_damaged(state, seed(out_dir, staging, _output_files(state)))
    builder = Builder(config, state, staging, stages)
    result = builder.build(changes, report)
    stages.show_for(len(builder.catalogue.papers))
    with stages("links"):
        _check_links(builder, None if result.added else result.written, out_dir)
    report.extend(builder.warnings)
    (staging / MARKER).write_text("Built by build.py; replaced whole by the next build.\n")
    if config.search:
        with stages("search"):
            _index(builder, staging, out_dir, report)
    return builder, result


def _forget_damaged(state: BuildState, kept: set[str]) -> None:
    """What the last output no longer holds as the state says (someone edited site/, or removed
    it) is made again: its record goes, and with it its group's (or the search index's)."""
    for file in [file for file in state.outputs if file not in kept]:
        state.groups.pop(state.outputs.pop(file).group, None)
    for file in [file for file in state.files if file not in kept]:
        del state.files[file]
        if file.startswith(f"{INDEX_DIR}/"):
            state.derived.pop(SEARCH, None)


def _check_links(builder: Builder, only: Collection[str] | None, out_dir: Path) -> None:
    """Fail on a link or #anchor that leads nowhere, naming the paper file and line that writes
    it, or else the page (as it will be in `out_dir`); list the external links, never fetched."""
    links = builder.links(only)
    broken = builder.broken(links, out_dir)
    if broken:
        raise ContentError([diagnostic for _, diagnostic in broken])
    cache_dir = builder.config.cache_dir
    if cache_dir and only is None and links.external:
        cache_dir.mkdir(parents=True, exist_ok=True)
        (cache_dir / EXTERNAL_LINKS).write_text("".join(f"{url}\n" for url in sorted(links.external)))


def _index(builder: Builder, staging: Path, out_dir: Path, report: Report) -> None:
    """Index the staged site unless the last index was made from the same pages (by their
    records' keys); in shards, running Pagefind only for those whose pages changed. The index's
    files are then the site's, recorded like any other."""
    state, outputs = builder.state, builder.state.outputs
    pages = sorted(file for file in outputs if urls.paper_of_file(file))
    whole = index_key(pages, outputs)
    known = state.derived.get(SEARCH)
    if known and known.key == whole:
        return
    shards = shards_of([paper.slug for paper in sorted(builder.catalogue.papers, key=lambda p: p.sort_key)])
    made = {shard_folder(number): index_key(shard, outputs) for number, shard in enumerate(shards or [])}
    unchanged = frozenset(folder for folder, key in made.items() if known and known.value.get(folder) == key)
    if not index_site(staging, shards=shards, unchanged=unchanged):
        report.warning(out_dir / INDEX_DIR, 0, "Pagefind wrote its index in a layout search.make_stable does not "
                       "know, so two builds may differ in it (search works)", "update make_stable for this Pagefind")
    state.derived[SEARCH] = Derived(whole, made)
    for file in [file for file in state.files if file.startswith(f"{INDEX_DIR}/")]:
        del state.files[file]
    state.files.update((file, signature(staging / file)) for file in search_files(staging))


def _finish(builder: Builder, result: RenderResult, history: bytes, old_site: Path | None, report: Report,
            started: float) -> BuildResult:
    """Add what the build published to the ledger, and leave its state in the cache folder while
    the old site is removed, on the other core."""
    config, state, stages = builder.config, builder.state, builder.stages
    if config.ledger and not config.drafts:
        record(config.ledger, set(result.plan.published))
        builder.loader.reread_ledger()  # as this build left it: the next build finds it unchanged
    counts = {"pages": result.plan.html_pages, "papers": len(builder.catalogue.papers),
              "files": len(result.plan.files), "redirects": result.plan.redirects}
    state.outcome = Outcome(counts, tuple(report.warnings))
    state.derived[HISTORY] = Derived(history, None)
    removing = threading.Thread(target=shutil.rmtree, args=(old_site,), kwargs={"ignore_errors": True})
    if old_site:
        removing.start()
    with stages("save"):
        state.save(state_file(config, "build"))
    if old_site:
        removing.join()
    stages.finish()
    return BuildResult(counts["pages"], counts["papers"], time.perf_counter() - started, counts["files"],
                       counts["redirects"], dict(stages.seconds), len(result.written))


def check_site(config: SiteConfig, report: Report) -> tuple[Catalogue, Costly]:
    """Everything a build checks, by the same code, kept in memory: nothing is written, no
    Pagefind runs. Drafts are rendered too, as watch mode renders them, so `check` finds every
    error either finds (a published page linking to a draft included). It starts from the
    state the last check left, so it renders only what changed since. Returns the catalogue,
    drafts and all, and the review list's costly parts, for the curation report."""
    config = replace(config, drafts=True)
    state = BuildState.restore(state_file(config, "check"), identity(config))
    builder = Builder(config, state)
    try:
        builder.build(state.changes(config), report)
        broken = [diagnostic for _, diagnostic in builder.broken(builder.links(), config.out_dir)]
        report.extend(builder.warnings)
        catalogue = builder.catalogue
        costly = state.derive(REVIEW, costly_parts, tuple(catalogue.papers), catalogue.taxonomy)
    finally:
        state.save(state_file(config, "check"))
    if broken:
        raise ContentError(broken)
    return catalogue, costly
