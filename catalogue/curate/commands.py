"""The command line of the commands that change content/: `tags rename|merge|split`, `merge`
and `retag`, each with `--content DIR` and `--dry-run`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..config import SiteConfig
from ..report import ContentError, Report
from .merge import merge_papers
from .retag import retag
from .tags import merge_tags, rename_tag, split_tag
from .transaction import Transaction

COMMANDS = ("tags", "merge", "retag")
ONE_STEP = "Every file changes or none does; after writing, the build's checks run, and a change " \
           "that brings errors is undone."


def add_parsers(commands) -> None:
    """`tags`, `merge` and `retag`, added to the command line's subcommands."""
    tags = commands.add_parser("tags", help="rename, merge or split tags across the catalogue",
                               description="Change a tag in the papers' front matter, the taxonomy and "
                                           "the tag pages' addresses (redirects) at once. " + ONE_STEP)
    actions = tags.add_subparsers(dest="tags_command", metavar="ACTION", required=True)
    rename = _common(actions.add_parser("rename", help="give a tag a new id",
                                        description="OLD becomes NEW; its label and description stay."))
    rename.add_argument("old", metavar="OLD")
    rename.add_argument("new", metavar="NEW")
    merge = _common(actions.add_parser("merge", help="make several tags one (the last named)",
                                       description="Each TAG becomes INTO, which may be one of them or "
                                                   "another tag; their phrases join INTO's."))
    merge.add_argument("tags", nargs="+", metavar="TAG")
    merge.add_argument("into", metavar="INTO")
    split = _common(actions.add_parser("split", help="share a tag's papers among tags by their phrases",
                                       description="Each paper tagged OLD takes the NEW tags whose phrases "
                                                   "its title or abstract holds (the NEW tags must be in "
                                                   "the taxonomy); papers matching none take --default."))
    split.add_argument("old", metavar="OLD")
    split.add_argument("new", nargs="+", metavar="NEW")
    split.add_argument("--default", metavar="NEW", help="the tag of papers no NEW tag's phrases match")
    papers = _common(commands.add_parser("merge", help="make two files of one paper one",
                                         description="DROP's file is deleted; KEEP takes its slug as an alias "
                                                     "(so /papers/DROP/ redirects), the links and authors it "
                                                     "lacks, and its tags. " + ONE_STEP))
    papers.add_argument("keep", metavar="KEEP", help="the slug of the paper kept")
    papers.add_argument("drop", metavar="DROP", help="the slug of the paper merged into it")
    _retag_parser(commands)


def _retag_parser(commands) -> None:
    again = _common(commands.add_parser(
        "retag", help="add or remove tags on the papers a query picks",
        description='QUERY: terms such as tag:kv-cache, venue:"ICML 2024" (or venue:icml-2024), '
                    "text:mamba or bare words (whole words in title and abstract, case-blind), "
                    "title_source:derived, slug:samba; all must match; NOT or - before a term excludes "
                    "(--where='-venue:icml-2024' for a query that starts with one), `OR` between groups. "
                    + ONE_STEP))
    again.add_argument("--where", required=True, metavar="QUERY", help="which papers")
    again.add_argument("--add", action="append", default=[], metavar="TAG", help="a tag to add (repeatable)")
    again.add_argument("--remove", action="append", default=[], metavar="TAG", help="a tag to remove (repeatable)")


def _common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--content", type=Path, default=SiteConfig.content_dir, metavar="DIR",
                        help="content folder (default: content/)")
    parser.add_argument("--dry-run", action="store_true", help="print what would change, and write nothing")
    return parser


def run(args: argparse.Namespace, report: Report) -> int:
    """Compute the change, print it, and (unless --dry-run) make it; 1 if anything failed."""
    if args.command == "retag" and not (args.add or args.remove):
        report.error("retag", 0, "nothing to do", "give --add TAG or --remove TAG")
    try:
        transaction = None if report.errors else _transaction(args, report)
    except ContentError as error:
        report.extend(error.diagnostics)
        transaction = None
    if transaction is None or report.errors:
        print("Nothing was changed.", file=sys.stderr)
        return 1
    print("\n".join(transaction.describe() or ["Nothing to change."]))
    if not transaction.changes:
        return 0
    if args.dry_run:
        print(f"Dry run: {_files(transaction)} would change; nothing was written.")
        return 0
    if not transaction.commit(report):
        print("Nothing was changed.", file=sys.stderr)
        return 1
    checked = "content/'s errors are as they were" if report.warnings else "the build's checks pass"
    print(f"Changed {_files(transaction)}; {checked}.")
    return 0


def _transaction(args: argparse.Namespace, report: Report) -> Transaction | None:
    if args.command == "merge":
        return merge_papers(args.content, args.keep, args.drop, report)
    if args.command == "retag":
        return retag(args.content, args.where, args.add, args.remove, report)
    if args.tags_command == "rename":
        return rename_tag(args.content, args.old, args.new, report)
    if args.tags_command == "merge":
        return merge_tags(args.content, args.tags, args.into, report)
    return split_tag(args.content, args.old, args.new, args.default, report)


def _files(transaction: Transaction) -> str:
    count = len(transaction.changes)
    return f"{count} file{'' if count == 1 else 's'}"
