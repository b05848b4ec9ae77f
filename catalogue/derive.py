"""What a raw list does not say: a provisional title, a slug, and the paper's links."""

from __future__ import annotations

import re
import unicodedata

MAX_TITLE = 90
MAX_SLUG_WORDS = 6
MAX_SLUG_LENGTH = 60
_NAME = r"([A-Z][\w+-]*(?: (?:[A-Z][\w+-]*|\d+)){0,3})"
_INTRO = re.compile(
    r"\b(?:[Ww]e|paper|work|article|study)\s+(?:\w+ly\s+)?"
    r"(?:propose|present|introduce|develop|design)[sd]?\s+"
    r"(?:(?:a|an|the|our|novel|new|simple|approach|method|framework),?\s+){0,4}" + _NAME
    + r"|\b(?:called|named|dubbed|termed|designated as|coined)\s+" + _NAME)
_AFTER_NAME = re.compile(
    r"\s*\((?P<paren>[^()]+)\)"
    r"|(?:,|\s[-–—])\s+(?:i\.e\.,\s*)?(?P<what>(?:a|an|the)\s.+?)(?=\.\s|\.$|;|$)")
_EXPANSION_BEFORE = re.compile(
    r"(?P<expansion>[A-Z][\w-]*(?:\s+[\w-]+){1,6}?)\s+\((?P<name>[A-Z][\w+-]*[A-Z][\w+-]*)\)")
# "we propose a KV cache paradigm": a capitalised word used as an adjective is no name.
_NOT_A_NAME_AFTER = re.compile(r"[$^{\\]| (?!(?:that|which|to|for|as|is|was|with|in|on)\b)[a-z]")
_STOP_TAIL = {"a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with", "by",
              "that", "which", "from", "at", "as", "via", "while", "is", "are", "its"}
_SLUG_STOPWORDS = {"a", "an", "the", "of", "for", "to", "and", "or", "in", "on", "with", "by",
                   "from", "at", "as", "via", "is", "are", "be", "this", "that", "these", "we",
                   "our", "its", "it", "has", "have", "can", "do", "does", "why", "what", "how",
                   "when", "into", "not", "s"}
_SYMBOLS = {"∞": " infinity ", "+": " plus ", "&": " and ", "α": " alpha ", "ε": " epsilon "}
CODE_HOSTS = ("github.com", "gitlab.com", "huggingface.co", "bitbucket.org", "codeberg.org")
_URL = re.compile(r"https?://[^\s<>()\[\]{}\"]*[^\s<>()\[\]{}\".,;:!?'’”]")


def method_name(abstract: str) -> tuple[str, str]:
    """The name an abstract gives its own method, and what it says the method is."""
    text = _plain(abstract)
    for intro in _INTRO.finditer(text):
        name = intro.group(1) or intro.group(2)
        expanded = _EXPANSION_BEFORE.match(text, intro.start(intro.lastindex))
        if expanded:
            return expanded.group("name"), expanded.group("expansion")
        if _NOT_A_NAME_AFTER.match(text, intro.end()):
            continue
        after = _AFTER_NAME.match(text, intro.end())
        if not after:
            return name, ""
        if after.group("paren"):
            paren = after.group("paren").strip()
            return (paren, name) if " " not in paren and " " in name else (name, paren)
        return name, after.group("what")
    return "", ""


def derived_title(abstract: str) -> str:
    """`Samba: a simple hybrid architecture …`, else a phrase from the first sentence."""
    name, what = method_name(abstract)
    if name and what:
        return _fit(f"{name}: {_capitalise(_strip_article(what))}")
    return _fit(_first_sentence(_plain(abstract)))


def _plain(markdown: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"<(https?://[^>]+)>", r"\1", text)
    return re.sub(r"\*\*|(?<!\w)\*|\*(?!\w)|`", "", text)


def _strip_article(phrase: str) -> str:
    phrase = re.sub(r"^(?:a|an|the)\s+(?:(?:novel|new)\s+)?", "", phrase.strip())
    return re.sub(r"^(?:novel|new)\s+", "", phrase)


def _capitalise(phrase: str) -> str:
    return phrase[:1].upper() + phrase[1:]


def _first_sentence(text: str) -> str:
    match = re.match(r"(.+?[.!?])(?:\s+[A-Z]|$)", text.strip())
    return (match.group(1) if match else text).rstrip(".!? ")


def _fit(title: str, limit: int = MAX_TITLE) -> str:
    """Shorten at a word boundary, dropping dangling small words; never mid-word or mid-formula."""
    title = re.sub(r"\s+", " ", title).strip().rstrip(".,;:")
    if len(title) <= limit:
        return title
    cut = limit - 1  # room for the ellipsis
    for formula in re.finditer(r"\$[^$]*\$", title):
        if formula.start() < cut < formula.end():
            cut = formula.start()
    words = title[:cut].split(" ")
    if title[cut] != " ":
        words = words[:-1]  # a partial word
    while words and (not words[-1] or words[-1].lower().strip(",;:(") in _STOP_TAIL
                     or words[-1][-1] in ",;:("):
        words = words[:-1]
    return " ".join(words).rstrip(",;:") + "…"


def slugify(text: str, max_words: int = MAX_SLUG_WORDS) -> str:
    """Readable lower-case ASCII: `∞-Video` → `infinity-video`; `M+` → `m-plus`."""
    for symbol, spelled in _SYMBOLS.items():
        text = text.replace(symbol, spelled)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    tokens = [t for t in re.split(r"[^a-z0-9-]+", ascii_text) if t.strip("-")]
    if len(tokens) > 3:  # a sentence, not a name: keep the words that carry meaning
        tokens = [t for t in tokens if t not in _SLUG_STOPWORDS] or tokens
    words = [w for t in tokens for w in re.findall(r"[a-z0-9]+", t)][:max_words]
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


def find_links(abstract: str) -> tuple[str, str]:
    """The first code repository and the first project page mentioned in the abstract."""
    code = project = ""
    for url in _URL.findall(abstract):
        host = re.sub(r"^https?://(www\.)?", "", url).split("/")[0].lower()
        if host in CODE_HOSTS and not code:
            code = url
        elif host not in CODE_HOSTS and not project:
            project = url
    return code, project
