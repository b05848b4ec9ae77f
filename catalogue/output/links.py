"""Every internal link and #anchor of a built site must lead somewhere; external ones are listed.

Reads the pages back by splitting on ` href="`, ` src="`, ` action="` and ` id="` rather than
with an HTML parser: the templates write every attribute in double quotes after a space, and
sanitised abstracts do too, so this sees every link at a small fraction of a parser's cost.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

from .. import urls
from ..content.model import Catalogue, Paper
from ..report import Diagnostic

_LINK_ATTRIBUTES = (b' href="', b' src="', b' action="')
TO_A_DRAFT = "leads to a draft, which is not published"
_PLAIN_PATH = re.compile(r"/(?!/)[^?#%\t\r\n]*\Z")  # a site path with nothing to decode or split off


def _values(html: bytes, attribute: bytes) -> list[bytes]:
    """The values of one double-quoted attribute inside tags (bytes.split runs in C); text that
    only shows such an attribute, like `&lt;a href="…"&gt;` in an abstract, is not a link."""
    parts = html.split(attribute)
    return [part[:part.find(b'"')] for before, part in zip(parts, parts[1:])
            if before.rfind(b"<") > before.rfind(b">")]


class Broken(NamedTuple):
    page: str  # the page's file in the site, like papers/samba/index.html
    link: str
    problem: str


@dataclass
class LinkReport:
    broken: list[Broken] = field(default_factory=list)
    external: set[str] = field(default_factory=set)
    checked: int = 0


class LinkMemory:
    """Each page's links and ids as last read, by the file's size, time and inode: a build that
    starts from the last output (see `cache`) reads again only the pages it wrote."""

    def __init__(self) -> None:
        self._links: dict[str, tuple[tuple, tuple[bytes, ...]]] = {}
        self._ids: dict[str, tuple[tuple, frozenset[str]]] = {}
        self._shared: dict[bytes, bytes] = {}

    def links(self, site: Path, page: str) -> tuple[bytes, ...] | None:
        """The page's raw link values; None if it is gone."""
        return self._read(self._links, site, page, self._links_in)

    def ids(self, site: Path, page: str) -> frozenset[str]:
        return self._read(self._ids, site, page, _ids_in) or frozenset()

    @staticmethod
    def _read(known: dict, site: Path, page: str, parse: Callable[[bytes], Any]) -> Any:
        try:
            stat = os.stat(site / page)
        except OSError:  # removed since it was listed: nothing left to check
            known.pop(page, None)
            return None
        signature = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
        seen = known.get(page)
        if seen is None or seen[0] != signature:
            try:
                seen = known[page] = (signature, parse((site / page).read_bytes()))
            except FileNotFoundError:
                return None
        return seen[1]

    def _links_in(self, html: bytes) -> tuple[bytes, ...]:
        """Each link value held once however many pages have it (the navigation's, on all)."""
        shared = self._shared
        values = dict.fromkeys(v for attribute in _LINK_ATTRIBUTES for v in _values(html, attribute))
        return tuple(shared.setdefault(value, value) for value in values)

    def __getstate__(self) -> dict:
        return {"_links": self._links, "_ids": self._ids}

    def __setstate__(self, state: dict) -> None:
        self.__init__()
        self.__dict__.update(state)


def _ids_in(html: bytes) -> frozenset[str]:
    return frozenset(value.decode("utf-8") for value in _values(html, b' id="'))


class _OnDisk:
    """The site's files, looked up one at a time: checking a few pages needs no listing of all."""

    def __init__(self, site: Path):
        self.site = f"{site}{os.sep}"
        self._seen: dict[object, bool] = {}

    def __contains__(self, file: object) -> bool:
        found = self._seen.get(file)
        if found is None:
            found = self._seen[file] = os.path.isfile(f"{self.site}{file}")  # os.path: a tenth of pathlib's cost
        return found


class _OrLeftOut:
    """The site's files, and those this build leaves out on purpose (watch previews)."""

    def __init__(self, files: Container[str], left_out: Callable[[str], bool]):
        self.files, self.left_out = files, left_out

    def __contains__(self, file: object) -> bool:
        return file in self.files or self.left_out(str(file))


def check_links(site: Path, base_url: str, pages: Iterable[str] | None = None,
                left_out: Callable[[str], bool] | None = None, drafts: Container[str] = frozenset(),
                memory: LinkMemory | None = None) -> LinkReport:
    """Look at every HTML page under `site` (Pagefind's folder aside), or only at `pages` (files
    relative to `site`); a link may lead to a file `left_out` names, unwritten, and only a
    draft's own page may lead to a file in `drafts` (a preview shows drafts, a published build
    does not). Pages are read one at a time; a page's ids are read only if some link points at
    one of them. `memory` keeps what was read for the next check."""
    files: Container[str]
    if pages is None:
        files = set(all_files(site))
        pages = (f for f in files if f.endswith(".html") and not f.startswith("pagefind/"))
    else:
        files = _OnDisk(site)
    checker = _Checker(site, base_url, _OrLeftOut(files, left_out) if left_out else files, drafts,
                       memory or LinkMemory())
    for page in sorted(p for p in pages if p.endswith(".html")):
        checker.check(page)
    checker.check_anchors()
    return checker.report


