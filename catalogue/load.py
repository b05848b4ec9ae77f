"""Load and validate everything in `content/` before anything is rendered."""

from __future__ import annotations

import datetime
import difflib
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import yamltext
from .model import SLUG_PATTERN, URL_PATTERN, Catalogue, Paper, Taxonomy, Venue
from .report import ContentError, Diagnostic, Report
from .taxonomy import TAXONOMY_FILE, load_taxonomy
from .textfile import read_lines

PAPERS_DIR = "papers"
REDIRECTS_FILE = "redirects.txt"
TITLE_SOURCES = ("derived", "metadata", "curated")
REQUIRED = {"title": str, "slug": str, "venue": str, "tags": list}
OPTIONAL = {"title_source": str, "authors": list, "arxiv": str, "code": str, "project": str,
            "url": str, "aliases": list, "fingerprint": str, "source": str, "draft": bool,
            "added": datetime.date}
URL_KEYS = ("code", "project", "url")


@dataclass(frozen=True)
class PageSource:
    """A content file split into front matter (with line numbers) and Markdown body."""

    path: Path
    meta: dict[str, Any]
    lines: dict
    body: str


def fingerprint(abstract: str) -> str:
    """Identity of an abstract, blind to case, spacing, punctuation and markup."""
    letters = re.sub(r"[^0-9a-z]+", "", abstract.lower())
    return hashlib.sha256(letters.encode()).hexdigest()[:16]


def paper_files(content_dir: Path) -> list[Path]:
    """The Markdown files of papers, skipping editors' hidden, swap and backup files."""
    folder = content_dir / PAPERS_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.md") if _is_content(p))


def read_source(path: Path) -> PageSource:
    """Split a file into front matter and body; raise ContentError naming the line."""
    lines = read_lines(path)
    if lines[0].rstrip() != "---":
        raise _error(path, 1, "no front matter",
                     "start the file with a `---` line, the YAML fields, and another `---` line")
    end = _closing_dashes(lines)
    if not end:
        raise _error(path, 1, "the front matter is never closed",
                     "add a `---` line after the last field")
    meta, key_lines = yamltext.parse("\n".join(lines[1:end]), path, first_line=2)
    body = "\n".join(lines[end + 1:])
    if not isinstance(meta, dict):
        raise _error(path, 2, "the front matter is not a set of `key: value` fields",
                     "write one `key: value` per line between the `---` lines")
    return PageSource(path, meta, key_lines, body.strip("\n"))


def body_line(path: Path, text: str) -> int:
    """The line of `path` where `text` (its first line) first appears below the front matter,
    for messages about what the abstract renders to; 0 if it is not there."""
    try:
        lines = read_lines(path)
    except (OSError, ContentError):
        return 0
    end = _closing_dashes(lines)
    first = text.split("\n")[0]
    if not first:
        return 0
    return next((number for number, line in enumerate(lines[end + 1:], start=end + 2) if first in line), 0)


def _closing_dashes(lines: list[str]) -> int:
    """The index of the `---` line that closes the front matter; 0 if there is none."""
    return next((i for i, line in enumerate(lines[1:], start=1) if line.rstrip() == "---"), 0)


def _error(path: Path, line: int, message: str, hint: str) -> ContentError:
    return ContentError([Diagnostic(path, line, message, hint)])


def load_catalogue(content_dir: Path, report: Report, drafts: bool = False) -> Catalogue:
    """Read and validate the taxonomy and every paper; raise ContentError listing all errors."""
    return ContentLoader(content_dir).load(report, drafts)


@dataclass(frozen=True)
class _File:
    """What one paper file held when last read: its stat signature, and the checked result."""

    signature: tuple
    source: PageSource | None
    paper: Paper | None
    diagnostics: tuple


