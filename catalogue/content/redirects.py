"""content/redirects.txt: addresses kept by a redirect, for URLs no paper alias can keep."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..config import REDIRECTS_FILE
from ..files import read_lines
from ..report import Report

_SITE_PATH = re.compile(r"/(?:[a-z0-9._-]+/)*(?:[a-z0-9_-][a-z0-9._-]*\.[a-z0-9]+)?")  # a folder's ends in /


@dataclass(frozen=True)
class Redirect:
    """A line of content/redirects.txt: an old site path, the new one (no leading slash)."""

    old: str
    new: str
    line: int
    path: Path | None = None  # the file that asks for it, if not content/redirects.txt (authors.yaml)


def read_redirects(content_dir: Path, report: Report) -> tuple[Redirect, ...]:
    """`content/redirects.txt`: lines `/old/path/ /new/path/`, for URLs no paper alias can keep."""
    path = content_dir / REDIRECTS_FILE
    if not path.is_file():
        return ()
    redirects: dict[str, Redirect] = {}
    for number, line in enumerate(read_lines(path), start=1):
        parts = line.split("#", 1)[0].split()
        if not parts:
            continue
        if len(parts) != 2 or not all(_SITE_PATH.fullmatch(p) and ".." not in p for p in parts):
            report.error(path, number, f"not a redirect: {line.strip()!r}",
                         "write two site paths, a folder's ending in /, like `/tags/old/ /tags/new/` "
                         "or `/feed.xml /themes/x/feed.xml`")
        elif (first := redirects.get(parts[0].lstrip("/"))) is not None:
            report.error(path, number, f"{parts[0]} is redirected twice (first on line {first.line})",
                         "an old address leads to one place: keep one of the two lines")
        else:
            redirects[parts[0].lstrip("/")] = Redirect(parts[0].lstrip("/"), parts[1].lstrip("/"), number)
    return tuple(redirects.values())
