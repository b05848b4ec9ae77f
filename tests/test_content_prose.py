"""The curator's own words: hand-written pages (`content/pages/*.md`) and introductions to theme,
tag and venue pages (`content/intros/<kind>/<id>.md`), built, checked at their line, and rebuilt
as a clean build makes them after each edit, as watch mode rebuilds them."""

from __future__ import annotations

import pytest
from test_builder_incremental import live  # noqa: F401 -- a builder kept across edits, compared with clean builds

from catalogue.content.loader import load_catalogue
from catalogue.pipeline import build_site
from catalogue.report import ContentError, Report

GUIDE = "---\ntitle: How to read this catalogue\ndescription: Where to start, by question.\n---\n\n" \
        "Start with the **themes**: each answers one question, in $n$ papers.\n"


def test_a_page_and_introductions_are_built_listed_and_in_the_sitemap(small_site):
    small_site.write("content/pages/reading-guide.md", GUIDE)
    small_site.write("content/intros/tags/kv-cache.md", "Caches that keep *memory* bounded.\n")
    small_site.write("content/intros/venues/icml-2024.md", "The year the caches shrank.\n")
    build_site(small_site.config(search=False, social_images=False), Report())
    site = small_site.site
    guide = (site / "pages/reading-guide/index.html").read_text()
    assert "<h1>How to read this catalogue</h1>" in guide and "<strong>themes</strong>" in guide and "<math" in guide
    assert '<meta name="description" content="Where to start, by question.">' in guide
    assert '<a href="/pages/reading-guide/" aria-current="page">How to read this catalogue</a>' in guide
    assert '<a href="/pages/reading-guide/">How to read this catalogue</a>' in (site / "index.html").read_text()
    assert "/pages/reading-guide/</loc>" in (site / "sitemap.xml").read_text()
    assert '<div class="intro"><p>Caches that keep <em>memory</em> bounded.</p></div>' in \
        (site / "tags/kv-cache/index.html").read_text()
    assert '<div class="intro"><p>The year the caches shrank.</p></div>' in (site / "venues/icml-2024/index.html").read_text()
    assert 'class="intro"' not in (site / "tags/sparse-attention/index.html").read_text()


@pytest.mark.parametrize("name, text, expected", [
    ("pages/guide.md", "---\ntitel: Guide\n---\n\nText.\n",
     ["pages/guide.md:2: unknown key `titel` — did you mean `title`?",
      "pages/guide.md:1: `title` is missing — add a `title:` line to the front matter"]),
    ("pages/Guide_1.md", "---\ntitle: Guide\n---\n\nText.\n",
     ["pages/Guide_1.md:1: slug 'Guide_1' is not a valid URL part — name the file (or write `slug:`) in lower-case "
      "ASCII letters, digits and single hyphens"]),
    ("pages/guide.md", "---\ntitle: Guide\n---\n\nSome\u202etext.\n",
     ["pages/guide.md:5: the page holds U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control, which reorders "
      "what readers see — delete it: it comes after “Some”"]),
    ("intros/tags/kv-cahce.md", "Caches.\n", ["intros/tags/kv-cahce.md:1: no tag `kv-cahce` to introduce — rename "
                                              "the file to kv-cache.md"]),
    ("intros/kv-cache.md", "Caches.\n", ["intros/kv-cache.md:1: an introduction belongs in intros/themes/, "
                                         "intros/tags/ or intros/venues/ — move it into the folder of what it "
                                         "introduces, named after its id"]),
    ("intros/themes/efficient-inference.md", "\n\n", ["intros/themes/efficient-inference.md:1: the introduction is "
                                                      "empty — write it in Markdown, or delete the file"]),
])
def test_each_problem_in_a_page_or_an_introduction_is_named_at_its_line(small_site, name, text, expected):
    small_site.write(f"content/{name}", text)
    with pytest.raises(ContentError) as error:
        load_catalogue(small_site.content, Report())
    assert [str(d).replace(f"{small_site.content}/", "") for d in error.value.diagnostics] == expected


def test_two_pages_with_one_slug_blame_the_second(small_site):
    small_site.write("content/pages/guide.md", GUIDE)
    small_site.write("content/pages/other.md", GUIDE.replace("---\n\n", "slug: guide\n---\n\n", 1))
    with pytest.raises(ContentError) as error:
        load_catalogue(small_site.content, Report())
    assert [str(d).replace(f"{small_site.content}/", "") for d in error.value.diagnostics] == [
        "pages/other.md:1: guide.md has the slug `guide` already — give this page another file name (or `slug:`)"]


