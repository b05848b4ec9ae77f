"""Render the catalogue through Jinja2 into pretty-URL pages, re-rendering only what changed."""

from __future__ import annotations

import hashlib
import json
import operator
import os
import pickle
import shutil
import signal
import sys
import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import jinja2
import jinja2.meta
import markupsafe

from ..config import SiteConfig
from .cite import bibtex, bibtex_file, conference
from .markup import Markup, excerpt, plain_text
from .social import VERSION as SOCIAL_VERSION
from .social import social_image
from collections import Counter

from ..content.model import Catalogue, Listing, Paper, Taxonomy, Theme, Venue, author_slug
from ..ledger import dropped, read_ledger
from ..content.loader import REDIRECTS_FILE, Redirect, body_line
from ..report import ContentError, Diagnostic, Report
from ..relate.similarity import NOTHING, Similarity
from ..files import refuse_conflict

NAV_TEMPLATE = "_nav.html"
ITEM_TEMPLATE = "_paper_item.html"
DOT_TEMPLATE = "_map_dot.html"
FRAGMENTS = (NAV_TEMPLATE, ITEM_TEMPLATE, DOT_TEMPLATE)  # rendered from Python, so no template names them
# Venue labels, not Venue objects: a string's hash is cached, a dataclass's is computed each time.
_VENUE_LABEL, _LISTING = operator.attrgetter("venue.label"), operator.attrgetter("listing")
SOCIAL_IMAGE = "social.png"  # drawn with Pillow, not a template
MOVED = "moved"  # the group of redirect pages for content/redirects.txt
FEED_LIMIT = 200
AUTHORS_PER_PAGE = 500
PAGE_SIZE = 100
FORK_MIN_PAGES = 2000  # below this a second process costs more than it saves
THEME_GROUP_LIMIT = 12
EXPLORE_PAGES = ("papers/", "map/", "authors/", "reading-list/")  # linked at the top of the navigation
MAP_SIZE, HOME_MAP_SIZE = (1000, 620), (600, 300)  # SVG view boxes
HOME_MAP_POINTS = 400  # the home page's small map shows a sample: it must stay light at 50,000 papers


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
    draft: bool = False  # made for a draft paper: never published, so never in the ledger

    @property
    def file(self) -> str:
        return _file_of(self.path)


@dataclass(frozen=True)
class RenderResult:
    pages: int
    written: list[str]
    removed: list[str]
    published: set[str] = field(default_factory=set)  # the URLs the published-URL ledger keeps
    files: int = 0  # pages, feeds, citations, images
    drafts: frozenset[str] = frozenset()  # files made only for draft papers: no published page may link there


class _GroupFiles(NamedTuple):
    """What the plan check needs of a group: its files, published paths and draft files."""

    pages: tuple[Page, ...]
    files: frozenset[str]
    published: frozenset[str]
    drafts: frozenset[str]
    html: int

    @classmethod
    def of(cls, pages: tuple[Page, ...]) -> _GroupFiles:
        files = frozenset(page.file for page in pages)
        return cls(pages, files, frozenset("/" + page.path for page in pages if _is_published(page.path) and not page.draft),
                   frozenset(page.file for page in pages if page.draft), sum(f.endswith(".html") for f in files))


