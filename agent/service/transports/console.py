"""Console transport: commands typed on the terminal; prints the call, result and device state."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from agent.service.pipeline import Command, JsonDict


class ConsoleTransport:
    def __init__(
        self,
        states: Callable[[], dict[str, JsonDict]],
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
    ) -> None:
        self._states = states
        self._in = stdin or sys.stdin
        self._out = stdout or sys.stdout
        self._submit: Any = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._counter = 0

    @staticmethod
    def wanted(setting: str, stdin: TextIO | None = None) -> bool:
        """``console.enabled``: "on", "off", or "auto" (only when stdin is a terminal)."""
        if setting == "on":
            return True
        if setting == "off":
            return False
        stream = stdin or sys.stdin
        try:
            return stream.isatty()
        except (AttributeError, ValueError):
            return False

    def attach(self, submit: Any) -> None:
        self._submit = submit

    def start(self) -> None:
        self._say("needled console: type a command (e.g. 'turn on the kitchen light'), Ctrl-D ends")
        self._thread = threading.Thread(target=self._run, name="needled-console", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 0.1) -> None:
        # a thread blocked in readline cannot be woken portably; it is a daemon thread
        pass

    def _run(self) -> None:
        for line in self._in:
            text = line.strip()
            if not text:
                continue
            self._counter += 1
            cmd = Command(text=text, source="console", reply=self.show, id=None)
            if self._submit is not None:
                self._submit(cmd)

    def _say(self, text: str) -> None:
        with self._lock:
            self._out.write(text + "\n")
            self._out.flush()

    def show(self, reply: JsonDict) -> None:
        env = reply.get("envelope") or {}
        lines = []
        if env.get("type") == "error":
            lines.append(f"  error [{env.get('error_code')}]: {env.get('error')}")
        elif not env.get("function_calls"):
            lines.append("  no call (the model declined)")
        for call in env.get("function_calls") or []:
            args = json.dumps(call.get("arguments"), ensure_ascii=False)
            lines.append(f"  call   {call.get('name')}({args})")
        conf = env.get("confidence")
        if conf is not None:
            lines.append(f"  confidence {conf:.2f}")
        states = self._states()
        for res in reply.get("results") or []:
            if res.get("ok"):
                lines.append(f"  result {json.dumps(res.get('result'), ensure_ascii=False)}")
            else:
                lines.append(f"  failed [{res.get('error_code')}]: {res.get('error')}")
            st = states.get(res.get("name"))
            if st is not None:
                lines.append(f"  state  {res.get('name')}: {json.dumps(st, ensure_ascii=False)}")
        self._say("\n".join(lines))
