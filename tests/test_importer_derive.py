import re

import pytest

from catalogue.importer.cleaning import clean_abstract
from catalogue.importer.derive import derived_title, method_name
from catalogue.importer.fitting import MAX_TITLE
from catalogue.importer.links import find_links
from catalogue.importer.slugs import slug_source, slugify, unique_slug

SAMBA = ("Efficiently modeling sequences with infinite context length has long been a challenging "
         "problem. In this work, we present Samba, a simple hybrid architecture that layer-wise "
         "combines Mamba, a selective State Space Model (SSM), with Sliding Window Attention (SWA).")
# Abstracts as the importer hands them over: cleaned from the LaTeX-ish text of a raw list.
MAMBAEXTEND = clean_abstract(
    "The inherent quadratic complexity of the attention mechanism in transformer models has driven "
    "research on alternatives. To address this, we propose _**MambaExtend**_, a novel framework "
    "designed to significantly enhance the context extension capabilities of Mamba-based models.")
MAGICDEC = ("Large Language Models (LLMs) have become more prevalent in long-context applications. "
            "In MagicDec, we show that speculative decoding can enhance throughput even for large "
            "batch sizes with moderate to long sequences.")
MINICTX = clean_abstract(
    "Real-world proofs depend on context. We introduce $\\texttt{miniCTX}$, the first benchmark that "
    "tests a model's ability to use context from an entire Lean project when proving theorems.")
INFINITY_VIDEO = ("Current video models handle short clips. We propose $\\infty$-Video, a training-free "
                  "approach that processes arbitrarily long videos through continuous-time memory.")
LONGPPL = ("To address this, we propose **LongPPL**, a novel metric that focuses on key tokens by "
           "employing a long-short context contrastive method to identify them.")
TRAINING_DYNAMICS = ("Transformers learn in context. In this paper, we investigate the training dynamics "
                     "of in-context learning in linear attention, finding abrupt and saddle-to-saddle phases.")


@pytest.mark.parametrize("abstract, name", [
    (SAMBA, "Samba"),
    ("We introduce Shifted Rotray Position Embedding (STRING). STRING shifts positions.", "STRING"),
    ("we propose a novel approach, Hierarchically Pruned Attention (HiP), which prunes.", "HiP"),
    ("we propose **SELF-PARAM** (Self-Updatable Large Language Models with Parameter Integration).",
     "SELF-PARAM"),
    ("Our method, called Metalic (Meta-Learning In-Context), uses in-context learning.", "Metalic"),
    ("we propose a new KV cache optimization paradigm called LaCache, a training-free method.",
     "LaCache"),
    ("we propose the Selective and Interpretable Normalization methodology, dubbed SIN.", "SIN"),
    ("we introduce a comprehensive benchmark VL-ICL Bench for multimodal in-context learning.",
     "VL-ICL Bench"),
    ("This paper introduces LongRoPE that, for the first time, extends the context window.", "LongRoPE"),
    (MAMBAEXTEND, "MambaExtend"),
    (MAGICDEC, "MagicDec"),
    (MINICTX, "miniCTX"),
    (INFINITY_VIDEO, "$\\infty$-Video"),
    (LONGPPL, "LongPPL"),
    ("Caches grow with context. `FlashCompress` compresses each layer's KV cache into a fixed budget.",
     "FlashCompress"),
    ("We present *RetroLM*, a retrieval-augmented model that retrieves over the KV cache.", "RetroLM"),
    ("MemoryLLM, a model with a self-updatable memory pool, keeps knowledge for long.", "MemoryLLM"),
])
def test_method_name_is_the_one_the_authors_introduce(abstract, name):
    assert method_name(abstract)[0] == name


@pytest.mark.parametrize("abstract", [
    "Recently, Lin et al. (2024) proposed URIAL, a method using three examples. We test it further.",
    "We study how models learn in context from many examples.",
    "We present a KV cache paradigm that merges attention heads to save memory on long inputs.",
    "Two factors matter: (1) **Efficacy**: recall of recent events; (2) **Retention** of old ones.",
    "Our method is **training-free** and needs **only** a few examples to adapt models to long inputs.",
    "In-context learning (ICL) is studied widely. In ICL, we find that large language models (LLMs) copy.",
    "We introduce a state space model (SSM) layer that mixes tokens, and we prove that it is stable.",
    "Their experiments use the *ICL objective* (training models explicitly for ICL) on synthetic data.",
    "We develop the generative predictive $p$-value, which enables posterior predictive checks.",
])
def test_adjectives_citations_generic_words_and_the_fields_acronyms_are_no_names(abstract):
    assert method_name(abstract)[0] == ""


