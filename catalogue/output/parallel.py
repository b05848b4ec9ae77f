"""A big build on two cores: a forked child does half of the work, and sends back its result."""

from __future__ import annotations

import os
import pickle
import signal
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..report import ContentError

FORK_MIN_PAGES = 2000  # below this a second process costs more than it saves
Item = TypeVar("Item")


def can_fork(pages: int) -> bool:
    """Two processes pay off for a big build, on a machine with two cores or more, where fork
    is safe: not in a process with threads (watch mode's first build runs before it has any)."""
    return (hasattr(os, "fork") and (os.cpu_count() or 1) > 1 and threading.active_count() == 1
            and pages >= FORK_MIN_PAGES)


def halves(items: Sequence[Item], weight: Callable[[Item], int]) -> tuple[list[Item], list[Item]]:
    """The items in two halves balanced by weight, heaviest placed first; each half in the
    items' order."""
    order = {id(item): index for index, item in enumerate(items)}
    split: tuple[list[Item], list[Item]] = ([], [])
    totals = [0, 0]
    for item in sorted(items, key=lambda item: -weight(item)):
        lighter = totals.index(min(totals))
        split[lighter].append(item)
        totals[lighter] += weight(item)
    return (sorted(split[0], key=lambda item: order[id(item)]), sorted(split[1], key=lambda item: order[id(item)]))


def forked(items: Sequence[Item], weight: Callable[[Item], int], work: Callable[[list[Item]], Any]) -> tuple[Any, Any]:
    """`work` on each half of `items`, the second in a forked child: both results, the child's
    sent back pickled (or the error that stopped it raised here)."""
    mine, theirs = halves(items, weight)
    reader, pipe_writer = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(reader)
        _child(work, theirs, pipe_writer)
    os.close(pipe_writer)
    try:
        done = work(mine)
    except BaseException:
        os.kill(child, signal.SIGTERM)
        raise
    finally:
        with os.fdopen(reader, "rb") as pipe:
            data = pipe.read()
        os.waitpid(child, 0)
    status, detail = pickle.loads(data) if data else ("failed", RuntimeError("the second process died"))
    if status == "failed":
        raise detail
    return done, detail


def _child(work: Callable[[list], Any], items: list, pipe_writer: int) -> None:
    """In the child: do its half, report, and leave without cleaning up the parent's state."""
    outcome: tuple = ("failed", RuntimeError("the second process stopped"))
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
