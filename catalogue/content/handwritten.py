"""The curator's own words beside the papers: guides (`content/pages/*.md`, front matter and
Markdown, each at `/pages/<slug>/` and in the navigation) and introductions to
theme, tag and venue pages (`content/intros/themes/<id>.md`, `intros/tags/<id>.md`,
`intros/venues/<slug>.md`, Markdown alone), shown above their lists. Each file is checked
like a paper: at its line, with the fix."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING

from ..config import INTROS_DIR
from ..files import read_lines
from ..report import ContentError, Diagnostic, Report
from ..urls import SLUG_PATTERN
from .keys import Key, KeyTable
from .prose import Guide, Written
from .schema import check_characters
from .source import parse_source

if TYPE_CHECKING:
    from .model import Taxonomy, Venue

GUIDE_KEYS = KeyTable("Guides", "content/pages/<slug>.md", "A page of the curator's own, front matter and "
                      "Markdown, at `/pages/<slug>/` and in the navigation.", (
    Key("title", str, "The page's title, in the navigation too.", required=True),
    Key("description", str, "One sentence on what it says, for previews and search engines."),
    Key("slug", str, "The last part of its address, if not the file's name: lower-case ASCII letters, digits "
                     "and single hyphens."),
))
INTRO_KINDS = ("themes", "tags", "venues")  # content/intros/<kind>/<id>.md


def read_guide(path: Path) -> tuple[Guide | None, tuple[Diagnostic, ...]]:
    """A guide, or None, with what is wrong with its file."""
    report = Report()
    try:
        source = parse_source(path, read_lines(path), notes=False)  # a page's own `## Notes` is its text
    except ContentError as error:
        return None, tuple(error.diagnostics)
    meta = source.meta
    for key, value in meta.items():
        line = source.lines.get((key,), 1)
        if key not in GUIDE_KEYS.kinds:
            close = difflib.get_close_matches(str(key), GUIDE_KEYS.kinds, n=1)
            report.error(path, line, f"unknown key `{key}`",
                         f"did you mean `{close[0]}`?" if close else f"a page has {', '.join(GUIDE_KEYS.kinds)}")
        elif not isinstance(value, str) or not value.strip():
            report.error(path, line, f"`{key}` must be text", f"write `{key}:` and its text on one line")
    slug = meta.get("slug", path.stem)
    for key in GUIDE_KEYS.required:
        if key not in meta:
            report.error(path, 1, f"`{key}` is missing", f"add a `{key}:` line to the front matter")
    if isinstance(slug, str) and not SLUG_PATTERN.match(slug):
        report.error(path, source.lines.get(("slug",), 1), f"slug {slug!r} is not a valid URL part",
                     "name the file (or write `slug:`) in lower-case ASCII letters, digits and single hyphens")
    for key, value in meta.items():
        if isinstance(value, str):  # else an error above
            check_characters(path, value, source.lines.get((key,), 1), f"`{key}`", report)
    check_characters(path, source.body, source.body_start, "the page", report)
    if report.errors:
        return None, tuple(report.diagnostics)
    body = Written(source.body, path, source.body_start)
    return Guide(slug, meta["title"].strip(), meta.get("description", "").strip(), body), ()


def read_intro(path: Path) -> tuple[Written | None, tuple[Diagnostic, ...]]:
    """An introduction's Markdown, or None, with what is wrong with its file."""
    report = Report()
    try:
        lines = read_lines(path)
    except ContentError as error:
        return None, tuple(error.diagnostics)
    text = "\n".join(lines).strip("\n")
    start = next((number for number, line in enumerate(lines, start=1) if line.strip()), 1)
    check_characters(path, text, start, "the introduction", report)
    if not text.strip():
        report.error(path, 1, "the introduction is empty", "write it in Markdown, or delete the file")
    return (None if report.errors else Written(text, path, start)), tuple(report.diagnostics)


def named_intros(intros: dict[Path, Written], content_dir: Path, taxonomy: Taxonomy,
                 venues: list[Venue], report: Report) -> tuple[tuple[tuple[str, str], Written], ...]:
    """Each introduction under the theme, tag or venue its file names; a file that names none
    is an error with the nearest there is."""
    known = {"themes": list(taxonomy.themes), "tags": list(taxonomy.tags), "venues": [v.slug for v in venues]}
    found = []
    for path, text in sorted(intros.items()):
        parts = path.relative_to(content_dir / INTROS_DIR).parts
        kind, key = (parts[0], path.stem) if len(parts) == 2 else ("", "")
        if kind not in INTRO_KINDS:
            report.error(path, 1, "an introduction belongs in intros/themes/, intros/tags/ or intros/venues/",
                         "move it into the folder of what it introduces, named after its id")
        elif key not in known[kind]:
            close = difflib.get_close_matches(key, known[kind], n=1)
            report.error(path, 1, f"no {kind[:-1]} `{key}` to introduce",
                         f"rename the file to {close[0]}.md" if close else
                         f"name it after one of the {kind} (content/{'venues.yaml' if kind == 'venues' else 'taxonomy.yaml'})")
        else:
            found.append(((kind[:-1], key), text))
    return tuple(found)

