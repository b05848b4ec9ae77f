"""The published-URL ledger: every address the catalogue has published, so none is dropped.

It is a set, kept sorted: two branches that each publish new addresses merge cleanly (with the
union merge in .gitattributes), and the next build writes the union back in order, once each.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from . import urls
from .files import read_lines, write_atomic
from .report import ContentError, Diagnostic

HEADER = ("# Every URL path this catalogue has published, one a line, sorted (kept by build.py);\n"
          "# author pages come and go with the papers' metadata and are not kept.\n"
          "# A build that would drop one fails: keep it with `aliases:` or content/redirects.txt.\n")


def read_ledger(path: Path) -> dict[str, int]:
    """Published paths and the line each is first on; raises ContentError at a line that is
    no site path (a merge conflict's markers, a stray word)."""
    if not path.is_file():
        return {}
    paths: dict[str, int] = {}
    problems = []
    for number, line in enumerate(read_lines(path), start=1):
        entry = line.strip()
        if not entry or entry.startswith("#"):
            continue
        if not entry.startswith("/") or any(char.isspace() for char in entry):
            problems.append(Diagnostic(path, number, f"{entry!r} is not a site path",
                                       "each line is one path starting with `/`; delete this line"))
        paths.setdefault(entry, number)
    if problems:
        raise ContentError(problems)
    return paths


def dropped(ledger: dict[str, int], published: set[str], path: Path,
            leaves_out: Callable[[str], bool] = lambda _: False, drafts: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """A diagnostic for each ledger path that this build would no longer serve; paths this
    kind of build leaves out on purpose (`SiteConfig.leaves_out`) are not its to judge. A path
    in `drafts` is a draft's page: shown while curating, gone from a published build."""
    return [Diagnostic(path, line, f"{url} was published, and this build would drop it", _how_to_keep(url, drafts))
            for url, line in sorted(ledger.items(), key=lambda item: item[1])
            if url not in published and not leaves_out(url)]


def _how_to_keep(url: str, drafts: frozenset[str]) -> str:
    if url in drafts:
        return ("its paper is now a draft: remove `draft: true` to keep it published, or add a line "
                f"`{url} /<new place>/` to content/redirects.txt")
    if urls.ids([url], urls.PAPERS):
        slug = url.split("/")[2]
        return (f"add `aliases: [{slug}]` to the paper it became, or a line "
                f"`{url} /papers/<replacement>/` to content/redirects.txt")
    if urls.ids([url], urls.TAGS):
        return (f"restore the tag in content/taxonomy.yaml, or add a line `{url} /tags/<replacement>/` "
                "to content/redirects.txt")
    where = "/<new place>/" if url.endswith("/") else "/<new place>"
    return f"add a line `{url} {where}` to content/redirects.txt"


def record(path: Path, published: set[str]) -> int:
    """Write the ledger as the sorted union of what it held and what this build published
    (also tidying a file that a merge left unsorted or doubled); return how many are new."""
    held = read_ledger(path)
    new = published - set(held)
    text = HEADER + "".join(f"{url}\n" for url in sorted(set(held) | published))
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return 0
    write_atomic(path, text)
    return len(new)


class LedgerFile:
    """The ledger as a build reads it: read again only when the file changed (watch mode
    checks it on every rebuild)."""

    def __init__(self, path: Path):
        self.path = path
        self._read: tuple[tuple, dict[str, int]] = ((None,), {})

    def paths(self) -> dict[str, int]:
        try:
            stat = self.path.stat()
            signature: tuple = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            signature = ()
        if self._read[0] != signature:
            self._read = (signature, read_ledger(self.path))
        return self._read[1]
