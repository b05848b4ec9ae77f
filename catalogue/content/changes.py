"""The incremental contract: what changed in the catalogue since a revision a stage last saw.

Every catalogue the content stage makes has a `revision`, unique across processes (the stages
are kept in `.cache/` and restored by the next build, see `output.cache`). A
catalogue updated from another (after a save in watch mode) also carries the `Changes` that
made it from its predecessor: which papers were added, removed or edited. A later stage
(planning, related papers, the similarity cache) remembers the revision it last worked from and
asks `catalogue.changes_since(revision)`:

- the same revision: `Changes` with no paper in it: nothing to redo;
- the revision just before: the papers that changed, so the stage redoes only what they touch;
- anything else (a first build, a full rescan after a taxonomy edit, two steps behind):
  `Changes.everything`, and the stage looks at every paper.

The vocabulary (taxonomy, venues) is not a paper change: a catalogue made with another
vocabulary is made from scratch, so it answers `everything`. Templates and static files are
not content: the renderer keys pages by the sources of their templates (see `render`).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
