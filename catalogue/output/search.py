"""Index the rendered site with Pagefind, for client-side search with filters."""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from .. import urls
from ..state import BuildState, OutputRecord, digest
from . import cbor

INDEX_DIR = "pagefind"
# Only paper pages are indexed (they alone carry data-pagefind-body): telling Pagefind so spares
# it reading every other page, a third of its time and a fifth of its memory at 10,000 papers.
PAGES_GLOB = urls.file_of(urls.paper("*"))
WORDS_FILE = "words.json"  # in INDEX_DIR: the words of the index, for correcting a reader's typos
SHARDS_FILE = "shards.json"  # in INDEX_DIR: the folders of the other shards, relative to it
SHARD_PAPERS = 4_000  # papers a Pagefind run indexes at most: about 650 MB of its memory
# Watch mode's shards: its reader is on this machine, and an edit then indexes 1,000 pages again
# (1.8 s at 10,000 papers) where a published shard would take 4,000 (7 s).
PREVIEW_SHARD_PAPERS = 1_000
MAX_WORDS = 30_000  # the most common: a reader's browser fetches and scans the list for a typo
_SIGNATURE = b"pagefind_dcd"  # the first bytes of every index file, once unzipped
# `python -m pagefind`, which execs the binary, made to end with the thread that started it
# (Linux: PR_SET_PDEATHSIG survives exec), so a killed build or watch mode leaves no indexer behind.
_PAGEFIND = """
import ctypes, os, runpy, signal, sys
parent = int(sys.argv.pop(1))
try:
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)
except (OSError, AttributeError):
    pass
else:
    if os.getppid() != parent:
        raise SystemExit("the build that started Pagefind has ended")
runpy.run_module("pagefind", run_name="__main__")
"""


class SearchIndexError(Exception):
    """Pagefind failed; carries what it printed."""


class Indexed(NamedTuple):
    """What `index_site` made: whether the index could be made byte-stable (see `make_stable`),
    and each shard's words, with the number of its pages that hold each."""

    stable: bool
    words: dict[str, dict[str, int]]


def index_site(site_dir: Path, background: bool = False,
               started: Callable[[subprocess.Popen], None] | None = None,
               shards: list[list[str]] | None = None,
               unchanged: Mapping[str, dict[str, int]] = MappingProxyType({})) -> Indexed:
    """Run the Pagefind binary (from `pagefind[bin]`) over `site_dir`; `background` runs it
    at low priority, so that it never slows the rebuilds of watch mode, and hands the process
    to `started`, so that watch mode can stop it.

    With `shards` (lists of paper page files, see `shards_of`), each list is indexed by a
    Pagefind run of its own, one after another, so no run holds more than one shard: the first
    into the index folder, the others into `shards/N/` in it, which the browser merges
    (`mergeIndex`, see static/search-core.js). `SHARDS_FILE` names them. A shard named in
    `unchanged` (see `index_key`) is taken over from the index in place, unrun, with the words
    it held (so its pages are not read again for the list of words).

    The index is built beside the old one and swapped in, so a live site always has a whole
    index, and stale files never linger (Pagefind itself never cleans its folder).
    """
    fresh, old = site_dir / f".{INDEX_DIR}-new", site_dir / f".{INDEX_DIR}-old"
    for leftover in (fresh, old):
        shutil.rmtree(leftover, ignore_errors=True)
    try:
        made = _index_into(fresh, site_dir, shards, unchanged, background, started)
    except OSError as error:
        shutil.rmtree(fresh, ignore_errors=True)
        raise SearchIndexError(f"could not put the index in a stable order: {error}") from error
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    if (site_dir / INDEX_DIR).exists():
        (site_dir / INDEX_DIR).rename(old)
    fresh.rename(site_dir / INDEX_DIR)
    shutil.rmtree(old, ignore_errors=True)
    return made


