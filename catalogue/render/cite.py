"""Citations, the one home of their formats: the proceedings' names, authors' names as BibTeX
splits them, and BibTeX in LaTeX that compiles (RIS, CSL-JSON and the ACM reference:
`cite_formats`). Cite keys are the catalogue's (`content.citekeys`): a format is handed its key."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import quote

from ..content.citekeys import own_key, title_word
from ..content.names import split_name
from ..content.model import Paper, Venue
from ..report import Diagnostic
from ..text import MATH, outside
from .latex import latex, latex_math, unwritable


def conference(venue: Venue) -> str:
    """`ICLR 2025` → `International Conference on Learning Representations (ICLR 2025)`, the
    full name coming from content/venues.yaml."""
    return f"{venue.title} ({venue.label})" if venue.title else venue.label


def booktitle(venue: Venue) -> str:
    """The proceedings' title as the publisher writes it, else the conference's full name."""
    return venue.booktitle or conference(venue)


def paper_url(paper: Paper) -> str:
    """The address RIS, CSL-JSON and the reference give: the paper's own page at its venue
    (the proceedings', else OpenReview's), else its arXiv entry."""
    return paper.own_page or paper.arxiv_url


def withdrawal(paper: Paper) -> str:
    """What every citation of a withdrawn paper notes first: `Withdrawn 2026-02-10: why`."""
    if not paper.withdrawn:
        return ""
    return f"Withdrawn {paper.withdrawn}" + (f": {paper.withdrawn_reason}" if paper.withdrawn_reason else "")


def bibtex(paper: Paper, key: str = "") -> str:
    """An @inproceedings entry with what is known, under `key` (the catalogue's; alone, the
    paper's own). Its `url` is the paper's own page, its arXiv entry an `eprint`; the title is
    braced so BibTeX styles keep its capitals; every author is written so that BibTeX splits
    the name as the other formats do (without authors, `key` is what styles sort and label it
    by); every character is ASCII LaTeX (`latex`)."""
    venue = paper.venue
    fields = [("title", "{" + _title(paper.title) + "}"),
              ("author", " and ".join(map(_bibtex_name, paper.authors))),
              ("key", "" if paper.authors else latex(title_word(paper.title))),
              ("booktitle", latex(booktitle(venue))), ("series", latex(venue.series)),
              ("volume", str(venue.volume or "")), ("pages", paper.pages), ("publisher", latex(venue.publisher)),
              ("year", str(venue.year)), ("doi", paper.doi), ("url", _ascii_url(paper.own_page))]
    if paper.arxiv:
        fields += [("eprint", paper.arxiv), ("archiveprefix", "arXiv")]
    fields.append(("note", latex(withdrawal(paper))))
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
    return f"@inproceedings{{{key or own_key(paper)},\n{body}\n}}\n"


def unwritable_in_bibtex(paper: Paper) -> tuple[Diagnostic, ...]:
    """A warning at the title, authors or withdrawal reason holding characters that LaTeX
    cannot write without a package (CJK, emoji…): the BibTeX writes each as `?`."""
    fields = (("title", paper.title), ("authors", " ".join(paper.authors)),
              ("withdrawn_reason", paper.withdrawn_reason))
    return tuple(Diagnostic(paper.path, paper.line_of(name), f"BibTeX writes {', '.join(chars)} in the {name} as `?`: "
                            "LaTeX has no way to write it without a package",
                            "keep it if the other formats are enough (RIS and CSL-JSON keep it); else write it in "
                            "Latin letters, or as `$…$` math in a title", "warning")
                 for name, text in fields if (chars := unwritable(text)))


def entries_file(papers: tuple[Paper, ...], keys: tuple[str, ...],
                 entry: Callable[[Paper, str], str] = bibtex) -> str:
    """Every paper's entry under its key, in the order given, one after another, as BibTeX and
    RIS files hold them (`entry`: the renderer's remembered `bibtex` or `ris`)."""
    return "\n".join(map(entry, papers, keys))


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
    return "{" + latex(text) + "}" if "," in text or re.search(r"\band\b", text, re.IGNORECASE) else latex(text)


def _title(title: str) -> str:
    r"""`$…$` math kept as LaTeX, the rest written as LaTeX; an escaped `\$` is a dollar."""
    return outside(MATH, title, lambda prose: latex(prose.replace("\\$", "$")), lambda math: latex_math(math.group(0)))


def _ascii_url(url: str) -> str:
    """A URL as `\\url` takes it in any LaTeX: what is not ASCII percent-encoded, as browsers send it."""
    return quote(url, safe="".join(map(chr, range(33, 127))))
