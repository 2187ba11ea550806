"""CQ (codebook quantization) math in NumPy: the reference for every fast path.

A CQ matrix is stored `[out, in]`. Each row is cut into groups of `group` elements along `in`
(zero-padded to a multiple of `group`). A group `w` is rotated by the orthonormal
Walsh-Hadamard matrix, `r = w Hg`, split into its L2 norm `n` and direction `r / n`, and each
direction component is replaced by the index of the nearest codebook centre. Storage is the
packed indices (LSB-first bitstream per row) followed by the FP16 norms of every group.

Because `Hg` is orthogonal, `dot(w_hat, x) = n * dot(cb[q], x Hg)` per group: kernels rotate the
activation once and never build dense weights.
"""

from __future__ import annotations

import functools

import numpy as np

TERNARY_BITS = 5  # record `bits` value of the ternary scheme (2-bit crumbs, 3 levels)
TERNARY_LEVEL = 1.2240064  # Lloyd-Max centre of a unit Gaussian for 3 levels (+-c, 0)
CODEBOOK_BITS = (2, 3, 4)  # the widths whose codebooks ride in the `.cact` header

_LLOYD_SAMPLES = 400_000
_LLOYD_ITERS = 200


def code_bits(bits: int) -> int:
    """Bits of storage per code: ternary crumbs take 2."""
    return 2 if bits == TERNARY_BITS else bits


@functools.cache
def lloyd_max_unit(bits: int) -> np.ndarray:
    """Lloyd-Max centres (float64, sorted) for `2**bits` levels on a fixed Gaussian sample.

    The sample, initialisation and iteration count are fixed by the format: the header codebooks
    of every `.cact` were made this way, so this must reproduce them bit for bit.
    """
    levels = 1 << bits
    x = np.sort(np.random.RandomState(0).randn(_LLOYD_SAMPLES))
    c = x[((np.arange(levels) + 0.5) / levels * _LLOYD_SAMPLES).astype(int)].astype(np.float64)
    for _ in range(_LLOYD_ITERS):
        bounds = (c[:-1] + c[1:]) / 2.0
        # The sample is sorted, so each cell is a contiguous slice; a sample equal to a boundary
        # belongs to the lower cell.
        edges = np.concatenate(([0], np.searchsorted(x, bounds, side="right"), [x.size]))
        for k in range(levels):
            lo, hi = edges[k], edges[k + 1]
            if hi > lo:
                c[k] = x[lo:hi].mean()
    return np.sort(c)


@functools.cache
def codebook(bits: int, group: int) -> np.ndarray:
    """FP32 codebook for a record `bits` value (2, 3, 4 or ternary 5), scaled for `group`."""
    if bits == TERNARY_BITS:
        unit = np.array([-TERNARY_LEVEL, 0.0, TERNARY_LEVEL])
    elif bits in CODEBOOK_BITS:
        unit = lloyd_max_unit(bits)
    else:
        raise ValueError(f"CQ supports bits 2, 3, 4 and 5 (ternary); got {bits}")
    out = (unit / np.sqrt(group)).astype(np.float32)
    out.flags.writeable = False
    return out


def header_codebooks(group: int = 128) -> np.ndarray:
    """The 28 FP32 values a `.cact` header carries: cb2[4] | cb3[8] | cb4[16]."""
    return np.concatenate([codebook(b, group) for b in CODEBOOK_BITS])


@functools.cache
def hadamard(n: int) -> np.ndarray:
    """Orthonormal Sylvester Walsh-Hadamard matrix of size `n` (a power of two), FP32."""
    if n < 1 or n & (n - 1):
        raise ValueError(f"Hadamard size must be a power of two, got {n}")
    h = np.ones((1, 1), dtype=np.float32)
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    out = (h / np.sqrt(n)).astype(np.float32)
    out.flags.writeable = False
    return out


