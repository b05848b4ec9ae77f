#!/usr/bin/env python3
"""Write docs/reference.md from the code's own definitions: the content folder's layout
(`config.CONTENT_LAYOUT`), every key of every file curators write (the `KeyTable`s the checks
read) and every command's `--help` (the parser `build.py` runs).

    .venv/bin/python scripts/reference.py          # rewrite docs/reference.md
    .venv/bin/python scripts/reference.py --check  # exit 1 if it is out of date (the tests do this)
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catalogue.cli import make_parser  # noqa: E402
from catalogue.config import CONTENT_LAYOUT  # noqa: E402
from catalogue.content.handwritten import GUIDE_KEYS  # noqa: E402
from catalogue.content.keys import KINDS, KeyTable  # noqa: E402
from catalogue.content.model import PAPER_KEYS  # noqa: E402
from catalogue.content.people import AUTHOR_KEYS  # noqa: E402
from catalogue.content.site import SITE_KEYS  # noqa: E402
from catalogue.content.taxonomy import TAG_KEYS, THEME_KEYS  # noqa: E402
from catalogue.content.venues import VENUE_KEYS  # noqa: E402

REFERENCE = ROOT / "docs" / "reference.md"
TABLES = (PAPER_KEYS, TAG_KEYS, THEME_KEYS, VENUE_KEYS, SITE_KEYS, AUTHOR_KEYS, GUIDE_KEYS)
HELP_WIDTH = 100  # argparse wraps help to the terminal: the same width wherever this runs
HELP_PYTHON = (3, 11)  # the Python CI runs: argparse lays out help a little differently in others

INTRO = """# Reference

Every file a curator writes, every key it may hold, and every command. This page is written
by `scripts/reference.py` from the definitions the checks themselves read, so it is never out
of date: do not edit it by hand; change the definition in the code and run
`.venv/bin/python scripts/reference.py` (a test fails while the two differ). The guides say
how to use them: [writing pages](writing.md), [adding papers](adding-papers.md),
[the command line](cli.md)."""


def reference() -> str:
    parts = [INTRO, _layout(), *(_table(table) for table in TABLES), _commands()]
    return "\n\n".join(parts) + "\n"


def _layout() -> str:
    rows = "\n".join(f"| `{place}` | {_cell(what)} |" for place, what in CONTENT_LAYOUT)
    return f"## The content folder\n\n| in `content/` | what it holds |\n|---|---|\n{rows}"


def _table(table: KeyTable) -> str:
    rows = "\n".join(f"| `{key.name}` | {KINDS[key.kind]} | {'yes' if key.required else ''} | {_cell(key.doc)} |"
                     for key in table.keys)
    return (f"## {table.name}\n\n`{table.where}`: {table.doc}\n\n"
            f"| key | kind | required | meaning |\n|---|---|---|---|\n{rows}")


def _commands() -> str:
    sections = ["## Commands\n\nEach command's `--help`, as `python build.py … --help` prints it."]
    for name, parser in _parsers(make_parser(), "build.py"):
        parser.formatter_class = functools.partial(parser.formatter_class, width=HELP_WIDTH)
        sections.append(f"### `{name}`\n\n```text\n{parser.format_help().rstrip()}\n```")
    return "\n\n".join(sections)


def _parsers(parser: argparse.ArgumentParser, name: str):
    """The parser and each of its subcommands' (and theirs), depth first."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, child in action.choices.items():
                yield from _parsers(child, f"{name} {command}")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether docs/reference.md is current")
    args = parser.parse_args()
    text = reference()
    if args.check:
        current = REFERENCE.is_file() and REFERENCE.read_text(encoding="utf-8") == text
        print("docs/reference.md is current" if current else
              "docs/reference.md is out of date: run .venv/bin/python scripts/reference.py")
        return 0 if current else 1
    REFERENCE.write_text(text, encoding="utf-8")
    print(f"wrote {REFERENCE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
