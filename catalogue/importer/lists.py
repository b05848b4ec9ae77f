"""`build.py import`: raw paper lists → one Markdown file a paper in `content/papers/`."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path

import frontmatter

from .. import urls
from ..config import LEDGER_FILE
from ..content.loader import read_identities
from ..content.model import FIELD_ORDER, Venue
from ..content.paperlinks import paper_page
from ..content.source import (
    PAPERS_DIR,
    SOURCES_DIR,
    PageSource,
    fingerprint,
    read_source,
    with_fields,
)
from ..content.taxonomy import load_taxonomy
from ..content.venues import VENUES_FILE, load_venues, unknown_venue_hint
from ..files import write_atomic, write_new
from ..ledger import read_ledger
from ..relate.tagging import TagSuggester
from ..report import ContentError, Report
from .cleaning import clean_abstract, leftover_latex
from .derive import derived_title
from .links import find_links
from .metadata import PaperFacts, match_facts, read_metadata
from .rawlist import RawPaper, read_list
from .slugs import slug_source, slugify, unique_slug


@dataclass
class ImportResult:
    added: list[Path] = field(default_factory=list)
    skipped: list[tuple[RawPaper, Path | str]] = field(default_factory=list)
    updated: list[Path] = field(default_factory=list)


@dataclass
class _Known:
    """What content/ already holds: papers by fingerprint, slugs taken, slugs published."""

    papers: dict[str, Path]
    slugs: set[str]
    published: set[str]


def import_lists(lists: list[Path], content_dir: Path, metadata: Path | None,
                 report: Report, update: bool = False) -> ImportResult:
    """Add every paper not yet in `content/`; never touch a file that exists, except, with
    `update`, to give a paper whose title is still derived what the metadata knows of it."""
    taxonomy = load_taxonomy(content_dir, report)
    venues = load_venues(content_dir, report)
    facts = read_metadata(metadata, report) if metadata else []
    papers, slugs = read_identities(content_dir, report)
    _refuse_papers_outside(content_dir, report)
    if report.errors:
        raise ContentError(report.errors)  # an unreadable content file could be a duplicate
    assert taxonomy is not None and venues is not None
    tagger = TagSuggester.from_content(content_dir, taxonomy, report)  # before this run's papers: never their neighbours
    known = _Known(papers, slugs, _published_slugs(content_dir))
    result = ImportResult()
    matched: set[int] = set()
    for path in lists:
        raws = read_list(path, report)
        if raws and _venue_known(raws[0], venues, report):
            _import_list(raws, facts, matched, tagger, venues, known, content_dir, update, report, result)
    if metadata:
        _report_unmatched(facts, matched, {path.name for path in lists}, content_dir, metadata, report)
    _summarise(result, report)
    return result


def _import_list(raws: list[RawPaper], facts: list[PaperFacts], matched: set[int], tagger: TagSuggester,
                 venues: dict[str, Venue], known: _Known, content_dir: Path, update: bool,
                 report: Report, result: ImportResult) -> None:
    kept = False  # the list is copied into content/sources/ before its first paper is written
    for raw in raws:
        body = clean_abstract(raw.text)
        fact = match_facts(raw, facts, report)
        matched.update([fact.line] if fact else [])
        existing = known.papers.get(fingerprint(raw.text)) or known.papers.get(fingerprint(body))
        if existing:
            if update and fact and _update_paper(existing, fact, body, known, report, result):
                continue
            result.skipped.append((raw, existing))
            continue
        if not kept and not (kept := _keep_source(raw.path, content_dir, report)):
            return
        path = _write_paper(raw, body, fact, tagger, known.slugs, content_dir, report)
        known.papers[fingerprint(raw.text)] = path
        result.added.append(path)


def _venue_known(raw: RawPaper, venues: dict[str, Venue], report: Report) -> bool:
    """A list's venue must be one content/venues.yaml describes, as every paper's must."""
    if raw.venue.label in venues:
        return True
    report.error(raw.path, raw.header_line, f"the header names venue `{raw.venue.label}`, "
                 f"which content/{VENUES_FILE} does not list", unknown_venue_hint(raw.venue.label, venues))
    return False


def _keep_source(path: Path, content_dir: Path, report: Report) -> bool:
    """Copy the list into content/sources/, where each paper's `source:` points; False (and
    an error) if another list of that name is there already."""
    target = content_dir / SOURCES_DIR / path.name
    data = path.read_bytes()
    if target.exists():
        if target.read_bytes() == data:
            return True
        report.error(path, 0, f"{target} holds another list of this name",
                     "rename this list (its papers' `source:` will name it), then import it again")
        return False
    write_new(target, data)
    report.info(f"kept {path} as {target}")
    return True


def _refuse_papers_outside(content_dir: Path, report: Report) -> None:
    """New files go into content/papers/ only: never through a link to a folder elsewhere."""
    folder = content_dir / PAPERS_DIR
    if (folder.exists() or folder.is_symlink()) and not folder.resolve().is_relative_to(content_dir.resolve()):
        report.error(folder, 0, f"the papers folder is a link to {folder.resolve()}, outside content/",
                     "make content/papers/ a real folder inside content/")


def _write_paper(raw: RawPaper, body: str, facts: PaperFacts | None, tagger: TagSuggester,
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
    meta.update(_known_facts(facts, {}))
    suggested = tagger.suggest(title, body)
    meta["tags"] = list(suggested.tags)
    meta.update({k: v for k, v in (("code", code), ("project", project)) if v})
    meta.update(aliases=[], fingerprint=fingerprint(raw.text), source=f"{raw.path.name}:{raw.line}")
    meta = {key: meta[key] for key in FIELD_ORDER if key in meta}  # the order every tool writes
    if len(meta["tags"]) < 2:
        report.warning(raw.path, raw.line, f"only {len(meta['tags'])} tag(s) suggested for `{slug}`",
                       suggested.consider())
    for command in sorted(set(leftover_latex(body))):
        report.warning(raw.path, raw.line, f"could not convert LaTeX `{command}`",
                       f"fix it by hand in content/papers/{slug}.md")
    target = content_dir / PAPERS_DIR / f"{slug}.md"  # the slug is [a-z0-9-]: never a path of its own
    write_new(target, frontmatter.dumps(frontmatter.Post(body, **meta), sort_keys=False,
                                             default_flow_style=None, width=10_000) + "\n")
    report.info(f"added {target} ← {raw.where}")
    return target


def _known_facts(facts: PaperFacts | None, meta: dict) -> dict[str, object]:
    """Authors, arXiv id and venue page from the metadata, for fields `meta` does not have.
    Only the paper's own addresses: where the title was found (`source_url`) is provenance."""
    if facts is None:
        return {}
    found: dict[str, object] = {}
    if facts.authors and not meta.get("authors"):
        found["authors"] = list(facts.authors)
    if facts.arxiv and not meta.get("arxiv"):
        found["arxiv"] = facts.arxiv
    if paper_page(facts.url) and not meta.get("url"):
        found["url"] = paper_page(facts.url)
    return found


