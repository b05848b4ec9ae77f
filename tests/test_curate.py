"""Changing the catalogue in bulk: `tags rename|merge|split`, `merge KEEP DROP`, `retag`.

On toy sites (in-process, through the command line's `main`): every other byte of each file
kept, one step that completes or changes nothing, dry runs, each refusal's message. Then the
README's commands on a copy of this repository, run as processes, each followed by a build."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import Scratch, paper
from helpers import copy_project, run, tree

from catalogue import files
from catalogue.cli import main
from catalogue.content.loader import load_catalogue
from catalogue.content.source import fingerprint
from catalogue.pipeline import build_site
from catalogue.report import Report

LEDGER = "/tags/kv-cache/\n/tags/kv-cache/feed.xml\n"


def curate(project: Scratch, *args: str) -> int:
    """`build.py ARGS --content DIR` in this process: its exit status."""
    return main([*args, "--content", str(project.content)])


def content(project: Scratch) -> dict[str, bytes]:
    return tree(project.content)


@pytest.fixture
def site(small_site: Scratch) -> Scratch:
    """The small site with a ledger that remembers the kv-cache tag's page and feed."""
    small_site.write("published-urls.txt", LEDGER)
    return small_site


def test_rename_changes_only_the_tags_line_keeping_comments_crlf_and_bom(site, capsys):
    text = paper("rocketkv", "RocketKV", extra="# checked by hand\ncode: https://github.com/x/rocketkv\n")
    original = ("\ufeff" + text.replace("tags: [", "tags:   [", 1)).replace("\n", "\r\n").encode()
    rocket = site.content / "papers/rocketkv.md"
    rocket.write_bytes(original)
    assert curate(site, "tags", "rename", "kv-cache", "key-value-cache") == 0
    expected = original.replace(b"tags:   [kv-cache, sparse-attention]", b"tags: [key-value-cache, sparse-attention]")
    assert rocket.read_bytes() == expected
    out = capsys.readouterr().out
    assert "tags: [kv-cache, sparse-attention] → [key-value-cache, sparse-attention]" in out
    assert "Changed 4 files; the build's checks pass." in out  # the taxonomy, two papers, redirects.txt
    catalogue = load_catalogue(site.content, Report())
    assert [p.tags for p in catalogue.papers if p.slug == "icv"] == [("in-context-learning", "key-value-cache")]


def test_rename_keeps_the_taxonomys_comments_and_writes_redirects_for_the_ledgers_paths(site):
    taxonomy = site.content / "taxonomy.yaml"
    original = taxonomy.read_text().replace("  - id: kv-cache\n", "  # the cache tags\n  - id: kv-cache  # the oldest\n")
    taxonomy.write_text(original)
    assert curate(site, "tags", "rename", "kv-cache", "key-value-cache") == 0
    assert taxonomy.read_text() == original.replace("- id: kv-cache  #", "- id: key-value-cache  #").replace(
        "tags: [kv-cache, sparse-attention]", "tags: [key-value-cache, sparse-attention]")
    lines = (site.content / "redirects.txt").read_text().splitlines()
    assert lines[1:] == ["/tags/kv-cache/ /tags/key-value-cache/",
                         "/tags/kv-cache/feed.xml /tags/key-value-cache/feed.xml",
                         *(f"/tags/kv-cache/{name} /tags/key-value-cache/{name}"
                           for name in ("papers.bib", "papers.json", "papers.ris"))]
    built = build_site(site.config(search=False, social_images=False, ledger=site.root / "published-urls.txt"),
                       Report())
    assert built.papers == 3
    assert 'url=/tags/key-value-cache/"' in (site.site / "tags/kv-cache/index.html").read_text()
    assert "/tags/kv-cache/feed.xml /tags/key-value-cache/feed.xml 301" in (site.site / "_redirects").read_text()


def test_a_chain_of_renames_ends_at_a_page_and_a_rename_back_drops_the_shadowing_lines(site):
    site.write("content/redirects.txt", "/tags/old-cache/ /tags/kv-cache/\n/about-us/ /about/")
    assert curate(site, "tags", "rename", "kv-cache", "key-value-cache") == 0
    text = (site.content / "redirects.txt").read_text()
    assert text.startswith("/tags/old-cache/ /tags/key-value-cache/\n/about-us/ /about/\n/tags/kv-cache/ ")
    site.write("published-urls.txt", LEDGER + "/tags/key-value-cache/\n")
    assert curate(site, "tags", "rename", "key-value-cache", "kv-cache") == 0
    assert (site.content / "redirects.txt").read_text().splitlines() == [
        "/tags/old-cache/ /tags/kv-cache/", "/about-us/ /about/", "/tags/key-value-cache/ /tags/kv-cache/",
        *(f"/tags/key-value-cache/{name} /tags/kv-cache/{name}" for name in ("papers.bib", "papers.json", "papers.ris"))]
    assert curate(site, "tags", "rename", "sparse-attention", "sparse") == 0  # the content is valid throughout


