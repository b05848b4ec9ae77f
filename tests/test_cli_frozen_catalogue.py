"""The documented commands on a copy of this repository with the frozen catalogue (95 papers,
its ledger; tests/fixtures/catalogue), run as processes in the project folder.

Toy sites test the parts; these test what curators actually run, the way they run it, so a
catalogue that only breaks at full size, or only with a real ledger, breaks here first. Nothing
here touches the real content/, site/ or .cache/. Marked slow (about a minute each): run in CI,
or locally with --slow. The live catalogue's own checks are in tests/test_catalogue_live.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import FROZEN, copy_project, run, tree
from test_serve_watch import Watching

PAGES = ("", "papers/samba/", "search/", "tags/kv-cache/")
OVERLAY = 'id="watch-overlay"'


def errors(output: str) -> list[str]:
    """The `path:line: message — fix` lines that are errors (not warnings or notes)."""
    return sorted(line for line in output.splitlines()
                  if re.match(r"\S+?(:\d+)?: (?!warning: |note: )", line) and " — " in line)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The repository, copied and built with the README's build command."""
    project = copy_project(tmp_path_factory.mktemp("real") / "project")
    done = run(project)
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"Built \d+ pages \(95 papers;", done.stdout), done.stdout
    return project


@pytest.fixture
def project(built, tmp_path) -> Path:
    """A copy of the built project of its own, to edit."""
    return copy_project(tmp_path / "project", built)


@pytest.mark.slow
def test_a_first_build_that_fails_shows_why_at_every_address(project):
    samba = project / "content/papers/samba.md"
    good = samba.read_text()
    samba.write_text(good.replace("venue: ICLR 2025", "venue: ICRL 2025"))
    server = Watching(project)
    try:
        for path in PAGES:
            status, html = server.get(path)
            assert OVERLAY in html and "The first build failed" in html, path
            assert "content/papers/samba.md:5: unknown venue `ICRL 2025` — did you mean `ICLR 2025`?" in html
            assert '<script src="/__watch/client.js"></script>' in html  # so the fix reloads the tab
        samba.write_text(good)  # not atomic: a rebuild may read it half-written and fail once more
        assert server.events.wait("reload", timeout=30)
        deadline = time.monotonic() + 30
        while (served := server.get("papers/samba/"))[0] != 200 and time.monotonic() < deadline:
            assert server.events.wait("reload", timeout=deadline - time.monotonic())  # each rebuild reloads
        status, html = served
        assert status == 200 and OVERLAY not in html, "\n".join(server.lines)
    finally:
        server.stop()


def rename_slug(project: Path) -> None:
    path = project / "content/papers/samba.md"
    path.write_text(path.read_text().replace("slug: samba\n", "slug: samba-hybrid\n"))


def delete_paper(project: Path) -> None:
    (project / "content/papers/hip.md").unlink()


def duplicate_alias(project: Path) -> None:
    for name in ("samba.md", "hip.md"):
        path = project / "content/papers" / name
        path.write_text(path.read_text().replace("aliases: []", "aliases: [long-context-hybrid]"))


def broken_link(project: Path) -> None:
    path = project / "content/papers/hip.md"
    path.write_text(path.read_text() + "\nCompare [Samba](/papers/sambaa/).\n")


@pytest.mark.slow
@pytest.mark.parametrize("breakage, expected", [
    (rename_slug, "published-urls.txt:{line}: /papers/samba/ was published, and this build would drop it"),
    (delete_paper, "published-urls.txt:{line}: /papers/hip/ was published, and this build would drop it"),
    (duplicate_alias, "content/papers/samba.md:{line}: alias `long-context-hybrid` is already an alias of"),
    (broken_link, "content/papers/hip.md:{line}: the link /papers/sambaa/ leads to no page"),
])
def test_check_and_build_find_the_same_errors(project, breakage, expected):
    breakage(project)
    site = tree(project / "site", mtimes=True)
    check, build = run(project, "check"), run(project)
    assert check.returncode == 1 and build.returncode == 1
    assert errors(check.stderr) == errors(build.stderr), (check.stderr[-2000:], build.stderr[-2000:])
    pattern = re.escape(expected).replace(re.escape("{line}"), r"\d+")
    assert any(re.match(pattern, line) for line in errors(check.stderr)), check.stderr[-2000:]
    assert tree(project / "site", mtimes=True) == site  # the last good site, untouched