def _file_of(path: str) -> str:
    """The file a site path names: a folder's index.html."""
    return path + "index.html" if path.endswith("/") or not path else path


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
        self.env.globals.update(
            title_html=lambda item: self.markup.inline(item if isinstance(item, str) else item.title),
            plain=plain_text, excerpt=excerpt, bibtex=bibtex, bibtex_file=bibtex_file,
            conference=conference, author_slug=author_slug,
            asset=lambda name: config.base_path + self._assets.get(name, f"static/{name}"))
        self._assets: dict[str, str] = {}
        self._ledger_cache: tuple[tuple, dict[str, int]] = ((None,), {})
        self.planner = Planner(config)
        self._written: dict[str, tuple] = {}
        self._groups: dict[str, tuple[tuple[Page, ...], tuple]] = {}
        self._pending_groups: dict[str, tuple[tuple[Page, ...], tuple]] = {}
        self._group_files: dict[str, _GroupFiles] = {}
        self.drafts: frozenset[str] = frozenset()  # the last plan's files made only for drafts
        self._shared_context: dict[str, Any] = {}
        self._shared: tuple = ()
        self._template_refs: dict[str, tuple[str, frozenset[str]]] = {}

    def render(self, catalogue: Catalogue, out_dir: Path, report: Report,
               similarity: Similarity = NOTHING) -> RenderResult:
        """Write the pages whose inputs changed since the last call, delete vanished ones.

        Raises ContentError (naming the template line) if a template fails. A rebuild renders
        everything it needs before it writes anything, so a failed one leaves `out_dir` as it
        was; a first build (into an empty folder) writes as it goes, to keep memory flat.
        """
        self._pending_groups = {}
        groups = self.planner.plan(catalogue, similarity)
        planned, published, self.drafts = self._check_plan(groups, catalogue.redirects)
        nav = navigation(catalogue)
        templates = {page.template for _, pages in groups for page in pages} | set(FRAGMENTS)
        versions = self._template_versions(templates)
        assets = fingerprint_assets(self.config.static_dir)
        self._assets = {name: path for name, (path, _) in assets.items()}
        shared = (nav, catalogue.taxonomy, self.config, tuple(versions[f] for f in FRAGMENTS),
                  tuple(sorted(self._assets.items())))
        if shared != self._shared:
            self._shared_context = {"nav": nav, "tags": catalogue.taxonomy.tags,
                                    "nav_html": self._fragment_cache(NAV_TEMPLATE, nav=nav),
                                    "paper_item": self._fragment_cache(ITEM_TEMPLATE,
                                                                       tags=catalogue.taxonomy.tags),
                                    "map_dots": self._fragment_cache(DOT_TEMPLATE)}
            self._shared = shared
        streaming = not self._written
        writes: list[tuple[str, bytes | None, tuple]] = []
        if streaming and _can_fork(groups):
            writes = self._render_in_two_processes(groups, shared, versions, out_dir)
        else:
            for group_id, pages in groups:
                writes += self._render_group(group_id, pages, shared, versions, out_dir if streaming else None)
        for file, data, key in writes:
            if not streaming:
                write_if_changed(out_dir / file, data)
            self._written[file] = key
        removed = self._remove_vanished(groups, planned, out_dir)
        write_assets(assets, out_dir / ASSETS_DIR)
        sync_static(self.config.static_dir, out_dir / "static")
        self._report_failed_math(catalogue, report)
        return RenderResult(self._html_pages, [f for f, _, _ in writes],
                            removed, published, len(planned), self.drafts)

    def _render_group(self, group_id: str, pages: tuple[Page, ...], shared: tuple, versions: dict[str, tuple],
                      out_dir: Path | None, render: bool = True) -> list[tuple[str, bytes | None, tuple]]:
        """Render the pages of a group that changed. Given `out_dir`, write them at once and keep
        no bytes; without `render`, only remember them as written (another process did it)."""
        previous = self._groups.get(group_id)
        group_key = (shared, tuple(versions[name] for name in sorted({p.template for p in pages})))
        if previous and previous[0] is pages and previous[1] == group_key:
            return []
        writes = []
        for page in pages:
            key = (page, versions[page.template], shared)
            if self._written.get(page.file) != key:
                data = self._render(page) if render else None
                if out_dir:
                    if data is not None:
                        write_if_changed(out_dir / page.file, data)
                    self._written[page.file] = key
                    data = None
                writes.append((page.file, data, key))
        self._pending_groups[group_id] = (pages, group_key)
        return writes

    def _render_in_two_processes(self, groups: list[tuple[str, tuple[Page, ...]]], shared: tuple,
                                 versions: dict[str, tuple], out_dir: Path) -> list[tuple[str, None, tuple]]:
        """A first build on two cores: a forked child renders and writes half of the groups
        (balanced by page count) while this process does the other half. The child sends back
        its formulas that failed, or the error that stopped it."""
        halves: tuple[list, list] = ([], [])
        for group in sorted(groups, key=lambda g: -len(g[1])):
            min(halves, key=lambda half: sum(len(pages) for _, pages in half)).append(group)
        reader, writer = os.pipe()
        child = os.fork()
        if child == 0:  # the child: render its half, report, and leave without cleaning up the parent's state
            os.close(reader)
            outcome: tuple = ("done", [])
            try:
                for group_id, pages in halves[1]:
                    self._render_group(group_id, pages, shared, versions, out_dir)
                outcome = ("done", self.markup.failed_math)
            except BaseException as error:  # noqa: BLE001 — everything must reach the parent
                outcome = ("failed", error if isinstance(error, ContentError) else RuntimeError(repr(error)))
            finally:
                try:
                    with os.fdopen(writer, "wb") as pipe:
                        pickle.dump(outcome, pipe)
                finally:
                    os._exit(0)  # whatever happens, the child never goes on with the parent's work
        os.close(writer)
        try:
            writes = [w for group_id, pages in halves[0]
                      for w in self._render_group(group_id, pages, shared, versions, out_dir)]
        except BaseException:
            os.kill(child, signal.SIGTERM)
            raise
        finally:
            with os.fdopen(reader, "rb") as pipe:
                data = pipe.read()
            os.waitpid(child, 0)
        status, detail = pickle.loads(data) if data else ("failed", RuntimeError("the second renderer died"))
        if status == "failed":
            raise detail
        self.markup.failed_math += detail
        return writes + [w for group_id, pages in halves[1]
                         for w in self._render_group(group_id, pages, shared, versions, out_dir, render=False)]

    def _remove_vanished(self, groups: list, planned: set[str], out_dir: Path) -> list[str]:
        """Forget groups that are gone, and delete every file no page of this build makes."""
        self._groups = {**{g: self._groups[g] for g, _ in groups if g in self._groups},
                        **self._pending_groups}
        self._pending_groups = {}
        removed = sorted(set(self._written) - planned)
        for file in removed:
            del self._written[file]
            (out_dir / file).unlink(missing_ok=True)
            _prune_empty_dirs((out_dir / file).parent, out_dir)
        return removed

    def _check_plan(self, groups: list[tuple[str, tuple[Page, ...]]],
                    redirects: tuple[Redirect, ...]) -> tuple[set[str], set[str], frozenset[str]]:
        """No two pages may share a file, every redirect must lead to a page, and no published
        URL may vanish (the ledger): an address is kept by a page, or by content/redirects.txt.
        Returns the planned files, the published paths and the files made only for drafts.

        Each group's files are remembered with its pages, so a rebuild only unites sets."""
        summaries = []
        for group_id, pages in groups:
            cached = self._group_files.get(group_id)
            if cached is None or cached.pages is not pages:
                cached = _GroupFiles.of(pages)
                self._group_files[group_id] = cached
            summaries.append(cached)
        self._group_files = {g: self._group_files[g] for g, _ in groups}
        planned = set().union(*(summary.files for summary in summaries))
        published = set().union(*(summary.published for summary in summaries), ("/" + r.old for r in redirects))
        drafts = frozenset().union(*(summary.drafts for summary in summaries))
        self._html_pages = sum(summary.html for summary in summaries)
        pages_only = set().union(*(summary.files for (group_id, _), summary in zip(groups, summaries) if group_id != MOVED))
        problems = self._redirect_problems(redirects, pages_only, planned)
        if len(planned) != sum(len(summary.pages) for summary in summaries):
            explained = {_file_of(r.old) for r in redirects} & pages_only  # said above, at the redirect's line
            seen: set[str] = set()
            for _, pages in groups:
                for page in pages:
                    if page.file in seen and page.file not in explained:
                        problems.append(Diagnostic("content", 0, f"two pages would both be /{page.path}",
                                                   "check content/redirects.txt and the papers' aliases"))
                    seen.add(page.file)
        if self.config.ledger:
            draft_paths = frozenset("/" + page.path for summary in summaries if summary.drafts
                                    for page in summary.pages if page.draft)
            problems += dropped(self._ledger(), published, self.config.ledger, self.config.leaves_out, draft_paths)
        if problems:
            raise ContentError(problems)
        return planned, published, drafts

    def _redirect_problems(self, redirects: tuple[Redirect, ...], pages: set[str], planned: set[str]) -> list[Diagnostic]:
        """A redirect keeps an address no page has (`pages`: every file but the redirects'), and
        leads to one that is there."""
        path = self.config.content_dir / REDIRECTS_FILE
        problems = []
        for redirect in redirects:
            if _file_of(redirect.old) in pages:
                problems.append(Diagnostic(path, redirect.line, f"/{redirect.old} is a page of the site",
                                           "a redirect keeps an address no page has: delete this line"))
            target = _file_of(redirect.new)
            if target not in planned and not self.config.leaves_out(target):
                problems.append(Diagnostic(path, redirect.line, f"the redirect leads to /{redirect.new}, which is no page",
                                           "point it at a page of the site"))
        return problems

    def _render(self, page: Page) -> bytes:
        if page.template == SOCIAL_IMAGE:
            context = page.context
            return social_image(context["title"], context["venue"], list(context["tags"]), self.config.title,
                                self.config.cache_dir / "social" if self.config.cache_dir else None)
        try:
            html = self.env.get_template(page.template).render(
                page=page, **self._shared_context, **page.context, **self._derived(page))
        except jinja2.TemplateSyntaxError as error:
            raise ContentError([_syntax_diagnostic(error, self.config.templates_dir)]) from error
        except Exception as error:  # a template that raises: name its line, keep serving
            raise ContentError([_runtime_diagnostic(error, page, self.config.templates_dir)]) from error
        return html.encode("utf-8")

    def _fragment_cache(self, name: str, **context: Any):
        """A fragment rendered once per distinct argument: the navigation for each current page,
        a list item for each paper (lists of 100 papers then cost a string join)."""
        template = self.env.get_template(name)
        rendered: dict[tuple, markupsafe.Markup] = {}
        if name == NAV_TEMPLATE:
            nav = context["nav"]
            targets = {f"themes/{t.id}/" for t in nav["themes"]} | {f"tags/{t.id}/" for t in nav["tags"]} \
                | {f"venues/{v.slug}/" for v in nav["venues"]} | set(EXPLORE_PAGES)

            def nav_html(current: str) -> markupsafe.Markup:
                current = current if current in targets else ""
                if (current,) not in rendered:
                    rendered[(current,)] = markupsafe.Markup(template.render(current=current, **context))
                return rendered[(current,)]
            return nav_html

        if name == DOT_TEMPLATE:
            def dots_html(points: tuple[MapPoint, ...], radius: float) -> markupsafe.Markup:
                """A map's linked dots, each rendered once: a retitled paper costs one dot. Only
                the last map's dots are kept (a new computation moves them all)."""
                last = dict(rendered)
                rendered.clear()
                for point in points:
                    key = (point, radius)
                    rendered[key] = last.get(key) or template.render(point=point, radius=radius)
                return markupsafe.Markup("".join(rendered.values()))
            return dots_html

        def item_html(paper: Listing, show_venue: bool) -> markupsafe.Markup:
            if (paper, show_venue) not in rendered:
                rendered[(paper, show_venue)] = markupsafe.Markup(
                    template.render(paper=paper, show_venue=show_venue, **context))
            return rendered[(paper, show_venue)]
        return item_html

    def _derived(self, page: Page) -> dict[str, Any]:
        """Expensive values computed only when a page is actually rendered."""
        paper = page.context.get("paper")
        if page.template != "paper.html" or paper is None:
            return {}
        return {"abstract_html": self.markup.render(paper.body), "description": excerpt(paper.body),
                "json_ld": self._json_ld(page)}

    def _json_ld(self, page: Page) -> markupsafe.Markup:
        """schema.org ScholarlyArticle, for search engines and citation tools."""
        paper, absolute = page.context["paper"], self.config.absolute
        data = {
            "@context": "https://schema.org", "@type": "ScholarlyArticle",
            "headline": page.title, "name": page.title, "url": absolute(page.path),
            "author": [{"@type": "Person", "name": name} for name in paper.authors],
            "datePublished": str(paper.venue.year), "abstract": plain_text(paper.body),
            "keywords": [tag.label for tag in page.context["paper_tags"]],
            "isPartOf": {"@type": "PublicationEvent", "name": conference(paper.venue)},
        }
        if paper.arxiv or paper.url:
            data["sameAs"] = [link for link in (paper.arxiv_url, paper.url) if link]
        if page.context["image"]:
            data["image"] = absolute(page.context["image"])
        text = json.dumps(data, ensure_ascii=False, sort_keys=True)
        return markupsafe.Markup(text.replace("<", "\\u003c"))  # no `</script>` can close it

    def _template_versions(self, names: set[str]) -> dict[str, tuple]:
        """For each template, the sources of it and everything it extends, includes or imports."""
        versions = {SOCIAL_IMAGE: ("social", SOCIAL_VERSION)}
        for name in names - {SOCIAL_IMAGE}:
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
                refuse_conflict(Path(filename or self.config.templates_dir / name), source)
                refs = jinja2.meta.find_referenced_templates(self.env.parse(source, name, filename))
                self._template_refs[name] = (source, frozenset(r for r in refs if r))
        except jinja2.TemplateSyntaxError as error:
            raise ContentError([_syntax_diagnostic(error, self.config.templates_dir)]) from error
        except jinja2.TemplateNotFound as error:
            raise ContentError([Diagnostic(self.config.templates_dir / name, 0,
                                           f"template {error.name} is missing",
                                           "restore it from git, or fix the name")]) from error
        return self._template_refs[name]

    def _ledger(self) -> dict[str, int]:
        """The ledger, read again only when the file changed."""
        try:
            stat = self.config.ledger.stat()
            signature = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            signature = ()
        if self._ledger_cache[0] != signature:
            self._ledger_cache = (signature, read_ledger(self.config.ledger))
        return self._ledger_cache[1]

    def _report_failed_math(self, catalogue: Catalogue, report: Report) -> None:
        """Warn at each file and line that holds a formula latex2mathml could not convert."""
        for tex in sorted(set(self.markup.failed_math)):
            places = [(p.path, p.line_of("title")) for p in catalogue.papers if tex in p.title]
            places += [(p.path, body_line(p.path, tex)) for p in catalogue.papers if tex in p.body]
            for path, line in places or [(self.config.content_dir, 0)]:
                report.warning(path, line, f"formula shown as TeX code: {tex}", "fix the LaTeX")
        self.markup.failed_math.clear()


