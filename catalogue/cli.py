"""The command line: `python build.py [build|import] ...`."""

from __future__ import annotations

import argparse
import gc
import sys
from dataclasses import replace
from pathlib import Path

from .config import LEDGER_FILE, PROJECT_ROOT, SiteConfig
from .content.site import read_site_settings
from .curate import commands as curate
from .importer import command as import_command
from .output.search import SearchIndexError
from .pipeline import build_site
from .progress import Stages, summary_table
from .report import ContentError, shown_path, terminal_report

OUT_DIR = PROJECT_ROOT / "site"
WATCH_DIR = ".site-watch"
GC_ALLOCATIONS = 200_000  # between the young generation's collections (Python's default: 700)
CACHE_DIR = PROJECT_ROOT / ".cache"  # social images drawn once; Netlify keeps it between deploys

DESCRIPTION = """Build the paper catalogue.

  python build.py                     load content/, render every page into site/, index with Pagefind
  python build.py --watch             serve on 127.0.0.1:8000, rebuild on every edit, reload the browser
  python build.py check [--strict]    validate content/ and print what still needs curating
  python build.py review              list what needs a person's decision, grouped
  python build.py import FILE...      turn paper lists (raw lists, BibTeX, CSV, OpenReview JSON, arXiv
                                      Atom) into content/papers/*.md (never overwrites; --dry-run)
  python build.py tags rename A B     rename (or merge, split) a tag: papers, taxonomy, redirects
  python build.py merge KEEP DROP     make two files of one paper one (DROP's slug becomes an alias)
  python build.py retag --where Q --add TAG   retag the papers a query picks (each: --dry-run)

Every error names file:line and says how to fix it; a failed build leaves site/ as it was."""


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="build.py", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    build = commands.add_parser("build", help="render the site (the default command)")
    _build_options(parser)
    _build_options(build, inherit=True)
    _check_parser(commands)
    _review_parser(commands)
    import_command.add_parser(commands)
    curate.add_parsers(commands)
    return parser


def _check_parser(commands) -> None:
    check = commands.add_parser(
        "check", help="validate content/ and report what still needs curating",
        description="Run every check a build runs (content, the published-URL ledger, templates, "
                    "links), writing nothing, then list titles still derived, papers with fewer "
                    "than 2 tags, tags used once or never, papers without code, near-duplicate "
                    "abstracts and slugs that no longer match their titles, grouped by file (a note "
                    "said of 10 files or more printed once, after them). Exits 1 on errors, or on "
                    "warnings with --strict.")
    check.add_argument("--strict", action="store_true", help="treat warnings as errors (for CI)")
    check.add_argument("--quiet", action="store_true", help="errors and warnings only, no notes")
    check.add_argument("--format", choices=("text", "json", "github"), default="text",
                       help="json: one object with every diagnostic and the review list, on standard "
                            "output; github: GitHub Actions annotations, shown beside the lines")
    for name, help_text in (("--content", "content folder (default: content/)"),
                            ("--templates", "Jinja2 templates (default: templates/)"),
                            ("--static", "static files (default: static/)")):
        check.add_argument(name, type=Path, default=argparse.SUPPRESS, metavar="DIR", help=help_text)


def _review_parser(commands) -> None:
    review = commands.add_parser(
        "review", help="list what needs a person: derived titles, doubtful tags, duplicates, name variants",
        description="Load content/ (drafts too) and list, grouped, the decisions only a curator can "
                    "make, each with the file to edit and how. Watch mode shows the same list at /_review/.")
    review.add_argument("--format", choices=("text", "json"), default="text",
                        help="json: the list as one object, on standard output")
    review.add_argument("--content", type=Path, default=argparse.SUPPRESS, metavar="DIR",
                        help="content folder (default: content/)")


