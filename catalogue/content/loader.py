"""Load and validate everything in `content/` before anything is rendered."""

from __future__ import annotations

import codecs
import datetime
import difflib
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from . import yamltext
from ..ledger import ids, read_ledger
from .model import SLUG_PATTERN, URL_PATTERN, Catalogue, Paper, Taxonomy, Venue
from .paperlinks import ARXIV_ID, arxiv_id_in, paper_page, placeholder
from ..report import ContentError, Diagnostic, Report
from .taxonomy import TAXONOMY_FILE, load_taxonomy
from ..files import read_lines
from .venues import VENUES_FILE, load_venues, unknown_venue_hint

PAPERS_DIR = "papers"
SOURCES_DIR = "sources"  # the raw lists papers were imported from, which `source:` names
REDIRECTS_FILE = "redirects.txt"
TITLE_SOURCES = ("derived", "metadata", "curated")
REQUIRED = {"title": str, "slug": str, "venue": str, "tags": list}
OPTIONAL = {"title_source": str, "authors": list, "arxiv": str, "code": str, "project": str,
            "url": str, "aliases": list, "fingerprint": str, "source": str, "draft": bool,
            "added": datetime.date}
URL_KEYS = ("code", "project", "url")
_SITE_PATH = re.compile(r"/(?:[a-z0-9._-]+/)*(?:[a-z0-9_-][a-z0-9._-]*\.[a-z0-9]+)?")  # a folder's ends in /


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
    return [path for path in _papers_folder(content_dir) if _is_paper_file(path)]


def _papers_folder(content_dir: Path) -> list[Path]:
    """Every file in content/papers/ that is not an editor's (hidden, swap, backup, temporary)."""
    folder = content_dir / PAPERS_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if not is_editors_file(p.name))


def _is_paper_file(path: Path) -> bool:
    return path.suffix == ".md" and not path.is_dir()


def _stray(path: Path) -> Diagnostic:
    """Something in content/papers/ that would be skipped: say so, rather than lose a paper quietly."""
    if path.is_dir():
        return Diagnostic(path, 0, "not read: papers in folders inside content/papers/ are not papers",
                          "move its .md files up into content/papers/, and the folder out")
    if ".md." in path.name:  # samba.md.orig from git mergetool, x.md.bak
        return Diagnostic(path, 0, "not read: a copy of a paper file, it seems",
                          "delete it, or move it out of content/papers/")
    return Diagnostic(path, 0, "not read: only `.md` files in content/papers/ are papers",
                      f"rename it to `{path.stem}.md`, or move it out of content/papers/")


_EDITORS_SUFFIXES = ("~", ".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload")


def is_editors_file(name: str) -> bool:
    """Editors' swap, backup, lock and temporary files (vim's `4913` probe too): not content."""
    return name.startswith((".", "#")) or name.endswith(_EDITORS_SUFFIXES) or name == "4913"


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


FIELD_ORDER = ("title", "title_source", "slug", "venue", "added", "authors", "arxiv", "url", "tags",
               "code", "project", "aliases", "fingerprint", "source", "draft")  # as the importer writes them


def with_fields(source: PageSource, changes: dict[str, Any]) -> str:
    """The file's text with these front-matter fields set, every other line as it was (comments,
    blank lines, a BOM and CRLF line ends too): a field there is replaced where it stands, a new
    one goes after the field that comes before it in FIELD_ORDER."""
    raw = source.path.read_bytes()
    lines = read_lines(source.path)
    closing = _closing_dashes(lines)  # indexes count from 0; key lines in `source.lines` from 1
    starts = sorted(source.lines[(key,)] - 1 for key in source.meta)
    extent = {key: _value_lines(lines, start, next((s for s in starts if s > start), closing))
              for key in source.meta for start in [source.lines[(key,)] - 1]}
    replaced: dict[int, tuple[int, str]] = {}  # first index → (end index, new text)
    added: dict[int, list[str]] = {}  # insert before this index
    for key, value in changes.items():
        text = f"{key}: {_one_line_yaml(value)}"
        if key in extent:
            replaced[extent[key][0]] = (extent[key][1], text)
        else:
            earlier = [k for k in FIELD_ORDER[:FIELD_ORDER.index(key)] if k in extent] if key in FIELD_ORDER else []
            added.setdefault(extent[earlier[-1]][1] if earlier else closing, []).append(text)
    result, index = [], 0
    while index < len(lines):
        result += added.get(index, [])
        end, text = replaced.get(index, (index + 1, None))
        result.append(lines[index] if text is None else text)
        index = end
    line_end = "\r\n" if b"\r\n" in raw else "\n"
    return ("\ufeff" if raw.startswith(codecs.BOM_UTF8) else "") + line_end.join(result)


