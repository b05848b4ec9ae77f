"""`build.py import`'s command line: its options, checked, and the run."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..report import Report


def add_parser(commands: argparse._SubParsersAction) -> None:
    """The `import` subcommand and its options."""
    imports = commands.add_parser(
        "import", help="add papers from paper lists to content/papers/",
        description="Turn paper lists into content/papers/<slug>.md: raw lists (a venue header, then "
                    "one abstract a paragraph, with or without a title line above each), BibTeX with "
                    "abstracts, CSV (Mini-Conf's papers.csv), OpenReview notes as JSON and arXiv API "
                    "Atom results, each recognised by its content. Papers already in content/ "
                    "(recognised by their abstract, arXiv id or DOI) are skipped, so curated edits "
                    "survive and re-imports change nothing.")
    imports.add_argument("lists", nargs="+", type=Path, metavar="FILE", help="paper list files, any format")
    imports.add_argument("--venue", metavar="VENUE",
                         help='the venue of every paper in these files, like "ICML 2024" (one of '
                              "content/venues.yaml), over what the files say; needed for CSV and Atom")
    imports.add_argument("--dry-run", action="store_true",
                         help="read and match everything, write nothing: print each file it would "
                              "write, with its front matter")
    imports.add_argument("--metadata", type=Path, metavar="FILE",
                         help="TSV of known titles, authors and arXiv ids, matched by opening text")
    imports.add_argument("--update", action="store_true",
                         help="also give papers already imported (matched by abstract, arXiv id or DOI) "
                              "whose title is still derived the title, authors, ids and links these "
                              "files (or --metadata) know; curated papers and fields are left alone, "
                              "and --dry-run shows each change as a diff")
    imports.add_argument("--content", type=Path, default=argparse.SUPPRESS, metavar="DIR",
                         help="content folder (default: content/)")


def run(args: argparse.Namespace, report: Report) -> int:
    """Import the files; 1 if anything could not be read (what could be read is imported)."""
    from .lists import import_lists  # here: the command line starts without the importer's models
    import_lists(args.lists, args.content, args.metadata, report, update=args.update, venue=args.venue,
                 dry_run=args.dry_run)
    return 1 if report.errors else 0
