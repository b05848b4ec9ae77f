#!/usr/bin/env python3
"""Leave-one-out over the curated catalogue: hide a paper's tags, leave it out of the
profiles and the curators' record, suggest, and compare with the tags its curator gave it.

    .venv/bin/python scripts/tag_eval.py [--content content] [--fast]

Prints micro precision, recall and F1, the share of papers whose suggested tags are exactly
theirs and the mean Jaccard of the two sets, for the phrases alone (`tagging.tags_by_phrases`, the
importer's first code) and for the suggester at its settings and
at the settings around them. Each paper is suggested for by a suggester built from the other
papers (exact); `--fast` uses the suggester's own leave-one-out (what `check` runs: the words'
weights of the other papers keep the held-out paper's count), which is quicker at scale.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catalogue.content.loader import load_catalogue  # noqa: E402
from catalogue.content.model import Paper, Taxonomy  # noqa: E402
from catalogue.content.taxonomy import phrase_occurs  # noqa: E402
from catalogue.relate import tagging  # noqa: E402
from catalogue.report import Report  # noqa: E402

GRID = {"fill_from": (0.1, 0.15, 0.2, 0.25, 0.3), "min_tags": (1, 2, 3), "overrule_from": (2, 3, 4, 5, 99)}


def scores(papers: Sequence[Paper], suggested: Sequence[Sequence[str]]) -> dict[str, float]:
    """Micro precision, recall and F1 over every (paper, tag); exact matches; mean Jaccard."""
    hits = wrong = missed = exact = 0
    jaccard = 0.0
    for paper, tags in zip(papers, suggested):
        real, guess = set(paper.tags), set(tags)
        hits, wrong, missed = hits + len(real & guess), wrong + len(guess - real), missed + len(real - guess)
        exact += real == guess
        jaccard += len(real & guess) / len(real | guess) if real | guess else 1.0
    precision = hits / (hits + wrong) if hits + wrong else 0.0
    recall = hits / (hits + missed) if hits + missed else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": precision, "recall": recall, "f1": f1, "exact": exact / len(papers),
            "jaccard": jaccard / len(papers), "tags": (hits + wrong) / len(papers)}


class Vocabularies:
    """The taxonomy each paper is suggested for with: the whole of it, or (`novel`) without the
    phrases that match that paper alone, which were evidently written for it, so that it is
    tagged as a paper the phrases were not written for would be."""

    def __init__(self, papers: Sequence[Paper], taxonomy: Taxonomy, novel: bool):
        self.taxonomy, self.novel = taxonomy, novel
        self._held_out: list[tagging.TagSuggester] = []
        self.users = {phrase: {p.slug for p in papers if _mentions(phrase, p)}
                      for tag in taxonomy.tags.values() for phrase in tag.phrases} if novel else {}

    def of(self, paper: Paper) -> Taxonomy:
        if not self.novel:
            return self.taxonomy
        tags = {tag.id: replace(tag, phrases=tuple(p for p in tag.phrases if self.users[p] != {paper.slug}))
                for tag in self.taxonomy.tags.values()}
        return Taxonomy(tags, self.taxonomy.themes)

    def held_out(self, papers: Sequence[Paper]) -> list[tagging.TagSuggester]:
        """For each paper, a suggester made from all the others, with that paper's vocabulary
        (made once: the settings only choose among the same scores)."""
        if not self._held_out:
            self._held_out = [tagging.TagSuggester([*papers[:i], *papers[i + 1:]], self.of(p))
                              for i, p in enumerate(papers)]
        return self._held_out

    def own(self) -> int:
        return sum(len(users) == 1 for users in self.users.values())


def _mentions(phrase: str, paper: Paper) -> bool:
    return phrase_occurs(phrase, paper.title.lower()) or phrase_occurs(phrase, paper.body.lower())


def phrases_only(papers: Sequence[Paper], vocabularies: Vocabularies) -> list[tuple[str, ...]]:
    return [tagging.tags_by_phrases(p.title, p.body, vocabularies.of(p)) for p in papers]


def combined(papers: Sequence[Paper], vocabularies: Vocabularies, settings: tagging.Settings,
             fast: bool) -> list[tuple[str, ...]]:
    """Each paper's leave-one-out suggestion."""
    if fast and not vocabularies.novel:
        return [s.tags for s in tagging.TagSuggester(papers, vocabularies.taxonomy, settings).leave_one_out()]
    found = []
    for suggester, paper in zip(vocabularies.held_out(papers), papers):
        suggester.settings = settings
        found.append(suggester.suggest(paper.title, paper.body).tags)
    return found


def line(name: str, figures: dict[str, float]) -> str:
    return (f"{name:<34} P {figures['precision']:.3f}  R {figures['recall']:.3f}  F1 {figures['f1']:.3f}  "
            f"exact {figures['exact']:.3f}  Jaccard {figures['jaccard']:.3f}  tags/paper {figures['tags']:.2f}")


def grid(run: Callable[[tagging.Settings], dict[str, float]], chosen: tagging.Settings) -> None:
    """F1 for each setting of one parameter with the other two as chosen."""
    for name, values in GRID.items():
        cells = []
        for value in values:
            settings = tagging.Settings(**{**chosen.__dict__, name: value})
            figures = run(settings)
            cells.append(f"{value}: {figures['f1']:.3f} ({figures['precision']:.2f}/{figures['recall']:.2f})")
        print(f"  {name:<13} " + "  ".join(cells))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--fast", action="store_true", help="the suggester's own leave-one-out, as `check` runs it")
    parser.add_argument("--novel", action="store_true",
                        help="leave out of each paper's vocabulary the phrases that match it alone")
    parser.add_argument("--no-grid", action="store_true", help="the chosen settings only")
    args = parser.parse_args()
    catalogue = load_catalogue(args.content, Report())
    papers, taxonomy = catalogue.papers, catalogue.taxonomy
    vocabularies = Vocabularies(papers, taxonomy, args.novel)
    real = sum(len(p.tags) for p in papers) / len(papers)
    print(f"{len(papers)} papers, {real:.2f} tags a paper, {len(taxonomy.tags)} tags in the vocabulary"
          + (f"; {vocabularies.own()} phrases match one paper only, left out of its vocabulary" if args.novel else ""))
    print(line("before: phrases only", scores(papers, phrases_only(papers, vocabularies))))
    chosen = tagging.Settings()
    started = time.perf_counter()
    after = scores(papers, combined(papers, vocabularies, chosen, args.fast))
    seconds = time.perf_counter() - started
    print(line(f"after: fill {chosen.fill_from} to {chosen.min_tags}, overrule {chosen.overrule_from}", after)
          + f"  ({seconds:.2f} s)")
    if not args.no_grid:
        print("F1 (P/R) around the chosen settings, one parameter at a time:")
        grid(lambda settings: scores(papers, combined(papers, vocabularies, settings, args.fast)), chosen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
