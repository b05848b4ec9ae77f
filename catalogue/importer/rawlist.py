"""Raw paper lists: a header naming venue and year, then one abstract a paragraph."""

from __future__ import annotations

import re
from pathlib import Path

from ..content.model import Venue
from ..files import read_text
from ..report import ContentError, Report
from .record import Entry

NAME = "a raw list (a header naming venue and year, then one abstract a paragraph)"
MIN_ABSTRACT_WORDS = 20
MAX_HEADER_WORDS = 12
KNOWN_VENUES = ("NeurIPS", "ICML", "ICLR", "ACL", "EMNLP", "NAACL", "EACL", "COLING", "COLM",
                "AAAI", "IJCAI", "CVPR", "ICCV", "ECCV", "AISTATS", "UAI", "COLT", "KDD",
                "TMLR", "JMLR", "SIGIR", "WWW", "CoRL", "MLSys", "LoG")
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)|['’](\d\d)(?!\d)")
_ACRONYM = re.compile(r"(?<![A-Za-z])([A-Z][A-Za-z]*[A-Z])(?![A-Za-z])")


RawPaper = Entry  # what a raw list gives: an abstract, where it starts, its header's venue


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
    text = read_import_file(path, report)
    return [] if text is None else parse_list(path, text, report)


def read_import_file(path: Path, report: Report) -> str | None:
    """A file to import, as text; None (reported) if it cannot be read or decoded."""
    try:
        return read_text(path)
    except ContentError as error:
        report.extend(error.diagnostics)
    except OSError as error:
        report.error(path, 0, f"cannot read the file ({error.strerror})", "check the path")
    return None


def detect(path: Path, text: str) -> bool:
    """A raw list: a header naming a venue and year, or a first line or paragraph that reads as
    an abstract (its header missing, which `parse_list` says at its line); empty counts too."""
    paragraphs = paragraphs_of(text)
    if not paragraphs:
        return True
    first = paragraphs[0][1]
    if parse_header(first[0])[0] or len(first[0].split()) >= MIN_ABSTRACT_WORDS:
        return True
    second = paragraphs[1][1] if len(paragraphs) > 1 else [""]
    return len(first) == 1 and len(first[0].split()) <= MAX_HEADER_WORDS and len(second[0].split()) >= MIN_ABSTRACT_WORDS


def read_header(path: Path, text: str, report: Report) -> tuple[Venue, int, list[tuple[int, list[str]]]] | None:
    """The header's venue and line, and the paragraphs after it; None (reported) without one."""
    paragraphs = paragraphs_of(text)
    if not paragraphs:
        report.error(path, 1, "the list is empty",
                     "start with a header like `ICML 2024 Papers`, then one abstract a paragraph")
        return None
    header_line, header_lines = paragraphs[0]
    venue, complaint = parse_header(header_lines[0])
    if not venue:
        report.error(path, header_line, f"{complaint}: {header_lines[0][:60]!r}",
                     "start the file with a line naming venue and year, like `ICML 2024 Papers`")
        return None
    if len(header_lines) > 1:
        paragraphs[0] = (header_line + 1, header_lines[1:])
    else:
        paragraphs = paragraphs[1:]
    if not paragraphs:
        report.error(path, header_line, "the list has a header but no abstracts",
                     "add abstracts below the header, one paragraph each, separated by blank lines")
    return venue, header_line, paragraphs


def parse_list(path: Path, text: str, report: Report) -> list[RawPaper]:
    """A raw list's abstracts; report what could not be parsed with its line."""
    found = read_header(path, text, report)
    if found is None:
        return []
    venue, header_line, paragraphs = found
    return _papers(path, venue, paragraphs, header_line, report)


read = parse_list  # as every format's module names its reader


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


def paragraphs_of(text: str) -> list[tuple[int, list[str]]]:
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
