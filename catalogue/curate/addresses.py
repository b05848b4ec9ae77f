"""The addresses of tags that go: each path of theirs the ledger holds gets a line in
content/redirects.txt, and earlier lines that led to them lead to where they went."""

from __future__ import annotations

from pathlib import Path

from .. import urls
from ..config import LEDGER_FILE, REDIRECTS_FILE
from ..files import read_lines
from ..ledger import read_ledger
from .transaction import Transaction

HEADER = "# Old addresses and where they lead now: `/old/path/ /new/path/`, one a line (see docs/reference.md).\n"


def redirect_tags(transaction: Transaction, moves: dict[str, str]) -> None:
    """Keep the published paths of each removed tag (`moves`: old id → the tag taking its
    readers): a redirect a line, appended; a line that led to a removed tag leads on."""
    content_dir = transaction.content_dir
    path = content_dir / REDIRECTS_FILE
    raw = path.read_bytes() if path.is_file() else b""
    line_end = "\r\n" if b"\r\n" in raw else "\n"
    lines = read_lines(path) if raw else [HEADER.rstrip("\n"), ""]
    what: list[str] = []
    kept = [line for line in (_retarget(line, moves, what) for line in lines) if line is not None]
    olds = {line.split("#", 1)[0].split()[0] for line in kept if line.split("#", 1)[0].split()}
    published = _published(content_dir, moves)
    added = [f"{old} {_moved(old, moves)}" for old in published if old not in olds]
    if not added and not what:
        return
    if kept and kept[-1] == "":
        kept.pop()
    what += [f"+ {line}" for line in added]
    transaction.write(path, line_end.join([*kept, *added, ""]), *what)


def _published(content_dir: Path, moves: dict[str, str]) -> list[str]:
    """The removed tags' paths the ledger holds, and their pages' citation files (files, which
    the ledger does not keep, but people download and link them)."""
    ledger = read_ledger(content_dir.resolve().parent / LEDGER_FILE)
    pages = [path for path in ledger if _tag_of(path) in moves]
    files = ["/" + urls.tag_file(_tag_of(page), name) for page in pages if page == "/" + urls.tag(_tag_of(page))
             for name in urls.CITATIONS]
    return sorted(set(pages + files))


def _retarget(line: str, moves: dict[str, str], what: list[str]) -> str | None:
    """The line with its target moved on; None if it now keeps an address a tag serves again
    (an earlier rename undone), or leads to itself."""
    parts = line.split("#", 1)[0].split()
    if len(parts) != 2:
        return line
    old, new = parts
    target = _moved(new, moves)
    if _tag_of(old) in moves.values() or target == old:
        what.append(f"- {line.strip()} (that tag's page is there again)")
        return None
    if not target:
        return line
    at = line.index(new, line.index(old) + len(old))
    what.append(f"{line.strip()} → {old} {target}")
    return line[:at] + target + line[at + len(new):]


def _moved(path: str, moves: dict[str, str]) -> str:
    """Where a removed tag's path leads (`/tags/a/feed.xml` → `/tags/b/feed.xml`); '' if it stays."""
    tag = _tag_of(path)
    if tag not in moves:
        return ""
    return "/" + urls.tag(moves[tag]) + path[len("/" + urls.tag(tag)):]


def _tag_of(path: str) -> str:
    prefix = "/" + urls.TAGS
    return path[len(prefix):].split("/", 1)[0] if path.startswith(prefix) and path.count("/") >= 3 else ""