def test_edits_to_pages_and_introductions_rebuild_as_a_clean_build(live):  # noqa: F811
    project, root, rebuild = live
    pages, intros = project.content / "pages", project.content / "intros"
    guide = project.write("content/pages/reading-guide.md", GUIDE)
    rebuild(guide)  # a new page: in every page's navigation
    guide.write_text(GUIDE.replace("Start with", "Begin with"))
    rebuild(guide)  # its words only: that page alone
    intro = project.write("content/intros/themes/efficient-inference.md", "Doing more with less memory.\n")
    rebuild(intro)
    intro.write_text("Doing more with less time.\n")
    rebuild(intro)
    intro.unlink()
    guide.unlink()
    rebuild(intro, guide)  # both gone: the page, its place in the navigation and the introduction
    assert not (root / "live/pages/reading-guide").exists() and pages.is_dir() and intros.is_dir()


def test_a_pages_own_notes_heading_is_its_text_and_stray_files_are_named(small_site):
    small_site.write("content/pages/guide.md", GUIDE + "\n## Notes\n\nStill the page.\n")
    small_site.write("content/pages/old/draft.md", GUIDE)
    small_site.write("content/pages/guide.txt", "Not a page.\n")
    with pytest.raises(ContentError) as error:
        load_catalogue(small_site.content, Report())
    assert [str(d).replace(f"{small_site.content}/", "") for d in error.value.diagnostics] == [
        "pages/guide.txt: not read: only `.md` files are read here — rename it to `guide.md`, or move it out of pages/",
        "pages/old/draft.md: not read: a page in a folder inside pages/ — move it up into pages/"]
    (small_site.content / "pages/guide.txt").unlink()
    (small_site.content / "pages/old/draft.md").unlink()
    page = load_catalogue(small_site.content, Report()).prose.guides[0]
    assert page.body.text.endswith("## Notes\n\nStill the page.")


def test_a_broken_link_in_a_papers_notes_is_named_at_its_line(small_site):
    samba = small_site.content / "papers/samba.md"
    text = samba.read_text()
    samba.write_text(text + "\n## Notes\n\nRead it with [the other one](/papers/nowhere/).\n")
    line = text.count("\n") + 4
    with pytest.raises(ContentError) as error:
        build_site(small_site.config(search=False, social_images=False), Report())
    assert [str(d).replace(f"{small_site.content}/", "") for d in error.value.diagnostics] == [
        f"papers/samba.md:{line}: the link /papers/nowhere/ leads to no page — fix the link in the notes"]


def test_a_formula_that_cannot_be_typeset_in_a_guide_or_an_introduction_is_a_warning_at_its_line(small_site):
    small_site.write("content/pages/guide.md", GUIDE + "\nA broken $\\frac{a$ formula.\n")
    small_site.write("content/intros/tags/kv-cache.md", "\nCaches.\n\nAnd $\\sqrt{$ too.\n")
    report = Report()
    build_site(small_site.config(search=False, social_images=False), report)
    assert sorted(str(w).replace(f"{small_site.content}/", "") for w in report.warnings
                  if "formula" in w.message) == [
        "intros/tags/kv-cache.md:4: warning: formula shown as TeX code: \\sqrt{ — fix the LaTeX",
        "pages/guide.md:8: warning: formula shown as TeX code: \\frac{a — fix the LaTeX"]


def test_what_a_page_leaves_out_of_the_curators_markdown_is_a_warning_at_its_line(small_site):
    """A `# heading`, an image or raw HTML in a guide, an introduction or a paper's notes is left
    out of the page (the sanitiser's allowlist), and said so at its line with what to write
    instead; the same in an abstract stays quiet (it is the paper's own text, as imported)."""
    small_site.write("content/pages/guide.md", GUIDE + "\n# A second title\n\n![The map](map.png)\n")
    small_site.write("content/intros/tags/kv-cache.md", "\nCaches.\n\n<table><tr><td>1</td></tr></table>\n")
    samba = small_site.content / "papers/samba.md"
    text = samba.read_text()
    samba.write_text(text.replace("\n---\n", "\n---\n\n# An abstract heading\n", 1).rstrip("\n")
                     + "\n\n## Notes\n\nFine.\n\n###### Too deep\n")
    notes_line = samba.read_text().splitlines().index("###### Too deep") + 1
    report = Report()
    build_site(small_site.config(search=False, social_images=False), report)
    warned = [str(w).replace(f"{small_site.content}/", "") for w in report.warnings if "left out" in w.message]
    assert sorted(warned) == sorted([
        "intros/tags/kv-cache.md:4: warning: `<table>` is left out of the page — this HTML is not shown: write it in "
        "Markdown (paragraphs, lists, links, emphasis, code, quotes, headings)",
        "pages/guide.md:8: warning: `<h1>` is left out of the page — the page's title is its only top heading: "
        "start this one with `##`",
        "pages/guide.md:10: warning: `<img>` is left out of the page — images are not shown: link to it instead, "
        "`[what it shows](https://…)`",
        f"papers/samba.md:{notes_line}: warning: `<h6>` is left out of the page — headings go three levels deep: "
        "use `##`, `###` or `####`"])
    guide = (small_site.site / "pages/guide/index.html").read_text(encoding="utf-8")
    assert "A second title" in guide and "<h1>A second title" not in guide and "<img" not in guide