def navigation(catalogue: Catalogue) -> dict[str, tuple]:
    """The left navigation shown on every page: themes, venues and tags (counts are in counts.css)."""
    return {kind: tuple(item for item, _ in items) for kind, items in counts(catalogue).items()}


def counts(catalogue: Catalogue) -> dict[str, tuple]:
    """Themes, venues and tags, each with its number of papers."""
    taxonomy = catalogue.taxonomy
    tags = sorted(taxonomy.tags.values(), key=lambda t: t.label.casefold())
    return {
        "themes": tuple((t, len(catalogue.papers_in_theme(t.id))) for t in taxonomy.themes.values()),
        "venues": tuple((v, len(catalogue.papers_in_venue(v))) for v in catalogue.venues),
        "tags": tuple((t, len(catalogue.papers_with_tag(t.id))) for t in tags),
    }


class Planner:
    """Decides which pages the catalogue makes, in groups; a group whose inputs are the same
    objects as last time is handed back unchanged, which is what keeps rebuilds cheap."""

    def __init__(self, config: SiteConfig):
        self.config = config
        self._memo: dict[str, tuple[tuple, tuple[Page, ...]]] = {}
        self._paper_memo: dict[str, tuple[tuple, tuple[Page, ...]]] = {}
        self._author_memo: dict[str, tuple[list, Page]] = {}
        self._related = RelatedViews()
        self._listings: tuple[Catalogue | None, tuple[Listing, ...]] = (None, ())
        self._main_theme: MainTheme | None = None
        self._geometry: tuple[tuple, dict[str, MapPoint]] = ((), {})

    def plan(self, catalogue: Catalogue, similarity: Similarity = NOTHING) -> list[tuple[str, tuple[Page, ...]]]:
        taxonomy = catalogue.taxonomy
        tally = counts(catalogue)
        listings = self._all_listings(catalogue)
        related = self._related.update(catalogue, similarity)
        main_theme = self._main_theme_for(taxonomy)
        groups = [
            self._group("home", (len(catalogue.papers), tally, similarity, taxonomy), lambda: (
                Page("", "home.html", self.config.title,
                     context={"paper_count": len(catalogue.papers), "counts": tally,
                              "map": _home_map(similarity, main_theme)}),)),
            self._group("map/", (listings, similarity, taxonomy), lambda: (
                Page("map/", "map.html", "Topic map", (("Topic map", "map/"),),
                     {"map": _topic_map(listings, self._map_geometry(similarity, main_theme), main_theme)}),)),
            self._group("counts", (tally,), lambda: (
                Page("counts.css", "counts.css", "Counts", context={"counts": tally}),)),
            self._group("papers", (catalogue.papers,), lambda: _paginated(
                "papers/", "papers.html", "All papers", (("Papers", "papers/"),), catalogue.papers, {})),
            self._index("tags/", "tags.html", "Tags", tally),
            self._group("venues/", (tally, *(catalogue.papers_in_theme(t) for t in taxonomy.themes)), lambda: (
                Page("venues/", "venues.html", "Venues", (("Venues", "venues/"),),
                     {"counts": tally, "matrix": _venue_theme_matrix(catalogue)}),)),
            self._index("themes/", "themes.html", "Themes", tally),
            self._index("reading-list/", "reading-list.html", "Reading list", None),
            ("404", (Page("404.html", "404.html", "Page not found"),)),
        ]
        if self.config.search:
            groups.append(self._index("search/", "search.html", "Search", None))
        for venue in catalogue.venues:
            in_venue = catalogue.papers_in_venue(venue)
            groups.append(self._group(f"papers:{venue.slug}", (in_venue, taxonomy, related.version(venue)),
                                      lambda: self._paper_pages(catalogue, in_venue, related.views)))
            groups.append(self._group(f"venue:{venue.slug}", (venue, in_venue, taxonomy), lambda: _venue_pages(
                venue, in_venue, main_theme)))
        for tag in taxonomy.tags.values():
            tagged = catalogue.papers_with_tag(tag.id)
            themes = tuple(t for t in taxonomy.themes.values() if tag.id in t.tags)
            groups.append(self._group(f"tag:{tag.id}", (tag, tagged, themes, taxonomy), lambda: _paginated(
                f"tags/{tag.id}/", "tag.html", tag.label, (("Tags", "tags/"),), tagged,
                {"tag": tag, "themes": themes, "related": _related_tags(tag.id, tagged, taxonomy)})))
        for theme in taxonomy.themes.values():
            lists = tuple(catalogue.papers_with_tag(t) for t in theme.tags)
            in_theme = catalogue.papers_in_theme(theme.id)
            groups.append(self._group(f"theme:{theme.id}", (theme, lists, in_theme, taxonomy), lambda: (
                self._theme_page(catalogue, theme),)))
            if self.config.site_files:
                groups.append(self._group(f"theme-feed:{theme.id}", (theme, in_theme), lambda: (
                    _feed(f"themes/{theme.id}/feed.xml", f"{theme.title} · {self.config.title}",
                          f"themes/{theme.id}/", in_theme),)))
        groups += self._author_groups(catalogue)
        groups.append(self._group(MOVED, (catalogue.redirects,), lambda: tuple(
            Page(r.old, "redirect.html", "Moved", context={"target": r.new})
            for r in catalogue.redirects if r.old.endswith("/"))))  # a file's move is a 301 only
        if self.config.site_files:
            groups += self._site_files(catalogue, groups)
        return groups

    def _author_groups(self, catalogue: Catalogue) -> list[tuple[str, tuple[Page, ...]]]:
        """A page per author, in groups by first letter; and the index of all authors."""
        buckets = catalogue.author_buckets()
        groups = [self._group(f"authors:{letter}", (bucket,), lambda: [
            self._author_page(slug, papers) for slug, papers in sorted(bucket.items())])
            for letter, bucket in sorted(buckets.items())]
        groups.append(self._group("authors", tuple(buckets.values()), lambda: _author_index(buckets, self._author_name)))
        return groups

    def _author_name(self, slug: str, papers: list[Paper]) -> str:
        """How the author's name is spelled on their first paper here."""
        return self._author_page(slug, papers).context["name"]

    def _author_page(self, slug: str, papers: list[Paper]) -> Page:
        previous = self._author_memo.get(slug)
        if previous is None or previous[0] != papers:
            name = next(a for a in papers[0].authors if author_slug(a) == slug)
            others = Counter(a for p in papers for a in dict.fromkeys(p.authors) if author_slug(a) != slug)
            coauthors = tuple((a, author_slug(a), n) for a, n in sorted(others.items(), key=lambda i: (-i[1], i[0])))
            page = Page(f"authors/{slug}/", "author.html", name, (("Authors", "authors/"),), {
                "name": name, "papers": tuple(p.listing for p in papers), "coauthors": coauthors})
            previous = (list(papers), page)
            self._author_memo[slug] = previous
        return previous[1]

    def _site_files(self, catalogue: Catalogue, groups: list) -> list[tuple[str, tuple[Page, ...]]]:
        """Feeds, the BibTeX of everything, redirects, robots.txt and the sitemap."""
        aliases = tuple((f"papers/{alias}/", f"papers/{p.slug}/") for p in catalogue.papers for alias in p.aliases)
        moved = tuple((r.old, r.new) for r in catalogue.redirects)
        html = tuple(page.path for _, pages in groups for page in pages
                     if (not page.path or page.path.endswith("/")) and page.template != "redirect.html")
        return [
            self._group("feed", (catalogue.papers,), lambda: (
                _feed("feed.xml", self.config.title, "", catalogue.papers),)),
            self._group("bib", (catalogue.papers,), lambda: (
                Page("papers.bib", "papers.bib", "BibTeX", context={"papers": tuple(catalogue.papers)}),)),
            self._group("_redirects", (aliases, moved), lambda: (
                Page("_redirects", "netlify-redirects.txt", "Redirects", context={"redirects": aliases + moved}),)),
            self._group("robots", (), lambda: (Page("robots.txt", "robots.txt", "Robots"),)),
            self._group("sitemap", (html,), lambda: (
                Page("sitemap.xml", "sitemap.xml", "Sitemap", context={"paths": html}),)),
        ]

    def _group(self, group_id: str, inputs: tuple, make) -> tuple[str, tuple[Page, ...]]:
        """The pages of a group: made anew only if its inputs differ from last time.

        `inputs` must hold everything `make` reads, or an edit could go unseen. `make` runs at
        once, so a lambda may use the caller's loop variables.
        """
        previous = self._memo.get(group_id)
        if previous is None or previous[0] != inputs:
            previous = (inputs, tuple(make()))
            self._memo[group_id] = previous
        return group_id, previous[1]

    def _index(self, path: str, template: str, title: str, tally) -> tuple[str, tuple[Page, ...]]:
        return self._group(path, (tally,), lambda: (
            Page(path, template, title, ((title, path),), {"counts": tally}),))

    def _main_theme_for(self, taxonomy: Taxonomy) -> MainTheme:
        if self._main_theme is None or self._main_theme.taxonomy is not taxonomy:
            self._main_theme = MainTheme(taxonomy)
        return self._main_theme

    def _map_geometry(self, similarity: Similarity, main_theme: MainTheme) -> dict[str, MapPoint]:
        """The topic map's dots, placed again only when the similarity or the taxonomy changed."""
        if self._geometry[0] != (similarity, main_theme):
            self._geometry = ((similarity, main_theme), _geometry(similarity, main_theme, MAP_SIZE))
        return self._geometry[1]

    def _all_listings(self, catalogue: Catalogue) -> tuple[Listing, ...]:
        """Every paper's listing, in catalogue order: the same tuple while no edit changes one."""
        earlier, listings = self._listings
        changes = catalogue.changes_since(earlier)
        if changes is None or any(old is None or new is None or old.listing != new.listing
                                  for old, new in changes):
            listings = tuple(map(_LISTING, catalogue.papers))
        self._listings = (catalogue, listings)
        return listings

    def _paper_pages(self, catalogue: Catalogue, in_venue: list[Paper], related: dict[str, tuple]) -> list[Page]:
        """A venue's paper pages; each remade only if it, its neighbours, its related papers
        or the taxonomy changed."""
        pages = []
        for index, paper in enumerate(in_venue):
            inputs = (paper, _neighbour(in_venue, index - 1), _neighbour(in_venue, index + 1),
                      catalogue.taxonomy, related.get(paper.slug, ()))
            previous = self._paper_memo.get(paper.slug)
            if previous is None or previous[0] != inputs:
                previous = (inputs, _paper_page(catalogue, paper, inputs[1], inputs[2], inputs[4], self.config))
                self._paper_memo[paper.slug] = previous
            pages += previous[1]
        return pages

    def _theme_page(self, catalogue: Catalogue, theme: Theme) -> Page:
        taxonomy = catalogue.taxonomy
        labels = Counter(map(_VENUE_LABEL, catalogue.papers_in_theme(theme.id)))
        per_venue = {venue: labels[venue.label] for venue in catalogue.venues if labels[venue.label]}
        groups = tuple((taxonomy.tags[t], tuple(p.listing for p in catalogue.papers_with_tag(t)[:THEME_GROUP_LIMIT]),
                        len(catalogue.papers_with_tag(t))) for t in theme.tags)
        return Page(f"themes/{theme.id}/", "theme.html", theme.title, (("Themes", "themes/"),), {
            "theme": theme, "groups": tuple(g for g in groups if g[2]),
            "count": len(catalogue.papers_in_theme(theme.id)),
            "per_venue": tuple(sorted(per_venue.items(), reverse=True))})


