"""What marks a theme on the topic maps: each paper's main theme, its colour class and its shape
(so colour is never the only cue), a dot, and what a theme's label is made of (its lines, its
papers' centre; `map_labels` places it). Geometry in SVG coordinates (y down)."""

from __future__ import annotations

import math
from collections import Counter
from statistics import median
from typing import NamedTuple

from ..content.model import Listing, Taxonomy, Theme

PALETTE = 9  # colour classes m0…m8 in the CSS, one per theme of content/taxonomy.yaml; m9: no theme

# One shape per colour class m0…m9 (m9: no theme), so colour is never the only cue. Each is
# sized to about a circle's area at the same radius.
SHAPES = ("circle", "square", "triangle", "diamond", "triangle-down", "plus", "star", "cross",
          "hourglass", "ring")


def _polygon(radius: float, count: int, start: float) -> list[tuple[float, float]]:
    return [(radius * math.cos(start + 2 * math.pi * k / count), radius * math.sin(start + 2 * math.pi * k / count))
            for k in range(count)]


def _star() -> list[tuple[float, float]]:
    outer, inner = _polygon(1.45, 5, -math.pi / 2), _polygon(0.62, 5, -math.pi / 2 + math.pi / 5)
    return [corner for pair in zip(outer, inner) for corner in pair]


def _plus(turn: float) -> list[tuple[float, float]]:
    arm, half = 1.2, 0.4
    corners = [(half, -arm), (half, -half), (arm, -half), (arm, half), (half, half), (half, arm),
               (-half, arm), (-half, half), (-arm, half), (-arm, -half), (-half, -half), (-half, -arm)]
    cos, sin = math.cos(turn), math.sin(turn)
    return [(x * cos - y * sin, x * sin + y * cos) for x, y in corners]


def _centred(corners: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The corners moved so that their bounding box is centred on (0, 0): the CSS turns a
    shape about that centre on a turned map, and it must stay on its dot."""
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    mid_x, mid_y = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return [(x - mid_x, y - mid_y) for x, y in corners]


UNIT_OUTLINES = {  # corners of each polygonal shape around (0, 0), for a radius of 1
    "square": [(-0.89, -0.89), (0.89, -0.89), (0.89, 0.89), (-0.89, 0.89)],
    "triangle": _centred(_polygon(1.45, 3, -math.pi / 2)),
    "diamond": _polygon(1.25, 4, -math.pi / 2),
    "triangle-down": _centred(_polygon(1.45, 3, math.pi / 2)),
    "plus": _plus(0.0),
    "star": _centred(_star()),
    "cross": _plus(math.pi / 4),
    "hourglass": [(-1.0, -1.15), (1.0, -1.15), (0.25, 0.0), (1.0, 1.15), (-1.0, 1.15), (-0.25, 0.0)],
}


def shape_of(colour_index: int) -> str:
    """The shape drawn for colour class m<colour_index>."""
    return SHAPES[colour_index % len(SHAPES)]


def shape_path(shape: str, x: float, y: float, radius: float) -> str:
    """An SVG path for `shape` centred on (x, y), about as large as a circle of `radius`."""
    if shape in ("circle", "ring"):
        path = _circle(x, y, radius)
        return path + _circle(x, y, radius * 0.5) if shape == "ring" else path  # the hole: even-odd fill
    corners = UNIT_OUTLINES[shape]
    return "M" + "L".join(f"{_n(x + cx * radius)} {_n(y + cy * radius)}" for cx, cy in corners) + "Z"


def _circle(x: float, y: float, radius: float) -> str:
    return f"M{_n(x - radius)} {_n(y)}a{_n(radius)} {_n(radius)} 0 1 0 {_n(2 * radius)} 0a{_n(radius)} {_n(radius)} 0 1 0 {_n(-2 * radius)} 0Z"


def _n(value: float) -> str:
    """A coordinate with one decimal, without a trailing .0 or a negative zero."""
    text = f"{round(value, 1) + 0.0:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Label(NamedTuple):
    """A theme's name on a map: its centre and its lines, one below the other."""

    x: float
    y: float
    lines: tuple[str, ...]
    theme_id: str


def wrap(title: str, width: int) -> tuple[str, ...]:
    """`title` in lines of at most `width` characters where words allow."""
    lines: list[str] = []
    for word in title.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return tuple(lines)


def robust_centre(points: list[tuple[float, float]]) -> tuple[float, float]:
    """The median of the points on each axis: one stray paper does not drag it away."""
    return median(x for x, _ in points), median(y for _, y in points)


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

    def shape(self, tags: tuple[str, ...]) -> str:
        """The shape that goes with the colour: a reader need not tell colours apart."""
        return shape_of(colour_number(self.index(tags)))


def colour_number(theme_index: int | None) -> int:
    return PALETTE if theme_index is None else theme_index % PALETTE


def colour_class(theme_index: int | None) -> str:
    return f"m{colour_number(theme_index)}"


class MapPoint(NamedTuple):
    """A dot on a topic map, in the SVG's coordinates, coloured by its theme's class."""

    x: float
    y: float
    colour: str
    listing: Listing | None = None  # the small map on the home page has no links
    theme: str = ""  # the theme's title, named in a linked dot's title: colours repeat after nine themes
    shape: str = "circle"

    def path(self, radius: float) -> str:
        return shape_path(self.shape, self.x, self.y, radius)
