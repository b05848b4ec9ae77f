"""What a build remembers in `.cache/` for the next one: the builder's parts (files read and
checked, related papers, the plan, what each output file was rendered from) and the output
files as they were left. The next `python build.py` restores them, starts its staging folder
from the unchanged files of the last output (hard links: no bytes copied) and then does what
watch mode does on an edit: re-read the files that changed and render the pages whose inputs
moved. The result is the same bytes as a clean build (tested).

Everything is thrown away when the code, the Python or a library that shapes the output
changes, or the build's settings do: `identity` names all of them. A file of the last output
whose size or time differs from what the build left (someone edited `site/`) is rendered again.
A build that finds nothing it reads changed, and the output as the last one left it, does
nothing at all (`unchanged`, from a small file read before the big one).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pickle
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import SiteConfig
from ..content.history import state as history_state
from ..files import write_atomic

STATE_FILE = "build-state.pickle"
UNCHANGED_FILE = "build-inputs.pickle"  # small: whether anything changed at all, read first
PACKAGE = Path(__file__).resolve().parent.parent
LIBRARIES = ("jinja2", "markdown", "markupsafe", "latex2mathml", "nh3", "python-frontmatter", "pyyaml", "numpy",
             "scipy", "pillow", "pagefind")
FORMAT = 1  # of the state file; raise it when `Remembered` changes shape


@dataclass
class Remembered:
    """One build's memory. `files` is every output file as the build left it, (size, mtime in
    ns); `search` each search index folder's inputs, as `search.index_inputs` fingerprints them."""

    identity: tuple
    parts: dict[str, Any]
    files: dict[str, tuple[int, int]] = field(default_factory=dict)
    search: dict[str, str] = field(default_factory=dict)


def identity(config: SiteConfig) -> tuple:
    """What a remembered build must share with this one to be of any use."""
    return (FORMAT, code_version(), config)


def code_version() -> str:
    """The package's own code, the Python running it and the libraries that shape the output."""
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in (".py", ".js") and "__pycache__" not in path.parts:
            digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    for name in LIBRARIES:
        try:
            digest.update(f"{name}={importlib.metadata.version(name)}".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{name}=none".encode())
    return digest.hexdigest()


def restore(cache_dir: Path | None, config: SiteConfig) -> Remembered | None:
    """The last build's memory, if there is one for this code and these settings."""
    if cache_dir is None:
        return None
    try:
        with (cache_dir / STATE_FILE).open("rb") as stream:
            if pickle.load(stream) != identity(config):  # read first: a stale state is never unpickled
                return None
            remembered = pickle.load(stream)
    except Exception:  # noqa: BLE001 (none yet, one from an older version or cut short: a clean build will do)
        return None
    return remembered if isinstance(remembered, Remembered) else None


def remember(cache_dir: Path | None, remembered: Remembered) -> None:
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        data = b"".join(pickle.dumps(part, protocol=pickle.HIGHEST_PROTOCOL) for part in (remembered.identity, remembered))
        write_atomic(cache_dir / STATE_FILE, data)


@dataclass(frozen=True)
class Outcome:
    """What a build left, for a next build that finds nothing changed: the signature of
    everything it read, every output file as it left it, its summary (pages and papers; files
    and redirects) and its warnings, which the next one reports again."""

    inputs: str
    files: dict[str, tuple[int, int]]
    summary: tuple[int, int]
    counts: tuple[int, int]
    warnings: tuple = ()
    ledger: tuple = ()  # the ledger's size and time as the build left it (it writes the ledger)


def inputs_signature(config: SiteConfig) -> str:
    """Name, size and time of every file a build reads but the ledger (content, templates,
    static files), the code, the settings and the git history's head (and the last deploy's
    commit): equal signatures (and ledgers), equal output."""
    digest = hashlib.sha256(repr((identity(config), history_state(config.content_dir))).encode())
    folders = (config.content_dir, config.templates_dir, config.static_dir)
    for path in sorted(path for folder in folders for path in _files_under(folder)):
        stat = os.stat(path)
        digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def ledger_signature(ledger: Path | None) -> tuple:
    try:
        stat = ledger.stat() if ledger else None
    except OSError:
        return ()
    return (stat.st_size, stat.st_mtime_ns) if stat else ()


def _files_under(folder: Path) -> list[str]:
    return [os.path.join(top, name) for top, _, names in os.walk(folder) for name in names]


def unchanged(cache_dir: Path | None, signature: str, ledger: Path | None, out_dir: Path) -> Outcome | None:
    """The last build's outcome if everything it read has this `signature` still, the ledger
    is as it left it and so is its output (no file changed, none added); None otherwise."""
    if cache_dir is None:
        return None
    try:
        with (cache_dir / UNCHANGED_FILE).open("rb") as stream:
            outcome = pickle.load(stream)
    except Exception:  # noqa: BLE001 (none, or not ours: build)
        return None
    if not isinstance(outcome, Outcome) or (outcome.inputs, outcome.ledger) != (signature, ledger_signature(ledger)):
        return None
    found = output_files(out_dir, set(outcome.files))
    total = sum(len(names) for _, _, names in os.walk(out_dir))
    return outcome if found == outcome.files and total == len(found) else None


def remember_outcome(cache_dir: Path | None, outcome: Outcome) -> None:
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(cache_dir / UNCHANGED_FILE, pickle.dumps(outcome, protocol=pickle.HIGHEST_PROTOCOL))


def output_files(site: Path, files: set[str]) -> dict[str, tuple[int, int]]:
    """The size and time of each of `files` in `site`, as this build leaves them."""
    found = {}
    for file in files:
        try:
            stat = (site / file).stat()
        except OSError:
            continue
        found[file] = (stat.st_size, stat.st_mtime_ns)
    return found


def seed(out_dir: Path, staging: Path, files: dict[str, tuple[int, int]]) -> set[str]:
    """Link each file of the last output that is as that build left it into `staging`; return
    those linked. Every later write replaces a file (a rename), so the last output stays whole.
    (Strings, not Paths: this runs for every file of the site.)"""
    linked, folders = set(), set()
    source_root, target_root = f"{out_dir}{os.sep}", f"{staging}{os.sep}"
    for file, (size, mtime) in files.items():
        source, target = source_root + file, target_root + file
        try:
            stat = os.stat(source)
        except OSError:
            continue
        if (stat.st_size, stat.st_mtime_ns) != (size, mtime):
            continue
        folder = os.path.dirname(target)
        if folder not in folders:
            os.makedirs(folder, exist_ok=True)
            folders.add(folder)
        try:
            os.link(source, target)
        except OSError:  # another file system, or one without hard links
            shutil.copy2(source, target)
        linked.add(file)
    return linked
