"""Incremental rebuilds give the bytes of a clean build, and rewrite only what an edit touches."""

import os
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import paper
from helpers import built, differences, rebuild, tree

from catalogue.changeset import ChangeSet
from catalogue.report import ContentError, Report


def clean_build(project, config, folder: Path) -> dict[str, bytes]:
    built(replace(config, out_dir=folder))
    return tree(folder)


@pytest.fixture
def live(small_site, tmp_path):
    """A builder kept across edits, as watch mode keeps it, and a way to compare with a clean build."""
    templates = tmp_path / "templates"
    import shutil

    from catalogue.config import PROJECT_ROOT
    shutil.copytree(PROJECT_ROOT / "templates", templates)
    shutil.copytree(PROJECT_ROOT / "static", tmp_path / "static")
    config = small_site.config(search=False, drafts=True, templates_dir=templates,
                               static_dir=tmp_path / "static", out_dir=tmp_path / "live")
    builder = built(config)
    counter = iter(range(1000))

    def rebuild_and_compare(*changed: Path):
        result = rebuild(builder, *changed)
        clean = clean_build(small_site, config, tmp_path / f"clean{next(counter)}")
        assert not (different := differences(clean, tree(config.out_dir), ("clean", "incremental"))), different
        return result

    rebuild_and_compare.builder = builder
    return small_site, tmp_path, rebuild_and_compare


def test_a_renderer_that_forgot_what_it_remembered_renders_the_next_edit_as_a_clean_build(live):
    project, root, rebuild = live
    renderer = rebuild.builder.renderer
    assert renderer.plain.cache_info().currsize and renderer.citations.bibtex.cache_info().currsize
    renderer.forget()  # as a one-shot build does before Pagefind runs
    assert not renderer.plain.cache_info().currsize and not renderer.citations.bibtex.cache_info().currsize
    papers = project.content / "papers"
    (papers / "icv.md").write_text(paper("icv", "Zebra Vectors", "ICML 2024", "[in-context-learning, kv-cache]"))
    rebuild(papers / "icv.md")


def test_a_series_of_edits_renames_and_deletions_equals_a_clean_build(live):
    project, root, rebuild = live
    papers = project.content / "papers"
    rebuild()
    (papers / "icv.md").write_text(paper("icv", "Zebra Vectors", "ICML 2024", "[in-context-learning, kv-cache]"))
    rebuild(papers / "icv.md")  # a title edit reorders the venue: neighbours change
    (papers / "rocketkv.md").write_text(paper("rocketkv", "RocketKV", tags="[sparse-attention]"))
    rebuild(papers / "rocketkv.md")  # a retag: counts change on every page, a tag page loses it
    (papers / "samba.md").write_text((papers / "samba.md").read_text().replace("ICLR 2025", "ICML 2024"))
    rebuild(papers / "samba.md")  # a venue change empties ICLR 2025: its page disappears
    (papers / "rocketkv.md").rename(papers / "rocket.md")
    (papers / "rocket.md").write_text(paper("rocket", "RocketKV", tags="[sparse-attention]",
                                            extra="aliases: [rocketkv]\n"))
    rebuild(papers / "rocketkv.md", papers / "rocket.md")  # a rename: a redirect replaces the old page
    (papers / "rocket.md").write_text(paper("rocket", "RocketKV", "ICLR 2025", tags="[sparse-attention]",
                                            extra="aliases: [rocketkv]\n"))
    rebuild(papers / "rocket.md")  # its redirect page moves to another venue's group and stays
    (papers / "icv.md").unlink()
    rebuild(papers / "icv.md")
    (papers / "new.md").write_text(paper("new", "A New Paper", "NeurIPS 2023", extra="draft: true\n"))
    rebuild(papers / "new.md")
    (papers / "new.md").write_text(paper("new", "A New Paper", "NeurIPS 2023"))
    rebuild()  # the same without hints: every file is looked at
    taxonomy = project.content / "taxonomy.yaml"
    taxonomy.write_text(taxonomy.read_text().replace("label: KV cache", "label: Key-value cache"))
    rebuild()
    (root / "templates/paper.html").write_text((root / "templates/paper.html").read_text()
                                                .replace("<h2 id=\"abstract\">Abstract</h2>", "<h2 id=\"abstract\">Summary</h2>"))
    rebuild()
    (root / "static/extra.css").write_text("p { color: red }")
    rebuild()
    (root / "static/extra.css").unlink()
    rebuild()
    (root / "static/icons").write_text("a file")
    rebuild()
    (root / "static/icons").unlink()
    (root / "static/icons").mkdir()
    (root / "static/icons/x.svg").write_text("<svg/>")
    rebuild()  # a file became a folder


