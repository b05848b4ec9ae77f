"""The development server: serves a folder, tells browsers to reload, shows build errors.

It knows nothing about building: a watcher calls `reload()` and `show_errors()`, asks which
pages are open in a browser (`open_pages`: each page's live-reload connection says which page
it is), and may be handed a callback that each request calls first with the file it asks for
(`on_request`), so that a page still waiting to be rewritten can be rewritten at once.
"""

from __future__ import annotations

import html
import http.server
import json
import mimetypes
import posixpath
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

WATCH_PREFIX = "/__watch/"
CLIENT_SCRIPT = (Path(__file__).parent / "livereload.js").read_text(encoding="utf-8")
KEEPALIVE_SECONDS = 10.0
BUILD_FAILED = "The last build failed; these pages are from the last good build."
NO_SITE_YET = (b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not built yet</title></head>'
               b"<body><h1>Nothing here yet</h1><p>No build has succeeded since watch mode started, "
               b"so there is no page at this address yet.</p></body></html>")


class DevServer:
    """A threaded HTTP server over `root` with Server-Sent Events for live reload."""

    def __init__(self, root: Path, host: str = "127.0.0.1", port: int = 8000):
        self.root = root.resolve()
        self.on_request: Callable[[str], None] | None = None  # told each path asked for, before it is served
        self.errors: list[str] = []
        self.errors_heading = BUILD_FAILED
        self._events: list[tuple[str, str]] = []  # every event sent, (kind, data): none is lost
        self._open: Counter[str] = Counter()  # the pages with a live-reload connection, by path
        self._changed = threading.Condition()
        self._stopping = False
        self.httpd = http.server.ThreadingHTTPServer((host, port), self._handler())
        self.httpd.daemon_threads = True

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> None:
        threading.Thread(target=self.httpd.serve_forever, daemon=True, name="http").start()

    def stop(self) -> None:
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
        self.httpd.shutdown()
        self.httpd.server_close()

    def reload(self, pages: Iterable[str] | None = None, event: str = "reload") -> None:
        """Tell the open pages: `reload` reloads those of `pages` (site paths like `/papers/x/`;
        None: every page), `search` says the index is fresh."""
        data = "*" if pages is None else json.dumps(sorted(pages))
        with self._changed:
            self._events.append((event, data))
            self._changed.notify_all()

    def open_pages(self) -> set[str]:
        """The paths of the pages open in a browser now."""
        with self._changed:
            return {page for page, count in self._open.items() if count > 0}

    def show_errors(self, lines: list[str], heading: str = "") -> None:
        """Overlay these lines, under `heading`, on every page until called with an empty list."""
        self.errors, self.errors_heading = list(lines), heading or BUILD_FAILED

    @property
    def stopping(self) -> bool:
        return self._stopping

    def events_sent(self) -> int:
        """How many events were sent so far: where a new listener starts."""
        with self._changed:
            return len(self._events)

    def next_events(self, seen: int) -> tuple[list[tuple[str, str]], int]:
        """Wait until events beyond the first `seen` were sent; return them, (kind, data), with
        how many have been sent now (nothing new on timeout or shutdown)."""
        with self._changed:
            self._changed.wait_for(lambda: len(self._events) > seen or self._stopping, timeout=KEEPALIVE_SECONDS)
            if self._stopping:
                return [], seen
            return self._events[seen:], len(self._events)

    def _opened(self, page: str, change: int) -> None:
        with self._changed:
            self._open[page] += change

    def decorate(self, page: bytes) -> bytes:
        """Add the reload script, and the error overlay if the last build failed."""
        snippet = f'<script src="{WATCH_PREFIX}client.js"></script>'
        if self.errors:
            snippet = _overlay(self.errors_heading, self.errors) + snippet
        marker = page.rfind(b"</body>")
        cut = marker if marker >= 0 else len(page)
        return page[:cut] + snippet.encode("utf-8", errors="replace") + page[cut:]

    def _handler(self) -> type[http.server.BaseHTTPRequestHandler]:
        server = self

        class Handler(_Handler):
            dev = server

        return Handler


