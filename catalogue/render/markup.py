"""Markdown with `$…$` math rendered to MathML at build time, and plain-text excerpts."""

from __future__ import annotations

import html
import re

import markdown
import nh3
from latex2mathml.converter import convert as latex_to_mathml

from ..text import MATH, plain_text

_TAG = re.compile(r"<([A-Za-z][^\s/>]*)")  # an element's opening tag, whatever its name (`<my-widget>`)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_PLACEHOLDER = "\u2063MATH{}\u2063"
_PLACEHOLDER_PATTERN = re.compile("\u2063MATH(\\d+)\u2063")
_ESCAPED_DOLLAR = "\u2063DOLLAR\u2063"

# What an abstract may contain once rendered: Markdown's prose elements and the MathML that
# latex2mathml writes. Everything else (script, iframe, img, svg, style, event handlers,
# javascript: links) is removed, whatever the curator or the raw list put in the text.
_MATHML = {"math", "mrow", "mi", "mo", "mn", "ms", "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot",
           "mtext", "mspace", "mstyle", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mpadded",
           "mphantom", "menclose", "merror", "semantics", "annotation"}
ALLOWED_TAGS = {"p", "a", "em", "strong", "code", "br", "ul", "ol", "li", "blockquote", "pre", "sub", "sup",
                "h2", "h3", "h4", "hr"} | _MATHML
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"}, "code": {"class"}, "math": {"display", "xmlns"},
    "mo": {"stretchy", "fence", "separator", "lspace", "rspace", "form", "accent", "largeop",
           "movablelimits", "symmetric", "minsize", "maxsize"},
    "mi": {"mathvariant"}, "mn": {"mathvariant"}, "mtext": {"mathvariant"},
    "mstyle": {"displaystyle", "scriptlevel", "mathvariant"}, "mspace": {"width", "height", "depth"},
    "mfrac": {"linethickness"}, "mover": {"accent"}, "munder": {"accentunder"},
    "munderover": {"accent", "accentunder"}, "mtable": {"columnalign", "rowspacing", "columnspacing"},
    "mtd": {"columnalign"}, "menclose": {"notation"}, "annotation": {"encoding"},
}
URL_SCHEMES = {"http", "https", "mailto"}


def sanitise(html_text: str) -> str:
    """Keep only the allowed elements, attributes and link schemes (nh3, an HTML5 parser)."""
    return nh3.clean(html_text, tags=ALLOWED_TAGS, attributes=ALLOWED_ATTRIBUTES,
                     url_schemes=URL_SCHEMES, link_rel=None)


class Markup:
    """One reused Markdown converter; math is cut out before and put back after."""

    def __init__(self) -> None:
        self._markdown = markdown.Markdown(extensions=["smarty"], output_format="html")
        self.failed_math: list[str] = []
        self.left_out: list[str] = []  # elements the text made that the sanitiser removed (`h1`, `img`)

    def render(self, text: str) -> str:
        """Markdown body → HTML, with every formula as MathML (or as code if it cannot be)."""
        text, formulas = cut_math(text)
        if markup_syntax(text):
            self._markdown.reset()
            rendered = self._markdown.convert(text)
        else:
            rendered = plain_paragraphs(text)
        self.left_out += [tag for tag in dict.fromkeys(t.lower() for t in _TAG.findall(_COMMENT.sub("", rendered)))
                          if tag not in ALLOWED_TAGS]
        rendered = _PLACEHOLDER_PATTERN.sub(lambda m: self.math(formulas[int(m.group(1))]), rendered)
        return sanitise(_JOINED_PUNCTUATION.sub("</math>\u2060", rendered.replace(_ESCAPED_DOLLAR, "$")))

    def inline(self, text: str) -> str:
        """Plain text with math (a title): escaped HTML plus MathML."""
        parts, last = [], 0
        for match in MATH.finditer(text):
            parts += [html.escape(text[last:match.start()]), self.math(match.group(0))]
            last = match.end()
        return "".join(parts + [html.escape(text[last:])])

    def math(self, source: str) -> str:
        """`$x$` → inline MathML, `$$x$$` → display MathML; TeX shown as code if it fails."""
        display = source.startswith("$$")
        tex = source.strip("$").strip()
        try:
            mathml = latex_to_mathml(tex, display="block" if display else "inline")
        except Exception:  # noqa: BLE001 -- latex2mathml raises many kinds of errors on malformed TeX
            mathml = ""
        if not mathml or not _balanced(tex) or re.search(r">[^<]*\\[a-zA-Z]", mathml):
            self.failed_math.append(tex)
            return f'<code class="tex">{html.escape(tex)}</code>'
        return typeset(mathml)


