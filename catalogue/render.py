"""Render the catalogue through Jinja2 into pretty-URL pages, re-rendering only what changed."""

from __future__ import annotations

import os
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import jinja2.meta

from .config import SiteConfig
from .markup import Markup, excerpt, plain_text
from .model import Catalogue, Paper
from .report import ContentError, Diagnostic, Report

PAGE_SIZE = 100
THEME_GROUP_LIMIT = 12


@dataclass(frozen=True)
class Page:
    """One output page: where it goes, which template makes it, and the data it shows.

    Two pages that compare equal render to the same bytes (given the same templates and
    navigation), which is what lets a rebuild skip them.
    """

    path: str
    template: str
    title: str
    crumbs: tuple[tuple[str, str], ...] = ()
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def file(self) -> str:
        return self.path if self.path.endswith(".html") else self.path + "index.html"


@dataclass(frozen=True)
class RenderResult:
    pages: int
    written: list[str]
    removed: list[str]


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
    """Renders pages into a folder and remembers what each file was made from."""

    def __init__(self, config: SiteConfig):
        self.config = config
        self.markup = Markup()
        self.env = make_environment(config)
        self.env.globals["title_html"] = lambda item: self.markup.inline(item if isinstance(item, str) else item.title)
        self._written: dict[str, tuple] = {}
        self._shared_context: dict[str, Any] = {}
        self._template_refs: dict[str, tuple[str, frozenset[str]]] = {}

    def render(self, catalogue: Catalogue, out_dir: Path, report: Report) -> RenderResult:
        """Write the pages whose inputs changed since the last call, delete vanished ones.

        Raises ContentError (naming the template line) if a template fails; files not yet
        rewritten keep their last good content.
        """
        pages = plan_pages(catalogue, self.config)
        nav = navigation(catalogue)
        self._shared_context = {"nav": nav, "tags": catalogue.taxonomy.tags}
        versions = self._template_versions({page.template for page in pages})
        shared = (nav, catalogue.taxonomy, self.config)
        previous, current = self._written, {}
        written: list[str] = []
        try:
            for page in pages:
                key = (page, versions[page.template], shared)
                if previous.get(page.file) != key:
                    self._write(page, out_dir)
                    written.append(page.file)
                current[page.file] = key
        except ContentError:
            self._written = {**previous, **{f: current[f] for f in written}}
            raise
        removed = sorted(set(previous) - set(current))
        for file in removed:
            (out_dir / file).unlink(missing_ok=True)
            _prune_empty_dirs((out_dir / file).parent, out_dir)
        self._written = current
        sync_static(self.config.static_dir, out_dir / "static")
        self._report_failed_math(report)
        return RenderResult(len(pages), written, removed)

    def _write(self, page: Page, out_dir: Path) -> None:
        try:
            html = self.env.get_template(page.template).render(
                page=page, **self._shared_context, **page.context, **self._derived(page))
        except jinja2.TemplateSyntaxError as error:
            raise ContentError([_syntax_diagnostic(error, self.config.templates_dir)]) from error
        except Exception as error:  # a template that raises: name its line, keep serving
            raise ContentError([_runtime_diagnostic(error, page, self.config.templates_dir)]) from error
        write_if_changed(out_dir / page.file, html.encode("utf-8"))

    def _derived(self, page: Page) -> dict[str, Any]:
        """Expensive values computed only when a page is actually rendered."""
        paper = page.context.get("paper")
        if page.template != "paper.html" or paper is None:
            return {}
        return {"abstract_html": self.markup.render(paper.body), "description": excerpt(paper.body)}

    def _template_versions(self, names: set[str]) -> dict[str, tuple]:
        """For each template, the sources of it and everything it extends, includes or imports."""
        versions = {}
        for name in names:
            closure, pending = {}, [name]
            while pending:
                current = pending.pop()
                if current not in closure:
                    source, refs = self._template_source(current)
                    closure[current] = source
                    pending.extend(refs)
            versions[name] = tuple(sorted(closure.items()))
        return versions

    def _template_source(self, name: str) -> tuple[str, frozenset[str]]:
        try:
            source, filename, _ = self.env.loader.get_source(self.env, name)
            if self._template_refs.get(name, ("",))[0] != source:
                refs = jinja2.meta.find_referenced_templates(self.env.parse(source, name, filename))
                self._template_refs[name] = (source, frozenset(r for r in refs if r))
        except jinja2.TemplateSyntaxError as error:
            raise ContentError([_syntax_diagnostic(error, self.config.templates_dir)]) from error
        except jinja2.TemplateNotFound as error:
            raise ContentError([Diagnostic(self.config.templates_dir / name, 0,
                                           f"template {error.name} is missing",
                                           "restore it from git, or fix the name")]) from error
        return self._template_refs[name]

    def _report_failed_math(self, report: Report) -> None:
        for tex in sorted(set(self.markup.failed_math)):
            report.warning("content", 0, f"formula shown as TeX code: {tex}",
                           "fix the LaTeX in the paper's abstract")
        self.markup.failed_math.clear()


def navigation(catalogue: Catalogue) -> dict[str, tuple]:
    """The left navigation shown on every page: themes, venues and tags with counts."""
    taxonomy = catalogue.taxonomy
    tags = sorted(taxonomy.tags.values(), key=lambda t: t.label.casefold())
    return {
        "themes": tuple((t, len(catalogue.papers_in_theme(t.id))) for t in taxonomy.themes.values()),
        "venues": tuple((v, len(catalogue.papers_in_venue(v))) for v in catalogue.venues),
        "tags": tuple((t, len(catalogue.papers_with_tag(t.id))) for t in tags),
    }


