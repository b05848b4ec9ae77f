"""Citation keys as Google Scholar writes them (`ding2024longrope`), one per paper of the
catalogue.

A key is the first author's family name, the venue's year and the title's first significant
word, in lower-case ASCII letters and digits; a paper without authors is `longrope2024` (its
title's word, then the year: no `anonymous` that would set it beside every other). A key is
never taken twice: where papers would share one, the first to join the catalogue (its
`added` date, then its slug) keeps it bare, and each later one takes the next free suffix:
`b`, `c`, … (the bare key reads as the `a`). A paper added later is later in this order, so
it never moves a key already published; only editing a paper's first author, year or title,
or removing the paper that held the bare key, changes a key.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from string import ascii_lowercase

from ..text import plain_text
from .model import Paper
from .names import split_name

# The words a key skips at a title's start, as Google Scholar does: `How Powerful are…` → powerful.
_MINOR_WORDS = frozenset({"a", "an", "the", "on", "of", "in", "for", "to", "at", "by", "and", "or", "with",
                          "from", "into", "is", "are", "do", "does", "can", "how", "what", "why", "when", "which"})

# Latin letters of their own, which no decomposition brings to ASCII, as their languages spell them.
SPELLED = {"Æ": "AE", "æ": "ae", "Ð": "D", "ð": "d", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i",
           "Ł": "L", "ł": "l", "Ŋ": "Ng", "ŋ": "ng", "Ø": "O", "ø": "o", "Œ": "OE", "œ": "oe", "ß": "ss",
           "Þ": "Th", "þ": "th"}
_SPELLING = str.maketrans(SPELLED)


def cite_keys(papers: Iterable[Paper]) -> dict[str, str]:
    """slug → key for these papers (all of the catalogue's, withdrawn ones too, or a key could
    be taken twice), each unique: the first to join keeps the bare key, later ones a suffix."""
    keys: dict[str, str] = {}
    taken: set[str] = set()
    for paper in sorted(papers, key=lambda p: (p.added, p.slug)):
        base = own_key(paper)
        key = next(candidate for n in range(len(taken) + 1)
                   if (candidate := base + _suffix(n)) not in taken)
        taken.add(key)
        keys[paper.slug] = key
    return keys


def own_key(paper: Paper) -> str:
    """The paper's key before any suffix: `ding2024longrope`, or `longrope2024` without authors."""
    return _own_key(paper.authors[0] if paper.authors else "", paper.venue.year, paper.title, paper.slug)


@functools.lru_cache(maxsize=65536)  # every build keys every paper: most are keyed as before
def _own_key(first_author: str, year: int, title: str, slug: str) -> str:
    family = "".join(re.findall("[a-z]+", _ascii(split_name(first_author).family)))
    word = _first_significant(re.findall("[a-z0-9]+", _ascii(plain_text(title)))) or slug.split("-")[0]
    return f"{family}{year}{word}" if family else f"{word}{year}"


def title_word(title: str) -> str:
    """The title's first significant word as written: `RetroInText` (of `RetroInText: A…`)."""
    return _first_significant(re.findall(r"[^\W_]+", plain_text(title)))


def _first_significant(words: list[str]) -> str:
    """The first word that is not a minor one (else the first); `Self-Attention` is two words,
    as Scholar reads it."""
    return next((word for word in words if word.lower() not in _MINOR_WORDS), words[0] if words else "")


def _ascii(text: str) -> str:
    """Lower-case ASCII with the accents dropped: `Yüce` → `yuce`, `Sørensen` → `sorensen`; what
    has no ASCII form goes."""
    return unicodedata.normalize("NFKD", text.translate(_SPELLING)).encode("ascii", "ignore").decode().lower()


def _suffix(n: int) -> str:
    """'' for the first paper of a key, then `b`, `c`, … `z`, `ba`, `bb`, …"""
    letters = ""
    while n:
        n, rest = divmod(n, len(ascii_lowercase))
        letters = ascii_lowercase[rest] + letters
    return letters
