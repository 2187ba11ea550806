"""`needled selftest`: each row can pass, skip with a reason, or fail; the command's exit status
follows the rows."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from agent.offline.selftest import Check, check_daemons, check_notify, check_serial, format_table

ROOT = Path(__file__).resolve().parents[1]


def test_selftest_command_passes_on_this_machine() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "agent.cli", "selftest"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"},
    )
    assert out.returncode == 0, out.stdout + out.stderr
    rows = {line.split()[0]: line.split()[1] for line in out.stdout.splitlines()[1:-1]}
    assert rows["isa"] == "PASS" and rows["kernels"] == "PASS" and rows["model"] == "PASS"
    assert rows["sd_notify"] == "SKIP"
    assert out.stdout.splitlines()[-1].endswith(" 0 failed")


def test_serial_rows(tmp_path: Path) -> None:
    master, slave = os.openpty()
    try:
        port = os.ttyname(slave)
        missing = str(tmp_path / "ttyUSB9")
        rows = {r.name: r for r in check_serial([port, missing])}
        assert rows[f"serial {port}"].status == "pass"
        assert rows[f"serial {missing}"].status == "skip"
        assert "not present" in rows[f"serial {missing}"].detail
    finally:
        os.close(master)
        os.close(slave)


def test_notify_row_sends_a_datagram(tmp_path: Path, monkeypatch) -> None:
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        status, detail = check_notify()
        assert status == "pass", detail
        assert sock.recv(4096).startswith(b"STATUS=selftest")


def test_daemon_row_fails_over_budget_and_skips_without_daemon() -> None:
    # a process holding 80 MB stands in for a daemon over its budget
    hog = subprocess.Popen(
        [sys.executable, "-c", "import sys; b = bytearray(80 << 20); print(); sys.stdin.read()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert hog.stdout is not None
        hog.stdout.readline()  # the 80 MB are allocated (and zeroed, so resident)
        (row,) = check_daemons([hog.pid])
        assert row.status == "fail" and "over 64 MB" in row.detail, row
    finally:
        hog.kill()
        hog.wait()
    assert check_daemons([]) == [Check("daemon", "skip", "no running `needled run` process")]


def test_table_counts_failures() -> None:
    table = format_table([Check("a", "pass", "ok"), Check("b", "fail", "broken")])
    assert table.splitlines()[-1] == "1 passed or skipped, 1 failed"
    assert "FAIL" in table.splitlines()[2]
