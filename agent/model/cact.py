"""The `.cact` v2 model file: geometry, tensor naming, a validating mmap reader, and the writer.

Layout (little-endian): a 120-byte header `<29If`, `codebook_len` FP32 codebook values,
`num_tensors` 44-byte directory records `<BBHIIIIQQII`, then 64-byte aligned blobs. Tensors
carry no names; their names follow from their position and the header geometry
(`tensor_layout`). The reader never copies tensor data: every tensor is a read-only NumPy view
over the memory map, in exactly the form the kernels consume (CQ: codes `[rows, row_bytes]`
uint8 and norms `[rows, groups]` float16).
"""

from __future__ import annotations

import hashlib
import math
import mmap
import os
import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agent.model.errors import CactError
from agent.model.tokenizer import parse_tokenizer_blob
from kernels import cq

TAG_V2 = 0x05E12A83
TAG_GENERATIONS = {
    0x05E12A82: "Needle 2.0.0-2.0.2 (tag 0x05E12A82, a header without geometry)",
    0x05E12A84: "Needle 3 (tag 0x05E12A84, 196-byte header, different layers)",
}
HEADER = struct.Struct("<29If")
# Byte offset of each geometry field in the header (errors point at the field at fault).
HEADER_OFFSETS = {
    name: 4 * i
    for i, name in enumerate(
        "tag num_tensors codebook_len kv_window kv_bits vocab d_model num_heads num_kv_heads "
        "num_layers head_dim max_seq_len hada_n mhc_lanes engram_slots engram_sub_dim "
        "num_engram_tables engram_conv_taps engram_conv_dilation engram_orders".split()
    )
} | {"engram_sites": 96, "rope_theta": 116}
RECORD = struct.Struct("<BBHIIIIQQII")
ALIGN = 64
CODEBOOK_LEN = 28  # cb2[4] | cb3[8] | cb4[16]
_CB_SLICES = {2: slice(0, 4), 3: slice(4, 12), 4: slice(12, 28)}

FP16, FP32, CQ, RAW = 1, 2, 3, 4
DTYPE_NAMES = {FP16: "FP16", FP32: "FP32", CQ: "CQ", RAW: "RAW"}
CQ_BITS = (2, 3, 4, cq.TERNARY_BITS)

LAYER_TENSORS = (
    "norm_in",
    "q_proj",
    "k_proj",
    "v_proj",
    "q_norm",
    "k_norm",
    "gate_proj",
    "out_proj",
    "post_norm",
    "attn_gate",
    "pre_hada",
    "d1",
    "d2",
    "d3",
)
MHC_TENSORS = (
    "mhc_a_pre",
    "mhc_a_post",
    "mhc_a_res",
    "mhc_b_pre",
    "mhc_b_post",
    "mhc_b_res",
    "mhc_phi_pre",
    "mhc_phi_post",
    "mhc_phi_res",
)
ENGRAM_TENSORS = ("tables", "key_proj", "value_proj", "taps")
# Upper bounds of the header's geometry fields (the lower bound is 1). Weight shapes are also
# bounded by the file's size; these bounds hold for fields that size no weight (the window, the
# sequence length, the conv dilation) and keep every product the engine forms in range.
FIELD_MAX = {
    "vocab": 1 << 20,
    "d_model": 1 << 14,
    "num_heads": 256,
    "num_kv_heads": 256,
    "num_layers": 1024,
    "head_dim": 1024,
    "max_seq_len": 1 << 16,
    "hada_n": 1 << 15,
    "mhc_lanes": 4,  # the mHC lane mixing is written for up to 4 lanes
    "kv_window": 1 << 16,
}
# The engram fields are bounded only where the geometry has engram sites (else they are 0).
ENGRAM_FIELD_MAX = {
    "engram_slots": 1 << 24,
    "engram_sub_dim": 1 << 14,
    "num_engram_tables": 256,
    "engram_conv_taps": 64,
    "engram_conv_dilation": 1 << 16,
}
# One sequence's state (see Geometry.state_bytes) must fit the daemon's whole 64 MB memory
# budget; the release geometry needs 11 MB. Sinks beyond the default grow at run time only as
# far as a tools prefix needs, under the engine's own budget (agent/model/engine.py).
STATE_BUDGET_BYTES = 64 << 20
STATE_SINKS = 512
HEAD_KINDS = {1: ("contrastive_head", 4, 128), 2: ("confidence_head", 8, 1)}  # code: name, P, out