def fwht(x: np.ndarray) -> np.ndarray:
    """Orthonormal fast Walsh-Hadamard transform along the last axis (FP32, butterflies).

    Equals `x @ hadamard(n)` up to rounding; the butterfly order is the one the C kernels use.
    """
    y = np.array(x, dtype=np.float32, copy=True)
    n = y.shape[-1]
    if n & (n - 1):
        raise ValueError(f"FWHT length must be a power of two, got {n}")
    lead = y.shape[:-1]
    h = 1
    while h < n:
        v = y.reshape(*lead, n // (2 * h), 2, h)
        a = v[..., 0, :].copy()
        b = v[..., 1, :]
        v[..., 0, :] = a + b
        v[..., 1, :] = a - b
        h *= 2
    y *= np.float32(1.0 / np.sqrt(n))
    return y


def padded(n: int, group: int) -> int:
    """`n` rounded up to a multiple of `group`."""
    return -(-n // group) * group


def row_code_bytes(cols: int, bits: int, group: int) -> int:
    """Bytes of packed codes per row of a CQ matrix with `cols` columns."""
    return padded(cols, group) * code_bits(bits) // 8


def blob_nbytes(rows: int, cols: int, bits: int, group: int) -> int:
    """Size of a CQ blob: packed codes of every row, then FP16 norms of every group."""
    in_pad = padded(cols, group)
    return rows * row_code_bytes(cols, bits, group) + rows * (in_pad // group) * 2


def nearest(u: np.ndarray, cb: np.ndarray) -> np.ndarray:
    """Index of the nearest centre of sorted `cb` for each value; ties go to the lower index."""
    pos = np.clip(np.searchsorted(cb, u), 1, cb.size - 1)
    left = cb[pos - 1]
    right = cb[pos]
    return np.where(np.abs(u - left) <= np.abs(u - right), pos - 1, pos).astype(np.uint8)


def pack_codes(codes: np.ndarray, bits: int) -> np.ndarray:
    """Pack `[rows, n]` codes (n a multiple of 8) as LSB-first bitstreams, `bits` per code."""
    rows, n = codes.shape
    chunks = codes.reshape(rows, n // 8, 8).astype(np.uint64)
    word = np.zeros(chunks.shape[:-1], dtype=np.uint64)
    for i in range(8):
        word |= chunks[..., i] << np.uint64(i * bits)
    out = np.empty(word.shape + (bits,), dtype=np.uint8)
    for b in range(bits):
        out[..., b] = (word >> np.uint64(8 * b)) & np.uint64(0xFF)
    return out.reshape(rows, n * bits // 8)


def unpack_codes(packed: np.ndarray, bits: int, n: int) -> np.ndarray:
    """Inverse of `pack_codes`: `[rows, n*bits/8]` bytes to `[rows, n]` codes."""
    rows = packed.shape[0]
    chunks = np.asarray(packed).reshape(rows, n // 8, bits).astype(np.uint64)
    word = np.zeros(chunks.shape[:-1], dtype=np.uint64)
    for b in range(bits):
        word |= chunks[..., b] << np.uint64(8 * b)
    out = np.empty((rows, n // 8, 8), dtype=np.uint8)
    mask = np.uint64((1 << bits) - 1)
    for i in range(8):
        out[..., i] = (word >> np.uint64(i * bits)) & mask
    return out.reshape(rows, n)


# Ternary crumbs: level index 0, 1, 2 (-c, 0, +c) is stored as 3, 0, 1 so that sign-extending a
# crumb gives the trit directly.
_TRIT_TO_CRUMB = np.array([3, 0, 1], dtype=np.uint8)
_CRUMB_TO_TRIT = np.array([1, 2, 1, 0], dtype=np.uint8)  # crumb 2 is unused; read it as zero


def quantize(w: np.ndarray, bits: int, group: int) -> tuple[np.ndarray, np.ndarray]:
    """Quantize a float `[rows, cols]` matrix. Returns (packed codes uint8, norms float16)."""
    w = np.asarray(w, dtype=np.float32)
    if w.ndim != 2:
        raise ValueError(f"CQ quantizes 2-D matrices, got shape {w.shape}")
    rows, cols = w.shape
    in_pad = padded(cols, group)
    if in_pad != cols:
        w = np.pad(w, ((0, 0), (0, in_pad - cols)))
    g = w.reshape(rows, in_pad // group, group)
    rot = g @ hadamard(group)
    norm = np.sqrt((rot**2).sum(-1, keepdims=True))
    unit = rot / np.maximum(norm, np.float32(1e-12))
    idx = nearest(unit.reshape(rows, in_pad), codebook(bits, group))
    if bits == TERNARY_BITS:
        packed = pack_codes(_TRIT_TO_CRUMB[idx], 2)
    else:
        packed = pack_codes(idx, bits)
    return packed, norm[..., 0].astype(np.float16)


def codes_of(packed: np.ndarray, bits: int, cols: int, group: int) -> np.ndarray:
    """Codebook indices `[rows, in_pad]` of a packed CQ matrix (ternary mapped to 0, 1, 2)."""
    in_pad = padded(cols, group)
    idx = unpack_codes(packed, code_bits(bits), in_pad)
    return _CRUMB_TO_TRIT[idx] if bits == TERNARY_BITS else idx


def dequantize(
    packed: np.ndarray,
    norms: np.ndarray,
    cols: int,
    bits: int,
    group: int,
    cb: np.ndarray | None = None,
) -> np.ndarray:
    """Dense FP32 `[rows, cols]` weights of a CQ matrix (tests and conversion only)."""
    cb = codebook(bits, group) if cb is None else cb
    rows = packed.shape[0]
    in_pad = padded(cols, group)
    unit = cb[codes_of(packed, bits, cols, group)].reshape(rows, in_pad // group, group)
    rot = unit * np.asarray(norms, dtype=np.float32).reshape(rows, in_pad // group, 1)
    return (rot @ hadamard(group)).reshape(rows, in_pad)[:, :cols]


def dequantize_rows(
    packed: np.ndarray,
    norms: np.ndarray,
    rows: np.ndarray | list[int],
    cols: int,
    bits: int,
    group: int,
    cb: np.ndarray | None = None,
) -> np.ndarray:
    """Dense FP32 weights of selected rows only (embedding and engram table lookups)."""
    sel = np.asarray(rows, dtype=np.intp)
    return dequantize(packed[sel], norms[sel], cols, bits, group, cb)


def matvec(
    packed: np.ndarray,
    norms: np.ndarray,
    x: np.ndarray,
    cols: int,
    bits: int,
    group: int,
    cb: np.ndarray | None = None,
) -> np.ndarray:
    """`W @ x` for CQ `W` `[rows, cols]` and `x` `[..., cols]`, via the rotated-activation identity.

    Returns `[..., rows]`. The activation is transformed once per group and reused by every row,
    which is the arithmetic the native kernels implement.
    """
    cb = codebook(bits, group) if cb is None else cb
    x = np.asarray(x, dtype=np.float32)
    lead = x.shape[:-1]
    in_pad = padded(cols, group)
    xp = np.zeros(lead + (in_pad,), dtype=np.float32)
    xp[..., :cols] = x
    xr = fwht(xp.reshape(lead + (in_pad // group, group)))  # [..., G, group]
    rows = packed.shape[0]
    unit = cb[codes_of(packed, bits, cols, group)].reshape(rows, in_pad // group, group)
    per_group = np.einsum("rgk,...gk->...rg", unit, xr)
    return np.einsum("...rg,rg->...r", per_group, np.asarray(norms, dtype=np.float32))