def test_merge_removes_the_others_appends_their_phrases_and_lists_the_tag_once(site, capsys):
    assert curate(site, "tags", "merge", "sparse-attention", "kv-cache", "kv-cache") == 0
    taxonomy = load_catalogue(site.content, Report()).taxonomy
    assert list(taxonomy.tags) == ["kv-cache", "state-space-models", "in-context-learning", "long-tailed-learning"]
    assert taxonomy.tags["kv-cache"].phrases == ("kv cache", "key-value cache", "sparse attention", "top-k attention")
    assert taxonomy.themes["efficient-inference"].tags == ("kv-cache",)
    assert taxonomy.themes["architectures"].tags == ("state-space-models", "kv-cache")
    papers = site.papers()
    assert "tags: [kv-cache]\n" in papers["rocketkv.md"]
    assert "tags: [state-space-models, kv-cache]\n" in papers["samba.md"]
    out = capsys.readouterr().out
    assert "tag `sparse-attention` removed (its papers take `kv-cache`)" in out
    assert "tag `kv-cache` phrases: + 'sparse attention', 'top-k attention'" in out


def test_block_lists_and_a_missing_phrases_key_are_rewritten_in_place(scratch):
    taxonomy = scratch.write("content/taxonomy.yaml", """\
tags:
  - id: a
    label: A
    description: The first.
  - id: b
    label: B
    description: The second.
    phrases:
      - "bee"   # a block list
      - "bees"

  # --- the rest ---
  - id: c
    label: C
    description: The third.
themes:
  - id: t
    title: T
    description: All.
    tags:
      - a
      - b
      - c
""")
    scratch.write("content/papers/one.md", paper("one", "One", tags="[b, c]"))
    scratch.write("content/papers/two.md", paper("two", "Two", tags="[a]"))
    assert curate(scratch, "tags", "merge", "b", "a") == 0
    assert taxonomy.read_text() == """\
tags:
  - id: a
    label: A
    description: The first.
    phrases: ["bee", "bees"]

  # --- the rest ---
  - id: c
    label: C
    description: The third.
themes:
  - id: t
    title: T
    description: All.
    tags: [a, c]
"""
    assert [p.tags for p in load_catalogue(scratch.content, Report()).papers] == [("a", "c"), ("a",)]


def test_split_needs_the_new_tags_and_a_default_for_papers_matching_none(site, capsys):
    assert curate(site, "tags", "split", "kv-cache", "cache-compression") == 1
    assert "tag `cache-compression` is not in the taxonomy yet — add `- id: cache-compression` (with label, " \
           "description and phrases) under `tags:` first" in capsys.readouterr().err
    taxonomy = site.content / "taxonomy.yaml"
    taxonomy.write_text(taxonomy.read_text().replace("themes:\n", (
        "  - id: cache-compression\n    label: Cache compression\n    description: Smaller caches.\n"
        "    phrases: [\"compress*\"]\n  - id: cache-vectors\n    label: Vectors\n    description: Vectors.\n"
        "    phrases: [\"vectors\"]\n  - id: cache-other\n    label: Other\n    description: Others.\n"
        "themes:\n")))
    site.write("content/papers/plain.md", paper("plain", "Plain", tags="[kv-cache]", body="Nothing to see."))
    before = content(site)
    assert curate(site, "tags", "split", "kv-cache", "cache-compression", "cache-vectors") == 1
    err = capsys.readouterr().err
    assert re.search(r"papers/plain\.md:6: no phrase of `cache-compression`, `cache-vectors` occurs in this paper", err)
    assert "give `--default TAG` for such papers" in err and "rocketkv" not in err
    assert content(site) == before
    assert curate(site, "tags", "split", "kv-cache", "cache-compression", "cache-vectors", "cache-other",
                  "--default", "cache-other") == 0
    papers = site.papers()
    assert "tags: [cache-compression, sparse-attention]\n" in papers["rocketkv.md"]
    assert "tags: [in-context-learning, cache-vectors]\n" in papers["icv.md"]
    assert "tags: [cache-other]\n" in papers["plain.md"]
    themes = load_catalogue(site.content, Report()).taxonomy.themes
    assert themes["efficient-inference"].tags == ("cache-compression", "cache-vectors", "cache-other", "sparse-attention")
    assert "/tags/kv-cache/ /tags/cache-other/" in (site.content / "redirects.txt").read_text()