class _Handler(http.server.BaseHTTPRequestHandler):
    dev: DevServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_HEAD(self) -> None:
        self.do_GET(head=True)

    def do_GET(self, head: bool = False) -> None:
        path = urlsplit(self.path).path
        if path == WATCH_PREFIX + "events":
            return self._send(200, b"", "text/event-stream", head) if head else self._event_stream()
        if path == WATCH_PREFIX + "client.js":
            return self._send(200, CLIENT_SCRIPT.encode(), "text/javascript", head)
        if self.dev.on_request:
            self.dev.on_request(unquote(path))
        file = self._file(path)
        if file is None:
            return self._not_found(head)
        if file.is_dir():
            if not path.endswith("/"):
                return self._redirect(path + "/")
            file = file / "index.html"
            if not file.is_file():
                return self._not_found(head)
        try:
            body = file.read_bytes()
        except OSError:  # deleted by a rebuild since we looked
            return self._not_found(head)
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        if kind == "text/html":
            body = self.dev.decorate(body)
        self._send(200, body, kind, head)

    def _file(self, path: str) -> Path | None:
        """The file a URL path names, or None if it is missing or tries to leave the root."""
        decoded = unquote(path)
        if "\0" in decoded or "\\" in decoded or any(part == ".." for part in decoded.split("/")):
            return None
        relative = posixpath.normpath(decoded).lstrip("/")
        candidate = (self.dev.root / relative).resolve() if relative not in ("", ".") else self.dev.root
        if not candidate.is_relative_to(self.dev.root) or not candidate.exists():
            return None
        return candidate

    def _event_stream(self) -> None:
        """Events for the page that opened this stream (`?page=/papers/x/`), which counts as
        open while the stream lasts."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        seen = self.dev.events_sent()
        page = parse_qs(urlsplit(self.path).query).get("page", [""])[0]
        self.dev._opened(page, 1)
        try:
            self.wfile.write(b": connected\n\n")
            self.wfile.flush()
            while not self.dev.stopping:
                events, seen = self.dev.next_events(seen)
                self.wfile.write(b"".join(f"event: {kind}\ndata: {data}\n\n".encode() for kind, data in events)
                                 or b": keep-alive\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        finally:
            self.dev._opened(page, -1)

    def _not_found(self, head: bool) -> None:
        """The site's 404 page; before any build succeeded there is none, and a page of our
        own carries the errors and the reload script, so a fix still reloads every tab."""
        page = self.dev.root / "404.html"
        body = page.read_bytes() if page.is_file() else NO_SITE_YET
        self._send(404, self.dev.decorate(body), "text/html", head)

    def _redirect(self, location: str) -> None:
        self.send_response(301)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send(self, status: int, body: bytes, kind: str, head: bool) -> None:
        self.send_response(status)
        charset = "; charset=utf-8" if kind.startswith("text/") or kind.endswith("javascript") else ""
        self.send_header("Content-Type", kind + charset)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if not head:
            self.wfile.write(body)


def _overlay(heading: str, errors: list[str]) -> str:
    items = "".join(f"<li>{html.escape(line)}</li>" for line in errors)
    return (
        '<div id="watch-overlay" role="alert" style="position:fixed;inset:auto 1rem 1rem 1rem;'
        "z-index:1000;max-height:60vh;overflow:auto;padding:1rem 1.2rem;background:#2b0f12;"
        'color:#ffe3e3;border:2px solid #ff6b6b;border-radius:8px;font:14px/1.5 ui-monospace,monospace">'
        f"<strong>{html.escape(heading)}</strong>"
        f'<ul style="margin:.5rem 0 0;padding-left:1.2rem">{items}</ul>'
        "<p style=\"margin:.5rem 0 0\">Save a fix and this page reloads.</p></div>")
