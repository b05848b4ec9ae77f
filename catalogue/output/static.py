"""static/ → the site: fingerprinted assets (cached for a year) and a mirror of the rest."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from .. import urls
from ..files import refuse_conflict, write_if_changed

FINGERPRINTED = ("style.css",)  # named by content, so they can be cached for a year
TEXT_SUFFIXES = {".css", ".js", ".svg", ".html", ".txt", ".json", ".xml"}  # a merge conflict is refused in these


def fingerprint_assets(static_dir: Path) -> dict[str, tuple[str, bytes]]:
    """`style.css` → (`assets/style.<hash>.css`, its bytes): named by content, cached for a year."""
    assets = {}
    for name in FINGERPRINTED:
        data = (static_dir / name).read_bytes()
        refuse_conflict(static_dir / name, data.decode("utf-8", errors="replace"))
        stem, _, suffix = name.rpartition(".")
        assets[name] = (f"{urls.ASSETS}{stem}.{hashlib.sha256(data).hexdigest()[:10]}.{suffix}", data)
    return assets


def write_assets(assets: dict[str, tuple[str, bytes]], site: Path) -> None:
    """Write the fingerprinted files, removing older versions."""
    target = site / urls.ASSETS
    names = {Path(path).name for path, _ in assets.values()}
    for path, data in assets.values():
        write_if_changed(target / Path(path).name, data)
    for stale in (p for p in target.glob("*") if p.name not in names):
        stale.unlink()


def sync_static(source: Path, site: Path) -> None:
    """Make the site's `static/` a copy of `source`: stale entries go first (a file may have
    become a folder, or the other way round), then changed files are written."""
    target = site / urls.STATIC
    wanted = {p.relative_to(source) for p in source.rglob("*") if p.is_file()}
    folders = {parent for relative in wanted for parent in relative.parents}
    if target.is_dir():
        for entry in sorted(target.rglob("*"), reverse=True):  # deepest first
            relative = entry.relative_to(target)
            if entry.is_dir() and not entry.is_symlink():
                if relative in wanted or (relative not in folders and not any(entry.iterdir())):
                    shutil.rmtree(entry)
            elif relative not in wanted:
                entry.unlink()
    for relative in sorted(wanted):
        data = (source / relative).read_bytes()
        if relative.suffix in TEXT_SUFFIXES:
            refuse_conflict(source / relative, data.decode("utf-8", errors="replace"))
        write_if_changed(target / relative, data)
