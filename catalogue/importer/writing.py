"""A new paper's page: its front matter from what the import file (or the metadata) knows,
written once into content/papers/, or, in a dry run, shown."""

from __future__ import annotations

import datetime
from pathlib import Path

import frontmatter

from ..config import PAPERS_DIR
from ..content.model import FIELD_ORDER, URL_PATTERN, Venue
from ..content.paperlinks import openreview_id_in, paper_page, placeholder
from ..content.source import fingerprint
from ..files import write_new
from ..relate.tagging import Suggestions, TagSuggester
from ..report import Report, shown_path
from .cleaning import leftover_latex
from .derive import derived_title
from .links import find_links
from .metadata import PaperFacts
from .record import Entry
from .slugs import slug_source, slugify, unique_slug


def _confidences(suggested: Suggestions) -> str:
    """`tags: kv-cache (0.82), sparse-attention (0.41); next: long-context-data (0.22)`."""
    shown = lambda found: ", ".join(f"{s.tag} ({s.confidence:.2f})" for s in found) or "none"  # noqa: E731
    return f"tags: {shown(suggested.applied)}; next: {shown(suggested.others[:max(1, 3 - len(suggested.applied))])}"


def known_facts(entry: Entry | None, facts: PaperFacts | None, meta: dict) -> dict[str, object]:
    """Authors, arXiv and OpenReview ids, DOI and proceedings page from the import file, else the
    metadata, for fields `meta` does not have. Only the paper's own addresses: where a title was
    found is provenance."""
    given = entry or Entry(Path(), 0, 0, None, "")
    authors = given.authors or (facts.authors if facts else ())
    arxiv = given.arxiv or (facts.arxiv if facts else "")
    addresses = [given.url, given.pdf, facts.url if facts else ""]
    forum = next(filter(None, map(openreview_id_in, addresses)), "")
    url = next(filter(None, map(paper_page, addresses)), "")
    found: dict[str, object] = {}
    for key, value in (("authors", list(authors)), ("arxiv", arxiv), ("openreview", forum), ("doi", given.doi),
                       ("url", url)):
        if value and not meta.get(key):
            found[key] = value
    return found


def front_matter(entry: Entry, venue: Venue, body: str, facts: PaperFacts | None, tagger: TagSuggester,
                 slugs: set[str]) -> tuple[dict[str, object], Suggestions]:
    """The new page's fields, in the order every tool writes them (its slug taken from `slugs`),
    and the tag suggestions they were chosen from."""
    title = entry.title or (facts.title if facts else "") or derived_title(body)
    slug = unique_slug(slugify(slug_source(title, body)), slugs)
    slugs.add(slug)
    code, project = find_links(body)
    if entry.code and URL_PATTERN.match(entry.code) and not placeholder(entry.code):
        code = entry.code
    meta: dict[str, object] = {
        "title": title,
        "title_source": "metadata" if entry.title or facts else "derived",
        "slug": slug,
        "venue": venue.label,
        "added": datetime.date.today(),
    }
    meta.update(known_facts(entry, facts, {}))
    suggested = tagger.suggest(title, body)
    meta["tags"] = list(suggested.tags)
    meta.update({k: v for k, v in (("code", code), ("project", project)) if v})
    meta.update(aliases=[], fingerprint=fingerprint(entry.text), source=f"{entry.path.name}:{entry.line}")
    return {key: meta[key] for key in FIELD_ORDER if key in meta}, suggested


def write_paper(entry: Entry, meta: dict[str, object], body: str, content_dir: Path, report: Report,
                dry_run: bool = False, suggested: Suggestions | None = None) -> Path:
    """Write the page (never over a file), or in a dry run print what would be written, each
    with the tags it was given and the next best, with their confidences."""
    slug = meta["slug"]
    if len(meta["tags"]) < 2:
        report.warning(entry.path, entry.line, f"only {len(meta['tags'])} tag(s) suggested for `{slug}`",
                       suggested.consider() if suggested else "add tags by hand, or phrases to content/taxonomy.yaml")
    for command in sorted(set(leftover_latex(body))):
        report.warning(entry.path, entry.line, f"could not convert LaTeX `{command}`",
                       f"fix it by hand in content/papers/{slug}.md")
    target = content_dir / PAPERS_DIR / f"{slug}.md"  # the slug is [a-z0-9-]: never a path of its own
    text = frontmatter.dumps(frontmatter.Post(body, **meta), sort_keys=False, default_flow_style=None,
                             width=10_000) + "\n"
    tags = f"\n  {_confidences(suggested)}" if suggested else ""
    if dry_run:
        report.info(f"would add {shown_path(target)} ← {entry.where}{tags}\n{text[:text.index('---', 3) + 3]}")
    else:
        write_new(target, text)
        report.info(f"added {shown_path(target)} ← {entry.where}{tags}")
    return target
