"""A plain static server for built sites in tests: optional sub-path, and a strict CSP."""

from __future__ import annotations

import functools
import http.server
import threading
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def netlify_headers() -> dict[str, str]:
    """The headers netlify.toml sets on every page: the tests serve exactly those."""
    config = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))
    return next(rule["values"] for rule in config["headers"] if rule["for"] == "/*")


class _Handler(http.server.SimpleHTTPRequestHandler):
    prefix = "/"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        for name, value in netlify_headers().items():
            self.send_header(name, value)
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
