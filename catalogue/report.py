"""Diagnostics: what went wrong where, and how to fix it; kept apart from building."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in an input file."""

    path: Path | str
    line: int
    message: str
    hint: str = ""
    severity: str = "error"

    def __str__(self) -> str:
        return self._text(str(self.path))

    def from_here(self) -> str:
        """As printed in a terminal, its path as `shown_path` shows it."""
        return self._text(shown_path(self.path))

    def _text(self, path: str) -> str:
        where = f"{path}:{self.line}" if self.line else path
        label = "" if self.severity == "error" else f"{self.severity}: "
        text = f"{where}: {label}{self.message}"
        return f"{text} — {self.hint}" if self.hint else text


def shown_path(path: Path | str) -> str:
    """A path as a terminal shows it: relative to the working folder where it is inside it, as
    compilers do (`content/papers/kivi.md`, whether content/ was given or found). Links are not
    followed: a file is named where it was met, even if it leads elsewhere."""
    if ".." in Path(path).parts:
        return str(path)  # `lnk/../x` need not be `x` when `lnk` is a link: as given
    try:
        absolute, folders = os.path.abspath(path), _working_folders()
    except OSError:  # the working folder is gone
        return str(path)
    for here in folders:
        if absolute.startswith(here + os.sep):
            return absolute[len(here) + 1:]
    return str(path)


def _working_folders() -> list[str]:
    """The working folder as the system names it, and as the shell does when it was entered
    through a link (`$PWD`), so that paths given either way are shown from it."""
    here, shell = os.getcwd(), os.environ.get("PWD", "")
    return [here, shell] if shell and shell != here and os.path.realpath(shell) == here else [here]


class ContentError(Exception):
    """Raised when input is invalid; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(str(d) for d in diagnostics))

    def __reduce__(self):
        """Pickled whole (the second render process sends its errors to the first): by default
        an exception is remade from its message, which would make each character a diagnostic."""
        return (type(self), (self.diagnostics,))


@dataclass
class Report:
    """Collects diagnostics and progress lines; prints them if given a stream."""

    stream: TextIO | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def error(self, path: Path | str, line: int, message: str, hint: str = "") -> None:
        self._add(Diagnostic(path, line, message, hint, "error"))

    def warning(self, path: Path | str, line: int, message: str, hint: str = "") -> None:
        self._add(Diagnostic(path, line, message, hint, "warning"))

    def extend(self, diagnostics) -> None:
        for diagnostic in diagnostics:
            self._add(diagnostic)

    def note(self, path: Path | str, line: int, message: str, hint: str = "") -> None:
        """Worth knowing, never a failure, even with --strict."""
        self._add(Diagnostic(path, line, message, hint, "note"))

    def info(self, text: str) -> None:
        self.lines.append(text)
        if self.stream:
            print(text, file=self.stream)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise ContentError(self.errors)

    def _add(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)
        if self.stream:
            print(diagnostic.from_here(), file=self.stream)


def terminal_report() -> Report:
    """A report that prints to standard error as it goes."""
    return Report(stream=sys.stderr)
