"""sd_notify through a real datagram socket at NOTIFY_SOCKET, and journald selection."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from daemon_fixtures import ROOT, config_dict, to_toml

from agent.service.daemon import Notifier, _builtin_notify


class NotifySocket:
    """The service manager's end of NOTIFY_SOCKET: like systemd, it reads every datagram as
    it arrives (in a thread), so a daemon is never left blocked on a full socket queue."""

    def __init__(self, address: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind("\0" + address[1:] if address.startswith("@") else address)
        self.sock.settimeout(0.05)
        self.address = address
        self.messages: list[tuple[float, str]] = []
        self._closed = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while not self._closed.is_set():
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                return
            self.messages.append((time.monotonic(), data.decode()))

    def drain(self, until: float) -> None:
        """Let messages arrive until `until` (monotonic seconds)."""
        time.sleep(max(0.0, until - time.monotonic()))

    def wait_for(self, needle: str, timeout: float = 10.0) -> float:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for t, m in list(self.messages):
                if needle in m.split("\n"):
                    return t
            time.sleep(0.02)
        raise AssertionError(f"{needle!r} never arrived: {[m for _, m in self.messages]}")

    def close(self) -> None:
        self._closed.set()
        self._reader.join(1.0)
        self.sock.close()


@pytest.mark.parametrize("abstract", [False, True])
@pytest.mark.parametrize("prefer_systemd", [False, True])
def test_notify_reaches_the_socket(tmp_path: Path, monkeypatch, abstract, prefer_systemd) -> None:
    addr = f"@needled-test-{uuid.uuid4().hex}" if abstract else str(tmp_path / "notify")
    ns = NotifySocket(addr)
    monkeypatch.setenv("NOTIFY_SOCKET", addr)
    n = Notifier(prefer_systemd=prefer_systemd)
    assert n.backend == ("systemd-python" if prefer_systemd else "builtin")
    assert n("READY=1", "STATUS=warm")
    ns.drain(time.monotonic() + 0.3)
    assert [m for _, m in ns.messages] == ["READY=1\nSTATUS=warm"]
    ns.close()


def test_notify_without_socket_is_a_no_op(monkeypatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert Notifier(prefer_systemd=False)("READY=1") is False
    monkeypatch.setenv("NOTIFY_SOCKET", "/nonexistent/socket")
    assert _builtin_notify("READY=1") is False


def test_watchdog_interval(monkeypatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "60000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert Notifier.watchdog_interval() == 30.0
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert Notifier.watchdog_interval() is None
    monkeypatch.delenv("WATCHDOG_USEC")
    assert Notifier.watchdog_interval() is None


def test_daemon_lifecycle_ready_watchdog_reload_stop(tmp_path: Path) -> None:
    """READY only after warm-up, watchdog pings that stop while the worker is stuck,
    SIGHUP reload, SIGTERM exit 0."""
    addr = str(tmp_path / "notify")
    ns = NotifySocket(addr)
    cfg = tmp_path / "needled.toml"
    cfg.write_text(to_toml(config_dict(console={"enabled": "on"}, limits={"stall_timeout": 1})))
    env = dict(os.environ, PYTHONPATH=str(ROOT), NOTIFY_SOCKET=addr, WATCHDOG_USEC="400000")
    env.pop("WATCHDOG_PID", None)
    env.pop("JOURNAL_STREAM", None)
    warmup = 0.6
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "daemon_fixtures.py"), str(cfg), "0", str(warmup)],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    try:
        t_load = ns.wait_for("STATUS=starting: loading model and warming the tools prefix")
        t_ready = ns.wait_for("READY=1")
        assert t_ready - t_load >= warmup * 0.9
        assert not any("WATCHDOG=1" in m for t, m in ns.messages if t < t_ready)
        ns.drain(time.monotonic() + 1.0)
        pings = [t for t, m in ns.messages if m == "WATCHDOG=1"]
        assert len(pings) >= 3

        # a command that holds the worker for 2.5 s: past the 1 s stall limit pings stop
        proc.stdin.write(b"sleep 2.5\n")
        proc.stdin.flush()
        t0 = time.monotonic()
        ns.drain(t0 + 3.5)
        pings = [t - t0 for t, m in ns.messages if m == "WATCHDOG=1" and t > t0]
        assert not [p for p in pings if 1.3 < p < 2.4], pings  # silent while stuck
        assert [p for p in pings if p > 2.6]  # back once the command finished

        proc.send_signal(signal.SIGHUP)
        t_reload = ns.wait_for("RELOADING=1")
        ns.drain(time.monotonic() + 0.5)
        assert any(m.startswith("READY=1") for t, m in ns.messages if t >= t_reload)

        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
        ns.wait_for("STOPPING=1", 2)
    finally:
        if proc.poll() is None:
            proc.kill()
        ns.close()


# The main loop's side: it spins on a short sleep, so it is often inside the wake-up's wait when
# a signal's handler runs, for two seconds; then it prints how many signals it handled and exits.
SIGNAL_STORM = r"""
import signal, sys, time
from agent.service.daemon import Wakeup
{setup}
hits = 0
def on_signal(*_):
    global hits
    hits += 1
    {poke}
signal.signal(signal.SIGUSR1, on_signal)
print("ready", flush=True)
end = time.monotonic() + 2.0
while time.monotonic() < end:
    {sleep}
print(hits, flush=True)
"""


def signal_storm(setup: str, poke: str, sleep: str) -> tuple[int | None, str]:
    code = SIGNAL_STORM.format(setup=setup, poke=poke, sleep=sleep)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env
    )  # fmt: skip
    assert proc.stdout.readline().strip() == "ready"
    for _ in range(5000):
        if proc.poll() is not None:
            break
        proc.send_signal(signal.SIGUSR1)
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None, ""
    return proc.returncode, out


def test_wakeup_poked_from_a_signal_handler_never_deadlocks() -> None:
    # threading.Event in the same place deadlocks within a few thousand signals (its set() in
    # the handler waits for the lock the interrupted wait() holds); the daemon's stop and reload
    # requests come from exactly such handlers
    rc, out = signal_storm("w = Wakeup()", "w.poke()", "w.sleep(0.00001)")
    assert rc == 0, "the process hung: a signal handler deadlocked against the main loop"
    assert int(out) > 0