@pytest.mark.parametrize("abstract, title", [
    (SAMBA, "Samba: Simple hybrid architecture layer-wise combining Mamba with Sliding Window Attention"),
    (MAMBAEXTEND, "MambaExtend: Framework designed to enhance the context extension capabilities"),
    (MINICTX, "miniCTX: Benchmark testing a model's ability to use context from an entire Lean project"),
    (INFINITY_VIDEO, "$\\infty$-Video: Training-free approach processing arbitrarily long videos"),
    (LONGPPL, "LongPPL: Metric focusing on key tokens"),
    ("Our method, called Metalic (Meta-Learning In-Context), uses in-context learning.",
     "Metalic: Meta-Learning In-Context"),
    ("This paper introduces LongRoPE that, for the first time, extends the context window of "
     "pre-trained LLMs to an impressive 2048k tokens.",
     "LongRoPE: Extending the context window of pre-trained LLMs to an impressive 2048k tokens"),
    ("In this work, we propose ZETA, leveraging Z-Order Curves for Efficient Top-k Attention, to "
     "enable parallel querying of past tokens.", "ZETA: Leveraging Z-Order Curves for Efficient Top-k Attention"),
])
def test_derived_title_names_the_method_and_what_it_is(abstract, title):
    assert derived_title(abstract) == title


def test_a_name_without_a_description_takes_what_the_paper_shows():
    assert derived_title(MAGICDEC) == "MagicDec: Speculative decoding can enhance throughput even for large batch sizes"


@pytest.mark.parametrize("abstract, title", [
    (TRAINING_DYNAMICS, "Training dynamics of in-context learning in linear attention"),
    ("Many architectures are Turing complete. We show that transformers can learn to implement "
     "gradient descent in function space.", "Transformers can learn to implement gradient descent in function space"),
    ("This work is about estimating when a conditional generative model (CGM) can solve an in-context "
     "learning (ICL) problem.", "Estimating when a conditional generative model can solve an in-context learning problem"),
    ("Randomization is a powerful tool. In this paper, we enhance deep neural networks, in particular "
     "transformer models, with randomization.", "Enhancing deep neural networks with randomization"),
    ("One recent observation is that models of different scales may have different ICL behaviors. "
     "This work studies this observation theoretically.", "Models of different scales may have different ICL behaviors"),
    ("Given the open-ended nature of LLMs, we ask whether models can flexibly alter their "
     "semantically grounded organization of concepts.",
     "Can models flexibly alter their semantically grounded organization of concepts?"),
    ("The rise of foundation models holds promise. In this position paper, we discuss that "
     "disparities towards marginalized communities are not isolated concerns.",
     "Position: Disparities towards marginalized communities are not isolated concerns"),
])
def test_without_a_name_the_title_is_a_phrase_for_what_the_paper_does(abstract, title):
    assert derived_title(abstract) == title


@pytest.mark.parametrize("abstract, title", [
    ("Proofs need context. We introduce `miniCTX`, which tests a model's ability to prove theorems "
     "that depend on new context. `miniCTX` contains theorems from real Lean projects.",
     "miniCTX: Testing a model's ability to prove theorems depending on new context"),
    ("In this paper, we introduce $\\infty$-Video, which is able to process arbitrarily long videos "
     "through a continuous-time long-term memory consolidation mechanism.", "$\\infty$-Video: Processing arbitrarily long videos"),
    ("To address these limitations, we propose **CoMemo** - a dual-path architecture that combines a "
     "context image path with an image memory path.",
     "CoMemo: Dual-path architecture combining a context image path with an image memory path"),
])
def test_what_follows_a_name_in_other_shapes(abstract, title):
    assert derived_title(abstract) == title


@pytest.mark.parametrize("abstract, title", [
    ("Our investigation reveals that a few attention heads retrieve information, which we dub "
     "retrieval heads. We identify intriguing properties of retrieval heads.",
     "Identifying intriguing properties of retrieval heads"),
    ("We study the gradient descent dynamics of multi-head linear self-attention trained for "
     "in-context linear regression.", "Gradient descent dynamics of multi-head linear self-attention"),
    ("Using theory and experiment, we show that the sub-circuits that memorize and generalize can be "
     "viewed as largely independent.", "The sub-circuits that memorize and generalize can be viewed as largely independent"),
])
def test_phrases_keep_their_grammar(abstract, title):
    assert derived_title(abstract) == title


@pytest.mark.parametrize("abstract, title", [  # issue 27: titles a new conference's lists were given
    ("Transformers dominate. In this paper we show that while recurrent models are fast, they are limited "
     "compared to transformers on copying.", "Recurrent models are limited compared to transformers on copying"),
    ("We propose a retrieval score that better reflects what readers find useful.",
     "Retrieval score better reflecting what readers find useful"),
    ("Can models remember? We take the first steps toward answering this question. We study the memory of "
     "recurrent models over long inputs.", "Memory of recurrent models over long inputs"),
    ("We focus on the calibration of long-context retrieval.", "Calibration of long-context retrieval"),
    ("Models forget. In this paper, we empirically study the memory of recurrent models.",
     "Memory of recurrent models"),
    ("Linear transformers are fast. This work describes a hardware-efficient algorithm for training linear "
     "transformers.", "Hardware-efficient algorithm for training linear transformers"),
    ("In this work, we propose a novel method called RankRAG.", "RankRAG"),
    ("We study the ``perturb-then-diagonalize'' recipe for state space models.",
     "Perturb-then-diagonalize recipe for state space models"),
])
def test_no_pronoun_read_as_a_verb_no_discourse_opening_no_concession_and_no_tex_quotes(abstract, title):
    assert derived_title(abstract) == title