@dataclass(frozen=True)
class Geometry:
    """Every header field of a v2 `.cact`, plus what follows from them."""

    vocab: int
    d_model: int
    num_heads: int
    num_kv_heads: int
    num_layers: int
    head_dim: int
    max_seq_len: int
    hada_n: int
    mhc_lanes: int
    engram_slots: int
    engram_sub_dim: int
    num_engram_tables: int
    engram_conv_taps: int
    engram_conv_dilation: int
    engram_orders: tuple[int, ...]
    engram_sites: tuple[int, ...]
    rope_theta: float
    kv_window: int = 256
    kv_bits: int = 8

    @property
    def engram_heads(self) -> int:
        """Tables per n-gram order."""
        return self.num_engram_tables // max(1, len(self.engram_orders))

    @property
    def engram_dim(self) -> int:
        """Width of the gathered engram vector `e_t` (all tables concatenated)."""
        return self.num_engram_tables * self.engram_sub_dim

    @property
    def q_dim(self) -> int:
        return self.num_heads * self.head_dim

    @property
    def kv_dim(self) -> int:
        return self.num_kv_heads * self.head_dim

    def header_fields(self) -> tuple:
        orders = (list(self.engram_orders) + [0] * 4)[:4]
        sites = (list(self.engram_sites) + [0] * 4)[:4]
        return (
            self.kv_window,
            self.kv_bits,
            self.vocab,
            self.d_model,
            self.num_heads,
            self.num_kv_heads,
            self.num_layers,
            self.head_dim,
            self.max_seq_len,
            self.hada_n,
            self.mhc_lanes,
            self.engram_slots,
            self.engram_sub_dim,
            self.num_engram_tables,
            self.engram_conv_taps,
            self.engram_conv_dilation,
            len(self.engram_orders),
            *orders,
            len(self.engram_sites),
            *sites,
        )

    def state_bytes(self) -> int:
        """Bytes of one running sequence's state, weights aside: the int8 K/V cache (codes and
        a scale per key and value) over the window and the default pinned sinks in every
        layer, and the FP32 engram convolution history of every site. The file bounds every
        weight by its own size; only these grow with header numbers alone."""
        slots = self.kv_window + STATE_SINKS
        kv = self.num_layers * self.num_kv_heads * slots * (2 * self.head_dim + 8)
        history = max(0, self.engram_conv_taps - 1) * self.engram_conv_dilation + 1
        return kv + 4 * max(1, len(self.engram_sites)) * history * self.d_model

    def problems(self) -> list[str]:
        """Inconsistencies in the geometry itself (empty when it can describe a model).

        Each problem starts with the header field at fault. Beyond consistency, every field is
        bounded: the engine forms products of them in C ints, sizes buffers by them, and hashes
        at most 8 tokens back; a corrupt header must fail here, not as a crash or a gigabyte
        allocation later.
        """
        p = []
        for name, hi in FIELD_MAX.items():
            v = getattr(self, name)
            if not 1 <= v <= hi:
                p.append(f"{name} must be 1..{hi}, got {v}")
        lo = 1 if self.engram_sites else 0
        for name, hi in ENGRAM_FIELD_MAX.items():
            v = getattr(self, name)
            if not lo <= v <= hi:
                p.append(f"{name} must be {lo}..{hi}, got {v}")
        if p:
            return p
        if self.num_heads % self.num_kv_heads:
            p.append(f"num_heads {self.num_heads} is not a multiple of {self.num_kv_heads}")
        elif self.num_heads // self.num_kv_heads > 16:
            p.append(f"num_heads {self.num_heads} is more than 16 per KV head")
        if self.head_dim % 2:
            p.append(f"head_dim {self.head_dim} must be even (RoPE pairs halves)")
        if self.hada_n & (self.hada_n - 1) or self.hada_n < self.d_model:
            p.append(f"hada_n {self.hada_n} must be a power of two >= d_model {self.d_model}")
        if not np.isfinite(self.rope_theta) or self.rope_theta <= 1.0:
            p.append(f"rope_theta {self.rope_theta} must be finite and > 1")
        if self.kv_bits not in (2, 3, 4, 8):
            p.append(f"kv_bits {self.kv_bits} not in (2, 3, 4, 8)")
        if self.kv_window > self.max_seq_len:
            p.append(f"kv_window {self.kv_window} exceeds max_seq_len {self.max_seq_len}")
        if len(self.engram_sites) > 4 or len(self.engram_orders) > 4:
            p.append("engram_sites/engram_orders: at most 4 of each fit the header")
        if self.engram_sites:
            if list(self.engram_sites) != sorted(set(self.engram_sites)):
                p.append(f"engram_sites {self.engram_sites} must be strictly increasing")
            if max(self.engram_sites) >= self.num_layers:
                p.append(f"engram_sites: site {max(self.engram_sites)} >= num_layers")
            if not self.engram_orders or not all(1 <= o <= 8 for o in self.engram_orders):
                p.append(f"engram_orders {self.engram_orders} must be 1..8")
                return p
            if self.num_engram_tables % len(self.engram_orders):
                p.append(
                    f"num_engram_tables {self.num_engram_tables} do not split over "
                    f"{len(self.engram_orders)} orders"
                )
            if self.num_engram_tables * self.engram_slots >= 1 << 31:
                p.append(
                    f"engram_slots {self.engram_slots} x num_engram_tables "
                    f"{self.num_engram_tables} rows do not fit an int32 row index"
                )
        if self.engram_conv_taps:
            reach = (self.engram_conv_taps - 1) * self.engram_conv_dilation + 1
            if reach > self.max_seq_len:
                p.append(
                    f"engram_conv_dilation {self.engram_conv_dilation} with "
                    f"{self.engram_conv_taps} taps reaches {reach} positions back, more than "
                    f"max_seq_len {self.max_seq_len}"
                )
        if not p and self.state_bytes() > STATE_BUDGET_BYTES:
            p.append(
                f"kv_window {self.kv_window}: the sequence state would take "
                f"{self.state_bytes() / 2**20:.1f} MiB, over the {STATE_BUDGET_BYTES >> 20} MiB "
                "budget (num_layers x num_kv_heads x head_dim x window, plus the engram history)"
            )
        return p


