"""Raw paper lists: a header naming venue and year, then one abstract a paragraph."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..content.model import Venue
from ..files import read_text
from ..report import ContentError, Report

MIN_ABSTRACT_WORDS = 20
MAX_HEADER_WORDS = 12
KNOWN_VENUES = ("NeurIPS", "ICML", "ICLR", "ACL", "EMNLP", "NAACL", "EACL", "COLING", "COLM",
                "AAAI", "IJCAI", "CVPR", "ICCV", "ECCV", "AISTATS", "UAI", "COLT", "KDD",
                "TMLR", "JMLR", "SIGIR", "WWW", "CoRL", "MLSys", "LoG")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)|['’](\d\d)(?!\d)")
_ACRONYM = re.compile(r"(?<![A-Za-z])([A-Z][A-Za-z]*[A-Z])(?![A-Za-z])")


@dataclass(frozen=True)
class RawPaper:
    """One abstract as found in a list, with where it was found."""

    path: Path
    line: int
    paragraph: int
    venue: Venue
    text: str
    header_line: int = 1  # the list's header, which names the venue

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def parse_header(header: str) -> tuple[Venue | None, str]:
    """Find the venue and year in a header line in any words; return a complaint if not."""
    if len(header.split()) > MAX_HEADER_WORDS:
        return None, "the first line reads like an abstract, not a header"
    year_match = _YEAR.search(header)
    name = _venue_name(header)
    if not year_match:
        return None, "the header names no year"
    if not name:
        return None, "the header names no venue"
    year = int(year_match.group(1) or "20" + year_match.group(2))
    return Venue(year, name), ""


def _venue_name(header: str) -> str:
    for known in KNOWN_VENUES:
        if re.search(rf"(?<![A-Za-z]){known}(?![A-Za-z])", header, re.IGNORECASE):
            return known
    match = _ACRONYM.search(header)
    return match.group(1) if match else ""


def read_list(path: Path, report: Report) -> list[RawPaper]:
    """Parse one list file; report what could not be parsed with its line."""
    try:
        text = read_text(path)
    except ContentError as error:
        report.extend(error.diagnostics)
        return []
    except OSError as error:
        report.error(path, 0, f"cannot read the file ({error.strerror})", "check the path")
        return []
    paragraphs = _paragraphs(text)
    if not paragraphs:
        report.error(path, 1, "the list is empty",
                     "start with a header like `ICML 2024 Papers`, then one abstract a paragraph")
        return []
    header_line, header_lines = paragraphs[0]
    venue, complaint = parse_header(header_lines[0])
    if not venue:
        report.error(path, header_line, f"{complaint}: {header_lines[0][:60]!r}",
                     "start the file with a line naming venue and year, like `ICML 2024 Papers`")
        return []
    if len(header_lines) > 1:
        paragraphs[0] = (header_line + 1, header_lines[1:])
    else:
        paragraphs = paragraphs[1:]
    if not paragraphs:
        report.error(path, header_line, "the list has a header but no abstracts",
                     "add abstracts below the header, one paragraph each, separated by blank lines")
    return _papers(path, venue, paragraphs, header_line, report)


def _papers(path: Path, venue: Venue, paragraphs: list[tuple[int, list[str]]], header_line: int,
            report: Report) -> list[RawPaper]:
    papers = []
    for number, (line, lines) in enumerate(paragraphs, start=1):
        abstract = " ".join(" ".join(lines).split())  # tabs, form feeds, runs of spaces: one space
        words = len(abstract.split())
        if words < MIN_ABSTRACT_WORDS:
            report.error(path, line, f"a paragraph of {words} words is too short for an abstract",
                         "join it to the abstract it belongs to, or delete it")
            continue
        papers.append(RawPaper(path, line, number, venue, abstract, header_line))
    return papers


def _paragraphs(text: str) -> list[tuple[int, list[str]]]:
    """Blocks of non-blank lines, each with the 1-based line it starts on."""
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            if not current:
                start = number
            current.append(line)
        elif current:
            blocks.append((start, current))
            current = []
    if current:
        blocks.append((start, current))
    return blocks
