"""`build.py --watch`: rebuild what an edit touches, the pages open in a browser first, reload
them, and survive bad edits. Watch mode keeps a build state of its own (its settings differ from
a build's), saved when it stops and in quiet moments, so a restart starts from it: with nothing
changed it renders nothing."""

from __future__ import annotations

import gc
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
from ..builder import REVIEW, SIMILARITY, Builder, RenderResult
from ..changeset import ChangeSet, Ready
from ..config import SiteConfig
from ..content.site import read_site_settings
from ..files import signature
from ..output.links import LinkReport
from ..output.search import INDEX_DIR, PREVIEW_SHARD_PAPERS, SEARCH, search_files, to_reindex
from ..output.swap import MARKER, claim_output_dir, remove_others
from ..report import ContentError, Report
from ..state import BuildState, identity, state_file
from .jobs import LowPriorityWorker, SearchRefresher, WorkerJob
from .overlay import Overlay
from .server import DevServer

QUIET_SECONDS = 0.01  # a burst of events (a git checkout) within this window is one rebuild
SAVE_AFTER_SECONDS = 5.0  # the state is saved once edits have paused this long
BACKGROUND = {SIMILARITY: "related papers and map", REVIEW: "review list"}  # what the builder may want, as logged


class _Events(FileSystemEventHandler):
    """Hands the paths of writes, moves and deletions to `changed` (which leaves out what no
    build reads: see `ChangeSet.of_paths`); reads are not changes."""

    def __init__(self, changed):
        self.changed = changed

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write") or (
                event.is_directory and event.event_type == "modified"):
            return  # reads, and a folder's mtime moving because a file in it changed
        paths = [Path(os.fsdecode(p)) for p in (event.src_path, getattr(event, "dest_path", "")) if p]
        if paths:
            self.changed(paths)


