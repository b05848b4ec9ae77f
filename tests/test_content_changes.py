"""The incremental contract (catalogue/content/changes.py): each catalogue is a revision, never
changed once made; the next one says what changed since, and shares what did not."""

import pytest
from conftest import paper

from catalogue.content.changes import Changes, PaperChange
from catalogue.content.loader import ContentLoader
from catalogue.report import Report


@pytest.fixture
def loaded(small_site):
    """The small site's loader, kept across edits as watch mode keeps it, and its first catalogue."""
    loader = ContentLoader(small_site.content)
    return small_site, loader, loader.load(Report())


def reload(loader, *paths):
    return loader.load(Report(), papers=paths, rescan=False)


def test_a_catalogue_knows_its_own_revision_and_nothing_older(loaded):
    _, _, catalogue = loaded
    assert catalogue.changes_since(catalogue.revision) == Changes(catalogue.revision)
    assert not catalogue.changes_since(catalogue.revision).alter(lambda p: p.title)
    assert catalogue.changes_since(None).everything
    assert catalogue.changes_since(catalogue.revision - 1).everything


def test_an_edit_makes_the_next_revision_and_leaves_the_last_one_whole(loaded):
    project, loader, first = loaded
    papers_before, by_tag_before = list(first.papers), {t: list(first.papers_with_tag(t)) for t in first.taxonomy.tags}
    project.write("content/papers/icv.md", paper("icv", "Zebra Vectors", "ICML 2024", "[in-context-learning]"))
    second = reload(loader, project.content / "papers/icv.md")
    assert second.revision > first.revision
    changes = second.changes_since(first.revision)
    assert not changes.everything and changes.slugs == {"icv"}
    [change] = changes.papers
    assert (change.old.title, change.new.title) == ("In-context Vectors", "Zebra Vectors")
    assert first.papers == papers_before  # the earlier revision is untouched
    assert {t: first.papers_with_tag(t) for t in first.taxonomy.tags} == by_tag_before
    assert [p.title for p in first.papers_with_tag("kv-cache")] == ["In-context Vectors", "RocketKV: Two-Stage KV Cache Compression"]
    assert [p.title for p in second.papers_with_tag("kv-cache")] == ["RocketKV: Two-Stage KV Cache Compression"]
    assert second.changes_since(first.revision - 1).everything  # two steps back: look at everything


def test_lists_no_change_touches_are_shared_with_the_last_revision(loaded):
    project, loader, first = loaded
    project.write("content/papers/icv.md", paper("icv", "In-context Vectors", "ICML 2024",
                                                 "[in-context-learning, kv-cache]", "A new abstract."))
    second = reload(loader, project.content / "papers/icv.md")
    assert second.papers_with_tag("state-space-models") is first.papers_with_tag("state-space-models")
    assert second.papers_in_venue(first.venues[0]) is first.papers_in_venue(first.venues[0])  # ICLR 2025
    assert second.papers_with_tag("kv-cache") is not first.papers_with_tag("kv-cache")
    assert second.author_buckets()["a"] is first.author_buckets()["a"]  # Ada Lovelace: not icv's author


def test_alter_asks_whether_a_view_of_a_paper_moved(loaded):
    project, loader, first = loaded
    project.write("content/papers/icv.md", paper("icv", "In-context Vectors", "ICML 2024",
                                                 "[in-context-learning, kv-cache]", "Only the abstract is new."))
    changes = reload(loader, project.content / "papers/icv.md").changes_since(first.revision)
    assert changes.alter(lambda p: p.body) and not changes.alter(lambda p: p.listing.headline)
    new = changes.papers[0].new
    assert Changes(0, (PaperChange(None, new),)).alter(lambda p: p.listing)  # an added paper moves every list
    assert Changes.all().alter(lambda p: p.listing)


def test_a_rename_names_both_slugs_and_a_deletion_the_old_one(loaded):
    project, loader, first = loaded
    (project.content / "papers/icv.md").unlink()
    project.write("content/papers/vectors.md", paper("vectors", "In-context Vectors", "ICML 2024",
                                                     "[in-context-learning, kv-cache]", extra="aliases: [icv]\n"))
    second = reload(loader, project.content / "papers/icv.md", project.content / "papers/vectors.md")
    assert second.changes_since(first.revision).slugs == {"icv", "vectors"}
    assert "icv" not in second.by_slug and second.by_slug["vectors"].aliases == ("icv",)
    (project.content / "papers/vectors.md").unlink()
    third = reload(loader, project.content / "papers/vectors.md")
    [change] = third.changes_since(second.revision).papers
    assert change.new is None and change.old.slug == "vectors"


def test_nothing_changed_is_the_same_revision_and_a_taxonomy_edit_is_everything(loaded):
    project, loader, first = loaded
    assert reload(loader, project.content / "papers/icv.md") is first
    taxonomy = project.content / "taxonomy.yaml"
    taxonomy.write_text(taxonomy.read_text().replace("label: KV cache", "label: Key-value cache"))
    second = loader.load(Report(), rescan=False)  # the vocabulary is looked at on every load
    assert second.changes_since(first.revision).everything
    assert second.taxonomy.tags["kv-cache"].label == "Key-value cache"


def test_an_updated_catalogue_equals_one_made_from_scratch(loaded):
    project, loader, _ = loaded
    edits = {"icv.md": paper("icv", "Alpha", "ICLR 2025", "[kv-cache]", extra="authors: [Alan Turing]\n"),
             "new.md": paper("new", "Beta", "ICML 2024", "[state-space-models, sparse-attention]")}
    for name, text in edits.items():
        project.write(f"content/papers/{name}", text)
    updated = reload(loader, *(project.content / "papers" / name for name in edits))
    fresh = ContentLoader(project.content).load(Report())
    assert updated.papers == fresh.papers and updated.venues == fresh.venues
    for tag in fresh.taxonomy.tags:
        assert updated.papers_with_tag(tag) == fresh.papers_with_tag(tag), tag
    for theme in fresh.taxonomy.themes:
        assert updated.papers_in_theme(theme) == fresh.papers_in_theme(theme), theme
    assert updated.author_buckets() == fresh.author_buckets()
    assert updated.by_slug == fresh.by_slug


def test_drafts_come_and_go_as_changes_where_drafts_are_hidden(small_site):
    loader = ContentLoader(small_site.content)
    first = loader.load(Report(), drafts=False)
    small_site.write("content/papers/icv.md", paper("icv", "In-context Vectors", "ICML 2024",
                                                    "[in-context-learning, kv-cache]", extra="draft: true\n"))
    second = loader.load(Report(), drafts=False, papers=[small_site.content / "papers/icv.md"], rescan=False)
    [change] = second.changes_since(first.revision).papers
    assert change.new is None and change.old.slug == "icv"  # a draft is no paper of a published build
    assert "icv" not in second.by_slug and "icv" in first.by_slug
