"""`build.py --watch`: rebuild what an edit touches, reload the browser, survive bad edits."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from ..pipeline import MARKER, Builder, claim_output_dir
from ..config import SiteConfig
from ..output.links import Broken, check_links, explain, find_broken, written_by_curators
from ..content.loader import is_editors_file
from ..report import ContentError, Report
from ..output.search import SearchIndexError, index_site
from .server import BUILD_FAILED, DevServer
from ..relate.similarity import compute_in_worker, texts

QUIET_SECONDS = 0.01  # a burst of events (a git checkout) within this window is one rebuild
SEARCH_QUIET_SECONDS = 1.0  # Pagefind waits for the edits to settle: it costs seconds at scale
SIMILARITY_QUIET_SECONDS = 1.0  # so do related papers and the map, above the inline limit
LINKS_QUIET_SECONDS = 2.0  # checking every page's links: 6 s at 10,000 papers, so only in a real pause
CHECK_AT_ONCE = 100  # paper pages: a rebuild checks the links of up to this many it wrote (~1 ms a page)
BROKEN_LINKS = "Broken links: the pages are up to date, but these links lead nowhere."
FIRST_BUILD_FAILED = "The first build failed, so there are no pages yet: fix these and save."


def is_ignored(path: str) -> bool:
    """Editors' swap, backup, lock and temporary files are not content."""
    return is_editors_file(Path(path).name) or "__pycache__" in path


class _Changes(FileSystemEventHandler):
    def __init__(self, watcher: Watcher):
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write") or (
                event.is_directory and event.event_type == "modified"):
            return  # reads, and a folder's mtime moving because a file in it changed
        paths = [Path(os.fsdecode(p)) for p in (event.src_path, getattr(event, "dest_path", ""))
                 if p and not is_ignored(os.fsdecode(p))]
        if paths:
            self.watcher.changed(paths, rescan=event.is_directory)


class Watcher:
    """Owns the builder, the server and the file observer; rebuilds after each quiet moment."""

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
        self.search = SearchRefresher(config.out_dir, server, log)
        self.similarity = SimilarityRefresher(self, log)
        self.overlay = Overlay(self, log)
        self._stop = threading.Event()
        self._observer = Observer()

    def start(self) -> None:
        claim_output_dir(self.config)
        shutil.rmtree(self.out_dir, ignore_errors=True)  # ours alone: start clean, so state matches disk
        self.out_dir.mkdir(parents=True)
        (self.out_dir / MARKER).write_text("Built by build.py --watch.\n")
        self.rebuild()
        handler = _Changes(self)
        for folder in (self.config.content_dir, self.config.templates_dir, self.config.static_dir):
            self._observer.schedule(handler, str(folder), recursive=True)
        self._observer.start()
        threading.Thread(target=self._loop, daemon=True, name="rebuild").start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self.search.stop()
        self.similarity.stop()
        self.overlay.links.stop()
        self.worker.stop()
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
        self.overlay.rebuilt(version, result.written, result.removed)
        if changed != set() or result.written or result.removed:  # set(): only similarity moved
            self.server.reload()
        took = (time.perf_counter() - started) * 1000
        self.log(f"rebuilt in {took:.0f} ms: {len(result.written)} page(s) written, "
                 f"{len(result.removed)} removed" + "".join(f"\n  {w}" for w in map(str, report.warnings)))
        if self.config.search and (result.written or result.removed or changed != set()):
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


