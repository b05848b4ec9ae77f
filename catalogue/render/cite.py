"""Citations: stable BibTeX keys and entries, and the conference names citation tools expect."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..content.model import Paper, Venue

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def conference(venue: Venue) -> str:
    """`ICLR 2025` → `International Conference on Learning Representations (ICLR 2025)`, the
    full name coming from content/venues.yaml."""
    return f"{venue.title} ({venue.label})" if venue.title else venue.label


def cite_key(paper: Paper) -> str:
    """Stable as long as the slug and venue are: `iclr2025:samba`."""
    return f"{paper.venue.name.lower()}{paper.venue.year}:{paper.slug}"


def bibtex(paper: Paper) -> str:
    """An @inproceedings entry; the title is braced so BibTeX styles keep its capitals."""
    fields = [("title", "{" + _title(paper.title) + "}"),
              ("author", " and ".join(_escape(a) for a in paper.authors)),
              ("booktitle", _escape(conference(paper.venue))),
              ("year", str(paper.venue.year))]
    if paper.arxiv:
        fields += [("eprint", paper.arxiv), ("archiveprefix", "arXiv"), ("url", paper.arxiv_url)]
    elif paper.url:
        fields.append(("url", paper.url))
    if paper.code:
        fields.append(("note", r"Code: \url{" + paper.code + "}"))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
    return f"@inproceedings{{{cite_key(paper)},\n{body}\n}}\n"


def bibtex_file(papers: tuple[Paper, ...], entry: Callable[[Paper], str] = bibtex) -> str:
    """Every entry, in catalogue order (`entry`: the renderer's remembered `bibtex`)."""
    return "\n".join(entry(paper) for paper in papers)


def _title(title: str) -> str:
    """Keep `$…$` math as LaTeX, escape the rest."""
    parts = re.split(r"(\$[^$]+\$)", title)
    return "".join(part if part.startswith("$") else _escape(part) for part in parts)


def _escape(text: str) -> str:
    return "".join(_SPECIAL.get(char, char) for char in text)
