import re
import sys
from pathlib import Path

import pytest

from catalogue.config import PROJECT_ROOT
from catalogue.content.prose import Written
from catalogue.render.markup import Markup, cut_math, excerpt, markup_syntax
from catalogue.render.renderer import left_out
from catalogue.text import plain_text


def test_math_becomes_mathml_and_keeps_underscores_and_stars():
    html = Markup().render("Cost $x_1 * y_2$ and *emphasis* with $O(T \\log T)$.")
    assert html.count("<math") == 2 and "<msub><mi>x</mi><mn>1</mn></msub>" in html
    assert "<em>emphasis</em>" in html and "$" not in html


def test_bold_math_carries_mathvariant_for_the_css_rule():
    assert 'mathvariant="bold"' in Markup().render("a $\\mathbf{5.42} \\times$ speedup")


def test_unconvertible_formula_is_shown_as_tex_code_and_remembered():
    markup = Markup()
    html = markup.render("broken $\\frac{a}{b$ and $\\unknowncommand{x}$ here")
    assert '<code class="tex">\\frac{a}{b</code>' in html
    assert '<code class="tex">\\unknowncommand{x}</code>' in html
    assert markup.failed_math == ["\\frac{a}{b", "\\unknowncommand{x}"]


def test_escaped_dollar_is_a_dollar():
    assert "costs $5 and $6" in Markup().render("costs \\$5 and \\$6")


def test_title_math_is_rendered_and_text_escaped():
    html = Markup().inline("AD$^\\varepsilon$ <b>")
    assert html.startswith("AD<math") and html.endswith("&lt;b&gt;")


def test_plain_text_reads_math_as_text():
    assert plain_text("An $O(T \\log T)$ **fast** [link](https://x.org) with $\\infty$") == \
        "An O(T log T) fast link with ∞"
    assert excerpt("word " * 100, 30) == "word word word word word word…"


