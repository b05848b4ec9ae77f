"""Fixtures that make tiny catalogues in tmp_path, following the pipeline: files → content → site."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import settings

from catalogue.config import SiteConfig

# The same examples on every run: CI must not pass or fail by luck (raise max_examples to explore more).
settings.register_profile("repeatable", derandomize=True, database=None)
settings.load_profile("repeatable")

TAXONOMY = """\
tags:
  - id: kv-cache
    label: KV cache
    description: Storing and compressing the key-value cache.
    phrases: ["kv cache", "key-value cache"]
  - id: sparse-attention
    label: Sparse attention
    description: Attention over a chosen subset of tokens.
    phrases: ["sparse attention", "top-k attention"]
  - id: state-space-models
    label: State-space models
    description: Recurrent state-space sequence models such as Mamba.
    phrases: ["state space model*", "mamba"]
  - id: in-context-learning
    label: In-context learning
    description: Learning tasks from examples in the prompt.
    phrases: ["in-context learning", "icl"]
  - id: long-tailed-learning
    label: Long-tailed learning
    description: Learning from class-imbalanced data.
    phrases: ["long-tail*"]
themes:
  - id: efficient-inference
    title: Efficient inference
    description: Making long inputs cheap.
    tags: [kv-cache, sparse-attention]
  - id: architectures
    title: Architectures
    description: Models built for long sequences.
    tags: [state-space-models, sparse-attention]
  - id: icl
    title: In-context learning
    description: How models learn from context.
    tags: [in-context-learning]
  - id: long-tail
    title: Long tails
    description: Long-tailed data, not long context.
    tags: [long-tailed-learning]
"""


VENUES = """\
venues:
  - name: ICLR
    year: 2025
    title: International Conference on Learning Representations
    proceedings: https://proceedings.iclr.cc/paper_files/paper/2025
  - name: ICML
    year: 2025
    title: International Conference on Machine Learning
  - name: ICML
    year: 2024
    title: International Conference on Machine Learning
  - name: NeurIPS
    year: 2023
    title: Advances in Neural Information Processing Systems
"""


def paper(slug: str, title: str, venue: str = "ICML 2024", tags: str = "[kv-cache, sparse-attention]",
          body: str = "We compress the KV cache with sparse attention.", extra: str = "") -> str:
    """The text of a valid paper file."""
    return (f"---\ntitle: \"{title}\"\ntitle_source: curated\nslug: {slug}\nvenue: {venue}\n"
            f"tags: {tags}\n{extra}---\n\n{body}\n")


class Scratch:
    """A project folder in tmp_path: write files by relative path, then build or import."""

    def __init__(self, root: Path):
        self.root = root
        self.content = root / "content"
        self.site = root / "site"

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text) if text.startswith("\n") else text, encoding="utf-8")
        return path

    def config(self, **changes) -> SiteConfig:
        return replace(SiteConfig(), **{"content_dir": self.content, "out_dir": self.site,
                                        "cache_dir": self.root / ".cache", **changes})

    def papers(self) -> dict[str, str]:
        folder = self.content / "papers"
        return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))}


@pytest.fixture
def scratch(tmp_path: Path) -> Scratch:
    """An empty project with the test vocabulary in content/taxonomy.yaml."""
    project = Scratch(tmp_path)
    project.write("content/taxonomy.yaml", TAXONOMY)
    project.write("content/venues.yaml", VENUES)
    return project


@pytest.fixture
def small_site(scratch: Scratch) -> Scratch:
    """Three valid papers in two venues, with math, a link and a code URL."""
    scratch.write("content/papers/samba.md", paper(
        "samba", "Samba: Simple Hybrid State Space Models", "ICLR 2025",
        "[state-space-models, sparse-attention]",
        "We present **Samba**, a hybrid of Mamba and sliding windows with $O(T \\log T)$ cost "
        "and $x_1 * y_2$ terms. See [the repo](https://github.com/example/samba).",
        "code: https://github.com/example/samba\narxiv: \"2406.07522\"\nauthors: [Ada Lovelace, Alan Turing]\n"))
    scratch.write("content/papers/rocketkv.md", paper("rocketkv", "RocketKV: Two-Stage KV Cache Compression"))
    scratch.write("content/papers/icv.md", paper(
        "icv", "In-context Vectors", "ICML 2024", "[in-context-learning, kv-cache]",
        "In-context learning with vectors, shifting latent states by $\\alpha$."))
    return scratch


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory) -> Path:
    """One cache folder for the tests that build the real catalogue in-process: its social
    images are drawn once a session, never into the repository's own .cache/."""
    return tmp_path_factory.mktemp("cache")
