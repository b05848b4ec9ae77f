"""The site's address layout, in one place: every stage and template asks here.

A site path has no leading slash: `papers/samba/` is a folder (served as its `index.html`),
`papers/samba/cite.bib` a file, `""` the home page. These addresses are permanent (people
paste them into discussions), which is why the published-URL ledger keeps them.
"""

from __future__ import annotations

import re

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")  # a part of an address: `long-rope`, `kv-cache`

HOME = ""
PAPERS = "papers/"
TAGS = "tags/"
VENUES = "venues/"
THEMES = "themes/"
AUTHORS = "authors/"
MAP = "map/"
READING_LIST = "reading-list/"
SEARCH = "search/"
ABOUT = "about/"
REVIEW = "_review/"  # watch mode's list of what needs a curator: never in a published build
CHANGES = "changes/"  # the changelog: what each commit added, changed and removed
CHANGES_FEED = f"{CHANGES}feed.xml"
NOT_FOUND = "404.html"
FEED = "feed.xml"
BIBTEX = "papers.bib"  # the whole catalogue's citations; a venue's and a tag's in their folders
RIS = "papers.ris"
CSL_JSON = "papers.json"
CITATIONS = (BIBTEX, RIS, CSL_JSON)
SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"
NETLIFY_REDIRECTS = "_redirects"
COUNTS_CSS = "counts.css"
STATIC = "static/"
ASSETS = "assets/"
CITATION = "cite.bib"  # in a paper's folder, with its RIS and CSL-JSON beside it
CITATION_RIS = "cite.ris"
CITATION_CSL_JSON = "cite.json"
SOCIAL_IMAGE = "social.png"  # in a paper's folder
SITE_FILES = frozenset({FEED, CHANGES_FEED, *CITATIONS, SITEMAP, ROBOTS, NETLIFY_REDIRECTS})
EXPLORE = (PAPERS, MAP, AUTHORS, READING_LIST)  # linked at the top of the navigation


GUIDES = "pages/"  # the curator's guides, hand-written pages: content/pages/<slug>.md


def guide(slug: str) -> str:
    return f"{GUIDES}{slug}/"


def paper(slug: str) -> str:
    return f"{PAPERS}{slug}/"


def paper_file(slug: str, name: str) -> str:
    """A file in a paper's folder: its citation, its preview image."""
    return paper(slug) + name


def tag(tag_id: str) -> str:
    return f"{TAGS}{tag_id}/"


def venue(slug: str) -> str:
    return f"{VENUES}{slug}/"


def venue_file(slug: str, name: str) -> str:
    """A file in a venue's folder: `venues/icml-2024/papers.bib`."""
    return venue(slug) + name


def tag_file(tag_id: str, name: str) -> str:
    """A file in a tag's folder: `tags/kv-cache/papers.ris`."""
    return tag(tag_id) + name


def theme(theme_id: str) -> str:
    return f"{THEMES}{theme_id}/"


def feed_of(listing: str) -> str:
    """The Atom feed of a theme's, tag's or venue's page: `tags/kv-cache/feed.xml`."""
    return f"{listing}{FEED}"


def author(slug: str) -> str:
    return f"{AUTHORS}{slug}/"


def numbered(first: str, number: int) -> str:
    """Page `number` of a list that starts at `first`: `tags/x/`, `tags/x/page/2/`, …"""
    return first if number == 1 else f"{first}page/{number}/"


def file_of(path: str) -> str:
    """The file a site path names: a folder's index.html."""
    return path + "index.html" if path.endswith("/") or not path else path


def path_of(file: str) -> str:
    """The site path a file is served at: `papers/samba/index.html` → `papers/samba/`."""
    return file.removesuffix("index.html") if file == "index.html" or file.endswith("/index.html") else file


def is_folder(path: str) -> bool:
    """A page served at a folder address (the home page too), not a file like `feed.xml`."""
    return not path or path.endswith("/")


def paper_of_file(file: str) -> str | None:
    """The slug whose paper page `file` is (`papers/samba/index.html` → `samba`), else None."""
    if not (file.startswith(PAPERS) and file.endswith("/index.html")):
        return None
    slug = file[len(PAPERS):-len("/index.html")]
    return slug if slug and "/" not in slug else None


def ids(paths, section: str) -> set[str]:
    """The ids of a section's pages among absolute paths: `ids(ledger, TAGS)` → every tag."""
    prefix = "/" + section
    return {path.split("/")[2] for path in paths if path.startswith(prefix) and path.count("/") == 3}


def is_published(path: str) -> bool:
    """The addresses the ledger keeps: pages and feeds, not list pages 2, 3… nor author pages."""
    return path == HOME or path.endswith(FEED) or (
        path.endswith("/") and "/page/" not in path and not is_author_page(path))


def is_author_page(path: str) -> bool:
    """Author pages come and go with the papers' metadata: the ledger does not keep them."""
    return path.startswith(AUTHORS) and path != AUTHORS


def is_site_file(path: str) -> bool:
    """Feeds, the citations of everything (and of each venue and tag), the sitemap, robots.txt
    and Netlify's redirects: the files that are for machines, not for reading."""
    if path in SITE_FILES:
        return True
    section, _, rest = path.partition("/")
    folder, _, name = rest.partition("/")
    if not folder or "/" in name or section + "/" not in (THEMES, TAGS, VENUES):
        return False
    return name == FEED or (section + "/" != THEMES and name in CITATIONS)
