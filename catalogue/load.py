"""Load and validate everything in `content/` before anything is rendered."""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import frontmatter

from . import yamltext
from .model import SLUG_PATTERN, Catalogue, Paper, Taxonomy, Venue
from .report import ContentError, Report
from .taxonomy import load_taxonomy

PAPERS_DIR = "papers"
TITLE_SOURCES = ("derived", "metadata", "curated")
REQUIRED = {"title": str, "slug": str, "venue": str, "tags": list}
OPTIONAL = {"title_source": str, "authors": list, "arxiv": str, "code": str, "project": str,
            "url": str, "aliases": list, "fingerprint": str, "source": str}
URL_KEYS = ("code", "project", "url")
_HANDLER = frontmatter.YAMLHandler()


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
    if not _HANDLER.detect(text):
        raise _error(path, 1, "no front matter",
                     "start the file with a `---` line, the YAML fields, and another `---` line")
    parts = _HANDLER.FM_BOUNDARY.split(text, 2)
    if len(parts) < 3:
        raise _error(path, 1, "the front matter is never closed",
                     "add a `---` line after the last field")
    _, fm_text, body = parts
    meta, lines = yamltext.parse(fm_text.lstrip("\n"), path, first_line=2)
    if not isinstance(meta, dict):
        raise _error(path, 2, "the front matter is not a set of `key: value` fields",
                     "write one `key: value` per line between the `---` lines")
    return PageSource(path, meta, lines, body.strip("\n"))


def _error(path: Path, line: int, message: str, hint: str) -> ContentError:
    report = Report()
    report.error(path, line, message, hint)
    return ContentError(report.errors)


def load_catalogue(content_dir: Path, report: Report) -> Catalogue:
    """Read and validate the taxonomy and every paper; raise ContentError listing all errors."""
    taxonomy = load_taxonomy(content_dir, report)
    loaded: list[tuple[Paper, PageSource]] = []
    for path in paper_files(content_dir):
        try:
            source = read_source(path)
        except ContentError as error:
            report.diagnostics.extend(error.diagnostics)
            continue
        paper = _validate(source, taxonomy, report)
        if paper:
            loaded.append((paper, source))
    _check_unique_slugs(loaded, report)
    papers = [paper for paper, _ in loaded]
    report.raise_if_errors()
    assert taxonomy is not None
    papers.sort(key=lambda p: (-p.venue.year, p.venue.name, p.sort_key))
    return Catalogue(papers, taxonomy, content_dir)


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
        source=meta.get("source", ""))


def _line(source: PageSource, key: str) -> int:
    return yamltext.line_of(source.lines, (key,)) or 1


def _check_keys(source: PageSource, report: Report) -> None:
    known = {**REQUIRED, **OPTIONAL}
    for key, value in source.meta.items():
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"did you mean `{close[0]}`?" if close else f"known keys: {', '.join(known)}"
            report.error(source.path, _line(source, key), f"unknown key `{key}`", hint)
        elif not isinstance(value, known[key]) or isinstance(value, bool):
            kind = "a list, like [a, b]" if known[key] is list else "text (put it in quotes)"
            report.error(source.path, _line(source, key),
                         f"`{key}` must be {kind}, not {type(value).__name__} {value!r}",
                         f"write `{key}:` as {kind}")
    for key in REQUIRED:
        if key not in source.meta:
            report.error(source.path, 1, f"`{key}` is missing",
                         f"add a `{key}:` line to the front matter")
        elif source.meta[key] in ("", None, []):
            report.error(source.path, _line(source, key), f"`{key}` is empty",
                         "list at least one tag" if key == "tags" else f"give `{key}` a value")


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
        if isinstance(value, str) and not re.match(r"^https?://[^\s<>\"]+$", value):
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


def read_identities(content_dir: Path, report: Report) -> tuple[dict[str, Path], set[str]]:
    """Fingerprints and slugs of the papers already in `content/`, for the importer."""
    fingerprints: dict[str, Path] = {}
    slugs: set[str] = set()
    for path in paper_files(content_dir):
        slugs.add(path.stem)
        try:
            source = read_source(path)
        except ContentError as error:
            report.diagnostics.extend(error.diagnostics)
            continue
        for key in ("slug", "aliases"):
            value = source.meta.get(key)
            slugs.update(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
        for value in (source.meta.get("fingerprint"), fingerprint(source.body)):
            if isinstance(value, str) and value:
                fingerprints.setdefault(value, path)
    return fingerprints, slugs
