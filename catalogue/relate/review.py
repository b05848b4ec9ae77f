"""What needs a person: the review list that `build.py review`, `check --format json` and watch
mode's `/_review/` page all show, grouped by what the curator has to decide."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path

from ..config import AUTHORS_FILE, VENUES_FILE
from ..content.model import Paper, Taxonomy
from ..content.names import author_slug, family_name
from .duplicates import Duplicate, find_duplicates
from .tagging import TagOutlier, tag_outliers

ABSTRACT_LINES_SHOWN = 240  # characters of the abstract shown beside a derived title
COSTLY_LIMIT = 2_000  # papers: above, watch mode's review page leaves out tags to confirm and duplicates

GROUPS = {  # kind → heading, in the order the list shows them
    "title": "Titles still derived from the abstract",
    "tags": "Tags to confirm",
    "duplicate": "Possibly the same paper",
    "author": "Author names that look like variants",
    "venue": "Venues that look like variants",
}


@dataclass(frozen=True)
class ReviewItem:
    """One decision for a curator: where to make it, what it is, and how."""

    kind: str  # a key of GROUPS
    path: Path | str  # the file to edit
    line: int
    message: str
    hint: str
    slug: str = ""  # the paper it is about, if any: its page is linked
    detail: str = ""  # what helps decide: the abstract's opening, the neighbours' tags

    def as_json(self) -> dict[str, object]:
        return {**asdict(self), "path": str(self.path)}


@dataclass(frozen=True)
class Costly:
    """The parts of the review list that cost a pass over every pair of near papers (tags to
    confirm, possible duplicates: 0.1 s at 95 papers, a minute and more at 10,000), which a
    caller may compute once and share."""

    outliers: tuple[TagOutlier, ...]
    duplicates: tuple[Duplicate, ...]


def costly_in_watch(papers: int) -> bool:
    """Whether watch mode works out the costly parts for a catalogue of this many papers (a
    minute and more at 10,000: above COSTLY_LIMIT its review page says it leaves them out)."""
    return papers <= COSTLY_LIMIT


def costly_parts(papers: Sequence[Paper], taxonomy: Taxonomy) -> Costly:
    """The tags to confirm and the possible duplicates (a function of its own: watch mode runs
    it in its worker process, which is sent the papers, not the whole catalogue)."""
    return Costly(tuple(tag_outliers(papers, taxonomy)), tuple(find_duplicates(papers)))


def review_items(papers: Sequence[Paper], content_dir: Path, costly: Costly) -> list[ReviewItem]:
    """Every item of the review list, grouped in GROUPS' order, each group in file order."""
    items = [*derived_titles(papers), *tag_items(costly.outliers), *duplicate_items(costly.duplicates),
             *author_variants(papers, content_dir), *venue_variants(papers, content_dir)]
    order = list(GROUPS)
    return sorted(items, key=lambda item: (order.index(item.kind), str(item.path), item.line))


def grouped(items: list[ReviewItem]) -> dict[str, list[ReviewItem]]:
    """The items under their group's heading, the empty groups left out."""
    groups: dict[str, list[ReviewItem]] = {}
    for item in items:
        groups.setdefault(GROUPS[item.kind], []).append(item)
    return groups


def derived_titles(papers: Sequence[Paper]) -> list[ReviewItem]:
    """Papers whose title the importer made up from the abstract, with the abstract's opening."""
    return [ReviewItem("title", paper.path, paper.line_of("title"), f"“{paper.title}”",
                       "read the paper's real title, write it as `title:`, then set `title_source: curated`",
                       paper.slug, _opening(paper.body))
            for paper in papers if paper.title_source == "derived"]


EVIDENCE = "its phrases and the papers it reads like"  # what a tag's confidence comes from


def tag_items(outliers: list[TagOutlier]) -> list[ReviewItem]:
    """Papers whose tags need a second look (see `tag_outliers`), never a failure."""
    items = []
    for outlier in outliers:
        doubted, missing, consider = (_confidences(found) for found in (outlier.doubted, outlier.missing,
                                                                          outlier.consider))
        found = [f"has {doubted}, which {EVIDENCE} barely suggest" if doubted else "",
                 f"lacks {missing}, which they strongly suggest" if missing else "", _unsure(outlier)]
        near = ", ".join(outlier.neighbours) or "none close"
        paper = outlier.paper
        items.append(ReviewItem("tags", paper.path, paper.line_of("tags"),
                                f"{'tags to check' if doubted or missing else 'tags to confirm'}: "
                                f"{'; '.join(f for f in found if f)}",
                                f"check the tags against the abstract{f' (consider {consider})' if consider else ''}; "
                                f"nearest papers: {near}; keep them if they are right", paper.slug, f"“{paper.title}”"))
    return items


