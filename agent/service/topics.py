"""What MQTT accepts as a topic name and as a string field, checked before anything is sent.

A broker closes the connection on a malformed packet (a NUL or a control character in a string,
a wildcard in a published topic); the client reconnects and sends it again, so a bad name in the
config would become an endless reconnect with nothing served. The config refuses such names.
"""

from __future__ import annotations

import unicodedata


def string_problem(text: str) -> str | None:
    """Why ``text`` cannot go out as an MQTT UTF-8 string (None: it can): no control characters
    (NUL included), and at most 65,535 bytes, the size of the length field."""
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
        return "must not contain control characters"
    if len(text.encode("utf-8", "surrogatepass")) > 65535:
        return "must be at most 65,535 bytes"
    return None


def topic_problem(topic: str) -> str | None:
    """Why ``topic`` (a topic, or a prefix of topics) cannot be published to and subscribed to
    as it is (None: it can)."""
    if not topic:
        return "must not be empty"
    if "+" in topic or "#" in topic:
        return "must not contain the MQTT wildcards '+' or '#'"
    return string_problem(topic)
