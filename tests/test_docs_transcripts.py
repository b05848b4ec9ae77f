"""The sample sessions the docs show (a ```text block of `$ build.py …` lines, each followed by
what it prints) are what the commands print: each block is replayed, command after command, on
the project it was written on, and the output compared line by line.

In what a page shows, a line `…` stands for any lines (never a traceback), a `…` within a line
for any text, and the date of an `added:` line for any date (an import writes today's);
everything else must be as printed, and no command may end in a traceback."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import copy_project

from catalogue.config import PROJECT_ROOT
from catalogue.importer.cleaning import clean_abstract
from catalogue.importer.formats import read_entries
from catalogue.report import Report

DOCS = PROJECT_ROOT / "docs"
FIXTURES = Path(__file__).parent / "fixtures"
PROMPT = "$ .venv/bin/python build.py "
DATE = r"\d{4}-\d{2}-\d{2}"


def frozen(target: Path) -> Path:
    """The project with the frozen catalogue, the lists of tests/fixtures/import in lists/, and a
    file in a format import does not read."""
    project = copy_project(target)
    shutil.copytree(FIXTURES / "import", project / "lists")
    (project / "lists" / "export.ris").write_text("TY  - CPAPER\nTI  - Ring caches\nER  -\n", encoding="utf-8")
    return project


def raw_list_imported(target: Path) -> Path:
    """The frozen project after the abstracts of lists/icml2024.bib were imported as a raw list
    (their titles derived), that BibTeX file beside it."""
    project = frozen(target)
    entries = read_entries(project / "lists" / "icml2024.bib", Report())
    raw = "ICML 2024 papers\n\n" + "\n\n".join(clean_abstract(entry.text) for entry in entries) + "\n"
    (project / "lists" / "icml2024-raw.txt").write_text(raw, encoding="utf-8")
    assert replay(project, "import lists/icml2024-raw.txt")[0] == 0
    shutil.copy2(project / "lists" / "icml2024.bib", project / "icml2024.bib")
    return project


def test_site(target: Path) -> Path:
    """The project with the committed valid test site's content (tests/sites/valid)."""
    project = copy_project(target)
    shutil.rmtree(project / "content")
    shutil.copytree(Path(__file__).parent / "sites" / "valid" / "content", project / "content")
    spelt = project / "content" / "papers" / "mamba-lite.md"  # a name spelt two ways
    spelt.write_text(spelt.read_text(encoding="utf-8").replace("Alan Turing", "A. M. Turing"), encoding="utf-8")
    return project


test_site.__test__ = False  # a set-up, not a test

# Each block, by its page and its first command: the project it was written on, and each
# command's exit code in turn.
SESSIONS: dict[tuple[str, str], tuple[Callable[[Path], Path], tuple[int, ...]]] = {
    ("adding-papers.md", "import lists/icml2024.bib --dry-run"): (frozen, (0, 1, 0, 1, 1)),
    ("adding-papers.md", "import --update --dry-run icml2024.bib"): (raw_list_imported, (0,)),
    ("bulk-changes.md", "merge mambaextend longmamba"): (frozen, (0,)),
    ("bulk-changes.md", "retag --where 'venue:\"ICML 2024\" text:icl' --add benchmarks-evaluation --dry-run"):
        (frozen, (0,)),
    ("curating.md", "review --content content"): (test_site, (0,)),
    ("bulk-changes.md", "tags rename kv-cache key-value-cache"): (frozen, (0,)),
    ("bulk-changes.md", "tags split in-context-learning icl-as-optimization task-vectors"): (frozen, (1,)),
    ("tag-suggestions.md", "check"): (frozen, (0,)),
}


def sessions() -> list[tuple[str, str, list[tuple[str, list[str]]]]]:
    """Each block of the docs that shows commands and their output: (page, first command,
    [(command, the lines it prints)])."""
    found = []
    for page in sorted(DOCS.glob("*.md")):
        for block in re.findall(r"^```text\n(.*?)^```$", page.read_text(encoding="utf-8"), re.S | re.M):
            if not block.startswith(PROMPT):
                continue
            steps: list[tuple[str, list[str]]] = []
            for line in block.splitlines():
                if line.startswith(PROMPT):
                    steps.append((line.removeprefix(PROMPT).split("   #")[0].strip(), []))
                elif line or steps[-1][1]:
                    steps[-1][1].append(line)
            steps = [(command, "\n".join(shown).rstrip("\n").split("\n")) for command, shown in steps]
            found.append((page.name, steps[0][0], steps))
    return found


def replay(project: Path, command: str) -> tuple[int, str]:
    """`python build.py COMMAND` in the project folder, as the page shows it: its exit code and
    everything it printed, in order."""
    done = subprocess.run([sys.executable, "build.py", *shlex.split(command)], cwd=project, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    return done.returncode, done.stdout


def shown_as_pattern(lines: list[str]) -> re.Pattern[str]:
    """What a page shows, as a pattern the whole output must match."""
    parts = []
    for line in lines:
        if line.strip() == "…":
            parts.append(r"(?:(?!Traceback)[^\n]*\n)*?")
            continue
        pieces = [re.escape(piece) for piece in line.split("…")]
        if line.startswith("added: "):
            pieces = [re.sub(DATE, lambda _: DATE, piece.replace(r"\-", "-")) for piece in pieces]
        parts.append("[^\n]*".join(pieces) + r"\n")
    return re.compile("".join(parts))


def test_every_sample_session_has_a_project_to_replay_on():
    assert {(page, first) for page, first, _ in sessions()} == set(SESSIONS)


@pytest.mark.parametrize("page, first, steps", sessions(), ids=lambda value: value if isinstance(value, str) else "")
def test_a_sample_session_prints_what_the_page_shows(tmp_path, page, first, steps):
    setup, codes = SESSIONS[(page, first)]
    project = setup(tmp_path / "project")
    assert len(codes) == len(steps)
    for (command, shown), code in zip(steps, codes):
        returncode, printed = replay(project, command)
        printed = printed.rstrip("\n") + "\n"
        assert returncode == code and "Traceback" not in printed, printed
        assert shown_as_pattern(shown).fullmatch(printed), f"{page}: `{command}` printed:\n{printed}"


def test_what_a_page_shows_is_matched_strictly():
    shown = ["would update content/papers/kivi.md ← icml2024.bib:4", "…", "added: 2026-12-02", "title: 'X'"]
    pattern = shown_as_pattern(shown)
    assert pattern.fullmatch("would update content/papers/kivi.md ← icml2024.bib:4\nmore\nadded: 2031-01-09\n"
                             "title: 'X'\n")
    assert not pattern.fullmatch("would update content/papers/kivi.md ← icml2024.bib:4\nTraceback (most recent "
                                 "call last):\nadded: 2031-01-09\ntitle: 'X'\n")
    assert not shown_as_pattern(["arxiv: 2026-12-02"]).fullmatch("arxiv: 2031-01-09\n")  # only `added:` varies
    assert not pattern.fullmatch("would update content/papers/kivi.md ← icml2024.bib:4\nadded: 2031-01-09\n"
                                 "title: 'Y'\n")
