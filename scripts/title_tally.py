#!/usr/bin/env python3
"""Derived titles and slugs next to the real titles, to judge how well derivation does.

    .venv/bin/python scripts/title_tally.py LIST... --metadata TSV... [--verdicts FILE]

Reads each raw list as the importer does (`read_list`, then `clean_abstract`), derives a title
and a slug for every abstract, and prints a Markdown table with the real title from the metadata
(matched by opening text, as the importer matches). With `--verdicts`, a file of `file:para<TAB>verdict` lines
(good, passable or bad), it adds a verdict column and a count, so a judging can be repeated and
compared. Not used by the build or the tests.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catalogue.importer.cleaning import clean_abstract  # noqa: E402
from catalogue.importer.derive import derived_title  # noqa: E402
from catalogue.importer.metadata import PaperFacts, match_facts, read_metadata  # noqa: E402
from catalogue.importer.rawlist import read_list  # noqa: E402
from catalogue.importer.slugs import slug_source, slugify  # noqa: E402
from catalogue.report import Report  # noqa: E402


def real_titles(paths: list[Path], report: Report) -> list[PaperFacts]:
    """Every metadata row, matched to abstracts as the importer matches them (by opening text)."""
    return [fact for path in paths for fact in read_metadata(path, report)]


def read_verdicts(path: Path | None) -> dict[str, str]:
    """`file:para` → verdict, from tab-separated lines; blank lines and `#` comments skipped."""
    if not path:
        return {}
    verdicts = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, verdict = line.partition("\t")
            verdicts[key.strip()] = verdict.strip()
    return verdicts


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lists", nargs="+", type=Path)
    parser.add_argument("--metadata", nargs="+", type=Path, default=[])
    parser.add_argument("--verdicts", type=Path)
    args = parser.parse_args()
    report = Report(stream=sys.stderr)
    titles = real_titles(args.metadata, report)
    verdicts = read_verdicts(args.verdicts)
    header = ["paper", "derived title", "slug", "real title"] + (["verdict"] if verdicts else [])
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    counts: Counter[str] = Counter()
    for raw in (paper for path in args.lists for paper in read_list(path, report)):
        body = clean_abstract(raw.text)
        title = derived_title(body)
        key = f"{raw.path.name[:3]}:{raw.paragraph}"
        fact = match_facts(raw, titles, report)
        row = [key, title, slugify(slug_source(title, body)), fact.title if fact else "?"]
        if verdicts:
            row.append(verdicts.get(key, "?"))
            counts[row[-1]] += 1
        print("| " + " | ".join(cell(c) for c in row) + " |")
    if verdicts:
        print("\n" + ", ".join(f"{verdict}: {n}" for verdict, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
