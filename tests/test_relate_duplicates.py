"""`check` finds two files that are the same paper (the same arXiv id, the same abstract, a
near-identical title or abstract), once a pair, on the file to drop, naming the merge command."""

from __future__ import annotations

import pytest
from conftest import paper
from test_check import LONG, curate, run_check

from catalogue.content.loader import load_catalogue
from catalogue.relate.duplicates import find_duplicates, normal_title
from catalogue.report import Report

OTHER = ("An unrelated abstract about sampling molecules in physics with many words that share "
         "nothing with the other papers of this small catalogue at all.")


def warnings_about_duplicates(scratch) -> list[str]:
    return [line for line in curate(scratch) if "maybe the same paper" in line]


def test_the_same_arxiv_id_is_one_warning_on_the_newer_file(scratch):
    scratch.write("content/papers/kvpress.md", paper("kvpress", "KVPress: Pressing the Cache", body=LONG,
                                                     extra="added: 2026-01-01\narxiv: '2406.07522'\n"))
    scratch.write("content/papers/kv-press.md", paper("kv-press", "Pressing Caches", body=OTHER,
                                                      extra="added: 2026-02-01\narxiv: '2406.07522v2'\n"))
    assert warnings_about_duplicates(scratch) == [(
        "papers/kv-press.md:8: warning: maybe the same paper as kvpress.md: same arXiv id 2406.07522 — "
        "if they are the same paper: python build.py merge kvpress kv-press")]


def test_a_whole_copy_is_the_one_to_drop_though_its_name_sorts_first(scratch):
    """The same title, date and abstract: the shorter name is the original (`ltvs-copy.md` sorts
    before `ltvs.md` by path, and was once the one kept, its original turned into a redirect)."""
    for slug in ("ltvs", "ltvs-copy"):
        scratch.write(f"content/papers/{slug}.md", paper(slug, "Long-Term Video Stories", body=LONG,
                                                         extra="added: 2026-01-01\n"))
    assert warnings_about_duplicates(scratch)[0].endswith("python build.py merge ltvs ltvs-copy")


def test_an_abstract_whose_fingerprint_is_anothers_imported_one(scratch):
    """The same fingerprint field twice is a load error; the abstract copied under a new header is this."""
    from catalogue.content.source import fingerprint
    scratch.write("content/papers/first.md", paper("first", "First Title", body=LONG,
                                                   extra=f"fingerprint: {fingerprint(LONG)}\n"))
    scratch.write("content/papers/second.md", paper("second", "Quite Another Name", body=LONG.upper(),
                                                    extra="title_source: derived\n").replace("title_source: curated\n", ""))
    assert warnings_about_duplicates(scratch) == [(
        f"papers/second.md:9: warning: maybe the same paper as first.md: the same abstract (fingerprint "
        f"{fingerprint(LONG)}) — if they are the same paper: python build.py merge first second")]


@pytest.mark.parametrize("title, reason", [
    ("samba: simple hybrid state-space models!", "the same title"),
    ("Samba: Simple Hybrid State Space Model", "titles 99% alike"),
])
def test_a_near_identical_title_keeps_the_curated_one(scratch, title, reason):
    scratch.write("content/papers/samba.md", paper("samba", "Samba: Simple Hybrid State Space Models", body=LONG))
    scratch.write("content/papers/a-samba.md", paper("a-samba", title, body=OTHER).replace(
        "title_source: curated", "title_source: derived"))
    assert warnings_about_duplicates(scratch) == [(
        f"papers/a-samba.md:2: warning: maybe the same paper as samba.md: {reason} — "
        "if they are the same paper: python build.py merge samba a-samba")]


def test_titles_that_share_common_words_or_differ_in_a_number_are_not_paired(scratch):
    scratch.write("content/papers/a.md", paper("a", "LongRoPE: Extending the Context of Language Models", body=LONG))
    scratch.write("content/papers/b.md", paper("b", "LongRoPE2: Extending the Context of Language Models", body=OTHER))
    scratch.write("content/papers/c.md", paper("c", "Language Models of the Context", body="Short and unlike."))
    assert warnings_about_duplicates(scratch) == []


