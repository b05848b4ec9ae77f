"""What changed in the catalogue between two of its revisions: the papers an edit touched.

Every catalogue the content stage makes has a `revision`, unique across processes. A catalogue
updated from another (after an edit in watch mode) carries the `Changes` that made it from its
predecessor: which papers were added, removed or edited, so that watch mode can make their
pages first (`Builder`). `catalogue.changes_since(revision)` answers:

- the same revision: `Changes` with no paper in it;
- the revision just before: the papers that changed;
- anything else (a first build, a full rescan after a taxonomy edit, two steps behind):
  `Changes.everything`.

This is the catalogue's own difference, paper by paper. What changed among the files a build
reads, templates and static files included, is the `ChangeSet` (catalogue/changeset.py); which
pages must be made again is the build state's to say, by their arguments (catalogue/state.py).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .model import Paper

_revisions = itertools.count(int.from_bytes(os.urandom(7), "big") << 8)  # no process starts where another did


def next_revision() -> int:
    """A revision number no catalogue has had."""
    return next(_revisions)


@dataclass(frozen=True)
class PaperChange:
    """One paper file's change: `old` None for an added paper, `new` None for a removed one."""

    old: Paper | None
    new: Paper | None

    @property
    def papers(self) -> tuple[Paper, ...]:
        return tuple(paper for paper in (self.old, self.new) if paper)


@dataclass(frozen=True)
class Changes:
    """What changed between revision `since` and the catalogue holding this value."""

    since: int
    papers: tuple[PaperChange, ...] = ()
    everything: bool = False  # not derivable from `since`: look at every paper

    @classmethod
    def all(cls) -> Changes:
        return cls(0, everything=True)

    @property
    def slugs(self) -> set[str]:
        """The slugs of every paper a change added, removed or edited (old and new slugs)."""
        return {paper.slug for change in self.papers for paper in change.papers}

    def alter(self, view: Callable[[Paper], Any]) -> bool:
        """Whether any change alters what `view` shows of a paper (an added or removed paper
        always does): `changes.alter(lambda p: p.listing)` asks whether any list moves."""
        return self.everything or any(
            change.old is None or change.new is None or view(change.old) != view(change.new)
            for change in self.papers)