def plan_pages(catalogue: Catalogue, config: SiteConfig) -> list[Page]:
    """Every page the catalogue makes, without rendering any."""
    taxonomy = catalogue.taxonomy
    pages = [Page("", "home.html", config.title, context={"paper_count": len(catalogue.papers)})]
    pages += _paginated("papers/", "papers.html", "All papers", (("Papers", "papers/"),),
                        catalogue.papers, {})
    pages += _paper_pages(catalogue)
    pages.append(Page("tags/", "tags.html", "Tags", (("Tags", "tags/"),)))
    for tag in taxonomy.tags.values():
        themes = tuple(t for t in taxonomy.themes.values() if tag.id in t.tags)
        pages += _paginated(f"tags/{tag.id}/", "tag.html", tag.label, (("Tags", "tags/"),),
                            catalogue.papers_with_tag(tag.id), {"tag": tag, "themes": themes})
    pages.append(Page("venues/", "venues.html", "Venues", (("Venues", "venues/"),)))
    for venue in catalogue.venues:
        in_venue = catalogue.papers_in_venue(venue)
        pages += _paginated(f"venues/{venue.slug}/", "venue.html", venue.label,
                            (("Venues", "venues/"),), in_venue, {"venue": venue})
    pages.append(Page("themes/", "themes.html", "Themes", (("Themes", "themes/"),)))
    for theme in taxonomy.themes.values():
        groups = tuple((taxonomy.tags[t], tuple(catalogue.papers_with_tag(t)[:THEME_GROUP_LIMIT]),
                        len(catalogue.papers_with_tag(t))) for t in theme.tags)
        pages.append(Page(f"themes/{theme.id}/", "theme.html", theme.title, (("Themes", "themes/"),), {
            "theme": theme, "groups": tuple(g for g in groups if g[2]),
            "count": len(catalogue.papers_in_theme(theme.id))}))
    if config.search:
        pages.append(Page("search/", "search.html", "Search", (("Search", "search/"),)))
    pages.append(Page("404.html", "404.html", "Page not found"))
    return pages


def _paper_pages(catalogue: Catalogue) -> list[Page]:
    pages = []
    taxonomy = catalogue.taxonomy
    for venue in catalogue.venues:
        in_venue = catalogue.papers_in_venue(venue)
        crumbs = (("Venues", "venues/"), (venue.label, f"venues/{venue.slug}/"))
        for index, paper in enumerate(in_venue):
            pages.append(Page(f"papers/{paper.slug}/", "paper.html", plain_text(paper.title), crumbs, {
                "paper": paper,
                "paper_tags": tuple(taxonomy.tags[t] for t in paper.tags),
                "themes": tuple(catalogue.themes_of(paper)),
                "previous": _neighbour(in_venue, index - 1),
                "next": _neighbour(in_venue, index + 1)}))
            pages += [Page(f"papers/{alias}/", "redirect.html", plain_text(paper.title),
                           context={"target": f"papers/{paper.slug}/"}) for alias in paper.aliases]
    return pages


def _neighbour(papers: list[Paper], index: int) -> tuple[str, str] | None:
    """Only what the pager shows of a neighbour, so its other edits leave this page alone."""
    if 0 <= index < len(papers):
        return (papers[index].slug, papers[index].title)
    return None


def _paginated(path: str, template: str, title: str, crumbs: tuple, papers: list[Paper],
               context: dict[str, Any]) -> list[Page]:
    """A list of papers as pages of PAGE_SIZE: `path`, `path/page/2/`, …"""
    chunks = [tuple(papers[i:i + PAGE_SIZE]) for i in range(0, len(papers), PAGE_SIZE)] or [()]
    pages = []
    for number, chunk in enumerate(chunks, start=1):
        pager = {"number": number, "count": len(chunks), "first": path,
                 "total": len(papers), "start": (number - 1) * PAGE_SIZE + 1}
        page_path = path if number == 1 else f"{path}page/{number}/"
        page_title = title if number == 1 else f"{title} (page {number})"
        pages.append(Page(page_path, template, page_title, crumbs,
                          {**context, "papers": chunk, "pager": pager}))
    return pages


def write_if_changed(target: Path, data: bytes) -> bool:
    """Replace a file atomically, and only if its bytes differ."""
    try:
        if target.read_bytes() == data:
            return False
    except OSError:
        target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, target)
    return True


def sync_static(source: Path, target: Path) -> list[str]:
    """Copy changed static files and delete removed ones; return what changed."""
    changed = []
    wanted = {p.relative_to(source) for p in source.rglob("*") if p.is_file()}
    for relative in sorted(wanted):
        if write_if_changed(target / relative, (source / relative).read_bytes()):
            changed.append(str(relative))
    if target.is_dir():
        for stale in [p for p in target.rglob("*") if p.is_file() and p.relative_to(target) not in wanted]:
            stale.unlink()
            changed.append(str(stale.relative_to(target)))
    return changed


def _prune_empty_dirs(folder: Path, root: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _syntax_diagnostic(error: jinja2.TemplateSyntaxError, templates_dir: Path) -> Diagnostic:
    path = error.filename or templates_dir / (error.name or "?")
    return Diagnostic(path, error.lineno or 0, f"template syntax error: {error.message}",
                      "fix the Jinja syntax on this line")


def _runtime_diagnostic(error: Exception, page: Page, templates_dir: Path) -> Diagnostic:
    """Name the template line that raised, found in the traceback Jinja rewrites."""
    frames = traceback.extract_tb(sys.exc_info()[2])
    inside = [f for f in frames if f.filename.startswith(str(templates_dir))]
    where = inside[-1] if inside else None
    return Diagnostic(where.filename if where else templates_dir / page.template,
                      where.lineno if where else 0,
                      f"template failed on /{page.path}: {type(error).__name__}: {error}",
                      "fix the template, or the data it expects")