def test_several_reasons_are_one_warning_and_a_withdrawn_paper_is_left_out(scratch):
    scratch.write("content/papers/a.md", paper("a", "Ring Attention", body=LONG, extra="arxiv: '2310.01889'\n"))
    scratch.write("content/papers/b.md", paper("b", "Ring attention", body=LONG + " Again.",
                                               extra="arxiv: '2310.01889'\n"))
    scratch.write("content/papers/c.md", paper("c", "Ring Attention", body=LONG, extra="withdrawn: 2025-01-01\n"))
    assert warnings_about_duplicates(scratch) == [(
        "papers/b.md:7: warning: maybe the same paper as a.md: same arXiv id 2310.01889; the same title; "
        "abstracts 96% alike — if they are the same paper: python build.py merge a b")]


def test_titles_are_compared_blind_to_case_accents_punctuation_and_spacing():
    assert normal_title("Ünïcode:  A  “Quoted”—Title (v2)") == "unicode a quoted title v2"


def test_check_strict_fails_on_a_duplicate_and_names_the_merge(code, scratch):
    scratch.write("content/papers/a.md", paper("a", "A Paper About Caches", body=LONG, extra="arxiv: '2406.07522'\n"))
    scratch.write("content/papers/b.md", paper("b", "Other", body=OTHER, extra="arxiv: '2406.07522'\n"))
    done = run_check(code, "--content", str(scratch.content), "--strict", "--quiet")
    assert done.returncode == 1
    assert "python build.py merge a b" in done.stderr


def test_the_frozen_catalogue_has_no_duplicates(frozen_catalogue):
    assert find_duplicates(frozen_catalogue.papers) == []
    assert len(frozen_catalogue.papers) == 95


def test_the_same_paper_twice_in_the_frozen_catalogue_is_found(frozen_catalogue, tmp_path):
    """A copy of content/ with one paper imported again under another name, as a curator might."""
    import shutil
    content = shutil.copytree(frozen_catalogue.papers[0].path.parent.parent, tmp_path / "content")
    original = frozen_catalogue.papers[0]
    text = original.path.read_text(encoding="utf-8").replace(f"slug: {original.slug}\n", "slug: again\n")
    text = "\n".join(line for line in text.split("\n") if not line.startswith(("fingerprint:", "aliases:")))
    (content / "papers/again.md").write_text(text, encoding="utf-8")
    found = find_duplicates(load_catalogue(content, Report()).papers)
    assert [(d.keep.slug, d.drop.slug) for d in found] in ([(original.slug, "again")], [("again", original.slug)])
    assert "the same title" in found[0].reasons


@pytest.mark.slow
@pytest.mark.slow  # the project copied and run as a process
def test_check_on_a_copy_of_the_repository_finds_a_paper_imported_twice(tmp_path):
    """`python build.py check --strict` in a copy of this repository, samba copied to samba-again."""
    from helpers import copy_project, run
    project = copy_project(tmp_path / "project")
    samba = (project / "content/papers/samba.md").read_text(encoding="utf-8")
    again = "\n".join(line for line in samba.split("\n") if not line.startswith(("fingerprint:", "aliases:")))
    again = again.replace("slug: samba\n", "slug: samba-again\n").replace("added: 2026-11-29", "added: 2026-12-01")
    (project / "content/papers/samba-again.md").write_text(again, encoding="utf-8")
    done = run(project, "check", "--strict", "--quiet")
    assert done.returncode == 1
    warned = [line for line in done.stderr.splitlines() if "maybe the same paper" in line]
    assert warned == [("content/papers/samba-again.md:8: warning: maybe the same paper as samba.md: same arXiv id "
                       "2406.07522; the same abstract (fingerprint 07e14a389e9eb81d); the same title — "
                       "if they are the same paper: python build.py merge samba samba-again")], done.stderr
