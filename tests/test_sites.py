"""Committed test sites, as Pelican keeps them: one valid site with its whole expected output, and
invalid sites that each expect one exact message.

- `sites/valid/content/` (three papers and a draft, the taxonomy, the venues, a redirect) and its
  ledger `sites/valid/published-urls.txt` are built with `build.py --no-search --no-images
  --base-url https://papers.example.org/` (the repository's templates and static files); every
  file the build makes (the copies of static/ aside) must be byte for byte
  `sites/valid/expected/`, and the ledger must come back unchanged.
- `sites/invalid/<case>/` holds the files that make the valid site invalid (its `content/` is laid
  over a copy of the valid content, a `published-urls.txt` replaces the ledger) and `expected.txt`,
  the one error the build prints, with paths as seen from the project folder. The build must
  print that line alone, exit 1 and write no site.

Everything is built from a copy in tmp_path, so the committed files are never written. After a
change to the output made on purpose (templates, static files, rendering), regenerate what is
expected and review the diff before committing it:

    UPDATE_EXPECTED=1 .venv/bin/python -m pytest tests/test_sites.py
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers import build_py, differences, tree

SITES = Path(__file__).parent / "sites"
VALID = SITES / "valid"
INVALID = sorted(path.name for path in (SITES / "invalid").iterdir() if path.is_dir())
BASE_URL = "https://papers.example.org/"
LEDGER = "published-urls.txt"
SUMMARY = "\n1 error(s); nothing was written.\n"
UPDATE = bool(os.environ.get("UPDATE_EXPECTED"))


def build(code: Path, project: Path):
    """`python build.py` of this checkout in `project`, with paths relative to it, as a curator runs it."""
    return build_py(code, "--content", "content", "--out", "site", "--no-search", "--no-images",
                    "--base-url", BASE_URL, cwd=project)


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
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("Built 29 pages (3 papers; 77 files with feeds, citations and images) into site/")
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


@pytest.mark.parametrize("case", INVALID)
def test_each_invalid_site_fails_with_its_one_message(code, tmp_path, case):
    project = valid_copy(tmp_path / "project")
    overlay = SITES / "invalid" / case
    if (overlay / "content").is_dir():
        shutil.copytree(overlay / "content", project / "content", dirs_exist_ok=True)
    if (overlay / LEDGER).is_file():
        shutil.copy2(overlay / LEDGER, project / LEDGER)
    done = build(code, project)
    printed = done.stderr.replace(f"{project.resolve()}/", "")  # the ledger is named by its full path
    assert done.returncode == 1 and printed.endswith(SUMMARY), done.stderr
    if UPDATE:
        (overlay / "expected.txt").write_text(printed.removesuffix(SUMMARY).strip() + "\n", encoding="utf-8")
    expected = (overlay / "expected.txt").read_text(encoding="utf-8")
    assert expected.count("\n") == 1 and printed == expected + SUMMARY
    assert not (project / "site").exists()
