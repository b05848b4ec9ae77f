"""The vocabulary file: tags and themes, validated; and the phrase matching that suggests tags."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from ..config import TAXONOMY_FILE
from ..report import Report
from ..urls import SLUG_PATTERN
from . import yamltext
from .keys import Key, KeyTable, described, kind_error, of_kind
from .model import Tag, Taxonomy, Theme

HOW = "see docs/reference.md, content/taxonomy.yaml"
TAG_KEYS = KeyTable("Tags", "content/taxonomy.yaml",
                    "Each entry of `tags:` is one tag of the controlled vocabulary, with its page at `/tags/<id>/`.", (
    Key("id", str, "The tag's id, as papers' `tags:` name it and its address shows it: lower-case ASCII "
                   "letters, digits and single hyphens.", required=True),
    Key("label", str, "Its name as readers see it: `KV cache`.", required=True),
    Key("description", str, "One sentence on what it covers, shown on its page.", required=True),
    Key("phrases", list, "Lower-case phrases that suggest it when `import` reads a title and abstract, as "
                         "whole words, the last one in its plural too (`data mixture` finds `data mixtures`, "
                         "`memory` finds `memories`); a trailing `*` makes a phrase a prefix (`extrapolat*`)."),
))
THEME_KEYS = KeyTable("Themes", "content/taxonomy.yaml",
                      "Each entry of `themes:` is a group of tags, with its page at `/themes/<id>/`.", (
    Key("id", str, "The theme's id, as its address shows it.", required=True),
    Key("title", str, "Its name as readers see it.", required=True),
    Key("description", str, "One sentence on what it gathers, shown on its page.", required=True),
    Key("tags", list, "The ids of the tags it gathers (at least one).", required=True),
))


def load_taxonomy(content_dir: Path, report: Report) -> Taxonomy | None:
    """Read `content/taxonomy.yaml`; report every problem; None if it is unusable."""
    path = content_dir / TAXONOMY_FILE
    found = yamltext.read_lists(path, ("tags", "themes"), "vocabulary", HOW, report)
    if found is None:
        return None
    data, lines = found
    errors_before = len(report.errors)
    tags = _read_tags(data["tags"], path, lines, report)
    written = {item["id"] for item in data["tags"] if isinstance(item, dict) and isinstance(item.get("id"), str)}
    themes = _read_themes(data["themes"], written, path, lines, report)  # a wrong tag entry is reported once
    return Taxonomy(tags, themes) if len(report.errors) == errors_before else None


def _read_tags(items: list, path: Path, lines: dict, report: Report) -> dict[str, Tag]:
    tags: dict[str, Tag] = {}
    for index, item in enumerate(items):
        where = yamltext.line_of(lines, ("tags", index))
        if not _entry_ok(item, TAG_KEYS, "tag", path, lines, ("tags", index), report):
            continue
        phrases = item.get("phrases") or []
        if not isinstance(phrases, list) or not all(isinstance(p, str) for p in phrases):
            report.error(path, where, f"tag `{item['id']}`: phrases must be a list of strings",
                         'write e.g. phrases: ["kv cache", "cache evict*"]')
            continue
        unmatchable = [(k, phrase) for k, phrase in enumerate(phrases)
                       if not _WORD_START.match(phrase.lower()) or phrase != phrase.strip()]
        for k, phrase in unmatchable:
            report.error(path, yamltext.line_of(lines, ("tags", index, "phrases", k)),
                         f"tag `{item['id']}`: the phrase {phrase!r} can never be found",
                         "phrases are found from the start of a word: begin it with an ASCII letter or digit "
                         "(`β-vae` → `vae`), with no space before or after it")
        if item["id"] in tags:
            report.error(path, where, f"tag `{item['id']}` is defined twice", "remove one of them")
            continue
        tags[item["id"]] = Tag(item["id"], item["label"], item["description"],
                               tuple(p.lower() for p in phrases), where)
    return tags


def _read_themes(items: list, tag_ids: set[str], path: Path, lines: dict, report: Report) -> dict[str, Theme]:
    themes: dict[str, Theme] = {}
    for index, item in enumerate(items):
        where = yamltext.line_of(lines, ("themes", index))
        if not _entry_ok(item, THEME_KEYS, "theme", path, lines, ("themes", index), report):
            continue
        theme_tags = item["tags"]
        tags_line = yamltext.line_of(lines, ("themes", index, "tags"))
        if not isinstance(theme_tags, list) or not theme_tags \
                or not all(isinstance(t, str) for t in theme_tags):
            report.error(path, tags_line, f"theme `{item['id']}`: tags must be a non-empty list",
                         "list the ids of the tags that make this theme")
            continue
        for tag in theme_tags:
            if tag not in tag_ids:
                report.error(path, tags_line, f"theme `{item['id']}` names unknown tag `{tag}`",
                             "add the tag under `tags:` or fix the id")
        if item["id"] in themes:
            report.error(path, where, f"theme `{item['id']}` is defined twice", "remove one of them")
        themes[item["id"]] = Theme(item["id"], item["title"], item["description"],
                                   tuple(theme_tags), where)
    return themes


def _entry_ok(item: object, keys: KeyTable, kind: str, path: Path, lines: dict, at: tuple,
              report: Report) -> bool:
    """Whether the tag or theme entry at key path `at` has the keys it needs, each text that
    must be; each problem reported at the entry's line, or at its key's."""
    line = yamltext.line_of(lines, at)
    if not isinstance(item, dict):
        report.error(path, line, f"each {kind} must be a mapping", "start it with `- id: ...`")
        return False
    missing = sorted(k for k in keys.required if not item.get(k))
    unknown = sorted(set(item) - set(keys.kinds))
    if missing:
        report.error(path, line, f"{kind} is missing {', '.join(missing)}",
                     f"every {kind} needs {', '.join(sorted(keys.required))}")
    if unknown:
        report.error(path, line, f"{kind} has unknown key(s) {', '.join(unknown)}",
                     f"allowed keys: {', '.join(sorted(keys.kinds))}")
    if missing or unknown:
        return False
    if not isinstance(item["id"], str) or not SLUG_PATTERN.match(item["id"]):
        written = f"`{item['id']}`" if isinstance(item["id"], str) else described(item["id"])
        report.error(path, line, f"{kind} id {written} is not a valid id",
                     "use lower-case ASCII letters, digits and single hyphens")
        return False
    not_text = [key for key, key_kind in keys.kinds.items() if key_kind is str and not of_kind(item.get(key, ""), str)]
    for key in not_text:
        message, fix = kind_error(key, str, item[key])
        report.error(path, yamltext.line_of(lines, (*at, key)), f"{kind} `{item['id']}`: {message}", fix)
    return not not_text


def phrase_occurs(phrase: str, text: str) -> bool:
    """Whether a tag's phrase occurs in lower-cased text."""
    return phrase_pattern(phrase).search(text) is not None


