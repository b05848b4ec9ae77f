"""YAML parsing that remembers the line of every value, so errors can name it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from ..files import read_text
from ..report import ContentError, Diagnostic, Report
from ..text import character_name
from .keys import kinds_in_words, looks_like_date

KeyPath = tuple[Any, ...]
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ten times faster
# `key: "text` or `key: 'text` with no closing quote on its line (our fields are one line each)
_UNCLOSED_QUOTE = re.compile(r"""^\s*(?:- |[\w-]+:\s+)(?:(?P<quote>")(?:[^"\\]|\\.)*|(?P<single>')(?:[^']|'')*)$""")


def read_lists(path: Path, keys: tuple[str, ...], what: str, how: str,
               report: Report) -> tuple[dict[str, list], dict[KeyPath, int]] | None:
    """A YAML file of top-level lists (`tags:` and `themes:`), with the line of every value;
    None, with the problem reported, if it is missing, invalid or shaped otherwise."""
    if not path.is_file():
        report.error(path, 0, f"the {what} file is missing", f"create it with {_listed(keys)} ({how})")
        return None
    try:
        data, lines = parse(read_text(path), path)
    except ContentError as error:
        report.extend(error.diagnostics)
        return None
    if not isinstance(data, dict) or set(data) != set(keys) or not all(isinstance(data[k], list) for k in keys):
        report.error(path, 1, f"expected {_listed(keys)} and nothing else", how)
        return None
    return data, lines


def _listed(keys: tuple[str, ...]) -> str:
    names = [f"`{key}:`" for key in keys]
    return " and ".join(names) + (" lists" if len(names) > 1 else " list")


def parse(text: str, path: Path | str, first_line: int = 1) -> tuple[Any, dict[KeyPath, int]]:
    """Parse YAML text; return the data and a map from key paths to 1-based file lines."""
    loader = _LOADER(text)
    try:
        try:
            node = loader.get_single_node()
        except yaml.MarkedYAMLError as error:
            raise ContentError([_syntax_error(error, text, path, first_line)]) from None
        except yaml.reader.ReaderError as error:  # a character YAML refuses, before any token
            raise ContentError([_refused_character(error, text, path, first_line)]) from None
        try:
            data = loader.construct_document(node) if node is not None else None
        except _CANNOT_MAKE as error:  # well-formed, but a value cannot be made: 2026-13-45, `!!int 1.5`
            raise ContentError([_value_error(error, node, text, path, first_line)]) from None
    finally:
        loader.dispose()
    lines: dict[KeyPath, int] = {}
    if node is not None:
        _record_lines(node, (), path, first_line, lines)
    return data, lines


def _syntax_error(error: yaml.MarkedYAMLError, text: str, path: Path | str, first_line: int) -> Diagnostic:
    """At the line where the problem starts: an unclosed bracket or quote where it opened,
    even when YAML only notices lines later (a quote closed by the next quoted value)."""
    mark = error.problem_mark or error.context_mark
    if error.context_mark and re.search(r"flow|quoted", error.context or ""):
        mark = error.context_mark
    line = mark.line if mark else 0
    unclosed = _unclosed_quote(text, line)
    if unclosed is not None:
        return Diagnostic(path, first_line + unclosed, "invalid YAML: this quote is never closed",
                          "close the quote at the end of the value, or remove it")
    return Diagnostic(path, first_line + line, f"invalid YAML: {error.problem or error}",
                      "check the indentation, colons and quotes on this line")


def _refused_character(error: yaml.reader.ReaderError, text: str, path: Path | str, first_line: int) -> Diagnostic:
    """At the character's line: found again in the text, as libyaml counts its position in bytes."""
    found = yaml.reader.Reader.NON_PRINTABLE.search(text)
    char, at = (found.group(), found.start()) if found else (chr(error.character), 0)
    return Diagnostic(path, first_line + text.count("\n", 0, at),
                      f"{character_name(char)} cannot be written in YAML ({error.reason})",
                      "delete it: it shows as nothing, or as a box, in most editors")


def _unclosed_quote(text: str, error_line: int) -> int | None:
    """The line, up to the error's, whose quote, closed, makes the YAML valid; None if there is none."""
    lines = text.split("\n")
    for number, line in enumerate(lines[:error_line + 1]):
        match = _UNCLOSED_QUOTE.match(line)
        quote = match and (match.group("quote") or match.group("single"))
        if quote and _parses("\n".join([*lines[:number], line + quote, *lines[number + 1:]])):
            return number
    return None


def _parses(text: str) -> bool:
    loader = _LOADER(text)
    try:
        loader.get_single_node()
        return True
    except yaml.YAMLError:
        return False
    finally:
        loader.dispose()


