"""Citations, the one home of their formats: stable keys, the proceedings' names, authors' names
split into given and family, and BibTeX (RIS, CSL-JSON and the ACM reference: `cite_formats`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from ..content.model import Paper, Venue

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
# Words that belong to the family name they come before: Johannes von Oswald, Benjamin Van Roy.
_PARTICLES = frozenset({"da", "das", "de", "del", "della", "den", "der", "di", "do", "dos", "du", "la", "le",
                        "ten", "ter", "van", "vom", "von", "zu"})
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})


class Name(NamedTuple):
    """An author's name as citation formats take it apart."""

    given: str
    family: str
    suffix: str = ""


def split_name(name: str) -> Name:
    """`Johannes von Oswald` → (`Johannes`, `von Oswald`), `Benjamin Van Roy` → (`Benjamin`,
    `Van Roy`): the last word is the family name, with the particles just before it, but never
    the first word, which is a given name (`Di Liu`); a `Jr.` or `III` at the end is a suffix.
    Names written family first, or with two family names, cannot be told apart from the text."""
    words = name.split()
    suffix = words.pop() if len(words) > 2 and words[-1].lower() in _SUFFIXES else ""
    if not words:
        return Name("", name.strip())
    words[-1] = words[-1].rstrip(",") if suffix else words[-1]
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in _PARTICLES:
        start -= 1
    if start == 1 and words[0] in _PARTICLES:  # `van Gogh`: a lower-case particle names no one
        start = 0
    return Name(" ".join(words[:start]), " ".join(words[start:]), suffix)


def conference(venue: Venue) -> str:
    """`ICLR 2025` → `International Conference on Learning Representations (ICLR 2025)`, the
    full name coming from content/venues.yaml."""
    return f"{venue.title} ({venue.label})" if venue.title else venue.label


def booktitle(venue: Venue) -> str:
    """The proceedings' title as the publisher writes it, else the conference's full name."""
    return venue.booktitle or conference(venue)


def cite_key(paper: Paper) -> str:
    """Stable as long as the slug and venue are: `iclr2025:samba`."""
    return f"{paper.venue.name.lower()}{paper.venue.year}:{paper.slug}"


def paper_url(paper: Paper) -> str:
    """The address a citation gives: the paper's own page at its venue, else its arXiv entry."""
    return paper.own_page or paper.arxiv_url


def withdrawal(paper: Paper) -> str:
    """What every citation of a withdrawn paper notes first: `Withdrawn 2026-02-10: why`."""
    if not paper.withdrawn:
        return ""
    return f"Withdrawn {paper.withdrawn}" + (f": {paper.withdrawn_reason}" if paper.withdrawn_reason else "")


def bibtex(paper: Paper) -> str:
    """An @inproceedings entry with what is known; the title is braced so BibTeX styles keep its
    capitals, and every author is written so that BibTeX splits the name as the other formats do."""
    venue = paper.venue
    fields = [("title", "{" + _title(paper.title) + "}"),
              ("author", " and ".join(map(_bibtex_name, paper.authors))),
              ("booktitle", _escape(booktitle(venue))), ("series", _escape(venue.series)),
              ("volume", str(venue.volume or "")), ("publisher", _escape(venue.publisher)),
              ("year", str(venue.year)), ("doi", paper.doi), ("url", paper_url(paper))]
    if paper.arxiv:
        fields += [("eprint", paper.arxiv), ("archiveprefix", "arXiv")]
    notes = [_escape(withdrawal(paper)), r"Code: \url{" + paper.code + "}" if paper.code else ""]
    fields.append(("note", ". ".join(note for note in notes if note)))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
    return f"@inproceedings{{{cite_key(paper)},\n{body}\n}}\n"


def entries_file(papers: tuple[Paper, ...], entry: Callable[[Paper], str] = bibtex) -> str:
    """Every paper's entry, in the order given, one after another, as BibTeX and RIS files hold
    them (`entry`: the renderer's remembered `bibtex` or `ris`)."""
    return "\n".join(entry(paper) for paper in papers)


def _bibtex_name(written: str) -> str:
    """A name as written where BibTeX would split it as `split_name` does (`Johannes von
    Oswald`), else as `Family, Given` (`Van Roy, Benjamin`, `King, Jr., Martin`); a part holding
    a comma or a lone `and` (where BibTeX would split it) is braced."""
    name = split_name(written)
    later_given = name.given.split()[1:]
    if not (name.suffix or any(w[:1].islower() for w in later_given) or name.given[:1].islower()
            or any(not w[:1].islower() for w in name.family.split()[:-1])):
        return _name_part(" ".join(written.split()))
    return ", ".join(_name_part(part) for part in (name.family, name.suffix, name.given) if part)


def _name_part(text: str) -> str:
    return "{" + _escape(text) + "}" if "," in text or re.search(r"\band\b", text, re.IGNORECASE) else _escape(text)


def _title(title: str) -> str:
    """Keep `$…$` math as LaTeX, escape the rest."""
    parts = re.split(r"(\$[^$]+\$)", title)
    return "".join(part if part.startswith("$") else _escape(part) for part in parts)


def _escape(text: str) -> str:
    return "".join(_SPECIAL.get(char, char) for char in text)
