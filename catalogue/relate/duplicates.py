"""Two files that may be the same paper: the same arXiv id, DOI or abstract fingerprint, a
near-identical title, or an abstract sharing most of its word 5-grams. Each pair is found once,
with every reason, and which of the two to keep; cheap at 10,000 papers, because candidates are
only the papers that share a value, a rare title word or an uncommon 5-gram."""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from ..content.model import Paper
from ..content.owners import copy_last
from ..content.paperlinks import unversioned
from ..content.source import fingerprint

SHINGLE_WORDS = 5
NEAR_DUPLICATE = 0.5  # Jaccard similarity of word 5-grams: re-imports and light edits score far above
SAME_TITLE = 0.9  # difflib's ratio of the normalised titles: a typo, a hyphen, another subtitle case
TITLE_WORDS_SHARED = 0.5  # candidates for SAME_TITLE: titles with at least half their words in common
COMMON_SHINGLE = 50  # a 5-gram in this many abstracts is boilerplate, not a sign of a copy
_TITLE_SOURCE_RANK = {"curated": 0, "metadata": 1, "derived": 2}


@dataclass(frozen=True)
class Duplicate:
    """Two papers that may be one: `drop` (where the warning goes) and `keep` (the one with the
    curated title, else the one added first), with why they look alike."""

    keep: Paper
    drop: Paper
    reasons: tuple[str, ...]  # "same arXiv id 2406.07522", "titles 96% alike", …
    field: str  # the front-matter key of the first reason in `drop`, for the line: arxiv, title, …

    @property
    def line(self) -> int:
        if self.field == "body" or (self.field == "fingerprint" and not self.drop.fingerprint):
            return self.drop.body_start or 1
        return self.drop.line_of(self.field)

    @property
    def message(self) -> str:
        return f"maybe the same paper as {self.keep.path.name}: {'; '.join(self.reasons)}"

    @property
    def hint(self) -> str:
        return f"if they are the same paper: python build.py merge {self.keep.slug} {self.drop.slug}"


def find_duplicates(papers: Sequence[Paper]) -> list[Duplicate]:
    """Every pair of papers that may be one, once each, in the order of the files to look at."""
    found: dict[tuple[Paper, Paper], list[tuple[str, str]]] = {}
    for field, pairs in (("arxiv", same_value(papers, _arxiv, "same arXiv id {}")),
                         ("doi", same_value(papers, _doi, "same DOI {}")),
                         ("fingerprint", same_value(papers, _fingerprints, "the same abstract (fingerprint {})")),
                         ("title", near_titles(papers)), ("body", near_abstracts(papers))):
        for first, second, reason in pairs:
            found.setdefault(_ordered(first, second), []).append((field, reason))
    duplicates = [Duplicate(keep, drop, tuple(dict.fromkeys(r for _, r in reasons)), reasons[0][0])
                  for (keep, drop), reasons in ((pair, _telling(reasons)) for pair, reasons in found.items())]
    return sorted(duplicates, key=lambda d: (str(d.drop.path), str(d.keep.path)))


