"""The native engine against the golden vectors (produced by the vendor's reference package).

FP32 mode: the golden README's tolerance, max |delta| <= 1e-4 * max |value| with the same argmax
at every row. int8 mode: its error is measured and bounded here (and stated in the report):
top-1 agreement with the reference on every golden row and the max relative logit error.
"""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from agent.cact import read_cact

engine_mod = pytest.importorskip("agent.engine")
if not engine_mod.native_available():
    pytest.skip("compiled kernels not built", allow_module_level=True)
NativeEngine = engine_mod.NativeEngine

GOLDEN = "/work/shared/golden"
FP32_REL = 1e-4
# int8 mode, measured on both golden files: max relative logit error 3.5e-3 (tiny) and 3.2e-3
# (release), argmax identical on every row. Bounds leave room for other CPUs' kernel paths.
INT8_REL = 1e-2
INT8_TOP1 = 0.97


def _check(got: np.ndarray, want: np.ndarray, rel: float, top1: float = 1.0) -> tuple[float, float]:
    err = float(np.abs(got - want).max() / np.abs(want).max())
    agree = float((got.argmax(-1) == want.argmax(-1)).mean())
    assert err <= rel, f"max relative error {err:.3e} > {rel:.1e}"
    assert agree >= top1, f"top-1 agreement {agree:.3f} < {top1}"
    return err, agree


def _load(name: str):
    path = f"{GOLDEN}/{name}.cact"
    if not os.path.exists(path):
        pytest.skip(f"{path} missing")
    return read_cact(path), np.load(f"{GOLDEN}/{name}.npz")


def _run_all(cf, g, mode: str, threads: int = 1, isa: str | None = None) -> dict[str, np.ndarray]:
    tok = g["tokens"]
    P = int(g["prompt_len"])
    out = {}
    e = NativeEngine(cf, mode, threads=threads, isa=isa)
    out["logits"], cells = e.prefill(tok[:P], cells=True)
    out["hidden"] = cells[:, 1:, :].transpose(1, 0, 2)
    e.reset()
    # the causal run goes token by token after a short prefill, covering both entry points
    first = e.prefill(tok[:5])
    rows = [first] + [e.step(int(t)).copy()[None] for t in tok[5:]]
    out["causal_logits"] = np.concatenate(rows)
    W, S = int(g["window"]), int(g["sinks"])
    ew = NativeEngine(cf, mode, window=W, sinks=S, threads=threads, isa=isa)
    out["window_prefill_logits"] = ew.prefill(tok[:P])
    steps = [out["window_prefill_logits"][-1].copy()]
    steps += [ew.step(int(t)).copy() for t in tok[P : len(tok) - 1]]
    out["window_step_logits"] = np.array(steps)
    heads = e.heads(tok[:P])
    out["contrastive"] = heads["contrastive"]
    out["confidence"] = np.float32(heads["confidence"])
    return out


KEYS = ("logits", "causal_logits", "window_prefill_logits", "window_step_logits")


@pytest.mark.parametrize("name", ["tiny", pytest.param("release", marks=pytest.mark.slow)])
def test_fp32_matches_golden(name: str) -> None:
    cf, g = _load(name)
    got = _run_all(cf, g, "fp32")
    for k in KEYS:
        _check(got[k], g[k], FP32_REL)
    err = np.abs(got["hidden"] - g["hidden"]).max() / np.abs(g["hidden"]).max()
    assert err <= FP32_REL
    assert np.abs(got["contrastive"] - g["contrastive"]).max() <= FP32_REL
    assert abs(got["confidence"] - g["confidence"]) <= FP32_REL * max(1.0, abs(g["confidence"]))


@pytest.mark.parametrize("name", ["tiny", pytest.param("release", marks=pytest.mark.slow)])
def test_int8_error_is_bounded(name: str) -> None:
    cf, g = _load(name)
    got = _run_all(cf, g, "int8")
    for k in KEYS:
        _check(got[k], g[k], INT8_REL, INT8_TOP1)


