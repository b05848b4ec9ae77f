"""The one change set (catalogue/changeset.py): every path a build reads is sorted into its kind,
what no build reads is left out, and change sets merge as values."""

from pathlib import Path

import pytest

from catalogue.changeset import ChangeSet, Ready
from catalogue.config import SiteConfig

ROOT = Path("/project")
CONFIG = SiteConfig(out_dir=ROOT / "site", content_dir=ROOT / "content", templates_dir=ROOT / "templates",
                    static_dir=ROOT / "static", ledger=ROOT / "published-urls.txt")


@pytest.mark.parametrize("path, kind", [
    ("content/papers/samba.md", "papers"),
    ("content/papers/notes.txt", "papers"),  # not a paper: the loader says so, at its line
    ("content/papers", "papers"),  # the folder moved: every paper is looked at
    ("content/taxonomy.yaml", "vocabulary"),
    ("content/venues.yaml", "site"),
    ("content/authors.yaml", "site"),
    ("content/redirects.txt", "site"),
    ("published-urls.txt", "site"),
    ("content/site.yaml", "settings"),
    ("content", "settings"),  # the whole content folder replaced
    ("templates/paper.html", "templates"),
    ("templates/partials/x.html", "templates"),
    ("static/style.css", "static"),
    ("static/icons/x.svg", "static"),
])
def test_each_path_a_build_reads_is_sorted_into_its_kind(path, kind):
    changes = ChangeSet.of_paths([ROOT / path], CONFIG)
    assert changes.kinds == (kind,)
    assert changes.content == (kind in ("papers", "vocabulary", "site", "settings"))


@pytest.mark.parametrize("path", [
    "content/papers/.samba.md.swp", "content/papers/samba.md~", "content/papers/4913", "content/papers/#samba.md#",
    "content/sources/000.txt",  # a raw list: provenance, which no build reads
    "content/papers/old/samba.md", "README.md", "site/index.html", "templates/__pycache__/x.pyc",
])
def test_what_no_build_reads_is_no_change(path):
    assert not ChangeSet.of_paths([ROOT / path], CONFIG)


def test_change_sets_merge_as_values():
    papers = ChangeSet.of_paths([ROOT / "content/papers/a.md", ROOT / "content/papers/b.md"], CONFIG)
    templates = ChangeSet.of_paths([ROOT / "templates/tag.html"], CONFIG)
    ready = ChangeSet.of_result(Ready("similarity", b"key", "value"))
    merged = papers | templates | ready
    assert merged.papers == papers.papers and merged.templates == templates.templates
    assert merged.ready == ready.ready and merged.kinds == ("papers", "templates", "similarity")
    assert not ChangeSet() and ChangeSet() | ChangeSet() == ChangeSet()
    assert ChangeSet.everything().settings and ChangeSet.everything().content


def test_a_search_result_alone_changes_no_page():
    search = ChangeSet.of_result(Ready("search", b"key", {}))
    assert search.only_search and search.kinds == ("search",)
    assert not (search | ChangeSet.of_paths([ROOT / "content/papers/a.md"], CONFIG)).only_search
    assert not ChangeSet.of_result(Ready("review", b"key", None)).only_search
    assert not ChangeSet().only_search
