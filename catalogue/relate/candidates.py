"""Each paper's nearest papers, by the cosine of their vectors (see `similarity`): against every
paper, a block of rows at a time, or in a large catalogue against its candidates only, so that
the work grows with the catalogue and not with its square."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from scipy import sparse

BLOCK_CELLS = 4_000_000  # similarity scores held at once (rows × papers): 16 MB of float32
# Above CANDIDATES_FROM papers, each paper is compared only with its candidates (see
# `nearest_by_candidates`). Below, every pair is scored: the real catalogue's lists are exact.
CANDIDATES_FROM = 5_000
CANDIDATE_FREQUENCY = 100  # a word or tag held by more papers than this proposes no candidates
SHORTLIST = 20  # candidates by rare words and tags, scored in full: 4 × the related papers shown
TAG_WINDOW = 5  # neighbours on each side within each tag's papers
SAME_TAGS_WINDOW = 100  # the same within the papers that have exactly the same tags


def nearest_of_all(vectors: sparse.csr_matrix, keep: int, min_score: float) -> Iterator[tuple[int, list[int]]]:
    """Each paper's nearest, from its scores against every paper, a block of rows at a time."""
    count = vectors.shape[0]
    transposed = vectors.T.tocsc()
    block = max(1, BLOCK_CELLS // count)
    for start in range(0, count, block):
        scores = (vectors[start:start + block] @ transposed).toarray()
        scores[np.arange(len(scores)), np.arange(start, start + len(scores))] = -1.0  # not itself
        # The best keep + 1, unordered, so that a tie at the edge is settled by slug below.
        candidates = np.argpartition(-scores, keep, axis=1)[:, :keep + 1] if count > keep + 1 \
            else np.tile(np.arange(count), (len(scores), 1))
        for offset, (row, best) in enumerate(zip(scores, candidates)):
            yield start + offset, _nearest(row, best, keep, min_score)


def nearest_by_candidates(vectors: sparse.csr_matrix, tags: sparse.csr_matrix, keep: int,
                          min_score: float) -> Iterator[tuple[int, list[int]]]:
    """Each paper's nearest among its candidates, scored in full: the SHORTLIST papers closest
    to it by the words and tags that at most CANDIDATE_FREQUENCY papers hold (pairs that share
    only common ones are never multiplied), and for each of its tags the TAG_WINDOW papers on
    either side of it when the tag's papers are put in order of their words (`_tag_neighbours`)."""
    frequency = np.diff(vectors.tocsc().indptr)
    rare = (vectors @ sparse.diags((frequency <= CANDIDATE_FREQUENCY).astype(np.float32))).T.tocsr()
    neighbour_of, neighbour = _tag_neighbours(vectors, tags)
    block = 1000
    for start in range(0, vectors.shape[0], block):
        rows = vectors[start:start + block]
        row, col = _shortlist((rows @ rare).tocsr(), start)
        near = slice(*np.searchsorted(neighbour_of, [start, start + rows.shape[0]]))
        pairs = sparse.coo_matrix((np.ones(len(row) + near.stop - near.start, dtype=np.float32),
                                   (np.concatenate([row, neighbour_of[near] - start]),
                                    np.concatenate([col, neighbour[near]]))), shape=(rows.shape[0], vectors.shape[0]))
        pairs.sum_duplicates()
        exact = np.asarray(rows[pairs.row].multiply(vectors[pairs.col]).sum(axis=1)).ravel()
        row, col, exact = _best_per_row(sparse.coo_matrix((exact, (pairs.row, pairs.col)), shape=pairs.shape),
                                        start, keep)
        cut = np.searchsorted(row, np.arange(rows.shape[0] + 1))
        for offset in range(rows.shape[0]):
            found = slice(cut[offset], cut[offset + 1])
            yield start + offset, [int(c) for c, score in zip(col[found], exact[found]) if score >= min_score]


def _tag_neighbours(vectors: sparse.csr_matrix, tags: sparse.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """Pairs of papers (ordered by the first) that have the same tags, or share one, and lie
    within TAG_WINDOW of each other when those papers are put in order along two random
    directions of their vectors (papers with like words fall near each other there, as in
    locality-sensitive hashing)."""
    directions = np.random.default_rng(0).standard_normal((vectors.shape[1], 2)).astype(np.float32)
    along = vectors @ directions
    members = tags.T.tocsr()
    groups = [members.indices[members.indptr[tag]:members.indptr[tag + 1]] for tag in range(members.shape[0])]
    same_tags: dict[bytes, list[int]] = {}
    for paper in range(tags.shape[0]):
        same_tags.setdefault(tags.indices[tags.indptr[paper]:tags.indptr[paper + 1]].tobytes(), []).append(paper)
    first, second = [], []
    for papers, window in [*((group, TAG_WINDOW) for group in groups),
                           *((np.array(group), SAME_TAGS_WINDOW) for group in same_tags.values() if len(group) > 1)]:
        for axis in range(2):
            ordered = papers[np.argsort(along[papers, axis], kind="stable")]
            for step in range(1, min(window, len(ordered) - 1) + 1):
                first += [ordered[:-step], ordered[step:]]
                second += [ordered[step:], ordered[:-step]]
    first_array = np.concatenate(first or [np.zeros(0, np.int64)])
    second_array = np.concatenate(second or [np.zeros(0, np.int64)])
    order = np.argsort(first_array, kind="stable")
    return first_array[order], second_array[order]


def _shortlist(scores: sparse.csr_matrix, start: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's SHORTLIST best columns but its own paper's (one sort of the block by row,
    then score: candidates, so their order among equals does not matter)."""
    scores.sort_indices()
    row = np.repeat(np.arange(scores.shape[0]), np.diff(scores.indptr))
    col, score = scores.indices, scores.data
    order = np.argsort(row * 4.0 - score.astype(np.float64) + 2.0 * (col == row + start), kind="stable")
    row, col = row[order], col[order]
    best = (np.arange(len(row)) - np.searchsorted(row, row) < SHORTLIST) & (col != row + start)
    return row[best], col[best]


def _best_per_row(pairs: sparse.coo_matrix, start: int, keep: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The `keep` best columns of each row but the row's own paper, by row, best first; equal
    scores go to the earlier slug."""
    row, col, score = pairs.row, pairs.col, pairs.data
    other = col != row + start
    row, col, score = row[other], col[other], score[other]
    order = np.lexsort((col, -np.round(score, 6), row))
    row, col, score = row[order], col[order], score[order]
    best = np.arange(len(row)) - np.searchsorted(row, row) < keep
    return row[best], col[best], score[best]


def _nearest(scores: np.ndarray, candidates: np.ndarray, keep: int, min_score: float) -> list[int]:
    """The best scores of at least `min_score`, best first; equal scores go to the earlier slug, even
    when more papers tie at the edge than the candidates hold."""
    rounded = np.round(scores[candidates], 6)  # equal scores must not be ordered by float noise
    order = np.lexsort((candidates, -rounded))
    if len(candidates) > keep and rounded[order[keep - 1]] == rounded[order[keep]]:  # a tie at the edge
        candidates = np.flatnonzero(np.round(scores, 6) >= rounded[order[keep - 1]])
        rounded = np.round(scores[candidates], 6)
        order = np.lexsort((candidates, -rounded))
    return [int(i) for i in candidates[order][:keep] if scores[i] >= min_score]
