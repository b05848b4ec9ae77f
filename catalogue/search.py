"""Index the rendered site with Pagefind, for client-side search with filters."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

INDEX_DIR = "pagefind"


class SearchIndexError(Exception):
    """Pagefind failed; carries what it printed."""


def index_site(site_dir: Path) -> str:
    """Run the Pagefind binary from the `pagefind[bin]` package over `site_dir`."""
    shutil.rmtree(site_dir / INDEX_DIR, ignore_errors=True)  # Pagefind never cleans it
    command = [sys.executable, "-m", "pagefind", "--site", str(site_dir),
               "--output-subdir", INDEX_DIR, "--quiet"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0 or not (site_dir / INDEX_DIR / "pagefind.js").is_file():
        raise SearchIndexError((result.stdout + result.stderr).strip() or "no index written")
    return result.stdout
