#!/usr/bin/env python3
"""Tag suggestions judged on papers the catalogue has never seen: the held-out set of
scripts/heldout/ (60 papers of 2023–2025 on long context and in-context learning, none in the
catalogue), each tagged by two curators independently, without seeing any suggestion.

    .venv/bin/python scripts/tag_heldout.py --abstracts ABSTRACTS.jsonl [--content content]

The papers' titles and where each abstract was read are in scripts/heldout/papers.tsv, the
curators' tags in curator-*.tsv; the abstracts are their authors' words, so they are not kept
here: ABSTRACTS.jsonl holds one `{"id": "u01", "abstract": "…"}` a line, read from those pages.
Prints micro precision, recall and F1 against each curator's tags for the phrases alone and for
the combined suggester (built from the curated papers of `content/`, as an import builds it) at
its settings and the settings around them, and how far the two curators agree. Leave-one-out
(scripts/tag_eval.py) judges on the papers the phrases were written for; this does not.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catalogue.content.loader import load_catalogue  # noqa: E402
from catalogue.relate import tagging  # noqa: E402
from catalogue.report import Report  # noqa: E402

HELD_OUT = Path(__file__).resolve().parent / "heldout"
Tags = dict[str, set[str]]


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file, delimiter="\t"))


def curators() -> dict[str, Tags]:
    """Each curator's tags, by paper id."""
    return {path.stem: {row["id"]: set(row["tags"].split(",")) for row in read_tsv(path)}
            for path in sorted(HELD_OUT.glob("curator-*.tsv"))}


def scores(gold: Tags, guess: Tags) -> str:
    hits = sum(len(gold[i] & guess[i]) for i in gold)
    wrong = sum(len(guess[i] - gold[i]) for i in gold)
    missed = sum(len(gold[i] - guess[i]) for i in gold)
    precision, recall = hits / max(1, hits + wrong), hits / max(1, hits + missed)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return f"P {precision:.3f}  R {recall:.3f}  F1 {f1:.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--abstracts", type=Path, required=True, help="one JSON object a line: id, abstract")
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    args = parser.parse_args()
    titles = {row["id"]: row["title"] for row in read_tsv(HELD_OUT / "papers.tsv")}
    abstracts = {item["id"]: item["abstract"] for item in map(json.loads, args.abstracts.open(encoding="utf-8"))}
    if missing := sorted(set(titles) - set(abstracts)):
        parser.error(f"{args.abstracts}: no abstract for {', '.join(missing)}")
    catalogue = load_catalogue(args.content, Report())
    tagged = curators()
    print(f"{len(titles)} held-out papers; suggested from {len(catalogue.papers)} curated papers")
    print(f"{'tags a paper':<34} " + "  ".join(f"{name} {sum(map(len, tags.values())) / len(tags):.2f}"
                                              for name, tags in tagged.items()))
    names = list(tagged)
    for first, second in zip(names, names[1:]):
        print(f"{first} judged against {second:<16} {scores(tagged[second], tagged[first])}")
    phrases = {i: set(tagging.tags_by_phrases(titles[i], abstracts[i], catalogue.taxonomy)) for i in titles}
    suggester = tagging.TagSuggester(catalogue.papers, catalogue.taxonomy)
    chosen = tagging.Settings()
    runs = {"phrases only": phrases}
    for name, value in [("fill_from", 0.15), ("fill_from", 0.25), ("min_tags", 1), ("min_tags", 3),
                        ("overrule_from", 2), ("overrule_from", 5), (None, None)]:
        suggester.settings = tagging.Settings(**{**chosen.__dict__, **({name: value} if name else {})})
        label = f"{name}={value}" if name else f"combined (fill {chosen.fill_from} to {chosen.min_tags}, " \
                                               f"overrule {chosen.overrule_from})"
        runs[label] = {i: set(suggester.suggest(titles[i], abstracts[i]).tags) for i in titles}
    for label, guess in runs.items():
        print(f"{label:<34} " + "   ".join(f"{name}: {scores(tags, guess)}" for name, tags in tagged.items())
              + f"   tags a paper {sum(map(len, guess.values())) / len(guess):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
