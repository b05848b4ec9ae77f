"""The build as a script of stages: load → relate → plan → render and write → links → index →
swap. `build_site` is the command line's build, from the state the last one left, into a
staging folder swapped in whole; `check_site` is `build.py check`, every check of a build, in
memory. Both run a `Builder` (catalogue/builder.py), as watch mode does (serve/watch.py)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from .changeset import ChangeSet
from .config import SiteConfig
from .content.catalogue import Catalogue
from .content.history import state as history_state
from .files import signature, write_if_changed
from .ledger import record
from .output.links import external_links
from .output.parallel import give_back_memory
from .output.search import INDEX_DIR, SEARCH, index_site, search_files, searched, to_reindex
from .output.swap import MARKER, claim_output_dir, forget_damaged, intact, keep_spare, seed, staging_dir, swap_in
from .progress import Stages
from .report import ContentError, Report
from .state import BuildState, Derived, Glance, Outcome, digest, identity, state_file

if TYPE_CHECKING:
    from .builder import Builder, RenderResult
    from .relate.review import Costly

HISTORY = "history"  # what the git history was read from, as the build state keeps it
EXTERNAL_LINKS = "external-links.txt"  # in the cache folder: every outside address the site links to


@dataclass(frozen=True)
class BuildResult:
    pages: int
    papers: int
    seconds: float
    files: int = 0
    redirects: int = 0
    stages: dict[str, float] | None = None  # seconds per stage
    rendered: int = 0  # files rendered by this build; the others were the last build's


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
    saved, this_build = state_file(config, "build") if cached else None, identity(config)
    with stages("restore"):
        history = digest(history_state(config.content_dir))
        glance = BuildState.glance_at(saved, this_build)
        unchanged = glance is not None and _nothing_to_do(glance, config, history, out_dir)
    if unchanged:
        return _as_before(glance.outcome, report, stages, started)
    with stages("restore"):
        state = BuildState.restore(saved, this_build)
        changes = state.changes(config)
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


def _nothing_to_do(glance: Glance, config: SiteConfig, history: bytes, out_dir: Path) -> bool:
    """Whether nothing a build reads changed since the state was left (the git history
    included), and the output is as it left it."""
    return (glance.outcome is not None and glance.derived.get(HISTORY) == history and not glance.changes(config)
            and intact(out_dir, glance.outputs))


def _as_before(outcome: Outcome, report: Report, stages: Stages, started: float) -> BuildResult:
    """The last build's result, and its warnings again."""
    report.extend(outcome.warnings)
    stages.finish()
    counts = outcome.counts
    return BuildResult(counts["pages"], counts["papers"], time.perf_counter() - started, counts["files"],
                       counts["redirects"], dict(stages.seconds))


def _build_into(config: SiteConfig, staging: Path, out_dir: Path, state: BuildState, changes: ChangeSet,
                report: Report, stages: Stages) -> tuple[Builder, RenderResult]:
    """Every stage up to the swap, into `staging`, which starts as a copy (hard links) of the
    files of the last output that are as the state says."""
    from .builder import Builder  # here, not above: a build with nothing to do never loads the renderer
    with stages("restore"):
        forget_damaged(state, seed(out_dir, staging, state.output_files()))
    builder = Builder(config, state, staging, stages, staged=True)
    result = builder.build(changes, report)
    stages.show_for(len(builder.catalogue.papers))
    with stages("links"):
        _check_links(builder, None if result.added else result.written, out_dir)
    report.extend(builder.warnings)
    (staging / MARKER).write_text("Built by build.py; replaced whole by the next build.\n")
    if config.search:
        builder.renderer.forget()  # this build renders nothing more: Pagefind, a big process, runs next
        give_back_memory()
        with stages("search"):
            _index(builder, staging, out_dir, report)
    return builder, result


def _check_links(builder: Builder, only: Collection[str] | None, out_dir: Path) -> None:
    """Fail on a link or #anchor that leads nowhere, naming the paper file and line that writes
    it, or else the page (as it will be in `out_dir`); list the external links, never fetched."""
    links = builder.links(only)
    broken = builder.broken(links, out_dir)
    if broken:
        raise ContentError([diagnostic for _, diagnostic in broken])
    cache_dir = builder.config.cache_dir
    if cache_dir:
        external = external_links(builder.state.outputs, builder.config.base_url)
        write_if_changed(cache_dir / EXTERNAL_LINKS, "".join(f"{url}\n" for url in external).encode())


def _index(builder: Builder, staging: Path, out_dir: Path, report: Report) -> None:
    """Index the staged site unless the last index was made from the same pages (by their
    records' keys); in shards, running Pagefind only for those whose pages changed. The index's
    files are then the site's, recorded like any other."""
    state = builder.state
    wanted = to_reindex(state, builder.titles())
    if wanted is None:
        return
    indexed = index_site(staging, shards=wanted.shards, unchanged=wanted.unchanged)
    if not indexed.stable:
        report.warning(out_dir / INDEX_DIR, 0, "Pagefind wrote its index in a layout search.make_stable does not "
                       "know, so two builds may differ in it (search works)", "update make_stable for this Pagefind")
    state.derived[SEARCH] = Derived(wanted.key, searched(wanted, indexed))
    for file in [file for file in state.files if file.startswith(f"{INDEX_DIR}/")]:
        del state.files[file]
    state.files.update((file, signature(staging / file)) for file in search_files(staging))


def _finish(builder: Builder, result: RenderResult, history: bytes, old_site: Path | None, report: Report,
            started: float) -> BuildResult:
    """Add what the build published to the ledger, keep the old site as the next build's
    staging folder, and leave the state in the cache folder."""
    config, state, stages = builder.config, builder.state, builder.stages
    if config.ledger and not config.drafts:
        record(config.ledger, set(result.plan.published))
        builder.loader.reread_ledger()  # as this build left it: the next build finds it unchanged
    counts = {"pages": result.plan.html_pages, "papers": len(builder.catalogue.papers),
              "files": len(result.plan.files), "redirects": result.plan.redirects}
    state.outcome = Outcome(counts, tuple(report.warnings))
    state.derived[HISTORY] = Derived(history, None)
    keep_spare(old_site, config.out_dir.resolve())
    with stages("save"):
        state.save(state_file(config, "build"))
    stages.finish()
    return BuildResult(counts["pages"], counts["papers"], time.perf_counter() - started, counts["files"],
                       counts["redirects"], dict(stages.seconds), len(result.written))


def check_site(config: SiteConfig, report: Report) -> tuple[Catalogue, Costly]:
    """Everything a build checks, by the same code, kept in memory: nothing is written, no
    Pagefind runs. Drafts are rendered too, as watch mode renders them, so `check` finds every
    error either finds (a published page linking to a draft included). It starts from the
    state the last check left, so it renders only what changed since. Returns the catalogue,
    drafts and all, and the review list's costly parts, for the curation report."""
    from .builder import REVIEW, Builder
    from .relate.review import costly_parts
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
