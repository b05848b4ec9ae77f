"""Text as LaTeX that pdflatex and BibTeX take in any document: every character that is not
ASCII written in ASCII LaTeX (`{\\"u}`, `{\\o}`, `{\\ensuremath{\\infty}}`, `---`, ``` `` ```), and
what LaTeX cannot write without a package written `?` (`unwritable` names those characters).

An accented letter is written from its decomposition (`ǎ` → `{\\v{a}}`), with the accents LaTeX
has in its default fonts (`ą` → `a`: the ogonek is T1's). Other characters are written as
pylatexenc's table (kept up to date with Unicode) says, but half of it needs a package or the T1
encoding (`\\th`, amssymb's `\\lesssim`, Cyrillic), which stops a document that loads neither, as
a conference's template may not: only the commands LaTeX itself defines are taken. A letter left
over is spelled in ASCII (`ﬁ` → `fi`, `þ` → `th`).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from pylatexenc.latexencode import get_builtin_uni2latex_dict

from ..content.names import SPELLED

UNWRITABLE = "?"
# TeX's special characters; those written as commands are braced so that BibTeX takes each for
# one character, and braces are commands, not `\{`: BibTeX counts every brace, and one alone
# would end the field.
SPECIAL = {"&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "$": r"\$", "\\": r"{\textbackslash}",
           "{": r"{\textbraceleft}", "}": r"{\textbraceright}", "~": r"{\textasciitilde}", "^": r"{\textasciicircum}",
           "<": r"{\textless}", ">": r"{\textgreater}", "|": r"{\textbar}"}

# LaTeX's own text commands (OT1 and TS1, no package), and its math symbols (fontmath.ltx), which
# are taken only inside `\ensuremath`.
_TEXT = frozenset(r"""
    \" \' \. \= \^ \` \~ \H \b \c \d \r \t \u \v \i \j \o \O \l \L \ae \AE \oe \OE \aa \AA \ss \IJ \ij
    \# \$ \% \& \_ \{ \} \textendash \textemdash \textquoteleft \textquoteright \textquotedblleft
    \textquotedblright \textellipsis \textbullet \textperiodcentered \textasteriskcentered \textdagger
    \textdaggerdbl \textsection \textparagraph \textexclamdown \textquestiondown \textcopyright
    \textregistered \texttrademark \textsterling \texteuro \textcent \textyen \textcurrency \textdegree
    \textmu \texttimes \textdiv \textlnot \textonesuperior \texttwosuperior \textthreesuperior
    \textonehalf \textonequarter \textthreequarters \textperthousand \textnumero \textleftarrow
    \textrightarrow \textuparrow \textdownarrow \textordfeminine \textordmasculine \textbrokenbar
    \textasciicircum \textasciitilde \textbackslash \textcelsius \textohm \textmho \textestimated
    \textreferencemark \textinterrobang \textfractionsolidus \textlangle \textrangle \textvisiblespace
    \textasciidieresis \textasciimacron \textasciiacute \textasciicaron \textasciibreve \textacutedbl
    \textflorin \textbaht \textcolonmonetary \textlira \textnaira \textwon \textdong \textpeso
    \textpertenthousand \textdiscount \textcircledP \textrecipe \textservicemark \textopenbullet
    \textbigcircle \textmusicalnote \textsuperscript
    """.split())
_MATH = frozenset(r"""
    \ensuremath \mathbf \mathit \mathsf \mathtt \mathrm \not
    \alpha \beta \gamma \delta \epsilon \varepsilon \zeta \eta \theta \vartheta \iota \kappa \lambda \mu
    \nu \xi \pi \varpi \rho \varrho \sigma \varsigma \tau \upsilon \phi \varphi \chi \psi \omega \Gamma
    \Delta \Theta \Lambda \Xi \Pi \Sigma \Upsilon \Phi \Psi \Omega
    \infty \leq \geq \neq \approx \sim \simeq \cong \equiv \propto \ll \gg \prec \succ \preceq \succeq
    \subset \supset \subseteq \supseteq \sqsubseteq \sqsupseteq \in \ni \notin \mid \parallel \perp
    \vdash \dashv \smile \frown \bowtie \asymp \doteq \pm \mp \times \div \cdot \ast \star \circ
    \bullet \diamond \cap \cup \uplus \sqcap \sqcup \vee \wedge \setminus \wr \oplus \ominus \otimes
    \oslash \odot \bigcirc \amalg \triangleleft \triangleright \bigtriangleup \bigtriangledown
    \leftarrow \rightarrow \leftrightarrow \Leftarrow \Rightarrow \Leftrightarrow \longleftarrow
    \longrightarrow \longleftrightarrow \Longleftarrow \Longrightarrow \Longleftrightarrow \mapsto
    \longmapsto \hookleftarrow \hookrightarrow \leftharpoonup \leftharpoondown \rightharpoonup
    \rightharpoondown \rightleftharpoons \uparrow \downarrow \updownarrow \Uparrow \Downarrow
    \Updownarrow \nearrow \searrow \swarrow \nwarrow \aleph \hbar \ell \wp \Re \Im \partial \prime
    \emptyset \nabla \surd \top \bot \angle \forall \exists \neg \flat \natural \sharp \sum \prod
    \coprod \int \oint \bigcap \bigcup \bigvee \bigwedge \langle \rangle \lceil \rceil \lfloor \rfloor
    \Vert \ldots \cdots \vdots \ddots \acute \dot \ddot
    """.split())
_COMMAND = re.compile(r"\\(?:[A-Za-z]+|.)")
# Combining accents → LaTeX's accent commands (the comma below of Romanian `ș` is drawn as the
# cedilla, as LaTeX without T1 can); an accent not here is left off its letter.
_ACCENTS = {"\u0300": r"\`", "\u0301": r"\'", "\u0302": r"\^", "\u0303": r"\~", "\u0304": r"\=",
            "\u0306": r"\u", "\u0307": r"\.", "\u0308": r'\"', "\u030a": r"\r", "\u030b": r"\H",
            "\u030c": r"\v", "\u0323": r"\d", "\u0326": r"\c", "\u0327": r"\c", "\u0331": r"\b"}
_BELOW = frozenset({"\u0323", "\u0326", "\u0327", "\u0331"})  # the accents under a letter: `\i` needs none
# Dashes, quotes and the no-break space as LaTeX's own ligatures, as people type them in LaTeX.
_TYPED = {"\u2013": "--", "\u2014": "---", "\u2018": "`", "\u2019": "'", "\u201c": "``", "\u201d": "''", "\u00a0": "~"}


def latex(text: str) -> str:
    """Text as LaTeX: TeX's special characters escaped, every other character written in ASCII."""
    return "".join(map(_char, unicodedata.normalize("NFC", text)))