def test_a_failure_midway_leaves_every_file_as_it_was(site, monkeypatch, capsys):
    before = content(site)
    calls = []
    real_replace = os.replace

    def third_fails(source, target):
        calls.append(target)
        if len(calls) == 3:
            raise OSError(28, "No space left on device", str(target))
        real_replace(source, target)

    monkeypatch.setattr(files.os, "replace", third_fails)
    assert curate(site, "tags", "rename", "kv-cache", "key-value-cache") == 1
    assert len(calls) > 3  # two replaced, the third failed, and the two were put back
    assert content(site) == before
    assert not [p for p in site.content.rglob(".*")]  # no temporary file left behind
    assert "could not write (No space left on device), so nothing was changed" in capsys.readouterr().err


def test_a_change_the_build_would_refuse_is_undone(small_site, capsys):
    """No ledger remembers the tag page, so a link to it in an abstract would break."""
    small_site.write("content/papers/note.md", paper("note", "Note", body="See [the tag](/tags/kv-cache/)."))
    before = content(small_site)
    assert curate(small_site, "tags", "rename", "kv-cache", "key-value-cache") == 1
    err = capsys.readouterr().err
    assert "the link /tags/kv-cache/ leads to no page" in err
    assert "new error(s), so it was undone: every file is as it was" in err
    assert content(small_site) == before


def test_errors_the_content_had_before_do_not_stop_a_change_that_adds_none(site, capsys):
    site.write("content/papers/note.md", paper("note", "Note", body="See [a paper](/papers/nowhere/)."))
    assert curate(site, "tags", "rename", "kv-cache", "key-value-cache") == 0
    captured = capsys.readouterr()
    assert "content/ had 1 error(s) before this change; this change adds none" in captured.err
    assert "Changed 5 files; content/'s errors are as they were." in captured.out
    assert "tags: [key-value-cache, sparse-attention]" in site.papers()["note.md"]


def test_dry_run_prints_each_change_and_writes_nothing(site, capsys):
    before = content(site)
    for command in (("tags", "rename", "kv-cache", "key-value-cache"), ("merge", "rocketkv", "icv"),
                    ("tags", "merge", "kv-cache", "sparse-attention", "sparse-attention"),
                    ("retag", "--where", "venue:icml-2024", "--add", "state-space-models")):
        assert curate(site, *command, "--dry-run") == 0
        assert "nothing was written." in capsys.readouterr().out
    assert content(site) == before
    curate(site, "merge", "rocketkv", "icv", "--dry-run")
    out = capsys.readouterr().out
    assert "aliases: (none) → [icv]" in out and re.search(r"papers/icv\.md \(deleted\)", out)


@pytest.mark.parametrize(("command", "message"), [
    (("tags", "rename", "kv-cahce", "x"), "no tag `kv-cahce` in the taxonomy — did you mean `kv-cache`?"),
    (("tags", "rename", "kv-cache", "sparse-attention"),
     ":6: tag `sparse-attention` exists already — to make the two one, run `python build.py tags merge kv-cache sparse-attention`"),
    (("tags", "rename", "kv-cache", "KV_Cache"), "`KV_Cache` is not a valid tag id"),
    (("tags", "merge", "kv-cache", "kv-cache"), "nothing to merge into `kv-cache`"),
    (("tags", "merge", "kv-cache", "sparse-attention", "caching"), "tag `caching` is not in the taxonomy yet — add `- id: caching`"),
    (("merge", "samba", "samba"), "`samba` and `samba` are the same paper"),
    (("merge", "samba", "smaba"), "DROP: no paper has the slug `smaba` — did you mean `samba`?"),
    (("merge", "rocketkv", "rocket"), "DROP `rocket` is already an alias of `rocketkv` — nothing to merge"),
    (("retag", "--where", "tag:kv-cache", "--add", "kv"), "no tag `kv` in the taxonomy"),
    (("retag", "--where", "tag:kv-cache", "--remove", "sparse-atention"),
     "no tag `sparse-atention` in the taxonomy — did you mean `sparse-attention`?"),
    (("retag", "--where", "kv OR", "--add", "kv-cache"), "`OR` needs terms on both sides"),
    (("retag", "--where", "tag:kv-cache"), "retag: nothing to do — give --add TAG or --remove TAG"),
    (("retag", "--where", "tag:kv-cache", "--remove", "kv-cache", "--remove", "sparse-attention"),
     "rocketkv.md:6: this paper would be left with no tag"),
])
def test_each_refusal_says_why_and_changes_nothing(site, capsys, command, message):
    rocket = site.content / "papers/rocketkv.md"
    rocket.write_text(rocket.read_text().replace("---\n\n", "aliases: [rocket]\n---\n\n", 1))
    before = content(site)
    assert curate(site, *command) == 1
    err = capsys.readouterr().err
    assert message in err and "Nothing was changed." in err
    assert content(site) == before