def _value_error(error: Exception, node: yaml.Node, text: str, path: Path | str, first_line: int) -> Diagnostic:
    """At the innermost value that cannot be made, saying why and what to write instead."""
    culprit, cause = next(((n, c) for n in _nodes(node) if (c := _making_fails(n)) is not None), (node, error))
    mark = getattr(cause, "problem_mark", None) or culprit.start_mark
    line = first_line + mark.line
    reason = getattr(cause, "problem", None) or (cause if isinstance(cause, ValueError) else None)
    if culprit.tag.endswith(":timestamp") and looks_like_date(str(culprit.value)):
        return Diagnostic(path, line, f"`{culprit.value}` is not a real date" + (f" ({reason})" if reason else ""),
                          "write the date as YYYY-MM-DD, like 2024-07-21")
    if not _tagged(culprit, text):  # YAML's own reading failed: `<<: 3`, `{[a, b]: c}`
        return Diagnostic(path, line, f"YAML cannot make this value ({reason})",
                          f"write plain `key: value` lines, each value {kinds_in_words()}")
    tag = "!!" + culprit.tag.removeprefix(_STANDARD) if culprit.tag.startswith(_STANDARD) else culprit.tag
    fix = f"remove `{tag}` and write the value as {kinds_in_words()}"
    if "could not determine a constructor" in str(cause):
        return Diagnostic(path, line, f"`{tag}` is a YAML tag this site does not read", fix)
    shown = f"`{culprit.value}`" if isinstance(culprit, yaml.ScalarNode) else "this value"
    return Diagnostic(path, line, f"{shown} cannot be read as `{tag}`" + (f" ({reason})" if reason else ""), fix)


_STANDARD = "tag:yaml.org,2002:"
# What PyYAML's constructors raise for a value they cannot make (`!!bool maybe` is a KeyError, `!!timestamp x`
# an AttributeError); composing has already succeeded, so none of these is a fault of ours.
_CANNOT_MAKE = (yaml.YAMLError, ValueError, LookupError, AttributeError, TypeError)


def _nodes(node: yaml.Node, met: set[int] | None = None):
    """Every node below and including this one, innermost first, in the order of the text; each
    once, however many aliases lead to it."""
    met = set() if met is None else met
    if id(node) in met:
        return
    met.add(id(node))
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _nodes(item, met)
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _nodes(key, met)
            yield from _nodes(value, met)
    yield node


def _making_fails(node: yaml.Node) -> Exception | None:
    try:
        yaml.SafeLoader("").construct_object(node, deep=True)
    except _CANNOT_MAKE as error:
        return error
    return None


def _tagged(node: yaml.Node, text: str) -> bool:
    """Whether the value was written with an explicit tag (`!!int 3`), not read as its kind."""
    return text.startswith("!", node.start_mark.index)


def _record_lines(node: yaml.Node, key_path: KeyPath, path: Path | str, first_line: int,
                  lines: dict[KeyPath, int], within: frozenset[int] = frozenset(),
                  seen: set[int] | None = None) -> None:
    """The line of every key path, each value's lines recorded once: what an `*alias` repeats
    is not walked again (its lines are the alias's), so nested aliases cannot multiply the walk."""
    seen = set() if seen is None else seen
    lines[key_path] = first_line + node.start_mark.line
    if id(node) in within:  # `&x [*x]`: a value inside itself, without end
        raise ContentError([Diagnostic(path, lines[key_path], "this value contains itself (an `*alias` inside "
                                       "its own `&anchor`)", "write the value out in full instead of the alias")])
    if id(node) in seen:
        return
    seen.add(id(node))
    within |= {id(node)}
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = key_path + (_key(key_node),)
            if child in lines:
                raise ContentError([Diagnostic(
                    path, first_line + key_node.start_mark.line,
                    f"`{key_node.value}` appears twice (first on line {lines[child]})",
                    "keep one of the two")])
            _record_lines(value_node, child, path, first_line, lines, within, seen)
            lines[child] = first_line + key_node.start_mark.line
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _record_lines(item, key_path + (index,), path, first_line, lines, within, seen)


def _key(node: yaml.Node) -> Any:
    """A mapping key as the data has it (`2024:` is the number 2024, `yes:` is true), so that its
    line is found by the key the checks name."""
    if node.tag.endswith(":str") or not isinstance(node, yaml.ScalarNode):
        return node.value
    return yaml.SafeLoader("").construct_object(node)


def line_of(lines: dict[KeyPath, int], key_path: KeyPath) -> int:
    """The line of a key path, or of its nearest recorded ancestor."""
    while key_path not in lines and key_path:
        key_path = key_path[:-1]
    return lines.get(key_path, 0)
