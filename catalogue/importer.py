"""`build.py import`: raw paper lists → one Markdown file a paper in `content/papers/`."""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass, field
from pathlib import Path

import frontmatter

from .cleaning import clean_abstract, leftover_latex
from .derive import derived_title, find_links, slug_source, slugify, unique_slug
from .load import PAPERS_DIR, fingerprint, read_identities
from .metadata import PaperFacts, match_facts, read_metadata
from .model import Taxonomy
from .rawlist import RawPaper, read_list
from .report import ContentError, Report
from .taxonomy import load_taxonomy, suggest_tags


@dataclass
class ImportResult:
    added: list[Path] = field(default_factory=list)
    skipped: list[tuple[RawPaper, Path | str]] = field(default_factory=list)


def import_lists(lists: list[Path], content_dir: Path, metadata: Path | None,
                 report: Report) -> ImportResult:
    """Add every paper not yet in `content/`; never touch a file that exists."""
    taxonomy = load_taxonomy(content_dir, report)
    facts = read_metadata(metadata, report) if metadata else []
    known, slugs = read_identities(content_dir, report)
    _refuse_papers_outside(content_dir, report)
    if report.errors:
        raise ContentError(report.errors)  # an unreadable content file could be a duplicate
    assert taxonomy is not None
    result = ImportResult()
    matched: set[int] = set()
    for raw in (paper for path in lists for paper in read_list(path, report)):
        body = clean_abstract(raw.text)
        fact = match_facts(raw, facts)
        matched.update([fact.line] if fact else [])
        existing = known.get(fingerprint(raw.text)) or known.get(fingerprint(body))
        if existing:
            result.skipped.append((raw, existing))
            continue
        path = _write_paper(raw, body, fact, taxonomy, slugs, content_dir, report)
        known[fingerprint(raw.text)] = path
        result.added.append(path)
    if metadata:
        _report_unmatched(facts, matched, lists, metadata, report)
    _summarise(result, report)
    return result


def _refuse_papers_outside(content_dir: Path, report: Report) -> None:
    """New files go into content/papers/ only: never through a link to a folder elsewhere."""
    folder = content_dir / PAPERS_DIR
    if (folder.exists() or folder.is_symlink()) and not folder.resolve().is_relative_to(content_dir.resolve()):
        report.error(folder, 0, f"the papers folder is a link to {folder.resolve()}, outside content/",
                     "make content/papers/ a real folder inside content/")


def _write_paper(raw: RawPaper, body: str, facts: PaperFacts | None, taxonomy: Taxonomy,
                 slugs: set[str], content_dir: Path, report: Report) -> Path:
    title = facts.title if facts else derived_title(body)
    slug = unique_slug(slugify(slug_source(title, body)), slugs)
    slugs.add(slug)
    code, project = find_links(body)
    meta: dict[str, object] = {
        "title": title,
        "title_source": "metadata" if facts else "derived",
        "slug": slug,
        "venue": raw.venue.label,
        "added": datetime.date.today(),
    }
    if facts and facts.authors:
        meta["authors"] = list(facts.authors)
    if facts and facts.arxiv:
        meta["arxiv"] = facts.arxiv
    elif facts and facts.url:
        meta["url"] = facts.url
    meta["tags"] = list(suggest_tags(title, body, taxonomy))
    meta.update({k: v for k, v in (("code", code), ("project", project)) if v})
    meta.update(aliases=[], fingerprint=fingerprint(raw.text), source=f"{raw.path.name}:{raw.line}")
    if len(meta["tags"]) < 2:
        report.warning(raw.path, raw.line, f"only {len(meta['tags'])} tag(s) suggested for `{slug}`",
                       "add tags by hand, or phrases to content/taxonomy.yaml")
    for command in sorted(set(leftover_latex(body))):
        report.warning(raw.path, raw.line, f"could not convert LaTeX `{command}`",
                       f"fix it by hand in content/papers/{slug}.md")
    target = content_dir / PAPERS_DIR / f"{slug}.md"  # the slug is [a-z0-9-]: never a path of its own
    write_new_file(target, frontmatter.dumps(frontmatter.Post(body, **meta), sort_keys=False,
                                             default_flow_style=None, width=10_000) + "\n")
    report.info(f"added {target} ← {raw.where}")
    return target


def write_new_file(target: Path, text: str) -> None:
    """Write atomically, and never over an existing file (raises FileExistsError)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.link(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def _report_unmatched(facts: list[PaperFacts], matched: set[int], lists: list[Path],
                      metadata: Path, report: Report) -> None:
    """Rows meant for the imported files that matched no abstract deserve a look."""
    names = {path.name for path in lists}
    for fact in facts:
        if fact.file in names and fact.line not in matched:
            report.warning(metadata, fact.line, "this row's abstract_start begins no abstract",
                           f"compare it with paragraph {fact.para} of {fact.file}")


def _summarise(result: ImportResult, report: Report) -> None:
    for raw, existing in result.skipped:
        report.info(f"skipped {raw.where}: already in {existing}")
    problems = len(report.errors)
    report.info(f"import: {len(result.added)} added, {len(result.skipped)} skipped, "
                f"{problems} could not be parsed")
