"""The catalogue's history, from git: what each commit added, changed, removed and renamed in
content/papers/, and what changed since the last deploy (Netlify's CACHED_COMMIT_REF).

One `git log --raw` lists the commits and the blobs each one touched; one `git cat-file --batch`
reads the front matter before and after; each commit's result is kept in the cache folder, so
a build reads only the commits it has not seen. Papers are known by their `slug:`, not their
file name; a draft is not published, so a paper made a draft counts as removed. Without git
(a copy of the folder, a tarball) there is no history: the pages stage falls back to `added:`.
"""

from __future__ import annotations

import datetime
import os
import pickle
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..config import PAPERS_DIR
from ..files import is_editors_file, write_atomic

LIMIT = 100  # changes shown: the newest first, whole commits, until this many
BATCH = LIMIT  # commits a `git log` reads at a time: most commits change a paper or more
CACHE_FILE = "history.pickle"  # in the cache folder: commit → its entry, computed once
FORMAT = 3  # of the cache file; raise it when `Entry` or what it records changes
LINK_KEYS = ("arxiv", "openreview", "url", "code", "project")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TIMEOUT = 60  # seconds: a git that hangs must not hang the build


@dataclass(frozen=True)
class Edit:
    """One paper in one change: `kind` is added, changed, removed or renamed (from `old_slug`,
    whose address leads on through `aliases:`); `fields` what changed: title, authors, venue,
    tags, links, abstract; `old_title` the title before, when it changed."""

    kind: str
    slug: str
    title: str
    fields: tuple[str, ...] = ()
    old_slug: str = ""
    old_title: str = ""


@dataclass(frozen=True)
class Entry:
    """A commit's changes to the papers. `time` is its commit time in UTC (ISO), `date` its day."""

    commit: str
    time: str
    summary: str
    edits: tuple[Edit, ...]

    @property
    def date(self) -> str:
        return self.time[:10]


@dataclass(frozen=True)
class Deploy:
    """What changed between the last deploy's commit and this one's; `edits` is None when the
    last deploy's commit is not in this clone's history (a shallow clone)."""

    since: str
    until: str
    edits: tuple[Edit, ...] | None


@dataclass(frozen=True)
class History:
    """The newest commits that changed papers (at least LIMIT changes, newest first), and the
    changes since the last deploy when the environment names it."""

    head: str
    entries: tuple[Entry, ...]
    deploy: Deploy | None = None


def state(content_dir: Path, environ: Mapping[str, str] | None = None) -> tuple[str, str, str, str]:
    """What the history depends on beyond content/: HEAD, the deploy's two commits and a shallow
    clone's boundary, which `git fetch --unshallow` moves under the same HEAD (cheap: one `git
    rev-parse`); ("", …) without git."""
    environ = os.environ if environ is None else environ
    found = (_git(content_dir, "rev-parse", "--git-path", "shallow", "--verify", "-q", "HEAD") or "").split("\n")
    head = found[1].strip() if len(found) > 1 else ""
    return (head, environ.get("CACHED_COMMIT_REF", ""), environ.get("COMMIT_REF", ""),
            _shallow_boundary(content_dir / found[0]) if head else "")


def _shallow_boundary(path: Path) -> str:
    """The commits a shallow clone stops at ('' for a whole history)."""
    try:
        return path.read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return ""


def read_history(content_dir: Path, cache_dir: Path | None = None,
                 environ: Mapping[str, str] | None = None) -> History | None:
    """The history of content/papers/ in git; None without git or a commit that changed a paper."""
    head, since, until, _ = state(content_dir, environ)
    if not head:
        return None
    stored = _load_cache(cache_dir)
    known, used = dict(stored), {}
    entries = _entries(content_dir, known, used)
    if not entries:  # no git, or papers git does not track: the dates they were added will do
        return None
    deploy = _deploy(content_dir, since, until or head, known, used) if since else None
    if used != stored:  # new commits, or old ones no longer shown: the cache keeps what is shown
        _save_cache(cache_dir, used)
    return History(head, entries, deploy)


def _git(content_dir: Path, *args: str, stdin: bytes | None = None) -> str | None:
    """A git command's output, run in the content folder; None if git is missing or fails."""
    data = _git_bytes(content_dir, *args, stdin=stdin)
    return None if data is None else data.decode("utf-8", "replace")


