"""Compiled kernels against the NumPy CQ math in `kernels.cq`."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import GOLDEN as CONF_GOLDEN

from kernels import cq

native = pytest.importorskip("kernels._native", reason="compiled kernels not built")


def _paths() -> list[str]:
    return [p for p in native.isa_paths() if p] if hasattr(native, "isa_paths") else ["portable"]


@pytest.mark.parametrize("n", [1, 2, 4, 8, 16, 128, 512, 2048])
def test_fwht_matches_numpy_butterflies_bit_for_bit(n: int) -> None:
    # Same butterfly order and the same final scale: every path must give identical bits.
    x = np.random.default_rng(n).standard_normal((5, n)).astype(np.float32)
    want = cq.fwht(x)
    for path in _paths():
        got = native.fwht(x, force=path)
        assert np.array_equal(got, want), path


@pytest.mark.parametrize("n", [128, 512])
def test_fwht_matches_dense_hadamard(n: int) -> None:
    # Against the dense matrix only rounding differs: bound it relative to the largest output.
    x = np.random.default_rng(1).standard_normal((3, n)).astype(np.float32)
    want = x.astype(np.float64) @ cq.hadamard(n).astype(np.float64)
    got = native.fwht(x)
    assert np.max(np.abs(got - want)) <= 1e-6 * np.max(np.abs(want))


def test_fwht_rejects_non_power_of_two() -> None:
    with pytest.raises(ValueError):
        native.fwht(np.zeros(12, np.float32))


def test_isa_is_chosen_at_run_time() -> None:
    assert native.isa_name() in ("avx2_vnni", "avx2", "neon_dot", "neon", "portable")
    assert native.isa_name("portable") == "portable"


# ---- CQ products -------------------------------------------------------------------------------

GOLDEN = str(CONF_GOLDEN)


@pytest.fixture(scope="module")
def tiny():
    from agent.model.cact import read_cact

    return read_cact(f"{GOLDEN}/tiny.cact")


# FP32 products differ from `cq.matvec` by summation order only.
FP32_TOL = 2e-6
# int8 products: per-group int8 activations and an int8 codebook image. Measured on these
# matrices with Gaussian inputs: 5e-3 (CQ2) to 1e-2 (CQ4) of the largest output.
INT8_TOL = 2.5e-2


@pytest.mark.parametrize("name", ["layer01.q_proj", "layer02.out_proj", "embedding", "mhc_phi_res"])
def test_cq_products_match_numpy(tiny, name: str) -> None:
    view = tiny.cq(name)
    k = native.CQKernel(view)
    assert k.fast
    x = np.random.default_rng(7).standard_normal((11, view.cols)).astype(np.float32)
    want = view.matvec(x)
    scale = np.abs(want).max()
    int8_ref = None
    for path in native.isa_paths():
        for mode, tol in (("fp32", FP32_TOL), ("int8", INT8_TOL)):
            one = k.matmul(x[0], mode, path)
            many = k.matmul(x, mode, path)
            assert np.abs(one - want[0]).max() <= tol * scale, (path, mode)
            assert np.abs(many - want).max() <= tol * scale, (path, mode)
            if mode == "int8":
                # exact integer dots and one float combine formula: same bits on every path,
                # and the blocked T-token kernel equals the single-token one
                assert np.array_equal(one, many[0]), path
                if int8_ref is None:
                    int8_ref = many
                assert np.array_equal(many, int8_ref), path


def test_cq_row_subsets_equal_full_product(tiny) -> None:
    view = tiny.cq("embedding")
    k = native.CQKernel(view)
    x = np.random.default_rng(3).standard_normal(view.cols).astype(np.float32)
    for mode in ("fp32", "int8"):
        full = k.matmul(x, mode)
        part = k.matmul(x, mode, rows=(100, 117))
        assert np.array_equal(part[100:117], full[100:117])


def test_ternary_and_odd_widths_fall_back_exactly() -> None:
    # ternary (crumbs 3, 0, 1) takes the 2-bit fast path with a crumb table; a group of 64
    # takes the generic path; both must equal the NumPy product
    from agent.model.cact import CQView

    rng = np.random.default_rng(5)
    w = rng.standard_normal((24, 200)).astype(np.float32)
    x = rng.standard_normal((3, 200)).astype(np.float32)
    for bits, group in ((cq.TERNARY_BITS, 128), (2, 64), (3, 128), (4, 128)):
        codes, norms = cq.quantize(w, bits, group)
        cbv = cq.codebook(bits, group)
        view = CQView("w", 24, 200, bits, group, codes, norms, cbv)
        want = cq.matvec(codes, norms, x, 200, bits, group, cbv)
        k = native.CQKernel(view)
        for mode in ("fp32", "int8"):
            got = k.matmul(x, mode)
            tol = FP32_TOL if (mode == "fp32" or not k.fast) else INT8_TOL
            assert np.abs(got - want).max() <= tol * np.abs(want).max(), (bits, group, mode)


def test_int8_peak_probe_runs() -> None:
    macs, secs = native.int8_peak(10_000)
    assert macs > 0 and secs > 0


# ---- attention and mHC helpers -----------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 7, 8, 9, 33, 300])
def test_attention_kernels_are_exact_on_every_path(n: int) -> None:
    # The int8 cache's kernels in its blocked layouts: q . k (sign-trick and u8-offset VNNI dots)
    # and the int16-weighted V sum, exact int32 on every path, at the +-127 extremes, for runs
    # that start or end inside an 8-key block or a slot pair, for 1 to 3 query rows (the
    # kernels pair rows), and adding to earlier sums (init 0) as the attention's later runs do.
    rng = np.random.default_rng(n)
    keys = rng.integers(-127, 128, (n, 64)).astype(np.int8)
    vals = rng.integers(-127, 128, (n, 64)).astype(np.int8)
    keys[0, :] = 127
    vals[-1, :] = -127
    kb, vb = native.kv_blocks(keys, vals)
    runs = {(0, n), (n // 3, n), (min(1, n), max(min(1, n), n - 2))}
    for rows in (1, 2, 3):
        q = rng.integers(-127, 128, (rows, 64)).astype(np.int8)
        q[0, :8] = -127
        q[-1, -8:] = 127
        for a, b in sorted(runs):
            want = q.astype(np.int64) @ keys[a:b].T.astype(np.int64)
            w = rng.integers(-32767, 32768, (rows, b - a)).astype(np.int16)
            acc = rng.integers(-(2**20), 2**20, (rows, 64)).astype(np.int32)
            want_v = w.astype(np.int64) @ vals[a:b].astype(np.int64)
            for path in _paths():
                got = native.qk_blk(q, kb, a, b, 64, path)
                assert np.array_equal(got, want), (path, rows, a, b)
                assert np.array_equal(native.attn_v_blk(w, vb, a, b, 64, None, path), want_v), (
                    path,
                    rows,
                    a,
                    b,
                )
                added = native.attn_v_blk(w, vb, a, b, 64, acc, path)
                assert np.array_equal(added, want_v + acc), (path, rows, a, b)


def _sinkhorn_ref(a: np.ndarray) -> np.ndarray:
    """The spec's log-space form in float64: 20 x (rows, then columns), then exp."""
    a = a.astype(np.float64)
    for _ in range(20):
        a = a - np.logaddexp.reduce(a, axis=1, keepdims=True)
        a = a - np.logaddexp.reduce(a, axis=0, keepdims=True)
    return np.exp(a)


