"""Where things are and what the site is called: the settings every stage reads."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from . import urls

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BASE_URL = "http://localhost:8000/"
# The content folder's layout: what every stage that reads content/ (or watches it) finds where.
PAPERS_DIR = "papers"
PAGES_DIR = "pages"  # the curator's guides (hand-written pages), each at /pages/<slug>/
INTROS_DIR = "intros"  # introductions to theme, tag and venue pages: intros/tags/<id>.md, …
SOURCES_DIR = "sources"  # the raw lists papers were imported from, which `source:` names
TAXONOMY_FILE = "taxonomy.yaml"
VENUES_FILE = "venues.yaml"
AUTHORS_FILE = "authors.yaml"
REDIRECTS_FILE = "redirects.txt"
SITE_FILE = "site.yaml"
LEDGER_FILE = "published-urls.txt"  # beside content/: the build keeps it, so it is no curator's file
CONTENT_LAYOUT = (  # what each part of content/ holds, for the reference (docs/reference.md)
    (f"{PAPERS_DIR}/<slug>.md", "one paper: front matter and its abstract, then the curator's notes"),
    (TAXONOMY_FILE, "the controlled vocabulary: tags, and the themes that group them"),
    (VENUES_FILE, "the conference editions papers are filed under"),
    (SITE_FILE, "the site's address, title and description"),
    (AUTHORS_FILE, "optional: several spellings of one person's name"),
    (REDIRECTS_FILE, "optional: old addresses and where they lead now, `/old/path/ /new/path/` a line "
                     "(written when a `tags` command removes a tag)"),
    (f"{PAGES_DIR}/<slug>.md", "optional: guides, pages of the curator's own at `/pages/<slug>/`"),
    (f"{INTROS_DIR}/themes/<id>.md, {INTROS_DIR}/tags/<id>.md, {INTROS_DIR}/venues/<slug>.md",
     "optional: an introduction in Markdown above a theme's, tag's or venue's list"),
    (f"{SOURCES_DIR}/", "the raw lists papers were imported from, which a paper's `source:` names"),
    (f"../{LEDGER_FILE}", "every address ever published, kept by the build (beside content/, not in it): "
                          "an address in it can never be dropped"),
)


@dataclass(frozen=True, kw_only=True)
class SiteConfig:
    """Settings of one build. Where it writes has no default (the command line gives this
    repository's `site/` and `.cache/`), so a test or script can never write there by accident;
    what it reads defaults to this repository's templates and static files."""

    out_dir: Path
    content_dir: Path = PROJECT_ROOT / "content"
    templates_dir: Path = PROJECT_ROOT / "templates"
    static_dir: Path = PROJECT_ROOT / "static"
    base_url: str = DEFAULT_BASE_URL
    title: str = "Context Window"
    tagline: str = "A catalogue of research on long-context modelling and in-context learning"
    search: bool = True
    drafts: bool = False
    social_images: bool = True
    site_files: bool = True  # feeds, papers.bib, sitemap, robots.txt, _redirects: not in watch previews
    noindex: bool = False  # deploy previews: tell search engines to stay away
    cache_dir: Path | None = None  # drawn social images, the external links; None: nothing cached
    ledger: Path | None = None  # published-urls.txt; None: no check (tests, scratch sites)

    def leaves_out(self, path: str) -> bool:
        """Whether a published build writes `path` (a site path or file, like `feed.xml` or
        `search/index.html`) and this one leaves it out on purpose: watch previews skip the
        site files, `--no-search` the search page. The one list of what a mode may skip: the
        ledger and the link check both ask it."""
        path = path.lstrip("/")
        if not self.site_files and urls.is_site_file(path):
            return True
        return not self.search and path.removesuffix("index.html") == urls.SEARCH

    @property
    def curating(self) -> bool:
        """A watch-mode preview (drafts shown, site files left out): it also shows the review page."""
        return self.drafts and not self.site_files

    @property
    def base_path(self) -> str:
        """The URL path the site lives under, `/` or `/catalogue/`."""
        path = urlparse(self.base_url).path or "/"
        return path if path.endswith("/") else path + "/"

    def absolute(self, path: str) -> str:
        """A site path (`papers/samba/`) as an absolute URL."""
        base = self.base_url if self.base_url.endswith("/") else self.base_url + "/"
        return base + path.lstrip("/")