def _paper_page(catalogue: Catalogue, paper: Paper, previous, next, related: tuple,
                config: SiteConfig) -> tuple[Page, ...]:
    """A paper's page, its citation file, its preview image, and a redirect for each earlier slug."""
    venue = paper.venue
    title = plain_text(paper.title)
    tags = tuple(catalogue.taxonomy.tags[t] for t in paper.tags)
    image = f"papers/{paper.slug}/social.png" if config.social_images else ""
    page = Page(f"papers/{paper.slug}/", "paper.html", title,
                (("Venues", "venues/"), (venue.label, f"venues/{venue.slug}/")), {
                    "paper": paper, "paper_tags": tags, "image": image,
                    "themes": tuple(catalogue.themes_of(paper)),
                    "previous": previous, "next": next, "related": related}, paper.draft)
    extras = [Page(f"papers/{paper.slug}/cite.bib", "cite.bib", title, context={"paper": paper}, draft=paper.draft)]
    if image:
        extras.append(Page(image, SOCIAL_IMAGE, title, context={
            "title": title, "venue": venue.label, "tags": tuple(t.label for t in tags)}, draft=paper.draft))
    redirects = tuple(Page(f"papers/{alias}/", "redirect.html", title, context={"target": f"papers/{paper.slug}/"},
                           draft=paper.draft) for alias in paper.aliases)
    return (page, *extras, *redirects)


