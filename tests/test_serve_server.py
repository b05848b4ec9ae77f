"""The dev server: only the site's own files, never a listing, and many readers at once."""

from __future__ import annotations

import http.client
import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import build_py

from catalogue.serve.server import DevServer


@pytest.fixture
def served(tmp_path: Path):
    site = tmp_path / "site"
    (site / "papers/samba").mkdir(parents=True)
    (site / "papers/samba/index.html").write_text("<html><body>Samba</body></html>")
    (site / "404.html").write_text("<html><body>Not here</body></html>")
    (site / "empty-folder").mkdir()
    (tmp_path / "secret.txt").write_text("do not serve")
    server = DevServer(site, port=0)
    server.start()
    yield server
    server.stop()


def get(server: DevServer, path: str) -> tuple[int, bytes]:
    host, port = server.httpd.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=10)
    connection.request("GET", path)  # sent as written: no client-side normalising
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def test_it_listens_on_loopback_unless_told_otherwise(served):
    assert served.httpd.server_address[0] == "127.0.0.1"


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/papers/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
    "/papers%2f..%2f..%2fsecret.txt", "/..%5csecret.txt", "//etc/passwd", "/%2fetc%2fpasswd",
    "/papers/samba/index.html%00.txt",
])
def test_paths_out_of_the_site_are_not_found(served, path):
    status, body = get(served, path)
    assert status == 404 and b"do not serve" not in body and b"root:" not in body


def test_a_folder_without_an_index_is_not_listed(served):
    status, body = get(served, "/empty-folder/")
    assert status == 404 and b"Not here" in body


def test_two_hundred_readers_at_once_all_get_their_page(served):
    with ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(lambda _: get(served, "/papers/samba/"), range(200)))
    assert all(status == 200 and b"Samba" in body for status, body in results)


def test_watch_on_a_port_in_use_says_so_and_how_to_pick_another(code, small_site):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = build_py(code, "--watch", "--port", str(port), "--content", str(small_site.content), timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (f"127.0.0.1:{port}: cannot serve there (Address already in use) — stop what is "
                                   f"serving on it (another `build.py --watch`?), or pass another port, like "
                                   f"`--port {port + 1}`")
