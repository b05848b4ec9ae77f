"""`tags rename`, `tags merge` and `tags split`: the papers' `tags:`, the taxonomy and the
removed tags' addresses, changed together."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from pathlib import Path

from ..config import INTROS_DIR
from ..content.catalogue import Catalogue
from ..content.model import Paper
from ..content.source import read_source
from ..content.taxonomy import phrase_occurs
from ..report import Report
from ..urls import SLUG_PATTERN
from .addresses import redirect_tags
from .taxonomy_text import TaxonomyText
from .transaction import Transaction, every_paper, load_content

Retag = Callable[[Paper], list[str]]  # a paper's new tags


def rename_tag(content_dir: Path, old: str, new: str, report: Report) -> Transaction | None:
    """OLD becomes NEW everywhere; its label and description stay, for the curator to edit."""
    loaded = _load(content_dir, report)
    if loaded is None or not _known(loaded[1], [old], report) or not _new_id(loaded[1], old, new, report):
        return None
    catalogue, taxonomy = loaded
    taxonomy.rename_tag(old, new)
    return _change(content_dir, catalogue, taxonomy, {old: [new]}, {old: new},
                   lambda paper: substitute(paper.tags, {old: [new]}))


def merge_tags(content_dir: Path, sources: list[str], into: str, report: Report) -> Transaction | None:
    """The SOURCE tags become INTO (one of them, or another tag): their entries go, their
    phrases join INTO's, and themes that listed any list INTO once."""
    loaded = _load(content_dir, report)
    if loaded is None or not _known(loaded[1], sources, report) or not _existing(loaded[1], "", [into], None, report):
        return None
    catalogue, taxonomy = loaded
    gone = [tag for tag in dict.fromkeys(sources) if tag != into]
    if not gone:
        report.error("tags merge", 0, f"nothing to merge into `{into}`", "name at least one other tag before it")
        return None
    phrases = list(taxonomy.entry(into).get("phrases") or [])
    for tag in gone:
        phrases += [p for p in taxonomy.entry(tag).get("phrases") or [] if p not in phrases]
        taxonomy.remove_tag(tag)
    if phrases != (taxonomy.entry(into).get("phrases") or []):
        taxonomy.set_phrases(into, phrases)
    mapping = {tag: [into] for tag in gone}
    return _change(content_dir, catalogue, taxonomy, mapping, dict.fromkeys(gone, into),
                   lambda paper: substitute(paper.tags, mapping))


def split_tag(content_dir: Path, old: str, new: list[str], default: str | None,
              report: Report) -> Transaction | None:
    """Each paper tagged OLD takes the NEW tags whose phrases its title or abstract holds,
    or `default` if none; without a default, papers matching none are listed, and nothing changes."""
    loaded = _load(content_dir, report)
    if loaded is None or not _known(loaded[1], [old], report) or not _existing(loaded[1], old, new, default, report):
        return None
    catalogue, taxonomy = loaded
    phrases = {tag: [p.lower() for p in taxonomy.entry(tag).get("phrases") or []] for tag in new}  # as loaded
    chosen = {paper.path: _split_tags(paper, phrases, default) for paper in every_paper(catalogue) if old in paper.tags}
    unmatched = [paper for paper in every_paper(catalogue) if paper.path in chosen and chosen[paper.path] is None]
    for paper in unmatched:
        report.error(paper.path, paper.line_of("tags"), f"no phrase of {', '.join(f'`{t}`' for t in new)} "
                     f"occurs in this paper, so splitting `{old}` would leave it without them",
                     "give `--default TAG` for such papers, or tag this one by hand first")
    if unmatched:
        return None
    taxonomy.remove_tag(old)
    return _change(content_dir, catalogue, taxonomy, {old: new}, {old: default or new[0]},
                   lambda paper: substitute(paper.tags, {old: chosen.get(paper.path) or []}))


def substitute(tags: tuple[str, ...] | list[str], mapping: dict[str, list[str]]) -> list[str]:
    """The tags with each mapped one replaced where it stood, in order, each once."""
    return list(dict.fromkeys(new for tag in tags for new in mapping.get(tag, [tag])))


def _split_tags(paper: Paper, phrases: dict[str, list[str]], default: str | None) -> list[str] | None:
    """The new tags a paper of the split tag takes: those its text names, else the default; none
    if it has one of them already (it keeps that one); None if nothing fits (a curator decides)."""
    matching = _matching(paper, phrases)
    if matching:
        return matching
    if set(phrases) & set(paper.tags):
        return []
    return [default] if default else None


def _matching(paper: Paper, phrases: dict[str, list[str]]) -> list[str]:
    text = f"{paper.title}\n{paper.body}".lower()
    return [tag for tag, listed in phrases.items() if any(phrase_occurs(p, text) for p in listed)]


