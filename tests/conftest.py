"""Fixtures that make tiny catalogues in tmp_path, following the pipeline: files → content → site;
the frozen catalogue built once a run; and the `slow` marker (see pytest_collection_modifyitems)."""

from __future__ import annotations

import fcntl
import os
import shutil
import textwrap
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from helpers import FROZEN, copy_code
from hypothesis import settings

from catalogue.config import SiteConfig
from catalogue.content.loader import load_catalogue
from catalogue.pipeline import build_site
from catalogue.report import Report

if TYPE_CHECKING:
    from catalogue.pipeline import BuildResult

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


SITE = """\
url: http://localhost:8000/
title: Context Window
description: A catalogue of research on long-context modelling and in-context learning
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
        return SiteConfig(**{"content_dir": self.content, "out_dir": self.site,
                                        "cache_dir": self.root / ".cache", **changes})

    def papers(self) -> dict[str, str]:
        folder = self.content / "papers"
        return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.md"))}


def new_project(root: Path) -> Scratch:
    """A project in `root` with the test vocabulary and venues, and no papers yet."""
    project = Scratch(root)
    project.write("content/taxonomy.yaml", TAXONOMY)
    project.write("content/venues.yaml", VENUES)
    project.write("content/site.yaml", SITE)
    return project


def add_small_site(scratch: Scratch) -> Scratch:
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


@pytest.fixture
def scratch(tmp_path: Path) -> Scratch:
    """An empty project with the test vocabulary in content/taxonomy.yaml."""
    return new_project(tmp_path)


@pytest.fixture
def small_site(scratch: Scratch) -> Scratch:
    """Three valid papers in two venues, with math, a link and a code URL."""
    return add_small_site(scratch)


@dataclass(frozen=True)
class Built:
    """A project and what its build returned."""

    project: Scratch
    result: BuildResult


@pytest.fixture(scope="session")
def small_built(tmp_path_factory) -> Built:
    """The small site built once a session as a plain build does (search and images): only to
    read. To build again or change anything, take `small_built_copy`."""
    project = add_small_site(new_project(tmp_path_factory.mktemp("small-built")))
    return Built(project, build_site(project.config(), Report()))


@pytest.fixture
def small_built_copy(small_built: Built, tmp_path: Path) -> Built:
    """A copy of `small_built` of this test's own: content/, site/ and .cache/."""
    shutil.copytree(small_built.project.root, tmp_path / "project", symlinks=True)
    return Built(Scratch(tmp_path / "project"), small_built.result)


def run_folder(tmp_path_factory) -> Path:
    """A folder of this run's, the same for every test process (pytest-xdist's workers each have
    a temporary folder of their own inside it) and new with every run."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def once_a_run(folder: Path):
    """Yields whether this process is the first to get here this run; the others wait until
    it has left (an exclusive lock on `folder`'s lock file), and then are told it was done."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        first = not (folder / ".done").exists()
        yield first
        (folder / ".done").touch()


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory) -> Path:
    """One cache folder for the tests that build the frozen catalogue in-process: its social
    images are drawn once a run (by whichever test process draws them first; writes are atomic),
    never into the repository's own .cache/."""
    cache = run_folder(tmp_path_factory) / "shared-cache"
    cache.mkdir(exist_ok=True)
    return cache


@pytest.fixture(scope="session")
def frozen_catalogue():
    """The frozen catalogue (tests/fixtures/catalogue), loaded once (only read)."""
    return load_catalogue(FROZEN / "content", Report())


@pytest.fixture(scope="session")
def frozen_site(tmp_path_factory, shared_cache) -> Path:
    """The frozen catalogue built once a run as `python build.py` builds it (search, images,
    the default base URL), into a temporary folder shared by the test processes: for the tests
    that only read it. A test that edits the catalogue builds a copy of its own."""
    folder = run_folder(tmp_path_factory) / "frozen-site"
    with once_a_run(folder) as first:
        if first:
            build_site(SiteConfig(content_dir=FROZEN / "content", out_dir=folder / "site", cache_dir=shared_cache),
                       Report())
    return folder / "site"


@pytest.fixture(scope="session")
def code(tmp_path_factory) -> Path:
    """build.py, catalogue/, templates/ and static/ copied once a session: run as a process
    (helpers.build_py), its default .cache/ is this copy's, never the repository's."""
    return copy_code(tmp_path_factory.mktemp("code"))


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true",
                     help="also run the tests marked slow (always run when CI is set)")


def pytest_collection_modifyitems(config, items):
    """Tests marked `slow` run in CI (the CI variable set, as .ci/run sets it) or with --slow;
    a plain local `pytest` deselects them. A test that runs build.py as a process (it asks for
    `code`) is in that slower tier too."""
    for item in items:
        if "code" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
    if config.getoption("--slow") or os.environ.get("CI"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
