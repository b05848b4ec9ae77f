"""The topic maps' geometry: where each paper's dot goes, the legend, and the theme labels' places
(each paper's main theme, its colour and shape are `map_marks`')."""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from ..content.model import Listing, Taxonomy, Theme
from .map_labels import LABEL_FONT, NARROW_LABEL_FONT, theme_labels
from .map_marks import MainTheme, MapPoint, colour_class, colour_number, shape_of, shape_path
from .similarity import Similarity

MAP_SIZE, HOME_MAP_SIZE = (1000, 620), (600, 300)  # SVG view boxes
HOME_MAP_POINTS = 400  # the home page's small map shows a sample: it must stay light at 50,000 papers


class LegendEntry(NamedTuple):
    """A theme (None: papers in no theme) as the legend shows it: its mark, the dots drawn with
    it (papers whose main theme it is) and all its papers (a paper may be in several themes)."""

    theme: Theme | None
    colour: str
    swatch: str  # an SVG path around (0, 0), for a viewBox of -9 -9 18 18
    dots: int = 0
    papers: int = 0


def geometry(similarity: Similarity, main_theme: MainTheme, size: tuple[int, int],
             slugs: list[str] | None = None, margin: int = 16) -> dict[str, MapPoint]:
    """Each placed paper's dot (or those of `slugs`) in a `size` SVG, y pointing up, without its listing."""
    width, height = size[0] - 2 * margin, size[1] - 2 * margin
    positions = similarity.positions
    return {slug: MapPoint(round(margin + positions[slug][0] * width, 1),
                           round(margin + (1 - positions[slug][1]) * height, 1),
                           main_theme.colour(similarity.tags[slug]), shape=main_theme.shape(similarity.tags[slug]))
            for slug in (positions if slugs is None else slugs)}


def topic_map(listings: tuple[Listing, ...], placed: dict[str, MapPoint], main_theme: MainTheme) -> dict[str, Any]:
    """Every placed paper as a linked dot, the legend, and the themes' labels: `wide` for the map
    as it is, `narrow` for the map turned a quarter on a phone."""
    points = tuple(placed[listing.slug]._replace(listing=listing, colour=main_theme.colour(listing.tags),
                                                 shape=main_theme.shape(listing.tags),
                                                 theme=main_theme.title(listing.tags))
                   for listing in listings if listing.slug in placed)
    radius = 7 if len(points) <= 500 else 4 if len(points) <= 3000 else 2.5
    members = _theme_members(points, main_theme.taxonomy)
    main = [main_theme.index(point.listing.tags) for point in points]
    return {"points": points, "size": MAP_SIZE, "radius": radius, "legend": legend(main, main_theme, members),
            "labels": theme_labels(points, radius, MAP_SIZE, main_theme),
            "label_font": {"wide": LABEL_FONT, "narrow": NARROW_LABEL_FONT}}


def _theme_members(points: tuple[MapPoint, ...], taxonomy: Taxonomy) -> dict[str, list[tuple[float, float]]]:
    """Each theme's papers' dots, whatever their main theme."""
    members: dict[str, list[tuple[float, float]]] = {theme_id: [] for theme_id in taxonomy.themes}
    for point in points:
        for theme_id in taxonomy.themes_of(point.listing.tags):
            members[theme_id].append((point.x, point.y))
    return members


def legend(main: list[int | None], main_theme: MainTheme,
           members: dict[str, list] | None = None) -> tuple[LegendEntry, ...]:
    """The legend of dots whose main themes are `main`: each theme with dots (and papers in no
    theme, last), with both counts."""
    dots = Counter(main)
    themes = main_theme.themes
    return tuple(LegendEntry(themes[i] if i is not None else None, colour_class(i),
                             shape_path(shape_of(colour_number(i)), 0, 0, 6), dots[i],
                             len(members[themes[i].id]) if members and i is not None else dots[i])
                 for i in (*range(len(themes)), None) if dots[i])


def home_map(similarity: Similarity, main_theme: MainTheme) -> dict[str, Any]:
    """An evenly spread sample of at most HOME_MAP_POINTS dots, without links."""
    slugs = sorted(similarity.positions)
    sample = slugs[::max(1, -(-len(slugs) // HOME_MAP_POINTS))]
    placed = geometry(similarity, main_theme, HOME_MAP_SIZE, sample)
    points = tuple(placed[slug] for slug in sample)
    return {"points": points, "size": HOME_MAP_SIZE, "radius": 4, "legend": legend([main_theme.index(similarity.tags[slug]) for slug in sample], main_theme)}