@dataclass(frozen=True)
class TensorSpec:
    """What the geometry says a tensor at a position must be."""

    name: str
    shape: tuple[int, ...]
    quantized: bool  # a matrix stored as CQ (else a FP16/FP32 vector or array)


def base_layout(g: Geometry) -> list[TensorSpec]:
    """Tensors from the embedding through `final_norm`, in file order."""
    d, lanes = g.d_model, g.mhc_lanes
    L = g.num_layers
    out = [TensorSpec("embedding", (g.vocab, d), True)]
    per_layer = {
        "norm_in": ((d,), False),
        "q_proj": ((g.q_dim, d), True),
        "k_proj": ((g.kv_dim, d), True),
        "v_proj": ((g.kv_dim, d), True),
        "q_norm": ((g.head_dim,), False),
        "k_norm": ((g.head_dim,), False),
        "gate_proj": ((g.q_dim, d), True),
        "out_proj": ((d, g.q_dim), True),
        "post_norm": ((d,), False),
        "attn_gate": ((1,), False),
        "pre_hada": ((d,), False),
        "d1": ((g.hada_n,), False),
        "d2": ((g.hada_n,), False),
        "d3": ((g.hada_n,), False),
    }
    for i in range(L):
        for name in LAYER_TENSORS:
            shape, q = per_layer[name]
            out.append(TensorSpec(f"layer{i:02d}.{name}", shape, q))
    out += [
        TensorSpec("mhc_a_pre", (L,), False),
        TensorSpec("mhc_a_post", (L,), False),
        TensorSpec("mhc_a_res", (L,), False),
        TensorSpec("mhc_b_pre", (L, lanes), False),
        TensorSpec("mhc_b_post", (L, lanes), False),
        TensorSpec("mhc_b_res", (L, lanes, lanes), False),
        TensorSpec("mhc_phi_pre", (L * lanes, lanes * d), True),
        TensorSpec("mhc_phi_post", (L * lanes, lanes * d), True),
        TensorSpec("mhc_phi_res", (L * lanes * lanes, lanes * d), True),
    ]
    for s in range(len(g.engram_sites)):
        out += [
            TensorSpec(
                f"engram{s}.tables", (g.num_engram_tables * g.engram_slots, g.engram_sub_dim), True
            ),
            TensorSpec(f"engram{s}.key_proj", (d, g.engram_dim), True),
            TensorSpec(f"engram{s}.value_proj", (d, g.engram_dim), True),
            TensorSpec(f"engram{s}.taps", (g.engram_conv_taps, d), False),
        ]
    out.append(TensorSpec("final_norm", (d,), False))
    return out


def head_layout(g: Geometry, codes: list[int]) -> list[TensorSpec]:
    """The optional probe heads: a manifest of head codes, then (probes, proj, bias) per head."""
    out = [TensorSpec("heads.manifest", (len(codes),), False)]
    for c in codes:
        name, probes, width = HEAD_KINDS[c]
        out += [
            TensorSpec(f"{name}.probes", (probes, g.d_model), False),
            TensorSpec(f"{name}.proj", (width, probes * g.d_model), False),
            TensorSpec(f"{name}.bias", (width,), False),
        ]
    return out


