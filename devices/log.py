"""A handler that only writes to the log: useful as a harmless default and for notifications."""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

from devices.registry import BaseHandler, JsonDict, Options, tool_schema

_LEVELS = {"info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


class LogHandler(BaseHandler):
    def __init__(self, key: str, table: Mapping[str, Any]) -> None:
        o = Options(key, table, {"keep", "logger"})
        self.keep = int(o.number("keep", 20))
        self._log = logging.getLogger(o.string("logger", "needled.notes"))
        self.schema = tool_schema(
            o.tool("log_message"),
            o.description("Write a note or notification message to the system log."),
            {
                "message": {"type": "string", "minLength": 1, "maxLength": 500},
                "level": {"type": "string", "enum": list(_LEVELS)},
            },
            ["message"],
        )
        self._lock = threading.Lock()
        self._entries: collections.deque[JsonDict] = collections.deque(maxlen=self.keep)

    def call(self, arguments: JsonDict) -> JsonDict:
        level = arguments.get("level", "info")
        self._log.log(_LEVELS[level], "%s", arguments["message"])
        entry = {"time": time.time(), "level": level, "message": arguments["message"]}
        with self._lock:
            self._entries.append(entry)
        return {"logged": True, "level": level}

    def state(self) -> JsonDict:
        with self._lock:
            return {"recent": list(self._entries)}
