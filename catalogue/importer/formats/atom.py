"""arXiv API results: an Atom feed whose entries carry arXiv's fields (id, summary, authors,
`arxiv:doi`), read by feedparser, which copes with the feed's namespaces and entities."""

from __future__ import annotations

import re
from pathlib import Path

import feedparser

from ...report import Report
from ..record import Entry, arxiv_of, doi_of, one_line

NAME = "an Atom feed (arXiv API results)"
_FEED = re.compile(r"<feed\b[^>]*http://www\.w3\.org/2005/Atom", re.DOTALL)
_ENTRY = re.compile(r"<entry\b")


def detect(path: Path, text: str) -> bool:
    """A `<feed>` in the Atom namespace (arXiv's API answers with one)."""
    return bool(_FEED.search(text[:5000]))


def read(path: Path, text: str, report: Report) -> list[Entry]:
    """One entry an `<entry>`, at its line; an entry without a summary reported there."""
    feed = feedparser.parse(text)
    if feed.bozo and not feed.entries:
        error = feed.bozo_exception
        line = error.getLineNumber() if hasattr(error, "getLineNumber") else 1
        report.error(path, line, f"the feed is not well-formed XML ({error})",
                     "fix the XML there, or fetch the results again")
        return []
    starts = [text.count("\n", 0, m.start()) + 1 for m in _ENTRY.finditer(text)]
    entries = []
    for number, item in enumerate(feed.entries, start=1):
        line = starts[number - 1] if number <= len(starts) else 1
        entry = _entry(path, line, number, item, report)
        if entry:
            entries.append(entry)
    return entries


def _entry(path: Path, line: int, number: int, item: dict, report: Report) -> Entry | None:
    summary = one_line(item.get("summary", ""))
    if not summary:
        report.error(path, line, f"the entry {one_line(item.get('title', ''))[:60]!r} has no <summary>",
                     "add its abstract as <summary>, or delete the entry")
        return None
    pdf = next((link.get("href", "") for link in item.get("links", []) if link.get("title") == "pdf"), "")
    return Entry(path, line, number, None, summary, title=one_line(item.get("title", "")),
                 authors=tuple(one_line(a.get("name", "")) for a in item.get("authors", []) if a.get("name")),
                 arxiv=arxiv_of(item.get("id", ""), item.get("link", "")), doi=doi_of(item.get("arxiv_doi", "")),
                 pdf=pdf, venue_text=one_line(item.get("arxiv_journal_ref", "")))
