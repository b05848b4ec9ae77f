"""OpenReview notes exported as JSON: a list of notes or `{"notes": [...]}`, in API v1
(`content.title` a string) or v2 (`content.title.value`), read by the standard library's json."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ...report import Report
from ..record import Entry, arxiv_of, doi_of, one_line

NAME = "OpenReview notes as JSON (a list of notes, or {\"notes\": [...]}; API v1 or v2)"
SITE = "https://openreview.net"
_NOTES = re.compile(r'"notes"\s*:\s*\[')


def detect(path: Path, text: str) -> bool:
    """JSON: a text that opens with `[` or `{` (whether it parses is for `read` to say, at its line)."""
    return text.lstrip()[:1] in ("[", "{")


def looks_like_notes(text: str) -> bool:
    """Valid JSON holding notes with a `content` mapping."""
    try:
        notes = _notes(json.loads(text))
    except ValueError:
        return True  # malformed JSON is still JSON: `read` names the line
    return notes is not None and all(isinstance(n, dict) and isinstance(n.get("content"), dict) for n in notes)


def _notes(data: object) -> list | None:
    if isinstance(data, dict) and isinstance(data.get("notes"), list):
        return data["notes"]
    return data if isinstance(data, list) and data else None


def read(path: Path, text: str, report: Report) -> list[Entry]:
    """One entry a note, at the line its `{` opens on; malformed JSON reported at its line."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        report.error(path, error.lineno, f"malformed JSON: {error.msg} (column {error.colno})",
                     "fix the JSON there (a missing comma, quote or bracket?), then import again")
        return []
    entries = []
    for number, (offset, note) in enumerate(_positioned_notes(text), start=1):
        entry = _entry(path, text.count("\n", 0, offset) + 1, number, note, report)
        if entry:
            entries.append(entry)
    return entries


def _positioned_notes(text: str) -> list[tuple[int, dict]]:
    """Each note with the offset where it starts, decoded one by one from its array."""
    match = _NOTES.search(text) if text.lstrip().startswith("{") else None
    index = match.end() if match else text.index("[") + 1
    decoder, found = json.JSONDecoder(), []
    while True:
        index = re.compile(r"[\s,]*").match(text, index).end()
        if index >= len(text) or text[index] == "]":
            return found
        note, end = decoder.raw_decode(text, index)
        found.append((index, note))
        index = end


def _value(content: dict, key: str) -> object:
    """A field of API v1 (`"title": "…"`) or v2 (`"title": {"value": "…"}`)."""
    value = content.get(key)
    return value.get("value") if isinstance(value, dict) else value


def _entry(path: Path, line: int, number: int, note: object, report: Report) -> Entry | None:
    content = note.get("content") if isinstance(note, dict) else None
    abstract = one_line(_value(content, "abstract")) if isinstance(content, dict) else ""
    if not abstract:
        report.error(path, line, "this note has no `content.abstract`",
                     "export the notes with their content, or delete this note")
        return None
    forum = note.get("forum") or note.get("id") or ""
    pdf = str(_value(content, "pdf") or "")
    pdf = SITE + pdf if pdf.startswith("/") else pdf
    return Entry(path, line, number, None, abstract, title=one_line(_value(content, "title")),
                 authors=_strings(_value(content, "authors")), arxiv=arxiv_of(str(_value(content, "arxiv") or "")),
                 doi=doi_of(str(_value(content, "doi") or "")),
                 url=f"{SITE}/forum?id={forum}" if forum else "", pdf=pdf,
                 code=str(_value(content, "code") or ""), keywords=_strings(_value(content, "keywords")),
                 venue_text=one_line(_value(content, "venue")))


def _strings(value: object) -> tuple[str, ...]:
    items = value if isinstance(value, list) else str(value or "").split(",")
    return tuple(one_line(item) for item in items if isinstance(item, str) and item.strip())
