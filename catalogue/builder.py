"""A whole build: load and validate, render into a fresh folder, index, then swap it in."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .config import SiteConfig
from .load import load_catalogue
from .render import SiteRenderer
from .report import Report
from .search import index_site

_STAGING_PREFIX = ".build-"


@dataclass(frozen=True)
class BuildResult:
    pages: int
    papers: int
    seconds: float


def build_site(config: SiteConfig, report: Report) -> BuildResult:
    """Build into a staging folder beside the output; replace the output only on success.

    Raises ContentError before anything is written if `content/` is invalid.
    """
    started = time.perf_counter()
    catalogue = load_catalogue(config.content_dir, report)
    out_dir = config.out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(out_dir)
    staging = Path(tempfile.mkdtemp(prefix=f"{_STAGING_PREFIX}{out_dir.name}-", dir=out_dir.parent))
    try:
        pages = SiteRenderer(catalogue, config, report).render_all(staging)
        if config.search:
            index_site(staging)
        _swap_in(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return BuildResult(pages, len(catalogue.papers), time.perf_counter() - started)


def _swap_in(staging: Path, out_dir: Path) -> None:
    """Put the new site in place: two renames, so the old one is whole until the last moment."""
    os.chmod(staging, 0o755)
    retired = None
    if out_dir.exists():
        retired = out_dir.with_name(f"{_STAGING_PREFIX}{out_dir.name}-old-{os.getpid()}")
        out_dir.rename(retired)
    staging.rename(out_dir)
    if retired:
        shutil.rmtree(retired, ignore_errors=True)


def _remove_leftovers(out_dir: Path) -> None:
    """Staging folders of interrupted builds (of this output) are deleted on the next run."""
    for leftover in out_dir.parent.glob(f"{_STAGING_PREFIX}{out_dir.name}-*"):
        shutil.rmtree(leftover, ignore_errors=True)
