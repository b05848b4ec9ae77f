"""The topic maps' geometry, and each paper's main theme, which colours its dot."""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from ..content.model import Listing, Taxonomy, Theme
from .similarity import Similarity

MAP_SIZE, HOME_MAP_SIZE = (1000, 620), (600, 300)  # SVG view boxes
HOME_MAP_POINTS = 400  # the home page's small map shows a sample: it must stay light at 50,000 papers
PALETTE = 9  # colour classes m0…m8 in the CSS; m9 is for papers in no theme


class MainTheme:
    """A paper's main theme: the one holding most of its tags (the earlier one on a tie), or
    None; and the colour class the maps give it. Remembered per set of tags."""

    def __init__(self, taxonomy: Taxonomy):
        self.taxonomy = taxonomy
        self.themes = list(taxonomy.themes.values())
        self._holders: dict[str, list[int]] = {}
        for index, theme in enumerate(self.themes):
            for tag in theme.tags:
                self._holders.setdefault(tag, []).append(index)
        self._memo: dict[tuple[str, ...], int | None] = {}

    def index(self, tags: tuple[str, ...]) -> int | None:
        if tags not in self._memo:
            held = Counter(i for tag in tags for i in self._holders.get(tag, ()))
            self._memo[tags] = min(held, key=lambda i: (-held[i], i)) if held else None
        return self._memo[tags]

    def __call__(self, tags: tuple[str, ...]) -> Theme | None:
        index = self.index(tags)
        return None if index is None else self.themes[index]

    def title(self, tags: tuple[str, ...]) -> str:
        index = self.index(tags)
        return "" if index is None else self.themes[index].title

    def colour(self, tags: tuple[str, ...]) -> str:
        """m0…m8 by the theme's place in the taxonomy (the palette has nine), m9 for none."""
        return colour_class(self.index(tags))


def colour_class(theme_index: int | None) -> str:
    return f"m{PALETTE}" if theme_index is None else f"m{theme_index % PALETTE}"


class MapPoint(NamedTuple):
    """A dot on a topic map, in the SVG's coordinates, coloured by its theme's class."""

    x: float
    y: float
    colour: str
    listing: Listing | None = None  # the small map on the home page has no links
    theme: str = ""  # the theme's title, named in a linked dot's title: colours repeat after nine themes


def geometry(similarity: Similarity, main_theme: MainTheme, size: tuple[int, int],
             slugs: list[str] | None = None, margin: int = 16) -> dict[str, MapPoint]:
    """Each placed paper's dot (or those of `slugs`) in a `size` SVG, y pointing up, without its listing."""
    width, height = size[0] - 2 * margin, size[1] - 2 * margin
    positions = similarity.positions
    return {slug: MapPoint(round(margin + positions[slug][0] * width, 1),
                           round(margin + (1 - positions[slug][1]) * height, 1),
                           main_theme.colour(similarity.tags[slug]))
            for slug in (positions if slugs is None else slugs)}


def topic_map(listings: tuple[Listing, ...], placed: dict[str, MapPoint], main_theme: MainTheme) -> dict[str, Any]:
    """Every placed paper as a linked dot, and the legend: (theme or None, colour, papers)."""
    points = tuple(placed[listing.slug]._replace(listing=listing, colour=main_theme.colour(listing.tags),
                                                 theme=main_theme.title(listing.tags))
                   for listing in listings if listing.slug in placed)
    legend = Counter(main_theme.index(point.listing.tags) for point in points)
    radius = 7 if len(points) <= 500 else 4 if len(points) <= 3000 else 2.5
    themes = main_theme.themes
    return {"points": points, "size": MAP_SIZE, "radius": radius,
            "legend": tuple((themes[i] if i is not None else None, colour_class(i), legend[i])
                            for i in (*range(len(themes)), None) if legend[i])}


def home_map(similarity: Similarity, main_theme: MainTheme) -> dict[str, Any]:
    """An evenly spread sample of at most HOME_MAP_POINTS dots, without links."""
    slugs = sorted(similarity.positions)
    sample = slugs[::max(1, -(-len(slugs) // HOME_MAP_POINTS))]
    placed = geometry(similarity, main_theme, HOME_MAP_SIZE, sample)
    return {"points": tuple(placed[slug] for slug in sample), "size": HOME_MAP_SIZE, "radius": 4}
