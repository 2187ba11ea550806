"""Where `needled run` logs go and at which level: journald with each record's priority when
systemd captured stderr, stderr otherwise; `[log] level` and `--log-level`.

The journal test runs the real daemon against a real native-protocol socket: in a private mount
namespace (`unshare`) a fresh tmpfs hides the host's /run, so the socket bound at
/run/systemd/journal/socket (the path libsystemd sends to) is the test's own, and the datagrams
systemd-python's handler sends there are read back and decoded.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.daemon_fixtures import config_dict, to_toml

ROOT = Path(__file__).resolve().parents[1]
DEMO_MODEL = ROOT / "agent" / "models" / "demo.cact"

# Runs inside the namespace: binds the journal socket, starts `needled run` with stderr being
# the stream JOURNAL_STREAM names (as systemd does), collects the datagrams until the daemon says
# it is ready, stops it, and prints the decoded entries and the daemon's stderr as JSON.
HARNESS = r"""
import json, os, socket, struct, subprocess, sys, time
cfg, errpath, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs("/run/systemd/journal", exist_ok=True)
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind("/run/systemd/journal/socket")
sock.settimeout(0.5)

def decode(data):
    entry, i = {}, 0
    while i < len(data):
        nl = data.index(b"\n", i)
        line = data[i:nl]
        if b"=" in line:
            k, v = line.split(b"=", 1)
            i = nl + 1
        else:  # binary-safe field: name, newline, 64-bit little-endian size, value, newline
            k = line
            (n,) = struct.unpack("<Q", data[nl + 1 : nl + 9])
            v = data[nl + 9 : nl + 9 + n]
            i = nl + 9 + n + 1
        entry[k.decode()] = v.decode("utf-8", "replace")
    return entry

with open(errpath, "wb") as err:
    st = os.fstat(err.fileno())
    env = dict(os.environ, JOURNAL_STREAM=f"{st.st_dev}:{st.st_ino}")
    proc = subprocess.Popen(
        [sys.executable, "-m", "agent.cli", "run", "--config", cfg, *extra],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env,
    )
    entries, deadline = [], time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            entries.append(decode(sock.recv(1 << 20)))
        except socket.timeout:
            continue
        if entries[-1].get("MESSAGE", "").startswith("needled ready"):
            break
    proc.terminate()
    proc.wait(30)