def covered_phrases(tag: Tag) -> list[tuple[str, str]]:
    """(phrase, by): a phrase of the tag that adds nothing, as one of its others finds every text it
    does from the same word (`kv caches` beside `kv cache`, `ssm-based` beside `ssm`, `compressor`
    beside `compress*`), or is the same phrase again; `by` is one that is not covered itself."""
    listed = list(dict.fromkeys(tag.phrases))
    kept = [phrase for phrase in listed if not any(_covers(other, phrase) for other in listed)]
    found = [(phrase, next(other for other in kept if _covers(other, phrase)))
             for phrase in listed if phrase not in kept]
    return found + [(phrase, phrase) for phrase in listed if tag.phrases.count(phrase) > 1]


def _covers(other: str, phrase: str) -> bool:
    """Whether `other` finds, at the same word, every text `phrase` finds: a prefix (`x*`) is
    covered by a shorter prefix only, and of two phrases that cover each other neither is."""
    def reaches(a: str, b: str) -> bool:
        return a != b and not (b.endswith("*") and not a.endswith("*")) and \
            phrase_pattern(a).match(b.rstrip("*")) is not None
    return reaches(other, phrase) and not reaches(phrase, other)


def singulars(word: str) -> tuple[str, ...]:
    """The words `word` may be the plural of, as `phrase_pattern` finds plurals (`memories` →
    `memory`): where a one-word phrase may start."""
    return tuple(dict.fromkeys((word, word.removesuffix("s"), word.removesuffix("es"), word.removesuffix("ies") + "y")))


_WORD_START = re.compile(r"[a-z0-9]")  # the matcher tries phrases where a word starts (`relate.phrases`)


@functools.cache
def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A tag's phrase as lower-cased text is searched for: whole words, the last one in its plural
    too (`data mixture` finds `data mixtures`, `long-term memory` finds `long-term memories`); a
    trailing `*` makes the phrase a prefix, matched to the end of its word (`extrapolat*` finds
    `extrapolation`)."""
    stem = phrase.rstrip("*")
    if phrase.endswith("*"):
        return re.compile(r"(?<![a-z0-9])" + re.escape(stem) + r"[a-z0-9-]*")
    if stem.endswith("y"):  # memory, memories
        return re.compile(r"(?<![a-z0-9])" + re.escape(stem[:-1]) + r"(?:ys?|ies)(?![a-z0-9])")
    return re.compile(r"(?<![a-z0-9])" + re.escape(stem) + r"(?:e?s)?(?![a-z0-9])")
