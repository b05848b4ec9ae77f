"""The topic map's marks: shapes, labels, the legend's two counts, and a palette that stays apart
for colour-blind readers and keeps 3:1 against both schemes' backgrounds (measured on the CSS)."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
import yaml
from helpers import FROZEN

from catalogue.config import PROJECT_ROOT
from catalogue.content.model import Listing, Taxonomy, Theme, Venue
from catalogue.relate.map_marks import PALETTE, SHAPES, MainTheme, MapPoint, robust_centre, shape_of, shape_path, wrap
from catalogue.relate.maps import topic_map


def corners(path: str) -> list[tuple[float, float]]:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path)]
    return list(zip(numbers[::2], numbers[1::2]))


def test_every_colour_class_has_its_own_shape():
    assert len(SHAPES) == PALETTE + 1 == len(set(SHAPES))
    assert [shape_of(i) for i in range(PALETTE + 1)] == list(SHAPES)


@pytest.mark.parametrize("shape", [s for s in SHAPES if s not in ("circle", "ring")])
def test_a_polygon_is_centred_on_its_dot_and_about_a_circles_size(shape):
    points = corners(shape_path(shape, 100, 50, 10))
    xs, ys = [x for x, _ in points], [y for _, y in points]
    assert abs((min(xs) + max(xs)) / 2 - 100) <= 0.1 and abs((min(ys) + max(ys)) / 2 - 50) <= 0.1
    assert 14 <= max(xs) - min(xs) <= 30 and 14 <= max(ys) - min(ys) <= 30
    assert shape_path(shape, 100, 50, 10).endswith("Z")


def test_a_ring_is_a_circle_with_a_hole():
    ring, circle = shape_path("ring", 10, 10, 6), shape_path("circle", 10, 10, 6)
    assert ring.startswith(circle) and ring.count("M") == 2
    assert circle == "M4 10a6 6 0 1 0 12 0a6 6 0 1 0 -12 0Z"


def test_the_centre_is_the_median_so_one_stray_paper_does_not_move_it():
    assert robust_centre([(10, 10), (12, 11), (11, 12), (900, 600)]) == (11.5, 11.5)


def test_titles_wrap_at_word_boundaries():
    assert wrap("Theory of in-context and algorithm learning", 16) == ("Theory of", "in-context and", "algorithm", "learning")
    assert wrap("Theory of in-context and algorithm learning", 18)[-1] == "algorithm learning"
    assert wrap("Short", 16) == ("Short",)


def listing(slug: str, tags: tuple[str, ...]) -> Listing:
    return Listing(slug, slug.title(), Venue(2025, "ICLR"), (), tags, False)


def test_the_legend_counts_a_themes_dots_and_all_its_papers():
    taxonomy = Taxonomy({}, {"x": Theme("x", "X", "", ("t1", "t2")), "y": Theme("y", "Y", "", ("t2", "t3"))})
    papers = (listing("p1", ("t1",)), listing("p2", ("t1", "t2")), listing("p3", ("t2",)),
              listing("p4", ("t3",)), listing("p5", ("other",)))
    placed = {p.slug: MapPoint(10.0 * i, 10.0 * i, "") for i, p in enumerate(papers)}
    made = topic_map(papers, placed, MainTheme(taxonomy))
    counts = [(e.theme.id if e.theme else None, e.colour, e.dots, e.papers) for e in made["legend"]]
    # p3's one tag is in both themes: the earlier (x) wins the tie; p2 is in y too, drawn as x
    assert counts == [("x", "m0", 3, 3), ("y", "m1", 1, 3), (None, "m9", 1, 1)]
    assert [p.shape for p in made["points"]] == ["circle", "circle", "circle", "square", "ring"]
    assert {label.theme_id for label in made["labels"]["wide"]} == {"x", "y"}


# The palette, read from the CSS as the browser reads it.

def css_colours() -> dict[str, tuple[str, str]]:
    css = (PROJECT_ROOT / "static" / "style.css").read_text(encoding="utf-8")
    return dict((name, (light, dark)) for name, light, dark in
                re.findall(r"--([\w-]+): light-dark\((#[0-9a-f]{6}), (#[0-9a-f]{6})\);", css))


def rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])


def linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def contrast(a: str, b: str) -> float:
    dark, light = sorted(float(linear(rgb(c)) @ [0.2126, 0.7152, 0.0722]) for c in (a, b))
    return (light + 0.05) / (dark + 0.05)


# Machado, Oliveira and Fernandes (2009), full severity, on linear RGB.
VISION = {"typical": np.eye(3),
          "protan": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
          "deutan": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]),
          "tritan": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]])}
LMS = np.array([[0.4122214708, 0.5363325363, 0.0514459929], [0.2119034982, 0.6806995451, 0.1073969566],
                [0.0883024619, 0.2817188376, 0.6299787005]])
OKLAB = np.array([[0.2104542553, 0.7936177850, -0.0040720468], [1.9779984951, -2.4285922050, 0.4505937099],
                  [0.0259040371, 0.7827717662, -0.8086757660]])


def seen(hex_colour: str, vision: str) -> np.ndarray:
    """The colour in OKLab as a reader with `vision` sees it."""
    return OKLAB @ np.cbrt(LMS @ np.clip(VISION[vision] @ linear(rgb(hex_colour)), 0, 1))


def theme_colours(scheme: int) -> list[str]:
    colours = css_colours()
    return [colours[f"m{i}"][scheme] for i in range(PALETTE)]


def test_the_palette_has_a_colour_for_every_theme_in_the_taxonomy():
    taxonomy = yaml.safe_load((FROZEN / "content" / "taxonomy.yaml").read_text(encoding="utf-8"))
    assert len(taxonomy["themes"]) <= PALETTE
    assert {f"m{i}" for i in range(PALETTE + 1)} <= set(css_colours())


@pytest.mark.parametrize("scheme", [0, 1], ids=["light", "dark"])
def test_every_mark_keeps_3_to_1_against_both_backgrounds(scheme):
    colours = css_colours()
    for i in range(PALETTE + 1):
        for background in ("bg", "bg-soft"):
            assert contrast(colours[f"m{i}"][scheme], colours[background][scheme]) >= 3, (i, background)


@pytest.mark.parametrize("vision", list(VISION))
@pytest.mark.parametrize("scheme", [0, 1], ids=["light", "dark"])
def test_theme_colours_stay_apart_also_for_colour_blind_readers(scheme, vision):
    """Pairwise OKLab distance at least 0.08 for every vision (Paul Tol's muted scheme, darkened
    to 3:1 on white, has pairs under 0.03 apart for deutans and tritans); typical vision gets more room."""
    floor = 0.14 if vision == "typical" else 0.08
    colours = [seen(c, vision) for c in theme_colours(scheme)]
    closest = min(float(np.linalg.norm(a - b)) for a, b in itertools.combinations(colours, 2))
    assert closest >= floor