@dataclass(frozen=True)
class TensorInfo:
    """One directory record, named."""

    index: int
    name: str
    dtype: int
    shape: tuple[int, ...]
    offset: int
    nbytes: int
    group: int
    bits: int

    @property
    def dtype_name(self) -> str:
        if self.dtype == CQ:
            return "CQ3T" if self.bits == cq.TERNARY_BITS else f"CQ{self.bits}"
        return DTYPE_NAMES[self.dtype]

    @property
    def elements(self) -> int:
        return math.prod(self.shape) if self.shape else 0


def expected_nbytes(dtype: int, shape: tuple[int, ...], group: int, bits: int) -> int | None:
    """Blob size implied by a record (None for RAW, whose size is free)."""
    if dtype == FP16:
        return 2 * math.prod(shape)
    if dtype == FP32:
        return 4 * math.prod(shape)
    if dtype == CQ:
        return cq.blob_nbytes(shape[0], shape[1], bits, group)
    return None


@dataclass
class CQView:
    """A CQ matrix as the kernels consume it: views over the mapped file, nothing copied."""

    name: str
    rows: int
    cols: int
    bits: int
    group: int
    codes: np.ndarray  # uint8 [rows, row_bytes]
    norms: np.ndarray  # float16 [rows, in_pad / group]
    codebook: np.ndarray  # float32 (the header's values for this width)

    def dequantize(self) -> np.ndarray:
        return cq.dequantize(
            self.codes, self.norms, self.cols, self.bits, self.group, self.codebook
        )

    def rows_dense(self, rows: np.ndarray | list[int]) -> np.ndarray:
        return cq.dequantize_rows(
            self.codes, self.norms, rows, self.cols, self.bits, self.group, self.codebook
        )

    def matvec(self, x: np.ndarray) -> np.ndarray:
        return cq.matvec(self.codes, self.norms, x, self.cols, self.bits, self.group, self.codebook)


def _fail(path: str, msg: str, index: int | None = None, offset: int | None = None) -> CactError:
    where = path
    if index is not None:
        where += f": tensor {index}"
    if offset is not None:
        where += f" (byte offset {offset})"
    return CactError(f"{where}: {msg}")


