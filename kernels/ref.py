"""NumPy reference versions of the Needle 2 building blocks (FP32).

Each function is the plain statement of one formula of the spec; the native kernels implement
the same math and are tested against these.
"""

from __future__ import annotations

import numpy as np

from .cq import fwht

EPS = np.float32(1e-6)
HASH_SEED = 0x9E3779B9
HASH_PRIME = 0x01000193


def rms_unit(x: np.ndarray) -> np.ndarray:
    """`x / sqrt(mean(x^2) + 1e-6)` over the last axis."""
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + EPS)


def zcn(x: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Zero-centred-gain norm: `(1 + g) * rms_unit(x)` (a gain of 0 is the identity scale)."""
    return (np.float32(1.0) + g) * rms_unit(x)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return np.float32(1.0) / (np.float32(1.0) + np.exp(-x))


def silu(x: np.ndarray) -> np.ndarray:
    return x * sigmoid(x)


def rope(x: np.ndarray, pos: np.ndarray, theta: float) -> np.ndarray:
    """Rotary embedding of `x` `[T, heads, hd]` at absolute positions `pos` `[T]`.

    Dimension `i` pairs with `i + hd/2` (halves, not even/odd neighbours).
    """
    hd = x.shape[-1]
    half = hd // 2
    freq = np.float32(theta) ** (-np.arange(half, dtype=np.float32) * np.float32(2.0 / hd))
    ang = pos.astype(np.float32)[:, None] * freq[None, :]  # [T, half]
    cos = np.cos(ang)[:, None, :]
    sin = np.sin(ang)[:, None, :]
    a, b = x[..., :half], x[..., half:]
    return np.concatenate([a * cos - b * sin, b * cos + a * sin], axis=-1)


def logsumexp(x: np.ndarray, axis: int) -> np.ndarray:
    m = np.max(x, axis=axis, keepdims=True)
    return m + np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def sinkhorn(a: np.ndarray, iters: int = 20) -> np.ndarray:
    """Doubly-stochastic projection of `[..., n, n]` logits: `iters` rounds of row then column
    log-normalisation, then `exp`. The count and the order are part of the model."""
    for _ in range(iters):
        a = a - logsumexp(a, -1)
        a = a - logsumexp(a, -2)
    return np.exp(a)


def hadamard_mlp(
    x: np.ndarray, pre: np.ndarray, d1: np.ndarray, d2: np.ndarray, d3: np.ndarray
) -> np.ndarray:
    """`x + crop(d3 * H silu(d2 * H (d1 * pad(zcn(x)))))` with the orthonormal transform `H`."""
    d = x.shape[-1]
    n = d1.shape[-1]
    z = np.zeros(x.shape[:-1] + (n,), dtype=np.float32)
    z[..., :d] = zcn(x, pre)
    z = fwht(d1 * z)
    z = fwht(silu(d2 * z))
    return x + (d3 * z)[..., :d]


def engram_rows(
    history: np.ndarray, positions: np.ndarray, orders: tuple[int, ...], heads: int, slots: int
) -> tuple[np.ndarray, np.ndarray]:
    """Table rows gathered at each position, and whether each n-gram is complete.

    For table `j` (order `orders[j // heads]`), the hash folds the current and previous tokens
    into a uint32 (positions before the start read as token 0). Returns `rows [T, tables]`
    (row index `j * slots + slot`) and `valid [T, tables]` (False where the n-gram reaches
    before the start: that gathered row is zeroed).
    """
    history = np.asarray(history, dtype=np.uint32)
    positions = np.asarray(positions, dtype=np.int64)
    tables = len(orders) * heads
    rows = np.empty((positions.size, tables), dtype=np.int64)
    valid = np.empty((positions.size, tables), dtype=bool)
    for j in range(tables):
        order = orders[j // heads]
        acc = np.full(positions.size, (HASH_SEED * (j + 1)) & 0xFFFFFFFF, dtype=np.uint32)
        for i in range(order):
            p = positions - i
            tok = np.where(p >= 0, history[np.maximum(p, 0)], np.uint32(0))
            acc = (acc ^ tok) * np.uint32(HASH_PRIME)  # uint32 arrays wrap modulo 2^32
        acc ^= acc >> np.uint32(15)
        rows[:, j] = j * slots + (acc % np.uint32(slots)).astype(np.int64)
        valid[:, j] = positions - (order - 1) >= 0
    return rows, valid


def attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    qpos: np.ndarray,
    kpos: np.ndarray,
    window: int | None,
    sinks: int,
) -> np.ndarray:
    """GQA softmax attention of queries `[T, H, hd]` over keys/values `[Tk, KV, hd]`.

    Query at position `t` sees key position `p` iff `p <= t` and (`t - p < window` or `p` is one
    of the first `sinks` positions). Query head `h` reads kv head `h // (H / KV)`.
    """
    T, H, hd = q.shape
    kvh = k.shape[1]
    rep = H // kvh
    kk = np.repeat(k, rep, axis=1)  # [Tk, H, hd]
    vv = np.repeat(v, rep, axis=1)
    scores = np.einsum("thd,shd->hts", q, kk) / np.float32(np.sqrt(hd))
    allowed = kpos[None, :] <= qpos[:, None]
    if window is not None:
        near = (qpos[:, None] - kpos[None, :]) < window
        allowed &= near | (kpos[None, :] < sinks)
    scores = np.where(allowed[None], scores, np.float32(-np.inf))
    scores = scores - scores.max(-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(-1, keepdims=True)
    return np.einsum("hts,shd->thd", w, vv)


def probe_pool(cells: np.ndarray, probes: np.ndarray) -> np.ndarray:
    """Attention pooling of `cells` `[N, d]` by each probe `[P, d]` -> flattened `[P * d]`."""
    d = cells.shape[-1]
    scores = probes @ cells.T / np.float32(np.sqrt(d))  # [P, N]
    scores = scores - scores.max(-1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(-1, keepdims=True)
    return (w @ cells).reshape(-1)
