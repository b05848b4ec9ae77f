"""The words a paper page hands to the search index (the parts of its method names), and the
index's words that the search page corrects typos to."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from catalogue.output.search import WORDS_FILE, write_words
from catalogue.render.searchwords import name_parts, search_words


@pytest.mark.parametrize("word, parts", [
    ("LongRoPE", ["long", "ro", "pe", "longro", "rope"]),
    ("FlexPrefill", ["flex", "prefill"]),
    ("RocketKV", ["rocket", "kv"]),
    ("miniCTX", ["mini", "ctx"]),
    ("SCBench", ["sc", "bench"]),
    ("NExtLong", ["ext", "long", "next", "extlong"]),
    ("D2O", ["d2", "2o"]),
    ("128K", ["128"]),
])
def test_a_compound_name_splits_at_case_and_digit_boundaries(word, parts):
    assert name_parts(word) == parts


@pytest.mark.parametrize("word", ["attention", "Samba", "ZETA", "LLMs", "LVLMs", "2024", "x"])
def test_a_plain_word_or_a_plural_acronym_has_no_parts(word):
    assert name_parts(word) == []


def test_the_words_leave_out_what_the_title_already_says():
    title = "LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens"
    assert search_words(title, "longrope").split() == ["long", "ro", "pe", "longro", "rope"]


def test_the_slug_adds_a_method_name_the_title_does_not_hold():
    title = "What is Wrong with Perplexity for Long-context Language Modeling?"
    assert search_words(title, "longppl") == "longppl"
    assert search_words("Samba: Simple Hybrid State Space Models", "samba") == ""


def test_hyphens_and_punctuation_are_word_boundaries():
    assert search_words("Timer-XL: Long-Context Transformers", "timer-xl") == ""
    assert search_words("P-SpikeSSM: Spiking State Space Models", "p-spikessm") == "spike ssm"


def fragment(index: Path, name: str, page: object) -> None:
    (index / "fragment").mkdir(parents=True, exist_ok=True)
    (index / "fragment" / f"{name}.pf_fragment").write_bytes(gzip.compress(b"pagefind_dcd" + json.dumps(page).encode()))


def test_the_index_words_for_spelling_come_from_every_page_most_common_first(tmp_path):
    fragment(tmp_path, "a", {"content": "Samba models long sequences. 2406.07522", "meta": {"title": "Samba"}})
    fragment(tmp_path, "b", {"content": "LongRoPE extends models to 2 million tokens", "meta": {"title": "LongRoPE"}})
    fragment(tmp_path, "c", {"another": "layout"})  # a fragment of another Pagefind: no words, no failure
    words = write_words(tmp_path)
    assert words[0] == "models" and set(words) == {"models", "samba", "long", "sequences", "longrope",
                                                    "extends", "million", "tokens"}
    assert json.loads((tmp_path / WORDS_FILE).read_text(encoding="utf-8")) == words
