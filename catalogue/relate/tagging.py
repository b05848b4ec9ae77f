"""Tag suggestions from what curators already decided: the taxonomy's phrases, checked against
the curators' record, and the tags whose curated papers a new paper reads like, each tag with a
confidence in [0, 1] and its reasons.

Every tag a phrase names is applied, unless it is mentioned once and curators gave it to fewer
than half of the (at least three) curated papers that mention the same words (`PhraseRecord`:
"Bayesian surprise" is no Bayesian view of ICL). A paper left with fewer than two tags takes the
tags whose papers, taken together, it reads most like: each tag's profile is the sum of its
papers' TF-IDF vectors (the words `similarity.terms` keeps, title and abstract), and the
cosine with it says how much the paper reads like them. A tag's confidence is the stronger of
the two: its phrases' (a third of a certainty a mention, moved toward what curators decided on
the papers that mention the same words) and its profile's. Leave-one-out (a paper's tags hidden,
the paper left out of the profiles and of the record) is the same computation, a block of
papers at a time."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
from scipy import sparse

from ..content.loader import load_catalogue
from ..content.model import Paper, Taxonomy
from ..report import ContentError, Report
from .phrases import Found, Phrases
from .similarity import terms

# Chosen by leave-one-out over the 95 curated papers and checked on 60 papers the catalogue has
# never seen (scripts/tag_eval.py, scripts/tag_heldout.py, docs/tag-suggestions.md).
MIN_TAGS = 2  # a paper its phrases give fewer tags is filled from the tags' profiles
FILL_FROM = 0.2  # the profile similarity a tag needs to fill: 0.15 finds more, and more wrongly
OVERRULE_FROM = 3  # papers of record the curators' decisions need to overrule a single mention
MAX_TAGS = 5
TITLE_WEIGHT = 2  # a phrase in the title counts as two mentions in the abstract
SURE_MENTIONS = 3  # mentions at which the phrases alone are sure of a tag: one passing mention is 1/3
PRIOR_PAPERS = 2  # how many papers' worth the mentions' own strength weighs against the record
NEIGHBOURS = 8  # the nearest curated papers, named as reasons
SHOWN_NEIGHBOURS = 3  # neighbours named as a tag's reason
OTHERS_KEPT = 10  # low-confidence tags kept with their reasons: callers show three, beside a paper's own
# Curation: a tag the paper has that its profile and phrases give less than DOUBT_BELOW, or one it
# lacks that they give at least MISSING_FROM, is worth a curator's second look; so is a paper none
# of whose tags reaches SURE_FROM.
DOUBT_BELOW = 0.1
MISSING_FROM = 0.75
SURE_FROM = 0.3
BLOCK_CELLS = 4_000_000  # similarity scores held at once (papers asked × papers known)


@dataclass(frozen=True)
class Settings:
    """The suggester's few parameters (the evaluation tries others)."""

    fill_from: float = FILL_FROM
    min_tags: int = MIN_TAGS
    overrule_from: int = OVERRULE_FROM


@dataclass(frozen=True)
class TagSuggestion:
    """One tag, how confident the suggester is of it, and why: the nearest papers that have it
    and the phrases found."""

    tag: str
    confidence: float
    neighbours: tuple[str, ...]
    phrases: tuple[str, ...]


@dataclass(frozen=True)
class Suggestions:
    """The tags to apply, best first, the best low-confidence others a caller can show, and every
    tag's confidence."""

    applied: tuple[TagSuggestion, ...]
    others: tuple[TagSuggestion, ...]
    neighbours: tuple[str, ...] = ()  # the nearest curated papers, nearest first
    confidences: Mapping[str, float] = field(default_factory=dict)

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(s.tag for s in self.applied)

    def confidence(self, tag: str) -> float:
        """The tag's confidence; 0 when neither its phrases nor its profile point to it."""
        return self.confidences.get(tag, 0.0)

    def consider(self, count: int = 3) -> str:
        """The best low-confidence tags, as a hint: `consider: x (0.41), y (0.30)`."""
        shown = ", ".join(f"{s.tag} ({s.confidence:.2f})" for s in self.others[:count])
        return f"consider: {shown}" if shown else "add tags by hand, or phrases to content/taxonomy.yaml"


