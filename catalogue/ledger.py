"""The published-URL ledger: every address the catalogue has published, so none is dropped."""

from __future__ import annotations

import os
from pathlib import Path

from .report import Diagnostic

HEADER = ("# Every URL path this catalogue has published, one a line (kept by build.py);\n"
          "# author pages come and go with the papers' metadata and are not kept.\n"
          "# A build that would drop one fails: keep it with `aliases:` or content/redirects.txt.\n")


def read_ledger(path: Path) -> dict[str, int]:
    """Published paths and the line each is on."""
    if not path.is_file():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    return {line.strip(): number for number, line in enumerate(lines, start=1)
            if line.strip() and not line.startswith("#")}


def dropped(ledger: dict[str, int], published: set[str], path: Path) -> list[Diagnostic]:
    """A diagnostic for each ledger path that this build would no longer serve."""
    return [Diagnostic(path, line, f"{url} was published, and this build would drop it",
                       _how_to_keep(url))
            for url, line in sorted(ledger.items(), key=lambda item: item[1]) if url not in published]


def _how_to_keep(url: str) -> str:
    if url.startswith("/papers/") and url.count("/") == 3:
        slug = url.split("/")[2]
        return (f"add `aliases: [{slug}]` to the paper it became, or a line "
                f"`{url} /papers/<replacement>/` to content/redirects.txt")
    return f"add a line `{url} /<new place>/` to content/redirects.txt"


def record(path: Path, ledger: dict[str, int], published: set[str]) -> int:
    """Add newly published paths (sorted, below the old ones); return how many."""
    new = sorted(published - set(ledger))
    if not new:
        return 0
    old = path.read_text(encoding="utf-8") if path.is_file() else HEADER
    text = old + ("" if old.endswith("\n") else "\n") + "".join(f"{url}\n" for url in new)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
    return len(new)
