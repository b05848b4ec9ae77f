"""Clean an abstract from a PDF-extracted list into tidy Markdown, keeping `$…$` math."""

from __future__ import annotations

import re

from ..text import MATH, MATH_PATTERN, URL_PATTERN, outside

_SEGMENTS = re.compile(rf"""
    (?P<math>{MATH_PATTERN})
  | (?P<link>!?\[[^\]]*\]\([^)\s]+\))
  | (?P<autolink><https?://[^>\s]+>)
  | (?P<code>`[^`]+`)
  | (?P<url>{URL_PATTERN})
""", re.VERBOSE)
_COMMAND = re.compile(r"\\(textbf|textit|emph|texttt|underline|url|textsc|textrm|textsf|text)\s*\{")
_SPLIT_WORD = re.compile(r"(?<![\w-])(\w[\w-]*)- (\w+)")
_CONNECTIVES = {"and", "or", "nor", "to", "vs", "versus", "as", "than"}
_ESCAPES = {r"\%": "%", r"\&": "&", r"\#": "#", r"\{": "{", r"\}": "}", r"\_": r"\_"}


def clean_abstract(text: str) -> str:
    """Turn LaTeX text commands into Markdown, rejoin split words, keep math and links."""
    text = _convert_commands(MATH.sub(_unwrap_text_math, text))
    return outside(_SEGMENTS, text, _tidy_prose, _tidy_segment).strip()


def _convert_commands(text: str) -> str:
    """`\\textbf{x}` → `**x**` and the like, outside math; unbalanced ones stay as they are."""
    start = 0
    while match := _next_command(text, start):
        end = _closing_brace(text, match.end())
        if end < 0:
            start = match.end()
            continue
        inner = text[match.end():end]
        text = text[:match.start()] + _markdown_for(match.group(1), inner) + text[end + 1:]
        start = match.start()
    return text


def _next_command(text: str, start: int) -> re.Match[str] | None:
    math = [m.span() for m in MATH.finditer(text)]
    for match in _COMMAND.finditer(text, start):
        if not any(a <= match.start() < b for a, b in math):
            return match
    return None


def _closing_brace(text: str, start: int) -> int:
    """Index of the brace closing the group opened just before `start`, skipping math."""
    depth, index = 1, start
    while index < len(text):
        math = MATH.match(text, index)
        if math:
            index = math.end()
            continue
        if text[index] in "{}" and text[index - 1] != "\\":
            depth += 1 if text[index] == "{" else -1
            if depth == 0:
                return index
        index += 1
    return -1


def _markdown_for(command: str, inner: str) -> str:
    if command == "url":
        return f"<{inner.strip()}>"
    if command == "texttt":
        return f"`{inner}`"
    inner = _convert_commands(inner)
    marker = {"textbf": "**", "textit": "*", "emph": "*", "underline": "*"}.get(command, "")
    if not marker or not inner.strip():
        return inner
    lead, core, trail = re.match(r"(\s*)(.*?)(\s*)$", inner, re.DOTALL).groups()
    return f"{lead}{marker}{core}{marker}{trail}"


def _unwrap_text_math(match: re.Match[str]) -> str:
    """`$\\textbf{words}$` is prose in disguise: take it out of math."""
    body = match.group(0).strip("$").strip()
    command = _COMMAND.match(body)
    if command and _closing_brace(body, command.end()) == len(body) - 1:
        return body
    return match.group(0)


def _tidy_prose(text: str) -> str:
    text = _SPLIT_WORD.sub(_join_split_word, text)
    for escaped, plain in _ESCAPES.items():
        text = text.replace(escaped, "\0" + str(ord(plain[-1])) + "\0")
    text = re.sub(r"(?<![\\a-zA-Z])\{|(?<!\\)\}", "", text)  # TeX grouping; `\cmd{` stays
    text = text.replace("---", "—").replace("--", "–")
    text = re.sub(r"(?<=\S)~(?=\S)", " ", text)
    text = re.sub(r"\0(\d+)\0", lambda m: _ESCAPES_BY_ORD[int(m.group(1))], text)
    return re.sub(r"[ \t]{2,}", " ", text)


_ESCAPES_BY_ORD = {ord(plain[-1]): plain for plain in _ESCAPES.values()}


def _join_split_word(match: re.Match[str]) -> str:
    """`un- derstanding` → `understanding`; `Llama3- 70B` → `Llama3-70B`; `short- and` stays."""
    left, right = match.group(1), match.group(2)
    if right.lower() in _CONNECTIVES:
        return match.group(0)
    if "-" not in left and left[-1].islower() and right[0].islower():
        return left + right
    return f"{left}-{right}"


def leftover_latex(text: str) -> list[str]:
    """LaTeX commands outside math that cleaning could not convert (malformed input)."""
    prose = MATH.sub(" ", text)
    return re.findall(r"\\[a-zA-Z]+", prose)


def _tidy_segment(match: re.Match[str]) -> str:
    if match.lastgroup == "url":
        return f"<{match.group(0)}>"
    return match.group(0)
