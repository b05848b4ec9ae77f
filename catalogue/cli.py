"""The command line: `python build.py [build|import] ...`."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from .builder import build_site
from .config import DEFAULT_BASE_URL, SiteConfig
from .importer import import_lists
from .report import ContentError, terminal_report
from .search import SearchIndexError

DESCRIPTION = """Build the paper catalogue.

  python build.py                     load content/, render every page into site/, index with Pagefind
  python build.py import LIST...      turn raw paper lists into content/papers/*.md (never overwrites)

Every error names file:line and says how to fix it; a failed build leaves site/ as it was."""


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="build.py", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    build = commands.add_parser("build", help="render the site (the default command)")
    _build_options(build)
    _build_options(parser)
    imports = commands.add_parser(
        "import", help="add papers from raw lists to content/papers/",
        description="Turn raw paper lists (a venue header, then one abstract a paragraph) into "
                    "content/papers/<slug>.md. Papers already in content/ (recognised by their "
                    "abstract) are skipped, so curated edits survive and re-imports change nothing.")
    imports.add_argument("lists", nargs="+", type=Path, metavar="LIST", help="raw paper list files")
    imports.add_argument("--metadata", type=Path, metavar="FILE",
                         help="TSV of known titles, authors and arXiv ids, matched by opening text")
    imports.add_argument("--content", type=Path, default=SiteConfig.content_dir, metavar="DIR",
                         help="content folder (default: content/)")
    return parser


def _build_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=SiteConfig.out_dir, metavar="DIR",
                        help="output folder (default: site/)")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL, metavar="URL",
                        help=f"absolute URL the site is served from (default: {DEFAULT_BASE_URL})")
    parser.add_argument("--content", type=Path, default=SiteConfig.content_dir, metavar="DIR",
                        help="content folder (default: content/)")
    parser.add_argument("--no-search", action="store_true", help="skip the Pagefind index")


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    report = terminal_report()
    try:
        if args.command == "import":
            import_lists(args.lists, args.content, args.metadata, report)
            return 1 if report.errors else 0
        return _build(args, report)
    except ContentError as error:
        print(f"\n{len(error.diagnostics)} error(s); nothing was written.", file=sys.stderr)
        return 1
    except SearchIndexError as error:
        print(f"Pagefind failed, site/ left as it was:\n{error}", file=sys.stderr)
        return 1


def _build(args: argparse.Namespace, report) -> int:
    config = replace(SiteConfig(), content_dir=args.content, out_dir=args.out,
                     base_url=args.base_url, search=not args.no_search)
    result = build_site(config, report)
    warnings = f", {len(report.warnings)} warning(s)" if report.warnings else ""
    print(f"Built {result.pages} pages ({result.papers} papers) into {_shown(args.out)} "
          f"in {result.seconds:.1f} s{warnings}.")
    return 0


def _shown(path: Path) -> str:
    """A path as short as it can be said from here."""
    try:
        return f"{path.resolve().relative_to(Path.cwd())}/"
    except ValueError:
        return str(path)
