"""Which papers resemble each other: related papers and the topic map, from their abstracts.

Each paper is a TF-IDF vector of its abstract's words joined to a smaller vector of its tags, so
two papers are close when they use the same uncommon words, and closer still when a curator
gave them the same tags. Related papers are the nearest vectors (cosine); the topic map places
each paper by the first two principal components. Sparse matrices keep both to seconds at
10,000 papers: the similarities are computed a block of rows at a time, never all pairs at once.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from scipy import sparse

from ..content.catalogue import Catalogue
from ..content.model import Paper
from .candidates import CANDIDATES_FROM, nearest_by_candidates, nearest_of_all

RELATED_COUNT = 5
MIN_SCORE = 0.08  # below this, "related" would be noise
TAG_WEIGHT = 0.8  # the tags' share of a paper's vector, against 1 for its words
REASON_WORDS = 3
WORDS_PER_PAPER = 40  # a paper's most telling words; dropping its common ones keeps the products sparse

# Words, and what is not prose (math, addresses, TeX commands, link targets) so it can be skipped.
_TOKEN = re.compile(r"\$[^$]*\$|https?://\S+|\\[a-z]+|\]\([^)]*\)|[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_STOPWORDS = frozenset("""
a about above across after again against all almost along also although always am among an and
another any are around as at be because been before being below between both but by can cannot
could did do does doing done down during each either enough even ever every few for from further
had has have having here how however if in into is it its itself just least less like made make
makes many may more most much must near neither no nor not now of off often on once one only onto
or other others our out over own per perhaps rather same several should since so some such than
that the their them themselves then there therefore these they this those though through thus to
together too toward towards under until up upon us use used uses using very via was we well were
what when where whether which while who whose why will with within without would yet you your
able across achieve achieves achieving address addresses allow allows approach approaches based
benchmark benchmarks better compared demonstrate demonstrates effective effectively existing
experiments extensive finally first furthermore good great help high however improve improved
improves improving introduce introduces key large leading limited llm llms main method methods
model models new novel often paper performance present problem propose proposed proposes provide
provides recent recently remains respectively result results second show shown shows significant
significantly simple state strong studies study task tasks three two various wide work works
abilities ability addressing architecture architectures capabilities capability enhance enhances
exhibit exhibits framework frameworks implement learn learning low pre-trained scenarios
state-of-the-art
""".split())


class Related(NamedTuple):
    """A paper like another, and why: the tags they share and, failing those, shared words.
    (A tuple, so that comparing 10,000 lists after a recomputation is quick.)"""

    slug: str
    tags: tuple[str, ...]
    words: tuple[str, ...]


@dataclass(frozen=True)
class Similarity:
    """Related papers (nearest first), map positions in [0, 1]², and the tags they were
    computed from (which colour the map), by paper slug."""

    related: dict[str, tuple[Related, ...]] = field(default_factory=dict)
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)
    seconds: float = field(default=0.0, compare=False)

    @functools.cached_property
    def listed_by(self) -> dict[str, tuple[str, ...]]:
        """slug → the papers whose related lists show it (whose pages show its title)."""
        listed: dict[str, list[str]] = {}
        for slug, related in self.related.items():
            for other in related:
                listed.setdefault(other.slug, []).append(slug)
        return {slug: tuple(slugs) for slug, slugs in listed.items()}


NOTHING = Similarity()  # before the first computation: no related papers, an empty map


class Text(NamedTuple):
    """What similarity reads of a paper; cheap to send to another process."""

    slug: str
    tags: tuple[str, ...]
    body: str


def compute(papers: list[Paper] | list[Text], vocabulary: Vocabulary | None = None) -> Similarity:
    """Related papers and map positions for `papers` (any order: the result does not depend on it).

    A `vocabulary` kept from the last call saves reading the abstracts that did not change.
    """
    started = time.perf_counter()
    papers = sorted(papers, key=lambda p: p.slug)
    tags = {p.slug: p.tags for p in papers}
    if len(papers) < 2:
        return Similarity({p.slug: () for p in papers}, {p.slug: (0.5, 0.5) for p in papers}, tags)
    vocabulary = vocabulary or Vocabulary()
    words, columns = _word_matrix(papers, vocabulary)
    vocabulary.keep_only({p.body for p in papers})
    tags_of = _tag_matrix(papers)
    vectors = _normalise(sparse.hstack([words, TAG_WEIGHT * _normalise(tags_of)], format="csr"))
    related = _related(papers, vectors, words, tags_of, columns)
    positions = _positions(papers, vectors)
    return Similarity(related, positions, tags, time.perf_counter() - started)


def terms(text: str) -> list[str]:
    """The words of an abstract that can tell it apart: lower case, no math, links or stop words."""
    return [w for w in _TOKEN.findall(text.lower())
            if len(w) > 2 and w[0].isalpha() and w not in _STOPWORDS and not w.startswith("http")]


class Vocabulary:
    """Numbers each word once and remembers each abstract's counted words, so that after an
    edit only the edited abstract is read again."""

    def __init__(self) -> None:
        self.words: list[str] = []
        self._ids: dict[str, int] = {}
        self._counted: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def counted(self, body: str) -> tuple[np.ndarray, np.ndarray]:
        """The ids of the abstract's words, and how often each occurs."""
        found = self._counted.get(body)
        if found is None:
            count = Counter(terms(body))
            ids = np.fromiter((self._id(w) for w in count), dtype=np.int64, count=len(count))
            found = (ids, np.fromiter(count.values(), dtype=np.float32, count=len(count)))
            self._counted[body] = found
        return found

    def keep_only(self, bodies: set[str]) -> None:
        """Forget abstracts no longer in the catalogue, and once most numbered words are dead
        (half-typed words saved in a long watch session), number the living ones afresh."""
        self._counted = {body: self._counted[body] for body in bodies}
        living = np.unique(np.concatenate([ids for ids, _ in self._counted.values()] or [np.zeros(0, np.int64)]))
        if len(self.words) > 2 * len(living) + 1000:
            renumber = np.full(len(self.words), -1)
            renumber[living] = np.arange(len(living))
            self.words = [self.words[i] for i in living]
            self._ids = {word: index for index, word in enumerate(self.words)}
            self._counted = {body: (renumber[ids], counts) for body, (ids, counts) in self._counted.items()}

    def _id(self, word: str) -> int:
        if word not in self._ids:
            self._ids[word] = len(self.words)
            self.words.append(word)
        return self._ids[word]


