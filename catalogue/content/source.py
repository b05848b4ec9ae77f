"""A content file as text: front matter (with line numbers) and Markdown body; rewriting
fields in place; which files in content/papers/ are papers."""

from __future__ import annotations

import codecs
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..config import PAPERS_DIR
from ..files import is_editors_file, read_lines
from ..report import ContentError, Diagnostic
from . import yamltext
from .model import FIELD_ORDER

NOTES_HEADING = "## Notes"  # a line of its own in a paper file: the curator's notes follow it
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


@dataclass(frozen=True)
class PageSource:
    """A content file split into front matter (with line numbers) and Markdown body: for a
    paper, its abstract, and the curator's notes after a `## Notes` line, if any."""

    path: Path
    meta: dict[str, Any]
    lines: dict
    body: str
    body_start: int = 0  # the line where `body` starts
    notes: str = ""
    notes_start: int = 0  # the line where `notes` starts


def fingerprint(abstract: str) -> str:
    """Identity of an abstract, blind to case, spacing, punctuation and markup."""
    letters = re.sub(r"[^0-9a-z]+", "", abstract.lower())
    return hashlib.sha256(letters.encode()).hexdigest()[:16]


def paper_files(content_dir: Path) -> list[Path]:
    """The Markdown files of papers, skipping editors' hidden, swap and backup files."""
    return [path for path in papers_folder(content_dir) if is_paper_file(path)]


def papers_folder(content_dir: Path) -> list[Path]:
    """Every file in content/papers/ that is not an editor's (hidden, swap, backup, temporary)."""
    folder = content_dir / PAPERS_DIR
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if not is_editors_file(p.name))


def is_paper_file(path: Path) -> bool:
    return path.suffix == ".md" and not path.is_dir()


def stray(path: Path) -> Diagnostic:
    """Something in content/papers/ that would be skipped: say so, rather than lose a paper quietly."""
    if path.is_dir():
        return Diagnostic(path, 0, "not read: papers in folders inside content/papers/ are not papers",
                          "move its .md files up into content/papers/, and the folder out")
    if ".md." in path.name:  # samba.md.orig from git mergetool, x.md.bak
        return Diagnostic(path, 0, "not read: a copy of a paper file, it seems",
                          "delete it, or move it out of content/papers/")
    return Diagnostic(path, 0, "not read: only `.md` files in content/papers/ are papers",
                      f"rename it to `{path.stem}.md`, or move it out of content/papers/")


def read_source(path: Path) -> PageSource:
    """Split a file into front matter and body; raise ContentError naming the line."""
    return parse_source(path, read_lines(path))


def parse_source(path: Path, lines: list[str], notes: bool = True) -> PageSource:
    """`read_source` of a file's lines (`read_lines`), such as a new text not yet written; with
    `notes` (a paper's file), the body is split at its `## Notes` line."""
    if lines[0].rstrip() != "---":
        raise _error(path, 1, "no front matter",
                     "start the file with a `---` line, the YAML fields, and another `---` line")
    end = _closing_dashes(lines)
    if not end:
        raise _error(path, 1, "the front matter is never closed",
                     "add a `---` line after the last field")
    meta, key_lines = yamltext.parse("\n".join(lines[1:end]), path, first_line=2)
    body = "\n".join(lines[end + 1:])
    if not isinstance(meta, dict):
        raise _error(path, 2, "the front matter is not a set of `key: value` fields",
                     "write one `key: value` per line between the `---` lines")
    body_start = end + 2 + len(body) - len(body.lstrip("\n"))
    heading = notes_heading(lines, end + 1) if notes and NOTES_HEADING in body else None
    if heading is None:
        return PageSource(path, meta, key_lines, body.strip("\n"), body_start)
    after = lines[heading + 1:]
    blank = next((number for number, line in enumerate(after) if line), 0)  # empty lines before the notes
    return PageSource(path, meta, key_lines, "\n".join(lines[end + 1:heading]).strip("\n"), body_start,
                      "\n".join(after).strip("\n"), heading + 2 + blank)


def notes_heading(lines: list[str], start: int) -> int | None:
    """The index of the first `## Notes` line from `start`, outside fenced code; None if none."""
    fence = ""
    for index in range(start, len(lines)):
        opened = _FENCE.match(lines[index])
        if opened and (not fence or opened.group(1) == fence):
            fence = "" if fence else opened.group(1)
        elif not fence and lines[index].rstrip() == NOTES_HEADING:
            return index
    return None


def with_fields(source: PageSource, changes: dict[str, Any]) -> str:
    """The file's text with these front-matter fields set, every other line as it was (comments,
    blank lines, a BOM and CRLF line ends too): a field there is replaced where it stands, a new
    one goes after the field that comes before it in FIELD_ORDER."""
    raw = source.path.read_bytes()
    lines = read_lines(source.path)
    closing = _closing_dashes(lines)  # indexes count from 0; key lines in `source.lines` from 1
    starts = sorted(source.lines[(key,)] - 1 for key in source.meta)
    extent = {key: _value_lines(lines, start, next((s for s in starts if s > start), closing))
              for key in source.meta for start in [source.lines[(key,)] - 1]}
    replaced: dict[int, tuple[int, str]] = {}  # first index → (end index, new text)
    added: dict[int, list[str]] = {}  # insert before this index
    for key, value in changes.items():
        text = f"{key}: {_one_line_yaml(value)}"
        if key in extent:
            replaced[extent[key][0]] = (extent[key][1], text)
        else:
            earlier = [k for k in FIELD_ORDER[:FIELD_ORDER.index(key)] if k in extent] if key in FIELD_ORDER else []
            added.setdefault(extent[earlier[-1]][1] if earlier else closing, []).append(text)
    result, index = [], 0
    while index < len(lines):
        result += added.get(index, [])
        end, text = replaced.get(index, (index + 1, None))
        result.append(lines[index] if text is None else text)
        index = end
    line_end = "\r\n" if b"\r\n" in raw else "\n"
    return ("\ufeff" if raw.startswith(codecs.BOM_UTF8) else "") + line_end.join(result)


def _value_lines(lines: list[str], start: int, end: int) -> tuple[int, int]:
    """A field's lines, from its key up to the next key, less the blank and comment lines that
    follow its value: those belong to no field, and stay."""
    while end - 1 > start and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return start, end


def _one_line_yaml(value: Any) -> str:
    """A value as YAML on one line, as the importer writes fields: `[a, b]`, `'A: b'`."""
    dumped = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000)
    return dumped.removesuffix("...\n").strip()


def _closing_dashes(lines: list[str]) -> int:
    """The index of the `---` line that closes the front matter; 0 if there is none."""
    return next((i for i, line in enumerate(lines[1:], start=1) if line.rstrip() == "---"), 0)


def _error(path: Path, line: int, message: str, hint: str) -> ContentError:
    return ContentError([Diagnostic(path, line, message, hint)])