@pytest.mark.parametrize("hinted", [False, True])
@pytest.mark.parametrize("broken, message", [
    ("---\ntitle: [broken\n---\n", "samba.md:2: invalid YAML"),
    (None, "samba.md:6: unknown tag `state-space-modls`"),
])
def test_a_failed_rebuild_changes_nothing_and_a_fix_recovers(live, hinted, broken, message):
    project, root, rebuild = live
    out = root / "live"
    path = project.content / "papers/samba.md"
    hints = (path,) if hinted else ()
    before = tree(out, mtimes=True)
    good = path.read_text()
    path.write_text(broken or good.replace("[state-space-models,", "[state-space-modls,"))
    with pytest.raises(ContentError) as error:
        rebuild(*hints)
    assert message in str(error.value)
    assert tree(out, mtimes=True) == before
    path.write_text(good.replace("Samba: Simple", "Samba: Simpler"))
    rebuild(*hints)  # compares with a clean build: the paper is there exactly once
    assert "Samba: Simpler" in (out / "papers/samba/index.html").read_text()


def test_a_broken_template_names_its_line_then_recovers(live):
    project, root, rebuild = live
    template = root / "templates/tag.html"
    good = template.read_text()
    broken = good.replace("{% endblock %}", "{% endblok %}", 1)
    template.write_text(broken)
    with pytest.raises(ContentError) as error:
        rebuild()
    line = broken[:broken.index("{% endblok %}")].count("\n") + 1
    assert str(error.value).startswith(f"{template}:{line}: template syntax error"), str(error.value)
    template.write_text(good.replace("<h1>", "<h1>{{ no_such_thing.x }}", 1))
    with pytest.raises(ContentError) as error:
        rebuild()
    line = good[:good.index("<h1>")].count("\n") + 1
    assert str(error.value).startswith(f"{template}:{line}: template failed on /tags/"), str(error.value)
    assert "UndefinedError" in str(error.value)
    template.write_text(good)
    rebuild()


def test_an_abstract_edit_rewrites_that_paper_and_the_lists_it_is_on(live):
    project, root, rebuild = live
    samba = project.content / "papers/samba.md"
    samba.write_text(samba.read_text().replace("We present", "We now present"))
    result = rebuild()
    assert "papers/samba/index.html" in result.written
    assert not [f for f in result.written if f.startswith("papers/") and "samba" not in f
                and not f.startswith("papers/index")]
    assert "tags/kv-cache/index.html" not in result.written  # samba is not tagged kv-cache
    assert {"index.html", "tags/sparse-attention/index.html"} <= set(result.written)  # lists show its abstract


def test_nothing_changed_writes_nothing(live):
    _, _, rebuild = live
    assert rebuild().written == []


def test_a_retitled_paper_is_retitled_in_the_related_lists_that_show_it(live):
    project, root, rebuild = live
    rocketkv = project.content / "papers/rocketkv.md"
    before = (root / "live/papers/icv/index.html").read_text()
    assert "RocketKV: Two-Stage KV Cache Compression</a>" in before.split('id="related"')[1]
    rocketkv.write_text(rocketkv.read_text().replace("Two-Stage", "Three-Stage"))
    result = rebuild(rocketkv)  # with the path, as watch mode passes it: the incremental way
    assert "RocketKV: Three-Stage KV Cache Compression</a>" in (root / "live/papers/icv/index.html").read_text()
    assert {"papers/icv/index.html", "papers/samba/index.html", "map/index.html"} <= set(result.written)


def test_an_edit_to_the_venues_file_rewrites_what_shows_the_venue(live):
    """A venue's full name is on its page and in every citation of its papers."""
    project, root, rebuild = live
    venues = project.content / "venues.yaml"
    venues.write_text(venues.read_text().replace("title: International Conference on Learning Representations",
                                                 "title: The Thirteenth International Conference on Learning Representations"))
    result = rebuild(venues)
    assert {"venues/iclr-2025/index.html", "papers/samba/index.html", "papers/samba/cite.bib"} <= set(result.written)
    assert "The Thirteenth International" in (root / "live/papers/samba/cite.bib").read_text()


