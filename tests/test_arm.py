"""aarch64 kernels: cross-compiled, run under qemu as Cortex-A76 (dot product) and Cortex-A72
(no dot product), compared with the x86-64 results of the same inputs.

The int8 products are exact integer dots followed by one fixed float formula, and the FWHT is the
same sequence of additions, so those must agree bit for bit across machines; the FP32 products
use each ISA's fused multiply-adds in its own order and are compared with a tolerance.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from kernels import cq

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "kernels" / "src"
HARNESS = ROOT / "tests" / "native" / "kernel_harness.c"
CROSS = shutil.which("aarch64-linux-gnu-gcc")
QEMU = shutil.which("qemu-aarch64")
CFLAGS = ["-O2", "-std=gnu11", "-ffp-contract=off", "-fno-math-errno", "-I", str(SRC)]
FP32_TOL = 2e-6

pytestmark = pytest.mark.skipif(
    not (CROSS and QEMU and shutil.which("gcc")), reason="needs gcc, aarch64-linux-gnu-gcc, qemu"
)


def _build(tmp: Path) -> tuple[Path, Path]:
    srcs = [str(HARNESS), str(SRC / "nd_kernels.c")]
    native = tmp / "harness_x86"
    arm = tmp / "harness_arm"
    subprocess.run(["gcc", *CFLAGS, *srcs, "-lm", "-o", str(native)], check=True)
    subprocess.run(
        [CROSS, *CFLAGS, "-march=armv8-a", "-static", *srcs, "-lm", "-o", str(arm)], check=True
    )
    return native, arm


def _inputs(path: Path, bits: int, rows: int = 40, cols: int = 384, T: int = 9) -> None:
    rng = np.random.default_rng(bits)
    w = rng.standard_normal((rows, cols)).astype(np.float32)
    codes, norms = cq.quantize(w, bits, 128)
    cb = np.zeros(16, np.float32)
    cbv = cq.codebook(bits, 128)
    cb[: cbv.size] = cbv
    x = rng.standard_normal((T, cols)).astype(np.float32)
    with open(path, "wb") as f:
        f.write(np.array([rows, cols, bits, 128, T], "<i4").tobytes())
        f.write(cb.tobytes() + codes.tobytes() + norms.tobytes() + x.tobytes())


def _read(
    path: Path, rows: int = 40, T: int = 9, in_pad: int = 384, cols: int = 384
) -> dict[str, np.ndarray]:
    a = np.fromfile(path, np.float32)
    n = rows * T
    out = {
        "fp32": a[:n],
        "int8_mv": a[n : 2 * n],
        "int8_mm": a[2 * n : 3 * n],
        "fwht": a[3 * n : 3 * n + T * in_pad],
    }
    o = 3 * n + T * in_pad
    tc = T * cols
    for name, size in (("zcn", tc), ("softmax", tc), ("sums", T), ("gate", tc), ("silu", tc)):
        out[name] = a[o : o + size]
        o += size
    nk = T * in_pad // 64
    out["qk"] = a[o : o + nk].view(np.int32)
    out["attn_v"] = a[o + nk : o + nk + 3 * 64].view(np.int32)
    out["rows"] = a[o + nk + 3 * 64 : o + nk + 3 * 64 + nk * 16].view(np.int8).reshape(nk, 64)
    return out


def _run(cmd: list[str], out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(cmd + [str(out)], check=True, capture_output=True, text=True, timeout=300)
    return r.stdout.strip().split(",")


@pytest.mark.parametrize("bits", [2, 4, cq.TERNARY_BITS])
def test_aarch64_kernels_match_x86(tmp_path: Path, bits: int) -> None:
    native, arm = _build(tmp_path)
    inp = tmp_path / "in.bin"
    _inputs(inp, bits)
    x86_paths = _run([str(native), str(inp)], tmp_path / "x86")
    ref = _read(tmp_path / "x86" / f"{x86_paths[-1]}.bin")  # portable C on x86
    results = {f"x86:{p}": _read(tmp_path / "x86" / f"{p}.bin") for p in x86_paths}
    qemu = [QEMU, "-L", "/usr/aarch64-linux-gnu"]
    a76 = _run([*qemu, "-cpu", "cortex-a76", str(arm), str(inp)], tmp_path / "a76")
    a72 = _run([*qemu, "-cpu", "cortex-a72", str(arm), str(inp)], tmp_path / "a72")
    # the run-time choice: dot product found on A76, not on A72
    assert a76[0] == "neon_dot" and "neon_dot" not in a72 and a72[0] == "neon"
    results.update({f"a76:{p}": _read(tmp_path / "a76" / f"{p}.bin") for p in a76})
    results.update({f"a72:{p}": _read(tmp_path / "a72" / f"{p}.bin") for p in a72})
    scale = np.abs(ref["fp32"]).max()
    for label, r in results.items():
        assert np.array_equal(r["int8_mv"], ref["int8_mv"]), label
        assert np.array_equal(r["int8_mm"], ref["int8_mv"]), label
        assert np.array_equal(r["fwht"], ref["fwht"]), label
        assert np.abs(r["fp32"] - ref["fp32"]).max() <= FP32_TOL * scale, label
        # the per-token vector ops (norms, softmax with its exp, gates, SiLU) and the int8
        # attention dots: the same bits on every ISA
        for k in ("zcn", "softmax", "sums", "gate", "silu", "qk", "attn_v"):
            assert np.array_equal(r[k], ref[k]), (label, k)
    # the integer V product is exactly sum_i w[r][i] * v_i over the harness's int8 rows
    nk = ref["qk"].size
    w = np.array([[1000 * (r + 1) - 37 * i for i in range(nk)] for r in range(3)], np.int64)
    want = (w @ ref["rows"].astype(np.int64)).reshape(-1)
    assert np.array_equal(ref["attn_v"].astype(np.int64), want)
    # and they compute what they claim (the exp is a polynomial: within a few ulp of NumPy's)
    x = np.fromfile(inp, np.uint8)[20 + 64 :]
    x = x[-9 * 384 * 4 :].view(np.float32).reshape(9, 384)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    got = ref["softmax"].reshape(9, 384)
    assert np.abs(got - e).max() <= 4e-7
    assert np.allclose(ref["sums"], e.sum(axis=1), rtol=1e-5)
    silu = x * np.roll(x, -1, axis=0)
    silu = silu / (1 + np.exp(-silu))
    assert np.allclose(ref["silu"].reshape(9, 384), silu, rtol=1e-5, atol=1e-6)


POOL_HARNESS = ROOT / "tests" / "native" / "pool_harness.c"


@pytest.mark.parametrize("threads", [2, 4])
def test_thread_pool_native_and_aarch64(tmp_path: Path, threads: int) -> None:
    """The engine's spin-then-sleep pool: back-to-back jobs, jobs after the workers fell
    asleep, and more threads than this machine's cores; every part's result checked, and a lost
    wake-up would hang into the timeout. x86-64 natively, aarch64 (weaker memory ordering) under
    qemu."""
    srcs = [str(POOL_HARNESS), str(SRC / "nd_kernels.c")]
    native, arm = tmp_path / "pool_x86", tmp_path / "pool_arm"
    subprocess.run(["gcc", *CFLAGS, *srcs, "-lm", "-lpthread", "-o", str(native)], check=True)
    subprocess.run(
        [CROSS, *CFLAGS, "-static", *srcs, "-lm", "-lpthread", "-o", str(arm)], check=True
    )
    for cmd, jobs in (([str(native)], 60000), ([QEMU, "-cpu", "cortex-a76", str(arm)], 12000)):
        # (seconds alone on CI's two cores; spinning workers under qemu on a machine loaded
        # by other jobs took over 120 s, so the limit only catches a hang)
        out = subprocess.run(
            [*cmd, str(threads), str(jobs)], capture_output=True, text=True, timeout=600
        )
        assert out.returncode == 0 and out.stdout.strip() == f"ok {jobs}", out.stdout + out.stderr
