"""static/ → the site: fingerprinted assets (cached for a year) and a mirror of the rest. Each
file is recorded in the build state twice: as a file the build reads (`sources`, so the next
build knows whether it moved) and as a file of the site (`files`)."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

from .. import urls
from ..files import refuse_conflict, signature, write_if_changed
from ..state import BuildState

FINGERPRINTED = ("style.css", "views.css")  # named by content, so they can be cached for a year
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_BLANK_LINES = re.compile(r"\n[ \t]*(?=\n)")
TEXT_SUFFIXES = {".css", ".js", ".svg", ".html", ".txt", ".json", ".xml"}  # a merge conflict is refused in these


def fingerprint_assets(static_dir: Path) -> dict[str, tuple[str, bytes]]:
    """`style.css` → (`assets/style.<hash>.css`, its bytes without comments): named by content,
    cached for a year."""
    assets = {}
    for name in FINGERPRINTED:
        text = (static_dir / name).read_text(encoding="utf-8", errors="replace")
        refuse_conflict(static_dir / name, text)
        data = without_comments(text).encode("utf-8")
        stem, _, suffix = name.rpartition(".")
        assets[name] = (f"{urls.ASSETS}{stem}.{hashlib.sha256(data).hexdigest()[:10]}.{suffix}", data)
    return assets


def without_comments(css: str) -> str:
    """The stylesheet as readers download it: its comments (a sixth of its gzipped bytes, and
    for whoever edits static/) and blank lines left out. No string in our CSS holds `/*`."""
    return _BLANK_LINES.sub("", _COMMENT.sub("", css)).lstrip("\n")


def write_assets(assets: dict[str, tuple[str, bytes]], site: Path | None, state: BuildState) -> None:
    """Write the fingerprinted files (into `site`, if there is one), removing older versions."""
    names = {path for path, _ in assets.values()}
    for path, data in assets.values():
        if site is not None:
            write_if_changed(site / path, data)
        state.files[path] = signature(site / path) if site is not None else ()
    for stale in [file for file in state.files if file.startswith(urls.ASSETS) and file not in names]:
        del state.files[stale]
        if site is not None:
            (site / stale).unlink(missing_ok=True)


def sync_static(source: Path, site: Path | None, state: BuildState) -> None:
    """Make the site's `static/` a copy of the files a build reads in `source` (editors' files
    left out): stale entries go first (a file may have become a folder, or the other way
    round), then files that moved since the state's record of them (or whose copy in the site
    did) are written."""
    moved = state.read_folder(source, _read_static)
    wanted = {path.relative_to(source): path for path in sorted(moved)}
    for file in [f for f in state.files if f.startswith(urls.STATIC) and Path(f[len(urls.STATIC):]) not in wanted]:
        del state.files[file]
    if site is not None:
        _remove_stale(site / urls.STATIC, wanted)
    for relative, path in wanted.items():
        file = f"{urls.STATIC}{relative.as_posix()}"
        if site is not None and (moved[path] or state.files.get(file) != signature(site / file)):
            write_if_changed(site / file, path.read_bytes())
        state.files[file] = signature(site / file) if site is not None else ()


def _read_static(path: Path) -> tuple[None, tuple]:
    """A static file is refused if a merge conflict is left in it; its bytes are copied as they are."""
    if path.suffix in TEXT_SUFFIXES:
        refuse_conflict(path, path.read_bytes().decode("utf-8", errors="replace"))
    return None, ()


def _remove_stale(target: Path, wanted: dict[Path, Path]) -> None:
    folders = {parent for relative in wanted for parent in relative.parents}
    if target.is_dir():
        for entry in sorted(target.rglob("*"), reverse=True):  # deepest first
            relative = entry.relative_to(target)
            if entry.is_dir() and not entry.is_symlink():
                if relative in wanted or (relative not in folders and not any(entry.iterdir())):
                    shutil.rmtree(entry)
            elif relative not in wanted:
                entry.unlink()