def _value_lines(lines: list[str], start: int, end: int) -> tuple[int, int]:
    """A field's lines, from its key up to the next key, less the blank and comment lines that
    follow its value: those belong to no field, and stay."""
    while end - 1 > start and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return start, end


def _one_line_yaml(value: Any) -> str:
    """A value as YAML on one line, as the importer writes fields: `[a, b]`, `'A: b'`."""
    dumped = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000)
    return dumped.removesuffix("...\n").strip()


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


def load_catalogue(content_dir: Path, report: Report, drafts: bool = False, ledger: Path | None = None) -> Catalogue:
    """Read and validate the taxonomy, the venues and every paper; raise ContentError listing all errors."""
    return ContentLoader(content_dir, ledger).load(report, drafts)


@dataclass(frozen=True)
class Vocabulary:
    """What every paper is checked against: tags, venues, and the tags that once were."""

    taxonomy: Taxonomy
    venues: dict[str, Venue]
    retired_tags: frozenset[str] = frozenset()  # published once (the ledger), gone from the taxonomy


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

    def __init__(self, content_dir: Path, ledger: Path | None = None):
        self.content_dir = content_dir
        self.ledger = ledger  # published-urls.txt, which remembers the tags that were published
        self._files: dict[Path, _File] = {}
        self._sources: dict[str, tuple[tuple, Any, tuple]] = {}  # vocabulary files: signature, result, diagnostics
        self._vocabulary: Vocabulary | None = None
        self._catalogue: Catalogue | None = None
        self._made_with: tuple = ()
        self._checked_against: Vocabulary | None = None
        self._troubled: set[Path] = set()  # files with diagnostics: 10,000 files, a handful of these
        self._pending: list[tuple[Paper | None, Paper | None]] = []
        self._slugs = _Owners()
        self._fingerprints = _Owners()
        self._stray: set[Path] = set()  # files in content/papers/ that are no paper file (`x.markdown`)

    def load(self, report: Report, drafts: bool = False,
             changed: set[Path] | None = None) -> Catalogue:
        """Validate everything (drafts too); the catalogue holds drafts only if asked.

        `changed` lists the paths that may differ since the last call; None rescans all.
        """
        vocabulary = self._load_vocabulary()
        if vocabulary is not self._checked_against:
            changed = None  # every paper is checked against the vocabulary again
        # Changes are kept until a load succeeds: a failed load must not lose them.
        self._pending += self._rescan(vocabulary) if changed is None else self._refresh(changed, vocabulary)
        for _, _, diagnostics in self._sources.values():
            report.extend(diagnostics)
        for path in sorted(self._troubled):
            report.extend(self._files[path].diagnostics)
        report.extend(self._slugs.slug_clashes(self._files))
        report.extend(self._fingerprints.fingerprint_clashes(self._files))
        report.extend(map(_stray, sorted(self._stray)))
        redirects = read_redirects(self.content_dir, report)
        report.raise_if_errors()
        assert vocabulary is not None
        catalogue = self._updated_catalogue(self._pending, vocabulary.taxonomy, drafts)
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

    def _load_vocabulary(self) -> Vocabulary | None:
        """The taxonomy, the venues and the retired tags; the same object while none changed."""
        taxonomy = self._source(self.content_dir / TAXONOMY_FILE, lambda r: load_taxonomy(self.content_dir, r))
        venues = self._source(self.content_dir / VENUES_FILE, lambda r: load_venues(self.content_dir, r))
        published = self._source(self.ledger, lambda r: _published_tags(self.ledger, r)) if self.ledger else ()
        if taxonomy is None or venues is None:
            self._vocabulary = None
            return None
        retired = frozenset(set(published or ()) - set(taxonomy.tags))  # the ledger's: every mode agrees
        last = self._vocabulary
        if not last or last.taxonomy is not taxonomy or last.venues is not venues or last.retired_tags != retired:
            self._vocabulary = Vocabulary(taxonomy, venues, retired)
        return self._vocabulary

    def _source(self, path: Path, read):
        """A vocabulary file read with `read(report)`, again only when it changed."""
        signature = _signature(path)
        known = self._sources.get(str(path))
        if known is None or known[0] != signature or not signature:
            scratch = Report()
            known = (signature, read(scratch), tuple(scratch.diagnostics))
            self._sources[str(path)] = known
        return known[1]

    def _rescan(self, vocabulary: Vocabulary | None) -> list:
        files = _papers_folder(self.content_dir)
        paths = [path for path in files if _is_paper_file(path)]
        self._stray = {path for path in files if not _is_paper_file(path)}
        force = vocabulary is not self._checked_against
        updates = [self._read(path, vocabulary, force) for path in paths]
        updates += [self._read(gone, vocabulary) for gone in set(self._files) - set(paths)]
        self._checked_against = vocabulary
        self._catalogue = None  # a full rescan rebuilds the catalogue from scratch
        return [u for u in updates if u]

    def _refresh(self, changed: set[Path], vocabulary: Vocabulary | None) -> list:
        folder = (self.content_dir / PAPERS_DIR).resolve()
        updates = []
        for path in changed:
            if path.resolve().parent != folder or is_editors_file(path.name):
                continue
            path = self.content_dir / PAPERS_DIR / path.name
            if not _is_paper_file(path):
                (self._stray.add if path.exists() else self._stray.discard)(path)
            elif update := self._read(path, vocabulary):
                updates.append(update)
        return updates

    def _read(self, path: Path, vocabulary: Vocabulary | None, force: bool = False):
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
                paper = _validate(source, vocabulary, scratch)
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
        self._fingerprints.move(path, _fingerprint_of(old), _fingerprint_of(new))
        return (old, new)


