"""CSV lists of papers with a header row, like Mini-Conf's `papers.csv` (UID, title, authors,
abstract, keywords, pdf_url, code), read by the standard library's csv module."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from ...report import Report
from ..record import Entry, arxiv_of, doi_of, one_line

NAME = "CSV with a header row naming title and abstract columns (Mini-Conf's papers.csv)"
REQUIRED = ("title", "abstract")
_DELIMITERS = ",;\t|"
_LISTS = re.compile(r"\s*[|;]\s*")  # Mini-Conf separates authors and keywords with `|`


def detect(path: Path, text: str) -> bool:
    """A first row that names (at least) a title and an abstract column."""
    header = _header(text)
    return all(column in header for column in REQUIRED)


def _delimiter(text: str) -> str:
    """The header row's delimiter (quoting is Excel's, as every exporter writes it)."""
    try:
        return csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=_DELIMITERS).delimiter
    except csv.Error:
        return ","


def _header(text: str) -> list[str]:
    rows = csv.reader(io.StringIO(text.split("\n", 1)[0]), delimiter=_delimiter(text))
    return [column.strip().lower() for column in next(rows, [])]


def read(path: Path, text: str, report: Report) -> list[Entry]:
    """One entry a row; a row with missing columns or no abstract is reported at its line."""
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text))
    header = [column.strip().lower() for column in next(reader)]
    entries, start = [], reader.line_num + 1
    for number, row in enumerate(reader, start=1):
        line, start = start, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            report.error(path, line, f"this row has {len(row)} columns, the header {len(header)}",
                         "quote cells that hold the delimiter, and give every row the header's columns")
            continue
        entry = _entry(path, line, number, dict(zip(header, (cell.strip() for cell in row))), report)
        if entry:
            entries.append(entry)
    return entries


def _entry(path: Path, line: int, number: int, row: dict[str, str], report: Report) -> Entry | None:
    if not row["abstract"]:
        report.error(path, line, f"the row of {row['title'][:60]!r} has no abstract" if row["title"] else
                     "this row has no abstract", "fill its abstract cell, or delete the row")
        return None
    pdf = row.get("pdf_url") or row.get("pdf", "")
    url = row.get("url") or row.get("forum", "")
    return Entry(path, line, number, None, one_line(row["abstract"]), title=one_line(row["title"]),
                 authors=_list(row.get("authors", "")), arxiv=arxiv_of(row.get("arxiv", ""), url, pdf),
                 doi=doi_of(row.get("doi", "")), url=url or pdf, pdf=pdf, code=row.get("code", ""),
                 keywords=_list(row.get("keywords", "")), venue_text=row.get("venue", ""))


def _list(text: str) -> tuple[str, ...]:
    """`A|B|C` (Mini-Conf) or `A; B; C`; commas too when no other separator is used."""
    parts = _LISTS.split(text) if _LISTS.search(text) else text.split(",")
    return tuple(one_line(part) for part in parts if part.strip())
