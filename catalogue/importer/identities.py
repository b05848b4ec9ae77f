"""Which papers of content/ an import file's entry is: by its abstract (as given and as cleaned),
its arXiv id or its DOI, and what to say when it is more than one."""

from __future__ import annotations

from pathlib import Path

from ..content.loader import Identities
from ..content.source import fingerprint, read_source
from ..relate.duplicates import keeping_order
from ..report import Report, shown_path
from .record import Entry


def identities(entry: Entry, body: str) -> list[str]:
    """What makes two entries the same paper: the abstract (as given and as cleaned), the
    arXiv id, the DOI (either alone is enough)."""
    keys = [f"abstract:{fingerprint(entry.text)}", f"abstract:{fingerprint(body)}"]
    return keys + [f"{kind}:{value.lower()}" for kind, value in (("arxiv", entry.arxiv), ("doi", entry.doi)) if value]


def papers_of(keys: list[str], known: Identities) -> list[tuple[Path, str]]:
    """Each paper of content/ the entry is, with what shows it (`abstract`, `arxiv`, `doi`), in
    the keys' order: one paper, or none, unless content/ holds the paper twice."""
    tables = {"abstract": known.fingerprints, "arxiv": known.arxiv, "doi": known.doi}
    found: dict[Path, str] = {}
    for key in keys:
        kind, _, value = key.partition(":")
        if value in tables[kind]:
            found.setdefault(tables[kind][value], kind)
    return list(found.items())


_SHOWN_BY = {"abstract": "its abstract", "arxiv": "its arXiv id", "doi": "its DOI"}
_PLANNED = {"title_source": "derived"}  # a paper this dry run would have added (no `added`: the newest)


def twice_in_content(entry: Entry, papers: list[tuple[Path, str]], report: Report) -> None:
    """A warning that the entry is several papers of content/ at once, with the merges that make
    them one (keeping the paper `check` would keep: a curated title, then the oldest)."""
    metas = {path: read_source(path).meta if path.exists() else _PLANNED | {"slug": path.stem} for path, _ in papers}
    ordered = sorted(metas, key=lambda path: keeping_order(str(metas[path].get("title_source", "")),
                                                          str(metas[path].get("added") or ""), path))
    keep, *drops = [str(metas[path].get("slug") or path.stem) for path in ordered]
    merges = ", then ".join(f"`python build.py merge {keep} {drop}`" for drop in drops)
    named = ", ".join(f"{shown_path(path)} by {_SHOWN_BY[kind]}" for path, kind in papers)
    ids = " or ".join(dict.fromkeys(_SHOWN_BY[kind].removeprefix("its ") for _, kind in papers if kind != "abstract"))
    otherwise = f"if not, correct the entry's {ids}" if ids else "if not, nothing to do"
    withdrawn = " and ".join(shown_path(path) for path in ordered if metas[path].get("withdrawn"))
    first = f"remove `withdrawn:` from {withdrawn} (merge refuses a withdrawn paper), " if withdrawn else ""
    report.warning(entry.path, entry.line, f"this entry is {named}: one paper in {len(papers)} files?",
                   f"if so, {first}merge them ({merges}), then import this file again; {otherwise} (it was skipped)")


def remember(keys: list[str], path: Path, known: Identities) -> None:
    tables = {"abstract": known.fingerprints, "arxiv": known.arxiv, "doi": known.doi}
    for key in keys:
        kind, _, value = key.partition(":")
        tables[kind].setdefault(value, path)