def test_merge_makes_the_dropped_slug_an_alias_and_takes_what_keep_lacks(site, capsys):
    site.write("content/papers/rocketkv-2.md", paper(
        "rocketkv-2", "RocketKV again", tags="[sparse-attention, in-context-learning]", body="Another abstract.",
        extra="arxiv: '2502.14051'\ncode: https://github.com/example/rocketkv\naliases: [rocket-kv]\n"))
    assert curate(site, "merge", "rocketkv", "rocketkv-2") == 0
    assert not (site.content / "papers/rocketkv-2.md").exists()
    kept = (site.content / "papers/rocketkv.md").read_text()
    assert kept == paper("rocketkv", "RocketKV: Two-Stage KV Cache Compression").replace(
        "tags: [kv-cache, sparse-attention]\n", "arxiv: '2502.14051'\ntags: [kv-cache, sparse-attention, "
        "in-context-learning]\ncode: https://github.com/example/rocketkv\naliases: [rocketkv-2, rocket-kv]\n"
        f"merged: [{fingerprint('Another abstract.')}]\n")
    build_site(site.config(search=False, social_images=False), Report())
    assert 'url=/papers/rocketkv/"' in (site.site / "papers/rocketkv-2/index.html").read_text()


def test_a_merged_papers_list_imported_again_adds_nothing(scratch, capsys):
    abstracts = [f"We study paper {n} of the list: a method that keeps the key-value cache small while decoding "
                 f"long inputs, and measure its memory and accuracy on long-context benchmarks, variant {n}."
                 for n in (1, 2)]
    listing = scratch.write("icml.txt", "ICML 2024 Papers\n\n" + "\n\n".join(abstracts) + "\n")
    assert main(["import", str(listing), "--content", str(scratch.content)]) == 0
    first, second = sorted(scratch.papers())
    assert curate(scratch, "merge", first.removesuffix(".md"), second.removesuffix(".md")) == 0
    papers = scratch.papers()
    assert main(["import", str(listing), "--content", str(scratch.content)]) == 0
    assert scratch.papers() == papers
    assert "import: 0 added, 2 skipped" in capsys.readouterr().err


def test_retag_picks_papers_by_venue_words_and_groups(site, capsys):
    assert curate(site, "retag", "--where", 'venue:"ICML 2024" vectors OR text:hybrid', "--add", "long-tailed-learning",
                  "--remove", "in-context-learning") == 0
    out = capsys.readouterr().out
    assert "2 papers match" in out
    papers = site.papers()
    assert "tags: [kv-cache, long-tailed-learning]\n" in papers["icv.md"]
    assert "tags: [state-space-models, sparse-attention, long-tailed-learning]\n" in papers["samba.md"]
    assert "tags: [kv-cache, sparse-attention]\n" in papers["rocketkv.md"]
    assert curate(site, "retag", "--where", "vector", "--add", "kv-cache") == 0  # whole words: no paper
    assert "0 papers match `vector`" in capsys.readouterr().out
    assert curate(site, "retag", "--where", "venue:icml-2024 tag:kv-cache", "--add", "kv-cache") == 0
    assert "icv: already as asked" in capsys.readouterr().out


# The README's commands on a copy of this repository, run as processes (slow: about 75 s).