def test_withdrawing_a_paper_and_restoring_it_equals_a_clean_build(live):
    """Its page stays (now saying so), every list, related list and count lets it go, and the
    venue it was alone in disappears; restored, everything comes back."""
    project, root, rebuild = live
    samba = project.content / "papers/samba.md"
    good = samba.read_text()
    samba.write_text(good.replace("tags:", "withdrawn: 2025-02-10\ntags:"))
    result = rebuild(samba)  # the only paper of ICLR 2025: its venue page goes
    page = (root / "live/papers/samba/index.html").read_text()
    assert "<strong>Withdrawn</strong> on 10 February 2025." in page and "data-pagefind-body" not in page
    assert not (root / "live/venues/iclr-2025").exists() and "papers/icv/index.html" in result.written
    assert "samba" not in (root / "live/papers/icv/index.html").read_text()  # no longer related
    samba.write_text(good.replace("tags:", "withdrawn: 2025-02-10\nwithdrawn_reason: An error in Table 2.\ntags:"))
    result = rebuild(samba)  # only its own pages change
    assert "papers/samba/index.html" in result.written and "index.html" not in result.written
    assert "</strong> on 10 February 2025: An error in Table 2.</p>" in (root / "live/papers/samba/index.html").read_text()
    samba.write_text(good)
    rebuild(samba)
    assert "data-pagefind-body" in (root / "live/papers/samba/index.html").read_text()


