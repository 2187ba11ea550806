"""`needled bench`, run as a user would: the report it writes is the project's record of speed."""

from __future__ import annotations

import hashlib
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agent.offline.bench import concurrent_read_bandwidth
from kernels import _native

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "agent" / "models" / "demo.cact"


def test_bench_on_the_demo_model_writes_a_consistent_report(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "agent.cli",
            "bench",
            "--model",
            str(DEMO),
            "--json",
            str(out),
            "--repeats",
            "1",
            "--warmups",
            "0",
            "--decode-tokens",
            "16",
            "--growth-tokens",
            "32",
            "--reference-tokens",
            "2",
            "--peak-iters",
            "10000",
            "--grammar-samples",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    rep = json.loads(out.read_text())
    # the keys the module docstring promises to other tools
    for key in (
        "decode_tok_s",
        "decode_subset_tok_s",
        "prefill_tok_s",
        "first_token_ms",
        "int8_peak_macs_per_s",
        "achieved_macs_per_s",
        "efficiency",
        "reference_decode_tok_s",
        "rss_model_mb",
        "rss_growth_mb",
    ):
        assert isinstance(rep[key], float) and math.isfinite(rep[key]) and rep[key] >= 0, key
    assert rep["model_sha256"] == hashlib.sha256(DEMO.read_bytes()).hexdigest()
    assert rep["isa"] == _native.isa_name() and rep["threads"] == 1

    gr = rep["grammar"]
    n = gr["session_threads"]
    assert n == 2
    for suffix in ("", "_threads_1"):
        pre = gr[f"complete_prefill_ms_median{suffix}"]
        per = gr[f"complete_decode_ms_per_token_median{suffix}"]
        assert pre > 0 and per > 0
        tail, tail_n = (
            gr[f"complete_tail_ms_median{suffix}"],
            gr[f"complete_tail_tokens_median{suffix}"],
        )
        # the demo model has no confidence head and the bench keeps no conversation: no tail
        assert tail == 0 and tail_n == 0
        assert gr[f"complete_ms_20_tokens{suffix}"] == pre + (20 - tail_n) * per + tail
    assert gr["complete_ms_20_tokens_perfect_scaling"] == gr["complete_ms_20_tokens_threads_1"] / n
    # a step reads at least the weights and the pinned tools' keys and values
    assert gr["step_mb"] > gr["tools_prefix_tokens"] * 1e-6
    floor_ms = 1e3 * gr["step_mb"] / (1e3 * gr["read_bandwidth_session_threads_gb_s"])
    assert math.isclose(gr["step_ms_bandwidth_floor"], floor_ms, rel_tol=1e-9)
    t = rep["targets"]["session_ms_20_tokens"]
    assert t["target"] == 25.0 and t["met"] == (gr["complete_ms_20_tokens"] <= 25.0)
    assert "Session.complete()" in rep["bounded_by"]
    assert "one thread / perfect scaling" in r.stdout


def test_read_probe_reads_every_word_and_refuses_a_short_buffer() -> None:
    buf = np.ones(128, np.uint8)
    assert _native.read_once(buf) == 16 * 0x0101010101010101
    buf[64] = 2  # the second cache line counts too
    assert _native.read_once(buf) == 16 * 0x0101010101010101 + 1
    with pytest.raises(ValueError, match="64 bytes"):
        _native.read_once(np.ones(32, np.uint8))
    bw = concurrent_read_bandwidth(1 << 20, 2, repeats=2)
    assert math.isfinite(bw) and bw > 1e8
