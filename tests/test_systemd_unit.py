"""The shipped unit: required settings, `systemd-analyze verify` and the offline security score."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[1] / "systemd" / "needled.service"
SHIPPED_EXEC = "/opt/needled/venv/bin/needled"


def settings() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        out.setdefault(key.strip(), []).append(value.strip())
    return out


def test_required_settings() -> None:
    s = settings()
    assert s["Type"] == ["notify"]
    assert s["Restart"] == ["on-failure"]
    assert s["DynamicUser"] == ["yes"]
    assert s["ProtectSystem"] == ["strict"]
    assert s["WatchdogSec"] and s["NoNewPrivileges"] == ["yes"]
    for key in ("StateDirectory", "CacheDirectory", "RuntimeDirectory"):
        assert s[key] == ["needled"]
    assert s["DevicePolicy"] == ["closed"]
    allowed = " ".join(s["DeviceAllow"])
    for group in ("char-ttyUSB", "char-ttyACM", "char-gpiochip"):
        assert group in allowed
    assert set(s["SupplementaryGroups"][0].split()) == {"dialout", "gpio"}
    assert s["ExecStart"][0].split()[0] == SHIPPED_EXEC
    assert s["ExecStart"][0].split()[1] == "run"


def test_config_errors_are_not_restarted() -> None:
    # `needled run` exits 78 (EX_CONFIG) on a bad config: a restart loop cannot fix that
    assert "78" in " ".join(settings()["RestartPreventExitStatus"]).split()


def test_gpio_works_inside_the_sandbox() -> None:
    s = settings()
    # gpiozero reads /proc/cpuinfo and /proc/device-tree to identify the board
    assert s.get("ProcSubset", ["all"]) == ["all"]
    assert s["ProtectProc"] == ["invisible"]
    # lgpio writes its pipes into the working directory: it must be the writable state directory
    assert s["WorkingDirectory"] == ["%S/needled"]
    assert s["StateDirectory"] == ["needled"] and s["ProtectSystem"] == ["strict"]


@pytest.fixture
def analyze() -> str:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze not installed")
    return tool


def test_verify(analyze: str, tmp_path: Path) -> None:
    # verify insists the ExecStart binary exists; CI has no /opt/needled, so check a copy that
    # names this Python instead (everything else byte for byte the shipped unit)
    copy = tmp_path / "needled.service"
    copy.write_text(UNIT.read_text().replace(SHIPPED_EXEC, sys.executable))
    r = subprocess.run(
        [analyze, "verify", "--man=no", str(copy)], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "needled.service" not in r.stderr, r.stderr  # no warnings about our unit


def test_security_exposure(analyze: str) -> None:
    r = subprocess.run(
        [analyze, "security", "--offline=yes", "--threshold=25", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    m = re.search(r"Overall exposure level for needled\.service: ([0-9.]+)", r.stdout)
    assert m, r.stdout + r.stderr
    assert float(m.group(1)) <= 2.5, r.stdout
    assert r.returncode == 0