class ContentLoader:
    """Loads `content/`, remembering every file, so a reload redoes only what changed.

    Given the paths that changed (from the watcher), it re-reads just those and updates the
    previous catalogue in place of rebuilding it: an edit costs the same at 76 papers or 10,000.
    """

    def __init__(self, content_dir: Path):
        self.content_dir = content_dir
        self._files: dict[Path, _File] = {}
        self._taxonomy: tuple[tuple, Taxonomy | None, tuple] = ((), None, ())
        self._catalogue: Catalogue | None = None
        self._made_with: tuple = ()
        self._checked_against: Taxonomy | None = None
        self._troubled: set[Path] = set()  # files with diagnostics: 10,000 files, a handful of these
        self._pending: list[tuple[Paper | None, Paper | None]] = []
        self._slugs = _Owners("slug")
        self._venues = _Owners("venue")

    def load(self, report: Report, drafts: bool = False,
             changed: set[Path] | None = None) -> Catalogue:
        """Validate everything (drafts too); the catalogue holds drafts only if asked.

        `changed` lists the paths that may differ since the last call; None rescans all.
        """
        taxonomy = self._load_taxonomy()
        if taxonomy is not self._checked_against:
            changed = None  # every paper is checked against the vocabulary again
        # Changes are kept until a load succeeds: a failed load must not lose them.
        self._pending += self._rescan(taxonomy) if changed is None else self._refresh(changed, taxonomy)
        report.extend(self._taxonomy[2])
        for path in sorted(self._troubled):
            report.extend(self._files[path].diagnostics)
        report.extend(self._slugs.clashes(self._files))
        report.extend(self._venues.clashes(self._files))
        redirects = read_redirects(self.content_dir, report)
        report.raise_if_errors()
        assert taxonomy is not None
        catalogue = self._updated_catalogue(self._pending, taxonomy, drafts)
        self._pending = []
        catalogue.redirects = redirects
        return catalogue

    def _updated_catalogue(self, updates: list[tuple[Paper | None, Paper | None]],
                           taxonomy: Taxonomy, drafts: bool) -> Catalogue:
        shown = [(old if old and (drafts or not old.draft) else None,
                  new if new and (drafts or not new.draft) else None) for old, new in updates]
        if self._catalogue and self._made_with == (taxonomy, drafts):
            if any(old or new for old, new in shown):
                self._catalogue = self._catalogue.updated(shown)
        else:
            papers = [f.paper for f in self._files.values() if f.paper and (drafts or not f.paper.draft)]
            self._catalogue = Catalogue(papers, taxonomy)
        self._made_with = (taxonomy, drafts)
        return self._catalogue

    def _load_taxonomy(self) -> Taxonomy | None:
        path = self.content_dir / TAXONOMY_FILE
        signature = _signature(path)
        if signature != self._taxonomy[0] or not signature:
            scratch = Report()
            self._taxonomy = (signature, load_taxonomy(self.content_dir, scratch),
                              tuple(scratch.diagnostics))
        return self._taxonomy[1]

    def _rescan(self, taxonomy: Taxonomy | None) -> list:
        paths = paper_files(self.content_dir)
        force = taxonomy is not self._checked_against
        updates = [self._read(path, taxonomy, force) for path in paths]
        updates += [self._read(gone, taxonomy) for gone in set(self._files) - set(paths)]
        self._checked_against = taxonomy
        self._catalogue = None  # a full rescan rebuilds the catalogue from scratch
        return [u for u in updates if u]

    def _refresh(self, changed: set[Path], taxonomy: Taxonomy | None) -> list:
        folder = (self.content_dir / PAPERS_DIR).resolve()
        updates = []
        for path in changed:
            if path.suffix == ".md" and path.resolve().parent == folder and _is_content(path):
                update = self._read(self.content_dir / PAPERS_DIR / path.name, taxonomy)
                if update:
                    updates.append(update)
        return updates

    def _read(self, path: Path, taxonomy: Taxonomy | None, force: bool = False):
        """Re-read one file if it changed; return (old paper, new paper) if anything did."""
        signature = _signature(path)
        previous = self._files.get(path)
        if previous and previous.signature == signature and not force:
            return None
        if not signature:
            file = None
        else:
            try:
                if not path.resolve().is_relative_to(self.content_dir.resolve()):
                    raise _error(path, 0, f"a link that points outside content/ (to {path.resolve()})",
                                 "copy the file into content/papers/ instead of linking to it")
                source = read_source(path)
                scratch = Report()
                paper = _validate(source, taxonomy, scratch)
                file = _File(signature, source, paper, tuple(scratch.diagnostics))
            except ContentError as error:
                file = _File(signature, None, None, tuple(error.diagnostics))
        old = previous.paper if previous else None
        if file is None:
            self._files.pop(path, None)
        else:
            self._files[path] = file
        (self._troubled.add if file and file.diagnostics else self._troubled.discard)(path)
        new = file.paper if file else None
        self._slugs.move(path, _slugs_of(old), _slugs_of(new))
        self._venues.move(path, _venue_of(old), _venue_of(new))
        return (old, new)


