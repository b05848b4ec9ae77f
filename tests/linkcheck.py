"""Find every internal link in a built site that points at nothing."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        for name in ("href", "src", "action"):
            if values.get(name) and not (tag == "link" and values.get("rel") == "canonical"):
                self.links.append(values[name])


def parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def broken_links(site: Path, base_path: str = "/") -> list[str]:
    """`page → link` for each internal link whose target file or #fragment is missing."""
    pages = {p: parse(p) for p in site.rglob("*.html") if "pagefind" not in p.parts}
    broken = []
    for page, parsed in pages.items():
        for link in parsed.links:
            target = _resolve(site, page, link, base_path)
            if target is None:
                continue
            file, fragment = target
            if not file.is_file():
                broken.append(f"{page.relative_to(site)} → {link}")
            elif fragment and fragment not in (pages.get(file) or parse(file)).ids:
                broken.append(f"{page.relative_to(site)} → {link} (no #{fragment})")
    return broken


def _resolve(site: Path, page: Path, link: str, base_path: str) -> tuple[Path, str] | None:
    url = urlparse(link)
    if url.scheme or url.netloc:
        return None  # external
    path = unquote(url.path)
    if not path:
        return page, url.fragment
    if path.startswith("/"):
        assert path.startswith(base_path), f"{page}: {link} is outside {base_path}"
        file = site / path[len(base_path):]
    else:
        file = page.parent / path
    if path.endswith("/") or file.is_dir():
        file = file / "index.html"
    return file, url.fragment
