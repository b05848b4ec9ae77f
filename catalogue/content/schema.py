"""The front matter's schema, derived from the `Paper` dataclass, and the checks of a paper
file against it and the vocabulary: every problem is reported at its line, with a fix."""

from __future__ import annotations

import datetime
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import TAXONOMY_FILE
from ..report import Report
from ..text import character_name, emoji_in, plain_ascii, unseen_characters
from ..urls import SLUG_PATTERN
from . import yamltext
from .keys import kind_error, of_kind, shown
from .model import (
    DOI_PATTERN,
    FRONT_MATTER,
    REQUIRED_KEYS,
    URL_PATTERN,
    Paper,
    Taxonomy,
    Venue,
    venue_slug,
)
from .paperlinks import ARXIV_ID, OPENREVIEW_ID, arxiv_id_in, openreview_id_in, paper_page, placeholder
from .source import PageSource
from .venues import unknown_venue_hint

TITLE_SOURCES = ("derived", "metadata", "curated")
PRESENTATIONS = ("oral", "spotlight", "poster")  # how a venue presented a paper, most selective first
PAGES = r"^\d+--\d+$"
LONGEST_ABSTRACT = 5_000  # characters; the catalogue's longest real abstract has 2,132
URL_KEYS = ("code", "project", "url")


@dataclass(frozen=True)
class Vocabulary:
    """What every paper is checked against: tags, venues, and the tags that once were."""

    taxonomy: Taxonomy
    venues: dict[str, Venue]
    retired_tags: frozenset[str] = frozenset()  # published once (the ledger), gone from the taxonomy
    author_names: dict[str, str] = field(default_factory=dict)  # content/authors.yaml: spelling → name shown
    author_redirects: tuple = ()  # the other spellings' pages, leading to the person's


def validate(source: PageSource, vocabulary: Vocabulary | None, report: Report) -> Paper | None:
    meta, path = source.meta, source.path
    errors_before = len(report.errors)
    _check_keys(source, report)
    venue = _venue(source, vocabulary, report) if isinstance(meta.get("venue"), str) else None
    _check_slugs(source, report)
    _check_lists_of_strings(source, report)
    _check_values(source, report)
    _check_characters(source, report)
    if vocabulary and isinstance(meta.get("tags"), list):
        _check_tags(source, vocabulary, report)
    if len(report.errors) > errors_before or venue is None:
        return None
    values = {key: _as_field(meta[key]) for key in FRONT_MATTER if key in meta}
    values.update(title=meta["title"].strip(), venue=venue)
    if vocabulary and vocabulary.author_names and "authors" in values:
        values["authors"] = tuple(vocabulary.author_names.get(a, a) for a in values["authors"])
    return Paper(**values, body=source.body, path=path, body_start=source.body_start,
                 lines={k: _line(source, k) for k in meta}, notes=source.notes, notes_start=source.notes_start)


