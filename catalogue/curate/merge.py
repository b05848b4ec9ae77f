"""`merge KEEP DROP`: two files that are the same paper become one. DROP's file goes; KEEP
takes its slug and aliases as aliases (so /papers/DROP/ redirects to KEEP), the facts it
lacks, and its tags."""

from __future__ import annotations

import difflib
from pathlib import Path

from ..content.catalogue import Catalogue
from ..content.model import FRONT_MATTER, Paper
from ..content.source import fingerprint, read_source
from ..report import Report
from .transaction import Transaction, load_content

TAKEN = ("authors", "arxiv", "openreview", "url", "pages", "presentation", "code", "project", "doi")  # what KEEP takes from DROP if it has none


def merge_papers(content_dir: Path, keep: str, drop: str, report: Report) -> Transaction | None:
    """The transaction that makes DROP an alias of KEEP; None (with the reason) if it cannot."""
    catalogue = load_content(content_dir, report)
    if catalogue is None:
        return None
    kept, dropped = (_paper(catalogue, slug, role, report) for slug, role in ((keep, "KEEP"), (drop, "DROP")))
    if kept is None or dropped is None:
        return None
    if kept.slug == dropped.slug:
        report.error(kept.path, kept.line_of("slug"), f"`{keep}` and `{drop}` are the same paper",
                     "name two different papers: merge KEEP DROP")
        return None
    if dropped.notes:
        report.error(dropped.path, dropped.notes_start, f"`{drop}` has notes of its own, which merging would delete",
                     f"move them under `## Notes` in {kept.path.name} (or delete them), then merge again")
        return None
    source, other = read_source(kept.path), read_source(dropped.path)
    aliases = list(source.meta.get("aliases") or [])
    fields: dict[str, object] = {"aliases": list(dict.fromkeys([*aliases, dropped.slug, *dropped.aliases]))}
    for key in TAKEN:
        if key in FRONT_MATTER and not source.meta.get(key) and other.meta.get(key):
            fields[key] = other.meta[key]
    fields["tags"] = list(dict.fromkeys([*kept.tags, *dropped.tags]))
    # DROP's abstract is gone, so an import would add it again: KEEP remembers its fingerprints.
    fields["merged"] = list(dict.fromkeys([*kept.merged, *filter(None, [dropped.fingerprint]),
                                           fingerprint(dropped.body), *dropped.merged]))
    transaction = Transaction(content_dir)
    transaction.rewrite(source, fields)
    transaction.delete(dropped.path, f"its paper is now {kept.slug}: /papers/{dropped.slug}/ redirects there")
    return transaction


def _paper(catalogue: Catalogue, slug: str, role: str, report: Report) -> Paper | None:
    """The paper with this slug; None, saying why, if no paper has it (or it is an old slug)."""
    found = next((paper for paper in catalogue.papers if paper.slug == slug), None)
    if found:
        return found
    withdrawn = catalogue.withdrawn.get(slug)
    if withdrawn:
        why = "a merge would make its page a redirect" if role == "DROP" else "the other's address would lead to a withdrawn paper"
        report.error(withdrawn.path, withdrawn.line_of("withdrawn"), f"{role} `{slug}` is withdrawn: its page "
                     f"stays, saying so, and {why}", "remove `withdrawn:` first if it really is the same paper as the other")
        return None
    owner = next((paper for paper in catalogue.papers if slug in paper.aliases), None)
    if owner:
        report.error(owner.path, owner.line_of("aliases"), f"{role} `{slug}` is already an alias of `{owner.slug}`",
                     f"nothing to merge: /papers/{slug}/ leads to `{owner.slug}` already"
                     if role == "DROP" else f"name the paper by its slug, `{owner.slug}`")
        return None
    close = difflib.get_close_matches(slug, [paper.slug for paper in catalogue.papers], 1)
    report.error(catalogue.papers[0].path.parent if catalogue.papers else "content", 0,
                 f"{role}: no paper has the slug `{slug}`",
                 f"did you mean `{close[0]}`?" if close else "name a paper by its `slug:`")
    return None
