"""What every stage knows about the text of an abstract: `$…$` math, bare URLs, Markdown links,
and how it reads as plain text.

Below the importer and the renderer, so both read text the same way; the standard library only.
"""

from __future__ import annotations

import re
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