print(json.dumps({"entries": entries, "stderr": open(errpath).read(), "rc": proc.returncode}))
"""


def daemon_config(tmp_path: Path, **log: str) -> Path:
    # a copy of the demo model without its training report: the daemon warns at start that the
    # model's training coverage is unknown, a WARNING the tests look for
    model = tmp_path / "model.cact"
    shutil.copyfile(DEMO_MODEL, model)
    cfg = tmp_path / "needled.toml"
    sections = {"model": {"path": str(model)}}
    if log:
        sections["log"] = log
    cfg.write_text(to_toml(config_dict(**sections)))
    return cfg


def run_under_journal(tmp_path: Path, cfg: Path, *extra: str) -> dict:
    unshare = shutil.which("unshare")
    assert unshare, "unshare (util-linux) is needed"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [
            unshare, "--user", "--map-root-user", "--mount", "sh", "-c",
            'mount -t tmpfs tmpfs /run && exec "$@"',
            "sh", sys.executable, "-c", HARNESS, str(cfg), str(tmp_path / "stderr"), *extra,
        ],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env=env,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.slow
def test_run_under_systemd_logs_to_journald_with_priorities(tmp_path: Path) -> None:
    out = run_under_journal(tmp_path, daemon_config(tmp_path, level="debug"))
    entries = [e for e in out["entries"] if e.get("SYSLOG_IDENTIFIER") == "needled"]
    by_priority: dict[str, list[str]] = {}
    for e in entries:
        by_priority.setdefault(e["PRIORITY"], []).append(e["MESSAGE"])
    # syslog priorities: 4 warning, 6 info, 7 debug (what `journalctl -p` filters on)
    assert any("training coverage of model model.cact is unknown" in m for m in by_priority["4"])
    assert any(m.startswith("needled ready") for m in by_priority["6"])
    assert by_priority.get("7"), "the configured debug level did not reach the journal"
    # nothing went to stderr (journald would file it all at one priority)
    assert "needled ready" not in out["stderr"] and "unknown" not in out["stderr"]


@pytest.mark.slow
def test_log_level_flag_overrides_the_config_under_journald(tmp_path: Path) -> None:
    out = run_under_journal(
        tmp_path, daemon_config(tmp_path, level="debug"), "--log-level", "warning"
    )
    priorities = {e["PRIORITY"] for e in out["entries"] if e.get("SYSLOG_IDENTIFIER") == "needled"}
    assert "4" in priorities and not priorities & {"5", "6", "7"}, priorities


def run_on_stderr(tmp_path: Path, cfg: Path, *extra: str) -> str:
    """`needled run` outside systemd's journal: its stderr once it is ready (READY=1 on a real
    sd_notify socket), after a SIGTERM."""
    tmp_path = Path(tempfile.mkdtemp(dir=tmp_path))
    addr = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as ns:
        ns.bind(addr)
        ns.settimeout(120)
        env = dict(os.environ, PYTHONPATH=str(ROOT), NOTIFY_SOCKET=addr)
        for k in ("JOURNAL_STREAM", "WATCHDOG_USEC", "WATCHDOG_PID"):
            env.pop(k, None)
        with open(tmp_path / "stderr", "wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-m", "agent.cli", "run", "--config", str(cfg), *extra],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                cwd=ROOT,
                env=env,
            )
            try:
                while b"READY=1" not in ns.recv(4096):
                    pass
            finally:
                proc.terminate()
                proc.wait(30)
    return (tmp_path / "stderr").read_text()


@pytest.mark.slow
def test_config_log_level_filters_stderr(tmp_path: Path) -> None:
    text = run_on_stderr(tmp_path, daemon_config(tmp_path, level="warning"))
    assert "WARNING needled: the training coverage of model model.cact is unknown" in text
    assert "INFO " not in text and "DEBUG " not in text
    text = run_on_stderr(tmp_path, daemon_config(tmp_path), "--log-level", "debug")
    assert "DEBUG " in text and "INFO needled: needled ready" in text


def test_journal_handler_only_for_the_stream_systemd_set_up(monkeypatch) -> None:
    from systemd.journal import JournalHandler

    from agent.service.logsetup import setup_logging

    root = logging.getLogger()
    saved, level = root.handlers[:], root.level
    st = os.fstat(2)
    try:
        root.handlers = []
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
        handler = setup_logging(logging.WARNING)
        assert isinstance(handler, JournalHandler) and root.handlers == [handler]
        assert root.level == logging.WARNING
        # systemd-python files each record under its own syslog priority
        assert [handler.map_priority(lv) for lv in (10, 20, 30, 40, 50)] == [7, 6, 4, 3, 2]
        # a child whose stderr was redirected inherits the variable but not the stream
        root.handlers = []
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino + 1}")
        handler = setup_logging()
        assert type(handler) is logging.StreamHandler
        # an embedding program's own logging setup is kept
        assert setup_logging() is None and root.handlers == [handler]
    finally:
        root.handlers, root.level = saved, level


def test_unknown_log_level_is_a_config_error() -> None:
    from agent.service.config import ConfigError, parse_config, with_overrides

    with pytest.raises(ConfigError, match="log.level: must be one of debug, info"):
        parse_config({"mqtt": {"enabled": False}, "log": {"level": "loud"}})
    cfg = parse_config({"mqtt": {"enabled": False}, "log": {"level": "WARNING"}})
    assert with_overrides(cfg, log_level="debug").log.level == "debug"


def test_version_flag() -> None:
    from agent import __version__

    r = subprocess.run(
        [sys.executable, "-m", "agent.cli", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        timeout=60,
    )
    assert r.returncode == 0 and r.stdout.strip() == f"needled {__version__}"
    assert __version__.count(".") == 2