# One edit of each kind of change a change set names, saved as editors save (a new file renamed
# over the old), and rebuilt with its path as watch mode passes it: (file, old text, new text).
KINDS = {
    "papers": ("content/papers/icv.md", "In-context Vectors", "In-context Vectors, Revisited"),
    "vocabulary": ("content/taxonomy.yaml", "label: Sparse attention", "label: Sparse and local attention"),
    "site: venues": ("content/venues.yaml", "title: International Conference on Learning",
                     "title: The International Conference on Learning"),
    "site: authors": ("content/authors.yaml", None, "authors:\n  - [Ada King Lovelace, Ada Lovelace]\n"),
    "site: redirects": ("content/redirects.txt", None, "/papers/rocket-kv/ /papers/rocketkv/\n"),
    "templates": ("templates/theme.html", "</h1>", "</h1>\n<p>Edited.</p>"),
    "static": ("static/style.css", "}", "}\n.edited { color: inherit; }", ),  # a rule: comments are not served
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_of_change_as_watch_mode_names_it_gives_a_clean_builds_bytes(live, kind):
    project, root, rebuild = live
    name, old, new = KINDS[kind]
    path = (root if name.startswith(("templates", "static")) else project.root) / name
    text = new if old is None else path.read_text(encoding="utf-8").replace(old, new, 1)
    assert old is None or old in path.read_text(encoding="utf-8")
    saving = path.with_name(f".{path.name}.swp")
    saving.write_text(text, encoding="utf-8")
    os.replace(saving, path)
    result = rebuild(path)  # compared with a clean build
    assert result.written, kind


def test_a_page_asked_for_before_it_is_rewritten_is_rewritten_at_once(live):
    """Watch mode writes the pages open in a browser and the edited paper's own first; a page a
    reader asks for before the rest is written is rewritten on the spot, and not again."""
    project, root, rebuild = live
    builder = rebuild.builder
    rocketkv = project.content / "papers/rocketkv.md"
    rocketkv.write_text(rocketkv.read_text().replace("Two-Stage", "Three-Stage"))
    asked, seen, on_request = "tags/kv-cache/index.html", [], []
    render, renders = builder.renderer.render, []
    builder.renderer.render = lambda page: renders.append(page.file) or render(page)

    def between_groups() -> bool:  # asked while planning, then between groups
        if not on_request and asked in builder.writer.waiting:
            assert "Three-Stage" not in (root / "live" / asked).read_text()
            on_request.append(builder.writer.write_now(asked))  # as a request's thread asks
            assert "Three-Stage" in (root / "live" / asked).read_text()
        return False
    result = builder.build(ChangeSet.of_paths([rocketkv], builder.config), Report(), first=["papers/index.html"],
                           shown_first=seen.extend, stop=between_groups)
    assert seen == result.first and {"papers/rocketkv/index.html", "papers/index.html"} <= set(seen)
    assert "papers/rocketkv/social.png" in result.written and "papers/rocketkv/social.png" not in seen  # with the rest
    assert on_request == [True] and asked in result.written and renders.count(asked) == 1  # once, on request
    rebuild()  # compared with a clean build


def test_a_page_that_fails_to_render_leaves_no_page_waiting_to_be_written_on_request(live):
    """The rest of a failed rebuild's pages are of a plan that failed: a reader's request
    must not write one later, from a state the next rebuild is changing."""
    project, root, rebuild = live
    builder = rebuild.builder
    template = root / "templates/paper.html"
    good = template.read_text()
    template.write_text(good.replace("{% block content %}",
                                     '{% block content %}{% if paper.slug == "rocketkv" %}{{ paper.title / 0 }}{% endif %}', 1))
    with pytest.raises(ContentError) as failed:
        builder.build(ChangeSet.of_paths([template], builder.config), Report())
    assert "paper.html:" in str(failed.value) and "papers/rocketkv/" in str(failed.value)
    assert builder.writer.waiting == set()
    assert not builder.writer.write_now("papers/samba/index.html", wait=0)
    template.write_text(good)
    rebuild(template)  # and the next rebuild gives a clean build's bytes


def test_an_edit_undone_while_its_rebuild_was_cut_short_shows_the_page_as_it_was(live):
    """Watch mode wrote an edited paper's page first, then a newer save stopped the rest (the
    group only part-written); the next save puts the paper back as it was before the edit."""
    project, root, rebuild = live
    builder = rebuild.builder
    samba = project.content / "papers/samba.md"
    good = samba.read_text()
    samba.write_text(good.replace("Samba: Simple Hybrid", "Samba: Simply Hybrid"))
    seen = []
    result = builder.build(ChangeSet.of_paths([samba], builder.config), Report(), first=["papers/samba/index.html"],
                           shown_first=seen.extend, stop=lambda: True)
    assert result.plan is None and "papers/samba/index.html" in seen  # the page alone, then stopped
    assert "Simply Hybrid" in (root / "live/papers/samba/index.html").read_text()
    samba.write_text(good)
    rebuild(samba)  # compared with a clean build
    assert "Simply Hybrid" not in (root / "live/papers/samba/index.html").read_text()


def test_links_into_pages_made_but_not_yet_written_are_not_broken(live):
    """Watch mode checks the links of the pages it writes first before the rest is written, and
    a newer save may stop the rest before it is: a link into what this build made and writes
    next (a new paper's author page, its citation files) is not broken."""
    project, root, rebuild = live
    builder = rebuild.builder
    fresh = project.write("content/papers/fresh.md", paper("fresh", "A Fresh Paper", extra="authors: [Zed Newcomer]\n"))
    seen, broken_first = [], []

    def shown_first(written: list[str]) -> None:
        seen.extend(written)
        broken_first.extend(builder.broken(builder.links(written), root / "live"))
    result = builder.build(ChangeSet.of_paths([fresh], builder.config), Report(), shown_first=shown_first,
                           stop=lambda: bool(builder.writer.waiting))  # planned, then stopped before writing
    assert "papers/fresh/index.html" in seen and "authors/zed-newcomer/index.html" not in seen
    assert result.plan is not None and "papers/fresh/cite.bib" not in result.written
    assert broken_first == [] and builder.broken(builder.links(), root / "live") == []
    assert result.added  # every link is checked again once the files are written, or not made after all
    rebuild(fresh)  # the next build writes the rest: a clean build's bytes


def test_a_broken_link_on_a_page_written_first_is_reported_once_the_rest_is_planned(live):
    """A new paper's page comes first, and is checked before its rest is planned, with its
    author pages not yet made: a link that leads nowhere is still broken after the rest."""
    project, root, rebuild = live
    builder = rebuild.builder
    fresh = project.write("content/papers/fresh.md", paper(
        "fresh", "A Fresh Paper", extra="authors: [Zed Newcomer]\n", body="See [RocketKV](/papers/rocketvk/)."))
    first: list[str] = []
    builder.build(ChangeSet.of_paths([fresh], builder.config), Report(), shown_first=first.extend)
    assert "papers/fresh/index.html" in first
    assert [str(d) for _, d in builder.broken(builder.links(first), root / "live")] == [
        f"{fresh}:10: the link /papers/rocketvk/ leads to no page — fix the link in the abstract"]
