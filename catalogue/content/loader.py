"""content/ → a validated Catalogue, incrementally: a reload re-reads only the files that
changed, and hands on what changed as the next revision's `Changes`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .. import urls
from ..ledger import read_ledger
from ..report import ContentError, Diagnostic, Report
from . import yamltext
from .changes import PaperChange
from .model import Catalogue, Paper, Taxonomy
from .paperlinks import unversioned
from .people import AUTHORS_FILE, author_redirects, load_author_names
from .redirects import read_redirects
from .schema import Vocabulary, validate
from .source import (
    PAPERS_DIR,
    PageSource,
    fingerprint,
    is_editors_file,
    is_paper_file,
    paper_files,
    papers_folder,
    read_source,
    stray,
)
from .taxonomy import TAXONOMY_FILE, load_taxonomy
from .venues import VENUES_FILE, load_venues


def load_catalogue(content_dir: Path, report: Report, drafts: bool = False, ledger: Path | None = None) -> Catalogue:
    """Read and validate the taxonomy, the venues and every paper; raise ContentError listing all errors."""
    return ContentLoader(content_dir, ledger).load(report, drafts)


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
        self._sources: dict[str, _Read] = {}  # the vocabulary files
        self._vocabulary: Vocabulary | None = None
        self._catalogue: Catalogue | None = None
        self._made_with: tuple = ()
        self._checked_against: Vocabulary | None = None
        self._troubled: set[Path] = set()  # files with diagnostics: 10,000 files, a handful of these
        self._pending: list[PaperChange] = []
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
        for read in self._sources.values():
            report.extend(read.diagnostics)
        for path in sorted(self._troubled):
            report.extend(self._files[path].diagnostics)
        report.extend(self._slugs.slug_clashes(self._files))
        report.extend(self._fingerprints.fingerprint_clashes(self._files))
        report.extend(map(stray, sorted(self._stray)))
        redirects = read_redirects(self.content_dir, report) + (vocabulary.author_redirects if vocabulary else ())
        report.raise_if_errors()
        assert vocabulary is not None
        catalogue = self._next_catalogue(self._pending, vocabulary.taxonomy, redirects, drafts)
        self._pending = []
        return catalogue

    def _next_catalogue(self, updates: list[PaperChange], taxonomy: Taxonomy, redirects: tuple,
                        drafts: bool) -> Catalogue:
        """The last catalogue if nothing it shows changed, else its next revision; made from
        scratch after a rescan or with another vocabulary (which every stage then redoes)."""
        shown = [change for change in (_shown(update, drafts) for update in updates) if change.papers]
        last = self._catalogue
        if last and self._made_with == (taxonomy, drafts):
            if shown or redirects != last.redirects:
                self._catalogue = last.updated(shown, redirects)
        else:
            papers = [f.paper for f in self._files.values() if f.paper and (drafts or not f.paper.draft)]
            self._catalogue = Catalogue(papers, taxonomy, redirects)
        self._made_with = (taxonomy, drafts)
        return self._catalogue

    def _load_vocabulary(self) -> Vocabulary | None:
        """The taxonomy, the venues and the retired tags; the same object while none changed."""
        taxonomy = self._source(self.content_dir / TAXONOMY_FILE, lambda r: load_taxonomy(self.content_dir, r))
        venues = self._source(self.content_dir / VENUES_FILE, lambda r: load_venues(self.content_dir, r))
        names = self._source(self.content_dir / AUTHORS_FILE, lambda r: load_author_names(self.content_dir, r))
        published = self._source(self.ledger, lambda r: _published_tags(self.ledger, r)) if self.ledger else ()
        if taxonomy is None or venues is None or names is None:
            self._vocabulary = None
            return None
        retired = frozenset(set(published or ()) - set(taxonomy.tags))  # the ledger's: every mode agrees
        last = self._vocabulary
        if (not last or last.taxonomy is not taxonomy or last.venues is not venues
                or last.author_names != names or last.retired_tags != retired):
            self._vocabulary = Vocabulary(taxonomy, venues, retired, names,
                                          author_redirects(names, self.content_dir / AUTHORS_FILE))
        return self._vocabulary

    def _source(self, path: Path, read):
        """A vocabulary file read with `read(report)`, again only when it changed."""
        signature = _signature(path)
        known = self._sources.get(str(path))
        if known is None or known.signature != signature or not signature:
            scratch = Report()
            known = self._sources[str(path)] = _Read(signature, read(scratch), tuple(scratch.diagnostics))
        return known.value

    def _rescan(self, vocabulary: Vocabulary | None) -> list[PaperChange]:
        files = papers_folder(self.content_dir)
        paths = [path for path in files if is_paper_file(path)]
        self._stray = {path for path in files if not is_paper_file(path)}
        force = vocabulary is not self._checked_against
        updates = [self._read(path, vocabulary, force) for path in paths]
        updates += [self._read(gone, vocabulary) for gone in set(self._files) - set(paths)]
        self._checked_against = vocabulary
        self._catalogue = None  # a full rescan rebuilds the catalogue from scratch
        return [u for u in updates if u]

    def _refresh(self, changed: set[Path], vocabulary: Vocabulary | None) -> list[PaperChange]:
        folder = (self.content_dir / PAPERS_DIR).resolve()
        updates = []
        for path in changed:
            if path.resolve().parent != folder or is_editors_file(path.name):
                continue
            path = self.content_dir / PAPERS_DIR / path.name
            if not is_paper_file(path):
                (self._stray.add if path.exists() else self._stray.discard)(path)
            elif update := self._read(path, vocabulary):
                updates.append(update)
        return updates

    def _read(self, path: Path, vocabulary: Vocabulary | None, force: bool = False) -> PaperChange | None:
        """Re-read one file if it changed; return its change if anything did."""
        signature = _signature(path)
        previous = self._files.get(path)
        if previous and previous.signature == signature and not force:
            return None
        if not signature:
            file = None
        else:
            try:
                if not path.resolve().is_relative_to(self.content_dir.resolve()):
                    raise ContentError([Diagnostic(
                        path, 0, f"a link that points outside content/ (to {path.resolve()})",
                        "copy the file into content/papers/ instead of linking to it")])
                source = read_source(path)
                scratch = Report()
                paper = validate(source, vocabulary, scratch)
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
        return PaperChange(old, new)


class _Read(NamedTuple):
    """A vocabulary file as last read: its stat signature, what was read, what was wrong."""

    signature: tuple
    value: Any
    diagnostics: tuple


class _Claim(NamedTuple):
    """A file's claim on a key, in a role: `slug`, `alias` (or `fingerprint`)."""

    path: Path
    role: str