@dataclass
class CactFile:
    """A validated, memory-mapped `.cact` file."""

    path: str
    geometry: Geometry
    codebook_values: np.ndarray  # float32 [28]
    tensors: list[TensorInfo]
    buffer: memoryview | bytes = field(repr=False)
    head_codes: tuple[int, ...] = ()
    _mmap: mmap.mmap | None = field(default=None, repr=False)
    _sha256: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.by_name: dict[str, TensorInfo] = {t.name: t for t in self.tensors}

    # tensor access ------------------------------------------------------------------------
    def info(self, name: str) -> TensorInfo:
        try:
            return self.by_name[name]
        except KeyError:
            raise KeyError(f"{self.path}: no tensor named {name!r}") from None

    def codebook(self, bits: int, group: int = 128) -> np.ndarray:
        """Codebook for a width: the header's values (ternary is analytic, not in the header)."""
        if bits == cq.TERNARY_BITS:
            return cq.codebook(bits, group)
        cb = self.codebook_values[_CB_SLICES[bits]]
        if group != 128:
            # The header stores centres scaled for group 128; other groups rescale them.
            cb = (cb * np.float32(np.sqrt(128.0) / np.sqrt(group))).astype(np.float32)
        return cb

    def array(self, name: str) -> np.ndarray:
        """A FP16/FP32 tensor as a read-only view of its stored dtype and shape."""
        t = self.info(name)
        if t.dtype not in (FP16, FP32):
            raise TypeError(f"{name} is {t.dtype_name}, not a float array")
        dt = np.dtype("<f2") if t.dtype == FP16 else np.dtype("<f4")
        return np.frombuffer(self.buffer, dt, t.elements, t.offset).reshape(t.shape)

    def f32(self, name: str) -> np.ndarray:
        """A float tensor widened to FP32 (a small copy; used for vectors only)."""
        return self.array(name).astype(np.float32)

    def cq(self, name: str) -> CQView:
        t = self.info(name)
        if t.dtype != CQ:
            raise TypeError(f"{name} is {t.dtype_name}, not CQ")
        rows, cols = t.shape
        row_bytes = cq.row_code_bytes(cols, t.bits, t.group)
        groups = cq.padded(cols, t.group) // t.group
        codes = np.frombuffer(self.buffer, np.uint8, rows * row_bytes, t.offset)
        norms = np.frombuffer(self.buffer, "<f2", rows * groups, t.offset + rows * row_bytes)
        return CQView(
            name,
            rows,
            cols,
            t.bits,
            t.group,
            codes.reshape(rows, row_bytes),
            norms.reshape(rows, groups),
            self.codebook(t.bits, t.group),
        )

    def dense(self, name: str) -> np.ndarray:
        """Any numeric tensor as dense FP32 (CQ dequantized). For tests and conversion."""
        t = self.info(name)
        return self.cq(name).dequantize() if t.dtype == CQ else self.f32(name)

    def blob(self, name: str) -> memoryview:
        t = self.info(name)
        return memoryview(self.buffer)[t.offset : t.offset + t.nbytes]

    @property
    def tokenizer_blob(self) -> memoryview:
        return self.blob("tokenizer")

    @property
    def has_heads(self) -> bool:
        return bool(self.head_codes)

    def sha256(self) -> str:
        """Digest of the file bytes (cached). Read through the file, not the mapping, so that
        hashing leaves no pages resident in this process (the engine touches only what it
        uses: engram tables and embedding rows mostly stay out of RSS)."""
        if self._sha256 is None:
            h = hashlib.sha256()
            if self._mmap is not None:
                with open(self.path, "rb") as f:
                    while chunk := f.read(1 << 20):
                        h.update(chunk)
            else:
                h.update(self.buffer)
            self._sha256 = h.hexdigest()
        return self._sha256

    def __iter__(self) -> Iterator[TensorInfo]:
        return iter(self.tensors)

    def release_pages(self) -> None:
        """Drop this process's resident pages of the mapping (they are clean file pages).

        Loading copies the small tensors and reads the directory, touching pages the engine will
        never need again; after this, only what inference actually reads comes back. Where the
        file system faults in large blocks (2 MB here), that is several megabytes of RSS.
        """
        if self._mmap is not None and hasattr(mmap, "MADV_DONTNEED"):
            self._mmap.madvise(mmap.MADV_DONTNEED)

    # lifetime -----------------------------------------------------------------------------
    def close(self) -> None:
        """Release the mapping; views still alive keep it mapped until they are collected."""
        if self._mmap is not None:
            try:
                self.buffer.release() if isinstance(self.buffer, memoryview) else None
                self._mmap.close()
            except BufferError:
                pass  # NumPy views still reference the map; it is unmapped when they die
            self._mmap = None

    def __enter__(self) -> CactFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def parse_header(buf: bytes | memoryview, path: str = "<bytes>") -> tuple[Geometry, int]:
    """Geometry and tensor count from the first bytes of a file; checks tag and geometry."""
    if len(buf) < 4:
        raise _fail(path, f"truncated: {len(buf)} bytes, no room for the format tag", offset=0)
    (tag,) = struct.unpack_from("<I", buf, 0)
    if tag in TAG_GENERATIONS:
        raise _fail(
            path,
            f"unsupported model generation {TAG_GENERATIONS[tag]}; needled reads Needle 2 "
            f"v2 files (tag 0x{TAG_V2:08X})",
            offset=0,
        )
    if tag != TAG_V2:
        raise _fail(path, f"unknown format tag 0x{tag:08X}, not a Needle 2 .cact file", offset=0)
    if len(buf) < HEADER.size:
        raise _fail(path, f"truncated header: {len(buf)} of {HEADER.size} bytes", offset=0)
    h = HEADER.unpack_from(buf, 0)
    num_tensors, cb_len = h[1], h[2]
    n_orders, n_sites = h[19], h[24]
    if n_orders > 4 or n_sites > 4:
        raise _fail(path, f"header claims {n_orders} engram orders / {n_sites} sites (max 4)", 0)
    g = Geometry(
        kv_window=h[3],
        kv_bits=h[4],
        vocab=h[5],
        d_model=h[6],
        num_heads=h[7],
        num_kv_heads=h[8],
        num_layers=h[9],
        head_dim=h[10],
        max_seq_len=h[11],
        hada_n=h[12],
        mhc_lanes=h[13],
        engram_slots=h[14],
        engram_sub_dim=h[15],
        num_engram_tables=h[16],
        engram_conv_taps=h[17],
        engram_conv_dilation=h[18],
        engram_orders=tuple(h[20 : 20 + n_orders]),
        engram_sites=tuple(h[25 : 25 + n_sites]),
        rope_theta=float(h[29]),
    )
    problems = g.problems()
    if problems:
        field_name = problems[0].split(" ", 1)[0].rstrip(":")
        raise _fail(
            path,
            "inconsistent geometry: " + "; ".join(problems),
            offset=HEADER_OFFSETS.get(field_name, 0),
        )
    if cb_len != CODEBOOK_LEN:
        raise _fail(path, f"codebook_len {cb_len}, expected {CODEBOOK_LEN}", offset=8)
    return g, num_tensors


