"""A change to content/ in one step: every file's new text is computed and checked in memory,
then all are written or none; after writing, the build's own checks run, and a change that
brings an error the content did not have is undone."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import LEDGER_FILE, SiteConfig
from ..content.catalogue import Catalogue
from ..content.loader import load_catalogue
from ..content.model import FIELD_ORDER, Paper
from ..content.site import read_site_settings
from ..content.source import PageSource, parse_source, with_fields
from ..files import ChangedMeanwhile, decode_text, replace_all, restore_all
from ..pipeline import check_site
from ..report import ContentError, Diagnostic, Report, shown_path


@dataclass(frozen=True)
class FileChange:
    """One file's new bytes (None: the file is deleted) and what changes in it, for people."""

    path: Path
    new: bytes | None
    what: tuple[str, ...]


class Transaction:
    """The files one command changes; `commit` writes them all or none."""

    def __init__(self, content_dir: Path):
        self.content_dir = content_dir
        self.changes: dict[Path, FileChange] = {}
        self.originals: dict[Path, bytes | None] = {}
        self.notes: list[str] = []  # what the command found, printed before the changes

    def rewrite(self, source: PageSource, fields: dict[str, Any]) -> None:
        """Set front-matter fields of a paper file, every other byte kept; the new text is read
        back and must hold exactly the old fields with these set, and the same abstract."""
        fields = {key: fields[key] for key in sorted(fields, key=_written_order) if source.meta.get(key) != fields[key]}
        if not fields:
            return
        text = with_fields(source, fields)
        reread = parse_source(source.path, decode_text(text.encode("utf-8"), source.path).split("\n"))
        if reread.meta != {**source.meta, **fields} or reread.body != source.body:
            raise ContentError([Diagnostic(source.path, 1, f"could not set {', '.join(fields)} in this file's "
                                           "front matter without changing other fields",
                                           "make the change by hand (nothing was written)")])
        self.write(source.path, text, *(f"{key}: {shown(source.meta.get(key))} → {shown(value)}"
                                        for key, value in fields.items()))

    def write(self, path: Path, text: str | bytes, *what: str) -> None:
        """Give a file new text (a new file too), unless it already holds it."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        original = path.read_bytes() if path.is_file() else None
        if data != original:
            self._add(FileChange(path, data, what), original)

    def delete(self, path: Path, *what: str) -> None:
        self._add(FileChange(path, None, what), path.read_bytes())

    def _add(self, change: FileChange, original: bytes | None) -> None:
        self.changes[change.path] = change
        self.originals.setdefault(change.path, original)

    def describe(self) -> list[str]:
        """What the change does, file by file: which field from what to what."""
        lines = list(self.notes)
        for change in self.changes.values():
            state = " (deleted)" if change.new is None else " (new file)" if self.originals[change.path] is None else ""
            lines.append(f"{shown_path(change.path)}{state}")
            lines += [f"  {what}" for what in change.what]
        return lines

    def commit(self, report: Report) -> bool:
        """Write every change, then run a build's checks; if they find an error that content/
        did not have before, put every file back as it was. False (reported) if undone."""
        if not self.changes or not self._replace(report):
            return not report.errors
        after = site_errors(self.content_dir)
        if not after:
            return True
        restore_all(self.originals)
        before = {_key(d) for d in site_errors(self.content_dir)}
        new = [d for d in after if _key(d) not in before]
        if new:
            report.extend(new)
            report.error(self.content_dir, 0, f"this change would give the build {len(new)} new error(s), "
                         "so it was undone: every file is as it was", "fix what the errors above say, then run it again")
            return False
        report.warning(self.content_dir, 0, f"content/ had {len(before)} error(s) before this change; this "
                       "change adds none", "run `python build.py check` and fix them")
        return self._replace(report)

    def _replace(self, report: Report) -> bool:
        try:
            replace_all({path: change.new for path, change in self.changes.items()}, self.originals)
        except ChangedMeanwhile as changed:
            report.error(changed.path, 0, "this file changed while the command ran, so nothing was written",
                         "run the command again")
            return False
        except OSError as error:
            report.error(error.filename or self.content_dir, 0, f"could not write ({error.strerror or error}), "
                         "so nothing was changed", "check the folder's permissions and free space, then run it again")
            return False
        return True


def load_content(content_dir: Path, report: Report) -> Catalogue | None:
    """The catalogue, drafts too, to change; None (its errors reported) if it does not load:
    a change is made to valid content only."""
    try:
        return load_catalogue(content_dir, Report(), drafts=True, ledger=content_dir.resolve().parent / LEDGER_FILE)
    except ContentError as error:
        report.extend(error.diagnostics)
        report.error(content_dir, 0, "content/ has errors, so nothing was changed", "fix them first, then run this again")
        return None


def every_paper(catalogue: Catalogue) -> list[Paper]:
    """Every paper file's paper, the withdrawn ones too (they are in no list, but their files
    name tags like any other)."""
    return [*catalogue.papers, *catalogue.withdrawn.values()]


def site_errors(content_dir: Path) -> list[Diagnostic]:
    """The errors a build of this content would stop at: `check`'s checks, the ledger's too."""
    report = Report()
    try:
        config = SiteConfig(content_dir=content_dir, out_dir=content_dir.parent / "site", social_images=False,
                            base_url=read_site_settings(content_dir).url,
                            ledger=content_dir.resolve().parent / LEDGER_FILE)
        check_site(config, report)
    except ContentError as error:
        report.extend(d for d in error.diagnostics if d not in report.diagnostics)
    return report.errors


def _written_order(key: str) -> int:
    """New fields go in the order tools write them (`with_fields` adds them as given)."""
    return FIELD_ORDER.index(key) if key in FIELD_ORDER else len(FIELD_ORDER)


def _key(diagnostic: Diagnostic) -> tuple[str, str]:
    """A diagnostic without its line: a change above it moves the line, not the problem."""
    return str(diagnostic.path), diagnostic.message


def shown(value: Any) -> str:
    """A front-matter value as people read it in a summary."""
    if value is None or value == []:
        return "(none)"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)
