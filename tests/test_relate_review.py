"""The review list (`build.py review`, `check --format json`, watch mode's /_review/ page) and
`check --format github`, on toy sites; the frozen catalogue's are in test_cli_frozen_catalogue and test_catalogue_live."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import Scratch, paper
from helpers import FROZEN, build_py, built, rebuild

from catalogue.check import github_annotation
from catalogue.content.loader import load_catalogue
from catalogue.pipeline import build_site
from catalogue.relate.review import Costly, author_variants, costly_parts, review_items
from catalogue.report import Diagnostic, Report


def _authors(scratch: Scratch, *names_per_paper: str) -> None:
    for number, names in enumerate(names_per_paper):
        scratch.write(f"content/papers/p{number}.md", paper(
            f"p{number}", f"Paper {number}", extra=f"authors: [{names}]\n",
            body=f"Paper {number} compresses the KV cache with sparse attention, in its own way {number}."))


def test_a_derived_title_is_listed_with_the_opening_of_its_abstract(small_site: Scratch):
    path = small_site.content / "papers" / "rocketkv.md"
    path.write_text(path.read_text().replace("title_source: curated", "title_source: derived"))
    items = review_items(load_catalogue(small_site.content, Report()).papers, small_site.content, Costly((), ()))
    assert [(item.kind, item.path, item.line, item.slug) for item in items] == [("title", path, 2, "rocketkv")]
    assert items[0].message == "“RocketKV: Two-Stage KV Cache Compression”"
    assert items[0].detail == "We compress the KV cache with sparse attention."


def test_names_that_could_be_one_person_are_listed_once_with_the_fix(scratch: Scratch):
    _authors(scratch, "Marcos V. Treviso, Wei Zhang", "Marcos Treviso, Wen Zhang", "Marcos Treviso, J. Smith",
             "John Smith")
    found = author_variants(load_catalogue(scratch.content, Report()).papers, scratch.content)
    assert [item.message for item in found] == [
        "`J. Smith` (1 paper) and `John Smith` (1 paper) may be one person",
        "`Marcos V. Treviso` (1 paper) and `Marcos Treviso` (2 papers) may be one person"]
    assert found[1].hint.startswith("if they are, add `- [Marcos Treviso, Marcos V. Treviso]` to content/authors.yaml")
    assert found[1].slug == "p0" and found[1].detail == "`Marcos V. Treviso` in p0.md, line 7"


def test_names_the_authors_file_joins_are_not_listed(scratch: Scratch):
    _authors(scratch, "Marcos V. Treviso", "Marcos Treviso")
    scratch.write("content/authors.yaml", "authors:\n  - [Marcos Treviso, Marcos V. Treviso]\n")
    assert author_variants(load_catalogue(scratch.content, Report()).papers, scratch.content) == []


def test_build_py_review_prints_the_list_grouped_and_as_json(code: Path, small_site: Scratch):
    path = small_site.content / "papers" / "icv.md"
    path.write_text(path.read_text().replace("title_source: curated", "title_source: derived"))
    done = build_py(code, "review", "--content", str(small_site.content), cwd=small_site.root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:3] == [
        "Titles still derived from the abstract (1)",
        "  content/papers/icv.md:2: “In-context Vectors” — read the paper's real title, write it as `title:`, "
        "then set `title_source: curated`",
        "      In-context learning with vectors, shifting latent states by $\\alpha$."]
    assert re.search(r"\n\d+ items? to review in 3 papers\.\n$", done.stdout), done.stdout
    as_json = json.loads(build_py(code, "review", "--format", "json", "--content", str(small_site.content)).stdout)
    assert [(item["kind"], item["slug"], item["line"]) for item in as_json["review"] if item["kind"] == "title"] == [
        ("title", "icv", 2)]


def test_review_of_broken_content_names_the_error_and_fails(code: Path, small_site: Scratch):
    small_site.write("content/papers/bad.md", paper("bad", "Bad", tags="[no-such-tag]"))
    done = build_py(code, "review", "--content", str(small_site.content), cwd=small_site.root)
    assert done.returncode == 1 and done.stdout == ""
    assert "content/papers/bad.md:6: unknown tag `no-such-tag`" in done.stderr


def test_check_as_github_annotations_names_file_and_line(code: Path, small_site: Scratch):
    small_site.write("content/papers/bad.md", paper("bad", "Bad", tags="[no-such-tag]"))
    done = build_py(code, "check", "--quiet", "--format", "github", "--content", str(small_site.content),
                    cwd=small_site.root)
    assert done.returncode == 1
    errors = [line for line in done.stdout.splitlines() if line.startswith("::error ")]
    assert errors and errors[0].startswith("::error file=content/papers/bad.md,line=6::unknown tag `no-such-tag`")
    assert "1 error" in done.stderr  # the summary is still printed, for the log


def test_github_annotations_escape_what_would_end_a_command():
    line = github_annotation(Diagnostic(Path("a,b:c.md"), 2, "50% off\nnext", "fix, now", "warning"))
    assert line == "::warning file=a%2Cb%3Ac.md,line=2::50%25 off%0Anext — fix, now"
    assert github_annotation(Diagnostic("x.md", 0, "m", "", "note")) == "::notice file=x.md::m"


def test_check_as_json_carries_the_review_list(code: Path, small_site: Scratch):
    path = small_site.content / "papers" / "samba.md"
    path.write_text(path.read_text().replace("title_source: curated", "title_source: derived"))
    done = build_py(code, "check", "--format", "json", "--content", str(small_site.content), cwd=small_site.root)
    found = json.loads(done.stdout)
    assert [(item["kind"], item["path"], item["slug"]) for item in found["review"] if item["kind"] == "title"] == [
        ("title", "content/papers/samba.md", "samba")]  # from the working folder, as the diagnostics'
    assert {d["path"] for d in found["diagnostics"]} <= {"content/papers/samba.md", "content/papers/icv.md",
                                                        "content/papers/rocketkv.md", "content/taxonomy.yaml"}


def test_the_review_page_is_made_while_curating_only(small_site: Scratch):
    path = small_site.content / "papers" / "samba.md"
    path.write_text(path.read_text().replace("title_source: curated", "title_source: derived"))
    build_site(small_site.config(search=False, social_images=False), Report())
    assert not (small_site.site / "_review").exists()
    watch = small_site.config(out_dir=small_site.root / "preview", drafts=True, site_files=False, search=False,
                              social_images=False)
    build_site(watch, Report())
    page = (small_site.root / "preview" / "_review" / "index.html").read_text()
    assert '<a href="/papers/samba/">“Samba: Simple Hybrid State Space Models”</a>' in page
    assert "Edit <code>content/papers/samba.md:2</code>: read the paper&#39;s real title" in page
    assert '<a href="/_review/">To review</a>' in page


def test_the_frozen_catalogue_has_tags_to_confirm_and_the_theorem_proving_paper_is_one(code: Path):
    """The catalogue is only read. miniCTX, the issue's example of a paper phrases tag badly, is there."""
    done = build_py(code, "review", "--content", "content", cwd=FROZEN)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Tags to confirm (")
    minictx = next(line for line in lines if line.startswith("  content/papers/minictx.md:"))
    assert "tags to check: has `science-applications`" in minictx
    assert lines[-1].endswith("to review in 95 papers.")


def test_two_files_of_one_paper_are_listed_with_the_merge_that_joins_them(small_site: Scratch):
    small_site.write("content/papers/samba-again.md", paper(  # a derived title: samba is the one to keep
        "samba-again", "Samba again", "ICLR 2025", "[state-space-models]", "A second file for the same paper.",
        "arxiv: \"2406.07522v2\"\n").replace("title_source: curated", "title_source: derived"))
    catalogue = load_catalogue(small_site.content, Report())
    items = [item for item in review_items(catalogue.papers, small_site.content,
                                           costly_parts(catalogue.papers, catalogue.taxonomy))
             if item.kind == "duplicate"]
    assert [(item.slug, item.line) for item in items] == [("samba-again", 7)]
    assert items[0].hint.endswith("python build.py merge samba samba-again")


def test_the_review_page_follows_each_rebuild_in_place(small_site: Scratch):
    """As watch mode rebuilds: a title made derived is listed at once; curated again, it is gone;
    an abstract edit of another paper leaves the page alone."""
    config = small_site.config(out_dir=small_site.root / "preview", drafts=True, site_files=False, search=False,
                               social_images=False)
    builder, page = built(config), small_site.root / "preview" / "_review" / "index.html"
    assert "Titles still derived" not in page.read_text()
    samba = small_site.content / "papers" / "samba.md"
    curated = samba.read_text()
    samba.write_text(curated.replace("title_source: curated", "title_source: derived"))
    assert "_review/index.html" in rebuild(builder, samba).written
    assert '<a href="/papers/samba/">“Samba: Simple Hybrid State Space Models”</a>' in page.read_text()
    rocket = small_site.content / "papers" / "rocketkv.md"
    rocket.write_text(rocket.read_text().replace("We compress", "We squeeze"))
    result = rebuild(builder, rocket)
    assert "_review/index.html" not in result.written
    samba.write_text(curated)
    rebuild(builder, samba)
    assert "Titles still derived" not in page.read_text()


def test_a_paper_with_a_single_tag_or_none_it_is_sure_of_is_listed_with_what_to_consider(small_site: Scratch):
    small_site.write("content/papers/fresh.md", paper(
        "fresh", "Wing show that caches are limited", tags="[kv-cache]",
        body="We compress the KV cache with sparse attention over blocks.").replace(
        "title_source: curated", "title_source: derived"))
    catalogue = load_catalogue(small_site.content, Report())
    items = [item for item in review_items(catalogue.papers, small_site.content,
                                           costly_parts(catalogue.papers, catalogue.taxonomy))
             if item.kind == "tags" and item.slug == "fresh"]
    assert len(items) == 1 and items[0].line == 6
    assert items[0].message.startswith("tags to confirm: a single tag: `kv-cache` (0.")
    assert "(consider `sparse-attention` (0." in items[0].hint
