"""The subset of CBOR (RFC 8949) that Pagefind's index files use: integers, byte and text
strings, arrays, maps, booleans and null, all of definite length.

`encode` writes the shortest form, as Pagefind's encoder does, so `encode(decode(b)) == b`
holds for the files Pagefind writes; callers check that before they trust a rewrite.
"""

from __future__ import annotations

import struct
from typing import Any

_SIMPLE = {20: False, 21: True, 22: None}


class CBORError(ValueError):
    """Bytes outside the subset this module reads."""


def decode(data: bytes) -> Any:
    value, end = _item(data, 0)
    if end != len(data):
        raise CBORError(f"{len(data) - end} bytes after the value")
    return value


def _item(data: bytes, at: int) -> tuple[Any, int]:
    if at >= len(data):
        raise CBORError("the data ends inside a value")
    major, info = data[at] >> 5, data[at] & 31
    if major == 7:
        if info not in _SIMPLE:
            raise CBORError(f"unsupported simple value {info}")
        return _SIMPLE[info], at + 1
    argument, at = _argument(data, at + 1, info)
    if major == 0:
        return argument, at
    if major == 1:
        return -1 - argument, at
    if major in (2, 3):
        raw = data[at:at + argument]
        if len(raw) != argument:
            raise CBORError("the data ends inside a string")
        return (bytes(raw) if major == 2 else raw.decode("utf-8")), at + argument
    if major == 4:
        items = []
        for _ in range(argument):
            item, at = _item(data, at)
            items.append(item)
        return items, at
    if major == 5:
        pairs = {}
        for _ in range(argument):
            key, at = _item(data, at)
            pairs[key], at = _item(data, at)
        return pairs, at
    raise CBORError(f"unsupported major type {major}")


def _argument(data: bytes, at: int, info: int) -> tuple[int, int]:
    if info < 24:
        return info, at
    if info > 27:
        raise CBORError("indefinite lengths are not supported")
    size = 1 << (info - 24)
    if at + size > len(data):
        raise CBORError("the data ends inside a number")
    return int.from_bytes(data[at:at + size], "big"), at + size


def encode(value: Any) -> bytes:
    out = bytearray()
    _write(value, out)
    return bytes(out)


def _write(value: Any, out: bytearray) -> None:
    if value is None or isinstance(value, bool):
        out.append(0xE0 | next(k for k, v in _SIMPLE.items() if v is value))
    elif isinstance(value, int) and value >= 0:
        _head(0, value, out)
    elif isinstance(value, int):
        _head(1, -1 - value, out)
    elif isinstance(value, bytes):
        _head(2, len(value), out)
        out += value
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        _head(3, len(raw), out)
        out += raw
    elif isinstance(value, list):
        _head(4, len(value), out)
        for item in value:
            _write(item, out)
    elif isinstance(value, dict):
        _head(5, len(value), out)
        for key, item in value.items():
            _write(key, out)
            _write(item, out)
    else:
        raise CBORError(f"cannot encode {type(value).__name__}")


def _head(major: int, argument: int, out: bytearray) -> None:
    if argument < 24:
        out.append(major << 5 | argument)
        return
    for info, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if argument < 1 << (8 * struct.calcsize(fmt)):
            out.append(major << 5 | info)
            out += struct.pack(fmt, argument)
            return
    raise CBORError(f"integer {argument} is too large")
