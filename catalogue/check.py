"""`build.py check`: validate without writing, and list what still needs a curator."""

from __future__ import annotations

import re
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

from .derive import slug_source, slugify
from .load import load_catalogue
from .model import Catalogue
from .report import ContentError, Report, terminal_report
from .taxonomy import TAXONOMY_FILE

SHINGLE_WORDS = 5
NEAR_DUPLICATE = 0.5  # Jaccard similarity of word 5-grams: re-imports and light edits score far above


def curation_report(catalogue: Catalogue, taxonomy_path: Path, report: Report) -> None:
    """Warnings block `--strict`; notes are to-dos that never fail a build."""
    uses = Counter(tag for paper in catalogue.papers for tag in paper.tags)
    for paper in catalogue.papers:
        if paper.title_source == "derived":
            report.warning(paper.path, paper.line_of("title"), "title still derived from the abstract",
                           "check it against the paper, then set `title_source: curated`")
        if len(paper.tags) < 2:
            report.warning(paper.path, paper.line_of("tags"), f"only {len(paper.tags)} tag",
                           "add at least one more tag from content/taxonomy.yaml")
        if not paper.code:
            report.note(paper.path, 1, "no code link", "add `code: https://…` if the authors published code")
        expected = slugify(slug_source(paper.title, paper.body))
        if expected != paper.slug:
            report.note(paper.path, paper.line_of("slug"),
                        f"slug `{paper.slug}` differs from the title's (`{expected}`)",
                        "fine: slugs are permanent; rename only with the old slug kept in `aliases:`")
    for tag in catalogue.taxonomy.tags.values():
        if uses[tag.id] == 0:
            report.warning(taxonomy_path, tag.line, f"tag `{tag.id}` is used by no paper",
                           "tag papers with it, or remove it")
        elif uses[tag.id] == 1:
            report.note(taxonomy_path, tag.line, f"tag `{tag.id}` is used by one paper only",
                        "tag more papers with it, or merge it into a broader tag")
    for first, second, similarity in near_duplicates(catalogue):
        report.warning(second.path, 1, f"abstract is {similarity:.0%} like {first.path}'s",
                       "delete one of the two if they are the same paper")


def near_duplicates(catalogue: Catalogue) -> list[tuple]:
    """Pairs of papers sharing most of their word 5-grams; candidates found through shared shingles."""
    shingles = {paper: _shingles(paper.body) for paper in catalogue.papers}
    owners: dict[int, list] = {}
    for paper, grams in shingles.items():
        for gram in grams:
            owners.setdefault(gram, []).append(paper)
    candidates = {pair for papers in owners.values() if len(papers) < 50
                  for pair in combinations(papers, 2)}
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


def run_check(content_dir: Path, strict: bool) -> int:
    """Print errors, warnings and notes, then a summary; the exit status for the command line."""
    report = terminal_report()
    try:
        catalogue = load_catalogue(content_dir, report, drafts=True)
    except ContentError:
        print(f"\n{len(report.errors)} error(s): fix them first.", file=sys.stderr)
        return 1
    curation_report(catalogue, content_dir / TAXONOMY_FILE, report)
    counts = Counter(d.severity for d in report.diagnostics)
    print(f"\nChecked {len(catalogue.papers)} papers: {counts['error']} errors, "
          f"{counts['warning']} warnings, {counts['note']} notes.", file=sys.stderr)
    if strict and counts["warning"]:
        print("--strict: warnings count as errors.", file=sys.stderr)
        return 1
    return 0
