"""Render the catalogue through Jinja2 templates into a folder of pretty-URL pages."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from .config import SiteConfig
from .markup import Markup, excerpt
from .model import Catalogue, Paper, Tag, Theme, Venue
from .report import Report


@dataclass(frozen=True)
class Page:
    """One output page: where it goes, which template makes it, and what it shows."""

    path: str
    template: str
    title: str
    crumbs: tuple[tuple[str, str], ...] = ()
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def file(self) -> str:
        return self.path if self.path.endswith(".html") else self.path + "index.html"


def make_environment(config: SiteConfig) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(config.templates_dir),
        autoescape=jinja2.select_autoescape(["html", "xml"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    base = config.base_path
    env.globals.update(
        site=config,
        url=lambda path="": base + path.lstrip("/"),
        paper_url=lambda paper: f"{base}papers/{paper.slug}/",
        tag_url=lambda tag: f"{base}tags/{getattr(tag, 'id', tag)}/",
        venue_url=lambda venue: f"{base}venues/{venue.slug}/",
        theme_url=lambda theme: f"{base}themes/{getattr(theme, 'id', theme)}/")
    return env


class SiteRenderer:
    """Knows which pages the catalogue makes and renders them."""

    def __init__(self, catalogue: Catalogue, config: SiteConfig, report: Report):
        self.catalogue, self.config, self.report = catalogue, config, report
        self.markup = Markup()
        self.env = make_environment(config)
        self.env.globals.update(nav=self._navigation(), title_html=self._title_html,
                                tags=catalogue.taxonomy.tags)

    def render_all(self, out_dir: Path) -> int:
        """Write every page and the static files into `out_dir`; return the page count."""
        pages = self.pages()
        for page in pages:
            self.write(page, out_dir)
        shutil.copytree(self.config.static_dir, out_dir / "static", dirs_exist_ok=True)
        for tex in sorted(set(self.markup.failed_math)):
            self.report.warning("content", 0, f"formula shown as TeX code: {tex}",
                                "fix the LaTeX in the paper's abstract")
        return len(pages)

    def write(self, page: Page, out_dir: Path) -> None:
        template = self.env.get_template(page.template)
        html = template.render(page=page, **page.context)
        target = out_dir / page.file
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")

    def pages(self) -> list[Page]:
        return [self._home(), self._all_papers(), *self._paper_pages(),
                self._tag_index(), *self._tag_pages(), self._venue_index(), *self._venue_pages(),
                self._theme_index(), *self._theme_pages(), *self._search(), self._not_found()]

    def _navigation(self) -> dict[str, list[tuple[Any, int]]]:
        cat = self.catalogue
        tags = sorted(cat.taxonomy.tags.values(), key=lambda t: t.label.casefold())
        return {
            "themes": [(t, len(cat.papers_in_theme(t.id))) for t in cat.taxonomy.themes.values()],
            "venues": [(v, len(cat.papers_in_venue(v))) for v in cat.venues],
            "tags": [(t, len(cat.papers_with_tag(t.id))) for t in tags],
        }

    def _title_html(self, paper: Paper) -> str:
        return self.markup.inline(paper.title)

    def _home(self) -> Page:
        return Page("", "home.html", self.config.title, context={"catalogue": self.catalogue})

    def _all_papers(self) -> Page:
        groups = [(v, self.catalogue.papers_in_venue(v)) for v in self.catalogue.venues]
        return Page("papers/", "papers.html", "All papers", (("Papers", "papers/"),),
                    {"groups": groups, "count": len(self.catalogue.papers)})

    def _paper_pages(self) -> list[Page]:
        pages = []
        for venue in self.catalogue.venues:
            in_venue = self.catalogue.papers_in_venue(venue)
            for index, paper in enumerate(in_venue):
                neighbours = {"previous": in_venue[index - 1] if index else None,
                              "next": in_venue[index + 1] if index + 1 < len(in_venue) else None}
                pages.append(self._paper_page(paper, **neighbours))
        return pages

    def _paper_page(self, paper: Paper, previous: Paper | None, next: Paper | None) -> Page:
        crumbs = (("Venues", "venues/"), (paper.venue.label, f"venues/{paper.venue.slug}/"))
        return Page(f"papers/{paper.slug}/", "paper.html", paper.title, crumbs, {
            "paper": paper,
            "abstract_html": self.markup.render(paper.body),
            "description": excerpt(paper.body),
            "paper_tags": [self.catalogue.taxonomy.tags[t] for t in paper.tags],
            "themes": self.catalogue.themes_of(paper),
            "previous": previous, "next": next})

    def _tag_index(self) -> Page:
        return Page("tags/", "tags.html", "Tags", (("Tags", "tags/"),))

    def _tag_pages(self) -> list[Page]:
        return [self._tag_page(tag) for tag in self.catalogue.taxonomy.tags.values()]

    def _tag_page(self, tag: Tag) -> Page:
        themes = [t for t in self.catalogue.taxonomy.themes.values() if tag.id in t.tags]
        return Page(f"tags/{tag.id}/", "tag.html", tag.label, (("Tags", "tags/"),), {
            "tag": tag, "papers": self.catalogue.papers_with_tag(tag.id), "themes": themes})

    def _venue_index(self) -> Page:
        return Page("venues/", "venues.html", "Venues", (("Venues", "venues/"),))

    def _venue_pages(self) -> list[Page]:
        return [self._venue_page(v) for v in self.catalogue.venues]

    def _venue_page(self, venue: Venue) -> Page:
        papers = sorted(self.catalogue.papers_in_venue(venue), key=lambda p: p.sort_key)
        return Page(f"venues/{venue.slug}/", "venue.html", venue.label, (("Venues", "venues/"),),
                    {"venue": venue, "papers": papers})

    def _theme_index(self) -> Page:
        return Page("themes/", "themes.html", "Themes", (("Themes", "themes/"),))

    def _theme_pages(self) -> list[Page]:
        return [self._theme_page(t) for t in self.catalogue.taxonomy.themes.values()]

    def _theme_page(self, theme: Theme) -> Page:
        groups = [(self.catalogue.taxonomy.tags[t], self.catalogue.papers_with_tag(t))
                  for t in theme.tags]
        return Page(f"themes/{theme.id}/", "theme.html", theme.title, (("Themes", "themes/"),), {
            "theme": theme, "groups": [g for g in groups if g[1]],
            "count": len(self.catalogue.papers_in_theme(theme.id))})

    def _search(self) -> list[Page]:
        return [Page("search/", "search.html", "Search", (("Search", "search/"),))] if self.config.search else []

    def _not_found(self) -> Page:
        return Page("404.html", "404.html", "Page not found")