class Watcher:
    """Owns the builder, the overlay, the background jobs and the file observer; rebuilds after
    each quiet moment what the change set of that moment reaches."""

    def __init__(self, config: SiteConfig, server: DevServer, log=print):
        self.config, self.server, self.log = config, server, log
        self.out_dir = config.out_dir
        self.builder: Builder | None = None
        self.rebuilds = 0
        self.overlay = Overlay(server, log)
        self._changes = ChangeSet()
        self._last_event = 0.0
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._saved = True
        self._observer: Observer | None = None  # made after the first build: it starts a thread at once
        self._thread: threading.Thread | None = None
        self._started = 0.0  # when the rebuild under way began
        self._check_all = False  # every page's links are to be checked (files came or went)
        self._first_unchecked: set[str] = set()  # pages written first, checked before their rest was planned
        self.jobs: dict[str, WorkerJob] = {}
        self.worker: LowPriorityWorker | None = None
        self.search: SearchRefresher | None = None

    def start(self) -> None:
        """From the state the last session left, serve at once: the first rebuild, of what
        changed meanwhile, runs in the loop as an edit's does. With none, build first, before any
        thread is started (so that the build may use two processes). Then the jobs, the file
        observer (what was saved meanwhile is found by comparing the disk with the state, as a
        build does) and the rebuild loop."""
        state = self._restore()
        self.builder = Builder(self.config, state, self.out_dir, later=True)
        cold = not state.outputs
        if cold:
            self.rebuild(ChangeSet.everything(), cold=True)
        else:
            self.overlay.built_once = True  # the last session's pages are there to serve
            self._check_all = True  # their broken links too, shown again once edits allow
        self.worker = LowPriorityWorker()
        self.jobs = {name: WorkerJob(self.worker, self.ready, self.log, what) for name, what in BACKGROUND.items()}
        self.search = SearchRefresher(self.out_dir, self.ready, self.log)
        if cold:
            self._schedule(self.builder)
        self._observer = Observer()
        handler = _Events(self.changed_paths)
        for folder in (self.config.content_dir, self.config.templates_dir, self.config.static_dir):
            self._observer.schedule(handler, str(folder), recursive=True)
        self._observer.start()
        self.changed(state.changes(self.config))
        self._wake.set()  # a restart's first rebuild, even of nothing: it loads the catalogue for the next edit
        self._thread = threading.Thread(target=self._loop, daemon=True, name="rebuild")
        self._thread.start()

    def _restore(self) -> BuildState:
        """The state this watch mode left, if its output is still there; else a clean start."""
        claim_output_dir(self.config)
        state = BuildState.restore(state_file(self.config, "watch"), identity(self.config))
        if not state.outputs or not (self.out_dir / MARKER).is_file():
            state = BuildState(identity(self.config))
            shutil.rmtree(self.out_dir, ignore_errors=True)  # ours alone: start clean, so state matches disk
        self.out_dir.mkdir(parents=True, exist_ok=True)
        (self.out_dir / MARKER).write_text("Built by build.py --watch.\n")
        remove_others(self.out_dir, self._known(state))  # written after the last save, by a session killed since
        on_disk = {file: signature(self.out_dir / file) for file in state.outputs}
        for file in [file for file, record in state.outputs.items() if on_disk[file] != record.signature]:
            state.groups.pop(state.outputs.pop(file).group, None)  # edited or removed by hand: made again
        if not (self.out_dir / INDEX_DIR / "pagefind-entry.json").is_file():
            state.derived.pop(SEARCH, None)
        return state

    def stop(self) -> None:
        """Stop the jobs and the observer, let a rebuild under way end (at its next group), and
        leave the state for the next session."""
        self._stop.set()
        self._wake.set()
        for job in (*self.jobs.values(), self.search, self.worker):
            if job:
                job.stop()
        if self._observer:
            self._observer.stop()
            self._observer.join(timeout=5)
        if self._thread:
            self._thread.join(timeout=60)
        self.save()

    def save(self) -> None:
        """Leave the state for the next session: from the rebuild thread in quiet moments, and
        when watch mode stops."""
        if self.builder and not self._saved:
            self.builder.save(state_file(self.config, "watch"))
            self._saved = True

    def requested(self, path: str) -> None:
        """A reader asks for `path` (from a request's thread): if its page is waiting to be
        rewritten, rewrite it now."""
        if self.builder is not None:
            self.builder.writer.write_now(urls.file_of(path.lstrip("/")))

    def changed_paths(self, paths: list[Path]) -> None:
        """Called from the observer's thread: what the paths are, as a change set."""
        self.changed(ChangeSet.of_paths(paths, self.config))

    def ready(self, result: Ready) -> None:
        """A background job's result, handed back to the builder as a change."""
        self.changed(ChangeSet.of_result(result))

    def changed(self, changes: ChangeSet) -> None:
        """Note a change set, and wake the rebuild loop (from any thread)."""
        if not changes:
            return
        with self._lock:
            self._changes = self._changes | changes
        self._last_event = time.perf_counter()
        self._wake.set()

    def _edited(self) -> bool:
        """Whether files changed since the rebuild began (a background result can wait)."""
        return bool(replace(self._changes, ready=())) or self._stop.is_set()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self._next_rebuild()
            except Exception as error:  # this thread must outlive any one rebuild
                self.server.show_errors([f"internal error: {type(error).__name__}: {error}"])
                self.server.reload()

    def _next_rebuild(self) -> None:
        """Wait for a change, then for a quiet moment, then rebuild what changed; save the state
        once edits have paused."""
        if not self._wake.wait(SAVE_AFTER_SECONDS):
            self.save()
            return
        while time.perf_counter() - self._last_event < QUIET_SECONDS:
            time.sleep(QUIET_SECONDS / 4)
        self._wake.clear()
        with self._lock:
            changes, self._changes = self._changes, ChangeSet()
        if self._stop.is_set():
            return
        if changes.settings:
            self._reconfigure()
        elif changes.only_search:
            self.builder.take(changes.ready)  # what the index was made from: no page shows it
            self._saved = False
            self.server.reload(event="search")
        elif changes or self.builder.catalogue is None:
            self.rebuild(changes)

    def _known(self, state: BuildState) -> set[str]:
        """The output's files as `state` knows them, the search index and the marker."""
        return {*state.outputs, *state.files, *search_files(self.out_dir), MARKER}

    def _reconfigure(self) -> None:
        """content/site.yaml (or the whole content folder) changed: build everything again with
        its settings, serving the last pages meanwhile (and still, if the settings are wrong)."""
        try:
            site = read_site_settings(self.config.content_dir)
        except ContentError as error:
            self._failed([str(d) for d in error.diagnostics])
            return
        self.config = replace(self.config, title=site.title, tagline=site.description,
                              noindex=self.config.noindex or site.preview)
        self.builder = Builder(self.config, BuildState(identity(self.config)), self.out_dir, later=True)
        if self.rebuild(ChangeSet.everything()):
            remove_others(self.out_dir, self._known(self.builder.state))  # pages the old settings made

    def rebuild(self, changes: ChangeSet, cold: bool = False) -> bool:
        """Rebuild in place, the pages open in a browser first (not in a `cold` start, before
        serving); on failure show the errors and keep the last good pages. Related papers, the
        map and the review list come from their last computation; what they need anew is worked
        out in the background."""
        started, first = time.perf_counter(), self.rebuilds == 0
        self._started = started
        report = Report()
        open_pages = self.server.open_pages()
        shown = [urls.file_of(page.lstrip("/")) for page in open_pages]
        try:
            result = self.builder.build(changes, report, shown, None if cold else self._shown_first, self._edited)
        except ContentError as error:
            return self._failed([str(d) for d in error.diagnostics])
        except Exception as error:  # never let a bug in one rebuild end the session
            return self._failed([f"internal error: {type(error).__name__}: {error}"])
        finally:
            self.rebuilds += 1
            self._saved = False
        took = (time.perf_counter() - started) * 1000
        what = "everything" if changes.settings else ", ".join(changes.kinds) or "nothing changed"
        if result.plan is None:
            self.log(f"wrote the first {len(result.written)} page(s) in {took:.0f} ms ({what}); the rest waits "
                     "for the next change")
            return True
        self._reload_rest(result, changes, open_pages, self._check_links(result))
        if not (cold or self._edited()):  # else the next rebuild, under way at once, schedules
            self._schedule(self.builder)
        self.log(f"rebuilt in {took:.0f} ms ({'start: ' if first else ''}{what}): "
                 f"{len(result.written)} page(s) written, {len(result.removed)} removed"
                 + "".join(f"\n  {w}" for w in map(str, report.warnings)))
        if first:
            gc.freeze()  # the state and the catalogue live as long as the session: no collection walks them again
        return True

    def _shown_first(self, written: list[str]) -> None:
        """The pages open in a browser and the edited papers' own, written: reload them now
        (every page, if the errors shown over them changed)."""
        self._first_unchecked.update(written)  # until the rest is checked: see Builder.links
        if written:
            changed = self.overlay.rebuilt(written, self._by_page(self.builder.links(written)))
            self.server.reload(None if changed else self._paths(written))
            took = (time.perf_counter() - self._started) * 1000
            self.log(f"reloaded {len(written)} first page(s) after {took:.0f} ms")

    def _reload_rest(self, result: RenderResult, changes: ChangeSet, open_pages: set[str], changed: bool) -> None:
        """Reload the open pages the rest of the rebuild rewrote or removed (every page, after a
        template or static file moved, or when the errors shown over them changed)."""
        rest = [file for file in result.written if file not in result.first] + result.removed
        if changed or changes.templates or changes.static:
            self.server.reload()
        elif pages := self._paths(rest) & (self.server.open_pages() | open_pages):
            self.server.reload(pages)

    @staticmethod
    def _paths(files: list[str]) -> set[str]:
        return {"/" + urls.path_of(file) for file in files}

    def _failed(self, lines: list[str]) -> bool:
        for line in lines:
            self.log(line)
        self.log("build failed; " + ("still serving the last good pages" if self.overlay.built_once
                                     else "no page to serve until a fix is saved (each shows these errors)"))
        self.overlay.build_failed(lines)
        self.server.reload()
        return False

    def _check_links(self, result: RenderResult) -> bool:
        """The links of the pages this rebuild wrote (and of those written first by a rebuild
        stopped or failed before its rest: a link from them into a file then to come was let
        pass), or of every page when files came or went (a link into a page an edit removed sits
        on a page the rebuild did not rewrite; seconds at 10,000 papers, so left to the next
        rebuild when an edit is waiting); whether the errors shown over the pages changed."""
        self._check_all = self._check_all or result.added
        if self._check_all and not self._edited():
            self._check_all = False
            self._first_unchecked.clear()
            return self.overlay.site_checked(self._by_page(self.builder.links()))
        pages = list(dict.fromkeys([*result.written, *self._first_unchecked]))
        self._first_unchecked.clear()
        return self.overlay.rebuilt([*pages, *result.removed], self._by_page(self.builder.links(pages)))

    def _by_page(self, links: LinkReport) -> dict[str, list[str]]:
        """Each broken link as the message that names its file and line."""
        found: dict[str, list[str]] = {}
        for page, diagnostic in self.builder.broken(links, self.out_dir):
            found.setdefault(page, []).append(str(diagnostic))
        return found

    def _schedule(self, builder: Builder) -> None:
        """The background work this catalogue needs: related papers and the review list whose
        arguments moved, and the search shards whose pages did."""
        for name, (key, function, args) in builder.wanted.items():
            self.jobs[name].request((name, key, function, args))
        if self.config.search and self.search:
            self._schedule_search(builder)

    def _schedule_search(self, builder: Builder) -> None:
        wanted = to_reindex(builder.state, builder.titles(), PREVIEW_SHARD_PAPERS) if builder.catalogue else None
        if wanted:
            self.search.request((SEARCH, wanted))


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
    server.on_request = watcher.requested
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
