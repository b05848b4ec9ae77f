"""Words readers type for a paper that its text holds only inside other words: the parts of a
method name (LongRoPE → long, ro, pe, longro, rope) and the words of its slug (longppl). The
paper page hands them to the search index as text it never shows.

Pagefind itself splits FlexPrefill into flex and prefill, but not a name with a mixed-case part
(RoPE in LongRoPE, KV in RocketKV), and it matches the start of a word only; hence the parts and
each pair of neighbouring parts."""

from __future__ import annotations

import re
from itertools import pairwise

_WORD = re.compile(r"[^\W_]+")
# A run of capitals not followed by a small letter (PE, KV, CTX), a capitalised or small-letter
# word (Long, mini), or a number.
_PART = re.compile(r"[^\W\d_a-z]+(?![a-z])|[^\W\d_a-z]?[a-z]+|\d+")
_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s")  # LLMs, LVLMs: one word, not LLM + s


def name_parts(word: str) -> list[str]:
    """The parts of one compound word, then each pair of neighbouring parts, in lower case:
    `LongRoPE` → long, ro, pe, longro, rope; a plain word gives none."""
    if _PLURAL_ACRONYM.fullmatch(word):
        return []
    parts = _PART.findall(word)
    if len(parts) < 2:
        return []
    pairs = [a + b for a, b in pairwise(parts)] if len(parts) > 2 else []
    return [part.lower() for part in parts + pairs if len(part) > 1]


def search_words(title: str, slug: str) -> str:
    """The words a reader may type for this paper that its title does not hold as words: the
    parts of the title's compound names and the slug's words, each once, in order."""
    written = {word.lower() for word in _WORD.findall(title)}
    found: dict[str, None] = {}
    for word in _WORD.findall(title) + slug.split("-"):
        for candidate in [word.lower(), *name_parts(word)]:
            if candidate not in written:
                found[candidate] = None
    return " ".join(found)
