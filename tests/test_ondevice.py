"""`pytest -m ondevice`: the rows of `needled selftest`, one test each, on the board itself.

On a Pi, point ``NEEDLED_CONFIG`` at the installed config (``/etc/needled/needled.toml``) so the
serial ports and GPIO chips it names are checked; without it the bundled demo home is used. These
also run in CI, where the hardware rows are skips that must say why.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agent.offline.selftest import (
    check_gpio,
    check_isa,
    check_kernels,
    check_notify,
    check_serial,
    has_gpio,
)
from agent.service.config import load_config

pytestmark = pytest.mark.ondevice

CONFIG = os.environ.get("NEEDLED_CONFIG") or None


def test_isa_path_is_native() -> None:
    status, detail = check_isa()
    assert status == "pass", detail


def test_kernels_agree_with_reference_on_this_cpu() -> None:
    status, detail = check_kernels()
    assert status == "pass", detail


def test_model_answers_a_command_within_the_memory_budget() -> None:
    # in a fresh process, as `needled selftest` runs it: this test process's RSS holds the
    # whole suite's imports
    cfg = load_config(CONFIG)
    code = (
        "import json, sys; from agent.offline.selftest import check_model; "
        "print(json.dumps(check_model(sys.argv[1] or None, None)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, cfg.model.path or ""],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    status, detail = json.loads(out.stdout.splitlines()[-1])
    assert status == "pass", detail


def test_configured_serial_ports_are_usable() -> None:
    cfg = load_config(CONFIG)
    rows = check_serial([cfg.serial.port] if cfg.serial.enabled and cfg.serial.port else [])
    assert rows and all(r.status != "fail" for r in rows), rows
    assert all(r.detail for r in rows if r.status == "skip")  # a skip says why


def test_configured_gpio_chips_are_usable() -> None:
    rows = check_gpio(has_gpio(load_config(CONFIG)))
    assert rows and all(r.status != "fail" for r in rows), rows
    assert all(r.detail for r in rows if r.status == "skip")


def test_notify_socket_when_under_systemd() -> None:
    status, detail = check_notify()
    if os.environ.get("NOTIFY_SOCKET"):
        assert status == "pass", detail
    else:
        assert status == "skip" and "NOTIFY_SOCKET" in detail
