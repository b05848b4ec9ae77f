"""A build killed at any moment leaves the last good site whole; the next run cleans up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import paper
from helpers import tree


def build(code, site, out=None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(code / "build.py"), "--content", str(site.content),
                             "--out", str(out or site.site), "--no-images"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@pytest.mark.slow  # a dozen builds of 150 papers, eight of them killed
def test_killing_a_build_at_any_moment_keeps_the_last_good_site(small_site, code):
    assert build(code, small_site).wait() == 0
    good = tree(small_site.site)
    for number in range(150):  # the next build has more to do, so that there are moments to kill it in
        small_site.write(f"content/papers/p{number}.md", paper(f"p{number}", f"Paper {number}",
                                                                body=f"KV cache compression, variant {number}."))
    started = time.perf_counter()
    assert build(code, small_site).wait() == 0
    duration = time.perf_counter() - started
    assert build(code, small_site).wait() == 0
    finished = tree(small_site.site)
    small_site.write("content/papers/p0.md", paper("p0", "Paper 0, revised"))
    assert build(code, small_site, small_site.root / "revised").wait() == 0
    revised = tree(small_site.root / "revised")
    outcomes = []
    for moment in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 1.1):
        process = build(code, small_site)
        time.sleep(duration * moment)
        process.send_signal(signal.SIGKILL)
        process.wait()
        now = tree(small_site.site)
        assert now in (finished, revised), moment  # the old site or the new one, whole: never a mix
        assert (small_site.site / "pagefind/pagefind.js").is_file()
        outcomes.append(now == revised)
    assert build(code, small_site).wait() == 0
    assert "Paper 0, revised" in (small_site.site / "papers/p0/index.html").read_text()
    # Interrupted builds' folders are cleared; the site the last build replaced is kept, to build the next in.
    assert [p.name for p in small_site.root.iterdir() if p.name.startswith(".build-")] == [".build-site-spare"]
    assert good != finished and outcomes.count(False) >= 3  # most kills did land before the swap


def test_the_kept_spare_site_stays_out_of_a_repository_that_ignores_only_the_site(small_site, code):
    """A curator's repository may ignore just `site/`; `git add -A` must not take in the spare."""
    git = ["git", "-C", str(small_site.root)]
    subprocess.run([*git, "init", "-q"], check=True)
    small_site.write(".gitignore", "site/\n.cache/\n")
    for _ in range(2):  # the second build replaces a site, and keeps it as the spare
        small_site.write("content/papers/p0.md", paper("p0", f"Paper 0, build {_}"))
        assert build(code, small_site).wait() == 0
    assert (small_site.root / ".build-site-spare/index.html").is_file()
    status = subprocess.run([*git, "status", "--porcelain", "--untracked-files=all"],
                            capture_output=True, text=True, check=True).stdout
    assert "content/papers/p0.md" in status and ".build-" not in status
    assert not (small_site.site / ".gitignore").exists()


def test_a_staged_write_makes_a_new_file_in_place_and_never_writes_through_a_link_to_the_live_site(tmp_path):
    from catalogue.files import signature, write_staged
    live, staging = tmp_path / "site", tmp_path / "staging"
    (live / "papers/a").mkdir(parents=True)
    (live / "papers/a/index.html").write_bytes(b"old")
    (staging / "papers/a").mkdir(parents=True)
    os.link(live / "papers/a/index.html", staging / "papers/a/index.html")  # as `seed` keeps it
    assert write_staged(staging / "papers/a/index.html", b"new") == signature(staging / "papers/a/index.html")
    assert (live / "papers/a/index.html").read_bytes() == b"old"  # the live site is untouched
    assert (staging / "papers/a/index.html").read_bytes() == b"new"
    assert write_staged(staging / "papers/b/cite.bib", b"@x") == signature(staging / "papers/b/cite.bib")
    assert (staging / "papers/b/cite.bib").read_bytes() == b"@x" and not list(staging.rglob(".*.tmp"))