@dataclass(frozen=True)
class TagOutlier:
    """A paper whose tags need a second look: tags doubted and tags missing, or (`unsure`) a
    single tag, or none its phrases and profiles are confident of, each with its leave-one-out
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
        unit = _unit_rows(_tf_idf(self._counts, self._idf(self._frequency, len(self.papers))))
        self._vectors = unit.T.tocsr()
        column = self._tag_column
        rows = [row for row, p in enumerate(self.papers) for t in p.tags if t in column]
        cols = [column[t] for p in self.papers for t in p.tags if t in column]
        self._tags = sparse.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)),
                                       shape=(len(self.papers), len(self.tag_ids)))
        self._profile_sums = (self._tags.T @ unit).tocsr()  # each tag's papers' vectors, summed
        self._profile_squares = np.asarray(self._profile_sums.multiply(self._profile_sums).sum(axis=1)).ravel()
        self._found = [self._phrases.found(p.title, p.body) for p in self.papers]
        self._record = PhraseRecord(self.papers, self._found)

    @cached_property
    def _own_overlap(self) -> np.ndarray:
        """Each paper's vector · each tag's profile (leave-one-out takes a paper out of its tags')."""
        return np.asarray((self._vectors.T @ self._profile_sums.T).todense())

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
            block_papers = range(start, min(start + step, len(self.papers)))
            yield from self._suggestions(scores, [self._found[i] for i in block_papers], list(block_papers))

    def _suggestions(self, scores: np.ndarray, phrases: list[Found],
                     held_out: list[int | None]) -> Iterator[Suggestions]:
        """Each row's suggestions, from its scores against every paper, its phrases found and
        (in leave-one-out) the paper held out, which is neither a neighbour nor in a profile."""
        profiles = self._profiles(scores, held_out)
        for row, own in enumerate(held_out):
            if own is not None:
                scores[row, own] = -1.0
        keep = min(NEIGHBOURS, len(self.papers))
        best = np.argpartition(-scores, keep - 1, axis=1)[:, :keep] if keep else np.zeros((len(scores), 0), int)
        for row, found, own in zip(range(len(scores)), phrases, held_out):
            near = [int(i) for i in best[row][np.lexsort((best[row], -scores[row, best[row]]))] if scores[row, i] > 0]
            yield self._choose(profiles[row], near, found, own)

    def _profiles(self, scores: np.ndarray, held_out: list[int | None]) -> np.ndarray:
        """How much each row reads like each tag's papers: the cosine with the sum of their
        vectors (a held-out paper taken out of its own tags' sums)."""
        overlap = np.asarray(self._tags.T @ scores.T).T
        norms = np.tile(self._profile_squares, (len(scores), 1))  # squared until the end
        rows = [row for row, own in enumerate(held_out) if own is not None]
        if rows:
            owns = [held_out[row] for row in rows]
            mine = self._tags[owns]  # each held-out paper's tags, as 1s
            overlap[rows] -= mine.multiply(scores[rows, owns][:, None]).toarray()
            norms[rows] -= mine.multiply(2 * self._own_overlap[owns] - 1).toarray()
        norms = np.sqrt(np.maximum(norms, 0))
        return np.divide(overlap, norms, out=np.zeros_like(overlap), where=norms > 1e-6).clip(0, 1)

    def _choose(self, profile: np.ndarray, near: list[int], found: Found, own: int | None) -> Suggestions:
        """Every tag with a confidence, the stronger of its phrases' and its profile's; the
        applied ones are `_chosen`."""
        judged = {tag: self._record.judge(tag, hits, own, self.settings.overrule_from) for tag, hits in found.items()}
        confidence = {self.tag_ids[i]: round(float(profile[i]), 4) for i in np.flatnonzero(profile)}
        for tag, (phrased, _) in judged.items():
            confidence[tag] = max(round(phrased, 4), confidence.get(tag, 0.0))
        chosen = self._chosen(profile, found, {tag for tag, (_, overruled) in judged.items() if overruled})
        ranked = sorted(confidence, key=lambda tag: (-confidence[tag], self._tag_column[tag]))
        having: dict[str, list[str]] = {}
        for i in near:
            for tag in self.papers[i].tags:
                having.setdefault(tag, []).append(self.papers[i].slug)

        def suggestion(tag: str) -> TagSuggestion:
            return TagSuggestion(tag, confidence[tag], tuple(having.get(tag, ())[:SHOWN_NEIGHBOURS]),
                                 tuple(sorted({phrase for _, phrase in found.get(tag, ())})))

        others = [tag for tag in ranked if tag not in chosen][:OTHERS_KEPT]
        return Suggestions(tuple(suggestion(tag) for tag in ranked if tag in chosen), tuple(map(suggestion, others)),
                           tuple(self.papers[i].slug for i in near), confidence)

    def _chosen(self, profile: np.ndarray, found: Found, overruled: set[str]) -> list[str]:
        """The tags the phrases name, most mentioned first, unless the record overrules them; then,
        while the paper has fewer than `min_tags`, the tags whose papers it reads most like."""
        chosen = [tag for tag in _by_mentions(found, self._tag_column) if tag not in overruled][:MAX_TAGS]
        for index in np.argsort(-profile, kind="stable"):
            if len(chosen) >= self.settings.min_tags or profile[index] < self.settings.fill_from:
                break
            if self.tag_ids[index] not in chosen:
                chosen.append(self.tag_ids[index])
        return chosen

    def _row(self, count: Counter) -> tuple[list[int], list[int]]:
        """A text's known words as column numbers, and their counts."""
        known = [(self._columns[w], n) for w, n in count.items() if w in self._columns]
        return [c for c, _ in known], [n for _, n in known]

    @staticmethod
    def _idf(frequency: np.ndarray, papers: int) -> np.ndarray:
        return (np.log((1 + papers) / (1 + frequency)) + 1).astype(np.float32)


def tag_outliers(papers: Sequence[Paper], taxonomy: Taxonomy) -> list[TagOutlier]:
    """Papers with a tag their phrases and profiles give very low confidence, or missing one
    they give very high confidence, or with a single tag, or none they are confident of (as a
    paper imported with the one tag it could be given), by leave-one-out; in the papers' order."""
    suggester = TagSuggester(papers, taxonomy)
    found = []
    for paper, suggestions in zip(suggester.papers, suggester.leave_one_out()):
        confidence = {tag: suggestions.confidence(tag) for tag in paper.tags}
        doubted = tuple((t, c) for t, c in confidence.items() if c < DOUBT_BELOW)
        missing = tuple((s.tag, s.confidence) for s in suggestions.applied
                        if s.confidence >= MISSING_FROM and s.tag not in paper.tags)
        unsure = len(confidence) == 1 or max(confidence.values(), default=0.0) < SURE_FROM
        if doubted or missing or unsure:
            named = {*paper.tags, *(tag for tag, _ in missing)}
            others = [s for s in (*suggestions.applied, *suggestions.others) if s.tag not in named]
            found.append(TagOutlier(paper, doubted, missing, suggestions.neighbours[:SHOWN_NEIGHBOURS],
                                    tuple(confidence.items()) if unsure else (),
                                    tuple((s.tag, s.confidence) for s in others[:SHOWN_NEIGHBOURS])))
    return found


class PhraseRecord:
    """What curators decided on the papers that mention a tag's words: for each tag and each
    wording found (`kv caches`), how many curated papers mention it and how many of those the
    curators gave the tag."""

    def __init__(self, papers: Sequence[Paper], found: list[Found]):
        self._mentioned: Counter[tuple[str, str]] = Counter()
        self._tagged: Counter[tuple[str, str]] = Counter()
        self._own = [_wordings(mentioned) for mentioned in found]
        self._tags = [frozenset(paper.tags) for paper in papers]
        for own, tags in zip(self._own, self._tags):
            self._mentioned.update(own)
            self._tagged.update(key for key in own if key[0] in tags)

    def judge(self, tag: str, hits: list[tuple[str, str]], held_out: int | None,
              overrule_from: int) -> tuple[float, bool]:
        """The confidence the mentions give the tag, and whether the record overrules them: a
        single mention that curators, on at least `overrule_from` other papers mentioning the
        same words, gave the tag fewer than half the time. The mentions' strength (a third of a
        certainty each) weighs PRIOR_PAPERS papers against the record."""
        keys = _wordings({tag: hits})
        mentioned = sum(self._mentioned[key] for key in keys)
        tagged = sum(self._tagged[key] for key in keys)
        if held_out is not None:  # the paper's own decision is what is being guessed
            own = keys & self._own[held_out]
            mentioned -= len(own)
            tagged -= len(own) if tag in self._tags[held_out] else 0
        count = mentions(hits)
        strength = min(count, SURE_MENTIONS) / SURE_MENTIONS
        confidence = (tagged + PRIOR_PAPERS * strength) / (mentioned + PRIOR_PAPERS)
        return confidence, count == 1 and mentioned >= overrule_from and 2 * tagged < mentioned


def _wordings(found: Found) -> set[tuple[str, str]]:
    return {(tag, words) for tag, hits in found.items() for _, words in hits}


def tags_by_phrases(title: str, body: str, taxonomy: Taxonomy) -> tuple[str, ...]:
    """The phrases alone, as the importer tagged before the curators' record and the profiles were
    asked (the measure a suggester must beat): every tag a phrase names, at most MAX_TAGS."""
    return tuple(_by_mentions(Phrases(taxonomy).found(title, body), {tag: i for i, tag in enumerate(taxonomy.tags)})
                 [:MAX_TAGS])


def _by_mentions(found: Found, column: Mapping[str, int]) -> list[str]:
    """The tags found, most mentioned first (a title's mention counting TITLE_WEIGHT), then in the
    taxonomy's order."""
    return sorted(found, key=lambda tag: (-mentions(found[tag]), column[tag]))


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