class _Owners:
    """Which files claim each key (a slug or an alias; a fingerprint), and in what role, kept up
    to date per change, so finding the clashes among 10,000 files costs only the clashing keys."""

    def __init__(self) -> None:
        self.owners: dict[str, set[tuple[Path, str]]] = {}  # key → (file, its role: slug, alias…)
        self.clashing: set[str] = set()

    def move(self, path: Path, old: list[tuple[str, str]], new: list[tuple[str, str]]) -> None:
        for key, role in old:
            claims = self.owners[key]
            claims.discard((path, role))
            if not claims:
                del self.owners[key]
            self._recheck(key)
        for key, role in new:
            self.owners.setdefault(key, set()).add((path, role))
            self._recheck(key)

    def _recheck(self, key: str) -> None:
        clash = len({path for path, _ in self.owners.get(key, ())}) > 1
        (self.clashing.add if clash else self.clashing.discard)(key)

    def _claims(self, key: str) -> list[tuple[Path, str]]:
        return sorted(self.owners[key], key=lambda claim: (claim[1] != "slug", str(claim[0])))

    def slug_clashes(self, files: dict[Path, _File]) -> list[Diagnostic]:
        """A paper's slug wins over another's alias (the alias is the error); between two slugs,
        or two aliases, each file after the first in path order is."""
        found = []
        for key in self.clashing:
            (first, first_role), *others = self._claims(key)
            for path, role in others:
                owner = f"the slug of {first}" if first_role == "slug" else f"already an alias of {first}"
                hint = ("give one of the two papers another slug" if role == "slug" else
                        "an old address can lead to one paper only: remove it from this paper's `aliases:`")
                found.append(Diagnostic(path, _line_in(files[path], "slug" if role == "slug" else "aliases"),
                                        f"{'slug' if role == 'slug' else 'alias'} `{key}` is {owner}", hint))
        return sorted(found, key=lambda d: (str(d.path), d.line))

    def fingerprint_clashes(self, files: dict[Path, _File]) -> list[Diagnostic]:
        """A fingerprint names one imported abstract: two files with it are a copied header, and
        the file whose abstract it is keeps it (the copy is the error)."""
        found = []
        for key in self.clashing:
            def copied(claim: tuple[Path, str]) -> tuple[bool, str]:
                paper = files[claim[0]].paper
                return (not paper or fingerprint(paper.body) != key, str(claim[0]))
            (first, _), *others = sorted(self.owners[key], key=copied)
            found += [Diagnostic(path, _line_in(files[path], "fingerprint"),
                                 f"fingerprint `{key}` is also {first}'s",
                                 "a fingerprint identifies one imported abstract: delete this line "
                                 "if you copied it, or delete the paper if it is the same one")
                      for path, _ in others]
        return sorted(found, key=lambda d: (str(d.path), d.line))


def _line_in(file: _File, key: str) -> int:
    return yamltext.line_of(file.source.lines, (key,)) or 1 if file.source else 1


def _slugs_of(paper: Paper | None) -> list[tuple[str, str]]:
    return [(paper.slug, "slug"), *((alias, "alias") for alias in paper.aliases)] if paper else []


def _fingerprint_of(paper: Paper | None) -> list[tuple[str, str]]:
    return [(paper.fingerprint, "fingerprint")] if paper and paper.fingerprint else []


def _published_tags(ledger: Path, report: Report) -> frozenset[str]:
    """The ids of every tag page the ledger says was published."""
    try:
        return frozenset(ids(read_ledger(ledger), "tags"))
    except ContentError as error:
        report.extend(error.diagnostics)
        return frozenset()


