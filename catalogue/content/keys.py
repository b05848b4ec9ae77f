"""The keys of the files curators write: one definition each, which the checks read (which keys
exist, which are required, of what kind) and the reference is written from
(`scripts/reference.py` → docs/reference.md), so a key cannot be added without its words."""

from __future__ import annotations

import datetime
import re
import reprlib
from dataclasses import dataclass

# Each kind's name, as the reference lists it and errors say what a value must be.
KINDS = {str: "text", int: "a whole number", bool: "true or false", list: "a list like [a, b]",
         datetime.date: "a date like 2024-07-21"}


def looks_like_date(text: str) -> bool:
    """Whether text is written as a date (`2026-12-03`, `2026-2-30`), real or not."""
    return _DATE_LIKE.fullmatch(text.strip()) is not None


_DATE_LIKE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")


def of_kind(value: object, kind: type) -> bool:
    """Whether a YAML value is of the kind a key takes (YAML's `true` is no number, nor text)."""
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def described(value: object) -> str:
    """A YAML value as an error names what was written: `empty`, `the date 2024-07-21`."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, datetime.date):
        return f"the date {value.isoformat()}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    return f"a {'list' if isinstance(value, list) else 'mapping' if isinstance(value, dict) else 'value'} {shown(value)}"


def shown(value: object) -> str:
    """A value as a message shows it (`repr`), cut short: a list of aliases of aliases may be
    billions of items long."""
    return _SHORT.repr(value)


def _short_repr() -> reprlib.Repr:
    short = reprlib.Repr()
    short.maxlevel, short.maxlist, short.maxdict, short.maxstring, short.maxother = 2, 5, 5, 60, 60
    return short


_SHORT = _short_repr()


def kind_error(key: str, kind: type, value: object) -> tuple[str, str]:
    """The message and fix for a value not of the kind its key takes: `label` must be text, not
    the number 2024 — write `label:` as text (put it in quotes)."""
    message = f"`{key}` must be {KINDS[kind]}, not {described(value)}"
    if kind is datetime.date and isinstance(value, str) and looks_like_date(value):
        return message, f"remove the quotes: `{key}: {value.strip()}` (quoted, YAML reads it as text)"
    return message, f"write `{key}:` as {KINDS[kind]}" + (" (put it in quotes)" if kind is str else "")


def kinds_in_words() -> str:
    """Every kind a key may take, as a hint lists them."""
    *others, last = KINDS.values()
    return f"{', '.join(others)}, or {last}"


@dataclass(frozen=True)
class Key:
    """One key: its name, the YAML kind it takes, whether it must be given, and what it means."""

    name: str
    kind: type
    doc: str
    required: bool = False

    def __post_init__(self) -> None:
        if not self.doc.strip():
            raise ValueError(f"key `{self.name}` has no description: say what it means")
        if self.kind not in KINDS:
            raise ValueError(f"key `{self.name}`: {self.kind!r} is not a kind the reference can name")


@dataclass(frozen=True)
class KeyTable:
    """The keys of one file, or of one kind of entry in a file (a tag in the vocabulary)."""

    name: str  # what the reference calls it: `Venues`
    where: str  # the file: `content/venues.yaml`
    doc: str
    keys: tuple[Key, ...]

    @property
    def kinds(self) -> dict[str, type]:
        return {key.name: key.kind for key in self.keys}

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(key.name for key in self.keys if key.required)
