"""The authors file, `content/authors.yaml`: one person's several spellings (`Andre Martins`,
`André F. T. Martins`) made one author, with one page.

Each entry lists one person's names, the one to show first. A paper written with another of
them is shown under that first name, and the other name's page redirects to the person's.
"""

from __future__ import annotations

from pathlib import Path

from .. import urls
from ..config import AUTHORS_FILE
from ..report import Report
from . import yamltext
from .keys import Key, KeyTable
from .names import author_slug
from .redirects import Redirect

AUTHOR_KEYS = KeyTable("Authors", "content/authors.yaml", "People whose name is spelt more than one way "
                       "(an optional file).", (
    Key("authors", list, "One entry a person, listing their names, the one to show first: "
                         "`- [André F. T. Martins, Andre Martins]`. A paper written with another of them is shown "
                         "under the first, and the other name's page leads there; paper files keep their spelling.",
        required=True),
))
HOW = "see docs/reference.md, content/authors.yaml: each entry lists one person's names, the one to show first"


def load_author_names(content_dir: Path, report: Report) -> dict[str, str] | None:
    """Each other spelling → the name to show; {} without the file, None if it is wrong."""
    path = content_dir / AUTHORS_FILE
    if not path.is_file():
        return {}
    found = yamltext.read_lists(path, ("authors",), "authors", HOW, report)
    if found is None:
        return None
    data, lines = found
    errors_before, names, entry_line = len(report.errors), {}, {}
    for index, entry in enumerate(data["authors"]):
        line = yamltext.line_of(lines, ("authors", index))
        if not (isinstance(entry, list) and len(entry) > 1 and all(isinstance(n, str) and n.strip() for n in entry)):
            report.error(path, line, "an entry must list two or more names of one person",
                         "write it like `- [André F. T. Martins, Andre Martins]`")
            continue
        shown, *others = (name.strip() for name in entry)
        for other in others:
            if other in names or other == shown:
                report.error(path, line, f"`{other}` is listed twice", "keep it in one entry, once")
            names[other] = shown
            entry_line[other] = line
    twice = sorted(set(names) & set(names.values()))
    for name in twice:
        report.error(path, entry_line[name], f"`{name}` is both shown and merged into another name",
                     "list each person once, the name to show first")
    return names if len(report.errors) == errors_before else None


def author_redirects(names: dict[str, str], path: Path) -> tuple[Redirect, ...]:
    """The page of each other spelling, leading to the person's page."""
    moves = {urls.author(author_slug(other)): urls.author(author_slug(shown)) for other, shown in names.items()}
    return tuple(Redirect(old, new, 0, path) for old, new in sorted(moves.items()) if old != new)
