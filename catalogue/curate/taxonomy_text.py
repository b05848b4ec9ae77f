"""content/taxonomy.yaml edited as text: a tag's id changed, an entry removed, a list of
phrases or a theme's tags rewritten, and every other byte (comments above all) kept."""

from __future__ import annotations

import codecs
import copy
import json
import re
from pathlib import Path

from ..config import TAXONOMY_FILE
from ..content import yamltext
from ..files import decode_text, read_lines
from ..report import ContentError, Diagnostic

_Edit = tuple[int, int, list[str]]  # replace lines [start, end) (indexes from 0) with these


class TaxonomyText:
    """The file's lines, the data they hold, and the edits asked for; `text` applies them, and
    `checked_text` also reads the result back, which must hold exactly the data edited alike."""

    def __init__(self, content_dir: Path):
        self.path = content_dir / TAXONOMY_FILE
        raw = self.path.read_bytes()
        self.bom = "\ufeff" if raw.startswith(codecs.BOM_UTF8) else ""
        self.line_end = "\r\n" if b"\r\n" in raw else "\n"
        self.lines = read_lines(self.path)
        self.data, self.where = yamltext.parse("\n".join(self.lines), self.path)
        self.expected = copy.deepcopy(self.data)
        self.edits: list[_Edit] = []

    @property
    def tag_ids(self) -> list[str]:
        return [entry["id"] for entry in self.data["tags"]]

    def line_of_tag(self, tag_id: str) -> int:
        return self.where[("tags", self.tag_ids.index(tag_id))]

    def entry(self, tag_id: str) -> dict:
        return self.data["tags"][self.tag_ids.index(tag_id)]

    def rename_tag(self, old: str, new: str) -> None:
        """The entry's `id:` line says `new`; its label and description stay for the curator."""
        index = self.tag_ids.index(old)
        line = self.where[("tags", index, "id")] - 1
        pattern = re.compile(r"(\bid:\s*)(['\"]?)" + re.escape(old) + r"\2")
        self.edits.append((line, line + 1, [pattern.sub(lambda m: m.group(1) + m.group(2) + new + m.group(2),
                                                        self.lines[line], count=1)]))
        self._expected_tag(old)["id"] = new

    def remove_tag(self, tag_id: str) -> None:
        """The entry goes, with its lines; the comments and blank lines after it stay."""
        index = self.tag_ids.index(tag_id)
        start = self.where[("tags", index)] - 1
        self.edits.append((start, self._entry_end(index), []))
        self.expected["tags"] = [e for e in self.expected["tags"] if e["id"] != tag_id]

    def set_phrases(self, tag_id: str, phrases: list[str]) -> None:
        index = self.tag_ids.index(tag_id)
        self._set_list(("tags", index), "phrases", _quoted(phrases))
        self._expected_tag(tag_id)["phrases"] = phrases

    def set_theme_tags(self, index: int, tags: list[str]) -> None:
        self._set_list(("themes", index), "tags", "[" + ", ".join(tags) + "]")
        self.expected["themes"][index]["tags"] = tags

    def text(self) -> str:
        result, index = [], 0
        for start, end, new in sorted(self.edits, key=lambda edit: (edit[0], edit[1])):
            result += self.lines[index:start] + new
            index = max(index, end)
        return self.bom + self.line_end.join(result + self.lines[index:])

    def checked_text(self) -> str:
        """The edited text, read back: it must hold the data as edited, or nothing is written."""
        text = self.text()
        data, _ = yamltext.parse(decode_text(text.encode("utf-8"), self.path), self.path)
        if data != self.expected:
            raise ContentError([Diagnostic(self.path, 1, "could not edit this file's text without changing "
                                           "more than asked", "make the change by hand (nothing was written)")])
        return text

    def _expected_tag(self, tag_id: str) -> dict:
        return next(entry for entry in self.expected["tags"] if entry["id"] == tag_id)

    def _set_list(self, entry: tuple, key: str, flow: str) -> None:
        """A key's value as a one-line list: in place of the list on the key's line where it is
        one (a comment after it stays), else in place of the key's lines, else added."""
        if (*entry, key) not in self.where:
            end = self._entry_end(entry[1]) if entry[0] == "tags" else self._end_of(entry)
            first = self.lines[self.where[(*entry, "id")] - 1]
            indent = " " * first.index("id:")  # where the entry's keys start, after `- `
            self.edits.append((end, end, [f"{indent}{key}: {flow}"]))
            return
        start = self.where[(*entry, key)] - 1
        end = self._key_end(entry, key)
        line = self.lines[start]
        one_line = re.fullmatch(rf"(\s*(?:- )?{key}:\s*)\[.*\](\s*(?:#.*)?)", line)
        if end == start + 1 and one_line:
            self.edits.append((start, end, [one_line.group(1) + flow + one_line.group(2)]))
        else:
            self.edits.append((start, end, [line[:line.index(key + ":")] + f"{key}: {flow}"]))

    def _entry_end(self, index: int) -> int:
        """Where a tag's lines end: before the next tag's, or `themes:`, less the comments and
        blank lines before that, which belong to what follows."""
        following = ("tags", index + 1) if index + 1 < len(self.data["tags"]) else ("themes",)
        return _trimmed(self.lines, self.where[("tags", index)] - 1, self.where[following] - 1)

    def _end_of(self, entry: tuple) -> int:
        section, index = entry
        following = (section, index + 1) if index + 1 < len(self.data[section]) else None
        return _trimmed(self.lines, self.where[entry] - 1, self.where[following] - 1 if following else len(self.lines))

    def _key_end(self, entry: tuple, key: str) -> int:
        """Where a key's value ends: at the entry's next key, or the entry's end."""
        start = self.where[(*entry, key)] - 1
        later = [self.where[(*entry, k)] - 1 for k in self.data[entry[0]][entry[1]]
                 if self.where[(*entry, k)] - 1 > start]
        end = min(later) if later else (self._entry_end(entry[1]) if entry[0] == "tags" else self._end_of(entry))
        return _trimmed(self.lines, start, end)


def _trimmed(lines: list[str], start: int, end: int) -> int:
    while end - 1 > start and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end


def _quoted(phrases: list[str]) -> str:
    """Phrases as the file writes them: `["kv cache", "cache evict*"]`."""
    return "[" + ", ".join(json.dumps(p, ensure_ascii=False) for p in phrases) + "]"
