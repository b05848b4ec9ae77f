"""The changelog: content.history reads what each commit did to content/papers/ from a real git
repository made in tmp_path; /changes/ and /changes/feed.xml show it, the last deploy's
changes first when Netlify names its commit, the `added:` dates without git; a commit is
noticed by the build's fast path. Git's identity and dates are given in each command's
environment, never configured globally."""

from __future__ import annotations

import os
import pickle
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import feedparser
import pytest
from conftest import Scratch, new_project, paper
from helpers import copy_project, run
from siteserver import SiteServer
from test_browser_quality import ARGS, AXE, CHROMIUM, VNU, require

from catalogue.content import history
from catalogue.content.history import Edit, read_history
from catalogue.pipeline import build_site
from catalogue.report import Report

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

ROCKET = "RocketKV: Two-Stage KV Cache Compression"
ICV = "In-context Vectors"


def git(root: Path, *args: str, day: int = 1) -> str:
    """A git command in `root`, as one curator on 2026-03-`day` (commits are then the same
    bytes on every run)."""
    when = f"2026-03-{day:02d}T12:00:00+00:00"
    env = {**os.environ, "GIT_AUTHOR_NAME": "Curator", "GIT_AUTHOR_EMAIL": "curator@example.org",
           "GIT_COMMITTER_NAME": "Curator", "GIT_COMMITTER_EMAIL": "curator@example.org",
           "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull}
    done = subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
                          cwd=root, env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def commit(root: Path, message: str, day: int) -> str:
    git(root, "add", "--all", ".")
    git(root, "commit", "-q", "-m", message, day=day)
    return git(root, "rev-parse", "HEAD")


def make_history(project: Scratch) -> dict[str, str]:
    """Four commits: three papers and a draft added; RocketKV's title and tags corrected;
    In-context Vectors removed; Samba renamed (its old slug kept in `aliases:`). Returns
    each commit by name."""
    write = project.write
    git(project.root, "init", "-q")
    write("content/papers/samba.md", paper("samba", "Samba: Simple Hybrid State Space Models", "ICLR 2025",
                                           extra="added: 2026-03-01\n"))
    write("content/papers/rocketkv.md", paper("rocketkv", "RocketKV: two stage compression", extra="added: 2026-03-01\n"))
    write("content/papers/icv.md", paper("icv", ICV, tags="[in-context-learning]", extra="added: 2026-03-01\n"))
    write("content/papers/half-done.md", paper("half-done", "Half done", extra="draft: true\n"))
    commits = {"added": commit(project.root, "Three papers", 1)}
    write("content/papers/rocketkv.md", paper("rocketkv", ROCKET, tags="[kv-cache]", extra="added: 2026-03-01\n"))
    commits["edited"] = commit(project.root, "RocketKV: the real title, and its tags", 2)
    (project.content / "papers" / "icv.md").unlink()
    commits["removed"] = commit(project.root, "In-context Vectors: not about long context", 3)
    git(project.root, "mv", "content/papers/samba.md", "content/papers/samba-hybrid.md")
    write("content/papers/samba-hybrid.md", paper("samba-hybrid", "Samba: Simple Hybrid State Space Models", "ICLR 2025",
                                                  extra="added: 2026-03-01\naliases: [samba]\n"))
    commits["renamed"] = commit(project.root, "Samba: a slug that says what it is", 4)
    return commits


@pytest.fixture
def repo(tmp_path) -> tuple[Scratch, dict[str, str]]:
    project = new_project(tmp_path / "project")
    return project, make_history(project)


def page(project: Scratch) -> str:
    return (project.site / "changes" / "index.html").read_text()


def test_the_history_names_what_each_commit_added_changed_removed_and_renamed(repo):
    project, commits = repo
    found = read_history(project.content, environ={})
    assert found.head == commits["renamed"] and found.deploy is None
    assert [(e.commit, e.date, e.summary) for e in found.entries] == [
        (commits["renamed"], "2026-03-04", "Samba: a slug that says what it is"),
        (commits["removed"], "2026-03-03", "In-context Vectors: not about long context"),
        (commits["edited"], "2026-03-02", "RocketKV: the real title, and its tags"),
        (commits["added"], "2026-03-01", "Three papers")]
    renamed, removed, edited, added = (entry.edits for entry in found.entries)
    assert renamed == (Edit("renamed", "samba-hybrid", "Samba: Simple Hybrid State Space Models", (), "samba"),)
    assert removed == (Edit("removed", "icv", ICV),)  # its title, from the old file in git
    assert edited == (Edit("changed", "rocketkv", ROCKET, ("title", "tags"), old_title="RocketKV: two stage compression"),)
    assert [(e.kind, e.slug) for e in added] == [("added", "icv"), ("added", "rocketkv"), ("added", "samba")]
    assert found.entries[0].time == "2026-03-04T12:00:00Z"  # the drafts' commits say nothing of them


def test_a_rename_git_cannot_see_is_found_by_its_alias(repo):
    """A new file whose `aliases:` names a slug removed in the same commit is that paper renamed."""
    project, _ = repo
    (project.content / "papers" / "rocketkv.md").unlink()
    project.write("content/papers/rocket.md", paper("rocket", ROCKET, tags="[kv-cache]",
                                                    body="Wholly new words, so git pairs no files. " * 40,
                                                    extra="added: 2026-03-01\naliases: [rocketkv]\n"))
    commit(project.root, "RocketKV moves", 5)
    assert "R" not in git(project.root, "log", "-1", "-M", "--format=", "--name-status")  # git sees no rename
    newest = read_history(project.content, environ={}).entries[0]
    assert newest.edits == (Edit("renamed", "rocket", ROCKET, ("abstract",), "rocketkv"),)


def test_a_draft_made_public_is_an_addition_and_a_paper_made_a_draft_a_removal(repo):
    project, _ = repo
    project.write("content/papers/half-done.md", paper("half-done", "Half done"))
    project.write("content/papers/rocketkv.md", paper("rocketkv", ROCKET, tags="[kv-cache]", extra="draft: true\n"))
    commit(project.root, "Half done is done; RocketKV back to drafts", 5)
    newest = read_history(project.content, environ={}).entries[0]
    assert newest.edits == (Edit("added", "half-done", "Half done"), Edit("removed", "rocketkv", ROCKET))


def test_a_withdrawal_is_a_change_of_its_own_and_its_page_is_still_linked(repo):
    project, _ = repo
    rocket = project.content / "papers" / "rocketkv.md"
    rocket.write_text(rocket.read_text().replace("---\n\n", "withdrawn: 2026-03-05\nwithdrawn_reason: wrong results\n---\n\n", 1))
    commit(project.root, "RocketKV withdrawn", 5)
    newest = read_history(project.content, environ={}).entries[0]
    assert newest.edits == (Edit("withdrawn", "rocketkv", ROCKET),)
    build_site(project.config(search=False, social_images=False), Report())
    assert (f'<a href="/papers/rocketkv/">{ROCKET}</a>: its page says so, and it has left the lists'
            in page(project))


def test_the_page_shows_each_change_and_links_the_papers_that_are_still_there(repo, monkeypatch):
    project, commits = repo
    monkeypatch.delenv("CACHED_COMMIT_REF", raising=False)
    build_site(project.config(), Report())
    html = page(project)
    assert '<link rel="alternate" type="application/atom+xml" title="Context Window: changes" href="/changes/feed.xml">' in html
    assert "Since the last deploy" not in html and "without its git history" not in html
    headings = re.findall(r'<h2 id="d-([\d-]+)">([^<]+)</h2>', html)
    assert headings == [("2026-03-04", "4 March 2026"), ("2026-03-03", "3 March 2026"),
                        ("2026-03-02", "2 March 2026"), ("2026-03-01", "1 March 2026")]
    assert f'id="c-{commits["edited"][:7]}"' in html and "RocketKV: the real title, and its tags" in html
    assert f'<a href="/papers/rocketkv/">{ROCKET}</a>: title (was “RocketKV: two stage compression”), tags' in html
    assert f"{ICV} (it was at <code>/papers/icv/</code>)" in html and 'href="/papers/icv/"' not in html
    assert "the old address, <code>/papers/samba/</code>, leads on to it" in html
    assert html.count('href="/papers/samba-hybrid/"') == 2  # the rename and, under its new slug, the addition
    assert "half-done" not in html  # a draft is not published
    assert 'href="/changes/"' in (project.site / "about" / "index.html").read_text()
    assert '<a href="/changes/">Changes</a>' in (project.site / "index.html").read_text()  # in the footer


def test_the_feed_has_an_entry_a_commit_with_ids_that_stay(repo, tmp_path):
    project, commits = repo
    build_site(project.config(), Report())
    first = (project.site / "changes" / "feed.xml").read_bytes()
    feed = feedparser.parse(first)
    assert not feed.bozo, feed.bozo_exception
    assert feed.feed.title == "Changes · Context Window"
    assert [entry.id for entry in feed.entries] == [
        f"tag:localhost,2026-03-0{day}:changes/{commits[name]}"
        for day, name in ((4, "renamed"), (3, "removed"), (2, "edited"), (1, "added"))]
    assert [entry.updated for entry in feed.entries][:2] == ["2026-03-04T12:00:00Z", "2026-03-03T12:00:00Z"]
    assert feed.entries[1].link == f"http://localhost:8000/changes/#c-{commits['removed'][:7]}"
    assert feed.entries[1].summary == f"Removed: {ICV}."
    assert feed.entries[2].summary == f"Changed: {ROCKET} (title, tags)."
    again = replace(project.config(), out_dir=tmp_path / "again", cache_dir=None)
    build_site(again, Report())
    assert (tmp_path / "again" / "changes" / "feed.xml").read_bytes() == first  # the same bytes, no clock
    project.write("content/papers/icv.md", paper("icv", ICV, tags="[in-context-learning]"))
    commit(project.root, "In-context Vectors is back", 5)
    build_site(project.config(), Report())
    ids = [entry.id for entry in feedparser.parse(project.site / "changes" / "feed.xml").entries]
    assert ids[1:] == [entry.id for entry in feed.entries]  # a new commit adds an entry; the others keep theirs


def test_since_the_last_deploy_comes_first(repo, monkeypatch):
    project, commits = repo
    monkeypatch.setenv("CACHED_COMMIT_REF", commits["edited"])
    monkeypatch.setenv("COMMIT_REF", commits["renamed"])
    build_site(project.config(), Report())
    html = page(project)
    since = html[html.index('<h2 id="since-deploy">'):html.index('<h2 id="d-')]
    assert html.index("Since the last deploy") < html.index('<h2 id="d-')
    assert (f"2 changes between commit <code>{commits['edited'][:7]}</code>, the last deploy's, and "
            f"<code>{commits['renamed'][:7]}</code>, this one's.") in since
    assert "Removed</span>\n" in since and ICV in since and "/papers/samba/</code>, leads on" in since
    assert ROCKET not in since  # changed before the last deploy
    monkeypatch.setenv("CACHED_COMMIT_REF", "0123456789abcdef0123456789abcdef01234567")
    build_site(project.config(), Report())  # another deploy's commit: the fast path must not skip it
    assert "which this copy's history does not reach" in page(project)


@pytest.mark.slow  # the quality tier: the Nu Html Checker and axe-core in Chromium
def test_the_page_with_every_kind_of_change_is_valid_and_accessible(repo, monkeypatch):
    """The Nu Html Checker and axe-core (light and dark) on the page, deploy section and all."""
    require(VNU, AXE, CHROMIUM)
    project, commits = repo
    monkeypatch.setenv("CACHED_COMMIT_REF", commits["edited"])
    build_site(project.config(), Report())
    done = subprocess.run(["java", "-jar", str(VNU), "--errors-only", str(project.site / "changes" / "index.html")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    from playwright.sync_api import sync_playwright
    server, found = SiteServer(project.site), {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
            for scheme in ("light", "dark"):
                page = browser.new_page(color_scheme=scheme, bypass_csp=True)  # axe is an inline script
                page.goto(server.url + "changes/")
                page.add_script_tag(path=str(AXE))
                result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
                found.update({f"{scheme} {v['id']}: {v['nodes'][0]['target']}": v["help"] for v in result["violations"]})
            browser.close()
    finally:
        server.stop()
    assert found == {}


def test_without_git_the_page_lists_the_additions_by_their_dates(scratch):
    scratch.write("content/papers/samba.md", paper("samba", "Samba", extra="added: 2026-02-01\n"))
    scratch.write("content/papers/rocketkv.md", paper("rocketkv", ROCKET, extra="added: 2026-03-01\n"))
    scratch.write("content/papers/undated.md", paper("undated", "Undated"))
    assert read_history(scratch.content, environ={}) is None
    build_site(scratch.config(), Report())
    html = page(scratch)
    assert "built without its git history, so this page lists only additions" in html
    assert html.index("1 March 2026") < html.index("1 February 2026")
    assert f'<a href="/papers/rocketkv/">{ROCKET}</a></span></li>' in html and "Undated" not in html
    feed = feedparser.parse(scratch.site / "changes" / "feed.xml")
    assert [(e.id, e.title) for e in feed.entries] == [
        ("tag:localhost,2026-03-01:added/2026-03-01", "1 paper added on 1 March 2026"),
        ("tag:localhost,2026-02-01:added/2026-02-01", "1 paper added on 1 February 2026")]


def test_papers_git_does_not_track_fall_back_to_their_dates(scratch):
    scratch.write("content/papers/samba.md", paper("samba", "Samba", extra="added: 2026-02-01\n"))
    git(scratch.root, "init", "-q")
    git(scratch.root, "add", "content/taxonomy.yaml")
    git(scratch.root, "commit", "-q", "-m", "The vocabulary only")
    assert read_history(scratch.content, environ={}) is None
    build_site(scratch.config(), Report())
    assert "built without its git history" in page(scratch) and "1 February 2026" in page(scratch)


def test_the_fast_path_notices_a_commit(repo):
    """An edit is built at once; the commit of it, which changes no file in content/, must
    still rebuild the changes page."""
    project, _ = repo
    assert build_site(project.config(), Report()).rendered > 0
    assert build_site(project.config(), Report()).rendered == 0  # nothing changed: nothing done
    project.write("content/papers/rocketkv.md", paper("rocketkv", ROCKET, tags="[kv-cache, sparse-attention]",
                                                      extra="added: 2026-03-01\n"))
    build_site(project.config(), Report())
    assert "RocketKV gets sparse attention back" not in page(project)
    commit(project.root, "RocketKV gets sparse attention back", 6)
    assert build_site(project.config(), Report()).rendered == 2  # the page and its feed, nothing else
    assert "RocketKV gets sparse attention back" in page(project)
    assert "RocketKV gets sparse attention back" in (project.site / "changes" / "feed.xml").read_text()


def test_each_commit_is_read_once_then_taken_from_the_cache(repo, tmp_path):
    project, commits = repo
    cache = tmp_path / "cache"
    first = read_history(project.content, cache, environ={})
    with (cache / history.CACHE_FILE).open("rb") as stream:
        stored = pickle.load(stream)[1]
    assert set(stored) == set(commits.values())
    marked = replace(stored[commits["added"]], summary="(from the cache)")
    (cache / history.CACHE_FILE).write_bytes(pickle.dumps((history.FORMAT, {**stored, commits["added"]: marked})))
    assert read_history(project.content, cache, environ={}).entries[-1].summary == "(from the cache)"
    assert read_history(project.content, None, environ={}) == first


def test_a_shallow_clone_shows_less_not_everything_added(repo, tmp_path):
    project, commits = repo
    git(tmp_path, "clone", "-q", "--depth", "2", f"file://{project.root}", "clone")
    found = read_history(tmp_path / "clone" / "content", environ={})
    assert [entry.commit for entry in found.entries] == [commits["renamed"]]  # its parent's has no parent
    shallow = history.state(tmp_path / "clone" / "content")  # what a build compares with its state's
    git(tmp_path / "clone", "fetch", "-q", "--unshallow")  # the same HEAD, more history: the page grows
    assert history.state(tmp_path / "clone" / "content") != shallow


@pytest.mark.slow
@pytest.mark.slow  # the project copied and run as a process
def test_the_frozen_catalogue_builds_its_changes_page(tmp_path):
    """The README's build, on a copy of this repository made a git repository of two commits."""
    project = copy_project(tmp_path / "project")
    git(project, "init", "-q")
    commit(project, "The catalogue", 1)
    samba = project / "content" / "papers" / "samba.md"
    samba.write_text(samba.read_text().replace("title: 'Samba: Simple", "title: 'Samba, corrected: Simple", 1))
    commit(project, "Samba: a corrected title", 2)
    done = run(project, "--no-images")
    assert done.returncode == 0, done.stderr[-3000:]
    html = (project / "site" / "changes" / "index.html").read_text()
    assert "Samba: a corrected title" in html
    assert '<a href="/papers/samba/">Samba, corrected: Simple Hybrid State Space Models' in html
    assert ": title (was “Samba: Simple Hybrid State Space Models" in html
    assert html.count('<span class="change-kind">Added</span>') == 95  # the first commit, every paper
    assert "/changes/\n" in (project / "published-urls.txt").read_text()
    assert "/changes/feed.xml\n" in (project / "published-urls.txt").read_text()
