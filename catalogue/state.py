"""The one build state: what a build knows between runs, and watch mode between rebuilds.

A build reads files, derives values from them and makes pages; the state remembers each:

- `sources`: every file read (papers, the vocabulary, the ledger, templates, static files), by
  its `files.signature`, with what reading it gave: only a file whose signature moved is read
  again, and `changes` compares them all with the disk to tell a build what moved while no
  build was looking (the `ChangeSet` watch mode gets from file events);
- `derived`: values worked out from the catalogue (related papers, the map's geometry, the
  review list's costly parts), each under the key of its arguments;
- `groups`: each page group under the key of its maker's arguments, with the files it makes,
  the addresses it publishes and the templates it was rendered with;
- `outputs`: each file written, under the key of its page and of what rendered it, with the
  links and ids it holds, the paper it is about and what went wrong rendering it (so links
  are checked and warnings reported without reading the site back);
- `files`: the site's other files (static, assets, the search index) as written, and the
  `outcome` of the last whole build.

A maker receives only its inputs, so its key is its arguments by construction: nothing is
declared twice, and nothing it reads can go unseen. Keys are `digest`s, equal for equal values
in every process, so the state one run saves serves the next: `python build.py`, watch mode
and `check` each keep theirs in the cache folder (their settings differ). Within one process,
arguments equal to the last ones (mostly the same objects) skip the digest.

The file holds a `Glance` before the state: all a build with nothing to do reads, so that it
never unpickles the whole state (the records of thousands of papers and pages) to find that out.

Everything is thrown away when the code, the Python, a library that shapes the output or the
build's settings change: `identity` names all of them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import io
import os
import pickle
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from .changeset import SITE_FILES, ChangeSet
from .config import INTROS_DIR, PAGES_DIR, PAPERS_DIR, TAXONOMY_FILE, SiteConfig
from .files import Signature, files_in, signature, write_atomic
from .report import Diagnostic

FORMAT = 2  # of the state file; raise it when a record changes shape
PACKAGE = Path(__file__).resolve().parent
LIBRARIES = ("jinja2", "markdown", "markupsafe", "latex2mathml", "nh3", "python-frontmatter", "pyyaml", "numpy",
             "scipy", "pillow", "pagefind", "pylatexenc")


def digest(value: object) -> bytes:
    """16 bytes that are the same for equal values in any process: strings, numbers, bytes,
    paths, tuples, lists, dicts (in their order) and frozen dataclasses (by the fields they
    compare, like `==`), nested in any way. A set is digested in its order, which a string's
    hash makes differ between processes: a value to digest holds tuples, not sets (a set would
    only cost a needless rebuild, never a stale page). What cannot be pickled cannot be digested."""
    stream = io.BytesIO()
    _Encoder(stream).dump(value)
    return hashlib.blake2b(stream.getbuffer(), digest_size=16).digest()


class _Reductions(dict):
    """How the digest's pickler writes a type it has no fast path for (by type: pickle looks
    here only for those, so strings, numbers and tuples never leave its C code)."""

    def __missing__(self, kind: type) -> Callable[[Any], tuple]:
        if dataclasses.is_dataclass(kind):
            self[kind] = _reduce_dataclass
        elif issubclass(kind, tuple) and hasattr(kind, "_fields"):  # a NamedTuple: as a plain tuple, in C
            self[kind] = _reduce_named_tuple
        else:
            raise KeyError(kind)  # pickle's own way
        return self[kind]


class _Encoder(pickle.Pickler):
    """Pickle as a stable encoding: no memo (whether two equal values are one object never
    changes the bytes), and a dataclass as the digest of its compared fields, left in a frozen
    one (which never changes) for the next time."""

    dispatch_table = _Reductions()

    def __init__(self, stream: io.BytesIO):
        super().__init__(stream, protocol=pickle.HIGHEST_PROTOCOL)
        self.fast = True


def _reduce_dataclass(obj: Any) -> tuple:
    return (_dataclass, (type(obj).__module__, type(obj).__qualname__, _dataclass_digest(obj)))


def _reduce_named_tuple(obj: tuple) -> tuple:
    return (type(obj), tuple(obj))


def _dataclass(*parts: object) -> None:
    """What a dataclass's digest names (never called: a digest is never unpickled)."""


def _dataclass_digest(obj: Any) -> bytes:
    known = obj.__dict__.get("_digest") if hasattr(obj, "__dict__") else None
    if known is None:
        known = digest(tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.compare))
        if obj.__dataclass_params__.frozen and hasattr(obj, "__dict__"):
            object.__setattr__(obj, "_digest", known)
    return known