@pytest.fixture(scope="module")
def real(tmp_path_factory) -> Path:
    """The repository copied and built, as a fresh clone builds it."""
    project = copy_project(tmp_path_factory.mktemp("curate") / "project")
    done = run(project)
    assert done.returncode == 0, done.stderr[-3000:]
    return project


@pytest.mark.slow
def test_renaming_a_real_tag_keeps_its_published_pages_as_redirects(real, tmp_path):
    project = copy_project(tmp_path / "project", real)
    papers_before = tree(project / "content/papers")
    done = run(project, "tags", "rename", "kv-cache", "key-value-cache")
    assert done.returncode == 0, done.stderr
    assert "Changed 13 files; the build's checks pass." in done.stdout
    changed = {name for name, data in tree(project / "content/papers").items() if data != papers_before[name]}
    assert len(changed) == 11
    for name in changed:
        before, after = papers_before[name].split(b"\n"), (project / "content/papers" / name).read_bytes().split(b"\n")
        assert [i for i, (a, b) in enumerate(zip(before, after)) if a != b] == [before.index(next(
            line for line in before if line.startswith(b"tags:")))] and len(before) == len(after)
    built = run(project)
    assert built.returncode == 0, built.stderr[-3000:]
    assert 'url=/tags/key-value-cache/"' in (project / "site/tags/kv-cache/index.html").read_text()
    assert "/tags/kv-cache/ /tags/key-value-cache/ 301" in (project / "site/_redirects").read_text()
    ledger = (project / "published-urls.txt").read_text().splitlines()
    assert "/tags/kv-cache/" in ledger and "/tags/key-value-cache/feed.xml" in ledger


@pytest.mark.slow
def test_merging_two_real_papers_and_retagging_a_real_venue(real, tmp_path):
    project = copy_project(tmp_path / "project", real)
    done = run(project, "merge", "mambaextend", "longmamba")
    assert done.returncode == 0, done.stderr
    text = (project / "content/papers/mambaextend.md").read_text()
    assert "arxiv: '2504.16053'\n" in text and "aliases: [longmamba]\n" in text
    assert "tags: [state-space-models, length-extrapolation, long-document-understanding]\n" in text
    retagged = run(project, "retag", "--where", 'venue:"ICML 2024"', "--add", "benchmarks-evaluation")
    assert retagged.returncode == 0, retagged.stderr
    assert "19 papers match `venue:\"ICML 2024\"`" in retagged.stdout
    built = run(project)
    assert built.returncode == 0, built.stderr[-3000:]
    assert re.search(r"Built \d+ pages \(94 papers;", built.stdout)
    assert 'url=/papers/mambaextend/"' in (project / "site/papers/longmamba/index.html").read_text()


def test_a_withdrawn_paper_is_retagged_too_and_cannot_be_merged(site, capsys):
    site.write("content/papers/gone.md", paper(
        "gone", "Gone: A Withdrawn Cache", extra="withdrawn: 2026-01-05\n",
        body="A withdrawn paper about the KV cache and sparse attention, kept at its address."))
    assert curate(site, "tags", "rename", "kv-cache", "key-value-cache") == 0
    assert "tags: [key-value-cache, sparse-attention]\n" in site.papers()["gone.md"]
    before = content(site)
    assert curate(site, "merge", "rocketkv", "gone") == 1
    assert "DROP `gone` is withdrawn: its page stays, saying so, and a merge would make its page a redirect" in \
        capsys.readouterr().err
    assert content(site) == before