class Overlay:
    """What shows over every page: the errors of a failed build, or else the broken links.

    Links are checked on the paper pages a rebuild writes at once (milliseconds), and on the whole
    site once edits settle: a link into a page an edit removed, or to an anchor it dropped, sits
    on a page the rebuild did not rewrite. A whole-site check that a rebuild overtook is stale
    (it may have read pages mid-write) and is run again."""

    def __init__(self, watcher: Watcher, log):
        self.watcher, self.log = watcher, log
        self.links = LinkRefresher(watcher, self)
        self._lock = threading.Lock()  # the rebuild thread and the links thread both come here
        self._version = 0  # rebuilds started
        self._broken: dict[str, list[str]] = {}  # by page, as messages: explained once, not per rebuild
        self._failure: list[str] | None = None
        self._shown: list[str] = []
        self.built_once = False  # before that, a failure has no last good pages to show

    def rebuild_started(self) -> int:
        with self._lock:
            self._version += 1
            return self._version

    def build_failed(self, lines: list[str]) -> None:
        with self._lock:
            self._failure = lines
            self._show()

    def rebuilt(self, version: int, written: list[str], removed: list[str]) -> None:
        """Check at once the paper pages a rebuild wrote, where the links curators type live,
        unless there are so many (the first build, a template edit) that the whole-site check
        in the background should; list pages and the map wait for that check too."""
        watcher = self.watcher
        papers = [page for page in written if page.startswith("papers/") and page.endswith("/index.html")]
        now = papers if len(papers) <= CHECK_AT_ONCE else []
        config, drafts = watcher.config, watcher.builder.renderer.drafts
        found = self._by_page(check_links(watcher.out_dir, config.base_url, now, config.leaves_out, drafts).broken)
        with self._lock:
            self._failure = None
            self.built_once = True
            for page in (*now, *removed):
                self._broken.pop(page, None)
            self._broken.update(found)
            self._show()
        if written or removed:
            self.links.request(version)

    def site_checked(self, version: int, broken: list[Broken]) -> None:
        found = self._by_page(broken)
        with self._lock:
            if version != self._version:
                self.links.request(self._version)
                return
            self._broken = found
            changed = self._show()
        if changed:
            self.watcher.server.reload()

    def _by_page(self, broken: list[Broken]) -> dict[str, list[str]]:
        """Each broken link as the message that names its file and line (which reads the file)."""
        found: dict[str, list[str]] = {}
        for each in written_by_curators(broken, self.watcher.builder.catalogue):
            found.setdefault(each.page, []).append(str(explain(each, self.watcher.builder.catalogue,
                                                               self.watcher.out_dir)))
        return found

    def _show(self) -> bool:
        """Put the failure or the broken links over every page; True if that changed them."""
        if self._failure is not None:
            lines, heading = self._failure, BUILD_FAILED if self.built_once else FIRST_BUILD_FAILED
        else:
            lines, heading = [line for page in sorted(self._broken) for line in self._broken[page]], BROKEN_LINKS
        self.watcher.server.show_errors(lines, heading)
        changed, self._shown = lines != self._shown, lines
        for line in lines if changed and self._failure is None else []:
            self.log(line)
        return changed


class _AfterQuiet:
    """Does slow work in a thread of its own once `quiet` seconds pass without a new request;
    a newer request replaces a pending one, and a request for None withdraws it."""

    def __init__(self, quiet: float, name: str):
        self.quiet = quiet
        self._job: object = None
        self._due = 0.0
        self._stopping = False
        self._changed = threading.Condition()
        threading.Thread(target=self._run, daemon=True, name=name).start()

    def request(self, job: object) -> None:
        with self._changed:
            self._job, self._due = job, time.perf_counter() + self.quiet
            self._changed.notify()

    def stop(self) -> None:
        with self._changed:
            self._stopping = True
            self._changed.notify()

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._stopping and (self._job is None or time.perf_counter() < self._due):
                    self._changed.wait(self._due - time.perf_counter() if self._job is not None else None)
                if self._stopping:
                    return
                job, self._job = self._job, None
            self._work(job)

    def _work(self, job: object) -> None:
        raise NotImplementedError


def _start_worker(parent: int) -> None:
    """In a worker process: yield the processor to rebuilds, and end when watch mode ends, even
    if it is killed (Linux: PR_SET_PDEATHSIG), rather than block forever on a result nobody reads."""
    os.nice(10)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it died before the line above
        os._exit(0)