def _change(content_dir: Path, catalogue: Catalogue, taxonomy: TaxonomyText, mapping: dict[str, list[str]],
            moves: dict[str, str], retag: Retag) -> Transaction:
    """The transaction: the themes' lists, the taxonomy, each paper's tags, the redirects."""
    transaction = Transaction(content_dir)
    for index, theme in enumerate(taxonomy.data["themes"]):
        listed = substitute(theme["tags"], mapping)
        if listed != theme["tags"]:
            taxonomy.set_theme_tags(index, listed)
    transaction.write(taxonomy.path, taxonomy.checked_text(), *_taxonomy_what(taxonomy, moves, mapping))
    for paper in sorted(every_paper(catalogue), key=lambda paper: paper.path):
        tags = retag(paper)
        if tags != list(paper.tags):
            transaction.rewrite(read_source(paper.path), {"tags": tags})
    redirect_tags(transaction, moves)
    _move_intros(transaction, content_dir, moves)
    return transaction


def _move_intros(transaction: Transaction, content_dir: Path, moves: dict[str, str]) -> None:
    """A tag's introduction goes with its papers: to the new tag's file, or after the words
    already there (a merge), never lost."""
    folder = content_dir / INTROS_DIR / "tags"
    for old, new in moves.items():
        source, target = folder / f"{old}.md", folder / f"{new}.md"
        if old == new or not source.is_file():
            continue
        words = source.read_bytes()
        if target.is_file():
            words = target.read_bytes().rstrip(b"\n") + b"\n\n" + words
        transaction.write(target, words, f"the introduction of `{old}`, now `{new}`'s")
        transaction.delete(source, f"moved into {target.name}")


def _taxonomy_what(taxonomy: TaxonomyText, moves: dict[str, str], mapping: dict[str, list[str]]) -> list[str]:
    """What changes in the taxonomy: each tag renamed or removed, each theme's list."""
    lines = [f"tag `{old}` renamed `{new}`" if new not in taxonomy.tag_ids
             else f"tag `{old}` removed (its papers take {', '.join(f'`{t}`' for t in mapping[old])})"
             for old, new in moves.items()]
    for entry in (e for e in taxonomy.expected["tags"] if e["id"] in taxonomy.tag_ids):
        had = taxonomy.entry(entry["id"]).get("phrases") or []
        added = [phrase for phrase in entry.get("phrases") or [] if phrase not in had]
        if added:
            lines.append(f"tag `{entry['id']}` phrases: + {', '.join(map(repr, added))}")
    for before, after in zip(taxonomy.data["themes"], taxonomy.expected["themes"]):
        if before["tags"] != after["tags"]:
            lines.append(f"theme `{before['id']}` tags: [{', '.join(before['tags'])}] → [{', '.join(after['tags'])}]")
    return lines


def _load(content_dir: Path, report: Report) -> tuple[Catalogue, TaxonomyText] | None:
    catalogue = load_content(content_dir, report)
    return None if catalogue is None else (catalogue, TaxonomyText(content_dir))


def _known(taxonomy: TaxonomyText, tags: list[str], report: Report) -> bool:
    unknown = [tag for tag in dict.fromkeys(tags) if tag not in taxonomy.tag_ids]
    for tag in unknown:
        report.error(taxonomy.path, 0, f"no tag `{tag}` in the taxonomy", unknown_tag_hint(tag, taxonomy.tag_ids))
    return not unknown


def unknown_tag_hint(tag: str, tag_ids: Iterable[str]) -> str:
    """What to write instead of a tag the taxonomy lacks: the nearest id, as a typo is likelier
    than a new tag (adding one is `- id:` under `tags:`, with its label and phrases)."""
    close = difflib.get_close_matches(tag, list(tag_ids), 1)
    return f"did you mean `{close[0]}`?" if close else "name a tag listed under `tags:` there, or add it there first"


def _new_id(taxonomy: TaxonomyText, old: str, new: str, report: Report) -> bool:
    if new == old:
        report.error("tags rename", 0, f"`{old}` is its own name already", "name the tag it is to become")
    elif new in taxonomy.tag_ids:
        report.error(taxonomy.path, taxonomy.line_of_tag(new), f"tag `{new}` exists already",
                     f"to make the two one, run `python build.py tags merge {old} {new}`")
    elif not SLUG_PATTERN.match(new):
        report.error("tags rename", 0, f"`{new}` is not a valid tag id",
                     "use lower-case ASCII letters, digits and single hyphens")
    else:
        return True
    return False


def _existing(taxonomy: TaxonomyText, old: str, new: list[str], default: str | None, report: Report) -> bool:
    """A split's new tags must be in the taxonomy already, with their labels and phrases."""
    missing = [tag for tag in dict.fromkeys([*new, *([default] if default else [])]) if tag not in taxonomy.tag_ids]
    for tag in missing:
        report.error(taxonomy.path, 0, f"tag `{tag}` is not in the taxonomy yet",
                     f"add `- id: {tag}` (with label, description and phrases) under `tags:` first")
    if old in new:
        report.error("tags split", 0, f"`{old}` is the tag being split, so it cannot be one of its parts",
                     f"name only the new tags (tags split {old} {' '.join(t for t in new if t != old)}); to add "
                     f"tags to some of its papers and keep `{old}`, use `retag --where tag:{old} --add TAG`")
        return False
    if default and default not in new:
        report.error("tags split", 0, f"--default `{default}` is not one of the new tags",
                     f"name it among them: tags split OLD {' '.join(new)} {default}")
        return False
    return not missing
