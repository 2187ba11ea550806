"""Serial transport through real pseudo-terminals (the pty slave plays the USB serial port)."""

from __future__ import annotations

import json
import os
import select
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from daemon_fixtures import RunningDaemon, make_config, wait_for


class Wire:
    """The far end of the serial line: a pty master, a line reader and a writer."""

    def __init__(self, link: Path) -> None:
        self.master, slave = os.openpty()
        name = os.ttyname(slave)
        os.close(slave)
        tmp = link.with_suffix(".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(name)
        os.replace(tmp, link)  # like udev updating /dev/serial/by-id on replug
        self.lines: list[dict] = []
        self.raw: list[bytes] = []
        self._buf = b""
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._read, daemon=True)
        self._t.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                r, _, _ = select.select([self.master], [], [], 0.05)
                if not r:
                    continue
                data = os.read(self.master, 65536)
            except OSError:
                # EIO while no one holds the slave open (before the daemon opens it, or while
                # it reopens): not an unplug, keep listening
                if self._stop.wait(0.05):
                    return
                continue
            self._buf += data
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                self.raw.append(line)
                self.lines.append(json.loads(line))

    def send(self, data: bytes | str) -> None:
        if isinstance(data, str):
            data = data.encode()
        view = memoryview(data)
        while view:
            n = os.write(self.master, view[:1024])
            view = view[n:]

    def wait(self, n: int, timeout: float = 10.0) -> list[dict]:
        wait_for(lambda: len(self.lines) >= n, timeout)
        return list(self.lines)

    def unplug(self) -> None:
        self._stop.set()
        self._t.join(1)
        os.close(self.master)


@pytest.fixture
def serial_daemon(tmp_path: Path):
    link = tmp_path / "ttyNEEDLE"
    wire = Wire(link)
    cfg = make_config(
        serial={"enabled": True, "port": str(link), "reopen_min": 0.05, "reopen_max": 0.5},
        limits={"line_length": 200, "partial_line_timeout": 0.3},
    )
    with RunningDaemon(cfg) as d:
        assert wait_for(lambda: d.daemon.serial.connected.is_set(), 5)
        yield d, wire, link
    try:
        wire.unplug()
    except OSError:
        pass


def test_commands_and_replies(serial_daemon) -> None:
    d, wire, _ = serial_daemon
    wire.send("turn on the kitchen light\n")
    wire.send('{"id": "s1", "text": "open the bedroom blinds"}\r\n')
    a, b = wire.wait(2)
    assert a["text"] == "turn on the kitchen light" and a["results"][0]["result"]["on"] is True
    assert b["id"] == "s1" and b["results"][0]["result"] == {"room": "bedroom", "position": 100}
    assert d.daemon.registry.states()["set_blinds"]["bedroom"]["position"] == 100
    assert all(b"\n" not in r for r in wire.raw)  # one line per reply


def test_bad_lines_get_errors_and_serving_continues(serial_daemon) -> None:
    _, wire, _ = serial_daemon
    wire.send("x" * 500 + "\n")
    wire.send(b"\xc3\x28 bad utf8\n")
    wire.send('{"id": 5, "text": \n')
    wire.send('{"id": 6}\n')
    wire.send('{"id": 7, "text": Infinity}\n')  # not JSON, though Python's parser takes it
    wire.send("turn on the")  # no newline: a partial line
    replies = wire.wait(6)
    codes = [r["envelope"]["error_code"] for r in replies]
    assert codes == [
        "too_long",
        "invalid_utf8",
        "invalid_json",
        "invalid_json",
        "invalid_json",
        "partial_line",
    ]
    assert "200 bytes" in replies[0]["envelope"]["error"]
    assert replies[3]["id"] == 6
    assert "Infinity" in replies[4]["envelope"]["error"]
    wire.send("fan on high\n")
    assert wire.wait(7)[6]["results"][0]["ok"]


def test_exclusive_open(serial_daemon) -> None:
    import serial

    _, _, link = serial_daemon
    with pytest.raises(serial.SerialException):
        serial.Serial(str(link), 115200, exclusive=True)


def test_unplug_and_replug_recovers(serial_daemon) -> None:
    d, wire, link = serial_daemon
    wire.send("fan on high\n")
    assert wire.wait(1)
    opened = d.daemon.serial.open_count
    wire.unplug()
    assert wait_for(lambda: not d.daemon.serial.connected.is_set(), 5)
    time.sleep(0.3)  # a few failed reopen attempts with backoff
    wire2 = Wire(link)
    try:
        assert wait_for(lambda: d.daemon.serial.open_count > opened, 5)
        wire2.send('{"id": "after", "text": "turn off the kitchen light"}\n')
        (reply,) = wire2.wait(1)
        assert reply["id"] == "after" and reply["results"][0]["ok"]
        assert d.thread.is_alive() and d.daemon.pipeline.healthy()
    finally:
        wire2.unplug()


@pytest.mark.slow
def test_burst_each_line_answered_once(tmp_path: Path) -> None:
    link = tmp_path / "ttyB"
    wire = Wire(link)
    cfg = make_config(
        serial={"enabled": True, "port": str(link)},
        limits={"queue_size": 64},
    )
    with RunningDaemon(cfg, delay=0.001) as d:
        assert wait_for(lambda: d.daemon.serial.connected.is_set(), 5)
        n = 1000
        wire.send("".join(json.dumps({"id": i, "text": "fan on high"}) + "\n" for i in range(n)))
        replies = wire.wait(n, 30)
        time.sleep(0.2)
        ids = Counter(r["id"] for r in wire.lines)
        assert set(ids) == set(range(n)) and max(ids.values()) == 1
        outcomes = Counter(r["envelope"]["error_code"] or "served" for r in replies)
        assert set(outcomes) <= {"served", "busy"} and outcomes["served"] >= 64
    wire.unplug()
