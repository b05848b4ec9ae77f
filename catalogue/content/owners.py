"""Which file owns each slug, alias and fingerprint, kept up to date as files change, and the
clashes, each named on the file that should give way (a copy, not its original)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from ..report import Diagnostic, shown_path
from .model import Paper
from .source import fingerprint


class _Claim(NamedTuple):
    """A file's claim on a key, in a role: `slug`, `alias` (or `fingerprint`)."""

    path: str
    role: str


class Owners:
    """Which files claim each key (a slug or an alias; a fingerprint), and in what role, kept up
    to date per change, so finding the clashes among 10,000 files costs only the clashing keys."""

    def __init__(self) -> None:
        self.owners: dict[str, set[_Claim]] = {}
        self.clashing: set[str] = set()

    def move(self, path: str, old: list[tuple[str, str]], new: list[tuple[str, str]]) -> None:
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
        return sorted(self.owners[key], key=lambda claim: (claim.role != "slug", Path(claim.path).stem != key,
                                                           *copy_last(claim.path)))

    def slug_clashes(self, paper_of: Callable[[str], Paper | None]) -> list[Diagnostic]:
        """A paper's slug wins over another's alias (the alias is the error); between two slugs,
        the file named after the slug keeps it (a copy of `samba.md` is the error, whatever its
        name), and otherwise each file after the first in path order is the error."""
        found = []
        for key in self.clashing:
            (first, first_role), *others = self._claims(key)
            for path, role in others:
                owner = f"the slug of {shown_path(first)}" if first_role == "slug" else \
                    f"already an alias of {shown_path(first)}"
                hint = ("give one of the two papers another slug" if role == "slug" else
                        "an old address can lead to one paper only: remove it from this paper's `aliases:`")
                found.append(Diagnostic(Path(path), _line_in(paper_of(path), "slug" if role == "slug" else "aliases"),
                                        f"{'slug' if role == 'slug' else 'alias'} `{key}` is {owner}", hint))
        return sorted(found, key=lambda d: (str(d.path), d.line))

    def fingerprint_clashes(self, paper_of: Callable[[str], Paper | None]) -> list[Diagnostic]:
        """A fingerprint names one imported abstract: two files with it are a copied header, and
        the file whose abstract it is keeps it (the copy is the error)."""
        found = []
        for key in self.clashing:
            def copied(claim: _Claim) -> tuple[bool, str]:
                paper = paper_of(claim.path)
                return (not paper or fingerprint(paper.body) != key, *copy_last(claim.path))
            (first, _), *others = sorted(self.owners[key], key=copied)
            found += [Diagnostic(Path(path), _line_in(paper_of(path), "fingerprint"),
                                 f"fingerprint `{key}` is also {shown_path(first)}'s",
                                 "a fingerprint identifies one imported abstract: delete this line "
                                 "if you copied it, or delete the paper if it is the same one")
                      for path, _ in others]
        return sorted(found, key=lambda d: (str(d.path), d.line))


def copy_last(path: Path | str) -> tuple[str, str]:
    """Of two files otherwise alike, the original first: a copy's name is the original's and more
    (`ltvs-copy.md`, `ltvs-2.md` after `ltvs.md`), where plain path order would put it first."""
    return Path(path).stem, str(path)


def _line_in(paper: Paper | None, key: str) -> int:
    return paper.line_of(key) if paper else 1


def slugs_of(paper: Paper | None) -> list[tuple[str, str]]:
    return [(paper.slug, "slug"), *((alias, "alias") for alias in paper.aliases)] if paper else []


def fingerprint_of(paper: Paper | None) -> list[tuple[str, str]]:
    return [(paper.fingerprint, "fingerprint")] if paper and paper.fingerprint else []
