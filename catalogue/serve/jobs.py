"""Watch mode's background work: a job that runs after a quiet moment, one low-priority worker
process, the search index's refresher and the jobs the worker does (related papers, the review
list's costly part). Each hands its result back as a `Ready` through a callback it is given:
none knows the watcher, and none sets anything of the build's."""

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

from ..changeset import Ready
from ..output.search import Reindex, SearchIndexError, index_site, searched

SEARCH_QUIET_SECONDS = 1.0  # Pagefind waits for the edits to settle: it costs seconds at scale
WORKER_QUIET_SECONDS = 1.0  # so do related papers and the map (above the inline limit) and the review list


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
    """Re-runs Pagefind once edits have settled, for the shards whose pages changed: it has no
    incremental mode and takes seconds at scale, so it must never hold up a rebuild. A job is
    (the name the result is kept by, what to index again); `refreshed` gets the result as a
    `Ready`."""

    def __init__(self, site_dir: Path, refreshed: Callable[[Ready], None], log: Callable[[str], None]):
        self.site_dir, self.refreshed, self.log = site_dir, refreshed, log
        self._pagefind: subprocess.Popen | None = None
        super().__init__(SEARCH_QUIET_SECONDS, "search")

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

    def _work(self, job: tuple[str, Reindex]) -> None:
        name, wanted = job
        started = time.perf_counter()
        try:
            indexed = index_site(self.site_dir, background=True, started=self._started, shards=wanted.shards,
                                 unchanged=wanted.unchanged)
        except SearchIndexError as error:
            self.log(f"search index not refreshed: {error}")
            return
        self.log(f"search index refreshed in {time.perf_counter() - started:.1f} s")
        self.refreshed(Ready(name, wanted.key, searched(wanted, indexed)))


class WorkerJob(AfterQuiet):
    """Works out a value (related papers, the review list's costly part) in the worker process
    once edits settle, so rebuilds never wait for the interpreter lock meanwhile; `ready` gets
    it as a `Ready`, whose rebuild rewrites just the pages that show it. A job is (its name,
    the key of its arguments, the function, the arguments)."""

    def __init__(self, worker: LowPriorityWorker, ready: Callable[[Ready], None], log: Callable[[str], None],
                 what: str):
        self.worker, self.ready, self.log, self.what = worker, ready, log, what
        super().__init__(WORKER_QUIET_SECONDS, what)

    def _work(self, job: tuple) -> None:
        name, key, function, args = job
        started = time.perf_counter()
        try:
            value = self.worker.run(function, *args)
        except Exception as error:  # a dead worker must not end watch mode
            self.log(f"{self.what} not refreshed: {type(error).__name__}: {error}")
            return
        self.log(f"{self.what} worked out in {time.perf_counter() - started:.1f} s")
        self.ready(Ready(name, key, value))
