"""JSON that arrives from outside (MQTT payloads, serial lines, device state reports): strict
parsing whose only failure is ValueError.

``json.loads`` accepts ``NaN`` and ``Infinity``, which would then be echoed into replies that no
standard JSON parser (Home Assistant, Node-RED, a browser) can read, and it raises
RecursionError, not ValueError, on deeply nested input, which would slip past every
``except ValueError`` that guards a transport.
"""

from __future__ import annotations

import json
import re
from typing import Any


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def loads(data: str | bytes | bytearray) -> Any:
    """Parse one JSON document; ValueError (with the reason) for anything that is not JSON."""
    try:
        return json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None


_WS = re.compile(rb"[ \t\r\n]*")
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_SCALAR = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null")
_STRUCT = re.compile(rb'[][{}"]')


def leading_id(data: bytes, limit: int = 65536) -> str | int | None:
    """The top-level ``"id"`` of a JSON object too long to parse, read from its first ``limit``
    bytes; None when it is not there (or not a string or integer).

    An over-long command is refused unread, but its reply should still carry the id the client
    waits on. Only the top level counts: an ``"id"`` inside the text or a nested object is
    skipped over, as a parser would.
    """
    buf = bytes(data[:limit])
    pos = _WS.match(buf, 0).end()  # type: ignore[union-attr]
    if buf[pos : pos + 1] != b"{":
        return None
    pos += 1
    while True:
        pos = _WS.match(buf, pos).end()  # type: ignore[union-attr]
        m = _STRING.match(buf, pos)
        if m is None:
            return None
        key = m.group()
        pos = _WS.match(buf, m.end()).end()  # type: ignore[union-attr]
        if buf[pos : pos + 1] != b":":
            return None
        pos = _WS.match(buf, pos + 1).end()  # type: ignore[union-attr]
        end = _skip_value(buf, pos)
        if end is None:
            return None
        if key == b'"id"':
            try:
                value = loads(buf[pos:end])
            except ValueError:
                return None
            if isinstance(value, str):
                # a lone surrogate ("\ud800") cannot be written back in a UTF-8 reply
                return value if _utf8_ok(value) else None
            return value if isinstance(value, int) and not isinstance(value, bool) else None
        pos = _WS.match(buf, end).end()  # type: ignore[union-attr]
        if buf[pos : pos + 1] != b",":
            return None
        pos += 1


def _utf8_ok(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _skip_value(buf: bytes, pos: int) -> int | None:
    """End offset of the JSON value at ``pos``; None if it runs past the buffer."""
    if buf[pos : pos + 1] == b'"':
        m = _STRING.match(buf, pos)
        return m.end() if m else None
    if buf[pos : pos + 1] in (b"{", b"["):
        depth = 0
        while True:
            m = _STRUCT.search(buf, pos)
            if m is None:
                return None
            c = m.group()
            if c == b'"':
                s = _STRING.match(buf, m.start())
                if s is None:
                    return None
                pos = s.end()
                continue
            depth += 1 if c in (b"{", b"[") else -1
            pos = m.end()
            if depth == 0:
                return pos
    m = _SCALAR.match(buf, pos)
    return m.end() if m else None