def _word_matrix(papers: list[Paper], vocabulary: Vocabulary) -> tuple[sparse.csr_matrix, list[str]]:
    """TF-IDF rows of unit length: each paper's WORDS_PER_PAPER weightiest words among those
    found in at least two abstracts. Columns are in alphabetical order, whatever order the
    vocabulary met the words in, so the result never depends on the history of edits."""
    counted = [vocabulary.counted(p.body) for p in papers]
    ids = np.concatenate([c[0] for c in counted])
    counts = np.concatenate([c[1] for c in counted])
    rows = np.repeat(np.arange(len(papers)), [len(c[0]) for c in counted])
    frequency = np.bincount(ids, minlength=len(vocabulary.words))
    kept = np.flatnonzero(frequency >= 2)
    kept = kept[np.argsort(np.array(vocabulary.words, dtype=object)[kept], kind="stable")]
    column_of = np.full(len(vocabulary.words), -1)
    column_of[kept] = np.arange(len(kept))
    inside = column_of[ids] >= 0
    rows, cols, counts = rows[inside], column_of[ids[inside]], counts[inside]
    idf = np.log((1 + len(papers)) / (1 + frequency[kept])) + 1
    weights = ((1 + np.log(counts)) * idf[cols]).astype(np.float32)
    order = np.lexsort((cols, -weights, rows))  # each row's weightiest words first
    rows, cols, weights = rows[order], cols[order], weights[order]
    rank = np.arange(len(rows)) - np.searchsorted(rows, rows)
    best = rank < WORDS_PER_PAPER
    matrix = sparse.csr_matrix((weights[best], (rows[best], cols[best])), shape=(len(papers), len(kept)))
    return _normalise(matrix), [vocabulary.words[i] for i in kept]


def _tag_matrix(papers: list[Paper]) -> sparse.csr_matrix:
    """Each paper's tags, weighted by the square of how rare they are (their IDF): two of the
    few state-space papers have more in common than two of the many on efficient inference,
    and a shared method family outweighs a shared broad subject."""
    frequency = Counter(t for p in papers for t in p.tags)
    tags = sorted(frequency)
    column = {tag: index for index, tag in enumerate(tags)}
    rows = [row for row, p in enumerate(papers) for _ in p.tags]
    cols = [column[t] for p in papers for t in p.tags]
    weights = [(np.log((1 + len(papers)) / (1 + frequency[t])) + 1) ** 2 for p in papers for t in p.tags]
    return sparse.csr_matrix((np.array(weights, dtype=np.float32), (rows, cols)), shape=(len(papers), len(tags)))


