"""How long each stage of a build takes, shown while it runs when the build is worth watching,
and the summary table it ends with (as Hugo ends with one).

On a terminal the stages run on one line with a bar; elsewhere (CI logs, pipes) each stage is a
plain line when it ends. Small catalogues build in a second or two and show nothing until the
table: whether to show is decided by the catalogue's size, not by a clock, so that the output of
a build never depends on how busy the machine is.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

SHOWN_FROM_PAPERS = 1000  # about four seconds of building on a 2-core machine
STAGES = ("restore", "load", "relate", "plan", "render", "links", "search", "swap", "save")
BAR_WIDTH = 24


class Stages:
    """Seconds per stage (a stage met twice adds up), and the live display while they run."""

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream
        self.seconds: dict[str, float] = {}
        self.shown = False
        self._on_terminal = bool(stream and stream.isatty())

    def show_for(self, papers: int) -> None:
        """Start showing the stages if the catalogue is big enough to be worth watching."""
        if self.stream and papers >= SHOWN_FROM_PAPERS and not self.shown:
            self.shown = True
            for name, seconds in self.seconds.items():  # the stages before it knew
                self._ended(name, seconds)

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        if self.shown and self._on_terminal:
            self._draw(name)
        try:
            yield
        finally:
            seconds = time.perf_counter() - started
            self.seconds[name] = self.seconds.get(name, 0.0) + seconds
            if self.shown:
                self._ended(name, seconds)

    def finish(self) -> None:
        """Clear the live line, so what follows starts on a clean one."""
        if self.shown and self._on_terminal:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()

    def _draw(self, name: str) -> None:
        done = STAGES.index(name) if name in STAGES else 0
        filled = BAR_WIDTH * done // len(STAGES)
        self.stream.write(f"\r\x1b[2K[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done + 1}/{len(STAGES)} {name}…")
        self.stream.flush()

    def _ended(self, name: str, seconds: float) -> None:
        if not self._on_terminal:
            self.stream.write(f"{name}: {seconds:.1f} s\n")
            self.stream.flush()


def summary_table(counts: dict[str, int], seconds: dict[str, float], total: float | None = None) -> str:
    """What was built and where the time went, in two aligned tables; `total` is the whole
    build's time (the stages' sum, and what lies between them), else their sum."""
    rows = [("", "count"), *((name, str(value)) for name, value in counts.items()),
            ("stage", "seconds"), *((name, f"{seconds[name]:.2f}") for name in STAGES if name in seconds),
            ("total", f"{sum(seconds.values()) if total is None else total:.2f}")]
    left = max(len(name) for name, _ in rows)
    right = max(len(value) for _, value in rows)
    lines = []
    for name, value in rows:
        if value in ("count", "seconds"):
            lines += [f"  {name:<{left}} | {value:>{right}}", f"  {'-' * left}-+-{'-' * right}"]
        else:
            lines.append(f"  {name:<{left}} | {value:>{right}}")
    return "\n".join(lines) + "\n"
