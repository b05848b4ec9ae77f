"""The venues file: the conference editions papers can be filed under, with their full names.

A paper's `venue:` must name one of them, so a typo (`ICRL 2025`) is refused with a suggestion
instead of quietly making a venue of its own.
"""

from __future__ import annotations

import datetime
import difflib
from collections.abc import Callable
from pathlib import Path

from ..config import VENUES_FILE
from ..report import Report
from . import yamltext
from .keys import Key, KeyTable, kind_error, of_kind
from .model import URL_PATTERN, Venue

VENUE_KEYS = KeyTable("Venues", "content/venues.yaml",
                      "Each entry of `venues:` is a conference edition papers can be filed under "
                      "(`venue: ICML 2024`).", (
    Key("name", str, "The conference's short name: `ICML`.", required=True),
    Key("year", int, "The edition's year: `2024`.", required=True),
    Key("title", str, "Its full name, as venue pages show it: `International Conference on Machine Learning`.",
        required=True),
    Key("proceedings", str, "Where the edition's papers are published: an http(s) address."),
    Key("date", datetime.date, "Its first day, when its papers were presented: their date in the feeds."),
    Key("booktitle", str, "The proceedings' title, as citations write it (only what the publisher itself writes)."),
    Key("publisher", str, "The proceedings' publisher, as citations write it."),
    Key("series", str, "The series the proceedings are a volume of, as citations write it."),
    Key("volume", int, "Their volume in that series."),
))
HOW = ("see docs/reference.md, content/venues.yaml: each venue has a name, a year, a title, and maybe a "
       "proceedings URL, its first day (`date: 2024-07-21`) and what citations write of its proceedings")


def load_venues(content_dir: Path, report: Report) -> dict[str, Venue] | None:
    """Read `content/venues.yaml`: venues by label (`ICLR 2025`); None if it is unusable."""
    path = content_dir / VENUES_FILE
    found = yamltext.read_lists(path, ("venues",), "venues", HOW, report)
    if found is None:
        return None
    data, lines = found
    errors_before = len(report.errors)
    venues: dict[str, Venue] = {}
    for index, item in enumerate(data["venues"]):
        line = yamltext.line_of(lines, ("venues", index))
        venue = _venue(item, path, lambda key, index=index: yamltext.line_of(lines, ("venues", index, key)), report)
        twin = next((v for v in venues.values() if venue and v.slug == venue.slug), None)
        if venue and twin:  # `ICLR 2025` and `Iclr 2025` would share /venues/iclr-2025/
            report.error(path, line, f"venue `{venue.label}` is listed twice (as `{twin.label}` too)",
                         "remove one of them")
        elif venue:
            venues[venue.label] = venue
    return venues if len(report.errors) == errors_before else None


def _venue(item: object, path: Path, line_of: Callable[[str], int], report: Report) -> Venue | None:
    """The entry as a venue; None, with each problem reported at its key's line, if it is not one."""
    if not isinstance(item, dict):
        report.error(path, line_of(""), "each venue must be a mapping", "start it with `- name: ...`")
        return None
    kinds = VENUE_KEYS.kinds
    problems = [(key, f"unknown key `{key}`") for key in item if key not in kinds]
    problems += [("", f"`{key}` is missing") for key in VENUE_KEYS.required if key not in item]
    problems += [(key, kind_error(key, kind, item[key])[0])
                 for key, kind in kinds.items() if key in item and not of_kind(item[key], kind)]
    if not problems and "proceedings" in item and not URL_PATTERN.match(item["proceedings"]):
        problems.append(("proceedings", "`proceedings` is not an http(s) URL"))
    if not problems and Venue.parse(f"{item['name']} {item['year']}") is None:
        problems.append(("name", f"`{item['name']} {item['year']}` is not a name and a year"))
    for key, problem in problems:
        report.error(path, line_of(key), "venue: " + problem, HOW)
    if problems:
        return None
    return Venue(item["year"], item["name"].strip(), item["title"].strip(), item.get("proceedings", ""),
                 item["date"].isoformat() if "date" in item else "",
                 *(item.get(key, "").strip() for key in ("booktitle", "publisher", "series")), item.get("volume", 0))


def unknown_venue_hint(label: str, venues: dict[str, Venue]) -> str:
    """Did you mean one we know (another case, swapped letters, a typo), or is it a new venue?"""
    wanted = Venue.parse(label)
    if wanted is None:
        return f"write a venue listed in content/{VENUES_FILE}, like `{next(iter(venues), 'ICML 2024')}`"
    name = wanted.name.casefold()
    edition = other_edition(wanted, venues)
    if edition:
        return new_edition(wanted.year, edition, venues)
    same_year = {v.name.casefold(): v.label for v in venues.values() if v.year == wanted.year}
    swapped = [known for folded, known in same_year.items() if sorted(folded) == sorted(name)]
    close = swapped or [same_year[c] for c in difflib.get_close_matches(name, same_year, n=1, cutoff=0.6)]
    if close:
        return f"did you mean `{close[0]}`?"
    return f"add it to content/{VENUES_FILE} (name, year, title), or use one listed there"


def other_edition(wanted: Venue, venues: dict[str, Venue]) -> Venue | None:
    """The newest listed edition of the conference `wanted` names, if its year is not listed
    in any spelling (`ICLR 2024` when only ICLR 2025 is; not `Iclr 2025`, a misspelling)."""
    if any(v.label.casefold() == wanted.label.casefold() for v in venues.values()):
        return None
    editions = [v for v in venues.values() if v.name.casefold() == wanted.name.casefold()]
    return max(editions, key=lambda v: v.year, default=None)


def new_edition(year: int, known: Venue, venues: dict[str, Venue]) -> str:
    """How to add another year of a conference listed already: its entry, from what the newest
    edition listed says of the conference (what differs by year is for the curator to add)."""
    listed = ", ".join(sorted(v.label for v in venues.values() if v.name.casefold() == known.name.casefold()))
    return (f"{known.name} {year} is a new edition of {known.name} (content/{VENUES_FILE} lists "
            f"{listed}): add it under `venues:`, with its proceedings, first day and booktitle if known —\n"
            f"  - name: {known.name}\n    year: {year}\n    title: {known.title}")
