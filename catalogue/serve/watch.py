"""`build.py --watch`: rebuild what an edit touches, reload the browser, survive bad edits."""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from .. import urls
from ..config import SiteConfig
from ..content.source import is_editors_file
from ..output.links import Broken, check_links, explain, written_by_curators
from ..output.swap import MARKER, claim_output_dir
from ..pipeline import Builder, RenderResult
from ..report import ContentError, Report
from .jobs import (
    LinkRefresher,
    LowPriorityWorker,
    ReviewRefresher,
    SearchRefresher,
    SimilarityRefresher,
)
from .overlay import Overlay
from .server import DevServer

QUIET_SECONDS = 0.01  # a burst of events (a git checkout) within this window is one rebuild
CHECK_AT_ONCE = 100  # paper pages: a rebuild checks the links of up to this many it wrote (~1 ms a page)


def is_ignored(path: str) -> bool:
    """Editors' swap, backup, lock and temporary files are not content."""
    return is_editors_file(Path(path).name) or "__pycache__" in path


class _Events(FileSystemEventHandler):
    """Hands the paths of writes, moves and deletions to `changed`; reads are not changes."""

    def __init__(self, changed):
        self.changed = changed

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write") or (
                event.is_directory and event.event_type == "modified"):
            return  # reads, and a folder's mtime moving because a file in it changed
        paths = [Path(os.fsdecode(p)) for p in (event.src_path, getattr(event, "dest_path", ""))
                 if p and not is_ignored(os.fsdecode(p))]
        if paths:
            self.changed(paths, rescan=event.is_directory)


class Watcher:
    """Owns the builder, the overlay, the background jobs and the file observer; rebuilds after
    each quiet moment."""

    def __init__(self, config: SiteConfig, server: DevServer, log=print):
        self.config, self.server, self.log = config, server, log
        self.builder = Builder(config, similarity_later=True)
        self.out_dir = config.out_dir
        self.rebuilds = 0
        self._last_event = 0.0
        self._changed: set[Path] | None = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self.worker = LowPriorityWorker()
        self.overlay = Overlay(server, log)
        self.search = SearchRefresher(config.out_dir, lambda: server.reload("search"), log)
        self.similarity = SimilarityRefresher(self.worker, lambda: self.changed([]), log)  # re-render with it
        self.links = LinkRefresher(self.worker, self._link_check_args, self._site_links_checked, log)
        self.review = ReviewRefresher(self.worker, lambda: self.changed([]), log)
        self._stop = threading.Event()
        self._observer = Observer()

    def start(self) -> None:
        claim_output_dir(self.config)
        shutil.rmtree(self.out_dir, ignore_errors=True)  # ours alone: start clean, so state matches disk
        self.out_dir.mkdir(parents=True)
        (self.out_dir / MARKER).write_text("Built by build.py --watch.\n")
        self.rebuild()
        handler = _Events(self.changed)
        for folder in (self.config.content_dir, self.config.templates_dir, self.config.static_dir):
            self._observer.schedule(handler, str(folder), recursive=True)
        self._observer.start()
        threading.Thread(target=self._loop, daemon=True, name="rebuild").start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        for job in (self.search, self.similarity, self.links, self.review, self.worker):
            job.stop()
        self._observer.stop()
        self._observer.join(timeout=5)

    def changed(self, paths: list[Path], rescan: bool = False) -> None:
        """Called from the observer's thread: note the paths, wake the rebuild loop."""
        with self._lock:
            if rescan or self._changed is None:
                self._changed = None  # a folder moved: look at every file
            else:
                self._changed.update(paths)
        self._last_event = time.perf_counter()
        self._wake.set()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self._next_rebuild()
            except Exception as error:  # this thread must outlive any one rebuild
                self.server.show_errors([f"internal error: {type(error).__name__}: {error}"])
                self.server.reload()

    def _next_rebuild(self) -> None:
        """Wait for a change, then for a quiet moment, then rebuild what changed."""
        self._wake.wait()
        while time.perf_counter() - self._last_event < QUIET_SECONDS:
            time.sleep(QUIET_SECONDS / 4)
        self._wake.clear()
        with self._lock:
            changed, self._changed = self._changed, set()
        if not self._stop.is_set():
            self.rebuild(changed)

    def rebuild(self, changed: set[Path] | None = None) -> bool:
        """Rebuild in place; on failure show the errors and keep the last good pages.

        Related papers and the map come from the last similarity computation; if the papers'
        words or tags changed, a new one starts in the background and rebuilds when done."""
        started = time.perf_counter()
        report = Report()
        version = self.overlay.rebuild_started()
        try:
            result = self.builder.rebuild(self.out_dir, report, changed)
        except ContentError as error:
            return self._failed([str(d) for d in error.diagnostics])
        except Exception as error:  # never let a bug in one rebuild end the session
            return self._failed([f"internal error: {type(error).__name__}: {error}"])
        finally:
            self.rebuilds += 1
            if self.builder.catalogue is not None:  # even if rendering failed: stale lists may be why
                self.similarity.schedule(self.builder)
                self.review.schedule(self.builder)
        self._check_links(version, result)
        event = _event_for(changed, result)
        if changed != set() or result.written or result.removed:  # set(): only similarity moved
            self.server.reload(event)
        took = (time.perf_counter() - started) * 1000
        self.log(f"rebuilt in {took:.0f} ms: {len(result.written)} page(s) written, "
                 f"{len(result.removed)} removed" + "".join(f"\n  {w}" for w in map(str, report.warnings)))
        if self.config.search and event != "review" and (result.written or result.removed or changed != set()):
            self.search.schedule()
        return True

    def _failed(self, lines: list[str]) -> bool:
        for line in lines:
            self.log(line)
        self.log("build failed; " + ("still serving the last good pages" if self.overlay.built_once
                                     else "no page to serve until a fix is saved (each shows these errors)"))
        self.overlay.build_failed(lines)
        self.server.reload()
        return False

    def _check_links(self, version: int, result: RenderResult) -> None:
        """Check at once the paper pages a rebuild wrote, where the links curators type live,
        unless there are so many (the first build, a template edit) that the whole-site check
        in the background should; list pages and the map wait for that check too. A link into
        a page an edit removed sits on a page the rebuild did not rewrite: the whole-site check
        finds it once edits settle."""
        papers = [file for file in result.written if file.startswith(urls.PAPERS) and file.endswith("/index.html")]
        now = papers if len(papers) <= CHECK_AT_ONCE else []
        config = self.config
        broken = check_links(self.out_dir, config.base_url, now, config.leaves_out, self.builder.drafts).broken
        self.overlay.rebuilt([*now, *result.removed], self._by_page(broken))
        if result.written or result.removed:
            self.links.request(version)

    def _link_check_args(self) -> tuple:
        return (self.out_dir, self.config.base_url, self.config.leaves_out, self.builder.drafts)

    def _site_links_checked(self, version: int, broken: list[Broken]) -> None:
        if not self.overlay.site_checked(version, self._by_page(broken)):
            self.links.request(self.overlay.version)

    def _by_page(self, broken: list[Broken]) -> dict[str, list[str]]:
        """Each broken link as the message that names its file and line."""
        catalogue, found = self.builder.catalogue, {}
        for each in written_by_curators(broken, catalogue):
            found.setdefault(each.page, []).append(str(explain(each, catalogue, self.out_dir)))
        return found