class LowPriorityWorker:
    """One process at low priority for the background work of watch mode, started when first
    needed (spawned, not forked: this process has threads) and started anew if it dies."""

    def __init__(self):
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def run(self, function, *args):
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_start_worker, initargs=(os.getpid(),))
            pool = self._pool
        try:
            return pool.submit(function, *args).result()
        except BrokenProcessPool:
            self.stop()  # it died: the next run starts another
            raise

    def stop(self) -> None:
        """Stop at once: a task still running (6 s of link checking at scale) is not waited for."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool:
            for process in list(getattr(pool, "_processes", {}).values()):  # no public way in 3.11
                process.kill()
            pool.shutdown(wait=False, cancel_futures=True)


class SearchRefresher(_AfterQuiet):
    """Re-runs Pagefind once edits have settled: it has no incremental mode and takes seconds
    at scale, so it must never hold up a rebuild."""

    def __init__(self, site_dir: Path, server: DevServer, log):
        self.site_dir, self.server, self.log = site_dir, server, log
        self._pagefind: subprocess.Popen | None = None
        super().__init__(SEARCH_QUIET_SECONDS, "search")

    def schedule(self) -> None:
        self.request(True)

    def stop(self) -> None:
        """Stop, and end a Pagefind run: it would outlive watch mode."""
        super().stop()
        with self._changed:
            if self._pagefind and self._pagefind.poll() is None:
                self._pagefind.kill()

    def _started(self, process: subprocess.Popen) -> None:
        with self._changed:  # a run that starts as watch mode stops is ended at once
            self._pagefind = process
            if self._stopping:
                process.kill()

    def _work(self, job: object) -> None:
        started = time.perf_counter()
        try:
            index_site(self.site_dir, background=True, started=self._started)
        except SearchIndexError as error:
            self.log(f"search index not refreshed: {error}")
            return
        self.log(f"search index refreshed in {time.perf_counter() - started:.1f} s")
        self.server.reload("search")


class SimilarityRefresher(_AfterQuiet):
    """Recomputes related papers and the map (seconds at 10,000 papers) in a worker process, so
    rebuilds never wait for the interpreter lock meanwhile; then asks the watcher for a rebuild,
    which rewrites just the pages whose lists moved. Like search, it waits for edits to settle."""

    def __init__(self, watcher: Watcher, log):
        self.watcher, self.log = watcher, log
        super().__init__(SIMILARITY_QUIET_SECONDS, "similarity")

    def schedule(self, builder: Builder) -> None:
        """Refresh for the builder's last catalogue, if its stored result is not for it (and
        forget a pending refresh that an edit made needless, such as one undone)."""
        signature = builder.similarity.stale(builder.catalogue)
        self.request(None if signature is None else (builder, builder.catalogue, signature))

    def _work(self, job: object) -> None:
        builder, catalogue, signature = job
        try:
            result = self.watcher.worker.run(compute_in_worker, texts(catalogue))
        except Exception as error:  # a dead worker must not end watch mode
            self.log(f"related papers not refreshed: {type(error).__name__}: {error}")
            return
        if builder.similarity.stale(builder.catalogue) != signature:
            return  # edited or undone meanwhile: this result is out of date
        builder.similarity.store(signature, catalogue, result)
        self.log(f"related papers and map recomputed in {result.seconds:.1f} s")
        self.watcher.changed([])  # an empty change: re-render with the new result


class LinkRefresher(_AfterQuiet):
    """Checks the links of every page in the worker process once edits settle."""

    def __init__(self, watcher: Watcher, overlay: Overlay):
        self.watcher, self.overlay = watcher, overlay
        super().__init__(LINKS_QUIET_SECONDS, "links")

    def _work(self, job: object) -> None:
        watcher = self.watcher
        try:
            broken = watcher.worker.run(find_broken, watcher.out_dir, watcher.config.base_url,
                                       watcher.config.leaves_out, watcher.builder.renderer.drafts)
        except Exception as error:
            watcher.log(f"links not checked: {type(error).__name__}: {error}")
            return
        self.overlay.site_checked(job, broken)


def serve_and_watch(config: SiteConfig, host: str, port: int) -> int:
    """Serve `config.out_dir` (drafts included), rebuilding on every change, until Ctrl-C."""
    server = DevServer(config.out_dir, host, port)
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
