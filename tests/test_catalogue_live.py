"""The catalogue's own checks: the one place the tests read the live content/ and ledger (every
other test reads the frozen copy, tests/fixtures/catalogue, so a curator's edit cannot break an
engine test). These fail when the catalogue itself is wrong: `check --strict` finds an error or a
warning, its CI workflow fails, re-importing its own lists would change a paper, its ledger
misses an address a build publishes, or watch mode cannot serve it. The watch test, the one that once caught every page answering 404 on the real
catalogue, runs in every run; the others are slow (CI, or --slow). tests/test_pipeline_same_output.py
also builds the live catalogue, against the reference commit's output.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from helpers import copy_project, run, tree
from test_cli_catalogue_ci import shell, workflow_commands
from test_serve_watch import Events, Watching

from catalogue.config import PROJECT_ROOT

PAGES = ("", "papers/samba/", "search/", "tags/kv-cache/")
OVERLAY = 'id="watch-overlay"'


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """This repository with its live catalogue, copied and built with the documented command."""
    project = copy_project(tmp_path_factory.mktemp("live") / "project", catalogue=PROJECT_ROOT)
    done = run(project)
    assert done.returncode == 0, done.stderr[-3000:]
    return project


@pytest.fixture
def project(built, tmp_path) -> Path:
    """A copy of the built project of its own, to edit."""
    return copy_project(tmp_path / "project", built)


@pytest.mark.slow
def test_every_step_of_the_catalogue_workflow_passes(built):
    for command in workflow_commands():
        done = shell(built, command)
        assert done.returncode == 0, (command, done.stderr[-3000:])
    assert "::error" not in shell(built, workflow_commands()[0]).stdout
    assert (built / "site" / "papers" / "samba" / "index.html").is_file()


@pytest.mark.slow
def test_the_committed_ledger_is_what_a_build_of_the_catalogue_leaves(built):
    """A curator's first build after a clone changes no tracked file: every address the
    catalogue publishes is in published-urls.txt already (a page added without its line, like
    the reading guide once, would be a diff in everyone's first build)."""
    assert (built / "published-urls.txt").read_text() == (PROJECT_ROOT / "published-urls.txt").read_text()


@pytest.mark.slow
def test_the_catalogue_passes_check_and_reimporting_its_lists_changes_nothing(project):
    check = run(project, "check", "--strict", "--quiet")
    assert check.returncode == 0, check.stderr[-3000:]
    assert re.search(r"Checked \d+ papers: 0 errors, 0 warnings", check.stderr), check.stderr[-500:]
    content = tree(project / "content", mtimes=True)
    lists = sorted(str(p.relative_to(project)) for p in (project / "content/sources").glob("*.txt"))
    imported = run(project, "import", *lists, "--metadata", "content/sources/metadata.tsv")
    assert imported.returncode == 0, imported.stderr[-2000:]
    assert re.search(r"import: 0 added, \d+ skipped, 0 could not be parsed", imported.stderr), imported.stderr
    assert tree(project / "content", mtimes=True) == content



@pytest.fixture
def watching(tmp_path):
    """Watch mode on a fresh copy of the repository, as a curator starts it after a clone."""
    project = copy_project(tmp_path / "project", catalogue=PROJECT_ROOT)
    server = Watching(project)
    yield project, server
    server.stop()


def test_watch_serves_the_catalogue_and_follows_edits(watching):
    project, server = watching
    for path in PAGES:
        status, html = server.get(path)
        assert status == 200 and OVERLAY not in html, (path, status, "\n".join(server.lines))
    status, html = server.get("_review/")  # the review list, while curating only
    assert status == 200 and "<h1>To review</h1>" in html and '<a href="/_review/">To review</a>' in html
    pending = "being worked out" in html
    deadline = time.monotonic() + 60  # its tags to confirm are worked out in the background
    while "being worked out" in html and time.monotonic() < deadline:
        time.sleep(0.5)
        html = server.get("_review/")[1]
    assert 'href="/papers/minictx/"' in html, "\n".join(server.lines)
    if pending:  # for that, only the review page reloads
        assert server.review.wait("reload", timeout=5, mine=True)
        home = [data for kind, data in list(server.events.names.queue)
                if kind == "reload" and (data == "*" or "/" in json.loads(data))]
        assert home == []
    samba = project / "content/papers/samba.md"
    good = samba.read_text()
    tab = Events(server.url, "/papers/samba/")  # a browser on the paper's page: it reloads first
    samba.write_text(good.replace("title: 'Samba: Simple Hybrid", "title: 'Samba: Simply Hybrid"))
    assert tab.wait("reload", mine=True)
    assert "Samba: Simply Hybrid" in server.get("papers/samba/")[1]
    line = good.splitlines().index(next(l for l in good.splitlines() if l.startswith("tags:"))) + 1
    samba.write_text(good.replace("state-space-models", "state-space-modls"))
    assert tab.wait("reload", mine=True)
    status, html = server.get("papers/samba/")
    assert status == 200 and OVERLAY in html
    assert f"content/papers/samba.md:{line}: unknown tag `state-space-modls` — did you mean `state-space-models`?" in html
    assert OVERLAY in server.get("tags/kv-cache/")[1]
    samba.write_text(good)
    assert tab.wait("reload", mine=True)
    tab.close()
    status, html = server.get("papers/samba/")
    assert status == 200 and OVERLAY not in html and "Samba: Simple Hybrid" in html, "\n".join(server.lines)
