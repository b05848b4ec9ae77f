"""What shows over every page in watch mode: the errors of a failed build, or the broken links."""

from __future__ import annotations

import threading
from collections.abc import Callable

from .server import BUILD_FAILED, DevServer

BROKEN_LINKS = "Broken links: the pages are up to date, but these links lead nowhere."
FIRST_BUILD_FAILED = "The first build failed, so there are no pages yet: fix these and save."


class Overlay:
    """The errors over every page. A failed build's errors win; otherwise the broken links
    found so far, by page, as messages naming the file and line. Each rebuild gets a version;
    a whole-site link check that a rebuild overtook is stale (it may have read pages mid-write),
    and is refused so the caller runs it again."""

    def __init__(self, server: DevServer, log: Callable[[str], None]):
        self.server, self.log = server, log
        self._lock = threading.Lock()  # the rebuild thread and the links thread both come here
        self._version = 0  # rebuilds started
        self._broken: dict[str, list[str]] = {}  # by page
        self._failure: list[str] | None = None
        self._shown: list[str] = []
        self.built_once = False  # before that, a failure has no last good pages to show

    @property
    def version(self) -> int:
        return self._version

    def rebuild_started(self) -> int:
        with self._lock:
            self._version += 1
            return self._version

    def build_failed(self, lines: list[str]) -> None:
        with self._lock:
            self._failure = lines
            self._show()

    def rebuilt(self, checked: list[str], found: dict[str, list[str]]) -> None:
        """A rebuild succeeded: the pages in `checked` (those it wrote and checked at once, and
        those it removed) now have the broken links in `found`."""
        with self._lock:
            self._failure = None
            self.built_once = True
            for page in checked:
                self._broken.pop(page, None)
            self._broken.update(found)
            self._show()

    def site_checked(self, version: int, found: dict[str, list[str]]) -> bool:
        """The whole site's broken links, as of rebuild `version`; False if a rebuild has
        started since (the check is stale). Reloads the pages if what they show changed."""
        with self._lock:
            if version != self._version:
                return False
            self._broken = found
            changed = self._show()
        if changed:
            self.server.reload()
        return True

    def _show(self) -> bool:
        """Put the failure or the broken links over every page; True if that changed them."""
        if self._failure is not None:
            lines, heading = self._failure, BUILD_FAILED if self.built_once else FIRST_BUILD_FAILED
        else:
            lines, heading = [line for page in sorted(self._broken) for line in self._broken[page]], BROKEN_LINKS
        self.server.show_errors(lines, heading)
        changed, self._shown = lines != self._shown, lines
        for line in lines if changed and self._failure is None else []:
            self.log(line)
        return changed