def test_a_paper_naming_a_phenomenon_is_titled_by_it():
    abstract = ("In this work, we observe an intriguing phenomenon: the context reliance of the model "
                "decreases as instruction finetuning progresses. We call this phenomenon as the "
                "**context-parametric inversion**.")
    assert derived_title(abstract) == "Context-parametric inversion: The context reliance of the model decreases"


LONG_ABSTRACTS = [
    SAMBA, MAMBAEXTEND, MAGICDEC, MINICTX, INFINITY_VIDEO, LONGPPL, TRAINING_DYNAMICS,
    "Extremely low-resource languages lack substantial corpora for training NLP models, motivating "
    "the use of all available resources such as dictionaries and grammar books and word lists. More.",
    "We introduce CURIE, a scientific long-Context Understanding, Reasoning, and Information "
    "Extraction benchmark to measure the potential of Large Language Models in scientific work.",
    "We introduce a novel mechanism that leverages cascading sub-cache buffers to selectively retain "
    "the most relevant tokens, enabling the model to maintain longer context histories.",
    "We propose X-Attn… a method … that keeps $x_1, \\ldots, x_n$ … in memory while decoding very long "
    "sequences of tokens across many layers of very large language models on commodity hardware...",
]


@pytest.mark.parametrize("abstract", LONG_ABSTRACTS)
def test_titles_fit_end_on_a_whole_word_and_never_carry_an_ellipsis(abstract):
    title = derived_title(abstract)
    last = title.split()[-1].lower()
    assert title and len(title) <= MAX_TITLE
    assert "…" not in title and "..." not in title
    assert last not in {"a", "an", "the", "of", "for", "to", "and", "or", "in", "with", "by", "that"}
    assert not title.endswith((",", ";", ":", "-"))


def test_a_short_first_sentence_is_the_title_when_nothing_says_what_the_paper_does():
    assert derived_title("Transformers learn in context. They do more.") == "Transformers learn in context"


@pytest.mark.parametrize("abstract, slug", [
    (MAMBAEXTEND, "mambaextend"),
    (MAGICDEC, "magicdec"),
    (MINICTX, "minictx"),
    (INFINITY_VIDEO, "infinity-video"),
    (TRAINING_DYNAMICS, "training-dynamics-in-context-learning-linear"),
    ("We explore the mechanism of in-context learning in large language models through probes.",
     "mechanism-in-context-learning-large-language"),
])
def test_a_derived_slug_follows_the_name_or_the_phrase(abstract, slug):
    assert slugify(slug_source(derived_title(abstract), abstract)) == slug


@pytest.mark.parametrize("text, slug", [
    ("Samba", "samba"),
    ("∞-Video", "infinity-video"),
    ("$\\infty$-Video", "infinity-video"),
    ("M+", "m-plus"),
    ("ChatQA 2", "chatqa-2"),
    ("Why Does the Effective Context Length of LLMs Fall Short?", "effective-context-length-llms-fall-short"),
    ("Is In-Context Learning Sufficient for Instruction Following in LLMs?",
     "in-context-learning-sufficient-instruction-following"),
    ("Ünïcödé Çafé", "unicode-cafe"),
    ("Efficient long context inference with plug-and-play memory", "efficient-long-context-inference"),
    ("Training a model to cite the passages it relies on while it answers", "training-model-cite-passages-relies"),
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


@pytest.mark.parametrize("abstract", ["", ".", "We", "we propose", "(((", "$x$", "In , we", "**", "…" * 50])
def test_odd_abstracts_give_a_title_and_a_slug(abstract):
    title = derived_title(abstract)
    assert isinstance(title, str) and "…" not in title
    assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", slugify(slug_source(title, abstract)))


def test_unique_slug_adds_a_number():
    assert unique_slug("samba", {"samba", "samba-2"}) == "samba-3"
    assert unique_slug("zeta", {"samba"}) == "zeta"


def test_code_and_project_links_are_found():
    abstract = ("Code: <https://github.com/BorgwardtLab/NeuralWalker>. Project page is at "
                "https://ys-zong.github.io/VL-ICL/ and weights at https://github.com/other/repo.")
    assert find_links(abstract) == ("https://github.com/BorgwardtLab/NeuralWalker",
                                    "https://ys-zong.github.io/VL-ICL/")
