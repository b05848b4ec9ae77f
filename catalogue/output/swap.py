"""The site folder: claimed only if it is ours, built beside it, then swapped in whole."""

from __future__ import annotations

import ctypes
import os
import shutil
import tempfile
from pathlib import Path

from ..config import PROJECT_ROOT, SiteConfig
from ..files import Signature, signature
from ..report import ContentError, Diagnostic

STAGING_PREFIX = ".build-"
MARKER = ".catalogue-site"  # marks a folder this tool built, and so may replace


def staging_dir(out_dir: Path) -> Path:
    """A fresh folder beside the output, after clearing what interrupted builds left there."""
    _remove_leftovers(out_dir)
    return Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{out_dir.name}-", dir=out_dir.parent))


def seed(out_dir: Path, staging: Path, files: dict[str, Signature]) -> set[str]:
    """Link each file of the last output that is as the state says it left it into `staging`
    (hard links: no bytes copied); return those linked. Every later write replaces a file (a
    rename), so the last output stays whole. (Strings, not Paths: this runs for every file.)"""
    linked, folders = set(), set()
    source_root, target_root = f"{out_dir}{os.sep}", f"{staging}{os.sep}"
    for file, recorded in files.items():
        source, target = source_root + file, target_root + file
        if not recorded or signature(source) != recorded:
            continue
        folder = os.path.dirname(target)
        if folder not in folders:
            os.makedirs(folder, exist_ok=True)
            folders.add(folder)
        try:
            os.link(source, target)
        except OSError:  # another file system, or one without hard links
            shutil.copy2(source, target)
        linked.add(file)
    return linked


def intact(out_dir: Path, files: dict[str, Signature]) -> bool:
    """Whether `out_dir` holds these files as recorded, and no other (the marker aside)."""
    if any(signature(f"{out_dir}{os.sep}{file}") != recorded for file, recorded in files.items()):
        return False
    return sum(len(names) for _, _, names in os.walk(out_dir)) == len(files) + (out_dir / MARKER).is_file()


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


def swap_in(staging: Path, out_dir: Path) -> Path | None:
    """Put the new site in place. On Linux one atomic exchange of the two folders, so `out_dir`
    is never missing, even if the build is killed; elsewhere two renames, and a site killed
    between them is put back by the next run (`_remove_leftovers`). Returns the folder that
    now holds the old site, for the caller to remove (the next run removes it otherwise)."""
    os.chmod(staging, 0o755)
    if out_dir.exists() and _exchange(staging, out_dir):
        return staging  # it now holds the old site
    retired = None
    if out_dir.exists():
        retired = out_dir.with_name(f"{STAGING_PREFIX}{out_dir.name}-old-{os.getpid()}")
        out_dir.rename(retired)
    try:
        staging.rename(out_dir)
    except OSError:
        if retired:
            retired.rename(out_dir)
        raise
    return retired


def _remove_leftovers(out_dir: Path) -> None:
    """Staging folders of interrupted builds (of this output) are deleted on the next run; a
    site retired by a build killed in the middle of the two-rename swap is put back first."""
    retired = sorted(out_dir.parent.glob(f"{STAGING_PREFIX}{out_dir.name}-old-*"))
    if retired and not out_dir.exists():
        retired[-1].rename(out_dir)
    for leftover in out_dir.parent.glob(f"{STAGING_PREFIX}{out_dir.name}-*"):
        shutil.rmtree(leftover, ignore_errors=True)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step (Linux renameat2 RENAME_EXCHANGE); False where it cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_cwd, exchange = -100, 2
    return renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), exchange) == 0
