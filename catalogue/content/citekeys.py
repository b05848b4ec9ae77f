"""Citation keys as Google Scholar writes them (`ding2024longrope`), one per paper of the
catalogue.

A key is the first author's family name, the venue's year and the title's first significant
word, in lower-case ASCII letters and digits; a paper without authors is `longrope2024` (its
title's word, then the year: no `anonymous` that would set it beside every other). A key is
never taken twice: where papers would share one, the first to join the catalogue (its
`added` date, then its slug) keeps it bare, and each later one takes the next free suffix:
`b`, `c`, … (the bare key reads as the `a`). A paper added later is later in this order, so
it never moves a key already published; editing a paper's first author, year or title changes
its key, and may move the suffix of a later paper that shared its old key or shares its new
one, as removing the paper that held a bare key does.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from string import ascii_lowercase

from ..text import plain_text
from .model import Paper
from .names import ascii_folded, split_name

# The words a key skips at a title's start, as Google Scholar does: `How Powerful are…` → powerful.
_MINOR_WORDS = frozenset({"a", "an", "the", "on", "of", "in", "for", "to", "at", "by", "and", "or", "with",
                          "from", "into", "is", "are", "do", "does", "can", "how", "what", "why", "when", "which"})



def cite_keys(papers: Iterable[Paper]) -> dict[str, str]:
    """slug → key for these papers (all of the catalogue's, withdrawn ones too, or a key could
    be taken twice), each unique: the first to join keeps the bare key, later ones a suffix."""
    keys: dict[str, str] = {}
    taken: set[str] = set()
    for paper in sorted(papers, key=_joined):
        base = own_key(paper)
        key = next(candidate for n in range(len(taken) + 1)
                   if (candidate := base + _suffix(n)) not in taken)
        taken.add(key)
        keys[paper.slug] = key
    return keys


def _joined(paper: Paper) -> tuple:
    """When a paper joined the published catalogue: drafts after every published paper (a preview
    must give published papers their published keys); a paper without `added` (the importer
    always writes it) before the dated ones."""
    return (paper.draft, paper.added, paper.slug)


def own_key(paper: Paper) -> str:
    """The paper's key before any suffix: `ding2024longrope`, or `longrope2024` without authors."""
    return _own_key(paper.authors[0] if paper.authors else "", paper.venue.year, paper.title, paper.slug)


@functools.lru_cache(maxsize=65536)  # every build keys every paper: most are keyed as before
def _own_key(first_author: str, year: int, title: str, slug: str) -> str:
    family = "".join(re.findall("[a-z]+", ascii_folded(split_name(first_author).family)))
    word = _first_significant(re.findall("[a-z0-9]+", ascii_folded(plain_text(title)))) or slug.split("-")[0]
    return f"{family}{year}{word}" if family else f"{word}{year}"


def title_word(title: str) -> str:
    """The title's first significant word as written: `RetroInText` (of `RetroInText: A…`)."""
    return _first_significant(re.findall(r"[^\W_]+", plain_text(title)))


def _first_significant(words: list[str]) -> str:
    """The first word that is not a minor one (else the first); `Self-Attention` is two words,
    as Scholar reads it."""
    return next((word for word in words if word.lower() not in _MINOR_WORDS), words[0] if words else "")


def _suffix(n: int) -> str:
    """'' for the first paper of a key, then `b`, `c`, … `z`, `ba`, `bb`, …"""
    letters = ""
    while n:
        n, rest = divmod(n, len(ascii_lowercase))
        letters = ascii_lowercase[rest] + letters
    return letters
