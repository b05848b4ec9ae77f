"""A big build on every core: forked children each do a part of the work and send back their
results; the parent does the first part itself."""

from __future__ import annotations

import ctypes
import gc
import os
import pickle
import signal
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..report import ContentError

FORK_MIN_PAGES = 2000  # below this a second process costs more than it saves
Item = TypeVar("Item")


def workers() -> int:
    """The processes a big build uses: one per core this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def can_fork(pages: int) -> bool:
    """More processes pay off for a big build, on a machine with two cores or more, where fork
    is safe: not in a process with threads (watch mode's first build runs before it has any)."""
    return hasattr(os, "fork") and workers() > 1 and threading.active_count() == 1 and pages >= FORK_MIN_PAGES


def parts(items: Sequence[Item], weight: Callable[[Item], int], count: int) -> list[list[Item]]:
    """The items in `count` parts balanced by weight, heaviest placed first; each part in the
    items' order."""
    order = {id(item): index for index, item in enumerate(items)}
    split: list[list[Item]] = [[] for _ in range(count)]
    totals = [0] * count
    for item in sorted(items, key=lambda item: -weight(item)):
        lighter = totals.index(min(totals))
        split[lighter].append(item)
        totals[lighter] += weight(item)
    return [sorted(part, key=lambda item: order[id(item)]) for part in split]


def shared(items: Sequence[Item], weight: Callable[[Item], int], work: Callable[[list[Item]], Any]) -> list[Any]:
    """`work` on each of `workers()` parts of `items` (no more parts than items), all but the
    first in forked children: every part's result, in order, the children's sent back pickled
    (or the first error that stopped one raised here, once every child has ended)."""
    mine, *theirs = parts(items, weight, max(1, min(workers(), len(items))))
    children: list[tuple[int, int]] = []
    try:
        for part in theirs:
            children.append(_fork(work, part, [reader for _, reader in children]))
        done = work(mine)
    except BaseException:
        for child, _ in children:
            os.kill(child, signal.SIGTERM)
        raise
    finally:  # every child read and reaped, whatever happened here
        outcomes = [_outcome(child, reader) for child, reader in children]
    for status, detail in outcomes:
        if status == "failed":
            raise detail
    return [done, *(detail for _, detail in outcomes)]


def _fork(work: Callable[[list], Any], part: list, earlier: list[int]) -> tuple[int, int]:
    """A child doing `part`, and the end of the pipe its result comes through."""
    reader, pipe_writer = os.pipe()
    try:
        child = os.fork()
    except OSError:
        os.close(reader)
        os.close(pipe_writer)
        raise
    if child == 0:
        for descriptor in (*earlier, reader):
            os.close(descriptor)
        _end_with_parent()
        _child(work, part, pipe_writer)
    os.close(pipe_writer)
    return child, reader


def give_back_memory() -> None:
    """Return what this process freed to the system, for a big process run beside it (glibc
    keeps freed memory for the next allocation otherwise; elsewhere a collection only)."""
    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _end_with_parent() -> None:
    """A killed build leaves no render process behind (Linux; elsewhere a no-op)."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _outcome(child: int, reader: int) -> tuple[str, Any]:
    """What a child sent back; never raises (a child cut short, as when the parent's own part
    failed first, reads as failed)."""
    with os.fdopen(reader, "rb") as pipe:
        data = pipe.read()
    os.waitpid(child, 0)
    try:
        return pickle.loads(data)
    except Exception:  # noqa: BLE001 -- nothing sent, or cut short
        return "failed", RuntimeError("a render process died")


def _child(work: Callable[[list], Any], items: list, pipe_writer: int) -> None:
    """In a child: do its part, report, and leave without cleaning up the parent's state."""
    outcome: tuple = ("failed", RuntimeError("a render process stopped"))
    try:
        outcome = ("done", work(items))
    except BaseException as error:  # noqa: BLE001 — everything must reach the parent
        outcome = ("failed", error if isinstance(error, ContentError) else RuntimeError(repr(error)))
    finally:
        try:
            with os.fdopen(pipe_writer, "wb") as pipe:
                pickle.dump(outcome, pipe, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            os._exit(0)  # whatever happens, the child never goes on with the parent's work
