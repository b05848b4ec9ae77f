"""Which venue of content/venues.yaml an import file's own words name: `ICLR 2025 Poster`,
`Proceedings of the 41st International Conference on Machine Learning` and `2024`."""

from __future__ import annotations

import re

from ..content.model import Venue

NOT_ACCEPTED = re.compile(r"\b(?:submitted to|withdrawn|desk[ -]rejected|rejected)\b", re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def match_venue(text: str, venues: dict[str, Venue]) -> Venue | None:
    """The one venue whose year the text names and whose name (`ICML`) or full title it holds;
    None when none does, or several do."""
    folded = " ".join(text.casefold().split())
    years = {int(year) for year in _YEAR.findall(folded)}
    dated = [venue for venue in venues.values() if venue.year in years]
    named = [v for v in dated if re.search(rf"(?<![a-z]){re.escape(v.name.casefold())}(?![a-z])", folded)]
    titled = [v for v in dated if any(t and " ".join(t.casefold().split()) in folded for t in (v.booktitle, v.title))]
    for found in (named, titled):
        if len(set(found)) == 1:
            return found[0]
    return None


def named_edition(text: str, venues: dict[str, Venue]) -> tuple[int, Venue] | None:
    """The year and a listed edition of the one conference the text names with a year not
    listed (`ICLR 2024 Poster`, when only ICLR 2025 is): a new edition to add; None otherwise."""
    folded = " ".join(text.casefold().split())
    years = {int(year) for year in _YEAR.findall(folded)}
    named = {v.name.casefold(): v for v in sorted(venues.values(), key=lambda v: v.year)  # the newest kept
             if re.search(rf"(?<![a-z]){re.escape(v.name.casefold())}(?![a-z])", folded)}
    if len(years) != 1 or len(named) != 1:
        return None
    return years.pop(), next(iter(named.values()))
