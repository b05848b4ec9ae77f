from catalogue.markup import Markup, excerpt, plain_text


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