def cut_math(text: str) -> tuple[str, list[str]]:
    """The text with each formula (and each escaped dollar) replaced by a placeholder Markdown
    leaves alone, and the formulas in order."""
    formulas: list[str] = []

    def cut(match: re.Match[str]) -> str:
        formulas.append(match.group(0))
        return _PLACEHOLDER.format(len(formulas) - 1)

    return MATH.sub(cut, text.replace("\\$", _ESCAPED_DOLLAR)), formulas


# What makes Python-Markdown (with smarty) write anything but paragraphs, or change a character:
# its inline and block syntax, escapes, HTML, any whitespace but spaces and line breaks (a block's
# leading no-break space or form feed is stripped), and every quote or dash smarty would curl,
# except an apostrophe between letters (always a closing quote). Text without any of it is
# paragraphs, which `plain_paragraphs` writes as Markdown would, byte for byte
# (tests/test_render_markup.py and tests/test_cli_frozen_catalogue.py hold the two to the same bytes).
_MARKDOWN_SYNTAX = re.compile(
    r"""[\\`*_{}\[\]<>#&"\x02\x03]|[^\S\n ]|--|\.\.|(?<![^\W\d_])'|'(?![^\W\d_])"""
    r"|^(?:[-+=> ]|\d+[.)])|[ ]$", re.MULTILINE)
_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")


def markup_syntax(text: str) -> bool:
    """Whether Markdown would make more of the text than paragraphs."""
    return bool(_MARKDOWN_SYNTAX.search(text))


def plain_paragraphs(text: str) -> str:
    """Text with no Markdown syntax, as Markdown renders it: a `<p>` per block between blank
    lines, its line breaks kept, an apostrophe as smarty writes it."""
    blocks = (block.strip("\n") for block in text.split("\n\n"))
    return "\n".join(f"<p>{_APOSTROPHE.sub('&rsquo;', block)}</p>" for block in blocks if block)


# A word joiner after a formula followed by punctuation: the comma of "$T$, where" never starts a line.
_JOINED_PUNCTUATION = re.compile(r"</math>(?=[,.;:!?)\]])")
_THIN = '<mspace width="0.1667em"></mspace>'
_BRACKET = r'<mo(?: stretchy="false")?>(?:[(\[{|]|&#x0*(?:28|5B|7B|7C);)</mo>'  # as written, or as an entity
_PAREN = r'<mo(?: stretchy="false")?>(?:\(|&#x0*28;)</mo>'
_FUNCTION = re.compile(rf"(?P<before>{_BRACKET}|<mrow>|<math[^>]*>)?<mi>(?P<name>arg|cos|det|dim|exp|inf|ker|"
                       rf"lim|ln|log|max|min|Pr|sin|sup|tan|tanh)</mi>(?P<after>{_PAREN})?")
_INFINITY = re.compile(r"<mo>(∞|&#x0*221E;)</mo>", re.IGNORECASE)


def typeset(mathml: str) -> str:
    """Space what latex2mathml leaves unspaced, as TeX does: `T\\log T` is `T log T`, with a
    thin space each side of the function's name (none after an opening bracket or before its
    argument's), marked as a function applied for screen readers; and `\\infty` is a symbol,
    not an operator with room around it (`∞-Video`, not `∞ -Video`)."""
    def spaced(match: re.Match[str]) -> str:
        before, after = match["before"] or "", match["after"] or ""
        return (before + ("" if before else _THIN) + f"<mi>{match['name']}</mi><mo>&#x2061;</mo>"
                + ("" if after else _THIN) + after)
    return _INFINITY.sub(r"<mi>\1</mi>", _FUNCTION.sub(spaced, mathml))


def _balanced(tex: str) -> bool:
    depth = 0
    for index, char in enumerate(tex):
        if char in "{}" and index and tex[index - 1] == "\\":
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def excerpt(text: str, limit: int = 200, plain_of=plain_text) -> str:
    """The start of the plain text, cut at a word boundary (`plain_of`: the renderer's remembered
    `plain_text`, so a page's description and its JSON-LD share one conversion)."""
    plain = plain_of(text)
    if len(plain) <= limit:
        return plain
    return plain[:limit].rsplit(" ", 1)[0].rstrip(",;:.") + "…"
