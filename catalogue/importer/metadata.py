"""Known facts about papers (real titles, authors, arXiv ids) from a TSV, matched by opening text."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from ..content.model import URL_PATTERN
from ..content.paperlinks import ARXIV_ID, arxiv_id_in
from ..files import read_lines
from ..report import ContentError, Report
from .rawlist import RawPaper

REQUIRED_COLUMNS = ("file", "para", "abstract_start", "title", "authors", "arxiv_id")


@dataclass(frozen=True)
class PaperFacts:
    """One metadata row: where it claims its abstract is, and what it knows."""

    line: int
    file: str
    para: int
    opening: str
    title: str
    authors: tuple[str, ...]
    arxiv: str
    url: str


def read_metadata(path: Path, report: Report) -> list[PaperFacts]:
    """Read the TSV; report malformed rows with their line and skip them."""
    try:
        lines = read_lines(path)
    except ContentError as error:
        report.extend(error.diagnostics)
        return []
    except OSError as error:
        report.error(path, 0, f"cannot read the metadata file ({error.strerror})", "check the path")
        return []
    rows = list(csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    if not rows or any(column not in rows[0] for column in REQUIRED_COLUMNS):
        report.error(path, 1, "the header lacks a required column",
                     f"the first line must name the columns {', '.join(REQUIRED_COLUMNS)}")
        return []
    header = rows[0]
    facts = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        record = dict(zip(header, (cell.strip() for cell in row)))
        fact = _facts(record, number, path, report)
        if fact:
            facts.append(fact)
    return facts


def _facts(record: dict[str, str], line: int, path: Path, report: Report) -> PaperFacts | None:
    if not record.get("abstract_start") or not record.get("title"):
        report.warning(path, line, "row without abstract_start or title, skipped",
                       "fill both columns, or delete the row")
        return None
    arxiv = record.get("arxiv_id", "") or arxiv_id_in(record.get("source_url", ""))
    if arxiv and not ARXIV_ID.match(arxiv):
        report.warning(path, line, f"{arxiv!r} is not an arXiv id, ignored",
                       "write ids like 2406.07522")
        arxiv = ""
    url = record.get("source_url", "")
    if url and not URL_PATTERN.match(url):
        report.warning(path, line, f"source_url {url!r} is not an http(s) URL, ignored",
                       "write a full address starting with https://")
        url = ""
    authors = tuple(a.strip() for a in record.get("authors", "").split(";") if a.strip())
    para = int(record["para"]) if record.get("para", "").isdigit() else 0
    return PaperFacts(line, record.get("file", ""), para, _normal(record["abstract_start"]),
                      record["title"], authors, arxiv, url)


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def match_facts(paper: RawPaper, facts: list[PaperFacts], report: Report | None = None) -> PaperFacts | None:
    """The row whose opening text starts this abstract, whatever the list is called now: one
    placed at this file and paragraph first, the longest opening winning. Openings that start
    several abstracts the same way, from rows placed elsewhere, are not guessed between."""
    opening = _normal(paper.text)
    candidates = [f for f in facts if opening.startswith(f.opening)]
    if not candidates:
        return None
    placed = [f for f in candidates if f.file == paper.path.name and f.para == paper.paragraph]
    longest = max(len(f.opening) for f in placed or candidates)
    best = [f for f in placed or candidates if len(f.opening) == longest]
    if len({f.title for f in best}) > 1:
        if report:
            report.warning(paper.path, paper.line, "several metadata rows begin like this abstract, "
                           f"with different titles (lines {', '.join(str(f.line) for f in best)})",
                           "give the rows longer abstract_start texts, or the file and para of this list")
        return None
    return best[0]