def parse(buf: bytes | memoryview | mmap.mmap, path: str = "<bytes>") -> CactFile:
    """Validate a whole `.cact` image and return its named tensor directory."""
    size = len(buf)
    g, num_tensors = parse_header(buf, path)
    cb_off = HEADER.size
    dir_off = cb_off + 4 * CODEBOOK_LEN
    if size < dir_off:
        raise _fail(path, f"truncated codebook: file ends at {size}", offset=cb_off)
    cbv = np.frombuffer(buf, "<f4", CODEBOOK_LEN, cb_off).astype(np.float32)
    for bits, sl in _CB_SLICES.items():
        seg = cbv[sl]
        if not np.all(np.isfinite(seg)) or np.any(np.diff(seg) <= 0):
            raise _fail(path, f"CQ{bits} codebook is not finite and increasing", offset=cb_off)

    # Count before building any per-tensor structure: a corrupt header can claim billions.
    n_base = 1 + len(LAYER_TENSORS) * g.num_layers + len(MHC_TENSORS)
    n_base += len(ENGRAM_TENSORS) * len(g.engram_sites) + 1
    if num_tensors < n_base + 1:
        raise _fail(
            path,
            f"{num_tensors} tensors, but the geometry needs {n_base} plus the tokenizer",
            offset=4,
        )
    dir_end = dir_off + num_tensors * RECORD.size
    if dir_end > size:
        raise _fail(
            path,
            f"directory of {num_tensors} records runs to byte {dir_end}, past the end ({size})",
            offset=dir_off,
        )
    extra = num_tensors - n_base - 1
    if extra and (extra - 1) % 3:
        raise _fail(path, f"{extra} tensors after final_norm do not form probe heads", offset=4)
    records = [RECORD.unpack_from(buf, dir_off + i * RECORD.size) for i in range(num_tensors)]
    base = base_layout(g)

    def rec_fail(i: int, msg: str) -> CactError:
        return _fail(path, msg, index=i, offset=dir_off + i * RECORD.size)

    specs = list(base)
    head_codes: list[int] = []
    if extra:
        n_heads = (extra - 1) // 3
        r = records[n_base]
        if r[0] != FP16 or r[1] != 1 or r[3] != n_heads:
            raise rec_fail(n_base, f"heads.manifest must be FP16 of shape ({n_heads},)")
        _check_blob_bounds(path, n_base, r, size, dir_end, dir_off)
        codes = np.frombuffer(buf, "<f2", n_heads, r[7]).astype(np.float32)
        for c in codes:
            if c not in HEAD_KINDS or int(c) in head_codes:
                raise rec_fail(n_base, f"heads.manifest has unknown or repeated head code {c}")
            head_codes.append(int(c))
        specs += head_layout(g, head_codes)
    specs.append(TensorSpec("tokenizer", (), False))

    infos: list[TensorInfo] = []
    for i, (spec, r) in enumerate(zip(specs, records, strict=True)):
        dtype, ndim, _pad, s0, s1, s2, s3, offset, nbytes, group, bits = r
        label = f"({spec.name}) "
        if dtype not in DTYPE_NAMES:
            raise rec_fail(i, f"{label}unknown dtype {dtype}")
        if ndim > 4:
            raise rec_fail(i, f"{label}ndim {ndim} > 4")
        dims = (s0, s1, s2, s3)
        if any(dims[ndim:]):
            raise rec_fail(i, f"{label}shape entries beyond ndim {ndim} are not zero: {dims}")
        shape = tuple(dims[:ndim])
        if spec.name == "tokenizer":
            if dtype != RAW:
                raise rec_fail(
                    i, f"{label}last tensor must be the RAW tokenizer, got dtype {dtype}"
                )
        elif spec.quantized:
            if dtype != CQ:
                raise rec_fail(i, f"{label}must be CQ, got {DTYPE_NAMES[dtype]}")
            if bits not in CQ_BITS:
                raise rec_fail(i, f"{label}CQ bits {bits} not in {CQ_BITS}")
            if group < 8 or group & (group - 1):
                raise rec_fail(i, f"{label}CQ group {group} must be a power of two >= 8")
        elif dtype not in (FP16, FP32):
            raise rec_fail(i, f"{label}must be FP16 or FP32, got {DTYPE_NAMES[dtype]}")
        if dtype != CQ and (group or bits):
            raise rec_fail(i, f"{label}group/bits ({group}/{bits}) set on a non-CQ tensor")
        if spec.name != "tokenizer" and shape != spec.shape:
            raise rec_fail(i, f"{label}shape {shape}, the geometry needs {spec.shape}")
        want = expected_nbytes(dtype, shape, group, bits) if dtype != RAW else None
        if want is not None and nbytes != want:
            raise rec_fail(i, f"{label}nbytes {nbytes}, shape/bits/group imply {want}")
        _check_blob_bounds(path, i, r, size, dir_end, dir_off, label)
        infos.append(TensorInfo(i, spec.name, dtype, shape, offset, nbytes, group, bits))

    # Blobs must not overlap: sort by offset and check each ends before the next begins.
    ordered = sorted(infos, key=lambda t: t.offset)
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.offset + a.nbytes > b.offset:
            raise _fail(
                path,
                f"({b.name}) blob at {b.offset} overlaps tensor {a.index} ({a.name}) "
                f"which ends at {a.offset + a.nbytes}",
                index=b.index,
                offset=dir_off + b.index * RECORD.size,
            )
    tok = infos[-1]
    try:
        parse_tokenizer_blob(
            memoryview(buf)[tok.offset : tok.offset + tok.nbytes], vocab_size=g.vocab
        )
    except CactError as e:
        raise _fail(
            path,
            f"(tokenizer) blob at {tok.offset}: {e}",
            tok.index,
            dir_off + tok.index * RECORD.size,
        ) from None
    return CactFile(path, g, cbv, infos, buf, tuple(head_codes))