def _build_options(parser: argparse.ArgumentParser, inherit: bool = False) -> None:
    """Options of a build; a subcommand inherits the values given before it (`--out X build`)."""
    def default(value: object) -> object:
        return argparse.SUPPRESS if inherit else value

    parser.add_argument("--out", type=Path, default=default(None), metavar="DIR",
                        help=f"output folder (default: site/, or {WATCH_DIR}/ with --watch)")
    parser.add_argument("--base-url", default=default(None), metavar="URL",
                        help="absolute URL the site is served from (default: Netlify's address "
                             "for this deploy, else `url:` in content/site.yaml)")
    parser.add_argument("--content", type=Path, default=default(SiteConfig.content_dir),
                        metavar="DIR", help="content folder (default: content/)")
    parser.add_argument("--templates", type=Path, default=default(SiteConfig.templates_dir),
                        metavar="DIR", help="Jinja2 templates (default: templates/)")
    parser.add_argument("--static", type=Path, default=default(SiteConfig.static_dir),
                        metavar="DIR", help="files copied to site/static/ (default: static/)")
    parser.add_argument("--no-search", action="store_true", default=default(False),
                        help="a quick build: no Pagefind index and no search page")
    parser.add_argument("--no-images", action="store_true", default=default(False),
                        help="skip the social preview images (they are cached, but the first "
                             "drawing of 10,000 takes minutes)")
    parser.add_argument("--no-index", action="store_true", default=default(False),
                        help="ask search engines not to index the site (deploy previews)")
    parser.add_argument("--fresh", action="store_true", default=default(False),
                        help="build from scratch, ignoring what the last build left in .cache/ "
                             "(the output is the same either way)")
    parser.add_argument("--watch", action="store_true", default=default(False),
                        help="serve the site, rebuild what each edit touches and reload the "
                             "browser; drafts are shown")
    parser.add_argument("--host", default=default("127.0.0.1"),
                        help="address to serve on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=default(8000),
                        help="port to serve on (default: 8000)")


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    report = terminal_report()
    # A build, watch mode or check holds millions of objects that live as long as it does; the
    # collector's default pace walks them again and again (a third of the render at 10,000
    # papers, and pauses of a second in watch mode). Collect less often.
    gc.set_threshold(GC_ALLOCATIONS, 50, 1000)
    try:
        if args.command == "import":
            return import_command.run(args, report)
        # Each command loads its own modules: a build with nothing to do starts in a fraction of
        # a second because it never loads the renderer, the relations or the server.
        if args.command == "review":
            from .check import run_review
            return run_review(getattr(args, "content", SiteConfig.content_dir), args.format)
        if args.command in curate.COMMANDS:
            return curate.run(args, report)
        if args.command == "check":
            from .check import run_check
            config = replace(_config(args, OUT_DIR), social_images=False)
            return run_check(config, args.strict, args.quiet, args.format)
        if args.watch:
            from .serve.watch import serve_and_watch
            return serve_and_watch(_config(args, PROJECT_ROOT / WATCH_DIR), args.host, args.port)
        return _build(args, report)
    except ContentError as error:
        report.extend(d for d in error.diagnostics if d not in report.diagnostics)
        print(f"\n{len(error.diagnostics)} error(s); nothing was written.", file=sys.stderr)
        return 1
    except SearchIndexError as error:
        print(f"Pagefind failed, site/ left as it was:\n{error}", file=sys.stderr)
        return 1


def _config(args: argparse.Namespace, default_out: Path) -> SiteConfig:
    """The settings of this run; `check` has no build options, and takes a build's defaults."""
    def given(name: str, default: object) -> object:
        return getattr(args, name, default)

    content = given("content", SiteConfig.content_dir)
    site = read_site_settings(content)
    return SiteConfig(content_dir=content, out_dir=given("out", None) or default_out,
                      templates_dir=given("templates", SiteConfig.templates_dir),
                      static_dir=given("static", SiteConfig.static_dir),
                      base_url=given("base_url", None) or site.url, title=site.title, tagline=site.description,
                      search=not given("no_search", False), noindex=given("no_index", False) or site.preview,
                      social_images=not given("no_images", False),
                      cache_dir=CACHE_DIR, ledger=content.resolve().parent / LEDGER_FILE)


def _build(args: argparse.Namespace, report) -> int:
    config = _config(args, OUT_DIR)
    result = build_site(config, report, Stages(sys.stderr), cached=not args.fresh)
    warnings = f", {len(report.warnings)} warning(s)" if report.warnings else ""
    print(f"Built {result.pages} pages ({result.papers} papers; {result.files} files with feeds, "
          f"citations and images) into {shown_path(config.out_dir)}/ in {result.seconds:.1f} s{warnings}.\n")
    print(summary_table({"pages": result.pages, "papers": result.papers, "redirects": result.redirects,
                         "other files": result.files - result.pages,
                         "rendered now": result.rendered}, result.stages or {}, result.seconds), end="")
    return 0
