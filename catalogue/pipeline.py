"""The build as a script of stages: load → relate → plan → check → render and write → links →
index → swap. `Builder` keeps each stage's state between builds, so watch mode's rebuilds
redo only what changed; `build_site` and `check_site` are the one-shot builds."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

from .config import SiteConfig
from .content.history import History, read_history
from .content.loader import ContentLoader
from .content.model import Catalogue
from .content.redirects import REDIRECTS_FILE
from .ledger import LedgerFile, record
from .output import cache
from .output.links import (
    LinkMemory,
    all_files,
    check_links,
    explain,
    written_by_curators,
)
from .output.search import (
    INDEX_DIR,
    index_inputs,
    index_site,
    search_files,
    shard_inputs,
    shards_of,
)
from .output.static import fingerprint_assets, sync_static, write_assets
from .output.swap import MARKER, claim_output_dir, staging_dir, swap_in
from .output.writer import SiteWriter
from .pages.checks import PlanCheck
from .pages.lists import counts, navigation
from .pages.page import REDIRECT_TEMPLATE, PageGroup
from .pages.planner import Planner
from .progress import Stages
from .relate.similarity import SimilarityCache
from .render.renderer import PageRenderer
from .report import ContentError, Report

SIMILARITY_INLINE_LIMIT = 200  # papers: up to here related papers take ~20 ms, so a rebuild waits for them
EXTERNAL_LINKS = "external-links.txt"  # in the cache folder: every outside address the site links to


@dataclass(frozen=True)
class RenderResult:
    """What one render wrote: files written and removed, and what the plan publishes."""

    pages: int  # HTML pages
    written: list[str]
    removed: list[str]
    published: frozenset[str] = frozenset()  # the URLs the published-URL ledger keeps
    files: int = 0  # pages, feeds, citations, images
    drafts: frozenset[str] = frozenset()  # files made only for draft papers: no published page may link there
    redirects: int = 0  # pages that send a reader on: aliases and content/redirects.txt


@dataclass(frozen=True)
class BuildResult:
    pages: int
    papers: int
    seconds: float
    files: int = 0
    redirects: int = 0
    stages: dict[str, float] | None = None  # seconds per stage
    rendered: int = 0  # files rendered by this build; the others were the last build's (see `output.cache`)


class Builder:
    """Every stage, remembering its work, so the next build only redoes what changed.

    With `similarity_later`, a rebuild of a catalogue larger than `similarity_inline_limit`
    renders with the related papers and map of the last computation instead of waiting seconds
    for a new one; the caller refreshes them (watch mode).
    """

    def __init__(self, config: SiteConfig, similarity_later: bool = False, stages: Stages | None = None):
        self.config = config
        self.stages = stages or Stages()
        self.loader = ContentLoader(config.content_dir, config.ledger)
        self.similarity = SimilarityCache()
        self.planner = Planner(config)
        self.plan_check = PlanCheck(config.content_dir / REDIRECTS_FILE, config.leaves_out)
        self.ledger = LedgerFile(config.ledger) if config.ledger else None
        self.renderer = PageRenderer(config)
        self.writer = SiteWriter(self.renderer)
        self.similarity_later = similarity_later
        self.similarity_inline_limit = SIMILARITY_INLINE_LIMIT
        self.links = LinkMemory()
        self._facts: dict[str, tuple[int, frozenset[str], int]] = {}  # group → (version, templates, redirects)
        self.catalogue: Catalogue | None = None  # the last one loaded
        self.history: History | None = None  # the papers' git history, read at each full load
        self.drafts: frozenset[str] = frozenset()  # the last plan's files made only for drafts

    def parts(self) -> dict:
        """What the next build can start from (see `output.cache`)."""
        return {"loader": self.loader, "similarity": self.similarity, "planner": self.planner,
                "plan_check": self.plan_check, "links": self.links, "writer": self.writer.memory()}

    def adopt(self, parts: dict, kept: set[str]) -> None:
        """Start from a last build's parts, whose output files `kept` are in the new output."""
        self.loader, self.similarity, self.planner = parts["loader"], parts["similarity"], parts["planner"]
        self.plan_check, self.links = parts["plan_check"], parts["links"]
        self.writer.adopt(parts["writer"], kept)

    def load(self, report: Report, changed: set[Path] | None = None) -> Catalogue:
        """Load `content/`; `changed` names the files that may have changed (None: all). The
        history is read again at a full load only: an edit in watch mode makes no commit."""
        self.catalogue = self.loader.load(report, drafts=self.config.drafts, changed=changed)
        if changed is None:
            self.history = read_history(self.config.content_dir, self.config.cache_dir)
        return self.catalogue

    def rebuild(self, out_dir: Path, report: Report, changed: set[Path] | None = None) -> RenderResult:
        """Bring `out_dir` up to date in place; raises ContentError, leaving it as it was."""
        return self.render(self.load(report, changed), out_dir, report)

    def render(self, catalogue: Catalogue, out_dir: Path, report: Report,
               streaming: bool | None = None) -> RenderResult:
        """Plan the pages, check the plan, then render and write what changed (`streaming`:
        into a folder no one reads yet; see `SiteWriter.write`)."""
        later = self.similarity_later and len(catalogue.papers) > self.similarity_inline_limit
        with self.stages("relate"):
            similarity = self.similarity.latest if later else self.similarity.current(catalogue)
        with self.stages("plan"):
            groups = self.planner.plan(catalogue, similarity, self.history)
            ledger = (self.ledger.path, self.ledger.paths()) if self.ledger else None
            plan = self.plan_check.check(groups, catalogue.redirects, ledger)
        self.drafts = plan.drafts
        with self.stages("render"):
            assets = fingerprint_assets(self.config.static_dir)
            templates, redirects = self._templates_and_redirects(groups)
            self.renderer.prepare(navigation(counts(catalogue)), catalogue.taxonomy, templates,
                                  {name: path for name, (path, _) in assets.items()})
            written = self.writer.write(groups, out_dir, streaming)
            removed = self.writer.remove_vanished(groups, plan.files, out_dir)
            write_assets(assets, out_dir)
            sync_static(self.config.static_dir, out_dir)
        self.renderer.report_failed_math(catalogue, report)
        return RenderResult(plan.html_pages, written, removed, plan.published, len(plan.files), plan.drafts,
                            redirects)

    def _templates_and_redirects(self, groups: list[PageGroup]) -> tuple[set[str], int]:
        """The templates the pages use, and how many pages are redirects: looked at again only
        in the groups planned anew (a rebuild at 10,000 papers would look at 13,000 pages)."""
        facts = {}
        for group in groups:
            known = self._facts.get(group.id)
            if known is None or known[0] != group.version:
                known = (group.version, frozenset(page.template for page in group.pages),
                         sum(page.template == REDIRECT_TEMPLATE for page in group.pages))
            facts[group.id] = known
        self._facts = facts
        return set().union(*(templates for _, templates, _ in facts.values())), sum(n for _, _, n in facts.values())


