"""`needled bench`: benchmark the native engine and the grammar; write a JSON report and a table.

    needled bench [--model M.cact] [--threads N] [--mode int8|fp32] --json OUT.json
                  [--repeats R] [--warmups W]

Without --model a release-geometry model with random weights is made with
`agent.model.makemodel.make_model("release", seed=0)` into a temporary file (nothing is downloaded).
Every timing is the median of `--repeats` runs after `--warmups` runs. Timings are wall clock;
the report also gives decode speed in process CPU time and the load average, because on a shared
machine the wall clock includes time the process spent waiting for a core.

Top-level keys other tools rely on: decode_tok_s, decode_subset_tok_s, prefill_tok_s (600-token
prompt), first_token_ms, int8_peak_macs_per_s, achieved_macs_per_s, efficiency,
reference_decode_tok_s, rss_model_mb, rss_growth_mb, isa, threads, model_sha256.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from agent.model.cact import CactFile, Geometry

CFLAGS = "-O3 -std=gnu11 -ffp-contract=off -fno-math-errno (+ per-function target attributes)"
TARGETS = {  # issue 3 (release geometry, int8, 1 thread) and issue 4 (grammar)
    "decode_tok_s": 1000.0,
    "efficiency": 0.35,
    "prefill_tok_s": 3000.0,
    "fp32_decode_tok_s": 300.0,
    "rss_mb": 28.0,
    "session_ms_20_tokens": 25.0,
}
STAGES = ("embed", "qkvg", "attention", "out_proj", "mlp", "engram", "mhc", "logits")


# -- machine --------------------------------------------------------------------------------------
def _status_kb(field: str) -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_mb() -> float:
    return _status_kb("VmRSS") / 1024.0


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith(("model name", "cpu model", "hardware")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def compiler() -> str:
    cc = sysconfig.get_config_var("CC") or "cc"
    try:
        out = subprocess.run(
            [cc.split()[0], "--version"], capture_output=True, text=True, timeout=10
        ).stdout
        return out.splitlines()[0] if out else cc
    except (OSError, subprocess.SubprocessError):
        return cc


def load_average() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def macs_per_token(g: Any, rows: int | None = None) -> int:
    """Weight multiply-accumulates of one decode step (the CQ products; attention excluded)."""
    d = g.d_model
    per_layer = (2 * g.q_dim + 2 * g.kv_dim) * d + d * g.q_dim
    mhc = (2 * g.mhc_lanes + g.mhc_lanes**2) * g.mhc_lanes * d
    engram = len(g.engram_sites) * 2 * d * g.engram_dim
    out = (rows if rows is not None else g.vocab) * d
    return g.num_layers * (per_layer + mhc) + engram + out


def _median(xs: list[float]) -> float:
    return float(statistics.median(xs)) if xs else float("nan")


def _timed(fn: Callable[[], Any], warmups: int, repeats: int) -> list[float]:
    for _ in range(warmups):
        fn()
    out = []
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


# -- engine ---------------------------------------------------------------------------------------
def bench_engine(model_path: Path, args: argparse.Namespace) -> dict[str, Any]:
    from agent.model.cact import read_cact
    from agent.model.engine import NativeEngine
    from kernels import _native

    rss0 = rss_mb()
    t0 = time.perf_counter()
    cf = read_cact(model_path)
    eng = NativeEngine(cf, args.mode, window=args.window, sinks=args.sinks, threads=args.threads)
    load_first = time.perf_counter() - t0
    load_s = [load_first]
    for _ in range(max(0, args.repeats - 1)):
        t0 = time.perf_counter()
        cf2 = read_cact(model_path)
        NativeEngine(cf2, args.mode, window=args.window, sinks=args.sinks, threads=args.threads)
        load_s.append(time.perf_counter() - t0)
        del cf2
    g = cf.geometry
    rng = np.random.default_rng(0)
    ids = rng.integers(16, g.vocab, 4000).astype(np.int32)

    prefill: dict[int, float] = {}
    for n in (200, 600):

        def pf(n: int = n) -> None:
            eng.reset()
            eng.prefill(ids[:n], last_only=True)

        prefill[n] = n / _median(_timed(pf, args.warmups, args.repeats))

    # first token: a fresh 200-token prompt to the logits of its first generated token
    first = [1e3 * t for t in _timed(lambda: pf(200), 0, args.repeats)]

    cand = rng.choice(g.vocab, 16, replace=False).astype(np.int32)
    n_dec = args.decode_tokens

    def decode(candidates: np.ndarray | None) -> tuple[float, float]:
        eng.reset()
        eng.prefill(ids[:200], last_only=True)
        c0, t0 = time.process_time(), time.perf_counter()
        for t in ids[200 : 200 + n_dec]:
            eng.step(int(t), candidates)
        return n_dec / (time.perf_counter() - t0), n_dec / max(time.process_time() - c0, 1e-9)

    for _ in range(args.warmups):
        decode(None)
    dec = [decode(None) for _ in range(max(1, args.repeats))]
    dec_sub = [decode(cand) for _ in range(max(1, args.repeats))]
    decode_tok_s = _median([d[0] for d in dec])

    # per-stage profile of decode steps (after a 200-token prompt)
    eng.reset()
    eng.prefill(ids[:200], last_only=True)
    base = eng.stage_times_ns()
    for t in ids[200 : 200 + n_dec]:
        eng.step(int(t))
    stages = {k: v - base[k] for k, v in eng.stage_times_ns().items()}
    total = sum(stages.values()) or 1.0
    stage_us = {k: round(v / n_dec / 1e3, 2) for k, v in stages.items()}
    stage_frac = {k: round(v / total, 4) for k, v in stages.items()}

    # RSS: after loading and the runs above, and growth over a long decode (bounded window)
    rss_model = rss_mb() - rss0
    rss_before = rss_mb()
    eng.reset()
    for i in range(args.growth_tokens):
        eng.step(int(ids[i % ids.size]))
    rss_growth = rss_mb() - rss_before

    # int8 MAC peak: the simple SIMD loop (8 independent dot-product chains), and the blocked
    # product on 32 tokens, which on some cores outruns that loop; the peak is the larger, so
    # the efficiency is never flattered by a loop that does not saturate the core.
    loop = []
    for _ in range(5):
        macs, secs = _native.int8_peak(args.peak_iters, eng.isa)
        loop.append(macs / secs)
    kern = _native.CQKernel(cf.cq("embedding"))
    xb = rng.standard_normal((32, kern.cols)).astype(np.float32)
    kern.matmul(xb, "int8", eng.isa)
    blocked = []
    for _ in range(5):
        t0 = time.perf_counter()
        kern.matmul(xb, "int8", eng.isa)
        blocked.append(kern.rows * kern.cols * 32 / (time.perf_counter() - t0))
    peak = max(max(loop), max(blocked))
    achieved = macs_per_token(g) * decode_tok_s

    # bytes a decode step streams: the weights, and the attended KV
    wbytes = streamed_weight_bytes(cf)
    keys = min(args.sinks, 200) + min(args.window, 200 + n_dec - min(args.sinks, 200))
    kvbytes = kv_bytes(g, keys, args.mode)
    bw = _native.read_bandwidth()
    traffic = {
        "weights_mb_per_token": wbytes / 1e6,
        "kv_mb_per_token": kvbytes / 1e6,
        "achieved_gb_s": (wbytes + kvbytes) * decode_tok_s / 1e9,
        "read_bandwidth_probe_gb_s": bw / 1e9,
        "bandwidth_bound_tok_s": bw / (wbytes + kvbytes),
    }

    # threads: prefill speed and identical results for 1 and 2 threads
    scaling: dict[str, Any] = {}
    outs = []
    for th in (1, 2):
        e2 = NativeEngine(cf, args.mode, window=args.window, sinks=args.sinks, threads=th)

        def pf2(e2: NativeEngine = e2) -> None:
            e2.reset()
            e2.prefill(ids[:600], last_only=True)

        scaling[f"prefill_600_tok_s_threads_{th}"] = 600 / _median(
            _timed(pf2, args.warmups, args.repeats)
        )
        e2.reset()
        outs.append(e2.prefill(ids[:64]).copy())
        del e2
    scaling["identical_results"] = bool(np.array_equal(outs[0], outs[1]))

    ref_tok_s = None
    if args.reference_tokens > 0:
        from agent.model.reference import ReferenceModel

        ref = ReferenceModel(cf)
        st = ref.new_state(args.window, args.sinks)
        ref.forward(ids[:32], st)
        t0 = time.perf_counter()
        for t in ids[32 : 32 + args.reference_tokens]:
            ref.forward([int(t)], st)
        ref_tok_s = args.reference_tokens / (time.perf_counter() - t0)

    return {
        "decode_tok_s": decode_tok_s,
        "decode_subset_tok_s": _median([d[0] for d in dec_sub]),
        "decode_cpu_tok_s": _median([d[1] for d in dec]),
        "prefill_tok_s": prefill[600],
        "prefill_200_tok_s": prefill[200],
        "prefill_600_tok_s": prefill[600],
        "first_token_ms": _median(first),
        "load_ms": 1e3 * _median(load_s),
        "int8_peak_macs_per_s": peak,
        "int8_peak_loop_macs_per_s": max(loop),
        "int8_blocked_kernel_macs_per_s": max(blocked),
        "achieved_macs_per_s": achieved,
        "efficiency": achieved / peak,
        "macs_per_token": macs_per_token(g),
        "reference_decode_tok_s": ref_tok_s,
        "speedup_vs_reference": decode_tok_s / ref_tok_s if ref_tok_s else None,
        "rss_model_mb": rss_model,
        "rss_growth_mb": rss_growth,
        "rss_growth_tokens": args.growth_tokens,
        "peak_rss_mb": _status_kb("VmHWM") / 1024.0,
        "engine_budget_mb": eng.memory_budget_bytes / 2**20,
        "isa": eng.isa,
        "isa_paths": _native.isa_paths(),
        "thread_scaling": scaling,
        "memory_traffic": traffic,
        "stage_us_per_token": stage_us,
        "stage_fractions": stage_frac,
        "geometry": {
            k: getattr(g, k)
            for k in (
                "vocab",
                "d_model",
                "num_layers",
                "num_heads",
                "num_kv_heads",
                "head_dim",
                "mhc_lanes",
                "hada_n",
            )
        },
    }


# -- grammar (issue 4) ---------------------------------------------------------------------------
_WORDS = ["light", "weather", "timer", "alarm", "music", "door", "fan", "heater", "camera", "note"]
_VERBS = ["set", "get", "start", "stop", "toggle", "add", "remove", "list", "play", "lock"]
_PLACES = ["kitchen", "Oslo", "garage", "Zürich", "bedroom", "Lagos"]


def tool_set(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """n tool schemas with strings, enums, integer and number ranges, booleans, optionals."""
    rng = random.Random(seed)
    tools = []
    for i in range(n):
        name = f"{_VERBS[i % len(_VERBS)]}_{_WORDS[(i // len(_VERBS) + i) % len(_WORDS)]}"
        if i >= len(_VERBS):
            name += f"_{i}"
        props: dict[str, Any] = {
            "target": {"type": "string", "description": "device or place", "maxLength": 32},
            "mode": {"type": "string", "enum": rng.sample(["auto", "on", "off", "eco", "max"], 3)},
            "level": {"type": "integer", "minimum": 0, "maximum": 100},
            "seconds": {"type": "number", "minimum": 0, "maximum": 3600},
            "confirm": {"type": "boolean"},
        }
        tools.append(
            {
                "name": name,
                "description": f"{name.replace('_', ' ')} on a home device",
                "parameters": {
                    "type": "object",
                    "properties": props,
                    "required": ["target"] + (["level"] if i % 2 else []),
                },
            }
        )
    return tools


def sample_calls(tools: list[dict[str, Any]], n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        t = rng.choice(tools)
        required = t["parameters"]["required"]
        args: dict[str, Any] = {"target": rng.choice(_PLACES)}
        if "level" in required or rng.random() < 0.4:
            args["level"] = rng.randint(0, 100)
        if rng.random() < 0.4:
            args["mode"] = rng.choice(t["parameters"]["properties"]["mode"]["enum"])
        order = list(t["parameters"]["properties"])
        call = {"name": t["name"], "arguments": {k: args[k] for k in order if k in args}}
        out.append(json.dumps([call], separators=(",", ":"), ensure_ascii=False))
    return out


def bench_grammar(model_path: Path, args: argparse.Namespace) -> dict[str, Any]:
    from agent.calling.grammar import compile_calls
    from agent.calling.session import Session
    from agent.calling.tools import load_tools

    report: dict[str, Any] = {}
    compile_ms = {}
    for n in (5, 50):
        tools = load_tools(tool_set(n))
        times = _timed(lambda tools=tools: compile_calls(tools), 0, max(3, args.repeats))
        compile_ms[f"{n}_tools"] = 1e3 * _median(times)
    report["compile_ms"] = compile_ms

    tools5 = tool_set(5)
    t0 = time.perf_counter()
    sess = Session(
        str(model_path), tools5, backend="native", threads=args.session_threads, max_new_tokens=48
    )
    report["session_open_ms"] = 1e3 * (time.perf_counter() - t0)
    report["session_threads"] = args.session_threads
    report["tools_prefix_tokens"] = len(sess.prefix_for(sess.tools).ids)
    masker = sess.masker_for(sess.tools, False)
    aut = masker.automaton
    cold: list[float] = []
    cached: list[float] = []
    steps = forced = refused = 0
    seen: set[int] = set()
    for text in sample_calls(tools5, args.grammar_samples):
        state = aut.start
        for tid in [*sess.tok.encode_continuation(text), 11]:
            t1 = time.perf_counter()
            allowed = masker.allowed(state)
            dt = time.perf_counter() - t1
            (cached if state in seen else cold).append(dt)
            seen.add(state)
            steps += 1
            forced += masker.forced(state) is not None
            if tid not in set(np.asarray(allowed).tolist()):
                refused += 1
                break
            state = masker.advance_token(state, tid)
    report["mask_us_median"] = 1e6 * _median(cold + cached)
    report["mask_cold_us_median"] = 1e6 * _median(cold)
    report["mask_cached_us_median"] = 1e6 * _median(cached)
    report["mask_steps"] = steps
    report["forced_single_token_share"] = forced / max(steps, 1)
    report["teacher_tokens_refused"] = refused

    # end to end: Session.complete() with the tools prefix warm (the first call warms it), at
    # the session's thread count and on one thread, alternating call by call so that both see
    # the same phases of a shared machine: their ratio is the thread scaling of a real call
    queries = ["turn the kitchen light on", "set the heater to 21 in the bedroom", "stop music"]
    one = Session(str(model_path), tools5, backend="native", threads=1, max_new_tokens=48)
    sess.complete(queries[0])
    one.complete(queries[0])
    runs: list[dict[str, Any]] = []
    runs1: list[dict[str, Any]] = []
    for i in range(max(3, args.repeats * 2)):
        for s, out in ((sess, runs), (one, runs1)):
            env = s.complete(queries[i % len(queries)])
            out.append(env.get("timings") or {})
    report.update(_complete_stats(runs, ""))
    report.update(_complete_stats(runs1, "_threads_1"))
    report["complete_timings"] = runs[:3]
    report["complete_ms_20_tokens_perfect_scaling"] = (
        report["complete_ms_20_tokens_threads_1"] / args.session_threads
    )

    # what a decode step of the session must stream, and how fast all the session's threads
    # together can read that much
    cf = sess.engine.cf
    keys = report["tools_prefix_tokens"] + 32  # the pinned tools, a query and a call
    step_bytes = streamed_weight_bytes(cf) + kv_bytes(cf.geometry, keys, "int8")
    bw = concurrent_read_bandwidth(step_bytes, args.session_threads)
    report["step_mb"] = step_bytes / 1e6
    report["read_bandwidth_session_threads_gb_s"] = bw / 1e9
    report["step_ms_bandwidth_floor"] = 1e3 * step_bytes / bw
    return report


def _complete_stats(runs: list[dict[str, Any]], suffix: str) -> dict[str, Any]:
    total = [r.get("total_ms", float("nan")) for r in runs]
    gen = [r.get("generated_tokens", 0) for r in runs]
    pre = [r.get("prefill_ms", float("nan")) for r in runs]
    dec = [r.get("decode_ms", float("nan")) for r in runs]
    tail = [r.get("tail_ms", 0.0) for r in runs]
    tail_n = [r.get("tail_tokens", 0) for r in runs]
    # a token's decode step, without the pass that feeds the turn's tail once the call is done
    per_tok = [
        (d - t) / (g - n) for d, t, g, n in zip(dec, tail, gen, tail_n, strict=True) if g > n
    ]
    n_tail = _median([float(x) for x in tail_n])
    return {
        f"complete_ms_median{suffix}": _median(total),
        f"complete_generated_tokens_median{suffix}": _median([float(x) for x in gen]),
        f"complete_prefill_ms_median{suffix}": _median(pre),
        f"complete_decode_ms_per_token_median{suffix}": _median(per_tok),
        f"complete_tail_ms_median{suffix}": _median(tail),
        f"complete_tail_tokens_median{suffix}": n_tail,
        # the random-weight model's calls have arbitrary length: scale to a ~20-token call (the
        # tail pass once, the other tokens a step each)
        f"complete_ms_20_tokens{suffix}": _median(pre)
        + (20 - n_tail) * _median(per_tok)
        + _median(tail),
    }


def streamed_weight_bytes(cf: CactFile) -> int:
    """Bytes of weights a decode step reads: every tensor but the tokenizer, the engram tables
    (a few rows per token) and the heads (once per call)."""
    return sum(
        t.nbytes
        for t in cf.tensors
        if not (
            t.name == "tokenizer"
            or t.name.endswith(".tables")
            or t.name.startswith(("contrastive_head", "confidence_head", "heads."))
        )
    )


def kv_bytes(g: Geometry, keys: int, mode: str) -> int:
    """Bytes of KV cache a token attending `keys` keys reads in every layer: int8 keys and values
    with one FP32 scale per head each, or FP32 keys and values."""
    if mode == "int8":
        return g.num_layers * keys * (2 * g.kv_dim + 2 * g.num_kv_heads * 4)
    return g.num_layers * keys * 2 * g.kv_dim * 4


def _timed_read(buf: np.ndarray, start: Any, spans: list[tuple[float, float]]) -> None:
    from kernels import _native

    _native.read_once(buf)  # warm: the timed read finds the buffer where a step finds its data
    start.wait()
    t0 = time.perf_counter()
    _native.read_once(buf)
    spans.append((t0, time.perf_counter()))


def concurrent_read_bandwidth(nbytes: int, threads: int, repeats: int = 5) -> float:
    """Bytes/s that `threads` threads read together, each streaming its own share of `nbytes`
    (buffers touched first; the best of `repeats` rounds, from the first start to the last end)."""
    import threading

    share = max(64, nbytes // max(threads, 1) // 64 * 64)
    bufs = [np.ones(share, np.uint8) for _ in range(threads)]
    best = 0.0
    for _ in range(repeats):
        start = threading.Barrier(threads)
        spans: list[tuple[float, float]] = []
        ts = [threading.Thread(target=_timed_read, args=(b, start, spans)) for b in bufs]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        wall = max(e for _, e in spans) - min(s for s, _ in spans)
        best = max(best, share * threads / wall)
    return best


# -- report ---------------------------------------------------------------------------------------
def targets(r: dict[str, Any], mode: str) -> dict[str, Any]:
    out: dict[str, Any] = {}

    def add(name: str, value: float | None, want: float, higher: bool = True) -> None:
        if value is None or value != value:
            out[name] = {"target": want, "value": None, "met": False}
            return
        met = value >= want if higher else value <= want
        gap = (want / value if higher else value / want) if value else float("inf")
        out[name] = {"target": want, "value": round(value, 4), "met": met, "factor_short": gap}

    if mode == "int8":
        add("decode_tok_s", r["decode_tok_s"], TARGETS["decode_tok_s"])
        add("efficiency", r["efficiency"], TARGETS["efficiency"])
        add("prefill_tok_s", r["prefill_tok_s"], TARGETS["prefill_tok_s"])
    else:
        add("fp32_decode_tok_s", r["decode_tok_s"], TARGETS["fp32_decode_tok_s"])
    gr = r.get("grammar") or {}
    if "complete_ms_20_tokens" in gr:
        add("session_ms_20_tokens", gr["complete_ms_20_tokens"], 25.0, higher=False)
    return out


def bounds(r: dict[str, Any]) -> str:
    us = r["stage_us_per_token"]
    tot = sum(us.values()) or 1.0
    kern = us["qkvg"] + us["out_proj"] + us["logits"]
    parts = ", ".join(f"{k} {v:.0f} us ({100 * v / tot:.0f}%)" for k, v in us.items())
    mt = r["memory_traffic"]
    return (
        f"decode step {tot:.0f} us: {parts}. The CQ products (qkvg, out_proj, logits, and the "
        f"mHC/engram projections inside their stages) take {kern:.0f} us of it; attention over "
        f"the window (int8 q.k, softmax, V accumulation) and the per-token vector work take the "
        f"rest. A step streams {mt['weights_mb_per_token']:.1f} MB of weights and "
        f"{mt['kv_mb_per_token']:.1f} MB of KV cache ({mt['achieved_gb_s']:.1f} GB/s achieved; "
        f"this core reads {mt['read_bandwidth_probe_gb_s']:.1f} GB/s at best, so bandwidth alone "
        f"caps decode near {mt['bandwidth_bound_tok_s']:.0f} tok/s). Wall-clock decode "
        f"{r['decode_tok_s']:.0f} tok/s vs {r['decode_cpu_tok_s']:.0f} tok/s in CPU time "
        f"(load average {r['load_average']}: the 2 cores are shared)." + _session_bounds(r)
    )


def _session_bounds(r: dict[str, Any]) -> str:
    gr = r.get("grammar") or {}
    if "complete_ms_20_tokens_threads_1" not in gr:
        return ""
    n = gr["session_threads"]
    tail_n = gr["complete_tail_tokens_median"]
    return (
        f" Session.complete() of a ~20-token call with the {gr['tools_prefix_tokens']}-token "
        f"tools prefix warm: {gr['complete_prefill_ms_median']:.1f} ms of prompt + "
        f"{20 - tail_n:.0f} tokens at {gr['complete_decode_ms_per_token_median']:.2f} ms + "
        f"the {tail_n:.0f}-token tail pass in {gr['complete_tail_ms_median']:.1f} ms = "
        f"{gr['complete_ms_20_tokens']:.1f} ms on {n} threads; on one thread "
        f"{gr['complete_ms_20_tokens_threads_1']:.1f} ms, so even perfect scaling over {n} "
        f"threads would give {gr['complete_ms_20_tokens_perfect_scaling']:.1f} ms. A step of "
        f"the session streams {gr['step_mb']:.1f} MB (weights and the int8 K/V of the pinned "
        f"tools), which {n} threads read in {gr['step_ms_bandwidth_floor']:.2f} ms at best "
        f"({gr['read_bandwidth_session_threads_gb_s']:.1f} GB/s together)."
    )


def table(r: dict[str, Any]) -> str:
    gr = r.get("grammar") or {}
    rows = [
        ("machine", f"{r['machine']['cpu']} ({r['machine']['cores']} cores)"),
        ("isa / threads / mode", f"{r['isa']} / {r['threads']} / {r['mode']}"),
        ("compiler", r["compiler"]),
        ("model", f"{r['model_sha256'][:16]}  load {r['load_ms']:.0f} ms"),
        ("warm-ups / repeats", f"{r['warmups']} / {r['repeats']}"),
        ("decode tok/s (full vocab)", f"{r['decode_tok_s']:.0f}"),
        ("decode tok/s (16 candidates)", f"{r['decode_subset_tok_s']:.0f}"),
        (
            "prefill tok/s (200 / 600)",
            f"{r['prefill_200_tok_s']:.0f} / {r['prefill_600_tok_s']:.0f}",
        ),
        ("first token ms (200-token prompt)", f"{r['first_token_ms']:.1f}"),
        (
            "int8 MAC efficiency",
            f"{100 * r['efficiency']:.1f}% of {r['int8_peak_macs_per_s'] / 1e9:.0f} GMAC/s",
        ),
        ("reference decode tok/s", f"{r['reference_decode_tok_s'] or float('nan'):.1f}"),
        (
            "RSS model / growth / peak MB",
            f"{r['rss_model_mb']:.1f} / {r['rss_growth_mb']:.2f} / {r['peak_rss_mb']:.0f}",
        ),
    ]
    if gr:
        rows += [
            (
                "grammar compile ms (5 / 50 tools)",
                f"{gr['compile_ms']['5_tools']:.1f} / {gr['compile_ms']['50_tools']:.1f}",
            ),
            (
                "mask us/step, forced share",
                f"{gr['mask_us_median']:.1f}, {100 * gr['forced_single_token_share']:.0f}%",
            ),
            ("complete() ms (~20-token call)", f"{gr['complete_ms_20_tokens']:.1f}"),
            (
                "  one thread / perfect scaling",
                f"{gr['complete_ms_20_tokens_threads_1']:.1f} / "
                f"{gr['complete_ms_20_tokens_perfect_scaling']:.1f}",
            ),
            (
                "  step MB / bandwidth floor ms",
                f"{gr['step_mb']:.1f} / {gr['step_ms_bandwidth_floor']:.2f}",
            ),
        ]
    for name, t in r["targets"].items():
        rows.append(
            (f"target {name}", f"{t['value']} vs {t['target']}: {'met' if t['met'] else 'MISSED'}")
        )
    w = max(len(a) for a, _ in rows)
    return "\n".join(f"{a:<{w}}  {b}" for a, b in rows)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from agent.model.engine import default_threads, physical_cores

    tmp = None
    if args.model:
        model_path = Path(args.model)
    else:
        from agent.model.makemodel import make_model

        tmp = tempfile.TemporaryDirectory()
        model_path = Path(tmp.name) / "release.cact"
        model_path.write_bytes(make_model("release", seed=0))
    args.threads = args.threads or default_threads()
    try:
        sha = hashlib.sha256(model_path.read_bytes()).hexdigest()
        load0 = load_average()
        r = bench_engine(model_path, args)
        if not args.no_grammar:
            r["grammar"] = bench_grammar(model_path, args)
    finally:
        if tmp is not None:
            tmp.cleanup()
    r.update(
        {
            "threads": args.threads,
            "mode": args.mode,
            "window": args.window,
            "sinks": args.sinks,
            "model_sha256": sha,
            "model": str(args.model) if args.model else "make_model('release', seed=0)",
            "warmups": args.warmups,
            "repeats": args.repeats,
            "decode_tokens": args.decode_tokens,
            "machine": {
                "cpu": cpu_model(),
                "arch": platform.machine(),
                "cores": physical_cores(),
                "logical_cpus": os.cpu_count(),
            },
            "compiler": compiler(),
            "cflags": CFLAGS,
            "python": sys.version.split()[0],
            "load_average": [load0, load_average()],
        }
    )
    r["targets"] = targets(r, args.mode)
    r["bounded_by"] = bounds(r)
    return r


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="needled bench", description=__doc__.splitlines()[0])
    p.add_argument("--model", help="a .cact file (default: make_model('release', seed=0))")
    p.add_argument("--threads", type=int, default=1, help="engine threads (default 1)")
    p.add_argument("--mode", choices=("int8", "fp32"), default="int8")
    p.add_argument("--json", required=True, help="where to write the report")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--warmups", type=int, default=1)
    p.add_argument("--window", type=int, default=256)
    p.add_argument("--sinks", type=int, default=64)
    p.add_argument("--decode-tokens", type=int, default=200)
    p.add_argument("--growth-tokens", type=int, default=2000)
    p.add_argument("--reference-tokens", type=int, default=8)
    p.add_argument("--peak-iters", type=int, default=3_000_000)
    p.add_argument("--grammar-samples", type=int, default=30)
    p.add_argument(
        "--session-threads",
        type=int,
        default=2,
        help="engine threads of the Session.complete() section (default 2, the daemon's default)",
    )
    p.add_argument("--no-grammar", action="store_true", help="skip the grammar section")
    p.add_argument(
        "--voice",
        action="store_true",
        help="the voice path instead: audio-to-reply latency of a 2 s command, ASR real-time "
        "factor, RSS of `needled run` with voice on (needs the `voice` extra)",
    )
    args = p.parse_args(argv)
    if args.voice:
        from agent.offline.voice_bench import run_voice_bench
        from agent.offline.voice_bench import table as voice_table

        r = run_voice_bench(args.model, repeats=max(args.repeats, 5), threads=args.session_threads)
        out = Path(args.json)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(r, indent=2, ensure_ascii=False) + "\n")
        print(voice_table(r))
        return 0
    r = run(args)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(r, indent=2, ensure_ascii=False) + "\n")
    print(table(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
