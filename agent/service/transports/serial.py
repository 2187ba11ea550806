"""Serial transport (pyserial): one command per line, one JSON reply line per command.

A line is plain text or a JSON object ``{"id", "text"}``. Anything wrong with a line (over the
length limit, no newline within ``limits.partial_line_timeout``, invalid UTF-8, invalid JSON, a
lone surrogate) gets an error reply naming the problem and the transport keeps reading; no line,
however hostile, ends the reading thread. When the device goes away (USB unplug, pty master
closed) the port is closed and reopened with exponential backoff, so configure a stable name
such as ``/dev/serial/by-id/...``.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from agent.service import wirejson
from agent.service.config import LimitsConfig, SerialConfig
from agent.service.pipeline import Command, JsonDict, Submit, error_envelope, make_reply

log = logging.getLogger("needled.serial")


class SerialTransport:
    def __init__(self, cfg: SerialConfig, limits: LimitsConfig) -> None:
        self.cfg = cfg
        self.limits = limits
        self._submit: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: Any = None
        self._gen = 0  # which opening of the port a reply belongs to
        self._wlock = threading.Lock()
        self.connected = threading.Event()
        self.open_count = 0

    def attach(self, submit: Any) -> None:
        self._submit = submit

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="needled-serial", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    # --- port lifecycle -------------------------------------------------------------------------

    def _run(self) -> None:
        import serial  # pyserial; imported here so configs without serial never load it

        delay = self.cfg.reopen_min
        while not self._stop.is_set():
            try:
                port = serial.Serial(
                    self.cfg.port, self.cfg.baud, timeout=0.1, exclusive=self.cfg.exclusive
                )
            except (serial.SerialException, OSError, ValueError) as exc:
                log.warning("cannot open %s (%s); retrying in %.1f s", self.cfg.port, exc, delay)
                self._stop.wait(delay)
                delay = min(delay * 2, self.cfg.reopen_max)
                continue
            delay = self.cfg.reopen_min
            with self._wlock:
                self._gen += 1
                self._port = port
            self.open_count += 1
            self.connected.set()
            log.info("serial port %s open at %d baud", self.cfg.port, self.cfg.baud)
            try:
                self._read_loop(port)
            except (serial.SerialException, OSError) as exc:
                log.warning("serial port %s lost (%s); reopening", self.cfg.port, exc)
            finally:
                self.connected.clear()
                with self._wlock:
                    self._port = None
                try:
                    port.close()
                except Exception:
                    pass
            self._stop.wait(self.cfg.reopen_min)

    def _read_loop(self, port: Any) -> None:
        buf = bytearray()
        discarding = False  # inside an over-long line, already answered: drop until newline
        last_data = time.monotonic()
        limit = self.limits.line_length
        gen = self._gen
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            now = time.monotonic()
            if data:
                buf += data
                last_data = now
            while True:
                nl = buf.find(b"\n")
                if nl < 0:
                    break
                line = bytes(buf[:nl])
                del buf[: nl + 1]
                if discarding:
                    discarding = False
                    continue
                self._guarded_line(line, gen)
            if len(buf) > limit:
                if not discarding:
                    # the id is read from the line's start, so the client can tell which one
                    msg = f"line longer than {limit} bytes"
                    self._error(gen, "too_long", msg, wirejson.leading_id(bytes(buf)))
                    discarding = True
                buf.clear()
            if buf and now - last_data > self.limits.partial_line_timeout:
                self._error(
                    gen,
                    "partial_line",
                    f"partial line: no newline within {self.limits.partial_line_timeout:g} s",
                )
                buf.clear()
            elif discarding and not buf and now - last_data > self.limits.partial_line_timeout:
                discarding = False

    # --- lines ----------------------------------------------------------------------------------

    def _guarded_line(self, raw: bytes, gen: int) -> None:
        """One line, whatever it holds: a slip in handling it costs that line, never the port.

        This thread is the only reader of the port; if it died, the daemon would stop for a
        restart (see ``Daemon.on_thread_exception``) and a peer repeating the line would keep
        it restarting.
        """
        try:
            self._line(raw, gen)
        except Exception as exc:
            log.exception("serial: line of %d bytes not handled", len(raw))
            self._error(gen, "internal_error", f"line not handled: {type(exc).__name__}")

    def _line(self, raw: bytes, gen: int) -> None:
        raw = raw.rstrip(b"\r")
        if not raw.strip():
            return
        if len(raw) > self.limits.line_length:
            msg = f"line longer than {self.limits.line_length} bytes"
            self._error(gen, "too_long", msg, wirejson.leading_id(raw))
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self._error(gen, "invalid_utf8", f"invalid UTF-8 at byte {exc.start}")
            return
        cmd_id: Any = None
        if text.lstrip().startswith("{"):
            try:
                data = wirejson.loads(text)
            except ValueError as exc:
                self._error(gen, "invalid_json", f"invalid JSON: {exc}")
                return
            cmd_id = data.get("id")
            if cmd_id is not None and (
                isinstance(cmd_id, bool) or not isinstance(cmd_id, str | int)
            ):
                self._error(gen, "invalid_json", "'id' must be a string or integer")
                return
            if isinstance(cmd_id, str) and (where := _lone_surrogate(cmd_id)) is not None:
                self._error(gen, "invalid_json", f"'id' has a lone surrogate at {where}", cmd_id)
                return
            text = data.get("text")
            if not isinstance(text, str):
                self._error(gen, "invalid_json", "'text' must be a string", cmd_id)
                return
            if (where := _lone_surrogate(text)) is not None:
                self._error(gen, "invalid_json", f"'text' has a lone surrogate at {where}", cmd_id)
                return
        cmd = Command(text=text, source="serial", reply=lambda p: self._write(p, gen), id=cmd_id)
        if self._submit is None:
            cmd.answer_error("not_ready", "daemon is starting, try again")
        elif self._submit(cmd) is Submit.DUPLICATE:
            log.info("serial command id %r seen before: replaying its reply", cmd_id)

    def _error(self, gen: int, code: str, message: str, cmd_id: Any = None) -> None:
        log.info("serial: %s", message)
        self._write(make_reply(cmd_id, "", error_envelope(code, message)), gen)

    def _write(self, payload: JsonDict, gen: int) -> None:
        line = _encode_line(payload)
        with self._wlock:
            if self._port is None or gen != self._gen:
                # the peer that asked is gone; a reply to whoever is plugged in now would be noise
                log.warning("serial reply for id %r dropped: port was reopened", payload.get("id"))
                return
            try:
                self._port.write(line)
                self._port.flush()
            except Exception as exc:
                log.warning("serial write failed: %s", exc)


def _lone_surrogate(text: str) -> str | None:
    """Where ``text`` holds a UTF-16 surrogate (a JSON ``\\ud800`` escape with no partner), or
    None. Such a string is not Unicode text: it cannot be encoded as UTF-8, so it can neither be
    run nor echoed back as it came."""
    for i, ch in enumerate(text):
        if "\ud800" <= ch <= "\udfff":
            return f"character {i} (U+{ord(ch):04X})"
    return None


def _encode_line(payload: JsonDict) -> bytes:
    """One reply line: UTF-8 JSON, or JSON with ``\\u`` escapes when some string in the reply
    (an id as the peer sent it) cannot be UTF-8; either way one line that JSON readers parse."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(payload, separators=(",", ":")) + "\n").encode("ascii")
