"""The formats `build.py import` reads, each recognised by its content (not its name): one
module a format, each with a `detect(path, text)` and a `read(path, text, report)` that gives
the common record, `Entry`."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from ...report import Report
from .. import rawlist
from ..record import Entry
from . import atom, bibtex, csvlist, openreview, titled

# The most particular first: a raw list is what is left when nothing else fits.
FORMATS: tuple[ModuleType, ...] = (openreview, bibtex, atom, csvlist, titled, rawlist)


def detect_format(path: Path, text: str) -> ModuleType | None:
    """The format whose `detect` recognises the text; None for none of them."""
    if openreview.detect(path, text):
        return openreview if openreview.looks_like_notes(text) else None
    return next((module for module in FORMATS[1:] if module.detect(path, text)), None)


def read_entries(path: Path, report: Report) -> list[Entry]:
    """The papers of one import file, in whatever format it is in; problems reported at their line."""
    text = rawlist.read_import_file(path, report)
    if text is None:
        return []
    module = detect_format(path, text)
    if module is None:
        report.error(path, 0, "format not recognised",
                     "import reads " + "; ".join(m.NAME for m in FORMATS) + ". See docs/adding-papers.md")
        return []
    return module.read(path, text, report)