class RelatedViews:
    """Each paper's related papers as its page shows them: (listing, reason) pairs. After an
    edit only the papers it touches, and those whose lists show them, are looked at again, and
    each venue holding a changed list gets a new version, which is what its pages are planned by."""

    def __init__(self) -> None:
        self.views: dict[str, tuple] = {}
        self._for: tuple[Catalogue | None, Similarity | None] = (None, None)
        self._versions: dict[Venue, int] = {}
        self._counter = 0

    def version(self, venue) -> int:
        return self._versions.get(venue, 0)

    def update(self, catalogue: Catalogue, similarity: Similarity) -> RelatedViews:
        earlier, earlier_similarity = self._for
        changes = catalogue.changes_since(earlier)
        by_slug = catalogue.by_slug
        self._counter += 1
        if changes is None:
            self.views = {p.slug: _related_of(p, similarity, by_slug) for p in catalogue.papers}
            self._versions = dict.fromkeys(catalogue.venues, self._counter)
        else:
            touched = {paper.slug for change in changes for paper in change if paper}
            if similarity is not earlier_similarity:  # a new computation: look up what it moved
                old = earlier_similarity.related if earlier_similarity else {}
                touched.update(s for s, related in similarity.related.items() if old.get(s) != related)
                touched.update(s for s in old if s not in similarity.related)
            listed_by = similarity.listed_by
            for slug in touched.union(*(listed_by.get(t, ()) for t in touched)):
                self._refresh(by_slug.get(slug), slug, similarity, by_slug)
        self._for = (catalogue, similarity)
        return self

    def _refresh(self, paper: Paper | None, slug: str, similarity: Similarity, by_slug: dict[str, Paper]) -> None:
        view = _related_of(paper, similarity, by_slug) if paper else None
        if self.views.get(slug) != view:
            if paper:
                self.views[slug] = view
                self._versions[paper.venue] = self._counter
            else:
                self.views.pop(slug, None)


