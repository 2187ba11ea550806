"""The native engine: the whole Needle 2 token step in compiled code over the mapped `.cact`.

`NativeEngine` wraps `kernels._native` (C kernels chosen at run time for the CPU: AVX2/AVX-VNNI,
NEON with or without dot product, portable C). One Python call runs one token (`step`) or a whole
prompt in chunks (`prefill`), with the GIL released. Two modes:

- `fp32`: exact; codebook lookup and FP32 accumulation, FP32 KV cache. Matches the golden vectors
  to FP32 rounding.
- `int8`: per-group int8 activations times an int8 image of the codebook with integer dot
  products; int8 KV cache with per-head scales, attention with the query quantised per head and
  exact integer q.k, the int8 values accumulated in FP32. Measured against the golden vectors:
  max relative logit error 3.5e-3 (tiny) and 3.1e-3 (release), top-1 identical on every row
  (asserted in tests/test_engine.py).

The per-token vector work (norms, RoPE, softmax, SiLU, gates, mHC lane mixing, Sinkhorn in the
positive domain with a log-space fallback) runs in per-ISA compiled code as well.

Memory is fixed when the engine is made: the KV cache is `max_sinks` pinned slots (default 512)
plus a ring of `window` slots per layer (or `capacity` slots without a window), and every buffer a
step needs. `reset(sinks=n)` chooses how many of the pinned slots are used (n <= max_sinks), so a
session that switches tool subsets (another prefix length) keeps its engine; the cache pages of
unused sink slots are never touched, so they cost address space, not resident memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agent.model.cact import STATE_SINKS, CactFile

try:
    from kernels import _native
except ImportError as e:  # pragma: no cover - only without a build
    _native = None
    _IMPORT_ERROR = e

MODES = ("fp32", "int8")
DEFAULT_MAX_SINKS = STATE_SINKS  # the sink region the model header's state bound assumes
# The most bytes one engine's buffers (KV cache, engram history, step buffers) may take. The
# largest engine the tools make for the release model (FP32, full 2,048-position cache, 4
# threads) takes 125 MiB; beyond 4x that a setting or a geometry is a mistake, and refusing it
# beats a board swapping or the kernel's OOM killer.
ENGINE_BUDGET_BYTES = 512 << 20
_PERSIST_MAGIC = b"NDLPFX01"
_LOGITS_LAST, _LOGITS_ALL = 1, 2


def native_available() -> bool:
    """Whether the compiled kernels are importable (built with `setup.py build_ext`)."""
    return _native is not None


def physical_cores() -> int:
    """Physical cores (not SMT siblings) from sysfs, else the logical count."""
    seen = set()
    base = Path("/sys/devices/system/cpu")
    for cpu in base.glob("cpu[0-9]*"):
        topo = cpu / "topology"
        try:
            seen.add(((topo / "physical_package_id").read_text(), (topo / "core_id").read_text()))
        except OSError:
            continue
    avail = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(len(seen) or (os.cpu_count() or 1), avail or 1))


def default_threads() -> int:
    return min(4, physical_cores())


@dataclass(frozen=True)
class PrefixState:
    """A snapshot of KV cache, engram history and position (`NativeEngine.save_state`)."""

    data: bytes
    position: int
    key: str  # mode/window/max sinks/model fingerprint of the engines it fits
    sinks: int = 0  # pinned positions in use when it was saved (restored with it)
    # True: the sink slots were left out (see `save_state(keep_sinks=True)`)
    keep_sinks: bool = False


class NativeEngine:
    """Needle 2 inference over a `CactFile` in native code.

    `window=None` means full causal attention over up to `capacity` positions (default: the
    header's `max_seq_len`); with a window, query `t` sees key `p` iff `t - p < window` or `p` is
    one of the first `sinks` positions, and the cache never grows. The sink region is allocated
    for `max_sinks` (default `max(sinks, 512)`) positions; `reset(sinks=n)` picks n. Buffers
    beyond `budget_bytes` raise MemoryError (so does a failed allocation).
    """

    def __init__(
        self,
        cf: CactFile,
        mode: str = "fp32",
        window: int | None = None,
        sinks: int = 0,
        threads: int | None = None,
        isa: str | None = None,
        chunk: int = 32,
        capacity: int | None = None,
        max_sinks: int | None = None,
        budget_bytes: int = ENGINE_BUDGET_BYTES,
    ) -> None:
        if _native is None:
            raise RuntimeError(f"native kernels are not built: {_IMPORT_ERROR}")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if window is not None and window < 1:
            raise ValueError(f"window must be >= 1, got {window}")
        if sinks < 0:
            raise ValueError(f"sinks must be >= 0, got {sinks}")
        g = cf.geometry
        self.cf = cf
        self.geometry = g
        self.mode = mode
        self.window = window
        sinks = sinks if window is not None else 0
        if window is None:
            max_sinks = 0
        elif max_sinks is None:
            max_sinks = max(sinks, DEFAULT_MAX_SINKS)
        elif max_sinks < sinks:
            raise ValueError(f"sinks ({sinks}) exceeds max_sinks ({max_sinks})")
        self.max_sinks = int(max_sinks)
        self.threads = default_threads() if threads is None else max(1, int(threads))
        self.chunk = max(1, int(chunk))
        self.capacity = (
            int(capacity or g.max_seq_len) if window is None else self.max_sinks + window
        )
        self._model = _native._Model(cf)
        cf.release_pages()  # the model copied its small tensors; keep only what runs
        self._eng = _native._Engine(
            self._model,
            isa,
            mode == "int8",
            window or 0,
            sinks,
            self.capacity,
            self.chunk,
            self.threads,
            self.max_sinks,
            budget_bytes,
        )
        self._out = np.zeros(g.vocab, np.float32)
        self._ids1 = np.zeros(1, np.int32)
        self._fingerprint: str | None = None

    # -- properties ------------------------------------------------------------------------
    @property
    def isa(self) -> str:
        """Kernel path in use: `avx2_vnni`, `avx2`, `neon_dot`, `neon` or `portable`."""
        return self._eng.isa

    @property
    def sinks(self) -> int:
        """Pinned positions in use (set by the constructor or `reset(sinks=...)`)."""
        return self._eng.sinks

    @property
    def position(self) -> int:
        """Tokens consumed since `reset` (the absolute position of the next token)."""
        return self._eng.pos

    @property
    def memory_budget_bytes(self) -> int:
        """Bytes the engine allocated (KV cache, engram history, step buffers); fixed for life.

        The weights are not included: they stay in the file's mapped pages.
        """
        return int(self._eng.nbytes)

    def stage_times_ns(self) -> dict[str, float]:
        """Cumulative time per stage since `reset` (profiling)."""
        names = ("embed", "qkvg", "attention", "out_proj", "mlp", "engram", "mhc", "logits")
        return dict(zip(names, self._eng.timers(), strict=True))

    # -- running ---------------------------------------------------------------------------
    def reset(self, sinks: int | None = None) -> None:
        """Forget the sequence (the cache is reused, not reallocated).

        `sinks`: how many leading positions are pinned from now on (0..max_sinks; without a
        window it must be 0 or None). None keeps the current count.
        """
        if sinks is not None:
            if sinks < 0 or (self.window is None and sinks) or sinks > self.max_sinks:
                raise ValueError(f"sinks must be 0..{self.max_sinks}, got {sinks}")
        self._eng.reset(sinks)

    def prefill(
        self,
        ids: Sequence[int] | np.ndarray,
        last_only: bool = False,
        candidates: np.ndarray | None = None,
        cells: bool = False,
    ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Run `ids` from the current position in chunks; logits `[n, rows]` or `[rows]`.

        `rows` is the vocabulary or `len(candidates)`. With `cells=True` also returns the probe
        cells `[n, L + 1, d]` (x0 and the lane mean after every layer).
        """
        a = np.ascontiguousarray(ids, dtype=np.int32).reshape(-1)
        if a.size == 0:
            raise ValueError("prefill needs at least one token")
        cand = self._cand(candidates)
        rows = self.geometry.vocab if cand is None else cand.size
        n = a.size
        out = np.zeros(rows if last_only else n * rows, np.float32)
        cl = None
        if cells:
            cl = np.zeros(n * (self.geometry.num_layers + 1) * self.geometry.d_model, np.float32)
        self._eng.forward(a, out, _LOGITS_LAST if last_only else _LOGITS_ALL, cand, cl)
        res = out if last_only else out.reshape(n, rows)
        if cells:
            g = self.geometry
            return res, cl.reshape(n, g.num_layers + 1, g.d_model)
        return res

    def step(self, token_id: int, candidates: np.ndarray | None = None) -> np.ndarray:
        """Feed one token; logits for the next position over the vocabulary or `candidates`.

        The returned array is the engine's own buffer, overwritten by the next call (no
        allocation per token): copy it to keep it.
        """
        self._ids1[0] = token_id
        cand = self._cand(candidates)
        out = self._out if cand is None else self._out[: cand.size]
        self._eng.forward(self._ids1, out, _LOGITS_LAST, cand, None)
        return out

    def _cand(self, candidates: np.ndarray | None) -> np.ndarray | None:
        if candidates is None:
            return None
        c = np.ascontiguousarray(candidates, dtype=np.int32).reshape(-1)
        if c.size == 0 or c.size > self.geometry.vocab:
            raise ValueError(f"candidates must hold 1..{self.geometry.vocab} row ids")
        return c

    def heads(self, ids: Sequence[int] | np.ndarray) -> dict[str, np.ndarray | float]:
        """Probe heads over `ids` (run from position 0; resets the engine first).

        The pooling over (position, cell) is done in NumPy on the cells the native prefill
        returns; it is small next to the forward pass.
        """
        self.reset()
        _, cells = self.prefill(ids, last_only=True, cells=True)
        self.reset()
        return probe_heads(self.cf, cells)

    # -- prefix cache ----------------------------------------------------------------------
    def _key(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = self.cf.sha256()
        return f"{self._fingerprint}:{self.mode}:{self.window}:{self.max_sinks}:{self.capacity}"

    def save_state(self, keep_sinks: bool = False) -> PrefixState:
        """Snapshot the sequence state (used KV slots, engram history, position, sinks count).

        With `keep_sinks` the sink slots stay out of the snapshot: a few kilobytes instead of
        the prefix's KV. Restoring it is only right while the sink slots still hold the same
        tokens, i.e. no other prefix was prefilled into them since (the caller tracks that).
        """
        data = self._eng.save_state(keep_sinks)
        return PrefixState(data, self.position, self._key(), self.sinks, keep_sinks)

    def restore_state(self, state: PrefixState) -> None:
        """Return to a snapshot taken by `save_state` on an engine with the same model, mode,
        window and max configuration (max_sinks, capacity); its sinks count comes back with it."""
        if state.key != self._key():
            raise ValueError("prefix state belongs to another model or engine configuration")
        self._eng.load_state(state.data)

    def prefix_fingerprint(self, prefix_ids: Sequence[int]) -> str:
        """Key of a persisted prefix: model bytes, engine settings, sinks and the prefix ids."""
        h = hashlib.sha256(f"{self._key()}:{self.sinks}".encode())
        h.update(np.ascontiguousarray(prefix_ids, dtype="<i4").tobytes())
        return h.hexdigest()

    def persist(self, path: str | os.PathLike, prefix_ids: Sequence[int]) -> None:
        """Write the current state (which must be exactly `prefix_ids` run from a reset)."""
        if self.position != len(prefix_ids):
            raise ValueError(
                f"engine is at position {self.position}, prefix has {len(prefix_ids)} tokens"
            )
        st = self.save_state()
        meta = json.dumps(
            {"fingerprint": self.prefix_fingerprint(prefix_ids), "position": st.position}
        ).encode()
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(_PERSIST_MAGIC + struct.pack("<I", len(meta)) + meta)
            f.write(st.data)
        os.replace(tmp, p)

    def load(self, path: str | os.PathLike, prefix_ids: Sequence[int]) -> bool:
        """Restore a persisted prefix if it matches this model, settings and ids; else False."""
        try:
            raw = Path(path).read_bytes()
        except OSError:
            return False
        if not raw.startswith(_PERSIST_MAGIC) or len(raw) < len(_PERSIST_MAGIC) + 4:
            return False
        (n,) = struct.unpack_from("<I", raw, len(_PERSIST_MAGIC))
        start = len(_PERSIST_MAGIC) + 4
        try:
            meta = json.loads(raw[start : start + n])
        except ValueError:
            return False
        if meta.get("fingerprint") != self.prefix_fingerprint(prefix_ids):
            return False
        try:
            self._eng.load_state(raw[start + n :])
        except ValueError:
            return False
        return True


def probe_heads(cf: CactFile, cells: np.ndarray) -> dict[str, np.ndarray | float]:
    """Contrastive and confidence heads from cells `[n, L + 1, d]` (absent heads are skipped)."""
    d = cells.shape[-1]
    flat = cells.reshape(-1, d).astype(np.float32)
    out: dict[str, np.ndarray | float] = {}
    for name in ("contrastive_head", "confidence_head"):
        if f"{name}.probes" not in cf.by_name:
            continue
        probes = cf.f32(f"{name}.probes")
        s = flat @ probes.T / np.float32(np.sqrt(d))  # [cells, P]
        s = s - s.max(axis=0, keepdims=True)
        w = np.exp(s)
        w /= w.sum(axis=0, keepdims=True)
        pooled = (w.T @ flat).reshape(-1)  # concat of the P pooled vectors
        y = cf.f32(f"{name}.proj") @ pooled + cf.f32(f"{name}.bias")
        if name == "contrastive_head":
            out["contrastive"] = y / max(float(np.linalg.norm(y)), 1e-12)
        else:
            out["confidence"] = float(y.reshape(-1)[0])
    return out
