"""content/ → a validated Catalogue, incrementally: a load reads only the files that moved
(the build state keeps the others as last read), and hands on what changed as the next
revision's `Changes`."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import urls
from ..config import AUTHORS_FILE, INTROS_DIR, PAGES_DIR, PAPERS_DIR, REDIRECTS_FILE, TAXONOMY_FILE, VENUES_FILE
from ..files import Signature, is_editors_file, signature
from ..ledger import read_ledger
from ..report import ContentError, Diagnostic, Report
from ..state import BuildState, SourceRecord, digest
from .catalogue import Catalogue
from .changes import PaperChange
from .handwritten import named_intros, read_guide, read_intro
from .model import Paper, Taxonomy
from .owners import Owners, fingerprint_of, slugs_of
from .paperlinks import unversioned
from .people import author_redirects, load_author_names
from .prose import Prose
from .redirects import read_redirects
from .schema import Vocabulary, validate
from .source import fingerprint, is_paper_file, paper_files, papers_folder, read_source, stray
from .taxonomy import load_taxonomy
from .venues import load_venues


def load_catalogue(content_dir: Path, report: Report, drafts: bool = False, ledger: Path | None = None) -> Catalogue:
    """Read and validate the taxonomy, the venues and every paper; raise ContentError listing all errors."""
    return ContentLoader(content_dir, ledger).load(report, drafts)


class ContentLoader:
    """Loads `content/`, reading through the build state's records of the files it read last
    (`BuildState.sources`), so a load reads only the files that moved: an edit costs the same at
    76 papers or 10,000, and a build that starts from a saved state reads no paper it has not
    seen change. A paper's record keeps the key of the vocabulary it was checked against, so a
    vocabulary edit checks every paper again, and nothing else does.

    It hands on each catalogue as the next revision of the last (`Catalogue.updated`), with
    what changed between them, made from scratch after a rescan or with another vocabulary.
    """

    def __init__(self, content_dir: Path, ledger: Path | None = None, state: BuildState | None = None):
        self.content_dir = content_dir
        self.ledger = ledger  # published-urls.txt, which remembers the tags that were published
        self.state = state or BuildState(b"")
        self._papers_dir = f"{content_dir / PAPERS_DIR}{os.sep}"
        self._vocabulary: Vocabulary | None = None
        self._checked_against = b""  # the key of `_vocabulary`
        self._catalogue: Catalogue | None = None
        self._made_with: tuple = ()
        self._pending: list[PaperChange] = []
        # What the records say, kept in step with them: the files with diagnostics (a handful of
        # 10,000), which files claim each slug and fingerprint, and the stray files.
        self._troubled: set[str] = set()
        self._slugs = Owners()
        self._fingerprints = Owners()
        self._stray: set[Path] = set()  # files in content/papers/ that are no paper file (`x.markdown`)
        self._indexed = False

    @property
    def published(self) -> dict[str, int]:
        """The ledger as last read: each published address, with its line."""
        record = self.state.sources.get(str(self.ledger)) if self.ledger else None
        return record.value[0] if record and record.value else {}

    def reread_ledger(self) -> None:
        """Read the ledger again, as a build that wrote it left it."""
        if self.ledger:
            self._load_vocabulary()

    def load(self, report: Report, drafts: bool = False, papers: Iterable[Path] = (),
             rescan: bool = True) -> Catalogue:
        """Validate everything (drafts too); the catalogue holds drafts only if asked. With
        `rescan`, every paper file is looked at; else only `papers`, those that changed."""
        vocabulary = self._load_vocabulary()
        if not self._indexed:
            self._index_records()
        rescan = rescan or self._checked_against != (digest(vocabulary) if vocabulary else b"")
        # Changes are kept until a load succeeds: a failed load must not lose them.
        self._pending += self._rescan(vocabulary) if rescan else self._refresh(papers, vocabulary)
        content = self.content_dir
        redirects = self._source(content / REDIRECTS_FILE, lambda r: read_redirects(content, r))
        prose = self._prose(vocabulary, report)
        self._report(report)
        redirects += vocabulary.author_redirects if vocabulary else ()
        report.raise_if_errors()
        assert vocabulary is not None
        catalogue = self._next_catalogue(self._pending, vocabulary.taxonomy, redirects, prose, drafts)
        self._pending = []
        return catalogue

    def _report(self, report: Report) -> None:
        for path in self._vocabulary_files():
            report.extend(self.state.sources[str(path)].diagnostics)
        for path in sorted(self._troubled):
            report.extend(self.state.sources[path].diagnostics)
        report.extend(self._slugs.slug_clashes(self._paper_of))
        report.extend(self._fingerprints.fingerprint_clashes(self._paper_of))
        report.extend(map(stray, sorted(self._stray)))

    def _next_catalogue(self, updates: list[PaperChange], taxonomy: Taxonomy, redirects: tuple, prose: Prose,
                        drafts: bool) -> Catalogue:
        """The last catalogue if nothing it shows changed, else its next revision; made from
        scratch after a rescan or with another vocabulary (which every stage then redoes)."""
        shown = [change for change in (_shown(update, drafts) for update in updates) if change.papers]
        last = self._catalogue
        if last and self._made_with == (taxonomy, drafts):
            if shown or redirects != last.redirects or prose != last.prose:
                self._catalogue = last.updated(shown, redirects, prose)
        else:
            papers = [paper for paper in map(self._paper_of, self._paper_paths()) if paper]
            self._catalogue = Catalogue([p for p in papers if drafts or not p.draft], taxonomy, redirects, prose)
        self._made_with = (taxonomy, drafts)
        return self._catalogue

    def _vocabulary_files(self) -> list[Path]:
        """The files besides the papers: the vocabulary, the redirects and the ledger."""
        files = [self.content_dir / name for name in (TAXONOMY_FILE, VENUES_FILE, AUTHORS_FILE, REDIRECTS_FILE)]
        return files + ([self.ledger] if self.ledger else [])

    def _load_vocabulary(self) -> Vocabulary | None:
        """The taxonomy, the venues and the retired tags; the same object while none changed."""
        content = self.content_dir
        taxonomy = self._source(content / TAXONOMY_FILE, lambda r: load_taxonomy(content, r))
        venues = self._source(content / VENUES_FILE, lambda r: load_venues(content, r))
        names = self._source(content / AUTHORS_FILE, lambda r: load_author_names(content, r))
        published = self._source(self.ledger, lambda r: _ledger(self.ledger, r)) if self.ledger else ({}, ())
        if taxonomy is None or venues is None or names is None:
            self._vocabulary = None
            return None
        retired = frozenset(set(published[1]) - set(taxonomy.tags))  # the ledger's: every mode agrees
        last = self._vocabulary
        if (not last or last.taxonomy is not taxonomy or last.venues is not venues
                or last.author_names != names or last.retired_tags != retired):
            self._vocabulary = Vocabulary(taxonomy, venues, retired, names, author_redirects(names, content / AUTHORS_FILE))
        return self._vocabulary

    def _prose(self, vocabulary: Vocabulary | None, report: Report) -> Prose:
        """The guides and introductions, each file read again only when it moved."""
        guides = self._folder(self.content_dir / PAGES_DIR, read_guide, report, nested=False)
        intros = self._folder(self.content_dir / INTROS_DIR, read_intro, report, nested=True)
        if vocabulary is None:
            return Prose()
        named = named_intros(intros, self.content_dir, vocabulary.taxonomy, list(vocabulary.venues.values()), report)
        first: dict[str, Path] = {}  # slug → the file that has it (files in path order)
        for path, guide in guides.items():
            owner = first.setdefault(guide.slug, path)
            if owner != path:
                report.error(path, 1, f"{owner.name} has the slug `{guide.slug}` already",
                             "give this page another file name (or `slug:`)")
        return Prose(tuple(sorted(guides.values(), key=lambda guide: (guide.title.casefold(), guide.slug))), named)

    def _folder(self, folder: Path, read: Callable[[Path], tuple[Any, tuple]], report: Report,
                nested: bool) -> dict[Path, Any]:
        """Each Markdown file of `folder` (and, if `nested`, of its folders) as `read` gives it,
        read again only when it moved; any other file is named, never skipped quietly."""
        def markdown(path: Path) -> tuple[Any, tuple]:
            if not nested and path.parent != folder:
                return None, (Diagnostic(path, 0, f"not read: a page in a folder inside {folder.name}/",
                                         f"move it up into {folder}/"),)
            if path.suffix != ".md":
                return None, (Diagnostic(path, 0, "not read: only `.md` files are read here",
                                         f"rename it to `{path.stem}.md`, or move it out of {folder}/"),)
            return read(path)
        found = {}
        for path in self.state.read_folder(folder, markdown):
            record = self.state.sources[str(path)]
            report.extend(record.diagnostics)
            if record.value is not None:
                found[path] = record.value
        return found

    def _source(self, path: Path, read: Callable[[Report], Any]) -> Any:
        """A vocabulary file read with `read(report)`, again only when it moved (or is missing,
        which `read` reports)."""
        def reading(_: Path) -> tuple[Any, tuple]:
            scratch = Report()
            return read(scratch), tuple(scratch.diagnostics)
        return self.state.read(path, reading, force=not signature(path)).value

    def _index_records(self) -> None:
        """What the records say of the papers, for a state made by another process."""
        for path in self._paper_paths():
            record = self.state.sources[path]
            paper = record.value[1] if record.value else None
            (self._troubled.add if record.diagnostics else self._troubled.discard)(path)
            self._slugs.move(path, [], slugs_of(paper))
            self._fingerprints.move(path, [], fingerprint_of(paper))
        self._indexed = True

    def _paper_paths(self) -> list[str]:
        return [path for path in self.state.sources if path.startswith(self._papers_dir)]

    def _paper_of(self, path: str) -> Paper | None:
        """The paper a paper file's record holds, or None if the file is not a valid paper."""
        record = self.state.sources.get(path)
        return record.value[1] if record and record.value else None

    def _rescan(self, vocabulary: Vocabulary | None) -> list[PaperChange]:
        files = papers_folder(self.content_dir)
        paths = [path for path in files if is_paper_file(path)]
        self._stray = {path for path in files if not is_paper_file(path)}
        key = digest(vocabulary) if vocabulary else b""
        updates = [self._read(path, vocabulary, key) for path in paths]
        listed = set(map(str, paths))
        updates += [self._read(Path(gone), vocabulary, key) for gone in self._paper_paths() if gone not in listed]
        self._checked_against = key
        self._catalogue = None  # a full rescan makes the catalogue from scratch
        return [u for u in updates if u]

    def _refresh(self, changed: Iterable[Path], vocabulary: Vocabulary | None) -> list[PaperChange]:
        folder = (self.content_dir / PAPERS_DIR).resolve()
        updates = []
        for path in changed:
            if path.resolve().parent != folder or is_editors_file(path.name):
                continue
            path = self.content_dir / PAPERS_DIR / path.name
            if not is_paper_file(path):
                (self._stray.add if path.exists() else self._stray.discard)(path)
            elif update := self._read(path, vocabulary, self._checked_against):
                updates.append(update)
        return updates

    def _read(self, path: Path, vocabulary: Vocabulary | None, key: bytes) -> PaperChange | None:
        """Read one paper file again if it moved, or was checked against another vocabulary;
        return its change, if anything did."""
        name = str(path)
        previous = self.state.sources.get(name)
        now = signature(path)
        if previous and previous.signature == now and previous.value and previous.value[0] == key:
            return None
        old = previous.value[1] if previous and previous.value else None
        if now:
            self.state.sources[name] = _read_paper(path, now, self.content_dir, vocabulary, key)
        else:
            self.state.sources.pop(name, None)
        record = self.state.sources.get(name)
        new = record.value[1] if record and record.value else None
        (self._troubled.add if record and record.diagnostics else self._troubled.discard)(name)
        self._slugs.move(name, slugs_of(old), slugs_of(new))
        self._fingerprints.move(name, fingerprint_of(old), fingerprint_of(new))
        return PaperChange(old, new)