def latex_math(tex: str) -> str:
    """A `$…$` formula as it is, but for its characters that are not ASCII."""
    return "".join(char if char.isascii() else _char(char) for char in unicodedata.normalize("NFC", tex))


def unwritable(text: str) -> list[str]:
    """The characters of `text` that LaTeX cannot write, and `latex` writes as `?`."""
    return list(dict.fromkeys(char for char in unicodedata.normalize("NFC", text) if _written(char) is None))


def _char(char: str) -> str:
    written = _written(char)
    return UNWRITABLE if written is None else written


@functools.lru_cache(maxsize=4096)  # a catalogue's titles and names hold a few hundred characters
def _written(char: str) -> str | None:
    """A character as LaTeX, None if LaTeX has no way to write it."""
    if char.isascii():
        return SPECIAL.get(char, char)
    if char in _TYPED:
        return _TYPED[char]
    category = unicodedata.category(char)
    if category == "Zs":  # spaces of other widths
        return " "
    if category in ("Cf", "Mn"):  # zero-width joiners, soft hyphens, a stray accent: nothing to see
        return ""
    return _accented(char) or _from_table(char) or _spelled(char)


def _accented(char: str) -> str | None:
    """`ü` → `{\\"u}`, `ǖ` → `{\\={\\"u}}`, `ǎ` → `{\\v{a}}`, and `í` → `{\\'{\\i}}`: no dot under
    the accent."""
    base, *marks = unicodedata.normalize("NFD", char)
    if not marks or not base.isascii() or not base.isalpha():
        return None
    accents = [_ACCENTS[mark] for mark in marks if mark in _ACCENTS]
    if not accents:  # only accents that LaTeX has in T1 alone: the letter without them
        return base
    written = rf"\{base}" if base in "ij" and marks[0] not in _BELOW else base
    for accent in accents:
        written = f"{accent}{written}" if len(written) == 1 and not accent[1].isalpha() else f"{accent}{{{written}}}"
    return "{" + written + "}"


def _from_table(char: str) -> str | None:
    """pylatexenc's way to write it, if LaTeX has every command it takes."""
    written = _TABLE.get(ord(char))
    if written is None:
        return None
    commands = _COMMAND.findall(written)
    if not all(c in _TEXT or c in _MATH for c in commands):
        return None
    if any(c in _MATH for c in commands) and not written.startswith("\\ensuremath{"):
        return None  # a math command outside math mode
    return "{" + written + "}"


def _spelled(char: str) -> str | None:
    """A letter as ASCII: from its compatibility form (`ﬁ` → `fi`, `Ａ` → `A`), else spelled."""
    if char in SPELLED:  # a letter LaTeX has only in T1 (`þ`)
        return SPELLED[char]
    folded = unicodedata.normalize("NFKD", char)
    return "".join(map(_char, folded)) if folded != char and folded.isascii() else None


_TABLE = get_builtin_uni2latex_dict()
