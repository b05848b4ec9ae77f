"""A whole build: load and validate, render into a fresh folder, index, then swap it in."""

from __future__ import annotations

import ctypes
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from .config import PROJECT_ROOT, SiteConfig
from .ledger import record
from .output.links import check_links, explain, written_by_curators
from .content.loader import ContentLoader
from .content.model import Catalogue
from .render.renderer import RenderResult, SiteRenderer
from .report import ContentError, Diagnostic, Report
from .output.search import INDEX_DIR, index_site
from .relate.similarity import SimilarityCache

_STAGING_PREFIX = ".build-"
SIMILARITY_INLINE_LIMIT = 200  # papers: up to here related papers take ~20 ms, so a rebuild waits for them
MARKER = ".catalogue-site"  # marks a folder this tool built, and so may replace
EXTERNAL_LINKS = "external-links.txt"  # in the cache folder: every outside address the site links to


@dataclass(frozen=True)
class BuildResult:
    pages: int
    papers: int
    seconds: float
    files: int = 0


class Builder:
    """Loads and renders, remembering both, so the next build only redoes what changed.

    With `similarity_later`, a rebuild of a catalogue larger than `similarity_inline_limit`
    renders with the related papers and map of the last computation instead of waiting seconds
    for a new one; the caller refreshes them (watch mode).
    """

    def __init__(self, config: SiteConfig, similarity_later: bool = False):
        self.config = config
        self.loader = ContentLoader(config.content_dir, config.ledger)
        self.renderer = SiteRenderer(config)
        self.similarity = SimilarityCache()
        self.similarity_later = similarity_later
        self.similarity_inline_limit = SIMILARITY_INLINE_LIMIT
        self.catalogue: Catalogue | None = None  # the last one loaded

    def load(self, report: Report, changed: set[Path] | None = None) -> Catalogue:
        self.catalogue = self.loader.load(report, drafts=self.config.drafts, changed=changed)
        return self.catalogue

    def rebuild(self, out_dir: Path, report: Report, changed: set[Path] | None = None) -> RenderResult:
        """Bring `out_dir` up to date in place; raises ContentError, leaving it as it was.

        `changed` names the files that may have changed (None: look at every file).
        """
        return self.render(self.load(report, changed), out_dir, report)

    def render(self, catalogue: Catalogue, out_dir: Path, report: Report) -> RenderResult:
        later = self.similarity_later and len(catalogue.papers) > self.similarity_inline_limit
        similarity = self.similarity.latest if later else self.similarity.current(catalogue)
        return self.renderer.render(catalogue, out_dir, report, similarity)


def build_site(config: SiteConfig, report: Report) -> BuildResult:
    """Build into a staging folder beside the output; replace the output only on success.

    Raises ContentError before anything is swapped in if `content/` is invalid.
    """
    started = time.perf_counter()
    builder = Builder(config)
    catalogue = builder.load(report)
    out_dir = claim_output_dir(config)
    _remove_leftovers(out_dir)
    staging = Path(tempfile.mkdtemp(prefix=f"{_STAGING_PREFIX}{out_dir.name}-", dir=out_dir.parent))
    try:
        result = _render_checked(builder, catalogue, staging, out_dir, report)
        (staging / MARKER).write_text("Built by build.py; replaced whole by the next build.\n")
        if config.search and not index_site(staging):
            report.warning(out_dir / INDEX_DIR, 0, "Pagefind wrote its index in a layout search.make_stable does not know,"
                           " so two builds may differ in it (search works)", "update make_stable for this Pagefind")
        _swap_in(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if config.ledger and not config.drafts:
        record(config.ledger, result.published)
    return BuildResult(result.pages, len(catalogue.papers), time.perf_counter() - started, result.files)


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
                    report: Report) -> RenderResult:
    """Render (which checks the plan: duplicate pages, the ledger), then check every link."""
    result = builder.render(catalogue, staging, report)
    _check_links(builder.config, catalogue, staging, out_dir, result.drafts)
    return result


def _check_links(config: SiteConfig, catalogue: Catalogue, staging: Path, out_dir: Path,
                 drafts: frozenset[str]) -> None:
    """Fail on a link or #anchor that leads nowhere, naming the paper file and line that writes
    it, or else the page (as it will be in `out_dir`); list the external links, never fetched."""
    links = check_links(staging, config.base_url, left_out=config.leaves_out, drafts=drafts)
    broken = written_by_curators(links.broken, catalogue)
    if broken:
        raise ContentError([explain(each, catalogue, out_dir) for each in broken])
    if config.cache_dir and links.external:
        config.cache_dir.mkdir(parents=True, exist_ok=True)
        (config.cache_dir / EXTERNAL_LINKS).write_text("".join(f"{url}\n" for url in sorted(links.external)))


def claim_output_dir(config: SiteConfig) -> Path:
    """The output folder, if it is safe to replace: never a source folder, never a stranger's."""
    out_dir = config.out_dir.resolve()
    sources = [config.content_dir, config.templates_dir, config.static_dir, PROJECT_ROOT]
    for source in (s.resolve() for s in sources):
        if out_dir == source or source.is_relative_to(out_dir):
            raise ContentError([Diagnostic(config.out_dir, 0, f"the output folder would replace {source}",
                                           "choose another --out folder")])
    if out_dir.exists() and any(out_dir.iterdir()) and not (out_dir / MARKER).exists():
        raise ContentError([Diagnostic(config.out_dir, 0, "the output folder holds files this tool did not build",
                                       "choose an empty or new --out folder, or empty this one yourself")])
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    return out_dir


def _swap_in(staging: Path, out_dir: Path) -> None:
    """Put the new site in place. On Linux one atomic exchange of the two folders, so `out_dir`
    is never missing, even if the build is killed; elsewhere two renames, and a site killed
    between them is put back by the next run (`_remove_leftovers`)."""
    os.chmod(staging, 0o755)
    if out_dir.exists() and _exchange(staging, out_dir):
        shutil.rmtree(staging, ignore_errors=True)  # it now holds the old site
        return
    retired = None
    if out_dir.exists():
        retired = out_dir.with_name(f"{_STAGING_PREFIX}{out_dir.name}-old-{os.getpid()}")
        out_dir.rename(retired)
    try:
        staging.rename(out_dir)
    except OSError:
        if retired:
            retired.rename(out_dir)
        raise
    if retired:
        shutil.rmtree(retired, ignore_errors=True)


def _remove_leftovers(out_dir: Path) -> None:
    """Staging folders of interrupted builds (of this output) are deleted on the next run; a
    site retired by a build killed in the middle of the two-rename swap is put back first."""
    retired = sorted(out_dir.parent.glob(f"{_STAGING_PREFIX}{out_dir.name}-old-*"))
    if retired and not out_dir.exists():
        retired[-1].rename(out_dir)
    for leftover in out_dir.parent.glob(f"{_STAGING_PREFIX}{out_dir.name}-*"):
        shutil.rmtree(leftover, ignore_errors=True)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step (Linux renameat2 RENAME_EXCHANGE); False where it cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_cwd, exchange = -100, 2
    return renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), exchange) == 0