def _as_field(value: Any) -> Any:
    """A checked front-matter value as `Paper` holds it: lists as tuples, dates as ISO text."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def _venue(source: PageSource, vocabulary: Vocabulary | None, report: Report) -> Venue | None:
    """The venue named, as content/venues.yaml describes it; None (reported) if it is not there."""
    text = source.meta["venue"]
    parsed = Venue.parse(text)
    if parsed is None:
        known = vocabulary.venues.values() if vocabulary else ()
        spelt = next((v.label for v in known if v.slug == venue_slug(text)), None)  # `iclr-2024`, as its address
        problem = "is not a conference and a year" if re.search(r"(?:19|20)\d\d", text) else "has no year"
        fix = f"write it as `venue: {spelt}`" if spelt else "write the conference and year, like `venue: ICML 2024`"
        report.error(source.path, _line(source, "venue"), f"venue {text!r} {problem}", fix)
        return None
    if vocabulary is None:  # the venues file itself is broken, and reported
        return parsed
    known = vocabulary.venues.get(parsed.label)
    if known is None:
        report.error(source.path, _line(source, "venue"), f"unknown venue `{text.strip()}`",
                     unknown_venue_hint(parsed.label, vocabulary.venues))
    return known


def _line(source: PageSource, key: str) -> int:
    return yamltext.line_of(source.lines, (key,)) or 1


def _check_keys(source: PageSource, report: Report) -> None:
    known = {key: FRONT_MATTER[key] for key in sorted(FRONT_MATTER, key=lambda k: k not in REQUIRED_KEYS)}
    for key, value in source.meta.items():
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"did you mean `{close[0]}`?" if close else f"known keys: {', '.join(known)}"
            report.error(source.path, _line(source, key), f"unknown key `{key}`", hint)
        elif not of_kind(value, known[key]):
            report.error(source.path, _line(source, key), *kind_error(key, known[key], value))
    for key in REQUIRED_KEYS:
        if key not in source.meta:
            report.error(source.path, 1, f"`{key}` is missing",
                         f"add a `{key}:` line to the front matter")
        elif key != "tags" and (source.meta[key] is None or
                                (isinstance(source.meta[key], str) and not source.meta[key].strip())):
            report.error(source.path, _line(source, key), f"`{key}` is empty", f"give `{key}` a value")


def _check_slugs(source: PageSource, report: Report) -> None:
    meta = source.meta
    slugs = [("slug", meta.get("slug"))] + [("aliases", a) for a in meta.get("aliases") or []
                                            if isinstance(meta.get("aliases"), list)]
    for key, slug in slugs:
        if isinstance(slug, str) and slug and not SLUG_PATTERN.match(slug):
            report.error(source.path, _line(source, key), f"slug {slug!r} is not a valid URL part",
                         "use lower-case ASCII letters, digits and single hyphens, like `long-rope`")
    names = [slug for _, slug in slugs if isinstance(slug, str)]
    for slug in sorted({s for s in names if names.count(s) > 1}):
        report.error(source.path, _line(source, "aliases"), f"`{slug}` is listed twice among slug and aliases",
                     "an alias is an earlier slug: list each once, and never the current slug")


def _check_lists_of_strings(source: PageSource, report: Report) -> None:
    for key in ("tags", "authors", "aliases"):
        value = source.meta.get(key)
        if isinstance(value, list) and not all(isinstance(v, str) and v.strip() for v in value):
            report.error(source.path, _line(source, key), f"every entry of `{key}` must be text",
                         "quote entries that YAML reads as numbers, dates or booleans")


def _check_values(source: PageSource, report: Report) -> None:
    meta = source.meta
    if meta.get("title_source", "curated") not in TITLE_SOURCES:
        report.error(source.path, _line(source, "title_source"),
                     f"title_source {shown(meta['title_source'])} is not one of {', '.join(TITLE_SOURCES)}",
                     "write `title_source: curated` once a person has checked the title")
    for key in URL_KEYS:
        value = meta.get(key)
        if not isinstance(value, str):
            continue
        if not URL_PATTERN.match(value):
            report.error(source.path, _line(source, key), f"`{key}` is not an http(s) URL: {value!r}",
                         "write the full address, starting with https://")
        elif placeholder(value):
            report.error(source.path, _line(source, key), f"`{key}` is a placeholder, not an address: {value}",
                         "write the real address, or delete the line")
    if isinstance(meta.get("url"), str) and URL_PATTERN.match(meta["url"]) and not placeholder(meta["url"]):
        _check_paper_page(source, report)
    if "withdrawn_reason" in meta and "withdrawn" not in meta:
        report.error(source.path, _line(source, "withdrawn_reason"), "`withdrawn_reason` without `withdrawn`",
                     "add the day the paper was withdrawn, like `withdrawn: 2025-02-10`, or delete the reason")
    if isinstance(meta.get("arxiv"), str) and not ARXIV_ID.match(meta["arxiv"]):
        report.error(source.path, _line(source, "arxiv"), f"`arxiv` is not an arXiv id: {meta['arxiv']!r}",
                     "write the id alone, in quotes, like `arxiv: '2406.07522'`")
    if isinstance(meta.get("openreview"), str) and not OPENREVIEW_ID.match(meta["openreview"]):
        forum = openreview_id_in(meta["openreview"])
        report.error(source.path, _line(source, "openreview"),
                     f"`openreview` is not an OpenReview forum id: {meta['openreview']!r}",
                     f"write the id alone, in quotes, like `openreview: '{forum or 'aMBSY2ebPw'}'`")
    if meta.get("presentation", "poster") not in PRESENTATIONS:
        report.error(source.path, _line(source, "presentation"),
                     f"presentation {shown(meta['presentation'])} is not one of {', '.join(PRESENTATIONS)}",
                     "write how the venue presented the paper, like `presentation: spotlight`, or delete the line")
    if isinstance(meta.get("pages"), str) and not re.match(PAGES, meta["pages"]):
        report.error(source.path, _line(source, "pages"), f"`pages` is not a page range: {meta['pages']!r}",
                     "write the first and last page as the proceedings give them, like `pages: '1234--1250'`")
    if isinstance(meta.get("doi"), str) and not DOI_PATTERN.match(meta["doi"]):
        report.error(source.path, _line(source, "doi"), f"`doi` is not a DOI: {meta['doi']!r}",
                     "write the DOI alone, like `doi: 10.1145/3600006.3613165` (no https://doi.org/)")


def _check_characters(source: PageSource, report: Report) -> None:
    """Text as readers see it: no invisible, control or bidirectional characters anywhere (an
    error at their line), no emoji in a title and no abstract longer than any real one (warnings)."""
    fields = [(key, text) for key, value in source.meta.items()
              for text in (value if isinstance(value, list) else [value]) if isinstance(text, str)]
    body = source.body
    everything = "".join(text for _, text in fields) + body + source.notes
    if not plain_ascii(everything):  # most files are: nothing more to look at
        if unseen_characters(everything):  # where, field by field
            for key, text in fields:
                if unseen_characters(text):
                    check_characters(source.path, text, _line(source, key), f"`{key}`", report)
            check_characters(source.path, body, source.body_start, "the abstract", report)
            check_characters(source.path, source.notes, source.notes_start, "the notes", report)
        title = source.meta.get("title")
        if isinstance(title, str) and (emoji := emoji_in(title)):
            report.warning(source.path, _line(source, "title"), f"the title holds an emoji ({emoji})",
                           "titles are cited and searched as the paper has them: take it out unless the paper's "
                           "own title has it")
    if len(body) > LONGEST_ABSTRACT:
        report.warning(source.path, source.body_start, f"the abstract is {len(body):,} characters long, longer than "
                       f"any real abstract ({LONGEST_ABSTRACT:,})",
                       "keep the paper's abstract only: a paste of more makes a heavy page and skews related papers")


def check_characters(path: Path, text: str, start: int, name: str, report: Report) -> None:
    """Each invisible, control or bidirectional character of `text` (whose first line is the
    file's line `start`) as an error at its line, saying after which words it comes."""
    for index, char, what in unseen_characters(text):
        report.error(path, start + text.count("\n", 0, index), f"{name} holds {character_name(char)}, {what}",
                     f"delete it: it comes {_place(text, index)}")


def _place(text: str, index: int) -> str:
    """Where a character is, for a person looking at the line: the words before it."""
    before = text[:index].rsplit("\n", 1)[-1][-24:]
    return f"after “{before}”" if before.strip() else "at the start of the line"


def _check_paper_page(source: PageSource, report: Report) -> None:
    """`url:` is published as the paper itself: its venue page, never where a title was found."""
    url, line = source.meta["url"], _line(source, "url")
    arxiv, forum = arxiv_id_in(url), openreview_id_in(url)
    if arxiv:
        report.error(source.path, line, "`url` is an arXiv address",
                     f"write `arxiv: '{arxiv}'` instead: the page then links to its abstract and PDF")
    elif forum:
        report.error(source.path, line, "`url` is an OpenReview address",
                     f"write `openreview: '{forum}'` instead (`url` is the proceedings page, once there is one)")
    elif not paper_page(url):
        report.error(source.path, line, f"`url` is not the paper's own page: {url}",
                     "give its page in the proceedings (an OpenReview forum goes in `openreview:`), or "
                     "delete the line (a site that summarises or mirrors a paper is not the paper)")


def _check_tags(source: PageSource, vocabulary: Vocabulary, report: Report) -> None:
    tags = vocabulary.taxonomy.tags
    for tag in source.meta["tags"]:
        if not isinstance(tag, str) or tag in tags:
            continue
        close = difflib.get_close_matches(tag, tags, n=1)
        if tag in vocabulary.retired_tags:
            instead = f"use `{close[0]}` if it was renamed, or take it off" if close else "take it off"
            hint = f"it was removed from content/{TAXONOMY_FILE}: {instead} this paper's tags, or restore it there"
            report.error(source.path, _line(source, "tags"), f"tag `{tag}` no longer exists", hint)
            continue
        hint = f"did you mean `{close[0]}`?" if close else "use a tag id from content/taxonomy.yaml, or add the tag there"
        report.error(source.path, _line(source, "tags"), f"unknown tag `{tag}`", hint)
