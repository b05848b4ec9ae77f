"""The one change set: what changed since the state a build starts from, sorted into kinds.

Watch mode makes one from the file events it sees, a build from the files whose signature
moved since the saved state (`BuildState.changes`), and a background job from the result it
hands back; `Builder.build` takes them, and each kind tells it what to redo (as Zola's
`ChangeKind` does). Watch mode looks at the kinds only to choose how to rebuild (everything
after new settings; no page after a search index alone) and what to reload:

| kind | what it is | what is redone |
|---|---|---|
| `papers` | files in content/papers/ written, added or removed | those papers read again |
| `vocabulary` | content/taxonomy.yaml | every paper checked against it again |
| `site` | venues.yaml, authors.yaml, redirects.txt, the ledger, pages/, intros/ | read again; papers checked again if the vocabulary moved |
| `settings` | the code, the build's settings, content/site.yaml | everything: nothing saved is used |
| `templates` | files in templates/ | the pages made with them |
| `static` | files in static/ | the copy in the site, and every page if a fingerprinted asset moved |
| `ready` | a background result: related papers, search, review | the pages that show it |

A change set is a value: two of them merge with `|`, and an empty one is false.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, NamedTuple

from .config import (
    AUTHORS_FILE,
    INTROS_DIR,
    PAGES_DIR,
    PAPERS_DIR,
    REDIRECTS_FILE,
    SITE_FILE,
    TAXONOMY_FILE,
    VENUES_FILE,
    SiteConfig,
)
from .files import is_editors_file

SITE_FILES = (VENUES_FILE, AUTHORS_FILE, REDIRECTS_FILE)  # content files every paper may depend on


class Ready(NamedTuple):
    """A result a background job worked out: `name` (related papers, review…), the digest of
    what it was worked out from, and the value."""

    name: str
    key: bytes
    value: Any


@dataclass(frozen=True)
class ChangeSet:
    """What changed, by kind (see the module's table)."""

    papers: frozenset[Path] = frozenset()
    vocabulary: bool = False
    site: frozenset[Path] = frozenset()
    settings: bool = False
    templates: frozenset[Path] = frozenset()
    static: frozenset[Path] = frozenset()
    ready: tuple[Ready, ...] = field(default=(), compare=False)

    @classmethod
    def everything(cls) -> ChangeSet:
        """Nothing saved can be used: a first build, a `--fresh` one, new code or settings."""
        return cls(settings=True)

    @classmethod
    def of_result(cls, ready: Ready) -> ChangeSet:
        return cls(ready=(ready,))

    @classmethod
    def of_paths(cls, paths: Iterable[Path], config: SiteConfig) -> ChangeSet:
        """Each path sorted into its kind; a folder stands for every file in it, and what no
        build reads (editors' files, the raw lists in content/sources/) is left out."""
        kinds: dict[str, set[Path]] = {"papers": set(), "site": set(), "templates": set(), "static": set()}
        vocabulary = settings = False
        for path in paths:
            kind = _kind_of(Path(path), config)
            if kind == "vocabulary":
                vocabulary = True
            elif kind == "settings":
                settings = True
            elif kind:
                kinds[kind].add(Path(path))
        return cls(frozenset(kinds["papers"]), vocabulary, frozenset(kinds["site"]), settings,
                   frozenset(kinds["templates"]), frozenset(kinds["static"]))

    def __or__(self, other: ChangeSet) -> ChangeSet:
        return ChangeSet(self.papers | other.papers, self.vocabulary or other.vocabulary, self.site | other.site,
                         self.settings or other.settings, self.templates | other.templates,
                         self.static | other.static, self.ready + other.ready)

    def __bool__(self) -> bool:
        return any(getattr(self, kind.name) for kind in fields(self))

    @property
    def content(self) -> bool:
        """Whether the catalogue may have changed: content files, or everything."""
        return bool(self.papers or self.vocabulary or self.site or self.settings)

    @property
    def only_search(self) -> bool:
        """Whether all that changed is what the search index was made from (no page shows it)."""
        return bool(self.ready) and all(result.name == "search" for result in self.ready) and not replace(
            self, ready=())

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds that changed, by name (a result by its own), for what watch mode prints."""
        return tuple(kind.name for kind in fields(self) if kind.name != "ready" and getattr(self, kind.name)) + tuple(
            dict.fromkeys(result.name for result in self.ready))


def _kind_of(path: Path, config: SiteConfig) -> str:
    """The kind of change a write to `path` is, or "" for one no build reads."""
    if is_editors_file(path.name) or "__pycache__" in path.parts:
        return ""
    if config.ledger and path == config.ledger:
        return "site"
    for kind, folder in (("templates", config.templates_dir), ("static", config.static_dir)):
        if path.is_relative_to(folder):
            return kind
    if not path.is_relative_to(config.content_dir):
        return ""
    relative = path.relative_to(config.content_dir)
    if relative.parts[:1] == (PAPERS_DIR,) and len(relative.parts) <= 2:
        return "papers"
    if relative.parts[:1] in ((PAGES_DIR,), (INTROS_DIR,)):
        return "site"
    return {TAXONOMY_FILE: "vocabulary", SITE_FILE: "settings", **dict.fromkeys(SITE_FILES, "site"),
            ".": "settings"}.get(relative.as_posix(), "")
