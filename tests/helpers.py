"""What the test modules share: folders read into dicts and compared, build.py run as a process
from a copy of the code (so its default .cache/ is never the repository's), and the frozen
catalogue with the project copied around it."""

from __future__ import annotations

import difflib
import shutil
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path

from catalogue.builder import Builder, RenderResult
from catalogue.changeset import ChangeSet
from catalogue.config import PROJECT_ROOT, SiteConfig
from catalogue.report import Report

CODE = ("build.py", "catalogue", "templates", "static")  # what `python build.py` needs, content aside
# The catalogue as it stood on 2026-12-03 (content/ and its ledger), frozen for the tests: engine
# tests read this, never the live content/, so a curator's edit cannot break them. The live
# catalogue is read in one place, tests/test_catalogue_live.py (and the same-output test).
FROZEN = Path(__file__).parent / "fixtures" / "catalogue"
PROJECT = ("build.py", "catalogue", "templates", "static", "netlify.toml", ".gitattributes")
CATALOGUE = ("content", "published-urls.txt")


def tree(folder: Path, pattern: str = "*", *, mtimes: bool = False,
         ignore: Collection[str] = ()) -> dict[str, bytes] | dict[str, tuple[bytes, int]]:
    """Every file under `folder` matching `pattern`, by its path relative to `folder`: its bytes
    (a symlink's target, not followed), and with `mtimes` also its modification time in ns.
    Names in `ignore` are left out wherever they are."""
    found = {}
    for path in sorted(folder.rglob(pattern)):
        if path.name in ignore or not (path.is_symlink() or path.is_file()):
            continue
        data = str(path.readlink()).encode() if path.is_symlink() else path.read_bytes()
        found[path.relative_to(folder).as_posix()] = (data, path.lstat().st_mtime_ns) if mtimes else data
    return found


def differences(expected: dict[str, bytes], actual: dict[str, bytes], names: tuple[str, str] = ("expected", "actual"),
                lines: int = 60) -> str:
    """'' when the two trees are the same; else which files are missing, extra or differ, and a
    unified diff of the first file that differs (its first `lines` lines)."""
    missing = sorted(set(expected) - set(actual))
    extra = sorted(set(actual) - set(expected))
    changed = sorted(name for name in set(expected) & set(actual) if expected[name] != actual[name])
    if not (missing or extra or changed):
        return ""
    report = [f"only in {names[0]}: {missing}", f"only in {names[1]}: {extra}",
              f"{len(changed)} file(s) differ: {changed[:20]}{' …' if len(changed) > 20 else ''}"]
    if changed:
        first = changed[0]
        diff = difflib.unified_diff(_lines(expected[first]), _lines(actual[first]),
                                    f"{names[0]}/{first}", f"{names[1]}/{first}", lineterm="")
        report += list(diff)[:lines]
    return "\n".join(report)


def _lines(data: bytes) -> list[str]:
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return [f"{len(data)} bytes, not text: {data[:64]!r}…"]


def rebuild(builder: Builder, *paths: Path) -> RenderResult:
    """What watch mode does after saves of `paths`; without them, what a build does: compare
    every file with the builder's state."""
    changes = ChangeSet.of_paths(paths, builder.config) if paths else builder.state.changes(builder.config)
    return builder.build(changes, Report())


def built(config: SiteConfig, out_dir: Path | None = None) -> Builder:
    """A builder over a state of its own, into `out_dir` (default: the config's), built once."""
    builder = Builder(config, out_dir=config.out_dir if out_dir is None else out_dir)
    builder.out_dir.mkdir(parents=True, exist_ok=True)
    builder.build(ChangeSet.everything(), Report())
    return builder


def copy_code(target: Path, source: Path = PROJECT_ROOT) -> Path:
    """build.py with its package, templates and static files, copied into `target`."""
    target.mkdir(parents=True, exist_ok=True)
    for name in CODE:
        if (source / name).is_dir():
            shutil.copytree(source / name, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source / name, target / name)
    return target


def build_py(code: Path, *args: str, **options) -> subprocess.CompletedProcess:
    """`python build.py ARGS` of the code in `code` (see the `code` fixture), its output as text."""
    return subprocess.run([sys.executable, str(code / "build.py"), *args], capture_output=True, text=True,
                          **{"timeout": 600, **options})


def copy_project(target: Path, source: Path = PROJECT_ROOT, catalogue: Path = FROZEN) -> Path:
    """The project as a fresh clone has it, with `catalogue`'s content/ and ledger (the frozen
    one unless told); a copy of a copy takes everything its source has, what its build left too."""
    target.mkdir(parents=True, exist_ok=True)
    copied = [(source, name) for name in (*PROJECT, *CATALOGUE, "site", ".cache")] if source != PROJECT_ROOT \
        else [(source, name) for name in PROJECT] + [(catalogue, name) for name in CATALOGUE]
    for folder, name in copied:
        if (folder / name).is_dir():
            shutil.copytree(folder / name, target / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        elif (folder / name).is_file():
            shutil.copy2(folder / name, target / name)
    return target


def run(project: Path, *args: str) -> subprocess.CompletedProcess:
    """`python build.py ARGS` in the project folder, as the README says."""
    return subprocess.run([sys.executable, "build.py", *args], cwd=project, capture_output=True, text=True,
                          timeout=300)
