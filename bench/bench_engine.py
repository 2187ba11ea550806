"""Benchmark the native engine and write a JSON report (the numbers `needled bench` reports).

Usage: python -m bench.bench_engine [--model M.cact] [--threads N] [--mode int8] --json OUT.json

Without --model, a release-geometry model with random weights is made in memory
(`agent.makemodel.make_model("release")`), so nothing is downloaded. Every timing is the median
of `--repeats` runs after `--warmup` runs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import numpy as np


def _rss_kb(field: str = "VmRSS") -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "cpu model", "hardware")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _compiler() -> str:
    cc = sysconfig.get_config_var("CC") or "cc"
    try:
        out = subprocess.run(
            [cc.split()[0], "--version"], capture_output=True, text=True, timeout=10
        ).stdout
        return out.splitlines()[0] if out else cc
    except (OSError, subprocess.SubprocessError):
        return cc


def macs_per_token(g, subset: int | None = None) -> int:
    """Weight multiply-accumulates of one decode step (the CQ products; attention excluded)."""
    d = g.d_model
    per_layer = (2 * g.q_dim + 2 * g.kv_dim) * d + d * g.q_dim
    mhc = (2 * g.mhc_lanes + g.mhc_lanes**2) * g.mhc_lanes * d
    engram = len(g.engram_sites) * 2 * d * g.engram_dim
    out = (subset if subset else g.vocab) * d
    return g.num_layers * (per_layer + mhc) + engram + out


def _median(xs: list[float]) -> float:
    return float(statistics.median(xs))


def run(args: argparse.Namespace) -> dict:
    from agent.cact import read_cact
    from agent.engine import NativeEngine, default_threads
    from kernels import _native

    rss0 = _rss_kb()
    tmpdir = None
    if args.model:
        model_path = Path(args.model)
    else:
        from agent.makemodel import make_model

        tmpdir = tempfile.TemporaryDirectory()
        model_path = Path(tmpdir.name) / "release.cact"
        model_path.write_bytes(make_model("release", seed=0))
    sha = hashlib.sha256(model_path.read_bytes()).hexdigest()
    threads = args.threads or default_threads()
    rng = np.random.default_rng(0)

    load_s = []
    for _ in range(max(1, args.repeats)):
        t0 = time.perf_counter()
        cf = read_cact(model_path)
        eng = NativeEngine(cf, args.mode, window=args.window, sinks=args.sinks, threads=threads)
        load_s.append(time.perf_counter() - t0)
    g = cf.geometry
    vocab = g.vocab
    ids = rng.integers(16, vocab, 4000).astype(np.int32)

    def timed(fn, n_warm: int, n_rep: int) -> list[float]:
        for _ in range(n_warm):
            fn()
        out = []
        for _ in range(n_rep):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
        return out

    prefill = {}
    first_token = []
    for n in (200, 600):

        def pf(n: int = n) -> None:
            eng.reset()
            eng.prefill(ids[:n], last_only=True)

        prefill[n] = n / _median(timed(pf, args.warmup, args.repeats))

    def first() -> None:
        eng.reset()
        eng.prefill(ids[:200], last_only=True)

    for _ in range(args.repeats):
        eng.reset()
        t0 = time.perf_counter()
        eng.prefill(ids[:200], last_only=True)
        first_token.append((time.perf_counter() - t0) * 1e3)

    cand = rng.choice(vocab, 16, replace=False).astype(np.int32)
    decode_n = args.decode_tokens

    def decode(candidates: np.ndarray | None) -> float:
        eng.reset()
        eng.prefill(ids[:200], last_only=True)
        t0 = time.perf_counter()
        for t in ids[200 : 200 + decode_n]:
            eng.step(int(t), candidates)
        return decode_n / (time.perf_counter() - t0)

    for _ in range(args.warmup):
        decode(None)
    dec = [decode(None) for _ in range(args.repeats)]
    dec_sub = [decode(cand) for _ in range(args.repeats)]

    # per-stage profile of a decode run
    eng.reset()
    eng.prefill(ids[:200], last_only=True)
    eng.reset()
    for t in ids[:decode_n]:
        eng.step(int(t))
    stages = eng.stage_times_ns()
    total = sum(stages.values()) or 1.0
    profile = {k: round(v / total, 4) for k, v in stages.items()}

    # RSS growth over a long run (window keeps the cache bounded)
    rss_model = _rss_kb()
    eng.reset()
    for i in range(args.growth_tokens):
        eng.step(int(ids[i % ids.size]))
    rss_after = _rss_kb()

    peak_macs, peak_s = _native.int8_peak(args.peak_iters, eng.isa)
    peak = peak_macs / peak_s
    achieved = macs_per_token(g) * _median(dec)

    ref_tok_s = None
    if args.reference_tokens > 0:
        try:
            from agent.reference import ReferenceModel

            ref = ReferenceModel(cf)
            st = ref.new_state(args.window, args.sinks)
            ref.forward(ids[:32], st)
            t0 = time.perf_counter()
            for t in ids[32 : 32 + args.reference_tokens]:
                ref.forward([int(t)], st)
            ref_tok_s = args.reference_tokens / (time.perf_counter() - t0)
        except Exception as e:  # noqa: BLE001 - the report says why the ratio is missing
            ref_tok_s = None
            print(f"reference not measured: {e}", file=sys.stderr)

    report = {
        "decode_tok_s": _median(dec),
        "decode_subset_tok_s": _median(dec_sub),
        "prefill_tok_s": prefill[600],
        "prefill_200_tok_s": prefill[200],
        "prefill_600_tok_s": prefill[600],
        "first_token_ms": _median(first_token),
        "load_s": _median(load_s),
        "int8_peak_macs_per_s": peak,
        "achieved_macs_per_s": achieved,
        "efficiency": achieved / peak,
        "macs_per_token": macs_per_token(g),
        "reference_decode_tok_s": ref_tok_s,
        "speedup_vs_reference": (_median(dec) / ref_tok_s) if ref_tok_s else None,
        "rss_model_mb": (rss_model - rss0) / 1024.0,
        "rss_growth_mb": (rss_after - rss_model) / 1024.0,
        "rss_growth_tokens": args.growth_tokens,
        "peak_rss_mb": _rss_kb("VmHWM") / 1024.0,
        "engine_budget_mb": eng.memory_budget_bytes / 2**20,
        "isa": eng.isa,
        "threads": threads,
        "mode": args.mode,
        "window": args.window,
        "sinks": args.sinks,
        "model_sha256": sha,
        "model": str(model_path) if args.model else "make_model('release', seed=0)",
        "geometry": {
            k: getattr(g, k)
            for k in ("vocab", "d_model", "num_layers", "num_heads", "num_kv_heads", "head_dim")
        },
        "warmup": args.warmup,
        "repeats": args.repeats,
        "decode_tokens": decode_n,
        "stage_fractions": profile,
        "machine": {
            "cpu": _cpu_model(),
            "arch": platform.machine(),
            "logical_cpus": os.cpu_count(),
            "isa_paths": _native.isa_paths(),
        },
        "compiler": _compiler(),
        "cflags": "-O3 -std=gnu11 -ffp-contract=off -fno-math-errno (+ per-function targets)",
    }
    if tmpdir is not None:
        tmpdir.cleanup()
    return report


def table(r: dict) -> str:
    rows = [
        ("isa / threads / mode", f"{r['isa']} / {r['threads']} / {r['mode']}"),
        ("decode tok/s (full vocab)", f"{r['decode_tok_s']:.0f}"),
        ("decode tok/s (16 candidates)", f"{r['decode_subset_tok_s']:.0f}"),
        (
            "prefill tok/s (200 / 600)",
            f"{r['prefill_200_tok_s']:.0f} / {r['prefill_600_tok_s']:.0f}",
        ),
        ("first token ms (200-token prompt)", f"{r['first_token_ms']:.1f}"),
        (
            "int8 efficiency",
            f"{r['efficiency'] * 100:.1f}% of {r['int8_peak_macs_per_s'] / 1e9:.0f} GMAC/s",
        ),
        ("reference decode tok/s", f"{r['reference_decode_tok_s'] or float('nan'):.1f}"),
        ("RSS model / growth MB", f"{r['rss_model_mb']:.1f} / {r['rss_growth_mb']:.2f}"),
    ]
    w = max(len(a) for a, _ in rows)
    return "\n".join(f"{a:<{w}}  {b}" for a, b in rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--mode", choices=("int8", "fp32"), default="int8")
    p.add_argument("--window", type=int, default=256)
    p.add_argument("--sinks", type=int, default=64)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--decode-tokens", type=int, default=200)
    p.add_argument("--growth-tokens", type=int, default=2000)
    p.add_argument("--reference-tokens", type=int, default=8)
    p.add_argument("--peak-iters", type=int, default=5_000_000)
    p.add_argument("--json", required=True)
    args = p.parse_args(argv)
    r = run(args)
    Path(args.json).write_text(json.dumps(r, indent=2) + "\n")
    print(table(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
