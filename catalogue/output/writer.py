"""Rendered pages → files in the site folder, rendering only what changed since the last call."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..files import prune_empty_dirs, write_if_changed
from ..pages.page import Page, PageGroup
from ..render.renderer import PageRenderer
from .parallel import can_fork, write_on_two_processes


@dataclass(frozen=True)
class Written:
    """A page rendered by this call: its file, its bytes (None once on disk), its key."""

    file: str
    data: bytes | None
    key: tuple


@dataclass(frozen=True)
class _Seen:
    """A group as last written: its planner version and what its pages shared."""

    version: int
    key: tuple


class SiteWriter:
    """Writes pages into a folder and remembers what each file was made from (its renderer
    key), so the next call renders only the pages whose key moved, and deletes files no page
    makes any more. A group whose version and shared key are as last written is skipped whole."""

    def __init__(self, renderer: PageRenderer):
        self.renderer = renderer
        self._written: dict[str, tuple] = {}  # file → the key it was rendered from
        self._seen: dict[str, _Seen] = {}
        self._pending: dict[str, _Seen] = {}  # groups written by the current call

    @property
    def files(self) -> dict[str, tuple]:
        """Every file written, with what it was rendered from."""
        return self._written

    @property
    def first_build(self) -> bool:
        return not self._written

    def memory(self) -> tuple[dict, dict]:
        """What the writer knows of the files it wrote, for the next build (see `adopt`)."""
        return self._written, self._seen

    def adopt(self, memory: tuple[dict, dict], kept: set[str]) -> None:
        """Take a last build's memory, for the files of it that are `kept` in the output."""
        written, seen = memory
        self._written = {file: key for file, key in written.items() if file in kept}
        self._seen = seen if len(self._written) == len(written) else {}  # else every group is looked at

    def write(self, groups: list[PageGroup], out_dir: Path, streaming: bool | None = None) -> list[str]:
        """Render and write what changed; return the files written. A first build, or one into
        a folder no one reads yet (`streaming`), writes as it goes, to keep memory flat; a
        rebuild renders everything before it writes anything, so a template that fails leaves
        `out_dir` as it was."""
        self._pending = {}
        streaming = self.first_build if streaming is None else streaming
        if streaming and can_fork(groups):
            done = write_on_two_processes(self, groups, out_dir)
        else:
            done = [w for group in groups for w in self.render_group(group, out_dir if streaming else None)]
        self._commit(done, out_dir, streaming)
        return [w.file for w in done]

    def render_group(self, group: PageGroup, out_dir: Path | None) -> list[Written]:
        """Render the group's changed pages; given `out_dir`, write each at once and keep no bytes."""
        done = []
        for page, key in self._changed(group):
            data: bytes | None = self.renderer.render(page)
            if out_dir:
                write_if_changed(out_dir / page.file, data)
                self._written[page.file] = key
                data = None
            done.append(Written(page.file, data, key))
        return done

    def remember_group(self, group: PageGroup) -> list[Written]:
        """Record the group's changed pages as written, by another process (see `parallel`)."""
        done = [Written(page.file, None, key) for page, key in self._changed(group)]
        for written in done:
            self._written[written.file] = written.key
        return done

    def _changed(self, group: PageGroup) -> list[tuple[Page, tuple]]:
        """The group's pages whose key differs from the file's, with their keys."""
        group_key = self.renderer.group_key(group.pages)
        seen = self._seen.get(group.id)
        if seen and seen.version == group.version and seen.key == group_key:
            return []
        self._pending[group.id] = _Seen(group.version, group_key)
        keyed = ((page, self.renderer.key_of(page)) for page in group.pages)
        return [(page, key) for page, key in keyed if self._written.get(page.file) != key]

    def _commit(self, done: list[Written], out_dir: Path, written_already: bool) -> None:
        if not written_already:
            for written in done:
                write_if_changed(out_dir / written.file, written.data)
        for written in done:
            self._written[written.file] = written.key

    def remove_vanished(self, groups: list[PageGroup], planned: frozenset[str], out_dir: Path) -> list[str]:
        """Forget groups that are gone, and delete every file no page of this build makes."""
        ids = {group.id for group in groups}
        self._seen = {**{g: seen for g, seen in self._seen.items() if g in ids}, **self._pending}
        self._pending = {}
        removed = sorted(set(self._written) - planned)
        for file in removed:
            del self._written[file]
            (out_dir / file).unlink(missing_ok=True)
            prune_empty_dirs((out_dir / file).parent, out_dir)
        return removed
