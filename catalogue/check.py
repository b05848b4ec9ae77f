"""`build.py check`: validate without writing, and list what still needs a curator."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from .config import SOURCES_DIR, TAXONOMY_FILE, SiteConfig
from .content.catalogue import Catalogue
from .content.loader import load_catalogue
from .content.taxonomy import covered_phrases
from .files import read_lines
from .importer.slugs import slug_source, slugify
from .pipeline import check_site
from .relate.review import (
    Costly,
    ReviewItem,
    costly_parts,
    duplicate_items,
    grouped,
    review_items,
    tag_items,
)
from .report import ContentError, Diagnostic, Report, shown_path


def curation_report(catalogue: Catalogue, taxonomy_path: Path, report: Report,
                    costly: Costly | None = None) -> None:
    """Warnings block `--strict`; notes are to-dos that never fail a build. `costly`: the tags to
    confirm and the possible duplicates, if the caller has them."""
    costly = costly_parts(catalogue.papers, catalogue.taxonomy) if costly is None else costly
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
        for phrase, by in covered_phrases(tag):
            why = "is listed twice" if phrase == by else f"adds nothing, as `{by}` finds it already"
            report.note(taxonomy_path, tag.line, f"tag `{tag.id}`: the phrase `{phrase}` {why}",
                        f"remove `{phrase}` from its phrases" + (" once" if phrase == by else ""))
    _check_sources(catalogue, taxonomy_path.parent, report)
    for item in tag_items(costly.outliers):
        report.note(item.path, item.line, item.message, item.hint)
    for item in duplicate_items(costly.duplicates):  # withdrawn papers are in no list: not here either
        report.warning(item.path, item.line, item.message, item.hint)


def _check_sources(catalogue: Catalogue, content_dir: Path, report: Report) -> None:
    """`source: list.txt:LINE` is provenance: the list must be in content/sources/, and the
    paper's abstract must start at that line."""
    lines: dict[str, list[str] | None] = {}
    for paper in catalogue.papers:
        name, _, line = paper.source.rpartition(":")
        if not paper.source:
            continue
        if name not in lines:
            lines[name] = _source_lines(content_dir / SOURCES_DIR / name, report) if name and "/" not in name else None
        found = lines[name]
        if found is None:
            report.warning(paper.path, paper.line_of("source"), f"`source: {paper.source}` names no list in "
                           f"content/{SOURCES_DIR}/", f"copy the raw list into content/{SOURCES_DIR}/, or delete the line")
        elif not line.isdigit() or not 0 < int(line) <= len(found) or not found[int(line) - 1].strip():
            report.warning(paper.path, paper.line_of("source"), f"`source: {paper.source}`: no abstract starts "
                           "at that line", "write the line the abstract starts on in that list")


def _source_lines(path: Path, report: Report) -> list[str] | None:
    """A raw list's lines; a list that cannot be read is worth a warning, not a failed check
    (a build never reads it)."""
    if not path.is_file():
        return None
    try:
        return read_lines(path)
    except ContentError as error:
        report.extend(Diagnostic(d.path, d.line, d.message, d.hint, "warning") for d in error.diagnostics)
        return []


def run_check(config: SiteConfig, strict: bool, quiet: bool = False, output: str = "text") -> int:
    """Run a build's every check (writing nothing) and the curation report; print what was
    found (grouped by file, as JSON, or as GitHub annotations), then a summary; the exit
    status for the command line."""
    report = Report()
    catalogue, costly = None, None
    try:
        catalogue, costly = check_site(config, report)
        curation_report(catalogue, config.content_dir / TAXONOMY_FILE, report, costly)
    except ContentError as error:
        report.extend(d for d in error.diagnostics if d not in report.diagnostics)
    shown = by_file([d for d in report.diagnostics if not (quiet and d.severity == "note")])
    counts = Counter(d.severity for d in report.diagnostics)
    failed = bool(counts["error"]) or (strict and bool(counts["warning"]))
    if output == "json":
        review = review_items(catalogue.papers, config.content_dir, costly) if catalogue and costly else []
        print(json.dumps({"papers": len(catalogue.papers) if catalogue else None, "errors": counts["error"],
                          "warnings": counts["warning"], "notes": counts["note"], "ok": not failed,
                          "diagnostics": [_as_json(d) for d in shown],
                          "review": [_review_json(item) for item in review]}, indent=2, ensure_ascii=False))
        return 1 if failed else 0
    if output == "github":  # the annotations on standard output, the summary below as always
        print("".join(f"{github_annotation(d)}\n" for d in shown), end="", flush=True)
    else:
        apart, recurring = recurring_notes(shown)
        for group in _groups(apart):
            print("\n".join(d.from_here() for d in group) + "\n", file=sys.stderr)
        for same in recurring:
            print(_folded(same) + "\n", file=sys.stderr)
    _summary(catalogue, counts, quiet, strict)
    return 1 if failed else 0


FOLD_FROM = 10  # files: a note said of this many, word for word, is printed once, with the files it is about
FILES_NAMED = 5


