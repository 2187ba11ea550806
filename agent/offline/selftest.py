"""`needled selftest`: on-device checks after install, printed as a pass/fail table.

Each check returns (status, detail) with status "pass", "fail" or "skip" (a skip always says
why). The command exits non-zero when any check fails. The same checks run under
`pytest -m ondevice` (tests/test_ondevice.py).
"""

from __future__ import annotations

import os
import platform
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agent.service.daemon import rss_mb, trim_heap

RSS_BUDGET_MB = 64.0
# with [voice] on, the recognizer (acoustic model, grammar search) adds its own share
VOICE_RSS_BUDGET_MB = 96.0


@dataclass
class Check:
    name: str
    status: str
    detail: str
    seconds: float = 0.0


def check_isa() -> tuple[str, str]:
    from agent.model.engine import native_available

    if not native_available():
        return "fail", "native kernels are not built (pip install the package to compile them)"
    from kernels import _native

    isa = _native.isa_name()
    return "pass", f"{isa} on {platform.machine()} ({_cpu_model()})"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu part")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown cpu"


def check_kernels() -> tuple[str, str]:
    """The chosen ISA's CQ matvec against the NumPy reference on this CPU."""
    from agent.model.cact import CQView
    from kernels import _native, cq

    rng = np.random.default_rng(0)
    worst = 0.0
    for bits in (2, 4):
        w = rng.standard_normal((64, 512)).astype(np.float32)
        packed, norms = cq.quantize(w, bits, 128)
        x = rng.standard_normal(512).astype(np.float32)
        want = cq.matvec(packed, norms, x, 512, bits, 128)
        view = CQView("w", 64, 512, bits, 128, packed, norms, cq.codebook(bits, 128))
        got = _native.CQKernel(view).matmul(x, "fp32")
        worst = max(worst, float(np.abs(got - want).max() / np.abs(want).max()))
    if worst > 1e-5:
        return "fail", f"CQ matvec differs from the reference by {worst:.2e} (limit 1e-5)"
    return "pass", f"{_native.isa_name()} CQ2/CQ4 FP32 matvec within {worst:.1e} of NumPy"


def check_model(model: str | None, tools: list[dict[str, Any]] | None) -> tuple[str, str]:
    """Load the model, answer one command, and stay within the memory budget."""
    from agent.calling.session import Session
    from agent.cli import default_model

    base = rss_mb() or 0.0
    tools = tools or _demo_tools()
    path = default_model(model, tools)
    t0 = time.perf_counter()
    s = Session(path, tools, backend="native")
    trim_heap()  # as the daemon does once warm, before it serves
    env = s.complete("turn on the kitchen light")
    dt = time.perf_counter() - t0
    total = rss_mb() or float("nan")
    if not env["success"]:
        return "fail", f"complete() failed: {env['error']}"
    detail = (
        f"{Path(path).name}: call {env['function_calls']} in {dt:.2f} s; RSS {total:.1f} MB "
        f"({total - base:+.1f} MB for model and session)"
    )
    if total > RSS_BUDGET_MB:
        return "fail", detail + f" > budget {RSS_BUDGET_MB:.0f} MB"
    return "pass", detail


def daemon_pids() -> list[int]:
    """PIDs of running ``needled run`` processes (the console script or ``-m agent.cli``)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:  # gone meanwhile, or another user's hidepid'd process
            continue
        args = [a.decode("utf-8", "replace") for a in argv if a]
        for i, a in enumerate(args[:-1]):
            launcher = Path(a).name == "needled" or (a == "agent.cli" and args[i - 1] == "-m")
            if launcher and args[i + 1] == "run":
                pids.append(int(entry.name))
                break
    return sorted(pids)


def check_daemons(pids: list[int] | None = None, budget_mb: float = RSS_BUDGET_MB) -> list[Check]:
    """The memory budget of the daemon that is actually serving (its total RSS)."""
    pids = daemon_pids() if pids is None else pids
    if not pids:
        return [Check("daemon", "skip", "no running `needled run` process")]
    out = []
    for pid in pids:
        rss = rss_mb(pid)
        if rss is None:
            out.append(Check(f"daemon {pid}", "fail", "process vanished or /proc unreadable"))
            continue
        ok = rss <= budget_mb
        detail = f"RSS {rss:.1f} MB ({'within' if ok else 'over'} {budget_mb:.0f} MB budget)"
        out.append(Check(f"daemon {pid}", "pass" if ok else "fail", detail))
    return out


def _demo_tools() -> list[dict[str, Any]]:
    from agent.service.config import load_config
    from devices import build_registry

    return build_registry(load_config(None).devices).tools()


def check_serial(ports: list[str]) -> list[Check]:
    out = []
    if not ports:
        return [Check("serial", "skip", "no serial port in the config")]
    for p in ports:
        if not os.path.exists(p):
            out.append(Check(f"serial {p}", "skip", "not present (device unplugged?)"))
        elif not os.access(p, os.R_OK | os.W_OK):
            out.append(Check(f"serial {p}", "fail", "present but not readable/writable"))
        else:
            out.append(Check(f"serial {p}", "pass", "present and accessible"))
    return out


def check_gpio(configured: bool) -> list[Check]:
    if not configured:
        return [Check("gpio", "skip", "no GPIO device in the config")]
    chips = sorted(Path("/dev").glob("gpiochip*"))
    if not chips:
        return [Check("gpio", "skip", "GPIO devices configured, but this board has no gpiochip")]
    out = []
    for c in chips:
        ok = os.access(c, os.R_OK | os.W_OK)
        out.append(
            Check(f"gpio {c}", "pass" if ok else "fail", "accessible" if ok else "no access")
        )
    return out


def check_notify() -> tuple[str, str]:
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return "skip", "not running under systemd (NOTIFY_SOCKET unset)"
    target = "\0" + addr[1:] if addr.startswith("@") else addr
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.connect(target)
        s.sendall(b"STATUS=selftest: sd_notify reachable")
    return "pass", f"datagram sent to {addr}"


def run_checks(
    config_path: str | None = None, model: str | None = None, pids: list[int] | None = None
) -> list[Check]:
    from agent.service.config import load_config

    cfg = load_config(config_path)
    checks: list[Check] = []

    def timed(name: str, fn: Callable[[], tuple[str, str]]) -> None:
        t = time.perf_counter()
        try:
            status, detail = fn()
        except Exception as e:  # noqa: BLE001 - a failing check is a row, not a crash
            status, detail = "fail", f"{type(e).__name__}: {e}"
        checks.append(Check(name, status, detail, time.perf_counter() - t))

    timed("isa", check_isa)
    timed("kernels", check_kernels)
    timed("model", lambda: check_model(model or cfg.model.path or None, None))
    checks += check_serial([cfg.serial.port] if cfg.serial.enabled and cfg.serial.port else [])
    checks += check_gpio(has_gpio(cfg))
    timed("sd_notify", check_notify)
    checks += check_daemons(pids, VOICE_RSS_BUDGET_MB if cfg.voice.enabled else RSS_BUDGET_MB)
    return checks


def has_gpio(cfg: Any) -> bool:
    return any(str(dev.get("kind", "")).startswith("gpio") for dev in cfg.devices.values())


def format_table(checks: list[Check]) -> str:
    w = max(len(c.name) for c in checks)
    lines = [f"{'check':<{w}}  status  detail"]
    for c in checks:
        lines.append(f"{c.name:<{w}}  {c.status.upper():<6}  {c.detail}")
    failed = sum(c.status == "fail" for c in checks)
    lines.append(f"{len(checks) - failed} passed or skipped, {failed} failed")
    return "\n".join(lines)
