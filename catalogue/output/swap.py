"""The site folder: claimed only if it is ours, built beside it, then swapped in whole. The
site it replaces is kept beside it (`.build-site-spare`, hard links to the same files but for
those the build changed) to be the next build's staging folder: brought level with the site
(`seed`), it spares the next build making a tree of thousands of folders and removing one."""

from __future__ import annotations

import ctypes
import os
import shutil
import tempfile
from pathlib import Path

from ..config import PROJECT_ROOT, SiteConfig
from ..files import Signature, signature
from ..report import ContentError, Diagnostic
from ..state import BuildState
from .search import INDEX_DIR, SEARCH

STAGING_PREFIX = ".build-"
SPARE = "spare"  # the last site replaced: the next build's staging folder
MARKER = ".catalogue-site"  # marks a folder this tool built, and so may replace
GIT_IGNORE = ".gitignore"  # in the spare and the staging folder: they lie in the curator's repository


def staging_dir(out_dir: Path) -> Path:
    """A folder beside the output to build into, after clearing what interrupted builds left
    there: the spare (the site the last build replaced) if there is one, else a new folder."""
    _remove_leftovers(out_dir)
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{out_dir.name}-", dir=out_dir.parent))
    spare = _spare(out_dir)
    if spare.is_dir():
        staging.rmdir()
        spare.rename(staging)
    _ignore_in_git(staging)
    return staging


def keep_spare(old_site: Path | None, out_dir: Path) -> None:
    """Keep the site a build replaced as the next build's staging folder."""
    if old_site is not None:
        old_site.rename(_spare(out_dir))
        _ignore_in_git(_spare(out_dir))


def _ignore_in_git(folder: Path) -> None:
    """The staging folder and the spare lie beside the output, in the curator's repository, which
    may ignore only `site/`: each ignores itself (`swap_in` removes the file from the new site)."""
    (folder / GIT_IGNORE).write_text("# Kept by build.py to build the next site in: not a source.\n*\n")


def _spare(out_dir: Path) -> Path:
    return out_dir.with_name(f"{STAGING_PREFIX}{out_dir.name}-{SPARE}")


def seed(out_dir: Path, staging: Path, files: dict[str, Signature]) -> set[str]:
    """Make `staging` hold each file of the last output that is as the state says it left it
    (hard links: no bytes copied), and no other but its `.gitignore`; return those. A file the
    spare holds already (the same inode) is left as it is. Every later write replaces a file (a
    rename), so the last output stays whole. (Strings, not Paths: this runs for every file of
    the site.)"""
    kept, folders = set(), set()
    source_root, target_root = f"{out_dir}{os.sep}", f"{staging}{os.sep}"
    for file, recorded in files.items():
        source, target = source_root + file, target_root + file
        if not recorded or signature(source) != recorded:
            continue
        if signature(target) != recorded:
            _link(source, target, folders)
        kept.add(file)
    remove_others(staging, kept | {MARKER, GIT_IGNORE})
    return kept


def forget_damaged(state: BuildState, kept: set[str]) -> None:
    """What the last output no longer holds as the state says (someone edited site/, or removed
    it) is made again: its record goes, and with it its group's (or the search index's)."""
    for file in [file for file in state.outputs if file not in kept]:
        state.groups.pop(state.outputs.pop(file).group, None)
    for file in [file for file in state.files if file not in kept]:
        del state.files[file]
        if file.startswith(f"{INDEX_DIR}/"):
            state.derived.pop(SEARCH, None)


def _link(source: str, target: str, folders: set[str]) -> None:
    folder = os.path.dirname(target)
    if folder not in folders:
        os.makedirs(folder, exist_ok=True)
        folders.add(folder)
    try:
        if os.path.lexists(target):
            os.unlink(target)
        os.link(source, target)
    except OSError:  # another file system, or one without hard links
        shutil.copy2(source, target)


def remove_others(site: Path, kept: set[str]) -> None:
    """Remove every file of `site` that is not in `kept` (paths relative to it), and the folders
    left empty."""
    for folder, names, files in os.walk(site, topdown=False):
        relative = os.path.relpath(folder, site)
        prefix = "" if relative == "." else relative.replace(os.sep, "/") + "/"
        for name in files:
            if prefix + name not in kept:
                os.unlink(os.path.join(folder, name))
        if relative != "." and not os.listdir(folder):
            os.rmdir(folder)


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
    now holds the old site, if any (see `keep_spare`)."""
    (staging / GIT_IGNORE).unlink(missing_ok=True)
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
        if leftover != _spare(out_dir):
            shutil.rmtree(leftover, ignore_errors=True)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two folders in one step (Linux renameat2 RENAME_EXCHANGE); False where it cannot."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_cwd, exchange = -100, 2
    return renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), exchange) == 0
