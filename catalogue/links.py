"""Every internal link and #anchor of a built site must lead somewhere; external ones are listed.

Reads the pages back by splitting on ` href="`, ` src="`, ` action="` and ` id="` rather than
with an HTML parser: the templates write every attribute in double quotes after a space, and
sanitised abstracts do too, so this sees every link at a small fraction of a parser's cost.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .report import Diagnostic

_LINK_ATTRIBUTES = (b' href="', b' src="', b' action="')


def _values(html: bytes, attribute: bytes) -> list[bytes]:
    """The values of one double-quoted attribute inside tags (bytes.split runs in C); text that
    only shows such an attribute, like `&lt;a href="…"&gt;` in an abstract, is not a link."""
    parts = html.split(attribute)
    return [part[:part.find(b'"')] for before, part in zip(parts, parts[1:])
            if before.rfind(b"<") > before.rfind(b">")]


@dataclass
class LinkReport:
    broken: list[Diagnostic] = field(default_factory=list)
    external: set[str] = field(default_factory=set)
    checked: int = 0


def check_links(site: Path, base_url: str, shown_as: Path | None = None) -> LinkReport:
    """Look at every HTML page under `site` (Pagefind's folder aside); name pages as if under
    `shown_as` (a staging folder is about to become the output folder). Pages are read one at a
    time; a page's ids are read only if some link points at one of them."""
    base_path = urlsplit(base_url).path or "/"
    files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    report = LinkReport()
    anchors: dict[str, list[tuple[str, str, str]]] = {}  # target page → (fragment, page, link)
    for page in sorted(f for f in files if f.endswith(".html") and not f.startswith("pagefind/")):
        html = (site / page).read_bytes()
        folder = page.rpartition("/")[0]
        for raw in dict.fromkeys(v for attribute in _LINK_ATTRIBUTES for v in _values(html, attribute)):
            link = raw.decode("utf-8").replace("&amp;", "&")
            target = _internal(link, base_url, base_path)
            if target is None:
                report.external.add(link)
                continue
            report.checked += 1
            path, fragment = target
            file = _file(path, page, folder, base_path, files)
            if file is None:
                report.broken.append(_broken(shown_as or site, page, link, "leads to no page"))
            elif fragment and file.endswith(".html"):
                anchors.setdefault(file, []).append((fragment, page, link))
    for file, wanted in anchors.items():
        ids = {value.decode("utf-8") for value in _values((site / file).read_bytes(), b' id="')}
        report.broken += [_broken(shown_as or site, page, link, f"leads to no #{fragment} on that page")
                          for fragment, page, link in wanted if fragment not in ids]
    return report


def _broken(root: Path, page: str, link: str, problem: str) -> Diagnostic:
    return Diagnostic(root / page, 0, f"the link {link} {problem}", "fix the template or the content that writes it")


def _internal(link: str, base_url: str, base_path: str) -> tuple[str, str] | None:
    """(path, fragment) of a link into the site, or None for one that leaves it."""
    if link.startswith(base_url):
        link = base_path + link[len(base_url):]
    url = urlsplit(link)
    if url.scheme or url.netloc:
        return None
    return unquote(url.path), url.fragment


def _file(path: str, page: str, folder: str, base_path: str, files: set[str]) -> str | None:
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
    for candidate in (relative, relative.rstrip("/") + "/index.html" if relative else "index.html"):
        if candidate in files:
            return candidate
    return None
