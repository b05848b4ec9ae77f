"""What every stage knows about the text of an abstract: `$…$` math, bare URLs, Markdown links,
and how it reads as plain text.

Below the importer and the renderer, so both read text the same way; the standard library only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# `$…$` or `$$…$$`; an escaped `\$` or a `$` before a space opens no formula (`$5 and $10`).
MATH_PATTERN = r"\$\$.+?\$\$|(?<!\\)\$(?![\s$])(?:\\.|[^$\\])+?(?<!\s)\$"
MATH = re.compile(MATH_PATTERN)
# A bare URL in prose; the sentence's closing punctuation, quote or bracket is not part of it.
URL_PATTERN = r"https?://[^\s<>()\[\]{}\"]*[^\s<>()\[\]{}\".,;:!?'’”]"
URL = re.compile(URL_PATTERN)

_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_AUTOLINK = re.compile(r"<(https?://[^>]+)>")


def unlink(markdown: str) -> str:
    """Links and images to their words, `<https://…>` to its address: the text a reader sees."""
    return _AUTOLINK.sub(r"\1", _LINK.sub(r"\1", markdown))


def outside(pattern: re.Pattern[str], text: str, prose: Callable[[str], str],
            special: Callable[[re.Match[str]], str] = lambda match: match.group(0)) -> str:
    """Apply `prose` to the text between matches of `pattern` and `special` to the matches."""
    parts, last = [], 0
    for match in pattern.finditer(text):
        parts += [prose(text[last:match.start()]), special(match)]
        last = match.end()
    return "".join(parts + [prose(text[last:])])


def outside_math(text: str, change: Callable[[str], str]) -> str:
    """Apply `change` to the text between `$…$` formulas, which stay as they are."""
    return outside(MATH, text, change)


# Marks of emphasis and code, and the backslash of `\$`, `\_`, `\*`. Unlike a derived title's
# (importer/derive.py) they go after math is read as text, and keep `_emphasis_` and a `*` that
# touches another (`***x***` reads `*x`): the pages have always shown that, a shared rule would not.
_MARKS = re.compile(r"\*\*|(?<![\w*])\*|\*(?![\w*])|`|\\(?=[$_*])")


def plain_text(text: str) -> str:
    """A readable plain-text version of Markdown with math: for descriptions and excerpts."""
    text = unlink(MATH.sub(lambda m: _readable_tex(m.group(0).strip("$")), text))
    return re.sub(r"\s+", " ", _MARKS.sub("", text)).strip()


_TEX_WORDS = {r"\infty": "∞", r"\times": "×", r"\leq": "≤", r"\geq": "≥", r"\log": "log",
              r"\alpha": "α", r"\varepsilon": "ε", r"\epsilon": "ε", r"\sim": "~", r"\cdot": "·"}


def _readable_tex(tex: str) -> str:
    for command, symbol in _TEX_WORDS.items():
        tex = tex.replace(command, symbol)
    tex = re.sub(r"\\[a-zA-Z]+\s*", "", tex)
    return re.sub(r"[{}]|\^|_", "", tex).strip()


# Characters no reader sees but every program does: they split words for search, break
# citations, or reorder what is shown (a bidirectional override can make text read backwards).
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_JOINERS = frozenset("\u200c\u200d")  # parts of emoji sequences and of some scripts' words
_NOT_PLAIN_ASCII = re.compile(r"[^\t\n\r\x20-\x7e]")


def plain_ascii(text: str) -> bool:
    """Whether `text` is printable ASCII, tabs and line ends only (nothing to look at closer)."""
    return _NOT_PLAIN_ASCII.search(text) is None


def unseen_characters(text: str) -> list[tuple[int, str, str]]:
    """Each character of `text` that is invisible, a control character (but tabs and line
    ends) or a bidirectional control: its index, the character and what it is. A joiner
    between two non-ASCII characters (an emoji sequence, a Persian word) is left alone."""
    found = []
    for match in _NOT_PLAIN_ASCII.finditer(text):  # most text is plain ASCII: only the rest is looked at
        index, char = match.start(), match.group()
        category = unicodedata.category(char)
        if char in _BIDI:
            found.append((index, char, "a bidirectional control, which reorders what readers see"))
        elif category == "Cc" and char not in "\t\n\r":
            found.append((index, char, "a control character"))
        elif category == "Cf" and not (char in _JOINERS and _between_non_ascii(text, index)):
            found.append((index, char, "an invisible character"))
    return found


def _between_non_ascii(text: str, index: int) -> bool:
    return 0 < index < len(text) - 1 and not text[index - 1].isascii() and not text[index + 1].isascii()


def character_name(char: str) -> str:
    """`U+200B ZERO WIDTH SPACE`; a control character has a number only (`U+0007`)."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} {name}" if name else f"U+{ord(char):04X}"


def emoji_in(text: str) -> str:
    """The first emoji in `text` (pictographs and dingbats), or ""."""
    if text.isascii():
        return ""
    return next((char for char in text if unicodedata.category(char) == "So"
                 and (ord(char) >= 0x1F000 or 0x2600 <= ord(char) <= 0x27BF)), "")
