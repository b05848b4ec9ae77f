"""Load and validate everything in `content/` before anything is rendered."""

from __future__ import annotations

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

PAPERS_DIR = "papers"
TITLE_SOURCES = ("derived", "metadata", "curated")
REQUIRED = {"title": str, "slug": str, "venue": str, "tags": list}
OPTIONAL = {"title_source": str, "authors": list, "arxiv": str, "code": str, "project": str,
            "url": str, "aliases": list, "fingerprint": str, "source": str, "draft": bool}
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
    return sorted(p for p in folder.glob("*.md")
                  if not p.name.startswith((".", "#")) and not p.name.endswith("~"))


def read_source(path: Path) -> PageSource:
    """Split a file into front matter and body; raise ContentError naming the line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise _error(path, 0, f"not UTF-8 text ({error.reason})", "save the file as UTF-8")
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        raise _error(path, 1, "no front matter",
                     "start the file with a `---` line, the YAML fields, and another `---` line")
    end = next((i for i, line in enumerate(lines[1:], start=1) if line.rstrip() == "---"), 0)
    if not end:
        raise _error(path, 1, "the front matter is never closed",
                     "add a `---` line after the last field")
    meta, key_lines = yamltext.parse("\n".join(lines[1:end]), path, first_line=2)
    body = "\n".join(lines[end + 1:])
    if not isinstance(meta, dict):
        raise _error(path, 2, "the front matter is not a set of `key: value` fields",
                     "write one `key: value` per line between the `---` lines")
    return PageSource(path, meta, key_lines, body.strip("\n"))


def _error(path: Path, line: int, message: str, hint: str) -> ContentError:
    return ContentError([Diagnostic(path, line, message, hint)])


def load_catalogue(content_dir: Path, report: Report, drafts: bool = False) -> Catalogue:
    """Read and validate the taxonomy and every paper; raise ContentError listing all errors."""
    return ContentLoader(content_dir).load(report, drafts)


@dataclass(frozen=True)
class _Checked:
    """A validated file, remembered with what it was validated against."""

    source: PageSource
    taxonomy: Taxonomy | None
    paper: Paper | None
    diagnostics: tuple


class ContentLoader:
    """Loads `content/`, remembering parsed files so that a reload re-reads only changed ones."""

    def __init__(self, content_dir: Path):
        self.content_dir = content_dir
        self._sources: dict[Path, tuple[tuple, PageSource | ContentError]] = {}
        self._checked: dict[Path, _Checked] = {}
        self._taxonomy: tuple[tuple, Taxonomy | None, list] = ((), None, [])

    def load(self, report: Report, drafts: bool = False) -> Catalogue:
        """Validate everything (drafts too); the catalogue holds drafts only if asked."""
        taxonomy = self._load_taxonomy(report)
        loaded: list[tuple[Paper, PageSource]] = []
        paths = paper_files(self.content_dir)
        for path in paths:
            source = self._source(path)
            if isinstance(source, ContentError):
                report.extend(source.diagnostics)
                continue
            checked = self._check(source, taxonomy)
            report.extend(checked.diagnostics)
            if checked.paper:
                loaded.append((checked.paper, source))
        self._forget_except(set(paths))
        _check_unique_slugs(loaded, report)
        _check_venue_spellings(loaded, report)
        report.raise_if_errors()
        assert taxonomy is not None
        papers = [paper for paper, _ in loaded if drafts or not paper.draft]
        papers.sort(key=lambda p: (-p.venue.year, p.venue.name, p.sort_key))
        return Catalogue(papers, taxonomy)

    def _load_taxonomy(self, report: Report) -> Taxonomy | None:
        path = self.content_dir / TAXONOMY_FILE
        signature = _signature(path)
        if signature != self._taxonomy[0] or not signature:
            scratch = Report()
            self._taxonomy = (signature, load_taxonomy(self.content_dir, scratch), scratch.diagnostics)
        report.extend(self._taxonomy[2])
        return self._taxonomy[1]

    def _source(self, path: Path) -> PageSource | ContentError:
        signature = _signature(path)
        cached = self._sources.get(path)
        if cached and cached[0] == signature:
            return cached[1]
        try:
            source: PageSource | ContentError = read_source(path)
        except ContentError as error:
            source = error
        self._sources[path] = (signature, source)
        return source

    def _check(self, source: PageSource, taxonomy: Taxonomy | None) -> _Checked:
        cached = self._checked.get(source.path)
        if cached and cached.source is source and cached.taxonomy is taxonomy:
            return cached
        scratch = Report()
        paper = _validate(source, taxonomy, scratch)
        checked = _Checked(source, taxonomy, paper, tuple(scratch.diagnostics))
        self._checked[source.path] = checked
        return checked

    def _forget_except(self, paths: set[Path]) -> None:
        for cache in (self._sources, self._checked):
            for gone in set(cache) - paths:
                del cache[gone]


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
            kind = {list: "a list, like [a, b]", bool: "true or false"}.get(known[key], "text (put it in quotes)")
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


def _check_unique_slugs(loaded: list[tuple[Paper, PageSource]], report: Report) -> None:
    owners: dict[str, Path] = {}
    for paper, source in loaded:
        for key, slug in [("slug", paper.slug)] + [("aliases", a) for a in paper.aliases]:
            if slug in owners and owners[slug] != paper.path:
                report.error(paper.path, _line(source, key),
                             f"slug `{slug}` is already used by {owners[slug]}",
                             "give one of the two papers another slug")
            owners.setdefault(slug, paper.path)


def _check_venue_spellings(loaded: list[tuple[Paper, PageSource]], report: Report) -> None:
    """`ICML 2024` and `Icml 2024` would share one page: one spelling per venue."""
    spelling: dict[str, str] = {}
    for paper, source in loaded:
        first = spelling.setdefault(paper.venue.slug, paper.venue.label)
        if first != paper.venue.label:
            report.error(paper.path, _line(source, "venue"),
                         f"venue {paper.venue.label!r} is spelled {first!r} elsewhere",
                         f"write `venue: {first}`")


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
