"""Tag suggestions from what curators already decided: the tags of the most similar curated
papers, combined with the taxonomy's phrases, each with a confidence in [0, 1] and its reasons.

A paper's words are a TF-IDF vector (the words `similarity.terms` keeps, title and abstract);
its k nearest curated papers vote for their tags, each vote weighted by its cosine, and the
share of the vote a tag gets is the neighbours' confidence in it. The phrases give a second
confidence: a third of a certainty for each mention (one passing mention is weak), lowered
where curators did not give the tag to papers that mention its phrases as often
(`PhraseReliability`: "Bayesian surprise" is no Bayesian view of ICL). The two
are mixed; tags above a threshold are applied, the rest are low-confidence suggestions a caller
can show. Leave-one-out (a paper's tags hidden, the paper left out of the neighbours and of
the phrases' record) is the same computation, a block of papers at a time."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse

from ..content.loader import load_catalogue
from ..content.model import Paper, Taxonomy
from ..report import ContentError, Report
from .phrases import Found, Phrases
from .similarity import terms

# Chosen by leave-one-out over the 95 curated papers (scripts/tag_eval.py, docs/tag-suggestions.md):
# micro F1 moves within 0.03 for k 5–20, shares 0.1–0.3 and thresholds 0.2–0.3,
# so these sit inside that plateau rather than on its best cell (95 papers decide little). The
# threshold is the plateau's precise end: 0.25 scores 0.01 higher but lets a passing mention
# with one weak neighbour through (the issue's `long-tailed-learning` for a kinetics paper).
NEIGHBOURS = 8  # k: the nearest curated papers that vote
NEIGHBOUR_SHARE = 0.3  # the neighbours' part of a confidence, against the phrases' 1 − share
APPLY_FROM = 0.3  # tags at least this confident are applied: a first passing mention alone is 0.23
FALLBACK_FROM = 0.15  # below APPLY_FROM, the best tag is still applied if at least this confident
MAX_TAGS = 5
TITLE_WEIGHT = 2  # a phrase in the title counts as two mentions in the abstract
SURE_MENTIONS = 3  # mentions at which the phrases alone are sure of a tag: one passing mention is 1/3
PRIOR_PAPERS = 2  # how many papers' worth the starting confidence of a phrase weighs
SHOWN_NEIGHBOURS = 3  # neighbours named as a tag's reason
# Curation: a tag the paper has that its neighbours and phrases give less than DOUBT_BELOW,
# or one it lacks that they give at least MISSING_FROM, is worth a curator's second look.
DOUBT_BELOW = 0.1
MISSING_FROM = 0.75
BLOCK_CELLS = 4_000_000  # similarity scores held at once (papers asked × papers known)


@dataclass(frozen=True)
class Settings:
    """The suggester's few parameters (the evaluation tries others)."""

    neighbours: int = NEIGHBOURS
    share: float = NEIGHBOUR_SHARE
    threshold: float = APPLY_FROM


@dataclass(frozen=True)
class TagSuggestion:
    """One tag, how confident the suggester is of it, and why: the neighbours that have it and
    the phrases found."""

    tag: str
    confidence: float
    neighbours: tuple[str, ...]
    phrases: tuple[str, ...]


@dataclass(frozen=True)
class Suggestions:
    """The tags to apply, best first, and the low-confidence others a caller can show."""

    applied: tuple[TagSuggestion, ...]
    others: tuple[TagSuggestion, ...]
    neighbours: tuple[str, ...] = ()  # the nearest curated papers, nearest first

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(s.tag for s in self.applied)

    def confidence(self, tag: str) -> float:
        """The tag's confidence; 0 when neither neighbours nor phrases point to it."""
        return next((s.confidence for s in (*self.applied, *self.others) if s.tag == tag), 0.0)

    def consider(self, count: int = 3) -> str:
        """The best low-confidence tags, as a hint: `consider: x (0.41), y (0.30)`."""
        shown = ", ".join(f"{s.tag} ({s.confidence:.2f})" for s in self.others[:count])
        return f"consider: {shown}" if shown else "add tags by hand, or phrases to content/taxonomy.yaml"


