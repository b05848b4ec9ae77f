import pytest

from catalogue.importer.cleaning import clean_abstract, leftover_latex


@pytest.mark.parametrize("raw, clean", [
    ("long context un- derstanding", "long context understanding"),
    ("the context window of Llama3- 70B-base", "the context window of Llama3-70B-base"),
    ("Llama3.1-70B- Instruct and GPT-4- Turbo", "Llama3.1-70B-Instruct and GPT-4-Turbo"),
    ("short- and long-term memory", "short- and long-term memory"),
    ("a baseline - the Memorizing Transformer", "a baseline - the Memorizing Transformer"),
])
def test_words_split_by_pdf_extraction_are_joined(raw, clean):
    assert clean_abstract(raw) == clean


@pytest.mark.parametrize("raw, clean", [
    (r"we propose \textbf{LongPPL}, a metric", "we propose **LongPPL**, a metric"),
    (r"\textit{despite} and \emph{this}", "*despite* and *this*"),
    (r"the \texttt{run.py} script", "the `run.py` script"),
    (r"an \underline{important} point", "an *important* point"),
    (r"code at \url{https://github.com/a/b}.", "code at <https://github.com/a/b>."),
    (r"\textbf{bold \textit{and italic} text}", "**bold *and italic* text**"),
    (r"$\textbf{context-parametric inversion}$ is", "**context-parametric inversion** is"),
    (r"\emph{$k$-grams are stationary}", "*$k$-grams are stationary*"),
])
def test_latex_text_commands_become_markdown(raw, clean):
    assert clean_abstract(raw) == clean


@pytest.mark.parametrize("text", [
    r"a $(2N+4)L$-layer transformer with $O(T \log T)$ cost",
    r"speedups of $\mathbf{5.42 * 10^6} \times$ and $x_1 * y_2$",
    "**D**ynamic **S**parse and [a link](https://example.org/x_y)",
    "see <https://github.com/a/b>",
])
def test_math_and_existing_markdown_are_kept(text):
    assert clean_abstract(text) == text


def test_tex_leftovers_are_tidied():
    raw = r"to 5\% with a $<4$\% difference---like ZETA~matches {perception to reasoning} -- so"
    assert clean_abstract(raw) == "to 5% with a $<4$% difference—like ZETA matches perception to reasoning – so"


def test_bare_urls_become_links_without_trailing_punctuation():
    assert clean_abstract("Code: https://github.com/LeapLabTHU/SimPro.") == \
        "Code: <https://github.com/LeapLabTHU/SimPro>."


def test_malformed_latex_is_left_and_reported():
    text = clean_abstract(r"a \textbf{broken command")
    assert text == r"a \textbf{broken command"
    assert leftover_latex(text) == [r"\textbf"]