def _telling(reasons: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The same abstract (its fingerprint) says all that its 5-grams would."""
    fields = {field for field, _ in reasons}
    return [(field, reason) for field, reason in reasons if field != "body" or "fingerprint" not in fields]


def _ordered(first: Paper, second: Paper) -> tuple[Paper, Paper]:
    """(keep, drop), as `keeping_order` ranks them."""
    keep, drop = sorted((first, second), key=lambda paper: keeping_order(paper.title_source, paper.added, paper.path))
    return keep, drop


def keeping_order(title_source: str, added: str, path: Path | str) -> tuple:
    """Which of the files of one paper `merge` should keep, first: a curated title over a derived
    one, then the older `added`, then the name (a copy's, `x-copy` or `x-2`, sorts after `x`)."""
    return _TITLE_SOURCE_RANK.get(title_source, 0), added or "9999", *copy_last(path)


def same_value(papers: Iterable[Paper], values: Callable[[Paper], Iterable[str]],
               reason: str) -> list[tuple[Paper, Paper, str]]:
    """Pairs of papers sharing a value (`values` gives each paper's, normalised)."""
    owners: dict[str, list[Paper]] = {}
    for paper in papers:
        for value in dict.fromkeys(v for v in values(paper) if v):
            owners.setdefault(value, []).append(paper)
    return [(a, b, reason.format(value)) for value, group in owners.items() for a, b in combinations(group, 2)]


def _arxiv(paper: Paper) -> tuple[str]:
    return (unversioned(paper.arxiv),)


def _doi(paper: Paper) -> tuple[str]:
    """A `doi:` field (the schema takes the bare DOI only, `10.1145/…`); DOIs ignore case."""
    return (paper.doi.strip().lower(),)


def _fingerprints(paper: Paper) -> tuple[str, ...]:
    """The imported abstract's (the field) and the abstract's as it is now: one matching the
    other's is the same abstract, however it was copied (the same field twice is a load error)."""
    return (paper.fingerprint, fingerprint(paper.body) if paper.body.strip() else "")


def normal_title(title: str) -> str:
    """`Samba: Simple Hybrid State-Space Models` → `samba simple hybrid state space models`."""
    letters = "".join(c for c in unicodedata.normalize("NFKD", title.casefold()) if not unicodedata.combining(c))
    return " ".join(re.findall(r"[a-z0-9]+", letters))


def near_titles(papers: Sequence[Paper]) -> list[tuple[Paper, Paper, str]]:
    """Pairs whose normalised titles are at least SAME_TITLE alike, among titles that name the
    same method before their colon (`AdaKV: …` and `SnapKV: …` with one subtitle are two
    papers) and carry the same numbers (LongRoPE and LongRoPE2, Llama 2 and Llama 3)."""
    blocks: dict[tuple, list[Paper]] = {}
    for paper in papers:
        blocks.setdefault(_title_block(paper.title), []).append(paper)
    titles = {paper: normal_title(paper.title) for paper in papers}
    found = []
    for block in blocks.values():
        for first, second in _title_candidates(block, titles):
            matcher = difflib.SequenceMatcher(None, titles[first], titles[second], autojunk=False)
            if matcher.real_quick_ratio() >= SAME_TITLE and matcher.quick_ratio() >= SAME_TITLE:
                ratio = matcher.ratio()
                if ratio >= SAME_TITLE:
                    found.append((first, second, "the same title" if ratio == 1 else f"titles {ratio:.0%} alike"))
    return found


def _title_block(title: str) -> tuple[str, tuple[str, ...]]:
    """What two titles of one paper always share: the name before a colon, and the numbers."""
    name, colon, _ = title.partition(":")
    return ("".join(normal_title(name).split()) if colon else "", tuple(re.findall(r"\d+", normal_title(title))))


def _title_candidates(papers: list[Paper], titles: dict[Paper, str]) -> list[tuple[Paper, Paper]]:
    """Pairs sharing one of their rarest words (prefix filtering: two titles with at least
    TITLE_WORDS_SHARED of their words in common must share one of those), in path order; so a
    common word like `models` pairs nobody."""
    words = {paper: sorted(set(titles[paper].split())) for paper in papers}
    frequency = Counter(word for each in words.values() for word in each)
    owners: dict[str, list[Paper]] = {}
    for paper, each in words.items():
        rarest = sorted(each, key=lambda word: (frequency[word], word))
        for word in rarest[:len(rarest) - math.ceil(TITLE_WORDS_SHARED * len(rarest)) + 1]:
            owners.setdefault(word, []).append(paper)
    pairs = {tuple(sorted(pair, key=lambda p: str(p.path))) for group in owners.values()
             for pair in combinations(group, 2)}
    return sorted(pairs, key=lambda pair: (str(pair[0].path), str(pair[1].path)))


def near_abstracts(papers: Sequence[Paper]) -> list[tuple[Paper, Paper, str]]:
    """Pairs whose abstracts share most of their word 5-grams."""
    return [(a, b, f"abstracts {similarity:.0%} alike") for a, b, similarity in near_duplicates(papers)]


def near_duplicates(papers: Sequence[Paper]) -> list[tuple[Paper, Paper, float]]:
    """Pairs of papers sharing most of their word 5-grams (Jaccard ≥ NEAR_DUPLICATE), in path
    order; candidates found through shared 5-grams that are not boilerplate."""
    shingles = {paper: _shingles(paper.body) for paper in papers}
    owners: dict[int, list[Paper]] = {}
    for paper, grams in shingles.items():
        for gram in grams:
            owners.setdefault(gram, []).append(paper)
    candidates = {pair for group in owners.values() if len(group) < COMMON_SHINGLE
                  for pair in combinations(group, 2)}
    found = []
    for first, second in candidates:
        a, b = shingles[first], shingles[second]
        similarity = len(a & b) / len(a | b)
        if similarity >= NEAR_DUPLICATE:
            first, second = sorted((first, second), key=lambda p: str(p.path))
            found.append((first, second, similarity))
    return sorted(found, key=lambda f: (str(f[0].path), str(f[1].path)))


def _shingles(text: str) -> set[int]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {hash(tuple(words[i:i + SHINGLE_WORDS])) for i in range(max(1, len(words) - SHINGLE_WORDS + 1))}