def _unsure(outlier: TagOutlier) -> str:
    """`a single tag: …`, `no tag (EVIDENCE) are sure of: …`, unless doubted already."""
    if not outlier.paper.tags:
        return "no tags"
    if not {tag for tag, _ in outlier.unsure} - {tag for tag, _ in outlier.doubted}:
        return ""
    what = "a single tag" if len(outlier.unsure) == 1 else f"no tag {EVIDENCE} are sure of"
    return f"{what}: {_confidences(outlier.unsure)}"


def _confidences(tags: tuple[tuple[str, float], ...]) -> str:
    return ", ".join(f"`{tag}` ({confidence:.2f})" for tag, confidence in tags)


def duplicate_items(duplicates: tuple[Duplicate, ...]) -> list[ReviewItem]:
    """Two files that may be one paper: the one to drop is where the decision is made."""
    return [ReviewItem("duplicate", d.drop.path, d.line, d.message, d.hint, d.drop.slug, f"“{d.drop.title}”")
            for d in duplicates]


def _opening(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= ABSTRACT_LINES_SHOWN else flat[:ABSTRACT_LINES_SHOWN].rsplit(" ", 1)[0] + " …"


def author_variants(papers: Sequence[Paper], content_dir: Path) -> list[ReviewItem]:
    """Pairs of names on different author pages that could be one person spelt two ways
    (`Marcos Treviso`, `Marcos V. Treviso`): same family name, and given names that agree word
    for word or initial for word. Names content/authors.yaml already joins are one page."""
    papers_of: dict[str, list[Paper]] = {}
    for paper in papers:
        for name in dict.fromkeys(paper.authors):
            papers_of.setdefault(name, []).append(paper)
    given = {name: _given(name) for name in papers_of}
    candidates: dict[tuple[str, str], list[str]] = {}  # (family name, first initial) → names
    for name in sorted(papers_of):
        if given[name]:
            candidates.setdefault((_folded(family_name(name)), given[name][0][:1]), []).append(name)
    items = []
    for names in candidates.values():
        for first, second in combinations(names, 2):
            if author_slug(first) != author_slug(second) and _same_person(given[first], given[second]):
                items.append(_author_item(first, second, papers_of, content_dir))
    return items


def _same_person(first: list[str], second: list[str]) -> bool:
    """Given names that could be one person's: each word of the shorter list matches a word of
    the longer, in order, whole or as its initial (`J.` and `John`, `Andre` and `André F. T.`)."""
    shorter, longer = sorted((first, second), key=len)
    if not shorter or shorter[0][:1] != longer[0][:1]:
        return False
    words = iter(longer)
    return all(any(_agree(word, other) for other in words) for word in shorter)


def _given(name: str) -> list[str]:
    """A name's given names, folded: `André F. T. Martins` → [andre, f, t]."""
    words = [_folded(word).strip(".") for word in name.replace("-", " ").split()]
    family = _folded(family_name(name))
    return [word for word in words if word and word != family]


def _agree(word: str, other: str) -> bool:
    return word == other or (len(word) == 1 and other.startswith(word)) or (len(other) == 1 and word.startswith(other))


def _author_item(first: str, second: str, papers_of: dict[str, list[Paper]], content_dir: Path) -> ReviewItem:
    """The rarer spelling's first paper is where a curator would look; authors.yaml is the fix."""
    common, rare = sorted((first, second), key=lambda name: (-len(papers_of[name]), -len(name), name))
    paper = papers_of[rare][0]
    return ReviewItem("author", content_dir / AUTHORS_FILE, 0,
                      f"`{rare}` ({_papers(papers_of[rare])}) and `{common}` ({_papers(papers_of[common])}) "
                      "may be one person",
                      f"if they are, add `- [{common}, {rare}]` to content/{AUTHORS_FILE}; "
                      f"if not, nothing to do", paper.slug,
                      f"`{rare}` in {paper.path.name}, line {paper.line_of('authors')}")


def _papers(papers: list[Paper]) -> str:
    return f"{len(papers)} paper{'' if len(papers) == 1 else 's'}"


def venue_variants(papers: Sequence[Paper], content_dir: Path) -> list[ReviewItem]:
    """Venues in use whose names differ only by case, spacing or punctuation (`NeurIPS 2024`,
    `Neur-IPS 2024`), or that share a full title: two labels for one edition."""
    in_use = Counter(paper.venue for paper in papers)
    items = []
    for first, second in combinations(sorted(in_use), 2):
        same_title = first.title and first.title == second.title and first.year == second.year
        if _letters(first.label) == _letters(second.label) or same_title:
            items.append(ReviewItem(
                "venue", content_dir / VENUES_FILE, 0,
                f"`{first.label}` ({in_use[first]}) and `{second.label}` ({in_use[second]}) look like one venue",
                f"keep one in content/{VENUES_FILE}, and set the other's papers' `venue:` to it"))
    return items


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def _letters(text: str) -> str:
    return "".join(char for char in _folded(text) if char.isalnum())
