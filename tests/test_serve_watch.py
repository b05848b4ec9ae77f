"""Watch mode as a curator uses it: a real process, a real HTTP server, real file edits."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import paper
from helpers import built, differences, tree

from catalogue.config import PROJECT_ROOT

STARTUP_SECONDS = 20
MARKER = ".catalogue-site"  # what a build leaves in the folders it owns


class Events:
    """A Server-Sent Events client, as the page at `page` opens it in a browser: collects event
    names as they arrive."""

    def __init__(self, base: str, page: str = "/"):
        self.page = page
        host, port = re.match(r"http://([^:/]+):(\d+)/", base).groups()
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)
        self.connection.request("GET", f"/__watch/events?page={urllib.parse.quote(page)}")
        self.response = self.connection.getresponse()
        self.names: queue.Queue[tuple[str, str]] = queue.Queue()
        self.connected = threading.Event()  # the server counts events for this client from then on
        threading.Thread(target=self._read, daemon=True).start()
        self.connected.wait(10)

    def _read(self) -> None:
        name = ""
        try:
            for line in iter(self.response.fp.readline, b""):
                self.connected.set()
                if line.startswith(b"event: "):
                    name = line[7:].strip().decode()
                elif line.startswith(b"data: ") and name:
                    self.names.put((name, line[6:].strip().decode()))
                    name = ""
        except (OSError, ValueError):
            pass

    def wait(self, name: str, timeout: float = 10, mine: bool = False) -> bool:
        """Whether an event `name` comes within `timeout`; with `mine`, one for this client's
        page (as the browser's script reloads only for its page)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                kind, data = self.names.get(timeout=deadline - time.monotonic())
            except queue.Empty:
                return False
            if kind == name and (not mine or data == "*" or self.page in json.loads(data)):
                return True
        return False

    def close(self) -> None:
        self.connection.close()


def _ctrl_c_as_in_a_terminal() -> None:
    """In the child: Ctrl-C (SIGINT) as a terminal delivers it. A suite started in the background
    (`cmd &` in a script, nohup) inherits SIGINT ignored, and Python then never raises
    KeyboardInterrupt, so watch mode could not be stopped the way people stop it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class WatchProcess:
    """`build.py --watch` on a copy of a small site, with its output read line by line."""

    def __init__(self, root: Path, *extra: str, code: Path | None = None, startup_seconds: float = STARTUP_SECONDS,
                 as_is: bool = False, port: int = 0):
        """With `as_is`, run the project's own `build.py --watch --port 0` in `root`, as the README
        says; else the build.py in `code` (the `code` fixture: this checkout's, copied, so that its
        .cache/ is not the repository's), pointed at the folders of `root`."""
        assert as_is or code, "give the code to run"
        self.root = root
        self.startup_seconds = startup_seconds
        self.lines: list[str] = []
        folders = [] if as_is else ["--content", str(root / "content"), "--out", str(root / "out"),
                                    "--templates", str(root / "templates"), "--static", str(root / "static")]
        self.process = subprocess.Popen(
            [sys.executable, "build.py" if as_is else str(code / "build.py"), "--watch", "--port", str(port),
             *folders, *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=root,
            preexec_fn=_ctrl_c_as_in_a_terminal)
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self._wait_for_url()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def _wait_for_url(self) -> str:
        deadline = time.monotonic() + self.startup_seconds
        while time.monotonic() < deadline:
            for line in self.lines:
                if line.startswith("Serving "):
                    return line.split()[1]
            assert self.process.poll() is None, "\n".join(self.lines)
            time.sleep(0.05)
        raise AssertionError("watch mode did not start:\n" + "\n".join(self.lines))

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def rebuilds(self, kind: str = "") -> int:
        """How many rebuilds (those for a change of `kind`, if given) ended so far."""
        return sum(line.startswith(("rebuilt in", "build failed")) and kind in line.partition(":")[0]
                   for line in self.lines)

    def settled(self, before: int, kind: str = "papers", timeout: float = 20) -> bool:
        """Whether a rebuild for a change of `kind` (papers, templates…) ends after the first
        `before`: the whole rebuild, not only its first pages."""
        deadline = time.monotonic() + timeout
        while self.rebuilds(kind) <= before:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Watching(WatchProcess):
    """`python build.py --watch --port 0` in a project folder, with the reload streams of two
    browser tabs: one on the home page, one on the review list."""

    def __init__(self, project: Path):
        super().__init__(project, startup_seconds=60, as_is=True)
        self.events = Events(self.url)
        self.review = Events(self.url, "/_review/")

    def stop(self) -> None:
        self.events.close()
        self.review.close()
        super().stop()


@pytest.fixture
def watch(small_site, code):
    shutil.copytree(PROJECT_ROOT / "templates", small_site.root / "templates")
    shutil.copytree(PROJECT_ROOT / "static", small_site.root / "static")
    process = WatchProcess(small_site.root, "--no-search", code=code)
    events = Events(process.url)
    yield small_site, process, events
    events.close()
    process.stop()


def test_an_edit_rewrites_the_page_and_reloads_the_browser(watch):
    site, server, events = watch
    status, html = server.get("papers/rocketkv/")
    assert status == 200 and "RocketKV: Two-Stage" in html
    assert '<script src="/__watch/client.js"></script>' in html
    samba = site.content / "papers/rocketkv.md"
    samba.write_text(samba.read_text().replace("RocketKV: Two-Stage", "RocketKV: Three-Stage"))
    assert events.wait("reload")
    assert "RocketKV: Three-Stage" in server.get("papers/rocketkv/")[1]
    on_disk = (site.root / "out/papers/rocketkv/index.html").read_text()
    assert "__watch" not in on_disk  # the reload snippet is added while serving, never written


def test_a_bad_edit_shows_an_overlay_and_a_fix_recovers(watch):
    site, server, events = watch
    path = site.content / "papers/icv.md"
    good = path.read_text()
    path.write_text(good.replace("tags: [in-context-learning, kv-cache]", "tags: [in-context-learnin]"))
    assert events.wait("reload")
    status, html = server.get("papers/icv/")
    assert status == 200 and 'id="watch-overlay"' in html
    assert f"{path}:6: unknown tag `in-context-learnin` — did you mean `in-context-learning`?" in html
    assert "In-context Vectors" in html  # the last good page is still served
    assert 'id="watch-overlay"' in server.get("tags/")[1]  # on every page
    assert f"{path}:6: unknown tag" in "\n".join(server.lines)
    path.write_text(good.replace("In-context Vectors", "In-context Vectors, Fixed"))
    assert events.wait("reload")
    status, html = server.get("papers/icv/")
    assert 'id="watch-overlay"' not in html and "In-context Vectors, Fixed" in html
    assert server.process.poll() is None


def test_a_broken_template_never_ends_the_process(watch):
    site, server, events = watch
    template = site.root / "templates/paper.html"
    good = template.read_text()
    template.write_text(good.replace("{% endblock %}", "{% endblok %}", 1))
    assert events.wait("reload")
    html = server.get("papers/samba/")[1]
    assert re.search(r"templates/paper\.html:\d+: template syntax error", html)
    template.write_text(good)
    assert events.wait("reload")
    assert 'id="watch-overlay"' not in server.get("papers/samba/")[1]
    assert server.process.poll() is None


def test_deleted_paper_disappears_and_new_one_appears(watch):
    site, server, events = watch
    open_page = Events(server.url, "/papers/rocketkv/")  # a browser showing the paper
    (site.content / "papers/rocketkv.md").unlink()
    assert open_page.wait("reload", mine=True)
    open_page.close()
    assert server.get("papers/rocketkv/")[0] == 404
    temporary = site.content / "papers/.new.md.tmp"
    temporary.write_text(paper("fresh", "A Fresh Paper"))
    before = server.rebuilds("papers")
    os.replace(temporary, site.content / "papers/fresh.md")  # how editors save: atomic rename
    assert server.settled(before)
    assert "A Fresh Paper" in server.get("papers/fresh/")[1]


def test_links_from_the_pages_written_first_into_pages_the_rebuild_adds_are_not_broken(watch):
    """The edited paper's page and the pages open in a browser come first; the new paper's
    author pages and citation files, and a new guide in every page's navigation, come in the
    same rebuild, so a link into them is never reported, not even for a moment."""
    site, server, events = watch
    home = Events(server.url, "/")  # a browser showing the home page, whose navigation gains the guide
    for relative, text, kind in (
            ("papers/fresh.md", paper("fresh", "A Fresh Paper", extra="authors: [Zed Newcomer]\n"), "papers"),
            ("pages/reading-guide.md", "---\ntitle: Reading guide\n---\n\nStart with the themes.\n", "site")):
        target = site.content / relative
        target.parent.mkdir(exist_ok=True)
        temporary = target.with_name(".saving.tmp")
        temporary.write_text(text)
        before = server.rebuilds(kind)
        os.replace(temporary, target)
        assert server.settled(before, kind)
    assert server.get("authors/zed-newcomer/")[0] == 200 and server.get("pages/reading-guide/")[0] == 200
    assert "reloaded" in "\n".join(server.lines)  # the first pages were written first
    assert not [line for line in server.lines if "leads to no page" in line]
    assert 'id="watch-overlay"' not in server.get("")[1]
    typo = site.content / "papers/typo.md"  # a new paper again, and this time a link that leads nowhere
    typo.write_text(paper("typo", "A Typo", extra="authors: [Nia Newer]\n", body="See [it](/papers/rocketvk/)."))
    html = overlay_once(server, "papers/typo/", present=True)
    assert f"{typo}:10: the link /papers/rocketvk/ leads to no page — fix the link in the abstract" in html
    home.close()


def test_a_new_guide_and_an_introduction_are_served_and_a_bad_one_shown_at_its_line(watch):
    site, server, events = watch
    guide = site.content / "pages/reading-guide.md"
    site.write("content/pages/reading-guide.md", "---\ntitle: Reading guide\n---\n\nStart with the themes.\n")
    # a new folder's file may be seen before it is written (an error, shown, then fixed): wait for the page
    assert wait_until(lambda: "Start with the themes." in server.get("pages/reading-guide/")[1])
    assert '<a href="/pages/reading-guide/">Reading guide</a>' in server.get("papers/samba/")[1]  # navigation
    site.write("content/intros/tags/kv-cache.md", "Caches that keep memory bounded.\n")  # new folders too
    assert wait_until(lambda: "Caches that keep memory bounded." in server.get("tags/kv-cache/")[1])
    guide.write_text("---\ntitel: Reading guide\n---\n\nStart with the themes.\n")
    message = f"{guide}:2: unknown key `titel` — did you mean `title`?"
    assert wait_until(lambda: message in server.get("pages/reading-guide/")[1])
    assert "Start with the themes." in server.get("pages/reading-guide/")[1]  # the last good page, still served
    assert server.process.poll() is None


def overlay_once(server, path: str, present: bool, seconds: float = 20) -> str:
    """The page once its error overlay is there (or gone): a background check may come later."""
    deadline = time.monotonic() + seconds
    while ('id="watch-overlay"' in (html := server.get(path)[1])) != present:
        if time.monotonic() > deadline:
            raise AssertionError(f"the overlay is {'not ' if present else ''}on /{path}")
        time.sleep(0.1)
    return html


def test_a_broken_link_in_an_abstract_is_shown_at_its_line_until_fixed(watch):
    site, server, events = watch
    path = site.content / "papers/icv.md"
    good = path.read_text()
    path.write_text(good + "\nSee [the other paper](/papers/rocketvk/).\n")
    assert events.wait("reload")
    html = overlay_once(server, "papers/samba/", present=True, seconds=0)  # at once, on every page
    line = good.count("\n") + 2
    assert "Broken links: the pages are up to date" in html
    assert f"{path}:{line}: the link /papers/rocketvk/ leads to no page — fix the link in the abstract" in html
    path.write_text(good + "\nSee [the other paper](/papers/rocketkv/).\n")
    assert events.wait("reload")
    overlay_once(server, "papers/samba/", present=False, seconds=0)


def test_deleting_a_paper_another_abstract_links_to_is_caught_once_edits_settle(watch):
    site, server, events = watch
    path = site.content / "papers/lonely.md"  # alone in its venue and tag: no list ties it to rocketkv
    path.write_text(paper("lonely", "Lonely", "NeurIPS 2023", "[long-tailed-learning]",
                          "Rare classes, and a pointer to [RocketKV](/papers/rocketkv/)."))
    assert events.wait("reload")
    overlay_once(server, "papers/lonely/", present=False, seconds=3)
    removed = (site.content / "papers/rocketkv.md").read_text()
    (site.content / "papers/rocketkv.md").unlink()
    assert events.wait("reload")
    html = overlay_once(server, "papers/lonely/", present=True)
    assert f"{path}:9: the link /papers/rocketkv/ leads to no page — fix the link in the abstract" in html
    (site.content / "papers/rocketkv.md").write_text(removed)
    overlay_once(server, "papers/lonely/", present=False)


def test_swap_and_backup_files_are_ignored(watch):
    site, server, events = watch
    before = server.rebuilds()
    (site.content / "papers/.samba.md.swp").write_bytes(b"\x00vim swap")
    (site.content / "papers/samba.md~").write_text("backup")
    (site.content / "papers/.#samba.md").write_text("lock")
    assert not events.wait("reload", timeout=0.5)
    assert server.rebuilds() == before


def test_a_burst_of_changes_gives_one_rebuild(watch):
    site, server, events = watch
    before = server.rebuilds("papers")
    texts = {f"burst{i}.md": paper(f"burst{i}", f"Burst {i}") for i in range(50)}
    for name, text in texts.items():
        (site.content / "papers" / name).write_text(text)
    assert server.settled(before)
    time.sleep(0.5)
    assert server.rebuilds("papers") == before + 1, server.lines
    assert server.get("papers/burst49/")[0] == 200


def test_watch_output_equals_a_clean_build(watch):
    site, server, events = watch
    papers = site.content / "papers"
    edits = [lambda: (papers / "icv.md").write_text(paper("icv", "Zebra", tags="[kv-cache]")),
             lambda: (papers / "samba.md").unlink(),
             lambda: (papers / "draft.md").write_text(paper("draft", "Half Done", extra="draft: true\n"))]
    for edit in edits:
        before = server.rebuilds("papers")
        edit()
        assert server.settled(before)
    assert "Draft" in server.get("papers/draft/")[1]
    config = replace(site.config(search=False, drafts=True, base_url=server.url, site_files=False,
                                 templates_dir=site.root / "templates", static_dir=site.root / "static"),
                     out_dir=site.root / "clean")
    built(config)
    watched, clean = without_review(site.root / "out"), without_review(config.out_dir)
    assert not (different := differences(clean, watched, ("clean", "watched"))), different


def test_search_index_is_refreshed_after_a_quiet_moment(small_site, code):
    shutil.copytree(PROJECT_ROOT / "templates", small_site.root / "templates")
    shutil.copytree(PROJECT_ROOT / "static", small_site.root / "static")
    server = WatchProcess(small_site.root, code=code)
    events = Events(server.url)
    try:
        assert events.wait("search", timeout=20)
        (small_site.content / "papers/zeta.md").write_text(paper("zeta", "ZETA", body="Zorder curves for attention."))
        assert events.wait("reload")
        assert events.wait("search", timeout=20)
        entry = json.loads((small_site.root / "out/pagefind/pagefind-entry.json").read_text())
        assert [language["page_count"] for language in entry["languages"].values()] == [4]  # zeta is indexed
        assert any(line.startswith("search index refreshed in") for line in server.lines)
    finally:
        events.close()
        server.stop()


def test_no_event_is_lost_when_two_come_at_once(tmp_path):
    from catalogue.serve.server import DevServer
    server = DevServer(tmp_path, port=0)
    try:
        seen = server.events_sent()
        server.reload()
        server.reload(["/papers/samba/"])
        server.reload(event="search")
        events, seen = server.next_events(seen)
        assert events == [("reload", "*"), ("reload", '["/papers/samba/"]'), ("search", "*")]
        server.reload()
        assert server.next_events(seen) == ([("reload", "*")], 4)
    finally:
        server.httpd.server_close()


def test_related_papers_refreshed_in_the_background_end_as_a_clean_build(small_site, monkeypatch):
    """At scale, watch mode renders with the last related papers and works out new ones in the
    background; once it settles the output is the clean build's. Here the inline limit is 0."""
    from catalogue import builder
    from catalogue.serve.server import DevServer
    from catalogue.serve.watch import Watcher
    monkeypatch.setattr(builder, "SIMILARITY_INLINE_LIMIT", 0)
    root = small_site.root
    config = small_site.config(search=False, drafts=True, site_files=False, out_dir=root / "out")
    server = DevServer(config.out_dir, port=0)
    config = replace(config, base_url=server.url)
    lines: list[str] = []
    watcher = Watcher(config, server, log=lines.append)
    rocketkv = root / "out/papers/rocketkv/index.html"
    try:
        watcher.start()  # the first build works related papers out at once: there are none yet
        assert 'href="/papers/samba/"' in related_section(rocketkv)
        edited = small_site.content / "papers/samba.md"
        edited.write_text(paper("samba", "Samba", tags="[state-space-models]", body="Mamba and nothing else."))
        watcher.changed_paths([edited])
        assert wait_until(lambda: 'href="/papers/samba/"' not in related_section(rocketkv)), lines
        assert wait_until(lambda: not watcher.builder.wanted and any("related papers" in line for line in lines))
        time.sleep(0.3)  # the rebuild that follows the result
        clean = replace(config, out_dir=root / "clean")
        built(clean)
        assert without_review(root / "out") == without_review(clean.out_dir)
        assert not [line for line in lines if "failed" in line or "error" in line]
    finally:
        watcher.stop()
        server.httpd.server_close()


def without_review(folder: Path) -> dict[str, bytes]:
    """The files of a watch preview but the review page, whose tags to confirm come from a
    background job that a one-off build has not run."""
    return {name: data for name, data in tree(folder, ignore=[MARKER]).items() if not name.startswith("_review/")}


def related_section(page: Path) -> str:
    html = page.read_text()
    return html[html.index('id="related"'):html.index('id="cite"')]


def wait_until(condition, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def children(pid: int) -> dict[int, str]:
    """The live child processes of `pid`, with their command lines."""
    found = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        for child in (task / "children").read_text().split() if (task / "children").exists() else []:
            try:
                found[int(child)] = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                pass
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.parametrize("ending", [signal.SIGINT, signal.SIGKILL])
def test_no_background_process_outlives_watch_mode(small_site, code, ending):
    shutil.copytree(PROJECT_ROOT / "templates", small_site.root / "templates")
    shutil.copytree(PROJECT_ROOT / "static", small_site.root / "static")
    server = WatchProcess(small_site.root, code=code)  # with search: Pagefind runs too
    pid = server.process.pid
    assert wait_until(lambda: any("spawn_main" in c for c in children(pid).values()), timeout=30), children(pid)
    workers = list(children(pid))
    server.process.send_signal(ending)
    try:
        server.process.wait(timeout=10)  # a Ctrl-C is never lost, whichever thread the kernel hands it
    finally:
        server.process.kill()
    assert wait_until(lambda: not any(alive(w) for w in workers)), \
        [w for w in workers if alive(w)]


def test_a_restart_starts_where_the_last_session_left(small_site, code):
    """Watch mode saves its state when it stops: a restart with nothing changed renders nothing,
    and one after edits made while it was not running renders what they reach, and no more: the
    bytes of a clean build."""
    shutil.copytree(PROJECT_ROOT / "templates", small_site.root / "templates")
    shutil.copytree(PROJECT_ROOT / "static", small_site.root / "static")
    port = free_port()  # the address is one of watch mode's settings: the same for each start

    def start() -> tuple[WatchProcess, str]:
        server = WatchProcess(small_site.root, "--no-search", code=code, port=port)
        assert server.get("papers/samba/")[0] == 200
        assert server.settled(0, "start")  # a restart serves at once, and looks at what changed meanwhile
        server.stop()
        return server, next(line for line in server.lines if line.startswith("rebuilt in"))
    first, line = start()
    assert "(start: everything)" in line and int(re.search(r"(\d+) page", line).group(1)) > 30
    again, line = start()
    assert line.endswith("(start: nothing changed): 0 page(s) written, 0 removed"), line
    papers = small_site.content / "papers"
    (papers / "icv.md").write_text((papers / "icv.md").read_text().replace("In-context Vectors", "Steering Vectors"))
    (papers / "extra.md").write_text(paper("extra", "An Extra Paper", "ICML 2024", "[kv-cache]"))  # no new venue or tag
    (small_site.root / "out/papers/ghost").mkdir()
    (small_site.root / "out/papers/ghost/index.html").write_text("written by a session killed before it saved")
    third, line = start()
    written = int(re.search(r"(\d+) page", line).group(1))
    assert "(start: papers)" in line and 0 < written < 30, line
    clean = replace(small_site.config(search=False, drafts=True, base_url=f"http://127.0.0.1:{port}/",
                                      site_files=False, templates_dir=small_site.root / "templates",
                                      static_dir=small_site.root / "static"), out_dir=small_site.root / "clean")
    built(clean)
    assert not (different := differences(without_review(clean.out_dir), without_review(small_site.root / "out"),
                                         ("clean", "restarted"))), different


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_restart_shows_again_the_broken_links_the_last_session_showed(small_site, code):
    shutil.copytree(PROJECT_ROOT / "templates", small_site.root / "templates")
    shutil.copytree(PROJECT_ROOT / "static", small_site.root / "static")
    path = small_site.content / "papers/icv.md"
    path.write_text(path.read_text() + "\nSee [the other paper](/papers/rocketvk/).\n")
    port = free_port()
    for start in ("cold", "again"):  # the restart has nothing to render, and no background result to take
        server = WatchProcess(small_site.root, "--no-search", code=code, port=port)
        try:
            html = overlay_once(server, "papers/samba/", present=True, seconds=10)
            assert f"{path}:" in html and "the link /papers/rocketvk/ leads to no page" in html
            assert start == "again" or server.settled(0, "review")  # the review list is in the state saved
        finally:
            server.stop()
    rebuilt = [line for line in server.lines if line.startswith("rebuilt in")]
    assert len(rebuilt) == 1 and rebuilt[0].endswith("(start: nothing changed): 0 page(s) written, 0 removed")


def test_new_site_settings_rebuild_every_page_and_bad_ones_keep_the_last(watch):
    site, server, events = watch
    settings = site.content / "site.yaml"
    good = settings.read_text()
    settings.write_text(good.replace("title: Context Window", "title: Long Context Digest"))
    assert events.wait("reload")
    assert server.settled(0, "everything")
    assert "Long Context Digest" in server.get("papers/samba/")[1]
    settings.write_text(good.replace("title: Context Window", "title: [unclosed"))
    assert events.wait("reload")
    html = overlay_once(server, "papers/samba/", present=True, seconds=10)
    assert str(settings) in html and "internal error" not in html  # said as bad content is, at its file
    assert "Long Context Digest" in html  # the last good pages, still served
    settings.write_text(good)
    overlay_once(server, "papers/samba/", present=False)
    assert "Long Context Digest" not in server.get("papers/samba/")[1]
