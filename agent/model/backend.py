"""The engine interface a session drives, and its implementation over the NumPy reference.

A session needs five things from a forward backend: feed a chunk of tokens (prefill), feed one
token and get the next position's logits for some candidate rows only, snapshot and restore the
cache (the tools prefix is prefilled once and restored per command), and, when the model has
probe heads, the attention-pooled summaries those heads read. `open_engine` picks the native
engine when it is built and falls back to the reference with a warning.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from agent.model.cact import CactFile

log = logging.getLogger(__name__)


class Engine(Protocol):
    vocab: int

    @property
    def position(self) -> int: ...

    def reset(self, sinks: int | None = None) -> None: ...

    def prefill(self, ids: Sequence[int]) -> None: ...

    def step(self, token_id: int, candidates: np.ndarray | None = None) -> np.ndarray: ...

    def step_many(self, ids: Sequence[int], candidates: np.ndarray | None = None) -> np.ndarray: ...

    def save_state(self) -> Any: ...

    def restore_state(self, state: Any) -> None: ...

    def head_logits(self, name: str) -> np.ndarray | None: ...

    def embed_sequence(self, ids: Sequence[int]) -> np.ndarray | None: ...


class ProbePool:
    """Online attention pooling of cells by a probe head (spec: probe heads).

    The head's softmax runs over every (position, cell) seen so far; keeping a running max,
    denominator and weighted sum per probe gives the same result as pooling all cells at the
    end, in O(probes * d) memory instead of O(positions * layers * d).
    """

    def __init__(self, probes: np.ndarray, proj: np.ndarray, bias: np.ndarray) -> None:
        self.probes = np.ascontiguousarray(probes, dtype=np.float32)
        self.proj = proj.astype(np.float32)
        self.bias = bias.astype(np.float32)
        self.scale = np.float32(1.0 / np.sqrt(self.probes.shape[1]))
        P, d = self.probes.shape
        # Updated in place, never rebound: the native engine pools into these very arrays.
        self.m = np.empty(P, np.float64)
        self.den = np.empty(P, np.float64)
        self.acc = np.empty((P, d), np.float64)
        self.reset()

    def reset(self) -> None:
        self.m.fill(-np.inf)
        self.den.fill(0.0)
        self.acc.fill(0.0)

    def add(self, cells: np.ndarray) -> None:
        """Add cells `[n, d]` (any order: the pooled result does not depend on it)."""
        # einsum, not `@`: these products are small, and a threaded BLAS call costs far more
        # than it computes when another core is busy (measured: 24 ms instead of 0.3 ms).
        s = np.einsum("pd,nd->pn", self.probes, cells).astype(np.float64) * self.scale
        m_new = np.maximum(self.m, s.max(axis=1))
        shrink = np.exp(self.m - m_new)
        w = np.exp(s - m_new[:, None])
        self.den[...] = self.den * shrink + w.sum(axis=1)
        self.acc[...] = self.acc * shrink[:, None] + np.einsum("pn,nd->pd", w, cells)
        self.m[...] = m_new

    def output(self) -> np.ndarray:
        pooled = (self.acc / self.den[:, None]).astype(np.float32).reshape(-1)
        return self.proj @ pooled + self.bias

    def snapshot(self) -> tuple:
        return self.m.copy(), self.den.copy(), self.acc.copy()

    def restore(self, snap: tuple) -> None:
        self.m[...], self.den[...], self.acc[...] = snap


def probe_pools(
    cf: CactFile, names: Sequence[str] = ("contrastive_head", "confidence_head")
) -> dict[str, ProbePool]:
    return {
        name: ProbePool(cf.f32(f"{name}.probes"), cf.f32(f"{name}.proj"), cf.f32(f"{name}.bias"))
        for name in names
        if f"{name}.probes" in cf.by_name
    }


class ReferenceEngine:
    """The NumPy reference behind the engine interface (slow; for tests and validation)."""

    def __init__(self, cf: CactFile, window: int | None = None, sinks: int = 0) -> None:
        from agent.model.reference import ReferenceModel

        self.model = ReferenceModel(cf)
        self.vocab = cf.geometry.vocab
        self.window, self.sinks = window, sinks
        self.pools = probe_pools(cf)
        self.reset()

    @property
    def position(self) -> int:
        return self.state.position

    def reset(self, sinks: int | None = None) -> None:
        if sinks is not None:
            self.sinks = sinks
        self.state = self.model.new_state(self.window, self.sinks)
        for p in self.pools.values():
            p.reset()

    def _run(self, ids: Sequence[int]) -> np.ndarray:
        out = self.model.forward(ids, self.state)
        for p in self.pools.values():
            p.add(out.cells.reshape(-1, out.cells.shape[-1]))
        return out.logits

    def prefill(self, ids: Sequence[int]) -> None:
        if len(ids):
            self._run(ids)

    def step(self, token_id: int, candidates: np.ndarray | None = None) -> np.ndarray:
        return self.step_many([token_id], candidates)

    def step_many(self, ids: Sequence[int], candidates: np.ndarray | None = None) -> np.ndarray:
        row = self._run(ids)[-1]
        return row if candidates is None else row[candidates]

    def save_state(self) -> Any:
        return copy.deepcopy(self.state), {k: p.snapshot() for k, p in self.pools.items()}

    def restore_state(self, state: Any) -> None:
        st, pools = state
        self.state = copy.deepcopy(st)
        for k, snap in pools.items():
            self.pools[k].restore(snap)

    def head_logits(self, name: str) -> np.ndarray | None:
        p = self.pools.get(name)
        return None if p is None else p.output()

    def embed_sequence(self, ids: Sequence[int]) -> np.ndarray | None:
        if "contrastive_head" not in self.model.heads:
            return None
        z = self.model.head("contrastive_head", self.model.forward(ids).cells)
        return z / np.linalg.norm(z)


class NativeSessionEngine:
    """`agent.model.engine.NativeEngine` behind the session interface.

    Adds what a session needs on top of the raw engine: sinks that follow the tools prefix
    (the engine is rebuilt when the prefix length changes, which only happens with a new tool
    subset), feeding tokens without computing logits, and online probe pooling over the cells
    of every fed token, in fixed buffers (nothing is allocated per token).
    """

    # Prefill chunk: sizes the engine's per-chunk buffers. 8 keeps a query in two chunks and,
    # at the release geometry, about 1.4 MB less resident than 32 (measured on the daemon);
    # the attention of a chunk's queries shares one pass over the cache up to 8 anyway.
    CHUNK = 8

    def __init__(
        self,
        cf: CactFile,
        mode: str = "int8",
        window: int | None = None,
        sinks: int = 0,
        threads: int | None = None,
    ) -> None:
        from agent.model.engine import NativeEngine

        self._cls = NativeEngine
        self.cf = cf
        g = cf.geometry
        self.vocab = g.vocab
        self.mode, self.window, self.threads = mode, window, threads
        # Only the confidence head pools the running sequence, inside the engine (no cells
        # buffer, no per-token NumPy work); the contrastive (retrieval) head reads sequences of
        # its own (embed_sequence), so its pool (a 1 MB FP32 projection at the release
        # geometry) exists only once retrieval is used.
        self.pools = probe_pools(cf, ("confidence_head",))
        self._contrastive: ProbePool | None = None
        self._out = np.zeros(g.vocab, np.float32)
        self._none = np.zeros(0, np.float32)
        self._ids = np.zeros(self.CHUNK, np.int32)
        self.eng = NativeEngine(
            cf, mode=mode, window=window, sinks=sinks, threads=threads, chunk=self.CHUNK
        )
        self._owner_seq = 0
        self._sink_owner: int | None = None  # which saved prefix the sink slots hold
        self._attach(self.pools.get("confidence_head"))

    def _attach(self, pool: ProbePool | None) -> None:
        """Make the engine pool every cell it produces into `pool` (None: no pooling)."""
        if pool is None:
            self.eng._eng.set_pool()
        else:
            self.eng._eng.set_pool(pool.probes, float(pool.scale), pool.m, pool.den, pool.acc)

    @property
    def isa(self) -> str:
        return self.eng.isa

    @property
    def position(self) -> int:
        return self.eng.position

    def reset(self, sinks: int | None = None) -> None:
        if sinks is not None and self.window is not None and sinks > self.eng.max_sinks:
            self._sink_owner = None
            # Only a prefix longer than the sink region needs a new engine (a bigger one).
            self.eng = self._cls(
                self.cf,
                mode=self.mode,
                window=self.window,
                sinks=sinks,
                threads=self.threads,
                max_sinks=sinks,
                chunk=self.CHUNK,
            )
            self._attach(self.pools.get("confidence_head"))
        self.eng.reset(sinks=sinks if self.window is not None else None)
        for p in self.pools.values():
            p.reset()

    def _forward(self, ids: np.ndarray, candidates: np.ndarray | None) -> np.ndarray:
        """Run a chunk (<= CHUNK ids); logits of the last position for `candidates`."""
        want = candidates is None or candidates.size > 0
        out = (
            self._none
            if not want
            else self._out[: self.vocab if candidates is None else candidates.size]
        )
        cand = candidates if want else None
        self.eng._eng.forward(ids, out, 1 if want else 0, cand, None)
        return out

    def prefill(self, ids: Sequence[int]) -> None:
        if self.eng.position < self.eng.sinks:
            self._sink_owner = None  # these tokens land in the sink slots
        a = np.asarray(ids, dtype=np.int32)
        for i in range(0, a.size, self.CHUNK):
            self._forward(np.ascontiguousarray(a[i : i + self.CHUNK]), _NO_ROWS)

    def step(self, token_id: int, candidates: np.ndarray | None = None) -> np.ndarray:
        self._ids[0] = token_id
        c = None if candidates is None else np.ascontiguousarray(candidates, dtype=np.int32)
        return self._forward(self._ids[:1], c)

    def step_many(self, ids: Sequence[int], candidates: np.ndarray | None = None) -> np.ndarray:
        """Feed several tokens as one batch (forced spans reuse each weight group across
        them) and return the logits after the last one."""
        n = len(ids)
        if n == 1:
            return self.step(ids[0], candidates)
        c = None if candidates is None else np.ascontiguousarray(candidates, dtype=np.int32)
        out = None
        for i in range(0, n, self.CHUNK):
            part = ids[i : i + self.CHUNK]
            self._ids[: len(part)] = part
            last = i + self.CHUNK >= n
            out = self._forward(self._ids[: len(part)], c if last else _NO_ROWS)
        return out

    def save_state(self) -> Any:
        return self.eng.save_state(), {k: p.snapshot() for k, p in self.pools.items()}

    def restore_state(self, state: Any) -> None:
        st, pools = state
        self.eng.restore_state(st)
        for k, snap in pools.items():
            self.pools[k].restore(snap)
        if not st.keep_sinks:
            self._sink_owner = None  # the sink slots now hold whatever this state carried

    # A tools prefix fills exactly the sink slots, which later tokens never overwrite, so the
    # session keeps only a small snapshot (engram history, pools) per prefix and returns to it
    # in place, as long as the slots still hold that prefix. This saves the prefix's KV copy
    # (about 14 KB per token in int8 at the release geometry).
    def save_prefix(self) -> Any:
        assert self.eng.position == self.eng.sinks, "a prefix must fill the sink slots exactly"
        self._owner_seq += 1
        self._sink_owner = self._owner_seq
        state = self.eng.save_state(keep_sinks=True)
        return self._owner_seq, state, {k: p.snapshot() for k, p in self.pools.items()}

    def restore_prefix(self, prefix: Any) -> bool:
        """Back to a saved prefix; False when its sink slots were overwritten since."""
        owner, st, pools = prefix
        if owner != self._sink_owner:
            return False
        self.eng.restore_state(st)
        for k, snap in pools.items():
            self.pools[k].restore(snap)
        return True

    def head_logits(self, name: str) -> np.ndarray | None:
        p = self.pools.get(name)
        if p is None:
            return None
        return p.output()

    def persist_prefix(self, path: Path, prefix_ids: Sequence[int]) -> None:
        """Write the current state (exactly `prefix_ids` from a reset) for a later process."""
        self.eng.persist(path, prefix_ids)
        pools = {f"{k}.{i}": a for k, p in self.pools.items() for i, a in enumerate(p.snapshot())}
        tmp = path.with_name(path.name + ".pools.tmp.npz")
        np.savez(tmp, **pools)
        tmp.replace(path.with_name(path.name + ".pools.npz"))

    def load_prefix(self, path: Path, prefix_ids: Sequence[int]) -> bool:
        """Restore a persisted prefix when model, settings and ids match; else False."""
        side = path.with_name(path.name + ".pools.npz")
        if self.pools and not side.exists():
            return False
        if not self.eng.load(path, prefix_ids):
            return False
        if self.pools:
            try:
                with np.load(side) as z:
                    for k, p in self.pools.items():
                        p.restore(tuple(z[f"{k}.{i}"] for i in range(3)))
            except (OSError, KeyError, ValueError):
                self.reset()
                return False
        return True

    def embed_sequence(self, ids: Sequence[int]) -> np.ndarray | None:
        """Contrastive embedding of `ids` run from position 0; the engine state is kept."""
        if self._contrastive is None:
            pools = probe_pools(self.cf, ("contrastive_head",))
            if not pools:
                return None
            self._contrastive = pools["contrastive_head"]
        pool = self._contrastive
        # A conversation may be in the cache: put it back afterwards.
        saved = self.save_state() if self.eng.position else None
        self._attach(pool)  # the cells of `ids` feed this pool alone
        try:
            self.eng.reset()
            pool.reset()
            self.prefill(ids)
            z = pool.output()
        finally:
            self._attach(self.pools.get("confidence_head"))
        if saved is None:
            self.reset()
        else:
            self.restore_state(saved)
        return z / max(float(np.linalg.norm(z)), 1e-12)


_NO_ROWS = np.zeros(0, np.int32)


def open_engine(
    cf: CactFile,
    backend: str = "auto",
    mode: str = "int8",
    window: int | None = None,
    sinks: int = 0,
    threads: int | None = None,
) -> Engine:
    """An engine for `cf`: `native`, `reference`, or `auto` (native when it is built)."""
    if backend in ("native", "auto"):
        from agent.model.engine import native_available

        if native_available():
            return NativeSessionEngine(cf, mode=mode, window=window, sinks=sinks, threads=threads)
        if backend == "native":
            raise RuntimeError("the native engine is not built (pip install the package)")
        log.warning("native engine unavailable; using the slow NumPy reference")
    if backend not in ("reference", "auto"):
        raise ValueError(f"unknown backend {backend!r}")
    return ReferenceEngine(cf, window=window, sinks=sinks)