class _Checker:
    """One run of the link check: the links seen so far, and the anchors still to look up."""

    def __init__(self, site: Path, base_url: str, files: Container[str], drafts: Container[str],
                 memory: LinkMemory):
        self.site, self.base_url, self.files, self.drafts, self.memory = site, base_url, files, drafts, memory
        self.base_path = urlsplit(base_url).path or "/"
        self.report = LinkReport()
        self.anchors: dict[str, list[tuple[str, str, str]]] = {}  # target page → (fragment, page, link)
        self.absolute: dict[bytes, tuple[str, str | None, str, bool]] = {}  # the same from every page

    def check(self, page: str) -> None:
        links = self.memory.links(self.site, page)
        folder = page.rpartition("/")[0]
        for raw in links or ():
            link, file, fragment, internal = self._resolved(raw, page, folder)
            if not internal:
                self.report.external.add(link)
                continue
            self.report.checked += 1
            if file is None:
                self.report.broken.append(Broken(page, link, "leads to no page"))
            elif file in self.drafts and page not in self.drafts:
                self.report.broken.append(Broken(page, link, TO_A_DRAFT))
            elif fragment and file.endswith(".html"):
                self.anchors.setdefault(file, []).append((fragment, page, link))

    def _resolved(self, raw: bytes, page: str, folder: str) -> tuple[str, str | None, str, bool]:
        """A link resolved; one that reads the same from every page (absolute) only once."""
        resolved = self.absolute.get(raw)
        if resolved is None:
            resolved = _resolve(raw, page, folder, self.base_url, self.base_path, self.files)
            if raw.startswith((b"/", b"http:", b"https:")):
                self.absolute[raw] = resolved
        return resolved

    def check_anchors(self) -> None:
        for file, wanted in self.anchors.items():
            ids = self.memory.ids(self.site, file)
            self.report.broken += [Broken(page, link, f"leads to no #{fragment} on that page")
                                   for fragment, page, link in wanted if fragment not in ids]


def all_files(site: Path) -> Iterable[str]:
    """Every file under `site`, relative to it; a folder removed meanwhile is skipped."""
    for folder, _, names in os.walk(site):
        relative = Path(folder).relative_to(site).as_posix()
        yield from (name if relative == "." else f"{relative}/{name}" for name in names)


def written_by_curators(broken: list[Broken], catalogue: Catalogue | None) -> list[Broken]:
    """Links into drafts count where a curator wrote them, in a published paper's abstract; a
    preview's lists, maps and related papers show drafts on purpose, and a published build has
    none of those links."""
    def counts(each: Broken) -> bool:
        paper = _paper_of(each.page, catalogue) if each.problem == TO_A_DRAFT else None
        return each.problem != TO_A_DRAFT or (paper is not None and each.link in paper.body)
    return [each for each in broken if counts(each)]


def find_broken(site: Path, base_url: str, left_out: Callable[[str], bool] | None = None,
                drafts: frozenset[str] = frozenset()) -> list[Broken]:
    """Every broken link of the site (for a worker process: the rest of the report stays there)."""
    return check_links(site, base_url, left_out=left_out, drafts=drafts).broken


def explain(broken: Broken, catalogue: Catalogue | None, site: Path) -> Diagnostic:
    """Name the paper file and line a broken link comes from, if it is in that paper's abstract;
    otherwise the page in `site`, which a template wrote."""
    paper = _paper_of(broken.page, catalogue)
    line = paper.body_line(broken.link) if paper else 0
    if paper and line:
        return Diagnostic(paper.path, line, f"the link {broken.link} {broken.problem}",
                          "fix the link in the abstract")
    return Diagnostic(site / broken.page, 0, f"the link {broken.link} {broken.problem}",
                      "fix the template or the content that writes it")


def _paper_of(page: str, catalogue: Catalogue | None) -> Paper | None:
    slug = urls.paper_of_file(page)
    if catalogue is None or not slug:
        return None
    return catalogue.by_slug.get(slug) or catalogue.withdrawn.get(slug)


def _resolve(raw: bytes, page: str, folder: str, base_url: str, base_path: str,
             files: Container[str]) -> tuple[str, str | None, str, bool]:
    """(the link as written, the site file it leads to, its #fragment, whether it is internal)."""
    link = raw.decode("utf-8").replace("&amp;", "&")
    target = _internal(link, base_url, base_path)
    if target is None:
        return link, None, "", False
    path, fragment = target
    return link, _file(path, page, folder, base_path, files), fragment, True


def _internal(link: str, base_url: str, base_path: str) -> tuple[str, str] | None:
    """(path, fragment) of a link into the site, or None for one that leaves it."""
    if link.startswith(base_url):
        link = base_path + link[len(base_url):]
    if _PLAIN_PATH.match(link):
        return link, ""  # most links: no parsing needed
    url = urlsplit(link)
    if url.scheme or url.netloc:
        return None
    return unquote(url.path), url.fragment


def _file(path: str, page: str, folder: str, base_path: str, files: Container[str]) -> str | None:
    """The site file a link's path names (a folder means its index.html), if there is one."""
    if not path:
        return page
    if path.startswith("/"):
        if not path.startswith(base_path):
            return None
        relative = path[len(base_path):]
    else:
        relative = posixpath.normpath(posixpath.join(folder, path)) + ("/" if path.endswith("/") else "")
        relative = relative.lstrip("./") if relative.startswith("./") else relative
    folder_link = not relative or relative.endswith("/")
    index = relative.rstrip("/") + "/index.html" if relative else "index.html"
    candidates = (index,) if folder_link else (relative, index)
    return next((candidate for candidate in candidates if candidate in files), None)