def _check_blob_bounds(
    path: str, i: int, r: tuple, size: int, dir_end: int, dir_off: int, label: str = ""
) -> None:
    offset, nbytes = r[7], r[8]
    where = dir_off + i * RECORD.size
    if offset % ALIGN:
        raise _fail(path, f"{label}blob offset {offset} is not {ALIGN}-byte aligned", i, where)
    if offset < dir_end:
        raise _fail(path, f"{label}blob at {offset} overlaps the header/directory", i, where)
    if offset + nbytes > size:
        raise _fail(
            path,
            f"{label}blob [{offset}, {offset + nbytes}) lies outside the file ({size})",
            i,
            where,
        )


def read_cact(path: str | os.PathLike) -> CactFile:
    """Memory-map and validate a `.cact` file. Raises `CactError` on any violation."""
    p = os.fspath(path)
    try:
        with open(p, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size == 0:
                raise _fail(p, "empty file", offset=0)
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as e:
        raise CactError(f"{p}: cannot open: {e.strerror or e}") from e
    message = ""
    try:
        cf = parse(mm, p)
    except CactError as e:
        message = str(e)
    except Exception as e:  # noqa: BLE001 - any parser slip must still surface as CactError
        message = str(_fail(p, f"malformed file ({type(e).__name__}: {e})"))
    if message:
        # Raised outside the handler, and without the parser's exception: its traceback keeps
        # the parser's frames, whose views of the map would make closing it fail (BufferError).
        _unmap(mm)
        raise CactError(message)
    cf._mmap = mm
    return cf


def _unmap(mm: mmap.mmap) -> None:
    try:
        mm.close()
    except BufferError:
        pass  # a view is still alive somewhere: the map goes when it is collected


# ----------------------------------------------------------------------------------------------
# Writing


@dataclass
class Blob:
    """A tensor ready to write: its record fields and its bytes."""

    dtype: int
    shape: tuple[int, ...]
    data: bytes
    group: int = 0
    bits: int = 0


def parse_bits_map(spec: str) -> tuple[dict[str, int], int]:
    """Parse `embedding=4,mhc=4,default=2` into ({prefix: bits}, default). Ternary: `t`/1.58/5."""
    m: dict[str, int] = {}
    default = None
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise ValueError(f"bits map entry {part!r} is not key=bits")
        k, v = (s.strip() for s in part.split("=", 1))
        b = cq.TERNARY_BITS if v in ("t", "1.58", "5") else int(v)
        if b not in CQ_BITS:
            raise ValueError(f"bits map {spec!r}: unsupported width {v}")
        if k == "default":
            default = b
        else:
            m[k] = b
    if default is None:
        raise ValueError(f"bits map {spec!r} needs a default=<bits> entry")
    return m, default


def bits_for(name: str, bits_map: tuple[dict[str, int], int]) -> int:
    """Width for a tensor: the longest bits-map prefix of its canonical name wins.

    Canonical names drop the layer number (`layer03.q_proj` -> `attn.q_proj`), so a map can say
    `attn.q_proj=3`; `mhc` matches the three mHC projections, `engram0.tables` one site's tables.
    """
    m, default = bits_map
    canon = name
    if name.startswith("layer") and "." in name:
        canon = "attn." + name.split(".", 1)[1]
    hits = [k for k in m if canon.startswith(k)]
    return m[max(hits, key=len)] if hits else default


def quantized_blob(w: np.ndarray, bits: int, group: int = 128) -> Blob:
    packed, norms = cq.quantize(w, bits, group)
    return Blob(CQ, tuple(w.shape), packed.tobytes() + norms.tobytes(), group, bits)


def fp16_blob(a: np.ndarray) -> Blob:
    a = np.asarray(a, dtype="<f2")
    return Blob(FP16, tuple(a.shape), a.tobytes())


def serialize(g: Geometry, blobs: list[Blob], codebook_values: np.ndarray | None = None) -> bytes:
    """Lay out header, codebooks, directory and 64-byte aligned blobs."""
    cbv = cq.header_codebooks(128) if codebook_values is None else codebook_values
    head = HEADER.pack(TAG_V2, len(blobs), CODEBOOK_LEN, *g.header_fields(), float(g.rope_theta))
    head += np.asarray(cbv, "<f4").tobytes()
    pos = len(head) + RECORD.size * len(blobs)
    offsets = []
    for b in blobs:
        pos = -(-pos // ALIGN) * ALIGN
        offsets.append(pos)
        pos += len(b.data)
    directory = b"".join(
        RECORD.pack(
            b.dtype,
            len(b.shape),
            0,
            *(list(b.shape) + [0] * 4)[:4],
            off,
            len(b.data),
            b.group,
            b.bits,
        )
        for b, off in zip(blobs, offsets, strict=True)
    )
    out = bytearray(head + directory)
    for b, off in zip(blobs, offsets, strict=True):
        out += bytes(off - len(out))
        out += b.data
    return bytes(out)


def build_cact(
    g: Geometry,
    tensors: Mapping[str, np.ndarray],
    tokenizer_blob: bytes,
    bits_map: str = "embedding=4,mhc=4,default=2",
    group: int = 128,
) -> bytes:
    """Quantize float tensors (canonical names, `.cact` layout `[out, in]`) into a file image.

    Probe heads are written when `tensors` holds them (`contrastive_head.*`, `confidence_head.*`).
    """
    problems = g.problems()
    if problems:
        raise ValueError("inconsistent geometry: " + "; ".join(problems))
    bm = parse_bits_map(bits_map)
    specs = base_layout(g)
    codes = [c for c, (name, _, _) in HEAD_KINDS.items() if f"{name}.probes" in tensors]
    if codes:
        specs += head_layout(g, codes)
    blobs = []
    for spec in specs:
        if spec.name == "heads.manifest":
            blobs.append(fp16_blob(np.asarray(codes, np.float32)))
            continue
        if spec.name not in tensors:
            raise KeyError(f"missing tensor {spec.name}")
        a = np.asarray(tensors[spec.name], dtype=np.float32)
        if a.shape != spec.shape:
            raise ValueError(f"{spec.name}: shape {a.shape}, the geometry needs {spec.shape}")
        blobs.append(
            quantized_blob(a, bits_for(spec.name, bm), group) if spec.quantized else fp16_blob(a)
        )
    blobs.append(Blob(RAW, (), bytes(tokenizer_blob)))
    return serialize(g, blobs)


def rewrite_cact(src: CactFile, changes: Mapping[str, np.ndarray] | None = None) -> bytes:
    """Re-emit `src` with some tensors replaced by new float values.

    Unchanged tensors keep their exact stored bytes (quantization is not idempotent, so they are
    never re-quantized); changed CQ tensors are quantized at their recorded bits and group.
    """
    changes = dict(changes or {})
    unknown = set(changes) - set(src.by_name)
    if unknown:
        raise KeyError(f"no such tensors: {sorted(unknown)}")
    blobs = []
    for t in src.tensors:
        if t.name in changes:
            a = np.asarray(changes[t.name], dtype=np.float32)
            if a.shape != t.shape:
                raise ValueError(f"{t.name}: new shape {a.shape} != stored {t.shape}")
            if t.dtype == CQ:
                blobs.append(quantized_blob(a, t.bits, t.group))
            elif t.dtype == FP32:
                blobs.append(Blob(FP32, t.shape, a.astype("<f4").tobytes()))
            else:
                blobs.append(fp16_blob(a))
        else:
            blobs.append(Blob(t.dtype, t.shape, bytes(src.blob(t.name)), t.group, t.bits))
    return serialize(src.geometry, blobs, src.codebook_values)


def write_file(path: str | os.PathLike, data: bytes) -> None:
    """Write atomically (temp file + rename) so a crash never leaves a half-written model."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, p)
