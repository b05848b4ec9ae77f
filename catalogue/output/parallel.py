"""A big first build on two cores: a forked child renders and writes half of the page groups."""

from __future__ import annotations

import os
import pickle
import signal
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from ..pages.page import PageGroup
from ..report import ContentError

if TYPE_CHECKING:
    from .writer import SiteWriter, Written

FORK_MIN_PAGES = 2000  # below this a second process costs more than it saves


def can_fork(groups: list[PageGroup]) -> bool:
    """Two processes pay off for a big first build, on a machine with two cores or more, where
    fork is safe: not in a process with threads (watch mode)."""
    return (hasattr(os, "fork") and (os.cpu_count() or 1) > 1 and threading.active_count() == 1
            and sum(len(group.pages) for group in groups) >= FORK_MIN_PAGES)


def halves(groups: list[PageGroup]) -> tuple[list[PageGroup], list[PageGroup]]:
    """The groups in two halves balanced by page count, biggest groups placed first."""
    split: tuple[list[PageGroup], list[PageGroup]] = ([], [])
    for group in sorted(groups, key=lambda g: -len(g.pages)):
        min(split, key=lambda half: sum(len(g.pages) for g in half)).append(group)
    return split


def write_on_two_processes(writer: SiteWriter, groups: list[PageGroup], out_dir: Path) -> list[Written]:
    """This process writes one half while a forked child writes the other; the child sends
    back its formulas that failed, or the error that stopped it, and its half is then recorded
    as written here."""
    mine, theirs = halves(groups)
    reader, pipe_writer = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(reader)
        _child(writer, theirs, out_dir, pipe_writer)
    os.close(pipe_writer)
    try:
        done = [w for group in mine for w in writer.render_group(group, out_dir)]
    except BaseException:
        os.kill(child, signal.SIGTERM)
        raise
    finally:
        with os.fdopen(reader, "rb") as pipe:
            data = pipe.read()
        os.waitpid(child, 0)
    status, detail = pickle.loads(data) if data else ("failed", RuntimeError("the second renderer died"))
    if status == "failed":
        raise detail
    writer.renderer.markup.failed_math += detail
    return done + [w for group in theirs for w in writer.remember_group(group)]


def _child(writer: SiteWriter, groups: list[PageGroup], out_dir: Path, pipe_writer: int) -> None:
    """In the child: render its half, report, and leave without cleaning up the parent's state."""
    outcome: tuple = ("done", [])
    try:
        for group in groups:
            writer.render_group(group, out_dir)
        outcome = ("done", writer.renderer.markup.failed_math)
    except BaseException as error:  # noqa: BLE001 — everything must reach the parent
        outcome = ("failed", error if isinstance(error, ContentError) else RuntimeError(repr(error)))
    finally:
        try:
            with os.fdopen(pipe_writer, "wb") as pipe:
                pickle.dump(outcome, pipe)
        finally:
            os._exit(0)  # whatever happens, the child never goes on with the parent's work
