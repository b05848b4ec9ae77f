"""Index the rendered site with Pagefind, for client-side search with filters."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

INDEX_DIR = "pagefind"


class SearchIndexError(Exception):
    """Pagefind failed; carries what it printed."""


def index_site(site_dir: Path, background: bool = False) -> None:
    """Run the Pagefind binary (from `pagefind[bin]`) over `site_dir`; `background` runs it
    at low priority, so that it never slows the rebuilds of watch mode.

    The index is built beside the old one and swapped in, so a live site always has a whole
    index, and stale files never linger (Pagefind itself never cleans its folder).
    """
    fresh, old = site_dir / f".{INDEX_DIR}-new", site_dir / f".{INDEX_DIR}-old"
    for leftover in (fresh, old):
        shutil.rmtree(leftover, ignore_errors=True)
    command = [sys.executable, "-m", "pagefind", "--site", str(site_dir),
               "--output-path", str(fresh), "--quiet"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as process:
        if background:  # not preexec_fn, which is unsafe in a process with threads
            os.setpriority(os.PRIO_PROCESS, process.pid, 10)
        output, _ = process.communicate()
    if process.returncode != 0 or not (fresh / "pagefind.js").is_file():
        shutil.rmtree(fresh, ignore_errors=True)
        raise SearchIndexError(output.strip() or "no index written")
    if (site_dir / INDEX_DIR).exists():
        (site_dir / INDEX_DIR).rename(old)
    fresh.rename(site_dir / INDEX_DIR)
    shutil.rmtree(old, ignore_errors=True)