def _git_bytes(content_dir: Path, *args: str, stdin: bytes | None = None) -> bytes | None:
    if shutil.which("git") is None or not content_dir.is_dir():
        return None
    command = ["git", "-c", "core.quotepath=off", "-C", str(content_dir), *args]
    try:
        done = subprocess.run(command, input=stdin, capture_output=True, timeout=_TIMEOUT,
                              env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _entries(content_dir: Path, known: dict, used: dict) -> tuple[Entry, ...] | None:
    """The newest commits' entries until LIMIT changes, reading the log a batch of commits at a
    time (so a long history costs what is shown) and the blobs only of commits not in `known`;
    `used` gains each entry looked at, which is what the cache keeps."""
    boundary = _shallow_commits(content_dir)
    entries, count, skip = [], 0, 0
    while count < LIMIT:
        log = _git(content_dir, "log", f"--max-count={BATCH}", f"--skip={skip}", "--format=%x1e%H%x1f%ct%x1f%s",
                   "--raw", "--no-abbrev", "-M", "--", PAPERS_DIR)
        if log is None:
            return None
        commits = [each for each in _commits(log) if each[0] not in boundary]  # (cut off: all would look added)
        known.update(_new_entries(content_dir, commits, known))
        for commit, *_ in commits:
            if count >= LIMIT:
                break
            entry = used[commit] = known[commit]
            if entry.edits:
                entries.append(entry)
                count += len(entry.edits)
        if log.count("\x1e") < BATCH:
            break
        skip += BATCH
    return tuple(entries)


def _new_entries(content_dir: Path, commits: list[tuple], known: dict) -> dict[str, Entry]:
    """The entries of the commits not in `known`, their blobs read by one `git cat-file`."""
    fresh = [(commit, seconds, summary, _pairs(raw)) for commit, seconds, summary, raw in commits
             if commit not in known]
    blobs = _read_blobs(content_dir, set().union(*(_blobs_of(pairs) for *_, pairs in fresh)))
    return {commit: Entry(commit, _utc(seconds), summary, _edits_of(pairs, blobs))
            for commit, seconds, summary, pairs in fresh}


def _utc(seconds: str) -> str:
    return datetime.datetime.fromtimestamp(int(seconds), datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _commits(log: str):
    """(commit, time, summary, raw lines) for each commit of `git log --raw`."""
    for record in log.split("\x1e")[1:]:
        header, _, body = record.partition("\n")
        commit, seconds, summary = (header.split("\x1f") + ["", ""])[:3]
        yield commit, seconds, summary.strip(), [line for line in body.splitlines() if line.startswith(":")]


def _shallow_commits(content_dir: Path) -> set[str]:
    """The commits whose parents a shallow clone left out."""
    path = _git(content_dir, "rev-parse", "--git-path", "shallow")
    shallow = Path(path.strip()) if path else None
    if shallow and not shallow.is_absolute():
        shallow = content_dir / shallow
    try:
        return set(shallow.read_text().split()) if shallow else set()
    except OSError:
        return set()


def _deploy(content_dir: Path, since: str, until: str, known: dict, used: dict) -> Deploy:
    """The changes between two commits, as one diff (cached by the pair)."""
    key = ("deploy", since, until)
    if key not in known:
        raw = _git(content_dir, "diff", "--raw", "--no-abbrev", "-M", f"{since}^{{commit}}",
                   f"{until}^{{commit}}", "--", PAPERS_DIR)
        if raw is None:
            return Deploy(since, until, None)  # not cached: a deeper clone may know it
        known[key] = _edits(content_dir, raw.splitlines())
    used[key] = known[key]
    return Deploy(since, until, known[key])


def _edits(content_dir: Path, raw: list[str]) -> tuple[Edit, ...]:
    """The edits of `--raw` lines (`:mode mode old new status\tpath[\tpath]`)."""
    pairs = _pairs(raw)
    return _edits_of(pairs, _read_blobs(content_dir, _blobs_of(pairs)))


def _pairs(raw: list[str]) -> list[tuple[str, str]]:
    """(old blob, new blob) of each paper file a commit touched; "" for none."""
    pairs = []
    for line in raw:
        meta, *paths = line.split("\t")
        parts = meta.split()
        if len(parts) == 5 and parts[4][:1] in "ADMR" and all(map(_is_paper_path, paths)):
            pairs.append((_blob(parts[2]), _blob(parts[3])))
    return pairs


def _blobs_of(pairs: list[tuple[str, str]]) -> set[str]:
    return {blob for pair in pairs for blob in pair if blob}


def _edits_of(pairs: list[tuple[str, str]], blobs: dict[str, dict | None]) -> tuple[Edit, ...]:
    versions = [(blobs.get(old) if old else {}, blobs.get(new) if new else {}) for old, new in pairs]
    edits = sorted(((edit, before, after) for before, after in versions if (edit := _edit(before, after))),
                   key=lambda found: (found[0].kind, found[0].slug))
    return _paired(edits)


def _is_paper_path(path: str) -> bool:
    """A file straight in content/papers/ whose name a paper may have (not an editor's)."""
    name = path.strip('"').rpartition(f"{PAPERS_DIR}/")[2]
    return name.endswith(".md") and "/" not in name and not is_editors_file(name)


def _blob(sha: str) -> str:
    return "" if set(sha) == {"0"} else sha


def _read_blobs(content_dir: Path, blobs: set[str]) -> dict[str, dict | None]:
    """Each blob's front matter and abstract (None: not a paper file git can give us)."""
    if not blobs:
        return {}
    order = sorted(blobs)
    data = _git_bytes(content_dir, "cat-file", "--batch", stdin="".join(f"{b}\n" for b in order).encode())
    found, at = {}, 0
    while data and at < len(data):
        header_end = data.index(b"\n", at)
        sha, kind, *size = data[at:header_end].decode().split()
        if kind == "missing" or not size:
            at = header_end + 1
            continue
        start = header_end + 1
        found[sha] = front_matter(data[start:start + int(size[0])].decode("utf-8", "replace"))
        at = start + int(size[0]) + 1
    return found


def front_matter(text: str) -> dict[str, Any] | None:
    """A paper file's front matter, with its abstract as `body`; None if it has none (an old
    version may be broken: it is skipped, not reported; the build reports the current one)."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].rstrip() != "---":
        return None
    end = next((n for n, line in enumerate(lines[1:], 1) if line.rstrip() == "---"), 0)
    try:
        meta = yaml.load("\n".join(lines[1:end]), Loader=_LOADER) if end else None
    except yaml.YAMLError:
        return None
    if not isinstance(meta, dict) or not isinstance(meta.get("slug"), str):
        return None
    return {**meta, "body": "\n".join(lines[end + 1:]).strip()}


def _shown(meta: dict | None) -> dict | None:
    """What a reader sees of a version: None for no file, a broken one or a draft."""
    return None if not meta or meta.get("draft") is True else meta


def _edit(old: dict | None, new: dict | None) -> Edit | None:
    """One file's change as a reader sees it; None if nothing they see changed."""
    if old is None or new is None:  # a version git holds but that cannot be read: say nothing
        return None
    before, after = _shown(old), _shown(new)
    if before is None and after is None:
        return None
    if before is None:
        return Edit("added", after["slug"], _title(after))
    if after is None:
        return Edit("removed", before["slug"], _title(before))
    fields = changed_fields(before, after)
    old_title = _title(before) if "title" in fields else ""
    if before["slug"] != after["slug"]:
        return Edit("renamed", after["slug"], _title(after), fields, before["slug"], old_title)
    if after.get("withdrawn") and not before.get("withdrawn"):  # its page stays, saying so; lists drop it
        return Edit("withdrawn", after["slug"], _title(after), tuple(f for f in fields if f != "withdrawn"))
    return Edit("changed", after["slug"], _title(after), fields, old_title=old_title) if fields else None


def _title(meta: dict) -> str:
    return str(meta.get("title") or meta["slug"]).strip()


def changed_fields(before: dict, after: dict) -> tuple[str, ...]:
    """Which of what a reader sees differs between two versions of a paper's front matter."""
    def seen(meta: dict) -> dict[str, object]:
        return {"title": _title(meta), "authors": meta.get("authors"),  # `venue`: where and how it was published
                "venue": (meta.get("venue"), meta.get("presentation"), meta.get("pages")),
                "tags": meta.get("tags"), "links": tuple(meta.get(key) for key in LINK_KEYS),
                "abstract": meta.get("body"), "withdrawn": (meta.get("withdrawn"), meta.get("withdrawn_reason"))}
    old, new = seen(before), seen(after)
    return tuple(name for name in old if old[name] != new[name])


def _paired(edits: list[tuple[Edit, dict, dict]]) -> tuple[Edit, ...]:
    """A paper removed and one added with its slug among `aliases:`, in one change, is a
    rename git did not see (the file changed too much, or moved to another file)."""
    removed = {edit.slug: before for edit, before, _ in edits if edit.kind == "removed"}
    result, renamed = [], set()
    for edit, _, after in edits:
        old = next((s for s in _aliases(after) if s in removed and s not in renamed), None) if after else None
        if edit.kind == "added" and old:
            renamed.add(old)
            fields = changed_fields(removed[old], after)
            edit = Edit("renamed", edit.slug, edit.title, fields, old, _title(removed[old]) if "title" in fields else "")
        result.append(edit)
    return tuple(edit for edit in result if not (edit.kind == "removed" and edit.slug in renamed))


def _aliases(meta: dict) -> tuple[str, ...]:
    aliases = meta.get("aliases")
    return tuple(a for a in aliases if isinstance(a, str)) if isinstance(aliases, list) else ()


def _load_cache(cache_dir: Path | None) -> dict:
    """The entries computed by earlier builds (a commit's never changes); {} if none or stale."""
    if cache_dir is None:
        return {}
    try:
        with (cache_dir / CACHE_FILE).open("rb") as stream:
            stored = pickle.load(stream)
    except Exception:  # noqa: BLE001 (none yet, or from another version: compute again)
        return {}
    return stored[1] if isinstance(stored, tuple) and stored[:1] == (FORMAT,) else {}


def _save_cache(cache_dir: Path | None, known: dict) -> None:
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(cache_dir / CACHE_FILE, pickle.dumps((FORMAT, known), protocol=pickle.HIGHEST_PROTOCOL))