class SourceRecord(NamedTuple):
    """A file as last read: its signature, what reading it gave, and what was wrong with it."""

    signature: Signature
    value: Any = None
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True)
class GroupFacts:
    """What the plan's checks, the sitemap and the summary need of a group's pages
    (`pages.checks.group_facts` makes it)."""

    files: tuple[str, ...]  # in the order of its pages
    sitemap: tuple[str, ...] = ()  # its pages a reader can land on: folders, not redirects
    published: frozenset[str] = frozenset()  # the addresses the ledger keeps
    drafts: frozenset[str] = frozenset()  # files made only for draft papers
    draft_paths: frozenset[str] = frozenset()
    redirects: int = 0  # pages that send a reader on


@dataclass(frozen=True)
class GroupRecord:
    """A page group as last made: the key of its maker's arguments, the key of the templates
    and shared context its pages were rendered with, those templates, and what the plan's
    checks need of its pages."""

    key: bytes
    rendered_with: bytes
    templates: frozenset[str]
    facts: GroupFacts


@dataclass(frozen=True)
class OutputRecord:
    """A file as last written: the key of its page and of what rendered it, its signature on
    disk (() when kept in memory only, as `check` does), the links and ids it holds, the paper
    it is the page of ("" if none) and the warnings rendering it gave."""

    key: bytes
    group: str
    signature: Signature = ()
    links: tuple[bytes, ...] = ()
    ids: frozenset[str] = frozenset()
    source: str = ""
    warnings: tuple[Diagnostic, ...] = ()


class Outcome(NamedTuple):
    """What the last whole build reported: its counts and warnings, which a build that finds
    nothing changed reports again."""

    counts: dict[str, int]
    warnings: tuple[Diagnostic, ...]


class Glance(NamedTuple):
    """What a build needs to tell that nothing changed and report the last outcome again: the
    signature of every input file and of every output file as written, and the keys of the
    derived values."""

    sources: dict[str, Signature]
    outputs: dict[str, Signature]
    derived: dict[str, bytes]
    outcome: Outcome | None

    def changes(self, config: SiteConfig) -> ChangeSet:
        """What changed on disk since (see `BuildState.changes`)."""
        return changes_since(self.sources, config)


class Derived(NamedTuple):
    """A value worked out from others, and the key of what it was worked out from."""

    key: bytes
    value: Any


@dataclass
class BuildState:
    """What a build knows between runs (see the module's docstring)."""

    identity: bytes
    sources: dict[str, SourceRecord] = field(default_factory=dict)
    derived: dict[str, Derived] = field(default_factory=dict)
    groups: dict[str, GroupRecord] = field(default_factory=dict)
    outputs: dict[str, OutputRecord] = field(default_factory=dict)
    files: dict[str, Signature] = field(default_factory=dict)
    outcome: Outcome | None = None
    recent: dict[str, tuple] = field(default_factory=dict, repr=False)  # in memory only: see `key`

    def __getstate__(self) -> dict:
        return {name: value for name, value in self.__dict__.items() if name != "recent"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, recent={})

    def key(self, name: str, function: Callable, args: tuple) -> bytes:
        """The key of `function` called with `args`, for what is known as `name`: their digest,
        or, when `args` equal the last ones given for `name` in this process, the last key."""
        recent = self.recent.get(name)
        if recent is not None and recent[0] is function and recent[1] == args:
            return recent[2]
        key = digest((function.__module__, function.__qualname__, args))
        self.recent[name] = (function, args, key)
        return key

    def derive(self, name: str, function: Callable, *args: Any) -> Any:
        """`function(*args)`, worked out again only when its key moved."""
        key = self.key(name, function, args)
        known = self.derived.get(name)
        if known is None or known.key != key:
            known = self.derived[name] = Derived(key, function(*args))
        return known.value

    def read(self, path: Path, read: Callable[[Path], tuple[Any, tuple[Diagnostic, ...]]],
             force: bool = False) -> SourceRecord:
        """The record of `path`, read again with `read` (which gives its value and diagnostics,
        and says what a missing file is) only if its signature moved, it was never read, or
        `force`."""
        now = signature(path)
        known = self.sources.get(str(path))
        if force or known is None or known.signature != now:
            value, diagnostics = read(path)
            known = self.sources[str(path)] = SourceRecord(now, value, tuple(diagnostics))
        return known

    def read_folder(self, folder: Path, read: Callable[[Path], tuple[Any, tuple[Diagnostic, ...]]]) -> dict[Path, bool]:
        """`read` every file of `folder` and its subfolders that moved (see `files_in`), in path
        order, and forget the records of those gone from it: each file, with whether it was read
        now."""
        moved = {}
        for path in sorted(files_in(folder)):
            before = self.sources.get(str(path))
            moved[path] = self.read(path, read) is not before
        inside, seen = f"{folder}{os.sep}", {str(path) for path in moved}
        for gone in [name for name in self.sources if name.startswith(inside) and name not in seen]:
            del self.sources[gone]
        return moved

    def changes(self, config: SiteConfig) -> ChangeSet:
        """What changed on disk since this state was left: every input file that is new, gone or
        not as last read. Nothing known (a first build): everything."""
        return changes_since({path: known.signature for path, known in self.sources.items()}, config)

    def output_files(self) -> dict[str, Signature]:
        """Every file of the output this state knows, with its signature as written."""
        return {**{file: record.signature for file, record in self.outputs.items()}, **self.files}

    def glance(self) -> Glance:
        return Glance({path: known.signature for path, known in self.sources.items()}, self.output_files(),
                      {name: known.key for name, known in self.derived.items()}, self.outcome)

    @classmethod
    def restore(cls, path: Path | None, identity: bytes) -> BuildState:
        """The state saved at `path` if it is for this identity; else an empty one."""
        state = _saved(path, identity, whole=True)
        return state if isinstance(state, cls) else cls(identity)

    @staticmethod
    def glance_at(path: Path | None, identity: bytes) -> Glance | None:
        """The glance at the state saved at `path` if it is for this identity, read alone."""
        glance = _saved(path, identity, whole=False)
        return glance if isinstance(glance, Glance) else None

    def save(self, path: Path | None) -> None:
        if path is not None:
            data = b"".join(pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL)
                            for part in (self.identity, self.glance(), self))
            write_atomic(path, data)


