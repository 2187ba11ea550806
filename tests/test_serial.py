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


def test_lone_surrogates_get_errors_and_the_reader_survives(serial_daemon) -> None:
    d, wire, _ = serial_daemon
    reader = d.daemon.serial._thread
    # an id that cannot be UTF-8 once decoded, with a text that is not a string: this line used
    # to end the reading thread (and with it the daemon)
    wire.send('{"id": "\\ud800", "text": 5}\n')
    wire.send('{"id": "ok\\udfff", "text": "fan on high"}\n')
    wire.send('{"id": "t1", "text": "turn on the \\ud83d light \\udc00"}\n')
    a, b, c = wire.wait(3)
    assert [r["envelope"]["error_code"] for r in (a, b, c)] == ["invalid_json"] * 3
    assert a["id"] == "\ud800" and "'id' has a lone surrogate" in a["envelope"]["error"]
    # the id comes back as the peer sent it (a JSON escape), so the peer can match the reply
    assert b["id"] == "ok\udfff" and "'id' has a lone surrogate" in b["envelope"]["error"]
    assert b'"ok\\udfff"' in wire.raw[1]
    assert c["id"] == "t1" and "U+D83D" in c["envelope"]["error"]
    assert not d.completer.seen  # nothing ran
    wire.send('{"id": "pair", "text": "fan on high \\ud83d\\ude00"}\n')  # a valid pair is text
    assert wire.wait(4)[3]["id"] == "pair"
    wire.send('{"id": "after", "text": "fan on high"}\n')
    assert wire.wait(5)[4]["results"][0]["ok"]
    assert reader.is_alive() and d.daemon.serial._thread is reader
    assert not d.daemon.thread_died


def _hostile_lines(seed: int, n: int) -> list[bytes]:
    """Seeded hostile lines: crafted JSON edge cases, then random bytes and random JSON-ish
    lines with escapes; none blank, none with a newline inside, each under the line limit."""
    import random

    crafted = [
        '{"id": "\\ud800", "text": 5}',
        '{"id": "\\udbff\\udbff", "text": "fan on high"}',
        '{"id": [1], "text": "fan on high"}',
        '{"id": {"a": 1}, "text": "x"}',
        '{"id": 1.5, "text": "x"}',
        '{"id": true, "text": "x"}',
        '{"id": 1e400, "text": "x"}',
        '{"id": null, "text": null}',
        '{"text": ["fan on high"]}',
        '{"text": {"\\ud800": 1}}',
        "{}",
        '{"id": "x", "text": "fan on high", "text": 7}',
        '{"a":' * 30 + "1" + "}" * 30,
        "[" * 150 + "]" * 40,
        "{" + '"\\u' * 3,
        '{"id": "\\u0000", "text": "\\u0000"}',
        "\x1b[2J\x07\x00",
        '{"id": "k", "text": NaN}',
        '{"id": -0, "text": "x", "reply_to": "\\ud800"}',
    ]
    rng = random.Random(seed)
    lines = [c.encode() for c in crafted]
    pieces = [
        '{"id": ',
        '"text": ',
        "\\ud800",
        "\\udfff",
        "\\u00e9",
        '"',
        ",",
        ":",
        "}",
        "{",
        "[",
        "]",
        "5",
        "null",
        "fan on high",
        "\\",
        "é",
    ]
    while len(lines) < n:
        if rng.random() < 0.5:
            raw = bytes(rng.randrange(256) for _ in range(rng.randint(1, 60)))
        else:
            raw = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))).encode()
        raw = raw.replace(b"\n", b"").rstrip(b"\r")
        if raw.strip():
            lines.append(raw)
    return lines


def test_fuzzed_lines_each_answered_and_serving_continues(serial_daemon) -> None:
    d, wire, _ = serial_daemon
    reader = d.daemon.serial._thread
    lines = _hostile_lines(14, 200)
    for i in range(0, len(lines), 20):  # in batches, so no reply is a `busy`
        for line in lines[i : i + 20]:
            wire.send(line + b"\n")
        wire.wait(min(i + 20, len(lines)), 20)
    time.sleep(0.3)
    assert len(wire.lines) == len(lines)  # one reply per line, never more
    for r in wire.lines:
        assert set(r) == {"id", "text", "envelope", "results"}
        env = r["envelope"]
        assert env["error_code"] != "internal_error"
        assert env["error"] is None or env["error_code"]  # an error always says which
    assert reader.is_alive() and not d.daemon.thread_died
    wire.send('{"id": "last", "text": "fan on high"}\n')
    last = wire.wait(len(lines) + 1)[-1]
    assert last["id"] == "last" and last["results"][0]["ok"]


def test_a_slip_handling_one_line_costs_that_line_only(serial_daemon) -> None:
    d, wire, _ = serial_daemon
    transport = d.daemon.serial
    real_submit = transport._submit

    def submit(cmd):  # a bug further down the line, hit by one particular command
        if cmd.text == "boom":
            raise RuntimeError("bug")
        return real_submit(cmd)

    transport.attach(submit)
    wire.send("boom\n")
    (reply,) = wire.wait(1)
    assert reply["envelope"]["error_code"] == "internal_error"
    assert "RuntimeError" in reply["envelope"]["error"]
    wire.send("fan on high\n")
    assert wire.wait(2)[1]["results"][0]["ok"]
    assert transport._thread.is_alive() and not d.daemon.thread_died