def test_every_kernel_path_and_thread_count_agree_in_int8() -> None:
    # The CQ products are bit-identical on every path (tests/test_kernels.py); attention over the
    # int8 cache uses each ISA's own FP32 summation order, so whole-model logits agree to
    # rounding across paths, and exactly across thread counts on one path.
    from kernels import _native

    cf, g = _load("tiny")
    tok = g["tokens"][:40]
    ref = None
    for isa in _native.isa_paths():
        first = None
        for threads in (1, 2):
            e = NativeEngine(cf, "int8", threads=threads, isa=isa, window=16, sinks=4)
            got = e.prefill(tok)
            first = got if first is None else first
            assert np.array_equal(got, first), (isa, threads)
        if ref is None:
            ref = first
        _check(first, ref, 1e-4)


def test_threads_do_not_change_fp32_results() -> None:
    cf, g = _load("tiny")
    tok = g["tokens"][:30]
    a = NativeEngine(cf, "fp32", threads=1).prefill(tok)
    b = NativeEngine(cf, "fp32", threads=3).prefill(tok)
    assert np.array_equal(a, b)


def test_chunk_size_and_step_vs_prefill() -> None:
    cf, g = _load("tiny")
    tok = g["tokens"][:37]
    ref = NativeEngine(cf, "int8", chunk=1).prefill(tok)
    for chunk in (4, 32):
        assert np.array_equal(NativeEngine(cf, "int8", chunk=chunk).prefill(tok), ref)


def test_candidate_subset_equals_full_rows() -> None:
    cf, g = _load("tiny")
    tok = g["tokens"]
    cand = np.array([5, 17, 300, 1023, 2], np.int32)
    for mode in ("fp32", "int8"):
        e = NativeEngine(cf, mode, window=16, sinks=6)
        e.prefill(tok[:20])
        st = e.save_state()
        full = e.step(int(tok[20])).copy()
        e.restore_state(st)
        sub = e.step(int(tok[20]), candidates=cand).copy()
        assert np.array_equal(sub, full[cand])
        e.restore_state(st)
        last = e.prefill(tok[20:23], last_only=True, candidates=cand)
        assert last.shape == (cand.size,)


def test_prefix_state_save_restore_and_persist(tmp_path) -> None:
    cf, g = _load("tiny")
    tok = [int(t) for t in g["tokens"]]
    prefix, rest = tok[:30], tok[30:45]
    e = NativeEngine(cf, "int8", window=16, sinks=6)
    e.prefill(prefix, last_only=True)
    st = e.save_state()
    want = [e.step(t).copy() for t in rest]
    e.reset()
    t0 = time.perf_counter()
    e.restore_state(st)
    restore_s = time.perf_counter() - t0
    assert e.position == len(prefix)
    assert all(np.array_equal(e.step(t), w) for t, w in zip(rest, want, strict=True))
    assert restore_s < 0.05
    # persisted: a fresh engine (a restarted daemon) skips the prefill
    e.reset()
    e.prefill(prefix, last_only=True)
    path = tmp_path / "prefix.bin"
    e.persist(path, prefix)
    f = NativeEngine(cf, "int8", window=16, sinks=6)
    assert not f.load(path, prefix[:-1])  # other ids: refused
    assert not NativeEngine(cf, "fp32", window=16, sinks=6).load(path, prefix)  # other mode
    assert f.load(path, prefix)
    assert all(np.array_equal(f.step(t), w) for t, w in zip(rest, want, strict=True))


def test_no_window_capacity_is_enforced() -> None:
    cf, g = _load("tiny")
    e = NativeEngine(cf, "fp32", capacity=8)
    e.prefill(g["tokens"][:8], last_only=True)
    with pytest.raises(OverflowError):
        e.step(5)


def test_bad_arguments() -> None:
    cf, _ = _load("tiny")
    with pytest.raises(ValueError):
        NativeEngine(cf, "fp16")
    e = NativeEngine(cf, "fp32")
    with pytest.raises(ValueError):
        e.step(cf.geometry.vocab)
    with pytest.raises(ValueError):
        e.prefill([])


def test_memory_budget_is_fixed_and_reported() -> None:
    cf, g = _load("tiny")
    e = NativeEngine(cf, "int8", window=16, sinks=6)
    before = e.memory_budget_bytes
    for t in g["tokens"][:60]:
        e.step(int(t))
    assert e.memory_budget_bytes == before > 0
    assert e.isa
