import pytest

from catalogue.derive import (MAX_TITLE, derived_title, find_links, method_name, slug_source,
                              slugify, unique_slug)

SAMBA = ("Efficiently modeling sequences with infinite context length has long been a challenging "
         "problem. In this work, we present Samba, a simple hybrid architecture that layer-wise "
         "combines Mamba, a selective State Space Model (SSM), with Sliding Window Attention (SWA).")


@pytest.mark.parametrize("abstract, name", [
    (SAMBA, "Samba"),
    ("We introduce Shifted Rotray Position Embedding (STRING). STRING shifts positions.", "STRING"),
    ("we propose a novel approach, Hierarchically Pruned Attention (HiP), which prunes.", "HiP"),
    ("we propose **SELF-PARAM** (Self-Updatable Large Language Models with Parameter Integration).",
     "SELF-PARAM"),
    ("Our method, called Metalic (Meta-Learning In-Context), uses in-context learning.", "Metalic"),
    ("we propose a new KV cache optimization paradigm called LaCache, a training-free method.",
     "LaCache"),
    ("Recently, Lin et al. (2024) proposed URIAL, a method using three examples.", ""),
    ("We study how models learn in context from many examples.", ""),
])
def test_method_name_is_the_one_the_authors_introduce(abstract, name):
    assert method_name(abstract)[0] == name


def test_derived_title_names_the_method_and_what_it_is():
    title = derived_title(SAMBA)
    assert title.startswith("Samba: Simple hybrid architecture that layer-wise combines Mamba")
    assert len(title) <= MAX_TITLE


def test_derived_title_falls_back_to_the_first_sentence_without_cutting_words():
    abstract = ("Extremely low-resource languages lack substantial corpora for training NLP models, "
                "motivating the use of all available resources such as dictionaries. More follows.")
    title = derived_title(abstract)
    assert len(title) <= MAX_TITLE and title.endswith("…")
    assert abstract.startswith(title[:-1]) and abstract[len(title) - 1] == " "
    assert not title[:-1].endswith((" for", " the", ","))


def test_short_first_sentence_is_the_whole_title():
    assert derived_title("Transformers learn in context. They do more.") == "Transformers learn in context"


@pytest.mark.parametrize("text, slug", [
    ("Samba", "samba"),
    ("∞-Video", "infinity-video"),
    ("M+", "m-plus"),
    ("ChatQA 2", "chatqa-2"),
    ("Why Does the Effective Context Length of LLMs Fall Short?", "effective-context-length-llms-fall-short"),
    ("Is In-Context Learning Sufficient for Instruction Following in LLMs?",
     "in-context-learning-sufficient-instruction-following"),
    ("Ünïcödé Çafé", "unicode-cafe"),
    ("!!!", "paper"),
])
def test_slugs_are_readable_lower_case_ascii(text, slug):
    assert slugify(text) == slug


@pytest.mark.parametrize("title, source", [
    ("LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens", "LongRoPE"),
    ("Position: Cracking the Code of Cascading Disparity", "Cracking the Code of Cascading Disparity"),
    ("Long-Tail Learning with Foundation Model: Heavy Fine-Tuning Hurts",
     "Long-Tail Learning with Foundation Model: Heavy Fine-Tuning Hurts"),
])
def test_slug_comes_from_the_short_name_before_the_colon(title, source):
    assert slug_source(title, "We study things.") == source


def test_slug_uses_the_method_name_when_the_title_has_none():
    title = "A Training-Free Sub-quadratic Cost Transformer Model Serving Framework"
    abstract = "we propose a novel approach, Hierarchically Pruned Attention (HiP), which prunes."
    assert slugify(slug_source(title, abstract)) == "hip"


def test_unique_slug_adds_a_number():
    assert unique_slug("samba", {"samba", "samba-2"}) == "samba-3"
    assert unique_slug("zeta", {"samba"}) == "zeta"


def test_code_and_project_links_are_found():
    abstract = ("Code: <https://github.com/BorgwardtLab/NeuralWalker>. Project page is at "
                "https://ys-zong.github.io/VL-ICL/ and weights at https://github.com/other/repo.")
    assert find_links(abstract) == ("https://github.com/BorgwardtLab/NeuralWalker",
                                    "https://ys-zong.github.io/VL-ICL/")