@pytest.mark.slow
def test_a_published_build_has_no_review_page_and_no_link_to_one(built):
    assert not (built / "site" / "_review").exists()
    assert "/_review/" not in (built / "site" / "index.html").read_text()


def git(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-c", "user.name=Curator", "-c", "user.email=c@example.org", *args],
                          cwd=project, capture_output=True, text=True)


NEW_PAPER = """---
title: '{title}'
title_source: curated
slug: {slug}
venue: ICML 2025
tags: [kv-cache, efficient-inference]
---

We study {slug} for long contexts, a method that keeps the key-value cache small while decoding long
inputs, and measure its memory and accuracy on long-context benchmarks of many kinds.
"""


def add_paper(project: Path, branch: str, slug: str) -> None:
    assert git(project, "checkout", "-q", "-b", branch, "main").returncode == 0
    (project / f"content/papers/{slug}.md").write_text(NEW_PAPER.format(title=slug.title(), slug=slug))
    assert run(project, "--no-images", "--no-search").returncode == 0  # extends the ledger
    git(project, "add", "-A")
    assert git(project, "commit", "-qm", f"add {slug}").returncode == 0


@pytest.mark.slow
def test_two_branches_that_each_add_a_paper_merge_cleanly(project):
    """The ledger is a set: union merge, then the next build writes it sorted, once each."""
    assert git(project, "init", "-q", "-b", "main").returncode == 0
    (project / ".gitignore").write_text("site/\n.cache/\n.site-watch/\n")
    git(project, "add", "-A")
    assert git(project, "commit", "-qm", "the catalogue").returncode == 0
    assert git(project, "check-attr", "merge", "published-urls.txt").stdout.strip() == "published-urls.txt: merge: union"
    add_paper(project, "add-one", "samba-kva")  # both land right after /papers/samba/: the very lines
    add_paper(project, "add-two", "samba-kvb")  # a line-based merge calls a conflict
    git(project, "checkout", "-q", "main")
    assert git(project, "merge", "-q", "add-one").returncode == 0
    merged = git(project, "merge", "-q", "--no-edit", "add-two")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    ledger = (project / "published-urls.txt").read_text()
    assert "<<<<<<<" not in ledger and "/papers/samba-kva/" in ledger and "/papers/samba-kvb/" in ledger
    assert run(project, "--no-images", "--no-search").returncode == 0
    urls = [line for line in (project / "published-urls.txt").read_text().splitlines() if not line.startswith("#")]
    assert urls == sorted(set(urls)) and {"/papers/samba-kva/", "/papers/samba-kvb/"} <= set(urls)
    git(project, "checkout", "-q", "-b", "without-union", "main~2")  # the same merge, without the union
    (project / ".gitattributes").write_text("")
    git(project, "commit", "-qam", "no union merge")
    assert git(project, "merge", "-q", "add-one").returncode == 0
    assert "CONFLICT" in git(project, "merge", "--no-edit", "add-two").stdout


