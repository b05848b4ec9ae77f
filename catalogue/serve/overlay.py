"""What shows over every page in watch mode: the errors of a failed build, or the broken links."""

from __future__ import annotations

import threading
from collections.abc import Callable

from .server import BUILD_FAILED, DevServer

BROKEN_LINKS = "Broken links: the pages are up to date, but these links lead nowhere."
FIRST_BUILD_FAILED = "The first build failed, so there are no pages yet: fix these and save."


class Overlay:
    """The errors over every page. A failed build's errors win; otherwise the broken links
    found so far, by page, as messages naming the file and line. Each method says whether what
    the pages show changed (then every open page should reload)."""

    def __init__(self, server: DevServer, log: Callable[[str], None]):
        self.server, self.log = server, log
        self._lock = threading.Lock()  # the rebuild thread and the request threads both come here
        self._broken: dict[str, list[str]] = {}  # by page
        self._failure: list[str] | None = None
        self._shown: list[str] = []
        self.built_once = False  # before that, a failure has no last good pages to show

    def build_failed(self, lines: list[str]) -> bool:
        with self._lock:
            self._failure = lines
            return self._show()

    def rebuilt(self, checked: list[str], found: dict[str, list[str]]) -> bool:
        """A rebuild succeeded: the pages in `checked` (those it wrote, and those it removed) now
        have the broken links in `found`."""
        with self._lock:
            self._failure = None
            self.built_once = True
            for page in checked:
                self._broken.pop(page, None)
            self._broken.update(found)
            return self._show()

    def site_checked(self, found: dict[str, list[str]]) -> bool:
        """A rebuild succeeded, and these are the whole site's broken links."""
        with self._lock:
            self._failure = None
            self.built_once = True
            self._broken = found
            return self._show()

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