def _event_for(changed: set[Path] | None, result: RenderResult) -> str:
    """`review` when the background review list rewrote its page alone: only that page reloads,
    not every tab a curator has open; else `reload`."""
    only_review = changed == set() and not result.removed and list(result.written) == [urls.file_of(urls.REVIEW)]
    return "review" if only_review else "reload"


def serve_and_watch(config: SiteConfig, host: str, port: int) -> int:
    """Serve `config.out_dir` (drafts included), rebuilding on every change, until Ctrl-C."""
    try:
        server = DevServer(config.out_dir, host, port)
    except OSError as error:  # the port is taken (another watch?), or the address is not this machine's
        print(f"{host}:{port}: cannot serve there ({error.strerror}) — stop what is serving on it (another "
              f"`build.py --watch`?), or pass another port, like `--port {port + 1}`", file=sys.stderr)
        return 1
    config = replace(config, base_url=server.url, drafts=True, site_files=False)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: serving on {host}: anyone who can reach this machine can read the site",
              file=sys.stderr)
    watcher = Watcher(config, server, log=lambda text: print(text, flush=True))
    watcher.start()
    server.start()
    print(f"Serving {server.url} (watching {config.content_dir}, {config.templates_dir}, "
          f"{config.static_dir}; Ctrl-C to stop)", flush=True)
    try:
        while True:  # short naps: a Ctrl-C the kernel hands to another thread is seen only on waking
            time.sleep(0.2)
    except KeyboardInterrupt:
        print("stopping", flush=True)
    finally:
        watcher.stop()
        server.stop()
    return 0