class _Owners:
    """Which files claim each key (a slug; a venue's spelling), kept up to date per change."""

    def __init__(self, field_name: str):
        self.field_name = field_name
        self.owners: dict[str, dict[str, set[Path]]] = {}
        self.clashing: set[str] = set()

    def move(self, path: Path, old: list[tuple[str, str]], new: list[tuple[str, str]]) -> None:
        for key, value in old:
            values = self.owners[key]
            values[value].discard(path)
            if not values[value]:
                del values[value]
            if not values:
                del self.owners[key]
            self._recheck(key)
        for key, value in new:
            self.owners.setdefault(key, {}).setdefault(value, set()).add(path)
            self._recheck(key)

    def _recheck(self, key: str) -> None:
        values = self.owners.get(key, {})
        if self.field_name == "slug":
            clash = sum(len(paths) for paths in values.values()) > 1
        else:
            clash = len(values) > 1
        (self.clashing.add if clash else self.clashing.discard)(key)

    def clashes(self, files: dict[Path, _File]) -> list[Diagnostic]:
        """Every claim after the first (in path order) on a clashing key is an error."""
        found = []
        for key in self.clashing:
            claims = sorted((path, value) for value, paths in self.owners[key].items() for path in paths)
            first_path, first_value = claims[0]
            for path, value in claims[1:]:
                source = files[path].source
                line = yamltext.line_of(source.lines, (self.field_name,)) if source else 1
                if self.field_name == "slug":
                    found.append(Diagnostic(path, line, f"slug `{value}` is already used by {first_path}",
                                            "give one of the two papers another slug"))
                elif value != first_value:
                    found.append(Diagnostic(path, line, f"venue {value!r} is spelled {first_value!r} elsewhere",
                                            f"write `venue: {first_value}`"))
        return sorted(found, key=lambda d: (str(d.path), d.line))


def _slugs_of(paper: Paper | None) -> list[tuple[str, str]]:
    return [(slug, slug) for slug in (paper.slug, *paper.aliases)] if paper else []


def _venue_of(paper: Paper | None) -> list[tuple[str, str]]:
    return [(paper.venue.slug, paper.venue.label)] if paper else []


def _is_content(path: Path) -> bool:
    return not path.name.startswith((".", "#")) and not path.name.endswith("~")


def _signature(path: Path) -> tuple:
    """Cheap identity of a file's content: a save by atomic rename changes the inode."""
    try:
        stat = path.stat()
    except OSError:
        return ()
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def _validate(source: PageSource, taxonomy: Taxonomy | None, report: Report) -> Paper | None:
    meta, path = source.meta, source.path
    errors_before = len(report.errors)
    _check_keys(source, report)
    venue = Venue.parse(meta["venue"]) if isinstance(meta.get("venue"), str) else None
    if isinstance(meta.get("venue"), str) and not venue:
        report.error(path, _line(source, "venue"), f"venue {meta['venue']!r} has no year",
                     "write the conference and year, like `venue: ICML 2024`")
    _check_slugs(source, report)
    _check_lists_of_strings(source, report)
    _check_values(source, report)
    if taxonomy and isinstance(meta.get("tags"), list):
        _check_tags(source, taxonomy, report)
    if len(report.errors) > errors_before or venue is None:
        return None
    return Paper(
        slug=meta["slug"], title=meta["title"].strip(),
        title_source=meta.get("title_source", "curated"), venue=venue,
        tags=tuple(meta["tags"]), body=source.body, path=path,
        authors=tuple(meta.get("authors") or ()), arxiv=meta.get("arxiv", ""),
        code=meta.get("code", ""), project=meta.get("project", ""), url=meta.get("url", ""),
        aliases=tuple(meta.get("aliases") or ()), fingerprint=meta.get("fingerprint", ""),
        source=meta.get("source", ""), draft=meta.get("draft", False),
        added=meta["added"].isoformat() if "added" in meta else "",
        lines={k: _line(source, k) for k in meta})


def _line(source: PageSource, key: str) -> int:
    return yamltext.line_of(source.lines, (key,)) or 1


def _check_keys(source: PageSource, report: Report) -> None:
    known = {**REQUIRED, **OPTIONAL}
    for key, value in source.meta.items():
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"did you mean `{close[0]}`?" if close else f"known keys: {', '.join(known)}"
            report.error(source.path, _line(source, key), f"unknown key `{key}`", hint)
        elif not isinstance(value, known[key]) or (isinstance(value, bool) and known[key] is not bool):
            kind = {list: "a list, like [a, b]", bool: "true or false",
                    datetime.date: "a date, like 2026-11-29"}.get(known[key], "text (put it in quotes)")
            report.error(source.path, _line(source, key),
                         f"`{key}` must be {kind}, not {type(value).__name__} {value!r}",
                         f"write `{key}:` as {kind}")
    for key in REQUIRED:
        if key not in source.meta:
            report.error(source.path, 1, f"`{key}` is missing",
                         f"add a `{key}:` line to the front matter")
        elif key != "tags" and (source.meta[key] is None or not str(source.meta[key]).strip()):
            report.error(source.path, _line(source, key), f"`{key}` is empty", f"give `{key}` a value")


