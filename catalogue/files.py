"""Reading and writing files, for every stage.

Reading: the text files people edit are UTF-8 with or without a BOM, any line ends, and errors
come at the line an editor shows. Lines end at `\\n`, `\\r\\n` or `\\r` only, as editors
number them, not at the form feeds and Unicode separators `str.splitlines` also splits on
(pdftotext writes form feeds).

Writing: always atomic (temporary file, then rename), with one temporary-name scheme.

Knowing whether a file changed: `signature`, the one cheap identity of a file's bytes that
every stage compares.
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterator
from pathlib import Path

from .report import ContentError, Diagnostic

_LINE_END = re.compile(rb"\r\n|\r|\n")
_CONFLICT = re.compile(r"^(?:<{7}|>{7}|\|{7})(?: |$)", re.MULTILINE)  # what git leaves in a file it could not merge


Signature = tuple[int, ...]  # (size, mtime in ns, inode), or () for no file


def signature(path: Path | str) -> Signature:
    """What tells a file's bytes apart without reading them: its size, its modification time and
    its inode (a save by atomic rename gives a new inode even within the clock's resolution);
    `()` if there is no such file."""
    try:
        stat = os.stat(path)
    except OSError:
        return ()
    return (stat.st_size, stat.st_mtime_ns, stat.st_ino)


_EDITORS_SUFFIXES = ("~", ".swp", ".swx", ".swo", ".tmp", ".part", ".crdownload")


def is_editors_file(name: str) -> bool:
    """Editors' swap, backup, lock and temporary files (vim's `4913` probe too): not content."""
    return name.startswith((".", "#")) or name.endswith(_EDITORS_SUFFIXES) or name == "4913"


def files_in(folder: Path, recursive: bool = True) -> Iterator[Path]:
    """The files of `folder` (and of its subfolders, if `recursive`) that a build reads: not
    editors' files, nor Python's `__pycache__`. In no set order; nothing if there is no folder."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if recursive and entry.name != "__pycache__":
                yield from files_in(folder / entry.name, recursive)
        elif not is_editors_file(entry.name):
            yield folder / entry.name


def read_text(path: Path) -> str:
    """The file's text, a BOM dropped and every line end made `\\n`. Raises ContentError at the
    line of the first byte that is not UTF-8, and OSError if the file cannot be read."""
    return decode_text(path.read_bytes(), path)


def decode_text(data: bytes, path: Path) -> str:
    """`read_text` of bytes already in memory (a file's new text, checked before it is written)."""
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as error:
        line = len(_LINE_END.split(data[:bom + error.start]))
        raise ContentError([Diagnostic(path, line, f"not UTF-8 text ({error.reason} at byte {bom + error.start})",
                                       "save the file as UTF-8")]) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "<<<<<<<" in text or ">>>>>>>" in text:  # a substring test first: the pattern is rarely needed
        refuse_conflict(path, text)
    return text


def refuse_conflict(path: Path, text: str) -> None:
    """A merge conflict left in the file is never read as content (or published as text)."""
    marker = _CONFLICT.search(text)
    if marker:
        line = text.count("\n", 0, marker.start()) + 1
        raise ContentError([Diagnostic(path, line, "an unresolved merge conflict (git's "
                                       f"`{marker.group(0).strip()}` line)",
                                       "keep what both sides meant, then delete the `<<<<<<<`, "
                                       "`=======` and `>>>>>>>` lines")])


def read_lines(path: Path) -> list[str]:
    """The file's lines, numbered from 1 as editors number them (see `read_text`)."""
    return read_text(path).split("\n")


def write_atomic(target: Path, data: bytes | str) -> None:
    """Replace `target` in one step: a reader (or a killed build) sees the old bytes or the new,
    never half a file. The temporary name is a hidden dotfile, which the watcher ignores."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = _temporary(target)
    try:
        temporary.write_bytes(_bytes(data))
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


def write_if_changed(target: Path, data: bytes) -> bool:
    """`write_atomic`, only if the bytes differ (so unchanged pages keep their mtimes)."""
    try:
        if target.read_bytes() == data:
            return False
    except OSError:
        pass
    write_atomic(target, data)
    return True


def write_staged(target: Path, data: bytes) -> Signature:
    """Write into a staging folder, which no reader sees before it is swapped in: a new file in
    place (no temporary, no rename: the most of a big build's writes); a file already there, a
    hard link to the live site's, replaced as `write_if_changed` does, never written through.
    Returns the file's signature."""
    try:
        handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileNotFoundError:
        target.parent.mkdir(parents=True, exist_ok=True)
        return write_staged(target, data)
    except FileExistsError:
        write_if_changed(target, data)
        return signature(target)
    with os.fdopen(handle, "wb") as file:
        file.write(data)
    return signature(target)


def write_new(target: Path, data: bytes | str) -> None:
    """Write atomically, and never over an existing file (raises FileExistsError): what tools
    add to content/ must not replace a curator's file, even one made a moment ago."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = _temporary(target)
    try:
        with open(temporary, "xb") as handle:
            handle.write(_bytes(data))
            handle.flush()
            os.fsync(handle.fileno())
        os.link(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


class ChangedMeanwhile(Exception):
    """A file to be replaced is no longer what the change was computed from (someone saved it)."""

    def __init__(self, path: Path):
        self.path = path
        super().__init__(f"{path} changed while the change was being made")


def replace_all(changes: dict[Path, bytes | None], originals: dict[Path, bytes | None]) -> None:
    """Give every file its new bytes (None: delete it), or leave every one as it was: each is
    written to a temporary file beside its target, then all are renamed into place; if any step
    fails, the files already replaced get their `originals` back (None: it did not exist) and
    the error is raised again. Raises ChangedMeanwhile, changing nothing, if a file no longer
    holds its original bytes."""
    temporaries: dict[Path, Path] = {}
    done: list[Path] = []
    try:
        for target, data in changes.items():
            if data is not None:
                target.parent.mkdir(parents=True, exist_ok=True)
                temporaries[target] = _temporary(target)
                temporaries[target].write_bytes(data)
        for target in changes:
            if _current(target) != originals[target]:
                raise ChangedMeanwhile(target)
        for target, data in changes.items():
            if data is None:
                target.unlink()
            else:
                os.replace(temporaries[target], target)
            done.append(target)
    except BaseException:
        restore_all({target: originals[target] for target in done})
        raise
    finally:
        for temporary in temporaries.values():
            temporary.unlink(missing_ok=True)


def restore_all(originals: dict[Path, bytes | None]) -> None:
    """Put back each file's original bytes; remove those that did not exist (None)."""
    for target, data in originals.items():
        if data is None:
            target.unlink(missing_ok=True)
        elif _current(target) != data:
            write_atomic(target, data)


def _current(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def prune_empty_dirs(folder: Path, root: Path) -> None:
    """Remove `folder` and its parents up to `root` while they are empty."""
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent


def _temporary(target: Path) -> Path:
    return target.with_name(f".{target.name}.{os.getpid()}.tmp")


def _bytes(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data