def _normalise(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    lengths = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    lengths[lengths == 0] = 1
    return sparse.csr_matrix(sparse.diags(1 / lengths).astype(np.float32) @ matrix)


def _related(papers: list[Paper], vectors: sparse.csr_matrix, words: sparse.csr_matrix, tags: sparse.csr_matrix,
             vocabulary: list[str]) -> dict[str, tuple[Related, ...]]:
    """The RELATED_COUNT nearest papers of each: compared with every paper, or in a large
    catalogue with its candidates (see `_nearest_candidates`)."""
    count = len(papers)
    keep = min(RELATED_COUNT, count - 1)
    rows = _RowWeights(words, vocabulary)
    nearest = nearest_by_candidates(vectors, tags, keep, MIN_SCORE) if count > CANDIDATES_FROM \
        else nearest_of_all(vectors, keep, MIN_SCORE)
    return {papers[index].slug: tuple(_reason(papers[index], papers[other], rows, index, other) for other in others)
            for index, others in nearest}


class _RowWeights:
    """Each paper's words with their weights, as a dict, made when first asked for."""

    def __init__(self, words: sparse.csr_matrix, vocabulary: list[str]):
        self.words, self.vocabulary = words, vocabulary
        self._rows: dict[int, dict[str, float]] = {}

    def __getitem__(self, index: int) -> dict[str, float]:
        if index not in self._rows:
            start, end = self.words.indptr[index], self.words.indptr[index + 1]
            self._rows[index] = dict(zip([self.vocabulary[c] for c in self.words.indices[start:end]],
                                         self.words.data[start:end].tolist()))
        return self._rows[index]


def _reason(paper: Paper, other: Paper, rows: _RowWeights, index: int, other_index: int) -> Related:
    """Shared tags, and the shared words that weigh most when fewer than two tags are shared."""
    shared_tags = tuple(t for t in paper.tags if t in other.tags)
    if len(shared_tags) >= 2:
        return Related(other.slug, shared_tags, ())
    mine, theirs = rows[index], rows[other_index]
    shared = sorted(mine.keys() & theirs.keys(), key=lambda w: (-round(mine[w] * theirs[w], 6), w))
    chosen: list[str] = []
    for word in shared:
        if not any(word[:5] == earlier[:5] for earlier in chosen):  # not "extended" after "extension"
            chosen.append(word)
            if len(chosen) == REASON_WORDS:
                break
    return Related(other.slug, shared_tags, tuple(chosen))


def _positions(papers: list[Paper], vectors: sparse.csr_matrix) -> dict[str, tuple[float, float]]:
    """The papers' first two principal components, scaled into [0, 1] (outliers clamped)."""
    if len(papers) < 4:
        step = 1 / (len(papers) + 1)
        return {p.slug: (step * (i + 1), 0.5) for i, p in enumerate(papers)}
    coordinates = _principal_components(vectors, 2)
    for axis in range(2):  # a component's sign is arbitrary: make its heaviest end positive
        column = coordinates[:, axis]
        if column[np.argmax(np.abs(column))] < 0:
            coordinates[:, axis] = -column
    low, high = np.percentile(coordinates, 1, axis=0), np.percentile(coordinates, 99, axis=0)
    scaled = np.clip((coordinates - low) / np.where(high > low, high - low, 1), 0, 1)
    return {p.slug: (round(float(x), 4), round(float(y), 4)) for p, (x, y) in zip(papers, scaled)}


def _principal_components(vectors: sparse.csr_matrix, count: int, iterations: int = 12) -> np.ndarray:
    """The rows' coordinates along the first `count` principal components, by randomised subspace
    iteration (Halko, Martinsson and Tropp, 2011) on the centred matrix, which is never made
    dense. The start is seeded: the same papers give the same map."""
    mean = np.asarray(vectors.mean(axis=0)).ravel()
    transposed = vectors.T.tocsr()
    basis = np.random.default_rng(0).standard_normal((vectors.shape[1], count + 4))
    for _ in range(iterations):
        left, _ = np.linalg.qr(vectors @ basis - mean @ basis)
        basis, _ = np.linalg.qr(transposed @ left - np.outer(mean, left.sum(axis=0)))
    u, s, _ = np.linalg.svd(vectors @ basis - mean @ basis, full_matrices=False)
    return u[:, :count] * s[:count]


_vocabulary = Vocabulary()  # this process's (a worker's, in watch mode): kept between computations
_computing = threading.Lock()  # one computation at a time: they share the vocabulary


def related_papers(texts: tuple[Text, ...]) -> Similarity:
    """`compute` with this process's vocabulary, so that a computation after an edit reads only
    the abstracts that changed (the result never depends on what it read before)."""
    with _computing:
        return compute([Text(*item) for item in texts], _vocabulary)


def texts(catalogue: Catalogue) -> tuple[Text, ...]:
    """What related papers are worked out from: each paper's slug, tags and abstract."""
    return tuple(Text(p.slug, p.tags, p.body) for p in catalogue.papers)
