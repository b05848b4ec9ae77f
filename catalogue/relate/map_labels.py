"""The topic map's theme labels, placed at build time where they cover no dot and no other label:
each at the free spot nearest its theme's dots, or, with none near enough to tell whose it is, left
to the legend. A grid of the map's room (the cells dots and placed labels take) answers for every
spot at once how much of a label's box is taken and how far it is from the theme's dots, so placing
is the same few array operations at 95 papers or 50,000."""

from __future__ import annotations

import numpy as np
from scipy.ndimage import distance_transform_edt, minimum_filter

from .map_marks import Label, MainTheme, MapPoint, robust_centre, wrap

LABEL_FONT, NARROW_LABEL_FONT = 15, 21  # in SVG units: about 13 px on a wide screen, 12 px on a phone

CELL = 2.0  # SVG units a grid cell
# Em a character takes in the labels' semi-bold type, as DejaVu Sans Bold (the widest a browser is
# likely to pick for system-ui) sets it; a character not named takes the widest.
WIDTHS = {**dict.fromkeys("ijlIJ'/", 0.37), **dict.fromkeys(" ,.:;", 0.4), **dict.fromkeys("frt-()", 0.49),
          **dict.fromkeys("csz", 0.6), **dict.fromkeys("aekvxyETF", 0.68),
          **dict.fromkeys("bdghnopquLCPYZ0123456789", 0.73), **dict.fromkeys("mM", 1.04), **dict.fromkeys("wW", 1.1)}
WIDEST = 0.87
LINE_HEIGHT = 1.2  # em, as the template spaces the lines
HALO = 3.0  # the label's outline (5 units wide in the CSS) and a little air
SHAPE_REACH = 1.45  # how far a dot's shape reaches, in radii (a star's and a triangle's points)
NARROW_SCALE = 1.3  # the turned map draws its dots this much larger (style.css)
EDGE = 4.0  # room kept between a label and the map's edge
REACH = 40.0  # the farthest a label's box may be from its nearest dot (its halo included)


def theme_labels(points: tuple[MapPoint, ...], radius: float, size: tuple[int, int],
                 main_theme: MainTheme) -> dict[str, tuple[Label, ...]]:
    """A label for each theme with dots on the map, `wide` for the map as it is and `narrow` for
    the map turned a quarter, its labels upright."""
    anchors = _anchors(points, main_theme)
    return {"wide": place(anchors, points, radius, LABEL_FONT, 20, size),
            "narrow": place(anchors, points, radius * NARROW_SCALE, NARROW_LABEL_FONT, 12, size, turned=True)}


def _anchors(points: tuple[MapPoint, ...], main_theme: MainTheme) -> list[tuple[str, str, list[tuple[float, float]]]]:
    """(theme id, title, its dots) of each theme with dots: the most dots first, then in the
    taxonomy's order, so the largest groups get the spots nearest their middle."""
    dots: dict[int, list[tuple[float, float]]] = {}
    for point in points:
        index = main_theme.index(point.listing.tags)
        if index is not None:
            dots.setdefault(index, []).append((point.x, point.y))
    order = sorted(dots, key=lambda index: (-len(dots[index]), index))
    return [(main_theme.themes[i].id, main_theme.themes[i].title, dots[i]) for i in order]


def place(anchors: list[tuple[str, str, list[tuple[float, float]]]], points: tuple[MapPoint, ...], radius: float,
          font: float, width: int, size: tuple[int, int], turned: bool = False) -> tuple[Label, ...]:
    """Each label at the free spot nearest its dots, in `anchors`' order; a theme with no free
    spot within REACH of its dots has no label (the legend names it). `turned`: the map is shown
    turned a quarter and its labels upright, so a label's box lies across the map."""
    taken = _dots_grid(points, radius * SHAPE_REACH + 1, size)
    labels = []
    for theme_id, title, dots in anchors:
        lines = wrap(title, width)
        box = (max(map(text_width, lines)) * font + 2 * HALO, len(lines) * font * LINE_HEIGHT + 2 * HALO)
        box = box[::-1] if turned else box
        x, y, gap = _nearest_free(taken, box, dots)
        if gap > REACH:
            continue  # no free spot, or none near enough to tell whose it is: the legend names the theme
        _take(taken, (x - box[0] / 2 - HALO, y - box[1] / 2 - HALO, x + box[0] / 2 + HALO, y + box[1] / 2 + HALO))
        labels.append(Label(round(x, 1), round(y, 1), lines, theme_id))
    return tuple(labels)


