"""Watch mode's background work: a job that runs after a quiet moment, one low-priority worker
process, and the three refreshers (search index, related papers, the whole site's links).
Each reports through a callback it is given: none knows the watcher."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from ..output.links import Broken, find_broken
from ..output.search import SearchIndexError, index_site
from ..relate.review import costly_parts
from ..relate.similarity import compute_in_worker, texts

SEARCH_QUIET_SECONDS = 1.0  # Pagefind waits for the edits to settle: it costs seconds at scale
SIMILARITY_QUIET_SECONDS = 1.0  # so do related papers and the map, above the inline limit
REVIEW_QUIET_SECONDS = 1.0  # the review page's tags to confirm and duplicates: 0.1 s at 95 papers
LINKS_QUIET_SECONDS = 2.0  # checking every page's links: 6 s at 10,000 papers, so only in a real pause


class AfterQuiet:
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

    def _work(self, job: Any) -> None:
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
            # The pool's own processes (no public way to reach them in 3.11), taken under the
            # lock: a pool started after this moment is not this one's to kill.
            processes = list(getattr(pool, "_processes", {}).values()) if pool else []
        for process in processes:
            process.kill()
        if pool:
            pool.shutdown(wait=False, cancel_futures=True)


class SearchRefresher(AfterQuiet):
    """Re-runs Pagefind once edits have settled: it has no incremental mode and takes seconds
    at scale, so it must never hold up a rebuild."""

    def __init__(self, site_dir: Path, refreshed: Callable[[], None], log: Callable[[str], None]):
        self.site_dir, self.refreshed, self.log = site_dir, refreshed, log
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
        self.refreshed()


class SimilarityRefresher(AfterQuiet):
    """Recomputes related papers and the map (seconds at 10,000 papers) in the worker process,
    so rebuilds never wait for the interpreter lock meanwhile; then calls `refreshed`, whose
    rebuild rewrites just the pages whose lists moved. Like search, it waits for edits to settle."""

    def __init__(self, worker: LowPriorityWorker, refreshed: Callable[[], None], log: Callable[[str], None]):
        self.worker, self.refreshed, self.log = worker, refreshed, log
        super().__init__(SIMILARITY_QUIET_SECONDS, "similarity")

    def schedule(self, builder) -> None:
        """Refresh for the builder's last catalogue, if its stored result is not for it (and
        forget a pending refresh that an edit made needless, such as one undone)."""
        signature = builder.similarity.stale(builder.catalogue)
        self.request(None if signature is None else (builder, builder.catalogue, signature))

    def _work(self, job: tuple) -> None:
        builder, catalogue, signature = job
        try:
            result = self.worker.run(compute_in_worker, texts(catalogue))
        except Exception as error:  # a dead worker must not end watch mode
            self.log(f"related papers not refreshed: {type(error).__name__}: {error}")
            return
        if builder.similarity.stale(builder.catalogue) != signature:
            return  # edited or undone meanwhile: this result is out of date
        builder.similarity.store(signature, catalogue, result)
        self.log(f"related papers and map recomputed in {result.seconds:.1f} s")
        self.refreshed()


class ReviewRefresher(AfterQuiet):
    """Works out the review page's tags to confirm and possible duplicates in the worker process
    once edits settle, for the builder's last catalogue; then `refreshed` rebuilds, which
    rewrites that page alone."""

    def __init__(self, worker: LowPriorityWorker, refreshed: Callable[[], None], log: Callable[[str], None]):
        self.worker, self.refreshed, self.log = worker, refreshed, log
        super().__init__(REVIEW_QUIET_SECONDS, "review")

    def schedule(self, builder) -> None:
        catalogue = builder.catalogue
        self.request((builder, catalogue) if catalogue is not None and builder.planner.review_stale(catalogue) else None)

    def _work(self, job: tuple) -> None:
        builder, catalogue = job
        try:
            costly = self.worker.run(costly_parts, catalogue.papers, catalogue.taxonomy)
        except Exception as error:  # a dead worker must not end watch mode
            self.log(f"review list not refreshed: {type(error).__name__}: {error}")
            return
        if builder.catalogue is catalogue:  # else edited meanwhile: the next rebuild asks again
            builder.planner.review_costly = (catalogue.revision, costly)
            self.refreshed()


class LinkRefresher(AfterQuiet):
    """Checks the links of every page in the worker process once edits settle; `checked` gets
    the version it was requested for and what is broken."""

    def __init__(self, worker: LowPriorityWorker, check_args: Callable[[], tuple],
                 checked: Callable[[int, list[Broken]], None], log: Callable[[str], None]):
        self.worker, self.check_args, self.checked, self.log = worker, check_args, checked, log
        super().__init__(LINKS_QUIET_SECONDS, "links")

    def _work(self, version: int) -> None:
        try:
            broken = self.worker.run(find_broken, *self.check_args())
        except Exception as error:
            self.log(f"links not checked: {type(error).__name__}: {error}")
            return
        self.checked(version, broken)