def _can_fork(groups: list[tuple[str, tuple[Page, ...]]]) -> bool:
    """Two processes pay off for a big first build, on a machine with two cores or more, where
    fork is safe: not in a process with threads (watch mode)."""
    return (hasattr(os, "fork") and (os.cpu_count() or 1) > 1 and threading.active_count() == 1
            and sum(len(pages) for _, pages in groups) >= FORK_MIN_PAGES)


def _related_of(paper: Paper, similarity: Similarity, by_slug: dict[str, Paper]) -> tuple:
    """(listing, reason) of each related paper still in the catalogue. Watch mode may be a step
    behind, so a reason keeps only the tags both papers still have."""
    return tuple((by_slug[r.slug].listing, r._replace(tags=tuple(t for t in r.tags if t in paper.tags
                                                                  and t in by_slug[r.slug].tags)))
                 for r in similarity.related.get(paper.slug, ()) if r.slug in by_slug)


class MainTheme:
    """A paper's main theme: the one holding most of its tags (the earlier one on a tie), or
    None; and the colour class the maps give it. Remembered per set of tags."""

    def __init__(self, taxonomy: Taxonomy):
        self.taxonomy = taxonomy
        self.themes = list(taxonomy.themes.values())
        self._holders: dict[str, list[int]] = {}
        for index, theme in enumerate(self.themes):
            for tag in theme.tags:
                self._holders.setdefault(tag, []).append(index)
        self._memo: dict[tuple[str, ...], int | None] = {}

    def index(self, tags: tuple[str, ...]) -> int | None:
        if tags not in self._memo:
            held = Counter(i for tag in tags for i in self._holders.get(tag, ()))
            self._memo[tags] = min(held, key=lambda i: (-held[i], i)) if held else None
        return self._memo[tags]

    def __call__(self, tags: tuple[str, ...]) -> Theme | None:
        index = self.index(tags)
        return None if index is None else self.themes[index]

    def title(self, tags: tuple[str, ...]) -> str:
        index = self.index(tags)
        return "" if index is None else self.themes[index].title

    def colour(self, tags: tuple[str, ...]) -> str:
        """m0…m8 by the theme's place in the taxonomy (the palette has nine), m9 for none."""
        index = self.index(tags)
        return "m9" if index is None else f"m{index % 9}"