def recurring_notes(diagnostics: list[Diagnostic]) -> tuple[list[Diagnostic], list[list[Diagnostic]]]:
    """The diagnostics to print one by one, and the notes said word for word of FOLD_FROM files
    or more (`no code link` of a conference's new papers), each kind together: one line each
    would bury the rest."""
    by_words: dict[tuple[str, str], list[Diagnostic]] = {}
    for d in diagnostics:
        if d.severity == "note":
            by_words.setdefault((d.message, d.hint), []).append(d)
    recurring = [same for same in by_words.values() if len({str(d.path) for d in same}) >= FOLD_FROM]
    folded = {id(d) for same in recurring for d in same}
    return [d for d in diagnostics if id(d) not in folded], recurring


def _folded(same: list[Diagnostic]) -> str:
    first = same[0]
    named = ", ".join(shown_path(d.path) for d in same[:FILES_NAMED])
    return (f"note: {first.message}, in {len(same)} files — {first.hint}\n  {named}, and {len(same) - FILES_NAMED} "
            "more (each one: `--format json`)")


def _summary(catalogue: Catalogue | None, counts: Counter, quiet: bool, strict: bool) -> None:
    checked = f"Checked {len(catalogue.papers)} papers" if catalogue else "Could not check the papers"
    print(f"{checked}: {_count(counts['error'], 'error')}, {_count(counts['warning'], 'warning')}, "
          f"{_count(counts['note'], 'note')}"
          + (" (notes not shown)." if quiet and counts["note"] else "."), file=sys.stderr)
    if counts["error"]:
        print("Fix the errors first: a build would refuse this content.", file=sys.stderr)
    elif strict and counts["warning"]:
        print("--strict: warnings count as errors.", file=sys.stderr)


def by_file(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Files with errors first, then those with warnings, then the rest; each file's lines in order."""
    rank = {"error": 0, "warning": 1, "note": 2}
    worst: dict[str, int] = {}
    for d in diagnostics:
        worst[str(d.path)] = min(worst.get(str(d.path), 2), rank[d.severity])
    return sorted(diagnostics, key=lambda d: (worst[str(d.path)], str(d.path), d.line, rank[d.severity]))


def _groups(diagnostics: list[Diagnostic]) -> list[list[Diagnostic]]:
    groups: list[list[Diagnostic]] = []
    for d in diagnostics:
        if groups and str(groups[-1][0].path) == str(d.path):
            groups[-1].append(d)
        else:
            groups.append([d])
    return groups


def _as_json(diagnostic: Diagnostic) -> dict[str, object]:
    return {"path": shown_path(diagnostic.path), "line": diagnostic.line, "severity": diagnostic.severity,
            "message": diagnostic.message, "hint": diagnostic.hint}


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


GITHUB_LEVELS = {"error": "error", "warning": "warning", "note": "notice"}


def github_annotation(diagnostic: Diagnostic) -> str:
    """A GitHub Actions workflow command, which the pull request shows beside the file's line:
    `::error file=content/papers/x.md,line=3::message — fix`."""
    where = f"file={_github_escape(shown_path(diagnostic.path), True)}"
    if diagnostic.line:
        where += f",line={diagnostic.line}"
    text = f"{diagnostic.message} — {diagnostic.hint}" if diagnostic.hint else diagnostic.message
    return f"::{GITHUB_LEVELS[diagnostic.severity]} {where}::{_github_escape(text, False)}"


def _github_escape(text: str, property_value: bool) -> str:
    """The escapes GitHub's toolkit applies (`%`, line ends; `:` and `,` inside properties)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def run_review(content_dir: Path, output: str = "text") -> int:
    """`build.py review`: load the catalogue (drafts too) and print what needs a person, grouped;
    1 only if the content cannot be loaded (then its errors are printed)."""
    report = Report()
    try:
        catalogue = load_catalogue(content_dir, report, drafts=True)
    except ContentError as error:
        for diagnostic in error.diagnostics:
            print(diagnostic.from_here(), file=sys.stderr)
        print("Fix these errors first: `python build.py check` lists them too.", file=sys.stderr)
        return 1
    items = review_items(catalogue.papers, content_dir, costly_parts(catalogue.papers, catalogue.taxonomy))
    if output == "json":
        print(json.dumps({"papers": len(catalogue.papers), "review": [_review_json(item) for item in items]},
                         indent=2, ensure_ascii=False))
        return 0
    for heading, group in grouped(items).items():
        print(f"{heading} ({len(group)})\n" + "\n".join(map(_review_line, group)) + "\n")
    print(f"{_count(len(items), 'item')} to review in {len(catalogue.papers)} papers.")
    return 0


def _review_json(item: ReviewItem) -> dict[str, object]:
    """An item for tools, its path said from the working folder as the diagnostics' are."""
    return {**item.as_json(), "path": shown_path(item.path)}


def _review_line(item: ReviewItem) -> str:
    where = shown_path(item.path) + (f":{item.line}" if item.line else "")
    detail = f"\n      {item.detail}" if item.detail else ""
    return f"  {where}: {item.message} — {item.hint}{detail}"