@pytest.mark.slow
def test_a_conflict_left_in_a_paper_is_an_error_at_its_line_in_every_mode(project):
    assert git(project, "init", "-q", "-b", "main").returncode == 0
    (project / ".gitignore").write_text("site/\n.cache/\n.site-watch/\n")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "the catalogue")
    samba = project / "content/papers/samba.md"
    for branch, title in (("one", "Samba One"), ("two", "Samba Two")):
        git(project, "checkout", "-q", "-b", branch, "main")
        samba.write_text(re.sub(r"^title: .*$", f"title: '{title}'", samba.read_text(), count=1, flags=re.M))
        git(project, "commit", "-qam", title)
    git(project, "checkout", "-q", "one")
    assert git(project, "merge", "-q", "two").returncode != 0  # a real conflict
    expected = ("content/papers/samba.md:2: an unresolved merge conflict (git's `<<<<<<<` line) — keep what both "
                "sides meant, then delete the `<<<<<<<`, `=======` and `>>>>>>>` lines")
    check, build = run(project, "check"), run(project)
    assert errors(check.stderr) == errors(build.stderr) == [expected]


@pytest.mark.slow
def test_the_site_address_comes_from_the_site_file_or_from_netlify(built, tmp_path):
    """A plain build writes content/site.yaml's address; a Netlify deploy preview, its own,
    kept from search engines."""
    address = re.search(r"^url: (\S+)", (built / "content/site.yaml").read_text(), re.M)[1]
    samba = (built / "site/papers/samba/index.html").read_text()
    assert f'<link rel="canonical" href="{address}papers/samba/">' in samba
    assert f'<meta property="og:url" content="{address}papers/samba/">' in samba
    assert "localhost" not in (built / "site/feed.xml").read_text()
    preview = "https://deploy-preview-7--context-window.netlify.app/"
    done = subprocess.run([sys.executable, "build.py", "--no-images", "--no-search", "--out", str(tmp_path / "out")],
                          cwd=built, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "NETLIFY": "true", "CONTEXT": "deploy-preview",
                               "URL": address, "DEPLOY_PRIME_URL": preview.rstrip("/")})
    assert done.returncode == 0, done.stderr[-2000:]
    samba = (tmp_path / "out/papers/samba/index.html").read_text()
    assert f'<link rel="canonical" href="{preview}papers/samba/">' in samba
    assert '<meta name="robots" content="noindex">' in samba


@pytest.mark.slow
def test_a_second_build_does_nothing_and_an_edit_renders_only_what_it_touches(project):
    first = run(project)  # a copy elsewhere: the cache's settings name other folders, so a clean build
    assert first.returncode == 0, first.stderr[-3000:]
    again = run(project)
    assert re.search(r"^  rendered now +\| +0$", again.stdout, re.M), again.stdout
    assert "load" not in again.stdout.rpartition("stage")[2]  # nothing changed: nothing loaded
    samba = project / "content/papers/samba.md"
    samba.write_text(samba.read_text(encoding="utf-8").replace("\n---\n\n", "\n---\n\nRevised. ", 1), encoding="utf-8")
    edited = run(project)
    rendered = int(re.search(r"^  rendered now +\| +(\d+)$", edited.stdout, re.M).group(1))
    assert 0 < rendered < 60, edited.stdout  # its page, its citations, the lists of citations it is in (of 1,266 files)
    fresh = run(project, "--fresh", "--out", "fresh")
    assert fresh.returncode == 0, fresh.stderr[-3000:]
    assert tree(project / "site") == tree(project / "fresh")


def test_every_real_abstract_renders_to_the_same_bytes_with_or_without_the_prose_shortcut(monkeypatch):
    """The catalogue's own abstracts, rendered with the shortcut for plain prose and all through
    Markdown, give the same bytes (the shortcut is taken for about half of them)."""
    import catalogue.render.markup as markup
    abstracts = [path.read_text(encoding="utf-8").split("---\n", 2)[2]
                 for path in sorted((FROZEN / "content/papers").glob("*.md"))]
    taken = sum(not markup.markup_syntax(markup.cut_math(text)[0]) for text in abstracts)
    renderer = markup.Markup()
    shortcut = [renderer.render(text) for text in abstracts]
    monkeypatch.setattr(markup, "_MARKDOWN_SYNTAX", re.compile(""))
    assert [renderer.render(text) for text in abstracts] == shortcut
    assert len(abstracts) >= 95 and taken >= len(abstracts) // 3
