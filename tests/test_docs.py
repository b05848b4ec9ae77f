"""The documentation kept true: the reference is what the code defines, every link leads
somewhere, every `build.py` command the pages show is one the command line accepts, as written,
and one a test runs, and every option it accepts is shown somewhere."""

from __future__ import annotations

import argparse
import ast
import re
import shlex
import sys
from pathlib import Path

import pytest

from catalogue.cli import make_parser
from catalogue.config import PROJECT_ROOT

sys.path.insert(0, str(PROJECT_ROOT / "scripts"))
import reference  # noqa: E402

PAGES = sorted([PROJECT_ROOT / "README.md", PROJECT_ROOT / "CHANGELOG.md", *(PROJECT_ROOT / "docs").glob("*.md")])
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
COMMAND = re.compile(r"build\.py(?![\w.])((?:[ \t]+(?:'[^']*'|\"[^\"]*\"|[^\s`'\"|#]+))*)")
# A usage line, not a command: optional parts (`[--strict]`), repeats (`FILE...`), placeholders (`OLD NEW`).
PLACEHOLDERS = {"FILE", "OLD", "NEW", "QUERY", "TAG", "DIR", "URL", "SHA", "KEEP", "DROP", "INTO", "A", "B", "Q",
                "VENUE", "ARGS", "HOST", "PORT", "COMMAND", "ACTION"}


def test_the_reference_is_what_the_code_defines():
    written, expected = (PROJECT_ROOT / "docs" / "reference.md").read_text(encoding="utf-8"), reference.reference()
    if sys.version_info[:2] != reference.HELP_PYTHON:  # the commands' help is laid out as that Python does
        written, expected = (text.split("\n## Commands")[0] for text in (written, expected))
    assert written == expected, "docs/reference.md is out of date: run .venv/bin/python scripts/reference.py"


def test_a_key_cannot_be_defined_without_saying_what_it_means():
    from catalogue.content.keys import Key
    with pytest.raises(ValueError, match="has no description"):
        Key("colour", str, " ")
    documented = reference.reference()
    for table in reference.TABLES:
        for key in table.keys:
            assert f"| `{key.name}` |" in documented and key.doc in documented


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for a page's headings (outside code blocks)."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in re.findall(r"^#{1,6} (.+)$", text, re.M)}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(PROJECT_ROOT).as_posix())
def test_every_link_leads_to_a_file_and_heading_that_exist(page):
    broken = []
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # an address elsewhere
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in anchors(linked)):
            broken.append(target)
    assert broken == []


def shown_commands() -> list[tuple[str, str]]:
    """Every `build.py …` command the pages show whole (not a usage line with placeholders):
    (page, the arguments after build.py)."""
    found = []
    for page in PAGES:
        if page.name == "reference.md":
            continue  # the parsers' own help
        for match in COMMAND.finditer(page.read_text(encoding="utf-8")):
            arguments = match.group(1).strip()
            unquoted = re.sub(r"'[^']*'|\"[^\"]*\"", "", arguments)
            if not re.search(r"\[|\.\.\.|…", unquoted) and not PLACEHOLDERS & set(unquoted.split()):
                found.append((page.relative_to(PROJECT_ROOT).as_posix(), arguments))
    return found


def test_every_command_shown_is_one_the_command_line_accepts():
    shown = shown_commands()
    assert len(shown) > 20  # the pages were read
    parser = make_parser()
    refused = []
    for page, arguments in shown:
        words = shlex.split(arguments)
        try:
            parser.parse_args([word for word in words if word not in ("-h", "--help")])
        except SystemExit:
            refused.append(f"{page}: build.py {arguments}")
    assert refused == []


def test_every_option_and_command_is_shown_somewhere():
    text = "\n".join(page.read_text(encoding="utf-8") for page in PAGES if page.name != "reference.md")
    missing = []
    for name, parser in reference._parsers(make_parser(), "build.py"):
        command = name.removeprefix("build.py").strip()
        if command and command != "build" and command not in text:
            missing.append(command)
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            missing += [f"{name} {option}" for option in action.option_strings if option not in text]
    assert missing == []


def runs_in_tests() -> list[set[str]]:
    """The words of each function of the other test files, and of each constant they define at
    their top (`ARGUMENTS = ("--content", …)`): their strings, docstrings left out, each also split
    at spaces, as a shell command is (`python build.py check --strict`)."""
    runs = []
    for path in sorted((PROJECT_ROOT / "tests").glob("*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in [*ast.walk(tree), *(n for n in tree.body if isinstance(n, ast.Assign))]:
            if isinstance(node, (ast.FunctionDef, ast.Assign)):
                first = node.body[0] if isinstance(node, ast.FunctionDef) else None
                docstring = first.value if isinstance(first, ast.Expr) else None
                texts = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                         and n is not docstring]
                runs.append(set(texts) | {word for text in texts for word in text.split()})
    return runs


def test_every_command_shown_is_run_by_a_test():
    """Each command the pages show is run by some test: one test (or the helper it calls) names
    its command words and every option it shows."""
    runs = runs_in_tests()
    unrun = []
    for page, arguments in shown_commands():
        words = shlex.split(arguments)
        wanted = {w for w in words if w.startswith("--") and w != "--help"} | set(words[:2] if words and
                                                                              not words[0].startswith("-") else ())
        wanted = {w for w in wanted if not w.endswith((".bib", ".csv", ".json", ".ris", ".txt"))}
        if wanted and not any(wanted <= run for run in runs):
            unrun.append(f"{page}: build.py {arguments}")
    assert unrun == []
