"""A paper's slug, its permanent address: `samba`, `infinity-video`, `m-plus`, `samba-2`."""

from __future__ import annotations

import re
import unicodedata

from .derive import method_name

MAX_SLUG_WORDS = 6
MAX_SLUG_LENGTH = 60

_SLUG_STOPWORDS = {"a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with", "by",
                   "from", "at", "as", "via", "is", "are", "be", "this", "that", "these", "we",
                   "our", "its", "it", "has", "have", "can", "do", "does", "why", "what", "how",
                   "when", "into", "not", "s"}
_DANGLING = _SLUG_STOPWORDS | {"while", "which", "who", "where", "than", "but", "if", "they", "their"}  # never last
_SYMBOLS = {"∞": " infinity ", "+": " plus ", "&": " and ", "α": " alpha ", "ε": " epsilon ",
            "\\infty": " infinity ", "\\varepsilon": " epsilon ", "\\epsilon": " epsilon ",
            "\\alpha": " alpha "}


def slugify(text: str, max_words: int = MAX_SLUG_WORDS) -> str:
    """Readable lower-case ASCII: `∞-Video` → `infinity-video`; `M+` → `m-plus`."""
    for symbol, spelled in _SYMBOLS.items():
        text = text.replace(symbol, spelled)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    tokens = [t for t in re.split(r"[^a-z0-9-]+", ascii_text) if t.strip("-")]
    if len(tokens) > 3:  # a sentence, not a name: keep the words that carry meaning
        tokens = [t for t in tokens if t not in _SLUG_STOPWORDS] or tokens
    words: list[str] = []
    for token in tokens:  # whole words: `plug-and-play` is kept whole or left out, never cut
        parts = re.findall(r"[a-z0-9]+", token)
        if words and len(words) + len(parts) > max_words:
            break
        words += parts
    words = words[:max_words]
    while len(words) > 1 and words[-1] in _DANGLING:
        words.pop()
    slug = "-".join(words)
    while len(slug) > MAX_SLUG_LENGTH and "-" in slug:
        slug = slug.rsplit("-", 1)[0]
    return slug[:MAX_SLUG_LENGTH] or "paper"


def slug_source(title: str, abstract: str) -> str:
    """What the slug is made from: a short name before the title's colon, the method's name, or the title."""
    prefix, _, rest = title.partition(":")
    if rest and prefix.strip().lower() == "position":
        return slug_source(rest.strip(), abstract)
    if rest and len(prefix.split()) <= 3:
        return prefix
    name, _ = method_name(abstract)
    return name if name and len(name.split()) <= 3 else title


def unique_slug(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3` … whichever is free."""
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    return slug
