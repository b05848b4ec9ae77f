"""People's names as the catalogue files, sorts and cites them: an author's page address, the
family name an index sorts by, and the split into given and family names every citation format
shares."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import NamedTuple

# Words that belong to the family name they come before: Johannes von Oswald, Benjamin Van Roy.
_PARTICLES = frozenset({"da", "das", "de", "del", "della", "den", "der", "di", "do", "dos", "du", "la", "le",
                        "ten", "ter", "van", "vom", "von", "zu"})
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
# Latin letters of their own, which no decomposition brings to ASCII, as their languages spell them.
SPELLED = {"Æ": "AE", "æ": "ae", "Ð": "D", "ð": "d", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i",
           "Ł": "L", "ł": "l", "Ŋ": "Ng", "ŋ": "ng", "Ø": "O", "ø": "o", "Œ": "OE", "œ": "oe", "ß": "ss",
           "Þ": "Th", "þ": "th"}
_SPELLING = str.maketrans(SPELLED)


@functools.lru_cache(maxsize=65536)  # a pure function of a name, looked up for every list and page
def author_slug(name: str) -> str:
    """`Sean O'Brien` → `sean-o-brien`; `Gizem Yüce` → `gizem-yuce`."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "-".join(re.findall(r"[a-z0-9]+", ascii_name)) or "anonymous"


def family_name(name: str) -> str:
    """The last word of a name, as the index sorts it: `André F. T. Martins` → `Martins`;
    `Martin Luther King Jr.` → `King`."""
    words = name.split() or [""]
    while len(words) > 1 and words[-1].casefold() in _SUFFIXES:
        words.pop()
    return words[-1]


def name_order(name: str) -> tuple[str, str]:
    """Sort by family name, then the whole name, ignoring case and accents (`Ö` with `O`)."""
    return (_folded(family_name(name)), _folded(name))


def family_initial(name: str) -> str:
    """The A–Z letter a name is indexed under; `#` for a family name that starts otherwise."""
    initial = _folded(family_name(name))[:1].upper()
    return initial if "A" <= initial <= "Z" else "#"


def _folded(text: str) -> str:
    return ascii_folded(text) or text.casefold()


def ascii_folded(text: str) -> str:
    """Lower-case ASCII with the accents dropped and letters of their own spelled out: `Yüce` →
    `yuce`, `Øberg` → `oberg`; what has no ASCII form goes."""
    return unicodedata.normalize("NFKD", text.translate(_SPELLING)).encode("ascii", "ignore").decode().casefold()


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