class MapPoint(NamedTuple):
    """A dot on a topic map, in the SVG's coordinates, coloured by its theme's class."""

    x: float
    y: float
    colour: str
    listing: Listing | None = None  # the small map on the home page has no links
    theme: str = ""  # the theme's title, named in a linked dot's title: colours repeat after nine themes


def _geometry(similarity: Similarity, main_theme: MainTheme, size: tuple[int, int],
              slugs: list[str] | None = None, margin: int = 16) -> dict[str, MapPoint]:
    """Each placed paper's dot (or those of `slugs`) in a `size` SVG, y pointing up, without its listing."""
    width, height = size[0] - 2 * margin, size[1] - 2 * margin
    positions = similarity.positions
    return {slug: MapPoint(round(margin + positions[slug][0] * width, 1),
                           round(margin + (1 - positions[slug][1]) * height, 1),
                           main_theme.colour(similarity.tags[slug]))
            for slug in (positions if slugs is None else slugs)}


def _topic_map(listings: tuple[Listing, ...], geometry: dict[str, MapPoint], main_theme: MainTheme) -> dict[str, Any]:
    """Every placed paper as a linked dot, and the legend: (theme or None, colour, papers)."""
    points = tuple(geometry[listing.slug]._replace(listing=listing, colour=main_theme.colour(listing.tags),
                                                   theme=main_theme.title(listing.tags))
                   for listing in listings if listing.slug in geometry)
    legend = Counter(main_theme.index(point.listing.tags) for point in points)
    radius = 7 if len(points) <= 500 else 4 if len(points) <= 3000 else 2.5
    return {"points": points, "size": MAP_SIZE, "radius": radius,
            "legend": tuple((main_theme.themes[i] if i is not None else None, f"m{i % 9}" if i is not None else "m9",
                             legend[i]) for i in (*range(len(main_theme.themes)), None) if legend[i])}