def _saved(path: Path | None, identity: bytes, whole: bool) -> Any:
    """The state (`whole`) or the glance saved at `path` if it is for `identity`; else None."""
    if path is None:
        return None
    try:
        with path.open("rb") as stream:
            if pickle.load(stream) != identity:  # read first: a stale state is never unpickled
                return None
            glance = pickle.load(stream)
            return pickle.load(stream) if whole else glance
    except Exception:  # noqa: BLE001 (none yet, an older format, or cut short: start afresh)
        return None


def changes_since(known: dict[str, Signature], config: SiteConfig) -> ChangeSet:
    """What changed on disk since the input files had these signatures: every file that is
    new, gone or not as it was. Nothing known (a first build): everything."""
    if not known:
        return ChangeSet.everything()
    found = {str(path): signature(path) for path in inputs(config)}
    moved = [Path(path) for path, now in found.items() if known.get(path) != now]
    moved += [Path(path) for path in known if path not in found]
    return ChangeSet.of_paths(moved, config)


def state_file(config: SiteConfig, mode: str) -> Path | None:
    """Where a mode (`build`, `watch`, `check`) keeps its state for an output folder: each has
    settings of its own, and a build into another folder has other files to start from."""
    if config.cache_dir is None:
        return None
    return config.cache_dir / f"state-{mode}-{digest(str(config.out_dir.absolute())).hex()[:12]}.pickle"


def identity(config: SiteConfig) -> bytes:
    """What a saved state must share with this build to be of use: the code, the Python, the
    libraries that shape the output, and the settings."""
    return digest((FORMAT, code_version(), config))


def code_version() -> str:
    """The package's own code, the Python running it and the libraries that shape the output."""
    found = hashlib.sha256(sys.version.encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".js") and "__pycache__" not in path.parts:
            found.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    for name in LIBRARIES:
        try:
            found.update(f"{name}={importlib.metadata.version(name)}".encode())
        except importlib.metadata.PackageNotFoundError:
            found.update(f"{name}=none".encode())
    return found.hexdigest()


def inputs(config: SiteConfig) -> Iterator[Path]:
    """Every file a build reads: the papers, the curator's guides and introductions, the
    vocabulary and the ledger, the templates and the static files (named as the stages that
    read them name them)."""
    yield from files_in(config.content_dir / PAPERS_DIR, recursive=False)
    yield from files_in(config.content_dir / PAGES_DIR, recursive=True)
    yield from files_in(config.content_dir / INTROS_DIR, recursive=True)
    for name in (TAXONOMY_FILE, *SITE_FILES):
        yield config.content_dir / name
    if config.ledger:
        yield config.ledger
    yield from files_in(config.templates_dir, recursive=True)
    yield from files_in(config.static_dir, recursive=True)
