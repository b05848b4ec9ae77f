"""A build starts from what the last one left in .cache/ and renders only what changed, and its
output is the same bytes as a clean build's: after every kind of edit, after a template, static
file or code change, after a hand-edited output file, a damaged cache or a failed build."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest
from conftest import Scratch, paper
from helpers import differences, tree

from catalogue import state
from catalogue.output import search
from catalogue.output.search import page_words
from catalogue.pipeline import build_site
from catalogue.report import ContentError, Report
from catalogue.state import state_file

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def clean_build(project: Scratch, **config) -> dict[str, bytes]:
    """The project built from scratch into a folder of its own, as bytes by file."""
    out = project.root / "clean"
    build_site(project.config(out_dir=out, cache_dir=project.root / ".clean-cache", **config), Report(),
               cached=False)
    return tree(out)


def assert_same_as_clean(project: Scratch, **config) -> None:
    problems = differences(clean_build(project, **config), tree(project.site), ("clean", "cached"))
    assert problems == "", problems


@pytest.fixture
def built(small_site: Scratch) -> Scratch:
    """The small site built once without search, leaving its state in .cache/."""
    result = build_site(small_site.config(search=False), Report())
    assert result.rendered == result.files  # nothing to start from: everything rendered
    assert state_file(small_site.config(search=False), "build").is_file()
    return small_site


def test_a_second_build_with_nothing_changed_renders_nothing_and_keeps_every_file(built):
    before = {path: path.stat() for path in built.site.rglob("*") if path.is_file()}
    result = build_site(built.config(search=False), Report())
    assert result.rendered == 0
    assert result.files > 30
    after = {path: path.stat() for path in built.site.rglob("*") if path.is_file()}
    assert after.keys() == before.keys()
    pages = [path for path in before if path.suffix == ".html"]
    assert pages and all(after[p].st_ino == before[p].st_ino for p in pages)  # linked, not written
    assert_same_as_clean(built, search=False)


EDITS = {
    "abstract": ("content/papers/samba.md", "We present **Samba**", "We introduce **Samba**"),
    "title": ("content/papers/rocketkv.md", "RocketKV: Two-Stage", "RocketKV: A Two-Stage"),
    "tags": ("content/papers/icv.md", "[in-context-learning, kv-cache]", "[in-context-learning, sparse-attention]"),
    "venue": ("content/papers/icv.md", "venue: ICML 2024", "venue: ICML 2025"),
    "tag label": ("content/taxonomy.yaml", "label: KV cache", "label: Key-value cache"),
    "venue title": ("content/venues.yaml", "title: International Conference on Learning Representations",
                    "title: The International Conference on Learning Representations"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_after_an_edit_the_output_is_a_clean_builds(built, edit):
    file, old, new = EDITS[edit]
    path = built.root / file
    assert old in path.read_text(encoding="utf-8")
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    result = build_site(built.config(search=False), Report())
    assert 0 < result.rendered
    assert_same_as_clean(built, search=False)


def test_a_paper_withdrawn_then_restored(built):
    """Withdrawn, the paper keeps its page and leaves the lists; restored, it is back in them."""
    path = built.content / "papers/rocketkv.md"
    good = path.read_text(encoding="utf-8")
    path.write_text(good.replace("tags:", "withdrawn: 2025-02-10\ntags:"), encoding="utf-8")
    assert build_site(built.config(search=False), Report()).papers == 2
    assert "Withdrawn" in (built.site / "papers/rocketkv/index.html").read_text(encoding="utf-8")
    assert "rocketkv" not in (built.site / "feed.xml").read_text(encoding="utf-8")
    assert_same_as_clean(built, search=False)
    path.write_text(good, encoding="utf-8")
    assert build_site(built.config(search=False), Report()).papers == 3
    assert "rocketkv" in (built.site / "feed.xml").read_text(encoding="utf-8")
    assert_same_as_clean(built, search=False)


def test_a_paper_added_and_one_removed(built):
    (built.content / "papers/rocketkv.md").unlink()
    built.write("content/papers/longrope.md", paper("longrope", "LongRoPE: Extending Context", "ICLR 2025",
                                                    body="We extend RoPE with the KV cache in mind."))
    build_site(built.config(search=False), Report())
    assert not (built.site / "papers/rocketkv/index.html").exists()
    assert (built.site / "papers/longrope/index.html").is_file()
    assert_same_as_clean(built, search=False)


def test_a_template_change_renders_the_pages_that_use_it_again(built, tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    for source in TEMPLATES.iterdir():
        (templates / source.name).write_bytes(source.read_bytes())
    first = build_site(built.config(search=False, templates_dir=templates), Report())
    paper_template = templates / "paper.html"
    paper_template.write_text(paper_template.read_text(encoding="utf-8").replace(
        "{% block content %}", "{% block content %}<!-- changed -->", 1), encoding="utf-8")
    result = build_site(built.config(search=False, templates_dir=templates), Report())
    assert 0 < result.rendered < first.files  # the paper pages, not the lists
    assert b"<!-- changed -->" in (built.site / "papers/samba/index.html").read_bytes()
    assert b"<!-- changed -->" not in (built.site / "index.html").read_bytes()
    assert_same_as_clean(built, search=False, templates_dir=templates)


def test_a_static_file_change_reaches_every_page(built, tmp_path):
    static = copy_static(tmp_path)
    build_site(built.config(search=False, static_dir=static), Report())
    rule = "\n.changed { color: inherit; }\n"  # a rule: comments are not served
    (static / "style.css").write_text((static / "style.css").read_text(encoding="utf-8") + rule, encoding="utf-8")
    build_site(built.config(search=False, static_dir=static), Report())
    assert_same_as_clean(built, search=False, static_dir=static)


def copy_static(tmp_path: Path) -> Path:
    static = tmp_path / "static"
    static.mkdir()
    for source in (TEMPLATES.parent / "static").iterdir():
        if source.is_file():
            (static / source.name).write_bytes(source.read_bytes())
    return static


def test_a_static_file_removed_fails_the_links_to_it_as_a_clean_build_does(built, tmp_path):
    """No page was rewritten, but a file went: every page's links are checked again."""
    static = copy_static(tmp_path)
    (static / "figure.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    samba = built.content / "papers/samba.md"
    samba.write_text(samba.read_text().replace("We present", "We present ([figure](/static/figure.svg))", 1))
    build_site(built.config(search=False, static_dir=static), Report())
    (static / "figure.svg").unlink()
    for cached in (True, False):
        with pytest.raises(ContentError) as error:
            build_site(built.config(search=False, static_dir=static), Report(), cached=cached)
        assert [d.path.name for d in error.value.diagnostics] == ["samba.md"]
        assert "/static/figure.svg leads to no page" in str(error.value.diagnostics[0])


def test_files_gone_from_templates_and_static_are_forgotten_and_editors_files_ignored(built, tmp_path):
    """A removed template or static file is a change once; an editor's backup is none."""
    templates, static = tmp_path / "templates", copy_static(tmp_path)
    templates.mkdir()
    for source in TEMPLATES.iterdir():
        (templates / source.name).write_bytes(source.read_bytes())
    (templates / "unused.html").write_text("<p>no page uses this</p>")
    (static / "old.txt").write_text("to be removed")
    config = built.config(search=False, templates_dir=templates, static_dir=static)
    build_site(config, Report())
    (templates / "unused.html").unlink()
    (static / "old.txt").unlink()
    build_site(config, Report())
    assert not (built.site / "static/old.txt").exists()
    (static / "style.css~").write_text("an editor's backup")
    (templates / ".paper.html.swp").write_text("an editor's swap file")
    again = build_site(config, Report())
    assert again.rendered == 0 and set(again.stages) == {"restore"}  # nothing to do: not even a load
    assert not (built.site / "static/style.css~").exists()
    assert_same_as_clean(built, search=False, templates_dir=templates, static_dir=static)


def test_the_list_of_external_links_follows_each_edit(built):
    listed = built.root / ".cache/external-links.txt"
    samba = built.content / "papers/samba.md"
    good = samba.read_text()
    samba.write_text(good.replace("We present", "We present ([a demo](https://demo.example.org/samba))", 1))
    build_site(built.config(search=False), Report())
    assert "https://demo.example.org/samba" in listed.read_text().splitlines()
    samba.write_text(good)
    build_site(built.config(search=False), Report())
    assert "https://demo.example.org/samba" not in listed.read_text()
    assert "https://github.com/example/samba" in listed.read_text().splitlines()


def test_other_code_starts_from_scratch(built, monkeypatch):
    monkeypatch.setattr(state, "code_version", lambda: "another version of the package")
    result = build_site(built.config(search=False), Report())
    assert result.rendered == result.files


def test_an_output_file_edited_by_hand_is_rendered_again(built):
    page = built.site / "papers/samba/index.html"
    page.write_bytes(page.read_bytes().replace(b"Samba", b"Tampered"))
    result = build_site(built.config(search=False), Report())
    assert result.rendered == 1
    assert b"Tampered" not in page.read_bytes()
    assert_same_as_clean(built, search=False)


def test_an_output_folder_emptied_by_hand_is_built_whole(built):
    for path in sorted(built.site.rglob("*"), reverse=True):
        if path.is_file() and path.name != ".catalogue-site":
            path.unlink()
    build_site(built.config(search=False), Report())
    assert_same_as_clean(built, search=False)


@pytest.mark.parametrize("damage", [b"", b"not a pickle", None])
def test_a_damaged_or_foreign_cache_is_a_clean_build(built, damage):
    state = state_file(built.config(search=False), "build")
    if damage is None:  # a state of other settings: never used
        state.write_bytes(pickle.dumps(b"another identity") + state.read_bytes()[len(pickle.dumps(b"x" * 16, protocol=pickle.HIGHEST_PROTOCOL)):])
    else:
        state.write_bytes(damage)
    result = build_site(built.config(search=False), Report())
    assert result.rendered == result.files
    assert_same_as_clean(built, search=False)


def test_with_nothing_changed_a_build_only_looks_and_says_the_last_warnings_again(built):
    samba = built.content / "papers/samba.md"
    samba.write_text(samba.read_text(encoding="utf-8").replace("$x_1 * y_2$", "$\\frac{x$"), encoding="utf-8")
    first = Report()
    build_site(built.config(search=False), first)
    assert [w.message for w in first.warnings] == ["formula shown as TeX code: \\frac{x"]
    again = Report()
    result = build_site(built.config(search=False), again)
    assert set(result.stages) == {"restore"} and result.rendered == 0 and result.pages == 27
    assert again.warnings == first.warnings


def test_with_nothing_changed_a_build_reads_only_the_glance_and_with_a_change_the_whole_state(built, monkeypatch):
    wholes = []
    monkeypatch.setattr(state, "_saved", lambda path, identity, whole, saved=state._saved:
                        wholes.append(whole) or saved(path, identity, whole))
    assert build_site(built.config(search=False), Report()).rendered == 0 and wholes == [False]
    built.write("content/papers/samba.md", (built.content / "papers/samba.md").read_text().replace("Samba", "Samba!"))
    result = build_site(built.config(search=False), Report())
    assert wholes == [False, False, True] and 0 < result.rendered < result.files  # from the state, not afresh
    assert_same_as_clean(built, search=False)


def test_a_file_saved_unchanged_is_read_again_and_renders_nothing(built):
    samba = built.content / "papers/samba.md"
    samba.write_bytes(samba.read_bytes())  # a new time, the same bytes
    result = build_site(built.config(search=False), Report())
    assert "load" in result.stages and result.rendered == 0


def test_a_failed_build_leaves_the_cache_to_the_next(built):
    state = state_file(built.config(search=False), "build")
    saved = state.read_bytes()
    samba = built.content / "papers/samba.md"
    good = samba.read_text(encoding="utf-8")
    samba.write_text(good.replace("tags: [state-space-models", "tags: [no-such-tag"), encoding="utf-8")
    with pytest.raises(ContentError):
        build_site(built.config(search=False), Report())
    assert state.read_bytes() == saved
    samba.write_text(good.replace("We present", "Here is"), encoding="utf-8")
    build_site(built.config(search=False), Report())
    assert_same_as_clean(built, search=False)


def test_the_search_index_is_reused_while_no_paper_page_changed(small_site):
    build_site(small_site.config(social_images=False), Report())
    index = {path: path.stat().st_ino for path in (small_site.site / "pagefind").rglob("*") if path.is_file()}
    result = build_site(small_site.config(social_images=False), Report())
    assert result.rendered == 0
    assert {p: p.stat().st_ino for p in (small_site.site / "pagefind").rglob("*") if p.is_file()} == index
    samba = small_site.content / "papers/samba.md"
    samba.write_text(samba.read_text(encoding="utf-8").replace("sliding windows", "sliding-window attention"),
                     encoding="utf-8")
    build_site(small_site.config(social_images=False), Report())
    indexed_again = {p: p.stat().st_ino for p in (small_site.site / "pagefind").rglob("*") if p.is_file()}
    assert not set(indexed_again.items()) & set(index.items())  # Pagefind ran: every file is new
    assert_same_as_clean(small_site, social_images=False)


def test_a_build_without_a_cache_folder_keeps_nothing(small_site, tmp_path):
    result = build_site(small_site.config(search=False, cache_dir=None), Report())
    again = build_site(small_site.config(search=False, cache_dir=None), Report())
    assert result.rendered == again.rendered == result.files
    assert not any(name.startswith("state-") for name in os.listdir(tmp_path))


def test_in_shards_only_the_shard_of_an_edited_paper_is_indexed_again(small_site, monkeypatch):
    monkeypatch.setattr(search, "SHARD_PAPERS", 1)  # three papers, three shards
    build_site(small_site.config(social_images=False), Report())
    index = small_site.site / "pagefind"
    assert json.loads((index / "shards.json").read_text()) == ["shards/1/", "shards/2/"]

    def inodes() -> dict[str, set[int]]:
        return {name: {p.stat().st_ino for p in (index / name / "fragment").glob("*.pf_fragment")}
                for name in (".", "shards/1", "shards/2")}
    before = inodes()
    samba = small_site.content / "papers/samba.md"  # "Samba" is the last title: the last shard
    samba.write_text(samba.read_text(encoding="utf-8").replace("example/samba", "example/samba-code"),
                     encoding="utf-8")  # only its own page shows its code link
    read = []
    monkeypatch.setattr(search, "page_words", lambda folder: read.append(folder.name) or page_words(folder))
    build_site(small_site.config(social_images=False), Report())
    after = inodes()
    assert after["."] == before["."] and after["shards/1"] == before["shards/1"]  # taken over, not run
    assert not after["shards/2"] & before["shards/2"]
    assert read == ["2"]  # the words of the shards taken over are the state's: only the new one's are read
    assert_same_as_clean(small_site, social_images=False)


def test_the_ledger_a_build_writes_does_not_count_as_a_change(small_site):
    config = small_site.config(search=False, ledger=small_site.root / "published-urls.txt")
    build_site(config, Report())
    assert (small_site.root / "published-urls.txt").is_file()
    assert set(build_site(config, Report()).stages) == {"restore"}
    with (small_site.root / "published-urls.txt").open("a", encoding="utf-8") as ledger:
        ledger.write("/papers/an-older-paper/\n")  # a curator's merge brings a published address
    with pytest.raises(ContentError):  # the build must keep it: it is checked, not skipped
        build_site(config, Report())
