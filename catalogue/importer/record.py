"""One paper as an import file gives it, whatever the file's format: its abstract, where it
starts, and what else the file knows (title, authors, identifiers, links, venue)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..content.model import DOI_PATTERN, Venue
from ..content.paperlinks import ARXIV_ID, arxiv_id_in, unversioned
from ..report import shown_path
from ..text import outside_math

# BibTeX's accents, as Unicode combining marks: `{\"u}` → ü, `\'{e}` → é.
_ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
            ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
            "r": "\u030a"}
_LETTERS = {"ss": "ß", "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "aa": "å", "AA": "Å", "ae": "æ",
            "AE": "Æ", "oe": "œ", "OE": "Œ", "i": "ı", "j": "ȷ"}
_ACCENT = re.compile(r"\\([\"'`^~=.]|[uvHckr](?=[\s{]))\s*(?:\{(\\?[A-Za-z])\}|(\\?[A-Za-z]))")
_LETTER = re.compile(r"\\(ss|aa|AA|ae|AE|oe|OE|o|O|l|L|i|j)(?![A-Za-z])")
_PROTECTED = re.compile(r"\{([^\x00-\x7f]{1,2})\}")  # `{ü}`, once `{\"u}`: BibTeX kept its case
_COMMAND = re.compile(r"\\[A-Za-z]+\s*\{([^{}]*)\}")


@dataclass(frozen=True)
class Entry:
    """One paper as found in an import file, with the line its entry starts on."""

    path: Path
    line: int
    paragraph: int  # its place in the file, from 1
    venue: Venue | None  # what a raw list's header names
    text: str  # the abstract as the file has it
    header_line: int = 1  # the line naming the venue, for messages
    title: str = ""
    authors: tuple[str, ...] = ()
    arxiv: str = ""
    doi: str = ""
    url: str = ""
    pdf: str = ""
    code: str = ""
    keywords: tuple[str, ...] = ()
    venue_text: str = ""  # what the file says of the venue: `ICLR 2025 Poster`, a booktitle and year

    @property
    def where(self) -> str:
        return f"{shown_path(self.path)}:{self.line}"


def one_line(text: str) -> str:
    """Runs of spaces, tabs and line ends as one space."""
    return " ".join(str(text or "").split())


def arxiv_of(*candidates: str) -> str:
    """The first arXiv id among ids and arXiv addresses, without its version (`2406.07522`)."""
    for candidate in candidates:
        text = one_line(candidate).removeprefix("arXiv:").removeprefix("arxiv:")
        found = arxiv_id_in(text) or (text if ARXIV_ID.match(text) else "")
        if found:
            return unversioned(found)
    return ""


def doi_of(text: str) -> str:
    """A DOI as `10.NNNN/…`, from the bare DOI or its doi.org address; "" if it is none."""
    doi = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", one_line(text), flags=re.IGNORECASE)
    return doi if DOI_PATTERN.match(doi) else ""


def latex_accents(text: str) -> str:
    """BibTeX's accented letters and quotes as Unicode: `M{\\"u}ller` → `Müller`, ``` ``a'' ``` → “a”."""
    def accent(match: re.Match[str]) -> str:
        letter = (match.group(2) or match.group(3)).lstrip("\\")  # `\\i` under an accent is i
        return unicodedata.normalize("NFC", letter + _ACCENTS[match.group(1)])
    text = _LETTER.sub(lambda match: _LETTERS[match.group(1)], _ACCENT.sub(accent, text))
    text = _PROTECTED.sub(r"\1", text)
    return text.replace("``", "“").replace("''", "”")


def plain_latex(text: str) -> str:
    """A title or a name as plain text: accents as letters, `\\emph{x}` as x, no grouping
    braces, `\\&` as &; `$…$` math stays."""
    def prose(part: str) -> str:
        part = latex_accents(part)
        while _COMMAND.search(part):
            part = _COMMAND.sub(r"\1", part)
        part = re.sub(r"\\([&%#_$])", r"\1", part)
        return re.sub(r"(?<!\\)[{}]", "", part).replace("---", "—").replace("--", "–")
    return one_line(outside_math(one_line(text), prose))