def text_width(line: str) -> float:
    """The width of a line of a label, in em."""
    return sum(WIDTHS.get(char, WIDEST) for char in line)


def _dots_grid(points: tuple[MapPoint, ...], reach: float, size: tuple[int, int]) -> np.ndarray:
    """The map's cells, True where a dot's shape (to `reach` from its centre) or the edge is:
    each dot's square marked in a difference grid, summed once."""
    rows, columns = int(np.ceil(size[1] / CELL)), int(np.ceil(size[0] / CELL))
    marks = np.zeros((rows + 1, columns + 1), dtype=np.int32)
    if points:
        xy = np.array([(point.x, point.y) for point in points])
        top, left = (np.clip((xy[:, ::-1] - reach) // CELL, 0, (rows, columns))).astype(int).T
        bottom, right = (np.clip(np.ceil((xy[:, ::-1] + reach) / CELL), 0, (rows, columns))).astype(int).T
        for row, column, step in ((top, left, 1), (top, right, -1), (bottom, left, -1), (bottom, right, 1)):
            np.add.at(marks, (row, column), step)
    taken = marks.cumsum(0).cumsum(1)[:rows, :columns] > 0
    edge = int(np.ceil(EDGE / CELL))
    taken[:edge, :] = taken[-edge:, :] = taken[:, :edge] = taken[:, -edge:] = True
    return taken


def _take(taken: np.ndarray, box: tuple[float, float, float, float]) -> None:
    left, top, right, bottom = box
    taken[max(0, int(top // CELL)):max(0, int(np.ceil(bottom / CELL))),
          max(0, int(left // CELL)):max(0, int(np.ceil(right / CELL)))] = True


def _nearest_free(taken: np.ndarray, box: tuple[float, float],
                  dots: list[tuple[float, float]]) -> tuple[float, float, float]:
    """The centre of the free box-sized spot nearest to one of `dots` (among as near ones, the
    nearest to their middle), and how far its box is from that dot (infinite if no spot is free)."""
    rows, columns = taken.shape
    high, wide = min(rows, int(np.ceil(box[1] / CELL))), min(columns, int(np.ceil(box[0] / CELL)))
    sums = np.zeros((rows + 1, columns + 1), dtype=np.int32)
    sums[1:, 1:] = taken.cumsum(0).cumsum(1)
    covered = sums[high:, wide:] - sums[:-high, wide:] - sums[high:, :-wide] + sums[:-high, :-wide]
    ys = (np.arange(covered.shape[0]) + high / 2) * CELL
    xs = (np.arange(covered.shape[1]) + wide / 2) * CELL
    apart = np.ones(taken.shape, dtype=bool)  # False at each of the theme's dots
    for x, y in dots:
        apart[min(rows - 1, max(0, int(y // CELL))), min(columns - 1, max(0, int(x // CELL)))] = False
    # A spot's gap: the least distance to a dot from any cell of its box.
    gap = minimum_filter(distance_transform_edt(apart), size=(high, wide), mode="nearest") * CELL
    gap = gap[high // 2:high // 2 + covered.shape[0], wide // 2:wide // 2 + covered.shape[1]]
    middle = robust_centre(dots)
    distance = gap + 0.1 * np.hypot(xs[None, :] - middle[0], ys[:, None] - middle[1])
    distance[covered > 0] = np.inf
    row, column = np.unravel_index(int(np.argmin(distance)), distance.shape)
    found = np.isfinite(distance[row, column])
    return float(xs[column]), float(ys[row]), float(gap[row, column]) if found else float("inf")