def test_split_matches_phrases_written_with_capitals_and_refuses_the_old_tag_among_the_new(site, capsys):
    taxonomy = site.content / "taxonomy.yaml"
    taxonomy.write_text(taxonomy.read_text().replace('phrases: ["sparse attention", "top-k attention"]',
                                                     'phrases: ["Sparse Attention", "top-k attention"]'))
    before = content(site)
    assert curate(site, "tags", "split", "kv-cache", "kv-cache", "sparse-attention") == 1
    assert "`kv-cache` is the tag being split, so it cannot be one of its parts" in capsys.readouterr().err
    assert content(site) == before
    assert curate(site, "tags", "split", "kv-cache", "sparse-attention", "in-context-learning", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "rocketkv.md" in out and "no phrase of" not in out


@pytest.mark.parametrize("query, message", [
    ("tag:kv-cahce", "no tag `kv-cahce`: did you mean `kv-cache`?"),
    ('venue:"ICRL 2025"', "no venue `ICRL 2025`: did you mean `ICLR 2025`?"),
    ("title_source:curatd", "no title source `curatd`: did you mean `curated`?"),
    ("foo:bar", "`foo:` is no field a query knows"),
    ("", "the query names nothing to match"),
    ("tag:kv-cache NOT", "`NOT` needs a term after it"),
    ("NOT OR slug:icv", "`NOT` needs a term after it, not `OR`"),
    ("(tag:kv-cache OR slug:samba)", "`(tag:kv-cache`: parentheses are not supported"),
    ("tag:kv-cache -venue:ICRL-2025", "no venue `ICRL-2025`"),
])
def test_retag_refuses_what_the_catalogue_has_not_instead_of_matching_nothing(site, capsys, query, message):
    before = content(site)
    assert curate(site, "retag", "--where", query, "--add", "kv-cache") == 1
    assert message in capsys.readouterr().err
    assert content(site) == before


@pytest.mark.parametrize("query, chosen", [
    ("tag:kv-cache NOT slug:rocketkv", ["icv"]),
    ("tag:kv-cache and not slug:icv", ["rocketkv"]),
    ("tag:sparse-attention -venue:icml-2024", ["samba"]),
    ('-venue:"ICML 2024" OR slug:icv', ["icv", "samba"]),
    ("NOT -slug:icv", ["icv"]),
])
def test_retag_excludes_what_not_or_a_minus_names_and_lists_whom_it_would_change(site, capsys, query, chosen):
    before = content(site)
    assert curate(site, "retag", "--where", query, "--add", "state-space-models", "--dry-run") == 0
    out = capsys.readouterr().out
    assert f"{len(chosen)} paper{'s' if len(chosen) > 1 else ''} match" in out
    listed = sorted(slug for slug in ("icv", "rocketkv", "samba") if f"{slug}.md" in out)
    assert listed == [slug for slug in chosen if slug != "samba"]  # samba has the tag already: nothing to change
    assert content(site) == before


def test_retag_reads_fields_and_or_in_any_case(site, capsys):
    assert curate(site, "retag", "--where", "TAG:in-context-learning or text:hybrid", "--add", "kv-cache",
                  "--dry-run") == 0
    assert "2 papers match" in capsys.readouterr().out


def test_split_leaves_a_paper_that_has_a_new_tag_already_without_the_default(site, capsys):
    """`recurrent` has state-space-models already and names neither new tag: it just loses kv-cache."""
    site.write("content/papers/recurrent.md", paper("recurrent", "A Recurrent Cache", tags="[kv-cache, state-space-models]",
                                                    body="A recurrence that carries a fixed-size summary of the past."))
    assert curate(site, "tags", "split", "kv-cache", "sparse-attention", "state-space-models",
                  "--default", "sparse-attention") == 0
    papers = site.papers()
    assert "tags: [state-space-models]\n" in papers["recurrent.md"]  # not the default
    assert "tags: [in-context-learning, sparse-attention]\n" in papers["icv.md"]  # the default
    assert "tags: [sparse-attention]\n" in papers["rocketkv.md"]


def test_a_tags_introduction_goes_with_it_when_renamed_or_merged(site):
    site.write("content/intros/tags/kv-cache.md", "Caches that keep memory bounded.\n")
    assert curate(site, "tags", "rename", "kv-cache", "key-value-cache") == 0
    intros = site.content / "intros/tags"
    assert not (intros / "kv-cache.md").exists()
    assert (intros / "key-value-cache.md").read_text() == "Caches that keep memory bounded.\n"
    site.write("content/intros/tags/sparse-attention.md", "Attention to a few tokens.\n")
    assert curate(site, "tags", "merge", "key-value-cache", "sparse-attention") == 0
    assert (intros / "sparse-attention.md").read_text() == \
        "Attention to a few tokens.\n\nCaches that keep memory bounded.\n"  # both kept, the merged one after
    assert not (intros / "key-value-cache.md").exists()


def test_merge_refuses_to_delete_the_notes_of_the_paper_it_drops(site, capsys):
    rocket = site.content / "papers/rocketkv.md"
    rocket.write_text(rocket.read_text() + "\n## Notes\n\nCompare with Samba.\n")
    before = content(site)
    assert curate(site, "merge", "samba", "rocketkv") == 1
    assert "rocketkv.md:13: `rocketkv` has notes of its own, which merging would delete — move them under " \
           "`## Notes` in samba.md (or delete them), then merge again" in capsys.readouterr().err
    assert content(site) == before