HARD = {
    "zeros": np.zeros((4, 4)),
    "one_dominant": np.array([[30, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, -30.0]]),
    "range_79": np.linspace(-39.5, 39.5, 16).reshape(4, 4),
    "range_81": np.linspace(-40.5, 40.5, 16).reshape(4, 4),
    "range_300": np.linspace(-150, 150, 16).reshape(4, 4)[[0, 2, 1, 3]],
    "permutation_like": np.eye(4)[[1, 0, 3, 2]] * 60.0,
    "rank_one": np.outer(np.arange(4), np.arange(4)) * 5.0,
    "huge_offset": np.full((4, 4), 1e4) + np.arange(16).reshape(4, 4),
}


@pytest.mark.parametrize("name", sorted(HARD))
def test_sinkhorn_positive_domain_matches_log_space(name: str) -> None:
    a = HARD[name].astype(np.float32)
    want = _sinkhorn_ref(a)
    pos = native.sinkhorn(a)  # positive domain unless the range exceeds the fallback bound
    log = native.sinkhorn(a, force_log=True)
    assert np.isfinite(pos).all()
    assert np.abs(pos - want).max() <= 2e-6, name
    assert np.abs(log - want).max() <= 2e-6, name
    # rows were normalised before the last column pass: columns sum to 1 exactly enough
    assert np.abs(pos.sum(axis=0) - 1).max() <= 1e-5


def test_sinkhorn_random_matches_reference_and_small_lanes() -> None:
    rng = np.random.default_rng(3)
    for scale in (0.1, 1.0, 5.0, 15.0, 40.0):
        for _ in range(20):
            a = (rng.standard_normal((4, 4)) * scale).astype(np.float32)
            assert np.abs(native.sinkhorn(a) - _sinkhorn_ref(a)).max() <= 2e-6
    for n in (1, 2, 3):
        a = rng.standard_normal((n, n)).astype(np.float32) * 3
        assert np.abs(native.sinkhorn(a) - _sinkhorn_ref(a)).max() <= 2e-6