def build_site(config: SiteConfig, report: Report, stages: Stages | None = None,
               cached: bool = True) -> BuildResult:
    """Build into a staging folder beside the output; replace the output only on success.
    `stages` times each stage (and shows them as they run, for a large catalogue). With
    `cached`, start from what the last build left in `config.cache_dir` (see `output.cache`),
    or do nothing if nothing it read changed; either way, leave this one's there.

    Raises ContentError before anything is swapped in if `content/` is invalid.
    """
    started = time.perf_counter()
    stages = stages or Stages()
    out_dir = claim_output_dir(config)
    with stages("restore"):
        signature = cache.inputs_signature(config)
        outcome = cache.unchanged(config.cache_dir, signature, config.ledger, out_dir) if cached else None
    if outcome:
        report.extend(outcome.warnings)
        stages.finish()
        return BuildResult(*outcome.summary, time.perf_counter() - started, *outcome.counts, dict(stages.seconds))
    builder = Builder(config, stages=stages)
    staging = staging_dir(out_dir)
    try:
        result, remembered, searched, catalogue = _build_into(staging, out_dir, builder, report, cached)
        files = cache.output_files(staging, set(builder.writer.files) | set(search_files(staging)))
        outcome = _outcome(signature, staging, result, catalogue, report)
        with stages("swap"):
            old_site = swap_in(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        stages.finish()
        raise
    outcome = _record(config, result, outcome)
    changed = result.written or result.removed or not remembered or searched != remembered.search
    with stages("save"):
        _save(builder, cache.Remembered(cache.identity(config), builder.parts(), files, searched) if changed else None,
              outcome, old_site)
    stages.finish()
    return BuildResult(result.pages, len(catalogue.papers), time.perf_counter() - started, result.files,
                       result.redirects, dict(stages.seconds), len(result.written))


def _record(config: SiteConfig, result: RenderResult, outcome: cache.Outcome) -> cache.Outcome:
    """Add what the build published to the ledger; the outcome, with the ledger as left."""
    if config.ledger and not config.drafts:
        record(config.ledger, result.published)
    return replace(outcome, ledger=cache.ledger_signature(config.ledger))


def _outcome(signature: str, staging: Path, result: RenderResult, catalogue: Catalogue,
             report: Report) -> cache.Outcome:
    """What a next build that finds nothing changed needs to know of this one."""
    return cache.Outcome(signature, cache.output_files(staging, set(all_files(staging))),
                         (result.pages, len(catalogue.papers)), (result.files, result.redirects),
                         tuple(report.warnings))


def _build_into(staging: Path, out_dir: Path, builder: Builder, report: Report, cached: bool) -> tuple:
    """Every stage up to the swap, into `staging`."""
    stages = builder.stages
    with stages("restore"):
        remembered = _restore(builder, out_dir, staging) if cached else None
    with stages("load"):
        catalogue = builder.load(report)
    stages.show_for(len(catalogue.papers))
    result = _render_checked(builder, catalogue, staging, out_dir, report, streaming=True)
    (staging / MARKER).write_text("Built by build.py; replaced whole by the next build.\n")
    searched = _index(staging, out_dir, stages, report, remembered, catalogue) if builder.config.search else {}
    return result, remembered, searched, catalogue


def _save(builder: Builder, remembered: cache.Remembered | None, outcome: cache.Outcome,
          old_site: Path | None) -> None:
    """Leave this build's memory in the cache folder (`remembered`: None if it is the last
    build's) while the old site is removed, on the other core."""
    removing = threading.Thread(target=shutil.rmtree, args=(old_site,), kwargs={"ignore_errors": True})
    if old_site:
        removing.start()
    if remembered:
        cache.remember(builder.config.cache_dir, remembered)
    cache.remember_outcome(builder.config.cache_dir, outcome)
    if old_site:
        removing.join()


def _restore(builder: Builder, out_dir: Path, staging: Path) -> cache.Remembered | None:
    """Start from the last build's memory and its unchanged output files, if it left any."""
    remembered = cache.restore(builder.config.cache_dir, builder.config)
    if remembered is not None:
        kept = cache.seed(out_dir, staging, remembered.files)
        builder.adopt(remembered.parts, kept)
        index_kept = all(f in kept for f in remembered.files if f.startswith(f"{INDEX_DIR}/"))
        remembered.search = remembered.search if index_kept else {}
    return remembered


def _index(staging: Path, out_dir: Path, stages: Stages, report: Report, remembered: cache.Remembered | None,
           catalogue: Catalogue) -> dict[str, str]:
    """Index the staged site, unless the last index, linked in, was made from the same pages;
    in shards, only those whose pages changed. Returns what the index was made from."""
    with stages("search"):
        inputs = index_inputs(staging)
        last = remembered.search if remembered else {}
        if last.get(INDEX_DIR) == inputs:
            return last
        shards = shards_of([paper.slug for paper in sorted(catalogue.papers, key=lambda paper: paper.sort_key)])
        made = shard_inputs(staging, shards)
        unchanged = frozenset(name for name, fingerprint in made.items() if last.get(name) == fingerprint)
        if not index_site(staging, shards=shards, unchanged=unchanged):
            report.warning(out_dir / INDEX_DIR, 0, "Pagefind wrote its index in a layout search.make_stable does not "
                           "know, so two builds may differ in it (search works)", "update make_stable for this Pagefind")
    return {INDEX_DIR: inputs, **made}


def check_site(config: SiteConfig, report: Report) -> Catalogue:
    """Everything a build checks, by the same code, rendered into a scratch folder that is then
    deleted: nothing is written, no Pagefind runs. Drafts are rendered too, as watch mode
    renders them, so `check` finds every error either finds (a published page linking to a
    draft included). Returns the catalogue, drafts and all, for the curation report."""
    config = replace(config, drafts=True)
    builder = Builder(config)
    catalogue = builder.load(report)
    with tempfile.TemporaryDirectory(prefix="catalogue-check-") as scratch:
        _render_checked(builder, catalogue, Path(scratch), config.out_dir, report)
    return catalogue


def _render_checked(builder: Builder, catalogue: Catalogue, staging: Path, out_dir: Path,
                    report: Report, streaming: bool | None = None) -> RenderResult:
    """Render (which checks the plan: duplicate pages, the ledger), then check every link."""
    result = builder.render(catalogue, staging, report, streaming)
    with builder.stages("links"):
        _check_links(builder.config, catalogue, staging, out_dir, result.drafts, builder.links)
    return result


def _check_links(config: SiteConfig, catalogue: Catalogue, staging: Path, out_dir: Path,
                 drafts: frozenset[str], memory: LinkMemory | None = None) -> None:
    """Fail on a link or #anchor that leads nowhere, naming the paper file and line that writes
    it, or else the page (as it will be in `out_dir`); list the external links, never fetched."""
    links = check_links(staging, config.base_url, left_out=config.leaves_out, drafts=drafts, memory=memory)
    broken = written_by_curators(links.broken, catalogue)
    if broken:
        raise ContentError([explain(each, catalogue, out_dir) for each in broken])
    if config.cache_dir and links.external:
        config.cache_dir.mkdir(parents=True, exist_ok=True)
        (config.cache_dir / EXTERNAL_LINKS).write_text("".join(f"{url}\n" for url in sorted(links.external)))
