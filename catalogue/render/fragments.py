"""Fragments rendered from Python, once per distinct argument, and pasted into many pages: the
navigation (one per current page), a paper's list item, a map's dots. Each cache lives as long
as the shared context it was made for (`PageRenderer` makes new ones when that changes)."""

from __future__ import annotations

from typing import Any

import jinja2
import markupsafe

from .. import urls
from ..content.model import Listing
from ..relate.map_marks import MapPoint

NAV_TEMPLATE = "_nav.html"
ITEM_TEMPLATE = "_paper_item.html"
DOT_TEMPLATE = "_map_dot.html"
FRAGMENTS = (NAV_TEMPLATE, ITEM_TEMPLATE, DOT_TEMPLATE)  # rendered from Python, so no template names them


class Navigation:
    """The left navigation, marking the current page if the navigation links to it."""

    def __init__(self, template: jinja2.Template, nav: dict[str, tuple]):
        self.template, self.nav = template, nav
        self.targets = ({urls.theme(t.id) for t in nav["themes"]} | {urls.venue(v.slug) for v in nav["venues"]}
                        | {urls.guide(slug) for slug, _ in nav["guides"]} | set(urls.EXPLORE) | {urls.TAGS})
        self._rendered: dict[str, markupsafe.Markup] = {}

    def __call__(self, current: str) -> markupsafe.Markup:
        current = current if current in self.targets else ""
        if current not in self._rendered:
            self._rendered[current] = markupsafe.Markup(self.template.render(current=current, nav=self.nav))
        return self._rendered[current]


class PaperItems:
    """A paper as an item of a list (with its venue, with its abstract folded, or not): lists
    of 100 papers then cost a string join."""

    def __init__(self, template: jinja2.Template, **context: Any):
        self.template, self.context = template, context
        self._rendered: dict[tuple[Listing, bool, bool], markupsafe.Markup] = {}

    def __call__(self, paper: Listing, show_venue: bool, abstracts: bool) -> markupsafe.Markup:
        key = (paper, show_venue, abstracts)
        if key not in self._rendered:
            self._rendered[key] = markupsafe.Markup(
                self.template.render(paper=paper, show_venue=show_venue, abstracts=abstracts, **self.context))
        return self._rendered[key]


class MapDots:
    """A map's linked dots, each rendered once: a retitled paper costs one dot. Only the last
    map's dots are kept (a new computation moves them all)."""

    def __init__(self, template: jinja2.Template):
        self.template = template
        self._rendered: dict[tuple[MapPoint, float], str] = {}

    def __call__(self, points: tuple[MapPoint, ...], radius: float) -> markupsafe.Markup:
        last, self._rendered = self._rendered, {}
        for point in points:
            key = (point, radius)
            self._rendered[key] = last.get(key) or self.template.render(point=point, radius=radius)
        return markupsafe.Markup("".join(self._rendered.values()))