def _update_paper(path: Path, facts: PaperFacts, body: str, known: _Known, report: Report,
                  result: ImportResult) -> bool:
    """Give a paper whose title is still derived its real title, authors and links; False
    (nothing done) if a person has curated it. A slug not yet published follows the new
    title, keeping the old one as an alias; a published slug stays."""
    source = read_source(path)
    meta = source.meta
    if meta.get("title_source") != "derived":
        return False
    changes: dict[str, object] = {"title": facts.title, "title_source": "metadata", **_known_facts(facts, meta)}
    slug = meta["slug"]
    new_slug = unique_slug(slugify(slug_source(facts.title, body)), known.slugs - {slug})
    if new_slug != slug and slug not in known.published:
        changes.update(slug=new_slug, aliases=[*(meta.get("aliases") or []), slug])
        known.slugs.add(new_slug)
    target = path.with_name(f"{changes.get('slug', slug)}.md")
    _rewrite(source, target, changes)
    known.papers.update({key: target for key, value in known.papers.items() if value == path})
    report.info(f"updated {target} ← {facts.title}" + (f" (was {path.name})" if target != path else ""))
    result.updated.append(target)
    return True


def _rewrite(source: PageSource, target: Path, changes: dict[str, object]) -> None:
    """Write the changed file; under a new name, the new file is in place before the old goes."""
    text = with_fields(source, changes)
    if target == source.path:
        write_atomic(target, text)
    else:
        write_new(target, text)
        source.path.unlink()


def _published_slugs(content_dir: Path) -> set[str]:
    """Slugs whose pages the ledger says were published: they never change."""
    return urls.ids(read_ledger(content_dir.resolve().parent / LEDGER_FILE), urls.PAPERS)


def _report_unmatched(facts: list[PaperFacts], matched: set[int], names: set[str], content_dir: Path,
                      metadata: Path, report: Report) -> None:
    """Rows whose opening text begins no abstract of these lists deserve a look, if they may be
    meant for these lists: rows naming one, naming none, or naming a list not imported before
    (a renamed list); rows for the other lists in content/sources/ are simply for another day."""
    for fact in facts:
        elsewhere = fact.file not in names and (content_dir / SOURCES_DIR / fact.file).is_file()
        if fact.line not in matched and not (fact.file and elsewhere):
            report.warning(metadata, fact.line, "this row's abstract_start begins no abstract in these lists",
                           f"compare it with paragraph {fact.para} of {fact.file or 'its list'}, "
                           "or import the list it belongs to")


def _summarise(result: ImportResult, report: Report) -> None:
    for raw, existing in result.skipped:
        report.info(f"skipped {raw.where}: already in {existing}")
    problems = len(report.errors)
    updated = f"{len(result.updated)} updated, " if result.updated else ""
    report.info(f"import: {len(result.added)} added, {updated}{len(result.skipped)} skipped, "
                f"{problems} could not be parsed")