@dataclass(frozen=True)
class TagOutlier:
    """A paper whose tags need a second look: tags doubted and tags missing, or (`unsure`) a
    single tag, or none its neighbours and phrases are confident of, each with its leave-one-out
    confidence; the best other tags to consider, and its nearest papers."""

    paper: Paper
    doubted: tuple[tuple[str, float], ...]
    missing: tuple[tuple[str, float], ...]
    neighbours: tuple[str, ...]
    unsure: tuple[tuple[str, float], ...] = ()
    consider: tuple[tuple[str, float], ...] = ()


class TagSuggester:
    """Suggests tags for new text from `papers` (curated, with their tags) and the taxonomy."""

    def __init__(self, papers: Sequence[Paper], taxonomy: Taxonomy, settings: Settings = Settings()):
        self.papers, self.taxonomy, self.settings = list(papers), taxonomy, settings
        self.tag_ids = list(taxonomy.tags)
        self._tag_column = {tag: index for index, tag in enumerate(self.tag_ids)}
        self._phrases = Phrases(taxonomy)
        counted = [Counter(terms(f"{p.title} {p.body}")) for p in self.papers]
        self._columns: dict[str, int] = {}
        for count in counted:
            for word in count:
                self._columns.setdefault(word, len(self._columns))
        self._counts = _count_matrix([self._row(count) for count in counted], len(self._columns))
        self._frequency = np.diff(self._counts.tocsc().indptr)
        self._vectors = _unit_rows(_tf_idf(self._counts, self._idf(self._frequency, len(self.papers)))).T.tocsr()
        column = self._tag_column
        rows = [row for row, p in enumerate(self.papers) for t in p.tags if t in column]
        cols = [column[t] for p in self.papers for t in p.tags if t in column]
        self._tags = sparse.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)),
                                       shape=(len(self.papers), len(self.tag_ids)))
        self._found = [self._phrases.found(p.title, p.body) for p in self.papers]
        self._reliability = PhraseReliability(self.papers, self._found, self.tag_ids)

    @classmethod
    def from_content(cls, content_dir: Path, taxonomy: Taxonomy, report: Report) -> TagSuggester:
        """Built from the papers in `content/`; from phrases alone (and a warning) if it does not load."""
        try:
            papers = load_catalogue(content_dir, Report()).papers
        except ContentError as error:
            first = error.diagnostics[0]
            report.warning(first.path, first.line, "tags suggested from phrases alone: content/ does not load",
                           "run `build.py check`, fix what it names, and import again for better tags")
            papers = []
        return cls(papers, taxonomy)

    def suggest(self, title: str, body: str) -> Suggestions:
        """Tags for a new paper's title and abstract."""
        query = _count_matrix([self._row(Counter(terms(f"{title} {body}")))], len(self._columns))
        weights = self._idf(self._frequency, len(self.papers))
        scores = (_unit_rows(_tf_idf(query, weights)) @ self._vectors).toarray()
        return next(self._suggestions(scores, [self._phrases.found(title, body)], [None]))

    def leave_one_out(self) -> Iterator[Suggestions]:
        """Each paper's suggestions with its own tags hidden and itself left out, in order."""
        step = max(1, BLOCK_CELLS // max(1, len(self.papers)))
        for start in range(0, len(self.papers), step):
            block = self._counts[start:start + step].tocoo()
            # Words counted without the paper itself, as if it were new: a word only it has is no clue.
            others = self._frequency[block.col] - 1
            idf = np.log(len(self.papers) / (1 + others)) + 1
            weights = np.where(others > 0, (1 + np.log(block.data)) * idf, 0).astype(np.float32)
            query = sparse.csr_matrix((weights, (block.row, block.col)), shape=block.shape)
            scores = (_unit_rows(query) @ self._vectors).toarray()
            scores[np.arange(len(scores)), np.arange(start, start + len(scores))] = -1.0  # not itself
            block_papers = range(start, min(start + step, len(self.papers)))
            yield from self._suggestions(scores, [self._found[i] for i in block_papers], list(block_papers))

    def _suggestions(self, scores: np.ndarray, phrases: list[Found], held_out: list[int | None]) -> Iterator[Suggestions]:
        """Each row's suggestions, from its scores against every paper, its phrases found and
        (in leave-one-out) the paper held out, whose own tags must not count."""
        keep = min(self.settings.neighbours, len(self.papers))
        if keep == 0:
            yield from (self._choose(np.zeros(len(self.tag_ids)), [], found, None) for found in phrases)
            return
        best = np.argpartition(-scores, keep - 1, axis=1)[:, :keep]
        for row, found, own in zip(range(len(scores)), phrases, held_out):
            near = [int(i) for i in best[row][np.lexsort((best[row], -scores[row, best[row]]))] if scores[row, i] > 0]
            weights = scores[row, near]
            votes = np.asarray(self._tags[near].T @ weights).ravel() / weights.sum() if near \
                else np.zeros(len(self.tag_ids))
            yield self._choose(votes, near, found, own)

    def _choose(self, votes: np.ndarray, near: list[int], found: Found, own: int | None) -> Suggestions:
        """Mix the neighbours' votes with the phrases' confidence; apply the confident tags."""
        share = self.settings.share
        candidates = []
        for index in set(np.flatnonzero(votes).tolist()) | {self._tag_column[t] for t in found}:
            tag = self.tag_ids[index]
            phrased = self._reliability.of(index, mentions(found.get(tag, [])), own)
            confidence = share * float(votes[index]) + (1 - share) * phrased
            having = tuple(self.papers[i].slug for i in near if tag in self.papers[i].tags)[:SHOWN_NEIGHBOURS]
            phrases = tuple(sorted({phrase for _, phrase in found.get(tag, [])}))
            candidates.append(TagSuggestion(tag, round(confidence, 4), having, phrases))
        ranked = sorted(candidates, key=lambda s: (-s.confidence, self._tag_column[s.tag]))
        applied = [s for s in ranked if s.confidence >= self.settings.threshold][:MAX_TAGS]
        if not applied and ranked and ranked[0].confidence >= FALLBACK_FROM:
            applied = ranked[:1]
        nearest = tuple(self.papers[i].slug for i in near)
        return Suggestions(tuple(applied), tuple(s for s in ranked if s not in applied), nearest)

    def _row(self, count: Counter) -> tuple[list[int], list[int]]:
        """A text's known words as column numbers, and their counts."""
        known = [(self._columns[w], n) for w, n in count.items() if w in self._columns]
        return [c for c, _ in known], [n for _, n in known]

    @staticmethod
    def _idf(frequency: np.ndarray, papers: int) -> np.ndarray:
        return (np.log((1 + papers) / (1 + frequency)) + 1).astype(np.float32)


def tag_outliers(papers: Sequence[Paper], taxonomy: Taxonomy) -> list[TagOutlier]:
    """Papers with a tag their neighbours and phrases give very low confidence, or missing one
    they give very high confidence, or with a single tag, or none they are confident of (as a
    paper imported with the one tag it could be given), by leave-one-out; in the papers' order."""
    suggester = TagSuggester(papers, taxonomy)
    found = []
    for paper, suggestions in zip(suggester.papers, suggester.leave_one_out()):
        confidence = {tag: suggestions.confidence(tag) for tag in paper.tags}
        doubted = tuple((t, c) for t, c in confidence.items() if c < DOUBT_BELOW)
        missing = tuple((s.tag, s.confidence) for s in suggestions.applied
                        if s.confidence >= MISSING_FROM and s.tag not in paper.tags)
        unsure = len(confidence) == 1 or max(confidence.values(), default=0.0) < APPLY_FROM
        if doubted or missing or unsure:
            others = [s for s in (*suggestions.applied, *suggestions.others) if s.tag not in paper.tags]
            found.append(TagOutlier(paper, doubted, missing, suggestions.neighbours[:SHOWN_NEIGHBOURS],
                                    tuple(confidence.items()) if unsure else (),
                                    tuple((s.tag, s.confidence) for s in others[:SHOWN_NEIGHBOURS])))
    return found


class PhraseReliability:
    """How often curators gave a tag to the papers that mention its phrases once, twice, or
    three times or more (a title's mention counting TITLE_WEIGHT): a phrase's confidence is at
    most a third of a certainty a mention, and less where curators often decided against it."""

    def __init__(self, papers: Sequence[Paper], found: list[Found], tag_ids: list[str]):
        self._column = {tag: index for index, tag in enumerate(tag_ids)}
        self._owns = [self._own(paper, mentioned) for paper, mentioned in zip(papers, found)]
        self._mentioned = np.zeros((len(tag_ids), SURE_MENTIONS + 1))
        self._tagged = np.zeros_like(self._mentioned)
        for own in self._owns:
            for tag, (count, given) in own.items():
                self._mentioned[tag, count] += 1
                self._tagged[tag, count] += given

    def of(self, tag: int, count: int, held_out: int | None) -> float:
        """The confidence `count` mentions give the tag, without the held-out paper's own decision;
        what curators decided can lower the mentions' strength, never raise it."""
        if count == 0:
            return 0.0
        count = min(count, SURE_MENTIONS)
        mentioned, tagged = self._mentioned[tag, count], self._tagged[tag, count]
        own = self._owns[held_out].get(tag) if held_out is not None else None
        if own and own[0] == count:
            mentioned, tagged = mentioned - 1, tagged - own[1]
        prior = count / SURE_MENTIONS
        return min(prior, float((tagged + PRIOR_PAPERS * prior) / (mentioned + PRIOR_PAPERS)))

    def _own(self, paper: Paper, found: Found) -> dict[int, tuple[int, bool]]:
        """tag column → (mentions, capped; whether the paper has the tag)."""
        return {self._column[tag]: (min(mentions(found[tag]), SURE_MENTIONS), tag in paper.tags)
                for tag in found if tag in self._column}


def tags_by_phrases(title: str, body: str, taxonomy: Taxonomy) -> tuple[str, ...]:
    """The phrases alone, as the importer tagged before the neighbours were asked (the measure a
    suggester must beat): every tag a phrase names, at most MAX_TAGS, by mentions (a title's
    count TITLE_WEIGHT times), then in the taxonomy's order."""
    found = Phrases(taxonomy).found(title, body)
    order = list(taxonomy.tags)
    return tuple(sorted(found, key=lambda tag: (-mentions(found[tag]), order.index(tag)))[:MAX_TAGS])


def mentions(found: list[tuple[str, str]]) -> int:
    """A tag's mentions: a title's count TITLE_WEIGHT times."""
    return sum(TITLE_WEIGHT if where == "title" else 1 for where, _ in found)


def _count_matrix(rows: list[tuple[list[int], list[int]]], width: int) -> sparse.csr_matrix:
    lengths = [len(cols) for cols, _ in rows]
    cols = np.fromiter((c for row, _ in rows for c in row), dtype=np.int64, count=sum(lengths))
    data = np.fromiter((n for _, counts in rows for n in counts), dtype=np.float32, count=sum(lengths))
    return sparse.csr_matrix((data, (np.repeat(np.arange(len(rows)), lengths), cols)), shape=(len(rows), width))


def _tf_idf(counts: sparse.csr_matrix, idf: np.ndarray) -> sparse.csr_matrix:
    weighted = counts.tocoo()
    return sparse.csr_matrix(((1 + np.log(weighted.data)) * idf[weighted.col], (weighted.row, weighted.col)),
                             shape=counts.shape)


def _unit_rows(matrix: sparse.csr_matrix) -> sparse.csr_matrix:
    lengths = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
    lengths[lengths == 0] = 1
    return sparse.csr_matrix(sparse.diags(1 / lengths).astype(np.float32) @ matrix)
