"""Raw lists with a title line above each abstract: the header naming venue and year, then
for each paper its title (a line of its own, or a paragraph of its own) and its abstract."""

from __future__ import annotations

import re
from pathlib import Path

from ...report import Report
from ..rawlist import MIN_ABSTRACT_WORDS, paragraphs_of, parse_header, read_header
from ..record import Entry

NAME = "a raw list with a title line above each abstract"
MAX_TITLE_WORDS = 25
Block = tuple[int, list[str]]
Paper = tuple[int, str, list[str]]  # the title's line, the title, the abstract's lines
LEADS_ON = frozenset("a an the of and or to in for with on by from as at like such than that which whose "
                     "is are was were be been have has had can could may might will would do does not "
                     "we our its their this these".split())  # no title ends so; a wrapped line often does


def detect(path: Path, text: str) -> bool:
    """A header naming a venue, then every abstract with a title above it."""
    paragraphs = paragraphs_of(text)
    if not paragraphs or not parse_header(paragraphs[0][1][0])[0]:
        return False
    first = paragraphs[0]
    rest = ([(first[0] + 1, first[1][1:])] if len(first[1]) > 1 else []) + paragraphs[1:]
    return bool(titled(rest))


def read(path: Path, text: str, report: Report) -> list[Entry]:
    """One entry a title and its abstract, at the title's line."""
    found = read_header(path, text, report)
    if found is None:
        return []
    venue, header_line, paragraphs = found
    papers = titled(paragraphs) or []
    return [Entry(path, line, number, venue, " ".join(" ".join(lines).split()), header_line, title=title)
            for number, (line, title, lines) in enumerate(papers, start=1)]


def titled(paragraphs: list[Block]) -> list[Paper] | None:
    """Each abstract with its title: the first line of its paragraph, if it reads as a title,
    or a short paragraph of its own just above it; None if any abstract has no title."""
    papers: list[Paper] = []
    index = 0
    while index < len(paragraphs):
        line, lines = paragraphs[index]
        following = paragraphs[index + 1][1] if index + 1 < len(paragraphs) else []
        if len(lines) > 1 and _title_line(lines[0], strict=True) and _starts_sentence(lines[1]) \
                and _abstract(lines[1:]):
            papers.append((line, " ".join(lines[0].split()), lines[1:]))
            index += 1
        elif _title_line(" ".join(lines), strict=False) and _abstract(following) and \
                not (len(following) > 1 and _title_line(following[0], strict=True)):
            papers.append((line, " ".join(" ".join(lines).split()), following))
            index += 2
        else:
            return None
    return papers or None


def _starts_sentence(line: str) -> bool:
    """An abstract starts as a sentence does; a wrapped abstract's second line seldom does."""
    first = line.lstrip()[:1]
    return first.isupper() or first.isdigit() or first in "$*\\([“\"'_"


def _abstract(lines: list[str]) -> bool:
    return len(" ".join(lines).split()) >= MIN_ABSTRACT_WORDS


def _title_line(text: str, strict: bool) -> bool:
    """Short, not ending a sentence; a line inside a paragraph must also look like a title
    (a colon, or mostly capitalised words, and no last word that leads on), since a
    hard-wrapped abstract's line is short too (`Large Language Models (LLMs) like GPT-4 and`)."""
    words = text.split()
    if not 0 < len(words) <= MAX_TITLE_WORDS or re.search(r"[.,;]$", text.strip()):
        return False
    if strict and words[-1].lower() in LEADS_ON:
        return False
    long_words = [w for w in words if len(w) > 3] or words
    capitalised = sum(1 for w in long_words if w[:1].isupper()) / len(long_words)
    return not strict or ":" in text or capitalised >= 0.5