HOSTILE = {
    "script": "Intro <script>alert(1)</script> end.",
    "img onerror": 'See <img src="x" onerror="alert(1)"> here.',
    "iframe": 'A <iframe src="https://evil.example/"></iframe> frame.',
    "svg onload": 'An <svg onload="alert(1)"><circle r="1"/></svg> icon.',
    "javascript link": "Click [here](javascript:alert(1)) or <a href=\"JaVaScRiPt:alert(1)\">there</a>.",
    "style attribute": '<p style="position:fixed;inset:0">Covering</p> text.',
    "event on allowed tag": '<a href="https://ok.example/" onclick="alert(1)">ok</a>',
    "math with a script inside": '$x$ and <math><mi onmouseover="alert(1)">y</mi><script>alert(1)</script></math>',
    "data url": '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_markup_in_an_abstract_is_rendered_inert(name):
    html = Markup().render(HOSTILE[name]).lower()
    for danger in ("<script", "<iframe", "<svg", "<img", "javascript:", "data:", "onerror", "onload",
                   "onclick", "onmouseover", "style="):
        assert danger not in html, (name, danger, html)


def test_sanitising_keeps_prose_links_and_mathml():
    html = Markup().render("**Bold**, *em*, `code`, [a link](https://example.org/x?a=1&b=2) and "
                           "$\\frac{a}{b} + \\mathbf{5.42}$.")
    assert "<strong>Bold</strong>" in html and "<em>em</em>" in html and "<code>code</code>" in html
    assert '<a href="https://example.org/x?a=1&amp;b=2">a link</a>' in html
    assert "<mfrac>" in html and 'mathvariant="bold"' in html and 'display="inline"' in html


def test_function_names_are_spaced_as_tex_spaces_them():
    """`O(T\\log T)` reads "O(T log T)": a thin space each side of `log`, none after the bracket."""
    mathml = Markup().render(r"Cost $O(T\log T)$, then $O(\log T)$ and $\exp(x)$.")
    thin = '<mspace width="0.1667em"></mspace>'
    assert f"<mi>T</mi>{thin}<mi>log</mi><mo>\u2061</mo>{thin}<mi>T</mi>" in mathml
    assert f"(</mo><mi>log</mi><mo>\u2061</mo>{thin}<mi>T</mi>" in mathml
    assert "<mi>exp</mi><mo>\u2061</mo><mo" in mathml  # no space before its bracket


def test_infinity_is_a_symbol_not_an_operator():
    assert "<mi>∞</mi></mrow></math>-Video" in Markup().render(r"we introduce $\infty$-Video")


def test_punctuation_after_a_formula_stays_on_its_line():
    assert "</math>\u2060, where" in Markup().render(r"complexity $O(T)$, where $T$ is the length")


PROSE = [
    "One paragraph.", "A model's view of (x, y) = 3%.\nIts second line.\n\nA new paragraph; yes/no?",
    "Costs $O(n^2)$ time, and $$\\sum_i x_i$$ is shown.", "x\n\n\n\ny\n", "\n\nlead and trail\n\n",
    "don't, it's, the authors' work, 'quoted' and \"double\"", "a -- b --- c ... d . . . e", "1. a list\n2. of two",
    "- bullet\n- list", "> quote", "Heading\n=======", "tail  \nbreak", "    code", "C# & <b>", "a_b *c* `d`",
    "[link](https://example.org) and <https://example.org>", "tab\there", "5) item", "2024 results. 3.5 points",
    "Café, naïve, Øberg's résumé", "'90s", "rock 'n' roll", "x'1 and 1'x",
    "\u00a0leading no-break space", "a\n\n\u3000ideographic space", "page\x0c\n\nbreak", "\x1cfile separator",
]


def test_prose_without_markdown_syntax_renders_to_the_same_bytes_as_markdown(tmp_path, monkeypatch):
    """The shortcut for prose is byte for byte Markdown's output, on tricky cases and on 300
    synthetic abstracts (the real ones: test_cli_frozen_catalogue.py), and it is taken for many of them."""
    import catalogue.render.markup as markup
    sys.path.insert(0, str(PROJECT_ROOT / "scripts"))
    from synthetic import generate
    generate(300, tmp_path / "content")
    abstracts = [path.read_text(encoding="utf-8").split("---\n", 2)[2]
                 for path in sorted((tmp_path / "content/papers").glob("*.md"))]
    texts = PROSE + abstracts
    taken = sum(not markup_syntax(cut_math(text)[0]) for text in abstracts)
    renderer = Markup()
    shortcut = [renderer.render(text) for text in texts]
    monkeypatch.setattr(markup, "_MARKDOWN_SYNTAX", re.compile(""))  # every text through Markdown
    assert [renderer.render(text) for text in texts] == shortcut
    assert taken > 0.3 * len(abstracts)


@pytest.mark.parametrize("text, expected", [
    ("Use `<details>` so:\n\n<details>\n<summary>S</summary>\n</details>", [(3, "details"), (4, "summary")]),
    ("Write `![alt](x.png)` for one.\n\n![fig](https://a/b.png)", [(3, "img")]),
    ("    <img src=x>\n\n![real](y.png)", [(3, "img")]),
    ("#1 result is here", [(1, "h1")]),
    ("> # Key idea", [(1, "h1")]),
    ("#####x", [(1, "h5")]),
    ("See <my-widget> here", [(1, "my-widget")]),
    ("Two\n\n<table>\n<tr><td>1</td></tr>\n</table>", [(3, "table")]),
    ("Para\n\n<!-- <img src=x.png> a draft -->", []),
    ("a < b and c > d, <https://example.org/>, $x < y$", []),
    ("## Fine\n\n### Fine too\n\n#### And this", []),
])
def test_what_the_sanitiser_leaves_out_of_a_curators_markdown_is_named_at_its_line(text, expected):
    """The line that made it, outside code and comments, as Python-Markdown reads a heading."""
    markup = Markup()
    markup.render(text)
    found = left_out([Written(text, Path("notes.md"), 1)], markup.left_out)
    assert [(d.line, d.message.split("`")[1].strip("<>")) for d in found] == expected
