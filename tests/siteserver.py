"""A plain static server for built sites in tests: optional sub-path, and a strict CSP."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

CSP = ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
       "img-src 'self' data:; connect-src 'self'; worker-src 'self'; object-src 'none'; "
       "base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


class _Handler(http.server.SimpleHTTPRequestHandler):
    prefix = "/"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "__outside_the_site__")
        return super().translate_path("/" + path[len(self.prefix):])


class SiteServer:
    """Serves `site` at http://127.0.0.1:PORT{prefix} until stopped."""

    def __init__(self, site: Path, prefix: str = "/"):
        handler = functools.partial(type("Handler", (_Handler,), {"prefix": prefix}), directory=str(site))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}{prefix}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
