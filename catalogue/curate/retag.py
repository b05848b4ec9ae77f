"""`retag --where QUERY --add TAG [--remove TAG]`: tags added to (or taken from) the papers a
query picks, by tag, venue, words or title source.

A query is terms (`tag:kv-cache`, `venue:"ICML 2024"`, bare words for the title and abstract),
all of which must match; `NOT term` or `-term` must not match; `OR` joins such groups. `AND`
may be written between terms (it changes nothing). Anything else a query language might mean
(parentheses) is refused, never read as words."""

from __future__ import annotations

import difflib
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from ..config import TAXONOMY_FILE
from ..content.catalogue import Catalogue
from ..content.model import Paper
from ..content.schema import TITLE_SOURCES
from ..content.source import read_source
from ..report import Report
from .tags import unknown_tag_hint
from .transaction import Transaction, every_paper, load_content

FIELDS = ("tag", "venue", "text", "title_source", "slug")


@dataclass(frozen=True)
class Term:
    """One condition of a query: `tag:kv-cache`, `venue:ICML 2024`, a word."""

    field: str
    value: str
    negated: bool = False

    def matches(self, paper: Paper) -> bool:
        return self._holds(paper) != self.negated

    def _holds(self, paper: Paper) -> bool:
        if self.field == "tag":
            return self.value in paper.tags
        if self.field == "venue":
            return self.value.casefold() in (paper.venue.label.casefold(), paper.venue.slug)
        if self.field == "title_source":
            return paper.title_source == self.value
        if self.field == "slug":
            return paper.slug == self.value
        words = r"\s+".join(map(re.escape, self.value.casefold().split()))
        return re.search(rf"(?<!\w){words}(?!\w)", f"{paper.title}\n{paper.body}".casefold()) is not None


def parse_query(query: str) -> list[list[Term]]:
    """Groups of terms, joined by `OR`; the terms of a group must all match. Raises ValueError."""
    try:
        words = shlex.split(query)
    except ValueError as error:
        raise ValueError(f"cannot read the query ({error})") from None
    if not words:
        raise ValueError("the query names nothing to match")
    groups: list[list[Term]] = [[]]
    negated = False
    for word in words:
        operator = word.upper()
        if operator in ("OR", "AND") and negated:
            raise ValueError(f"`NOT` needs a term after it, not `{word}`")
        if operator == "OR":
            groups.append([])
        elif operator == "NOT":
            negated = True
        elif operator != "AND":
            groups[-1].append(_term(word, negated))
            negated = False
    if negated:
        raise ValueError("`NOT` needs a term after it")
    if not all(groups):
        raise ValueError("`OR` needs terms on both sides")
    return groups


def _term(word: str, negated: bool) -> Term:
    if word.startswith("-"):
        word, negated = word[1:], not negated
    if re.search(r"^\(|\)$", word):
        raise ValueError(f"`{word}`: parentheses are not supported (write each case as a group, joined by OR)")
    field, colon, value = word.partition(":")
    if colon and re.fullmatch(r"[A-Za-z_]+", field) and field.lower() not in FIELDS:
        raise ValueError(f"`{field}:` is no field a query knows (fields: {', '.join(FIELDS)}; bare words "
                         "match the title and abstract)")
    if not colon or field.lower() not in FIELDS:
        field, value = "text", word
    if not value:
        raise ValueError(f"`{word or '-'}` names no value")
    return Term(field.lower(), value, negated)


def unknown_values(groups: list[list[Term]], catalogue: Catalogue) -> list[str]:
    """What a query names that the catalogue has not (a mistyped tag, venue or slug), each
    with the nearest it has: a query that quietly matches nothing helps no one."""
    known = {"tag": list(catalogue.taxonomy.tags), "slug": [p.slug for p in every_paper(catalogue)],
             "venue": [*(v.label for v in catalogue.venues), *(v.slug for v in catalogue.venues)],
             "title_source": list(TITLE_SOURCES)}
    problems = []
    for term in (t for group in groups for t in group if t.field in known):
        values = known[term.field]
        if term.value not in values and term.value.casefold() not in map(str.casefold, values):
            close = difflib.get_close_matches(term.value, values, 1, cutoff=0.6)
            problems.append(f"no {term.field.replace('_', ' ')} `{term.value}`"
                            + (f": did you mean `{close[0]}`?" if close else ""))
    return problems


def retag(content_dir: Path, query: str, add: list[str], remove: list[str], report: Report) -> Transaction | None:
    """The transaction that retags the papers `query` picks; None (reported) if it cannot."""
    catalogue = load_content(content_dir, report)
    if catalogue is None:
        return None
    try:
        groups = parse_query(query)
    except ValueError as error:
        report.error("retag --where", 0, str(error), 'write terms such as tag:kv-cache venue:"ICML 2024" '
                     "text:mamba or bare words, NOT (or -) before a term to exclude, and OR between groups")
        return None
    for problem in unknown_values(groups, catalogue):
        report.error("retag --where", 0, problem, "name what the catalogue has: see content/taxonomy.yaml, "
                     "content/venues.yaml and the papers' `slug:`")
    if report.errors:
        return None
    unknown = [tag for tag in [*add, *remove] if tag not in catalogue.taxonomy.tags]
    for tag in unknown:
        report.error(content_dir / TAXONOMY_FILE, 0, f"no tag `{tag}` in the taxonomy",
                     unknown_tag_hint(tag, catalogue.taxonomy.tags))
    if unknown:
        return None
    chosen = [paper for paper in catalogue.papers if any(all(t.matches(paper) for t in group) for group in groups)]
    transaction = Transaction(content_dir)
    transaction.notes.append(f"{len(chosen)} paper{' matches' if len(chosen) == 1 else 's match'} `{query}`")
    for paper in chosen:
        tags = list(dict.fromkeys([*(t for t in paper.tags if t not in remove), *add]))
        if not tags:
            report.error(paper.path, paper.line_of("tags"), "this paper would be left with no tag",
                         "add a tag with --add, or leave this paper out of the query")
        elif tags == list(paper.tags):
            transaction.notes.append(f"  {paper.slug}: already as asked")
        else:
            transaction.rewrite(read_source(paper.path), {"tags": tags})
    return None if report.errors else transaction
