"""Page groups → files in the site folder (or, for `check`, in memory only). A group is made
again only when its key or what it is rendered with moved, and a page rendered only when its
own key moved; each file written is recorded in the build state with the links and ids it
holds, the paper it is the page of and the warnings rendering it gave."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..files import prune_empty_dirs, signature, write_if_changed, write_staged
from ..pages.checks import group_facts
from ..pages.page import Page, PageGroup
from ..render.renderer import PageRenderer
from ..state import BuildState, GroupFacts, GroupRecord, OutputRecord, digest
from .links import LinkReader
from .parallel import can_fork, shared


@dataclass
class Made:
    """A group made anew: its record once its pages are written, and the pages to render (with
    their keys); the others are as they were."""

    group: PageGroup
    record: GroupRecord
    stale: list[tuple[Page, bytes]] = field(default_factory=list)


class SiteWriter:
    """Makes the groups whose key moved, then renders and writes their pages whose key moved,
    into `out_dir` (None: kept in memory, as `check` does; `staged`: a staging folder no reader
    sees before the swap, see `files.write_staged`). Rendering is one page at a time,
    under a lock, so that a page asked for by a reader can be rendered at once
    (`write_now`) while the others are written in the background."""

    def __init__(self, renderer: PageRenderer, state: BuildState, out_dir: Path | None, staged: bool = False):
        self.renderer, self.state, self.out_dir, self.staged = renderer, state, out_dir, staged
        self.links = LinkReader()
        self.moved = False  # a file was added, or a page written with other ids: every link is checked again
        self._lock = threading.RLock()
        self._pending: dict[str, tuple[Made, Page, bytes]] = {}  # file → its group, page and key
        self._planned = threading.Event()  # cleared while the pages to write are worked out
        self._planned.set()
        self._requested: set[str] = set()  # files written on request during the current `write`

    def made(self, groups: Iterable[PageGroup]) -> list[Made]:
        """The groups whose arguments or templates moved, made anew."""
        found = []
        for group in groups:
            key = self.state.key(group.id, group.make, group.args)
            record = self.state.groups.get(group.id)
            if record and record.key == key and record.rendered_with == self.renderer.rendered_with(record.templates):
                continue
            found.append(self._make(group, key))
        return found

    def _make(self, group: PageGroup, key: bytes) -> Made:
        pages = tuple(group.make(*group.args))
        templates = frozenset(page.template for page in pages)
        rendered_with = self.renderer.rendered_with(templates)
        made = Made(group, GroupRecord(key, rendered_with, templates, group_facts(pages, group.in_sitemap)))
        for page in pages:
            page_key = digest((page, rendered_with))
            known = self.state.outputs.get(page.file)
            if known is None or known.key != page_key:
                made.stale.append((page, page_key))
        return made

    def facts(self, groups: list[PageGroup], made: list[Made]) -> list[tuple[str, GroupFacts]]:
        """What each group of the plan makes, as it will be once `made` are written."""
        new = {each.group.id: each.record.facts for each in made}
        return [(group.id, new[group.id] if group.id in new else self.state.groups[group.id].facts) for group in groups]

    def write(self, made: list[Made], stop: Callable[[], bool] = lambda: False,
              only: Callable[[str], bool] = lambda file: True) -> list[str]:
        """Render and write the stale pages of `made` (those whose file `only` takes), one group
        after another, and record each group once all its pages are; returns the files written.
        Stops between pages when `stop()` says so (a newer edit in watch mode): what is left
        stays stale, and its group is made again by the next plan. Many pages to write are shared
        by a process per core where they can be forked (see `parallel`), which first typeset
        the abstracts in them, each once, for all of them."""
        for each in made:  # until all its pages are written, a group's last record no longer holds
            self.state.groups.pop(each.group.id, None)
        if not can_fork(sum(len(each.stale) for each in made)):
            return self._write(made, stop, only)[0]
        abstracts = self.renderer.abstracts_in([page for each in made for page, _ in each.stale])
        for typeset in shared(abstracts, len, self.renderer.typeset_abstracts):
            self.renderer.remember_abstracts(typeset)
        (written, _, _), *theirs = shared(made, lambda each: len(each.stale),
                                          lambda part: self._write(part, stop, only))
        for files, outputs, groups in theirs:
            for file, record in outputs.items():
                self._keep(file, record)
            self.state.groups.update(groups)
            written += files
        return written

    def _write(self, made: list[Made], stop: Callable[[], bool] = lambda: False,
               only: Callable[[str], bool] = lambda file: True) -> tuple[list[str], dict, dict]:
        """`write` in this process: the files written, and their records and their groups'."""
        with self._lock:
            self._pending.update((page.file, (each, page, key)) for each in made for page, key in each.stale)
            self._requested = set()
        self._planned.set()
        written, groups = [], {}
        try:
            for each in made:
                for page, _ in each.stale:
                    if stop():  # a group left part-written is made again; its pages written are known
                        return written, {file: self.state.outputs[file] for file in written}, groups
                    if only(page.file) and (self._write_pending(page.file) or page.file in self._requested):
                        written.append(page.file)
                if all(only(page.file) for page, _ in each.stale):
                    self.state.groups[each.group.id] = groups[each.group.id] = each.record
            return written, {file: self.state.outputs[file] for file in written}, groups
        finally:
            self._forget(made)  # what a stop or an error left waiting is out of date: never written on request

    @property
    def waiting(self) -> set[str]:
        """The files waiting to be written now (a reader who asks for one gets it at once)."""
        with self._lock:
            return set(self._pending)

    def held(self) -> threading.RLock:
        """The lock a page is written under: held, no page is written on request."""
        return self._lock

    def planning(self) -> None:
        """The pages to write are being worked out: `write_now` waits for them (see `planned`)."""
        self._planned.clear()

    def planned(self) -> None:
        self._planned.set()

    def write_now(self, file: str, wait: float = 30) -> bool:
        """Render and write `file` at once if it is waiting to be (a reader asked for it); while
        the pages to write are being worked out, first wait for them (at most `wait` seconds)."""
        self._planned.wait(wait)
        with self._lock:
            if not self._write_pending(file):
                return False
            self._requested.add(file)
            return True

    def _write_pending(self, file: str) -> bool:
        with self._lock:
            found = self._pending.pop(file, None)
            if found is None:
                return False
            made, page, key = found
            rendered = self.renderer.render(page)
            on_disk = ()
            if self.out_dir is not None and self.staged:
                on_disk = write_staged(self.out_dir / file, rendered.data)
            elif self.out_dir is not None:
                write_if_changed(self.out_dir / file, rendered.data)
                on_disk = signature(self.out_dir / file)
            self._keep(file, self._record(made.group.id, page, key, rendered, on_disk))
            return True

    def _keep(self, file: str, record: OutputRecord) -> None:
        """Record a file written, noting whether links elsewhere may now lead somewhere else
        (a new file, or other ids on it)."""
        before = self.state.outputs.get(file)
        self.moved = self.moved or before is None or before.ids != record.ids
        self.state.outputs[file] = record

    def _record(self, group_id: str, page: Page, key: bytes, rendered, on_disk: tuple) -> OutputRecord:
        paper = page.context.get("paper")
        html = page.file.endswith(".html")
        return OutputRecord(key, group_id, on_disk, self.links.links(rendered.data) if html else (),
                            self.links.ids(rendered.data) if html else frozenset(),
                            paper.slug if paper is not None else "", rendered.warnings)

    def _forget(self, made: list[Made]) -> None:
        """Drop the pages of `made` still waiting to be written."""
        with self._lock:
            for each in made:
                for page, _ in each.stale:
                    self._pending.pop(page.file, None)

    def remove_vanished(self, groups: list[PageGroup], planned: frozenset[str]) -> list[str]:
        """Forget the groups that are gone, and delete every file no page of this plan makes."""
        ids = {group.id for group in groups}
        for gone in [group_id for group_id in self.state.groups if group_id not in ids]:
            del self.state.groups[gone]
        removed = sorted(file for file in self.state.outputs if file not in planned)
        for file in removed:
            del self.state.outputs[file]
            if self.out_dir is not None:
                (self.out_dir / file).unlink(missing_ok=True)
                prune_empty_dirs((self.out_dir / file).parent, self.out_dir)
        return removed