def _index_into(fresh: Path, site_dir: Path, shards: list[list[str]] | None, unchanged: Mapping[str, dict[str, int]],
                background: bool, started: Callable[[subprocess.Popen], None] | None) -> Indexed:
    """`index_site`'s index, made in the folder `fresh`."""
    folders, indexed = _index_shards(site_dir, fresh, shards, background, started, unchanged) if shards \
        else ([fresh], [fresh])
    if not shards:
        _run_pagefind(site_dir, fresh, background, started)
    stable = [make_stable(folder) for folder in indexed].count(False) == 0  # every shard run made stable
    words = {_folder_name(fresh, folder): unchanged.get(_folder_name(fresh, folder)) or page_words(folder)
             for folder in folders}
    write_words(fresh, list(words.values()))
    (fresh / SHARDS_FILE).write_text(json.dumps([f"{folder.relative_to(fresh).as_posix()}/"
                                                 for folder in folders[1:]]), encoding="utf-8")
    return Indexed(stable, words)


def _folder_name(index: Path, folder: Path) -> str:
    return folder.relative_to(index).as_posix() if folder != index else "."


def shards_of(papers: list[str], most: int) -> list[list[str]] | None:
    """The paper page files of `papers` (slugs in title order) in runs of at most `most`, or
    None when one Pagefind run can take them all. Each shard is a range of titles, so the
    shards in order are the catalogue in title order (the search page's sort by title)."""
    if len(papers) <= most:
        return None
    count = -(-len(papers) // most)
    size = -(-len(papers) // count)
    return [[urls.file_of(urls.paper(slug)) for slug in papers[start:start + size]]
            for start in range(0, len(papers), size)]


SEARCH = "search"  # what the index was made from, as the build state keeps it (a `Derived`)


class Reindex(NamedTuple):
    """What an index must be made again from: the key of the whole, each shard's key (the build
    state keeps both, with each shard's words), the shards of paper pages (None: one run for
    all), and the words of the shards whose pages did not change, which are taken over unrun."""

    key: bytes
    made: dict[str, bytes]
    shards: list[list[str]] | None
    unchanged: dict[str, dict[str, int]]


def to_reindex(state: BuildState, titles: list[str], size: int | None = None) -> Reindex | None:
    """What to index again for the paper pages the state records, `titles` their slugs in title
    order, in shards of at most `size` (SHARD_PAPERS); None if the index was made from the same
    pages (by their keys)."""
    size = SHARD_PAPERS if size is None else size
    pages = sorted(file for file in state.outputs if urls.paper_of_file(file))
    whole = index_key(pages, state.outputs, size)
    known = state.derived.get(SEARCH)
    if known and known.key == whole:
        return None
    shards = shards_of(titles, size)
    made = {shard_folder(number): index_key(shard, state.outputs, size) for number, shard in enumerate(shards or [])}
    last = known.value if known else {}
    unchanged = {folder: last[folder][1] for folder, key in made.items() if folder in last and last[folder][0] == key}
    return Reindex(whole, made, shards, unchanged)


def searched(wanted: Reindex, indexed: Indexed) -> dict[str, tuple[bytes, dict[str, int]]]:
    """What the build state keeps of an index made for `wanted`: each shard's key and words."""
    return {folder: (key, indexed.words.get(folder, {})) for folder, key in wanted.made.items()}


def index_key(pages: list[str], outputs: Mapping[str, OutputRecord], size: int) -> bytes:
    """What an index of `pages` is made from: the Pagefind that makes it, how, and each page's
    key as the build state records it. Equal keys, equal index (Pagefind reads nothing else)."""
    return digest((_pagefind_version(), PAGES_GLOB, MAX_WORDS, size,
                   [(page, outputs[page].key) for page in pages if page in outputs]))


def shard_folder(number: int) -> str:
    """A shard's folder in the index: "." for the first."""
    return f"shards/{number}" if number else "."


def _index_shards(site_dir: Path, fresh: Path, shards: list[list[str]], background: bool,
                  started: Callable[[subprocess.Popen], None] | None,
                  unchanged: Collection[str]) -> tuple[list[Path], list[Path]]:
    """Index each shard from a folder of links to its pages, or take it over from the index in
    place if `unchanged`; return the shards' index folders, and those indexed now."""
    folders, indexed = [], []
    for number, pages in enumerate(shards):
        folder = fresh / shard_folder(number)
        folders.append(folder)
        if shard_folder(number) in unchanged and _take_over(site_dir / INDEX_DIR / shard_folder(number), folder):
            continue
        indexed.append(folder)
        shard_site = site_dir / f".{INDEX_DIR}-shard"
        shutil.rmtree(shard_site, ignore_errors=True)
        for page in pages:
            (shard_site / page).parent.mkdir(parents=True, exist_ok=True)
            os.link(site_dir / page, shard_site / page)
        try:
            _run_pagefind(shard_site, folder, background, started)
        finally:
            shutil.rmtree(shard_site, ignore_errors=True)
        if number:  # the browser takes Pagefind's scripts and WebAssembly from the first
            for extra in folder.glob("*"):
                if extra.is_file() and extra.name != "pagefind-entry.json" and extra.suffix != ".pf_meta":
                    extra.unlink()
    return folders, indexed


def _take_over(old: Path, new: Path) -> bool:
    """Link a shard's files from the index in place into the new one (the first shard's
    without the others, the word list and the list of shards, which are made anew)."""
    if not (old / "pagefind-entry.json").is_file():
        return False
    for path in old.rglob("*"):
        relative = path.relative_to(old)
        if relative.parts[0] == "shards" or relative.as_posix() in (WORDS_FILE, SHARDS_FILE) or not path.is_file():
            continue
        (new / relative).parent.mkdir(parents=True, exist_ok=True)
        os.link(path, new / relative)
    return True


def _run_pagefind(site_dir: Path, output: Path, background: bool,
                  started: Callable[[subprocess.Popen], None] | None) -> None:
    command = [sys.executable, "-c", _PAGEFIND, str(os.getpid()), "--site", str(site_dir),
               "--glob", PAGES_GLOB, "--output-path", str(output), "--quiet"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as process:
        if background:  # not preexec_fn, which is unsafe in a process with threads
            os.setpriority(os.PRIO_PROCESS, process.pid, 10)
        if started:
            started(process)
        output_text, _ = process.communicate()
    if process.returncode != 0 or not (output / "pagefind-entry.json").is_file():
        raise SearchIndexError(output_text.strip() or "no index written")


def _pagefind_version() -> str:
    try:
        return importlib.metadata.version("pagefind")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def search_files(site_dir: Path) -> list[str]:
    """The index's files, relative to `site_dir`."""
    return [path.relative_to(site_dir).as_posix() for path in (site_dir / INDEX_DIR).rglob("*") if path.is_file()]


_WORD = re.compile(r"[^\W\d_]{3,}")


def page_words(index_dir: Path) -> dict[str, int]:
    """The words of the pages an index folder holds (from Pagefind's fragments, where they are
    not stemmed), in lower case, with how many pages hold each."""
    pages: dict[str, int] = {}
    for fragment in sorted((index_dir / "fragment").glob("*.pf_fragment")):
        for word in set(_WORD.findall(_fragment_text(fragment).lower())):
            pages[word] = pages.get(word, 0) + 1
    return pages


def write_words(index_dir: Path, shards: list[dict[str, int]] | None = None) -> list[str]:
    """Write the words of the indexed pages (`page_words` of `index_dir`, or of each shard) to
    WORDS_FILE, the words on most pages first: the search page corrects a word found nowhere to
    the nearest of them. Returns them."""
    pages: dict[str, int] = {}
    for counts in shards if shards is not None else [page_words(index_dir)]:
        for word, count in counts.items():
            pages[word] = pages.get(word, 0) + count
    words = sorted(pages, key=lambda word: (-pages[word], word))[:MAX_WORDS]
    (index_dir / WORDS_FILE).write_text(json.dumps(words, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    return words


def _fragment_text(path: Path) -> str:
    """A page's indexed text and title, from its Pagefind fragment (gzipped JSON); "" if the
    fragment is in a layout this code does not know."""
    data = gzip.decompress(path.read_bytes())
    try:
        page = json.loads(data[len(_SIGNATURE):]) if data.startswith(_SIGNATURE) else {}
        return f"{page['content']} {page['meta']['title']}"
    except (ValueError, KeyError, TypeError):
        return ""


def make_stable(index_dir: Path) -> bool:
    """Give the same site the same index bytes on every run. Pagefind writes its filters, and
    the values in each, in hash-map order (Pagefind issue #638), and names each file after its
    bytes; put them in name order, rename the files after their new bytes and point the
    metadata and `pagefind-entry.json` at the new names. An index in a layout this code does not
    know (another Pagefind version) is left as it is: returns False."""
    entry_path = index_dir / "pagefind-entry.json"
    try:
        entry = json.loads(entry_path.read_text(encoding="utf-8"))
        entry["languages"] = dict(sorted(entry["languages"].items()))
        plans = [_plan(index_dir, info["hash"]) for info in entry["languages"].values()]
    except (ValueError, KeyError, TypeError, AttributeError):
        return False
    if None in plans:
        return False
    for info, (meta_path, meta, filters) in zip(entry["languages"].values(), plans):
        prefix = info["hash"].rpartition("_")[0]
        renamed = {old_hash: _rewrite(index_dir / "filter" / f"{old_hash}.pf_filter", "{}.pf_filter", index, prefix)
                   for old_hash, index in filters.items()}
        meta[3] = sorted([name, renamed[old_hash]] for name, old_hash in meta[3])
        meta[4].sort(key=lambda sort: sort[0])
        info["hash"] = _rewrite(meta_path, "pagefind.{}.pf_meta", meta, prefix)
    entry_path.write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    return True


def _plan(index_dir: Path, meta_hash: str) -> tuple[Path, list, dict] | None:
    """The metadata and the filter indexes of one language, with each filter's values in
    order; None unless every file has the layout of Pagefind 1.5."""
    meta_path = index_dir / f"pagefind.{meta_hash}.pf_meta"
    meta = _read(meta_path)
    if not (isinstance(meta, list) and len(meta) >= 5 and isinstance(meta[3], list)
            and isinstance(meta[4], list) and all(_is_pair(sort, list) for sort in meta[4])
            and all(_is_pair(f, str) for f in meta[3])):
        return None
    filters = {}
    for _, filter_hash in meta[3]:
        index = _read(index_dir / "filter" / f"{filter_hash}.pf_filter")
        if not (_is_pair(index, list) and all(_is_pair(value, list) for value in index[1])):
            return None
        index[1].sort(key=lambda value: value[0])
        filters[filter_hash] = index
    return meta_path, meta, filters


def _is_pair(value: object, second: type) -> bool:
    return (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
            and isinstance(value[1], second))


def _read(path: Path) -> object:
    """An index file's value, or None if it is not CBOR that this codec writes back unchanged."""
    try:
        data = gzip.decompress(path.read_bytes())
        value = cbor.decode(data[len(_SIGNATURE):]) if data.startswith(_SIGNATURE) else None
    except (OSError, EOFError, gzip.BadGzipFile, cbor.CBORError, UnicodeDecodeError, TypeError, RecursionError):
        return None
    return value if value is not None and cbor.encode(value) == data[len(_SIGNATURE):] else None


def _rewrite(old: Path, name: str, value: object, prefix: str) -> str:
    """Write `value` beside `old` under `name` filled with a hash of its bytes, remove `old`,
    and return the hash. Gzipped without a timestamp, as Pagefind writes its files."""
    data = _SIGNATURE + cbor.encode(value)
    new_hash = f"{prefix}_{hashlib.sha256(data).hexdigest()[:10]}"
    new = old.with_name(name.format(new_hash))
    new.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    if new != old:
        old.unlink()
    return new_hash
