"""Every internal link and #anchor of a built site must lead somewhere; external ones are listed.

A page's links and ids are read once, from its bytes as they are written (`LinkReader`), and
kept with the file in the build state, so the check reads nothing back from the site. They are
found by splitting on ` href="`, ` src="`, ` action="` and ` id="` rather than with an HTML
parser: the templates write every attribute in double quotes after a space, and sanitised
abstracts do too, so this sees every link at a small fraction of a parser's cost.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Protocol
from urllib.parse import unquote, urlsplit

from ..content.model import Paper
from ..content.prose import Written
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
    checked: int = 0


class LinkReader:
    """Reads a page's links and ids from its bytes as it is written; each link value is held
    once however many pages have it (the navigation's, on all)."""

    def __init__(self) -> None:
        self._shared: dict[bytes, bytes] = {}

    def links(self, html: bytes) -> tuple[bytes, ...]:
        shared = self._shared
        values = dict.fromkeys(v for attribute in _LINK_ATTRIBUTES for v in _values(html, attribute))
        return tuple(shared.setdefault(value, value) for value in values)

    @staticmethod
    def ids(html: bytes) -> frozenset[str]:
        return frozenset(value.decode("utf-8") for value in _values(html, b' id="'))


class Linked(Protocol):
    """What the check needs of a page: its links and its ids (an `OutputRecord`)."""

    links: tuple[bytes, ...]
    ids: frozenset[str]


class _Read(NamedTuple):
    links: tuple[bytes, ...]
    ids: frozenset[str]


def read_site(site: Path) -> tuple[dict[str, _Read], set[str]]:
    """The links and ids of every HTML page under `site` (Pagefind's folder aside), read from
    disk, and every file there: for checking a site no build of this process wrote."""
    files, reader = set(all_files(site)), LinkReader()
    pages = {}
    for file in files:
        if file.endswith(".html") and not file.startswith("pagefind/"):
            html = (site / file).read_bytes()
            pages[file] = _Read(reader.links(html), reader.ids(html))
    return pages, files


class _OrLeftOut:
    """The site's files, and those this build leaves out on purpose (watch previews)."""

    def __init__(self, files: Container[str], left_out: Callable[[str], bool]):
        self.files, self.left_out = files, left_out

    def __contains__(self, file: object) -> bool:
        return file in self.files or self.left_out(str(file))


def check_links(pages: Mapping[str, Linked], files: Container[str], base_url: str,
                only: Iterable[str] | None = None, left_out: Callable[[str], bool] | None = None,
                drafts: Container[str] = frozenset(), unwritten: Container[str] = frozenset()) -> LinkReport:
    """Check the links of every HTML page in `pages` (file → its links and ids), or only of
    those in `only`, against the site's `files`; a link may lead to a file `left_out` names,
    unwritten, and only a draft's own page may lead to a file in `drafts` (a preview shows
    drafts, a published build does not). A page's ids are looked at only if some link points at
    one of them, and not while it is `unwritten` (watch mode's pages written first)."""
    checker = _Checker(pages, base_url, _OrLeftOut(files, left_out) if left_out else files, drafts, unwritten)
    for page in sorted(p for p in (pages if only is None else only) if p.endswith(".html") and p in pages):
        checker.check(page)
    checker.check_anchors()
    return checker.report


def external_links(pages: Mapping[str, Linked], base_url: str) -> list[str]:
    """Every address outside the site that `pages` link to, sorted (listed, never fetched)."""
    base_path = urlsplit(base_url).path or "/"
    links = (raw.decode("utf-8").replace("&amp;", "&") for raw in {raw for page in pages.values() for raw in page.links})
    return sorted(link for link in links if _internal(link, base_url, base_path) is None)


def check_folder(site: Path, base_url: str, left_out: Callable[[str], bool] | None = None) -> LinkReport:
    """`check_links` of a site as it is on disk."""
    pages, files = read_site(site)
    return check_links(pages, files, base_url, left_out=left_out)


class _Checker:
    """One run of the link check: the links seen so far, and the anchors still to look up."""

    def __init__(self, pages: Mapping[str, Linked], base_url: str, files: Container[str], drafts: Container[str],
                 unwritten: Container[str]):
        self.pages, self.base_url, self.files, self.drafts, self.unwritten = pages, base_url, files, drafts, unwritten
        self.base_path = urlsplit(base_url).path or "/"
        self.report = LinkReport()
        self.anchors: dict[str, list[tuple[str, str, str]]] = {}  # target page → (fragment, page, link)
        self.absolute: dict[bytes, tuple[str, str | None, str, bool]] = {}  # the same from every page

    def check(self, page: str) -> None:
        folder = page.rpartition("/")[0]
        for raw in self.pages[page].links:
            link, file, fragment, internal = self._resolved(raw, page, folder)
            if not internal:
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
            target = self.pages.get(file)
            if target is None and file in self.unwritten:
                continue  # its ids are not known yet
            ids = target.ids if target is not None else frozenset()
            self.report.broken += [Broken(page, link, f"leads to no #{fragment} on that page")
                                   for fragment, page, link in wanted if fragment not in ids]


def all_files(site: Path) -> Iterable[str]:
    """Every file under `site`, relative to it; a folder removed meanwhile is skipped."""
    for folder, _, names in os.walk(site):
        relative = Path(folder).relative_to(site).as_posix()
        yield from (name if relative == "." else f"{relative}/{name}" for name in names)


def written_by_curators(broken: list[Broken], paper_of: Callable[[str], Paper | None]) -> list[Broken]:
    """Links into drafts count where a curator wrote them, in a published paper's abstract; a
    preview's lists, maps and related papers show drafts on purpose, and a published build has
    none of those links. A link broken in an abstract counts once, on its paper's page, though
    the lists that show the abstract have it too. `paper_of` gives the paper a page is the page of."""
    def counts(each: Broken) -> bool:
        paper = paper_of(each.page) if each.problem == TO_A_DRAFT else None
        return each.problem != TO_A_DRAFT or (paper is not None and each.link in f"{paper.body}\n{paper.notes}")
    in_abstracts = {each.link for each in broken if (paper := paper_of(each.page)) and each.link in paper.body}
    return [each for each in broken if counts(each) and (each.link not in in_abstracts or paper_of(each.page))]


def explain(broken: Broken, paper_of: Callable[[str], Paper | None], site: Path) -> Diagnostic:
    """Name the paper file and line a broken link comes from, if it is in the abstract (or the
    notes) of the paper the page is of; otherwise the page in `site`, which a template wrote."""
    paper = paper_of(broken.page)
    if paper:
        notes = Written(paper.notes, paper.path, paper.notes_start)
        for line, where in ((paper.body_line(broken.link), "abstract"), (notes.line_of(broken.link), "notes")):
            if line:
                return Diagnostic(paper.path, line, f"the link {broken.link} {broken.problem}",
                                  f"fix the link in the {where}")
    return Diagnostic(site / broken.page, 0, f"the link {broken.link} {broken.problem}",
                      "fix the template or the content that writes it")


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
