"""What marks a theme on the topic maps besides its colour: a shape per theme, and what its label
is made of (its lines, its papers' centre; `map_labels` places it). Pure geometry, in SVG
coordinates (y down)."""

from __future__ import annotations

import math
from statistics import median
from typing import NamedTuple

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
