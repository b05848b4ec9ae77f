"""RIS, CSL-JSON and the ACM Reference Format, made from the same facts as the BibTeX (`cite`).
BibTeX keeps a title's `$…$` math as TeX; these take the plain text a reader sees."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable

import markupsafe

from ..content.citekeys import own_key
from ..content.names import Name, split_name
from ..content.model import Paper, Taxonomy
from ..text import plain_text
from .cite import bibtex, booktitle, conference, entries_file, paper_url, withdrawal

MEMO = 65536  # the remembered entries of each format: a catalogue's papers, and more
REFERENCE_STYLE = "ACM Reference Format"


def ris(paper: Paper, key: str = "", keywords: tuple[str, ...] = (), abstract: bool = True,
        plain: Callable[[str], str] = plain_text) -> str:
    """A conference paper (`TY  - CPAPER`) for EndNote, Zotero and Mendeley: one tag a line.
    Without `abstract` (in a list's file), the abstract is left to the paper's own file;
    `plain` makes the plain text of the title and abstract (the renderer's remembers it)."""
    venue = paper.venue
    first, _, last = paper.pages.partition("--")
    lines = [("TY", "CPAPER"), ("ID", key or own_key(paper)), ("TI", plain(paper.title))]
    lines += [("AU", _ris_name(split_name(author))) for author in paper.authors]
    lines += [("PY", str(venue.year)), ("T2", booktitle(venue)), ("T3", venue.series),
              ("VL", str(venue.volume or "")), ("SP", first), ("EP", last), ("PB", venue.publisher), ("DO", paper.doi)]
    lines += [("UR", link) for link in dict.fromkeys((paper_url(paper), paper.arxiv_url))]
    lines += [("L1", paper.pdf_url), ("AB", plain(paper.body) if abstract else "")]
    lines += [("KW", keyword) for keyword in keywords]
    lines += [("N1", withdrawal(paper)), ("N1", f"arXiv: {paper.arxiv}" if paper.arxiv else "")]
    return "".join(f"{tag}  - {' '.join(value.split())}\n" for tag, value in lines if value) + "ER  - \n"


def csl_item(paper: Paper, key: str = "", keywords: tuple[str, ...] = (), abstract: bool = True,
             plain: Callable[[str], str] = plain_text) -> dict:
    """A CSL-JSON item (what Zotero, Pandoc and every citeproc read); its id is the cite key;
    `abstract` and `plain` as `ris` takes them."""
    venue, key = paper.venue, key or own_key(paper)
    item = {"id": key, "citation-key": key, "type": "paper-conference",
            "title": plain(paper.title), "author": [_csl_name(split_name(a)) for a in paper.authors],
            "issued": {"date-parts": [[venue.year]]}, "container-title": booktitle(venue),
            "event-title": conference(venue), "collection-title": venue.series,
            "volume": str(venue.volume or ""), "page": paper.pages.replace("--", "-"),
            "publisher": venue.publisher, "DOI": paper.doi, "URL": paper_url(paper),
            "abstract": plain(paper.body) if abstract else "", "keyword": ", ".join(keywords), "note": withdrawal(paper),
            "status": "withdrawn" if paper.withdrawn else ""}
    if paper.arxiv:
        item |= {"archive": "arXiv", "archive_location": paper.arxiv}
    return {name: value for name, value in item.items() if value}


def csl_json(paper: Paper, key: str = "", keywords: tuple[str, ...] = (), abstract: bool = True,
             plain: Callable[[str], str] = plain_text) -> str:
    """The item as it stands in a CSL-JSON file: a field a line."""
    fields = csl_item(paper, key, keywords, abstract, plain).items()
    return "  {\n" + ",\n".join(f"    {_json(name)}: {_json(value)}" for name, value in fields) + "\n  }"


def csl_json_file(papers: tuple[Paper, ...], keys: tuple[str, ...],
                  item: Callable[[Paper, str], str] = csl_json) -> str:
    """CSL-JSON is an array of items, one paper's file too (`item`: the renderer's remembered one)."""
    return "[\n" + ",\n".join(map(item, papers, keys)) + "\n]\n"


def reference(paper: Paper) -> markupsafe.Markup:
    """The paper in the ACM Reference Format (acmart's): the proceedings in italics, then who
    publishes them and the pages. `Ada Lovelace and Alan Turing. 2025. Title. In
    <i>Proceedings…</i> (Series, Vol. 235). PMLR, 12345–12367. URL`"""
    venue, escape = paper.venue, markupsafe.escape
    parts = [_sentence(_names(paper.authors)), f"{venue.year}.", _sentence(plain_text(paper.title))]
    where = markupsafe.Markup("In <i>{}</i>").format(booktitle(venue))
    if venue.volume:
        where += f" ({venue.series}, Vol. {venue.volume})" if venue.series else f", Vol. {venue.volume}"
    pages = paper.pages.replace("--", "–")
    parts += [where + ".", _sentence(", ".join(part for part in (venue.publisher, pages) if part))]
    link = paper_url(paper)
    if link:
        parts.append(markupsafe.Markup('<a href="{0}">{0}</a>').format(link))
    return markupsafe.Markup(" ").join(escape(part) for part in parts if part)


class Citations:
    """Each paper's entry in every format, under the key the catalogue gave it. What many pages
    share (BibTeX and the reference, on its page and in every list; RIS and CSL-JSON without the
    abstract, in lists) is made once and remembered; RIS and CSL-JSON with the abstract make a
    paper's own files, once a build, and are not kept. A paper's keywords are its tags' labels
    (`use` sets them); `plain` is the renderer's remembered `plain_text`."""

    def __init__(self, plain: Callable[[str], str] = plain_text) -> None:
        self.plain = plain
        self.bibtex = functools.lru_cache(MEMO)(bibtex)
        self._remembered_ris = functools.lru_cache(MEMO)(ris)
        self._remembered_csl = functools.lru_cache(MEMO)(csl_json)
        self.reference = functools.lru_cache(MEMO)(reference)
        self._labels: dict[str, str] = {}

    def use(self, taxonomy: Taxonomy) -> None:
        self._labels = {tag.id: tag.label for tag in taxonomy.tags.values()}

    def forget(self) -> None:
        for memo in (self.bibtex, self._remembered_ris, self._remembered_csl, self.reference):
            memo.cache_clear()

    def template_globals(self) -> dict[str, Callable]:
        """What templates call: `bibtex(paper, key)`, `ris_file(papers, keys)`, `reference(paper)`, …
        A list's RIS and CSL-JSON leave the abstracts to each paper's own files, as BibTeX does."""
        return {"bibtex": self.bibtex, "bibtex_file": lambda papers, keys: entries_file(papers, keys, self.bibtex),
                "ris": self._own_ris, "ris_file": lambda papers, keys: entries_file(papers, keys, self._listed_ris),
                "csl_json": lambda paper, key: csl_json_file((paper,), (key,), self._own_csl),
                "csl_json_file": lambda papers, keys: csl_json_file(papers, keys, self._listed_csl),
                "reference": self.reference, "reference_style": REFERENCE_STYLE, "conference": conference}

    def _own_ris(self, paper: Paper, key: str) -> str:
        return ris(paper, key, self._keywords(paper), True, self.plain)

    def _own_csl(self, paper: Paper, key: str) -> str:
        return csl_json(paper, key, self._keywords(paper), True, self.plain)

    def _listed_ris(self, paper: Paper, key: str) -> str:
        return self._remembered_ris(paper, key, self._keywords(paper), False, self.plain)

    def _listed_csl(self, paper: Paper, key: str) -> str:
        return self._remembered_csl(paper, key, self._keywords(paper), False, self.plain)

    def _keywords(self, paper: Paper) -> tuple[str, ...]:
        return tuple(self._labels.get(tag, tag) for tag in paper.tags)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _ris_name(name: Name) -> str:
    """RIS writes `Family, Given, Suffix`."""
    return ", ".join(part for part in (name.family, name.given, name.suffix) if part)


def _csl_name(name: Name) -> dict[str, str]:
    return {key: value for key, value in zip(("family", "given", "suffix"), (name.family, name.given, name.suffix))
            if value}


def _names(authors: tuple[str, ...]) -> str:
    """`A`, `A and B`, `A, B, and C`."""
    if len(authors) < 3:
        return " and ".join(authors)
    return ", ".join(authors[:-1]) + ", and " + authors[-1]


def _sentence(text: str) -> str:
    return text if not text or text.endswith((".", "?", "!")) else text + "."
