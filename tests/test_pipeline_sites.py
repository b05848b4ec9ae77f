"""Committed test sites, as Pelican keeps them: one valid site with its whole expected output, and
invalid sites that each expect one exact message.

- `sites/valid/content/` (three papers and a draft, the taxonomy, the venues, a redirect) and its
  ledger `sites/valid/published-urls.txt` are built with `build.py --no-search --no-images
  --base-url https://papers.example.org/` (the repository's templates and static files); every
  file the build makes (the copies of static/ aside) must be byte for byte
  `sites/valid/expected/`, and the ledger must come back unchanged.
- `sites/invalid/<case>/` holds the files that make the valid site invalid (its `content/` is laid
  over a copy of the valid content, symbolic links as links; a `published-urls.txt` replaces the
  ledger; an optional `remove.txt` lists files to delete from the copy then, one path a line,
  relative to the project: `content/site.yaml`) and `expected.txt`, the one error the build
  prints, with paths as seen from the project folder. The build must print that line alone, exit
  1 and write no site. There is a case for each error the loader (and the plan's checks) can give:
  each is built in this process by the command line's `main` (a fraction of a second), and the
  first seven also as `python build.py` (a second or two each), which prints the same.

Everything is built from a copy in tmp_path, so the committed files are never written. After a
change to the output made on purpose (templates, static files, rendering), regenerate what is
expected and review the diff before committing it:

    UPDATE_EXPECTED=1 .venv/bin/python -m pytest tests/test_pipeline_sites.py
"""

from __future__ import annotations

import gc
import os
import shutil
from pathlib import Path

import pytest
from helpers import build_py, differences, tree

from catalogue import cli

SITES = Path(__file__).parent / "sites"
VALID = SITES / "valid"
INVALID = sorted(path.name for path in (SITES / "invalid").iterdir() if path.is_dir())
# Built as a process too: the first seven cases, from each stage that can fail a build (reading,
# checking, the plan, the links), check that `python build.py` prints what `main` prints.
AS_A_PROCESS = ("bad-tag", "broken-abstract-link", "dropped-address", "duplicate-slug", "invalid-yaml",
                "unclosed-front-matter", "unknown-venue")
BASE_URL = "https://papers.example.org/"
LEDGER = "published-urls.txt"
SUMMARY = "\n1 error(s); nothing was written.\n"
ARGUMENTS = ("--content", "content", "--out", "site", "--no-search", "--no-images", "--base-url", BASE_URL)
UPDATE = bool(os.environ.get("UPDATE_EXPECTED"))


def build(code: Path, project: Path):
    """`python build.py` of this checkout in `project`, with paths relative to it, as a curator runs it."""
    return build_py(code, *ARGUMENTS, cwd=project)


def generated(site: Path) -> dict[str, bytes]:
    """The files the build makes, less the copies of static/ (`static/`, `assets/`): they are the
    repository's own files, and would make every CSS edit an edit of the expected output."""
    return {name: data for name, data in tree(site).items() if not name.startswith(("static/", "assets/"))}


def valid_copy(target: Path) -> Path:
    shutil.copytree(VALID / "content", target / "content")
    shutil.copy2(VALID / LEDGER, target / LEDGER)
    return target


def test_the_valid_site_builds_to_the_expected_bytes(code, tmp_path):
    project = valid_copy(tmp_path / "project")
    done = build(code, project)
    assert_expected_site(project, done.returncode, done.stdout, done.stderr)


def test_the_valid_site_builds_to_the_expected_bytes_in_process(tmp_path, monkeypatch, capsys):
    """The same build by the command line's `main`, in this process (in the quick suite)."""
    project = valid_copy(tmp_path / "project")
    returncode = main_in(project, tmp_path, monkeypatch)
    printed = capsys.readouterr()
    assert_expected_site(project, returncode, printed.out, printed.err)


def main_in(project: Path, tmp_path: Path, monkeypatch) -> int:
    """`build.py` with ARGUMENTS, by the command line's `main` in this process, from `project`."""
    monkeypatch.chdir(project)
    monkeypatch.setattr(cli, "CACHE_DIR", tmp_path / ".cache")  # as the process's copy of the code has its own
    threshold = gc.get_threshold()
    try:
        return cli.main(list(ARGUMENTS))
    finally:
        gc.set_threshold(*threshold)  # main tunes the collector for a long build: not for the rest of the tests


def assert_expected_site(project: Path, returncode: int, stdout: str, stderr: str) -> None:
    assert returncode == 0 and stderr == "", stderr
    assert stdout.startswith("Built 29 pages (3 papers; 77 files with feeds, citations and images) into site/")
    built = generated(project / "site")
    if UPDATE:
        shutil.rmtree(VALID / "expected", ignore_errors=True)
        for name, data in built.items():
            (VALID / "expected" / name).parent.mkdir(parents=True, exist_ok=True)
            (VALID / "expected" / name).write_bytes(data)
        shutil.copy2(project / LEDGER, VALID / LEDGER)
    assert not (different := differences(tree(VALID / "expected"), built, ("expected", "built"))), different
    assert len(built) > 30 and "papers/half-done/index.html" not in built  # drafts are not published
    assert {"style.css", "search-page.js"} <= set(tree(project / "site" / "static"))  # copied
    assert len(list((project / "site" / "assets").glob("style.*.css"))) == 1
    assert (project / LEDGER).read_bytes() == (VALID / LEDGER).read_bytes()  # nothing dropped, nothing new


def invalid_copy(target: Path, case: str) -> Path:
    """The valid site with the case's files laid over it, and those in its remove.txt deleted."""
    project = valid_copy(target)
    overlay = SITES / "invalid" / case
    if (overlay / "content").is_dir():
        shutil.copytree(overlay / "content", project / "content", symlinks=True, dirs_exist_ok=True)
    if (overlay / LEDGER).is_file():
        shutil.copy2(overlay / LEDGER, project / LEDGER)
    if (overlay / "remove.txt").is_file():
        for name in (overlay / "remove.txt").read_text(encoding="utf-8").split():
            (project / name).unlink()
    return project


def assert_one_message(case: str, project: Path, returncode: int, stderr: str) -> None:
    overlay = SITES / "invalid" / case
    printed = stderr.replace(f"{project.resolve()}/", "")  # the ledger is named by its full path
    assert returncode == 1 and printed.endswith(SUMMARY), stderr
    if UPDATE:
        (overlay / "expected.txt").write_text(printed.removesuffix(SUMMARY).strip() + "\n", encoding="utf-8")
    expected = (overlay / "expected.txt").read_text(encoding="utf-8")
    assert expected.count("\n") == 1 and printed == expected + SUMMARY
    assert not (project / "site").exists()


@pytest.mark.parametrize("case", AS_A_PROCESS)
def test_each_invalid_site_fails_with_its_one_message(code, tmp_path, case):
    project = invalid_copy(tmp_path / "project", case)
    done = build(code, project)
    assert_one_message(case, project, done.returncode, done.stderr)


@pytest.mark.parametrize("case", INVALID)
def test_each_invalid_site_fails_with_its_one_message_in_process(tmp_path, monkeypatch, capsys, case):
    """The same build by the command line's `main`, in this process, from the project folder: a
    fraction of a second each, not a process each (the output is the same: the cases above check it)."""
    project = invalid_copy(tmp_path / "project", case)
    returncode = main_in(project, tmp_path, monkeypatch)
    assert_one_message(case, project, returncode, capsys.readouterr().err)
