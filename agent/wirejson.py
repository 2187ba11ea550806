"""JSON that arrives from outside (MQTT payloads, serial lines, device state reports): strict
parsing whose only failure is ValueError.

``json.loads`` accepts ``NaN`` and ``Infinity``, which would then be echoed into replies that no
standard JSON parser (Home Assistant, Node-RED, a browser) can read, and it raises
RecursionError, not ValueError, on deeply nested input, which would slip past every
``except ValueError`` that guards a transport.
"""

from __future__ import annotations

import json
from typing import Any


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def loads(data: str | bytes | bytearray) -> Any:
    """Parse one JSON document; ValueError (with the reason) for anything that is not JSON."""
    try:
        return json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None