def _home_map(similarity: Similarity, main_theme: MainTheme) -> dict[str, Any]:
    """An evenly spread sample of at most HOME_MAP_POINTS dots, without links."""
    slugs = sorted(similarity.positions)
    sample = slugs[::max(1, -(-len(slugs) // HOME_MAP_POINTS))]
    geometry = _geometry(similarity, main_theme, HOME_MAP_SIZE, sample)
    return {"points": tuple(geometry[slug] for slug in sample), "size": HOME_MAP_SIZE, "radius": 4}


def _venue_pages(venue, papers: list[Paper], main_theme: MainTheme) -> list[Page]:
    """A venue's papers grouped by their main theme (in the taxonomy's order), in pages."""
    last = len(main_theme.themes)
    ordered = sorted(papers, key=lambda p: (_or(main_theme.index(p.tags), last), p.sort_key))
    sizes = Counter(main_theme(p.tags) for p in papers)
    pages = _paginated(f"venues/{venue.slug}/", "venue.html", venue.label, (("Venues", "venues/"),), ordered,
                       {"venue": venue})
    previous_theme: object = ()  # the theme the previous page ended with
    for page in pages:
        sections: list[tuple[Theme | None, list[Listing]]] = []
        for listing in page.context["papers"]:
            theme = main_theme(listing.tags)
            if not sections or sections[-1][0] != theme:
                sections.append((theme, []))
            sections[-1][1].append(listing)
        page.context["sections"] = tuple((theme, sizes[theme], tuple(items), index == 0 and theme == previous_theme)
                                         for index, (theme, items) in enumerate(sections))
        previous_theme = sections[-1][0] if sections else ()
    return pages


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def _related_tags(tag_id: str, tagged: list[Paper], taxonomy) -> tuple:
    """The tags most often found together with this one, with how often."""
    together = Counter(other for paper in tagged for other in paper.tags if other != tag_id)
    return tuple((taxonomy.tags[t], n) for t, n in sorted(together.items(), key=lambda i: (-i[1], i[0]))[:8])


def _venue_theme_matrix(catalogue: Catalogue) -> tuple:
    """Rows of (theme, counts per venue in the venues' order)."""
    venues = catalogue.venues
    rows = []
    for theme in catalogue.taxonomy.themes.values():
        per_venue = Counter(map(_VENUE_LABEL, catalogue.papers_in_theme(theme.id)))
        rows.append((theme, tuple(per_venue.get(v.label, 0) for v in venues)))
    return (tuple(venues), tuple(rows))


def _is_published(path: str) -> bool:
    """The addresses the ledger keeps: pages and feeds, not list pages 2, 3… nor author pages."""
    return path == "" or path.endswith("feed.xml") or (
        path.endswith("/") and "/page/" not in path and not _is_author_page(path))


def _is_author_page(path: str) -> bool:
    """Author pages come and go with the papers' metadata: the ledger does not keep them."""
    return path.startswith("authors/") and path != "authors/"


def _author_index(buckets: dict[str, dict[str, list[Paper]]], name_of) -> list[Page]:
    """Every author, by family name, with their number of papers, in pages of AUTHORS_PER_PAGE."""
    names = {slug: name_of(slug, papers) for bucket in buckets.values() for slug, papers in bucket.items()}
    counts_of = {slug: len(papers) for bucket in buckets.values() for slug, papers in bucket.items()}
    order = sorted(names, key=lambda slug: (names[slug].split()[-1].casefold(), names[slug].casefold()))
    rows = [(names[slug], slug, counts_of[slug]) for slug in order]
    chunks = [tuple(rows[i:i + AUTHORS_PER_PAGE]) for i in range(0, len(rows), AUTHORS_PER_PAGE)] or [()]
    return [Page("authors/" if number == 1 else f"authors/page/{number}/", "authors.html",
                 "Authors" if number == 1 else f"Authors (page {number})", (("Authors", "authors/"),),
                 {"authors": chunk, "pager": {"number": number, "count": len(chunks), "first": "authors/",
                                              "total": len(rows)}})
            for number, chunk in enumerate(chunks, start=1)]


def _feed(path: str, title: str, home: str, papers: list[Paper]) -> Page:
    """An Atom feed of the newest additions first."""
    newest = sorted(papers, key=lambda p: p.added, reverse=True)[:FEED_LIMIT]
    return Page(path, "feed.xml", title, context={"home": home, "papers": tuple(newest)})


def _neighbour(papers: list[Paper], index: int) -> tuple[str, str] | None:
    """Only what the pager shows of a neighbour, so its other edits leave this page alone."""
    if 0 <= index < len(papers):
        return (papers[index].slug, papers[index].title)
    return None


def _paginated(path: str, template: str, title: str, crumbs: tuple, papers: list[Paper],
               context: dict[str, Any]) -> list[Page]:
    """A list of papers as pages of PAGE_SIZE: `path`, `path/page/2/`, …"""
    listings = list(map(_LISTING, papers))
    chunks = [tuple(listings[i:i + PAGE_SIZE]) for i in range(0, len(listings), PAGE_SIZE)] or [()]
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


ASSETS_DIR = "assets"
FINGERPRINTED = ("style.css",)  # named by content, so they can be cached for a year
TEXT_SUFFIXES = {".css", ".js", ".svg", ".html", ".txt", ".json", ".xml"}  # a merge conflict is refused in these


def fingerprint_assets(static_dir: Path) -> dict[str, tuple[str, bytes]]:
    """`style.css` → (`assets/style.<hash>.css`, its bytes): named by content, cached for a year."""
    assets = {}
    for name in FINGERPRINTED:
        data = (static_dir / name).read_bytes()
        refuse_conflict(static_dir / name, data.decode("utf-8", errors="replace"))
        stem, _, suffix = name.rpartition(".")
        assets[name] = (f"{ASSETS_DIR}/{stem}.{hashlib.sha256(data).hexdigest()[:10]}.{suffix}", data)
    return assets


def write_assets(assets: dict[str, tuple[str, bytes]], target: Path) -> None:
    """Write the fingerprinted files, removing older versions."""
    names = {Path(path).name for path, _ in assets.values()}
    for path, data in assets.values():
        write_if_changed(target / Path(path).name, data)
    for stale in (p for p in target.glob("*") if p.name not in names):
        stale.unlink()


def sync_static(source: Path, target: Path) -> None:
    """Make `target` a copy of `source`: stale entries go first (a file may have become a
    folder, or the other way round), then changed files are written."""
    wanted = {p.relative_to(source) for p in source.rglob("*") if p.is_file()}
    folders = {parent for relative in wanted for parent in relative.parents}
    if target.is_dir():
        for entry in sorted(target.rglob("*"), reverse=True):  # deepest first
            relative = entry.relative_to(target)
            if entry.is_dir() and not entry.is_symlink():
                if relative in wanted or (relative not in folders and not any(entry.iterdir())):
                    shutil.rmtree(entry)
            elif relative not in wanted:
                entry.unlink()
    for relative in sorted(wanted):
        data = (source / relative).read_bytes()
        if relative.suffix in TEXT_SUFFIXES:
            refuse_conflict(source / relative, data.decode("utf-8", errors="replace"))
        write_if_changed(target / relative, data)


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