class _Owners:
    """Which files claim each key (a slug or an alias; a fingerprint), and in what role, kept up
    to date per change, so finding the clashes among 10,000 files costs only the clashing keys."""

    def __init__(self) -> None:
        self.owners: dict[str, set[_Claim]] = {}
        self.clashing: set[str] = set()

    def move(self, path: Path, old: list[tuple[str, str]], new: list[tuple[str, str]]) -> None:
        for key, role in old:
            claims = self.owners[key]
            claims.discard(_Claim(path, role))
            if not claims:
                del self.owners[key]
            self._recheck(key)
        for key, role in new:
            self.owners.setdefault(key, set()).add(_Claim(path, role))
            self._recheck(key)

    def _recheck(self, key: str) -> None:
        clash = len({path for path, _ in self.owners.get(key, ())}) > 1
        (self.clashing.add if clash else self.clashing.discard)(key)

    def _claims(self, key: str) -> list[_Claim]:
        return sorted(self.owners[key], key=lambda claim: (claim.role != "slug", str(claim.path)))

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
            def copied(claim: _Claim) -> tuple[bool, str]:
                paper = files[claim.path].paper
                return (not paper or fingerprint(paper.body) != key, str(claim.path))
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
        return frozenset(urls.ids(read_ledger(ledger), urls.TAGS))
    except ContentError as error:
        report.extend(error.diagnostics)
        return frozenset()


def _shown(change: PaperChange, drafts: bool) -> PaperChange:
    """The change as a catalogue without drafts sees it: a draft is no paper there."""
    def visible(paper: Paper | None) -> Paper | None:
        return paper if paper and (drafts or not paper.draft) else None
    return PaperChange(visible(change.old), visible(change.new))


def _signature(path: Path) -> tuple:
    """Cheap identity of a file's content: a save by atomic rename changes the inode."""
    try:
        stat = path.stat()
    except OSError:
        return ()
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


@dataclass
class Identities:
    """What tells the papers in `content/` apart: fingerprints, arXiv ids and DOIs (each to its
    file), and every slug taken, for the importer."""

    fingerprints: dict[str, Path] = field(default_factory=dict)
    slugs: set[str] = field(default_factory=set)
    arxiv: dict[str, Path] = field(default_factory=dict)
    doi: dict[str, Path] = field(default_factory=dict)


def read_identities(content_dir: Path, report: Report) -> Identities:
    """Fingerprints, arXiv ids, DOIs and slugs of the papers already in `content/`."""
    found = Identities()
    for path in paper_files(content_dir):
        found.slugs.add(path.stem)
        try:
            source = read_source(path)
        except ContentError as error:
            report.extend(error.diagnostics)
            continue
        for key in ("slug", "aliases"):
            value = source.meta.get(key)
            found.slugs.update(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
        merged = source.meta.get("merged")
        for value in (source.meta.get("fingerprint"), fingerprint(source.body), *(merged if isinstance(merged, list) else ())):
            if isinstance(value, str) and value:
                found.fingerprints.setdefault(value, path)
        for key, known in (("arxiv", found.arxiv), ("doi", found.doi)):
            value = source.meta.get(key)
            if isinstance(value, str) and value.strip():
                value = value.strip().lower()
                known.setdefault(unversioned(value) if key == "arxiv" else value, path)  # any version
    return found
