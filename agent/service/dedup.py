"""The de-duplication window: which commands (by source and id) were queued, started or
answered, and their replies, kept in the state directory so a resend is answered again and never
run twice, across restarts too.

On disk it is an append-only log of JSON lines, one per event:

- ``{"k": [source, id], "s": "started"}``, written and synced to disk before the first device
  handler runs. A process killed after this line and before the reply leaves an id whose outcome
  is unknown: a resend is then answered as such, never run again.
- ``{"k": [source, id], "s": "done", "r": reply}``, written before the reply is sent, so a
  process killed between the two replays the reply on the resend.

The log is rewritten from the window when it grows past twice the window's size. A torn last
line (the process killed mid-write) or a damaged one is skipped. Without a path the window lives
in memory only.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("needled.dedup")

Key = tuple[str, str]

QUEUED = "queued"  # accepted, not yet run (memory only: nothing happened yet)
STARTED = "started"  # a device handler may have run
DONE = "done"  # answered; ``reply`` holds the reply


def command_key(source: str, ident: Any) -> Key | None:
    """The window key of a command id; None when the command has no id to de-duplicate on.

    The id's JSON type is part of the key: ``7`` and ``"7"`` are different commands, and so are
    ``true`` and ``1``. Bytes (MQTT 5 Correlation Data) are a type of their own.
    """
    if ident is None or ident == "" or ident == b"":
        return None
    if isinstance(ident, bool):
        tagged = f"b:{'true' if ident else 'false'}"
    elif isinstance(ident, int):
        tagged = f"i:{ident}"
    elif isinstance(ident, str):
        tagged = f"s:{ident}"
    elif isinstance(ident, bytes | bytearray):
        tagged = f"c:{bytes(ident).hex()}"
    else:
        tagged = f"r:{ident!r}"
    return (source, tagged)


@dataclass
class Entry:
    state: str
    reply: str | None = None  # the reply as JSON text (compact in memory)
    live: bool = True  # False: read back from disk, written by an earlier process

    def reply_dict(self) -> dict[str, Any] | None:
        """The recorded reply; None when there is none (or it does not read back)."""
        if self.reply is None:
            return None
        try:
            reply = json.loads(self.reply)
        except ValueError:
            return None
        return reply if isinstance(reply, dict) else None


class DedupWindow:
    """The last ``size`` command keys and their state; thread-safe; persisted when given a path."""

    def __init__(self, size: int, path: str | Path | None = None) -> None:
        self.size = max(int(size), 0)
        self.path = Path(path) if path is not None else None
        self._entries: collections.OrderedDict[Key, Entry] = collections.OrderedDict()
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._lines = 0
        self._io_failed = False
        self._opened = False
        if self.path is not None and self.size:
            self._load()
            self._open()

    # --- lookups --------------------------------------------------------------------------------

    def get(self, key: Key) -> Entry | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
            return entry

    def __len__(self) -> int:
        return len(self._entries)

    # --- events ---------------------------------------------------------------------------------

    def _put(self, key: Key, entry: Entry) -> None:
        """Newest entry for ``key`` (held under the lock), oldest ones trimmed to the size."""
        self._entries[key] = entry
        self._entries.move_to_end(key)
        self._trim()

    def queued(self, key: Key) -> None:
        if not self.size:
            return
        with self._lock:
            self._put(key, Entry(QUEUED))

    def started(self, key: Key) -> None:
        """Record, durably, that the command's handlers are about to run."""
        if not self.size:
            return
        with self._lock:
            self._put(key, Entry(STARTED))
            # synced: after a power cut too, a resend must not switch a device a second time
            self._append({"k": list(key), "s": STARTED}, sync=True)

    def done(self, key: Key, reply: dict[str, Any]) -> None:
        """Record the reply (before it is sent: a crash in between replays it on the resend)."""
        if not self.size:
            return
        try:
            # ASCII: an id or text with a lone surrogate still makes a writable line
            text: str | None = json.dumps(reply, separators=(",", ":"), default=str)
        except (TypeError, ValueError) as exc:  # a circular reply: a resend gets "unknown"
            log.error("reply of %r cannot be recorded: %s", key, exc)
            text = None
        with self._lock:
            self._put(key, Entry(DONE, text))  # no text: replayed as outcome unknown
            # not synced: losing this line in a power cut leaves "started", which answers a
            # resend "outcome unknown"; it never leads to a second run
            if text is not None:
                self._append({"k": list(key), "s": DONE, "r": text}, sync=False)

    def forget(self, key: Key) -> None:
        """Drop a command that was answered without running (shutdown): a resend must run."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry.state == QUEUED:
                del self._entries[key]

    def resize(self, size: int) -> None:
        """A new ``limits.dedup_size`` (config reload); 0 turns the window off."""
        with self._lock:
            self.size = max(int(size), 0)
            if self.size and self.path is not None and not self._opened:
                self._load()  # it was off since the start: take up what is on disk
                self._open()
            self._trim()

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                try:
                    os.close(self._fd)
                except OSError:
                    pass
                self._fd = None

    # --- disk -----------------------------------------------------------------------------------

    def _trim(self) -> None:
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def _load(self) -> None:
        assert self.path is not None
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            log.error("cannot read the de-duplication window %s: %s", self.path, exc)
            return
        bad = 0
        for line in data.split(b"\n"):
            if not line.strip():
                continue
            self._lines += 1
            try:
                rec = json.loads(line)
                key = (str(rec["k"][0]), str(rec["k"][1]))
                state = rec["s"]
                if state not in (STARTED, DONE):
                    raise ValueError(state)
                reply = rec.get("r") if state == DONE else None
                if state == DONE and not isinstance(reply, str):
                    raise ValueError("no reply")
            except (ValueError, KeyError, IndexError, TypeError):
                bad += 1  # a line torn by a kill mid-write, or damage
                continue
            self._entries[key] = Entry(state, reply, live=False)
            self._entries.move_to_end(key)
        self._trim()
        if bad:
            log.warning("de-duplication window %s: skipped %d damaged line(s)", self.path, bad)
        log.info("de-duplication window: %d command id(s) from %s", len(self._entries), self.path)

    def _open(self) -> None:
        assert self.path is not None
        self._opened = True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._rewrite()  # start from a compact log without torn lines
        except OSError as exc:
            self._failed(exc)

    def _append(self, record: dict[str, Any], *, sync: bool) -> None:
        if self._fd is None:
            return
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode("ascii")
        try:
            # one write(2) of the whole line on an O_APPEND file: a kill leaves it whole or torn
            # at the end, never interleaved; the kernel keeps it even if the process dies now
            os.write(self._fd, line)
            if sync:
                os.fdatasync(self._fd)
            self._lines += 1
            if self._lines > 2 * self.size + 64:
                self._rewrite()
        except OSError as exc:
            self._failed(exc)

    def _rewrite(self) -> None:
        """Replace the log by the window's entries (written aside, synced, then renamed)."""
        assert self.path is not None
        tmp = self.path.with_name(self.path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            chunks = []
            for key, e in self._entries.items():
                if e.state == DONE:
                    chunks.append({"k": list(key), "s": DONE, "r": e.reply})
                elif e.state == STARTED:
                    chunks.append({"k": list(key), "s": STARTED})
            body = "".join(json.dumps(c, separators=(",", ":")) + "\n" for c in chunks).encode(
                "ascii"
            )
            view = memoryview(body)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, self.path)
        dirfd = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)
        if self._fd is not None:
            os.close(self._fd)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
        self._lines = len(chunks)

    def _failed(self, exc: OSError) -> None:
        # serving goes on (refusing every command would be worse); only the guarantee across a
        # restart is lost, so say it loudly once
        if not self._io_failed:
            log.error(
                "cannot write the de-duplication window %s (%s); resends after a restart may "
                "run twice",
                self.path,
                exc,
            )
        self._io_failed = True
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None
