"""YAML parsing that remembers the line of every value, so errors can name it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from .report import ContentError, Diagnostic

KeyPath = tuple[Any, ...]
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: ten times faster


def parse(text: str, path: Path | str, first_line: int = 1) -> tuple[Any, dict[KeyPath, int]]:
    """Parse YAML text; return the data and a map from key paths to 1-based file lines."""
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        if error.context_mark and re.search(r"flow|quoted", error.context or ""):
            mark = error.context_mark  # an unclosed bracket or quote: point at where it opened
        line = first_line + (mark.line if mark else 0)
        problem = error.problem or str(error)
        raise ContentError([Diagnostic(path, line, f"invalid YAML: {problem}",
                                       "check the indentation, colons and quotes on this line")])
    finally:
        loader.dispose()
    lines: dict[KeyPath, int] = {}
    if node is not None:
        _record_lines(node, (), path, first_line, lines)
    return data, lines


def _record_lines(node: yaml.Node, key_path: KeyPath, path: Path | str, first_line: int,
                  lines: dict[KeyPath, int]) -> None:
    lines[key_path] = first_line + node.start_mark.line
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = key_path + (key_node.value,)
            if child in lines:
                raise ContentError([Diagnostic(
                    path, first_line + key_node.start_mark.line,
                    f"`{key_node.value}` appears twice (first on line {lines[child]})",
                    "keep one of the two")])
            _record_lines(value_node, child, path, first_line, lines)
            lines[child] = first_line + key_node.start_mark.line
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _record_lines(item, key_path + (index,), path, first_line, lines)


def line_of(lines: dict[KeyPath, int], key_path: KeyPath) -> int:
    """The line of a key path, or of its nearest recorded ancestor."""
    while key_path not in lines and key_path:
        key_path = key_path[:-1]
    return lines.get(key_path, 0)