def _read_paper(path: Path, now: Signature, content_dir: Path, vocabulary: Vocabulary | None,
                key: bytes) -> SourceRecord:
    """A paper file's record: (the vocabulary's key, the paper or None) and its diagnostics."""
    try:
        if not path.resolve().is_relative_to(content_dir.resolve()):
            raise ContentError([Diagnostic(
                path, 0, f"a link that points outside content/ (to {path.resolve()})",
                "copy the file into content/papers/ instead of linking to it")])
        scratch = Report()
        paper = validate(read_source(path), vocabulary, scratch)
        return SourceRecord(now, (key, paper), tuple(scratch.diagnostics))
    except ContentError as error:
        return SourceRecord(now, (key, None), tuple(error.diagnostics))


def _ledger(ledger: Path, report: Report) -> tuple[dict[str, int], frozenset[str]]:
    """The ledger's addresses (each with its line), and the ids of the tag pages among them."""
    try:
        paths = read_ledger(ledger)
    except ContentError as error:
        report.extend(error.diagnostics)
        return {}, frozenset()
    return paths, frozenset(urls.ids(paths, urls.TAGS))


def _shown(change: PaperChange, drafts: bool) -> PaperChange:
    """The change as a catalogue without drafts sees it: a draft is no paper there."""
    def visible(paper: Paper | None) -> Paper | None:
        return paper if paper and (drafts or not paper.draft) else None
    return PaperChange(visible(change.old), visible(change.new))


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