def _signature(path: Path) -> tuple:
    """Cheap identity of a file's content: a save by atomic rename changes the inode."""
    try:
        stat = path.stat()
    except OSError:
        return ()
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def _validate(source: PageSource, vocabulary: Vocabulary | None, report: Report) -> Paper | None:
    meta, path = source.meta, source.path
    errors_before = len(report.errors)
    _check_keys(source, report)
    venue = _venue(source, vocabulary, report) if isinstance(meta.get("venue"), str) else None
    _check_slugs(source, report)
    _check_lists_of_strings(source, report)
    _check_values(source, report)
    if vocabulary and isinstance(meta.get("tags"), list):
        _check_tags(source, vocabulary, report)
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


def _venue(source: PageSource, vocabulary: Vocabulary | None, report: Report) -> Venue | None:
    """The venue named, as content/venues.yaml describes it; None (reported) if it is not there."""
    text = source.meta["venue"]
    parsed = Venue.parse(text)
    if parsed is None:
        report.error(source.path, _line(source, "venue"), f"venue {text!r} has no year",
                     "write the conference and year, like `venue: ICML 2024`")
        return None
    if vocabulary is None:  # the venues file itself is broken, and reported
        return parsed
    known = vocabulary.venues.get(parsed.label)
    if known is None:
        report.error(source.path, _line(source, "venue"), f"unknown venue `{text.strip()}`",
                     unknown_venue_hint(parsed.label, vocabulary.venues))
    return known


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
        if not isinstance(value, str):
            continue
        if not URL_PATTERN.match(value):
            report.error(source.path, _line(source, key), f"`{key}` is not an http(s) URL: {value!r}",
                         "write the full address, starting with https://")
        elif placeholder(value):
            report.error(source.path, _line(source, key), f"`{key}` is a placeholder, not an address: {value}",
                         "write the real address, or delete the line")
    if isinstance(meta.get("url"), str) and URL_PATTERN.match(meta["url"]) and not placeholder(meta["url"]):
        _check_paper_page(source, report)
    if isinstance(meta.get("arxiv"), str) and not ARXIV_ID.match(meta["arxiv"]):
        report.error(source.path, _line(source, "arxiv"), f"`arxiv` is not an arXiv id: {meta['arxiv']!r}",
                     "write the id alone, in quotes, like `arxiv: '2406.07522'`")


def _check_paper_page(source: PageSource, report: Report) -> None:
    """`url:` is published as the paper itself: its venue page, never where a title was found."""
    url, line = source.meta["url"], _line(source, "url")
    arxiv = arxiv_id_in(url)
    if arxiv:
        report.error(source.path, line, "`url` is an arXiv address",
                     f"write `arxiv: '{arxiv}'` instead: the page then links to its abstract and PDF")
    elif not paper_page(url):
        report.error(source.path, line, f"`url` is not the paper's own page: {url}",
                     "give its OpenReview or proceedings page, or delete the line (a site that "
                     "summarises or mirrors a paper is not the paper)")


def _check_tags(source: PageSource, vocabulary: Vocabulary, report: Report) -> None:
    tags = vocabulary.taxonomy.tags
    for tag in source.meta["tags"]:
        if not isinstance(tag, str) or tag in tags:
            continue
        close = difflib.get_close_matches(tag, tags, n=1)
        if tag in vocabulary.retired_tags:
            instead = f"use `{close[0]}` if it was renamed, or take it off" if close else "take it off"
            hint = f"it was removed from content/{TAXONOMY_FILE}: {instead} this paper's tags, or restore it there"
            report.error(source.path, _line(source, "tags"), f"tag `{tag}` no longer exists", hint)
            continue
        hint = f"did you mean `{close[0]}`?" if close else "use a tag id from content/taxonomy.yaml, or add the tag there"
        report.error(source.path, _line(source, "tags"), f"unknown tag `{tag}`", hint)


class Redirect(NamedTuple):
    """A line of content/redirects.txt: an old site path, the new one (no leading slash)."""

    old: str
    new: str
    line: int


def read_redirects(content_dir: Path, report: Report) -> tuple[Redirect, ...]:
    """`content/redirects.txt`: lines `/old/path/ /new/path/`, for URLs no paper alias can keep."""
    path = content_dir / REDIRECTS_FILE
    if not path.is_file():
        return ()
    redirects = []
    for number, line in enumerate(read_lines(path), start=1):
        parts = line.split("#", 1)[0].split()
        if not parts:
            continue
        if len(parts) != 2 or not all(_SITE_PATH.fullmatch(p) and ".." not in p for p in parts):
            report.error(path, number, f"not a redirect: {line.strip()!r}",
                         "write two site paths, a folder's ending in /, like `/tags/old/ /tags/new/` "
                         "or `/feed.xml /themes/x/feed.xml`")
            continue
        redirects.append(Redirect(parts[0].lstrip("/"), parts[1].lstrip("/"), number))
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
