"""BibTeX files with `abstract` fields, as Zotero, DBLP and conferences export them, read by
bibtexparser (entries, @string macros, braces and quotes as BibTeX itself reads them)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import bibtexparser
from bibtexparser.model import DuplicateBlockKeyBlock, ParsingFailedBlock
from bibtexparser.model import Entry as BibEntry

from ...report import Report
from ...text import outside_math
from ..record import Entry, arxiv_of, doi_of, latex_accents, one_line, plain_latex

# bibtexparser logs each block it cannot read, a line off; we report them ourselves, at their line.
logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)

NAME = "BibTeX (@inproceedings{…} entries with an abstract)"
_ENTRY = re.compile(r"^\s*@(?!comment\b|string\b|preamble\b)[A-Za-z]+\s*[{(]\s*[^\s,{}()]+\s*,", re.MULTILINE | re.IGNORECASE)


def detect(path: Path, text: str) -> bool:
    """An `@inproceedings{key,`-style entry at the start of a line."""
    return bool(_ENTRY.search(text))


def read(path: Path, text: str, report: Report) -> list[Entry]:
    """Every entry with an abstract; the others, and blocks BibTeX cannot read, reported at
    their line, in the file's order."""
    entries: list[Entry] = []
    for block in bibtexparser.parse_string(text).blocks:
        if isinstance(block, BibEntry):
            entry = _entry(path, len(entries) + 1, block, report)
            entries += [entry] if entry else []
        elif isinstance(block, DuplicateBlockKeyBlock):
            report.error(path, block.start_line + 1, f"a second entry with the key `{block.key}`",
                         "give it a key of its own, or delete it if it is the same paper")
        elif isinstance(block, ParsingFailedBlock):
            report.error(path, block.start_line + 1, "BibTeX cannot read this entry (a brace, quote or "
                         "comma missing?)", "compare it with the entries around it, fix it, and import the file again")
    return entries


def _entry(path: Path, number: int, bib: BibEntry, report: Report) -> Entry | None:
    fields = {key.lower(): one_line(field.value) for key, field in bib.fields_dict.items()}
    line = bib.start_line + 1
    if not fields.get("abstract"):
        report.error(path, line, f"entry `{bib.key}` has no abstract",
                     "add an `abstract = {…}` field (the catalogue shows it), or delete the entry")
        return None
    archive = fields.get("archiveprefix") or fields.get("eprinttype") or "arxiv"
    eprint = fields.get("eprint", "") if archive.lower() == "arxiv" else ""
    url = fields.get("url", "")
    return Entry(path, line, number, None, outside_math(fields["abstract"], latex_accents),
                 title=plain_latex(fields.get("title", "")), authors=_authors(fields.get("author", "")),
                 arxiv=arxiv_of(eprint, url, fields.get("arxiv", "")),
                 doi=doi_of(fields.get("doi", "")), url=url, pdf=fields.get("pdf", ""),
                 code=fields.get("code", ""), keywords=_split(fields.get("keywords", "")),
                 venue_text=_venue(fields))


def _authors(text: str) -> tuple[str, ...]:
    """`Ren, Liliang and Yang Liu` → (`Liliang Ren`, `Yang Liu`); `others` is no one."""
    names = []
    for written in re.split(r"\s+and\s+", text):
        family, comma, given = written.partition(",")
        name = plain_latex(f"{given.strip()} {family.strip()}" if comma else written)
        if name and name.lower() != "others":
            names.append(name)
    return tuple(names)


def _venue(fields: dict[str, str]) -> str:
    """Where the paper appeared, with its year: `Proceedings of the 41st … Learning 2024`."""
    where = fields.get("booktitle") or fields.get("journal") or fields.get("series") or ""
    if where.lower().startswith("arxiv") or where.lower() == "corr":
        where = ""  # a preprint server is no venue
    return " ".join(part for part in (plain_latex(where), fields.get("year", "")) if part) if where else ""


def _split(text: str) -> tuple[str, ...]:
    return tuple(word.strip() for word in re.split(r"[,;]", plain_latex(text)) if word.strip())