def _check_slugs(source: PageSource, report: Report) -> None:
    meta = source.meta
    slugs = [("slug", meta.get("slug"))] + [("aliases", a) for a in meta.get("aliases") or []
                                            if isinstance(meta.get("aliases"), list)]
    for key, slug in slugs:
        if isinstance(slug, str) and slug and not SLUG_PATTERN.match(slug):
            report.error(source.path, _line(source, key), f"slug {slug!r} is not a valid URL part",
                         "use lower-case ASCII letters, digits and single hyphens, like `long-rope`")
    names = [slug for _, slug in slugs if isinstance(slug, str)]
    for slug in sorted({s for s in names if names.count(s) > 1}):
        report.error(source.path, _line(source, "aliases"), f"`{slug}` is listed twice among slug and aliases",
                     "an alias is an earlier slug: list each once, and never the current slug")


def _check_lists_of_strings(source: PageSource, report: Report) -> None:
    for key in ("tags", "authors", "aliases"):
        value = source.meta.get(key)
        if isinstance(value, list) and not all(isinstance(v, str) and v.strip() for v in value):
            report.error(source.path, _line(source, key), f"every entry of `{key}` must be text",
                         "quote entries that YAML reads as numbers, dates or booleans")


def _check_values(source: PageSource, report: Report) -> None:
    meta = source.meta
    if meta.get("title_source", "curated") not in TITLE_SOURCES:
        report.error(source.path, _line(source, "title_source"),
                     f"title_source {meta['title_source']!r} is not one of {', '.join(TITLE_SOURCES)}",
                     "write `title_source: curated` once a person has checked the title")
    for key in URL_KEYS:
        value = meta.get(key)
        if isinstance(value, str) and not URL_PATTERN.match(value):
            report.error(source.path, _line(source, key), f"`{key}` is not an http(s) URL: {value!r}",
                         "write the full address, starting with https://")


def _check_tags(source: PageSource, taxonomy: Taxonomy, report: Report) -> None:
    for tag in source.meta["tags"]:
        if isinstance(tag, str) and tag not in taxonomy.tags:
            close = difflib.get_close_matches(tag, taxonomy.tags, n=1)
            hint = (f"did you mean `{close[0]}`?" if close else
                    "use a tag id from content/taxonomy.yaml, or add the tag there")
            report.error(source.path, _line(source, "tags"), f"unknown tag `{tag}`", hint)


def read_redirects(content_dir: Path, report: Report) -> tuple[tuple[str, str], ...]:
    """`content/redirects.txt`: lines `/old/path/ /new/path/`, for URLs no paper alias can keep."""
    path = content_dir / REDIRECTS_FILE
    if not path.is_file():
        return ()
    redirects = []
    for number, line in enumerate(read_lines(path), start=1):
        parts = line.split("#", 1)[0].split()
        if not parts:
            continue
        if len(parts) != 2 or not all(re.fullmatch(r"/(?:[a-z0-9._-]+/)*", p) and ".." not in p for p in parts):
            report.error(path, number, f"not a redirect: {line.strip()!r}",
                         "write two site paths ending in /, like `/tags/old/ /tags/new/`")
            continue
        redirects.append((parts[0].strip("/") + "/", parts[1].lstrip("/")))
    return tuple(redirects)


def read_identities(content_dir: Path, report: Report) -> tuple[dict[str, Path], set[str]]:
    """Fingerprints and slugs of the papers already in `content/`, for the importer."""
    fingerprints: dict[str, Path] = {}
    slugs: set[str] = set()
    for path in paper_files(content_dir):
        slugs.add(path.stem)
        try:
            source = read_source(path)
        except ContentError as error:
            report.extend(error.diagnostics)
            continue
        for key in ("slug", "aliases"):
            value = source.meta.get(key)
            slugs.update(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
        for value in (source.meta.get("fingerprint"), fingerprint(source.body)):
            if isinstance(value, str) and value:
                fingerprints.setdefault(value, path)
    return fingerprints, slugs
