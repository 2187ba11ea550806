"""The Needle 2 forward pass in NumPy FP32, written to read like the spec (section 2).

This is the numerical reference every fast path is tested against. It runs on dense FP32
weights dequantized from the `.cact`, processes a chunk of tokens at a time over a KV cache, and
supports the sliding window with pinned sink positions exactly as the reference cached decoder
defines it (spec section 6). It favours clarity over speed.

    model = ReferenceModel(read_cact("model.cact"))
    logits = model.forward(ids).logits                    # full causal forward
    state = model.new_state(window=256, sinks=40)
    model.forward(prompt, state)                          # prefill
    model.forward([next_id], state)                       # one decode step
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from agent.model.cact import CactFile, Geometry
from kernels.ref import (
    attention,
    engram_rows,
    hadamard_mlp,
    probe_pool,
    rms_unit,
    rope,
    sigmoid,
    sinkhorn,
    zcn,
)


@dataclass
class Layer:
    norm_in: np.ndarray
    wq: np.ndarray  # [q_dim, d]  (rows are outputs: y = W @ x)
    wk: np.ndarray
    wv: np.ndarray
    q_norm: np.ndarray
    k_norm: np.ndarray
    wgate: np.ndarray
    wout: np.ndarray
    post_norm: np.ndarray
    attn_gate: np.float32
    pre_hada: np.ndarray
    d1: np.ndarray
    d2: np.ndarray
    d3: np.ndarray


@dataclass
class Engram:
    layer: int
    cf_name: str  # e.g. "engram0.tables": rows are gathered on demand, never densified whole
    wkey: np.ndarray  # [d, tables * sub_dim]
    wvalue: np.ndarray
    taps: np.ndarray  # [taps, d]


@dataclass
class Head:
    probes: np.ndarray  # [P, d]
    proj: np.ndarray  # [out, P * d]
    bias: np.ndarray  # [out]


@dataclass
class State:
    """Everything a cached decode carries between chunks."""

    window: int | None
    sinks: int
    tokens: list[int] = field(default_factory=list)  # full history: engrams never slide
    kpos: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    k: list[np.ndarray] = field(default_factory=list)  # per layer [Tk, KV, hd], after RoPE
    v: list[np.ndarray] = field(default_factory=list)
    conv: dict[int, np.ndarray] = field(default_factory=dict)  # site -> recent v' rows [.., d]

    @property
    def position(self) -> int:
        return len(self.tokens)


@dataclass
class Output:
    logits: np.ndarray  # [T, vocab]
    hidden: np.ndarray  # [L, T, d]: lane mean after each layer
    cells: np.ndarray  # [L + 1, T, d]: x0 then every hidden


class ReferenceModel:
    def __init__(self, cf: CactFile) -> None:
        self.cf = cf
        self.g: Geometry = cf.geometry
        g = self.g
        self.embedding = cf.dense("embedding")  # [vocab, d], also the tied output matrix
        self.layers = [
            Layer(
                *(cf.dense(f"layer{i:02d}.{n}") for n in ("norm_in", "q_proj", "k_proj", "v_proj")),
                *(cf.dense(f"layer{i:02d}.{n}") for n in ("q_norm", "k_norm", "gate_proj")),
                *(cf.dense(f"layer{i:02d}.{n}") for n in ("out_proj", "post_norm")),
                cf.dense(f"layer{i:02d}.attn_gate")[0],
                *(cf.dense(f"layer{i:02d}.{n}") for n in ("pre_hada", "d1", "d2", "d3")),
            )
            for i in range(g.num_layers)
        ]
        lanes = g.mhc_lanes
        L = g.num_layers
        self.a_pre, self.a_post, self.a_res = (
            cf.dense(f"mhc_a_{n}") for n in ("pre", "post", "res")
        )
        self.b_pre, self.b_post = cf.dense("mhc_b_pre"), cf.dense("mhc_b_post")
        self.b_res = cf.dense("mhc_b_res")
        self.phi_pre = cf.dense("mhc_phi_pre").reshape(L, lanes, lanes * g.d_model)
        self.phi_post = cf.dense("mhc_phi_post").reshape(L, lanes, lanes * g.d_model)
        self.phi_res = cf.dense("mhc_phi_res").reshape(L, lanes * lanes, lanes * g.d_model)
        self.engrams = {
            layer: Engram(
                layer,
                f"engram{s}.tables",
                cf.dense(f"engram{s}.key_proj"),
                cf.dense(f"engram{s}.value_proj"),
                cf.dense(f"engram{s}.taps"),
            )
            for s, layer in enumerate(g.engram_sites)
        }
        self.final_norm = cf.dense("final_norm")
        self.heads = {
            name: Head(
                cf.dense(f"{name}.probes"), cf.dense(f"{name}.proj"), cf.dense(f"{name}.bias")
            )
            for name in ("contrastive_head", "confidence_head")
            if f"{name}.probes" in cf.by_name
        }

    # ------------------------------------------------------------------------------------
    def new_state(self, window: int | None = None, sinks: int = 0) -> State:
        """An empty cache. `window=None` means plain causal attention over everything."""
        L = self.g.num_layers
        shape = (0, self.g.num_kv_heads, self.g.head_dim)
        return State(
            window,
            sinks,
            k=[np.zeros(shape, np.float32) for _ in range(L)],
            v=[np.zeros(shape, np.float32) for _ in range(L)],
        )

    def forward(self, ids: Sequence[int], state: State | None = None) -> Output:
        """Run a chunk of tokens through the model, extending `state` (a fresh one if None)."""
        g = self.g
        st = self.new_state() if state is None else state
        ids = np.asarray(ids, dtype=np.int64)
        if ids.size == 0:
            raise ValueError("forward needs at least one token")
        if ids.min() < 0 or ids.max() >= g.vocab:
            raise ValueError(f"token id out of range [0, {g.vocab})")
        T = ids.size
        pos = np.arange(st.position, st.position + T, dtype=np.int64)
        st.tokens.extend(int(t) for t in ids)
        st.kpos = np.concatenate([st.kpos, pos])

        # 1. Embed and copy into every lane.
        x0 = np.float32(np.sqrt(g.d_model)) * self.embedding[ids]  # [T, d]
        X = np.repeat(x0[:, None, :], g.mhc_lanes, axis=1)  # [T, lanes, d]
        hidden = []
        # 2. Layers, each reading and writing the lanes through mHC.
        for li in range(g.num_layers):
            X = self._mhc_layer(li, X, pos, st)
            hidden.append(X.mean(axis=1))
        self._evict(st, pos[-1])
        # 3. Final norm and the tied output projection.
        x = zcn(X.mean(axis=1), self.final_norm)
        logits = x @ self.embedding.T
        hidden_arr = np.stack(hidden)
        return Output(logits, hidden_arr, np.concatenate([x0[None], hidden_arr]))

    # ------------------------------------------------------------------------------------
    def _mhc_layer(self, li: int, X: np.ndarray, pos: np.ndarray, st: State) -> np.ndarray:
        T, lanes, d = X.shape
        sel = li % lanes
        on = np.arange(lanes) == sel
        pre_off = np.where(on, 4.0, -4.0).astype(np.float32)
        post_off = np.where(on, 0.0, -4.0).astype(np.float32)

        nx = rms_unit(X.reshape(T, lanes * d))
        h_pre = sigmoid(self.a_pre[li] * (nx @ self.phi_pre[li].T) + self.b_pre[li] + pre_off)
        u = np.einsum("tl,tld->td", h_pre, X)
        bx = self._engram(li, u, pos, st) if li in self.engrams else u
        delta = self._block(li, bx, pos, st) - u  # u before the engram injection
        h_post = 2 * sigmoid(
            self.a_post[li] * (nx @ self.phi_post[li].T) + self.b_post[li] + post_off
        )
        A = self.a_res[li] * (nx @ self.phi_res[li].T).reshape(T, lanes, lanes) + self.b_res[li]
        P = sinkhorn(A, 20)
        return np.einsum("tij,tjd->tid", P, X) + h_post[:, :, None] * delta[:, None, :]

    def _block(self, li: int, x: np.ndarray, pos: np.ndarray, st: State) -> np.ndarray:
        g, w = self.g, self.layers[li]
        T = x.shape[0]
        H, KV, hd = g.num_heads, g.num_kv_heads, g.head_dim
        h = zcn(x, w.norm_in)
        q = (h @ w.wq.T).reshape(T, H, hd)
        k = (h @ w.wk.T).reshape(T, KV, hd)
        v = (h @ w.wv.T).reshape(T, KV, hd)
        q = rope(zcn(q, w.q_norm), pos, g.rope_theta)
        k = rope(zcn(k, w.k_norm), pos, g.rope_theta)
        st.k[li] = np.concatenate([st.k[li], k])
        st.v[li] = np.concatenate([st.v[li], v])
        o = attention(q, st.k[li], st.v[li], pos, st.kpos, st.window, st.sinks).reshape(T, H * hd)
        o = o * sigmoid(h @ w.wgate.T)
        a = o @ w.wout.T
        x = x + sigmoid(w.attn_gate) * zcn(a, w.post_norm)
        return hadamard_mlp(x, w.pre_hada, w.d1, w.d2, w.d3)

    def _engram(self, li: int, u: np.ndarray, pos: np.ndarray, st: State) -> np.ndarray:
        g, e = self.g, self.engrams[li]
        T, d = u.shape
        rows, valid = engram_rows(
            np.asarray(st.tokens), pos, g.engram_orders, g.engram_heads, g.engram_slots
        )
        tables = self.cf.cq(e.cf_name).rows_dense(rows.reshape(-1))  # only the rows we need
        tables = tables.reshape(T, g.num_engram_tables, g.engram_sub_dim) * valid[:, :, None]
        emb = tables.reshape(T, g.engram_dim)
        k = emb @ e.wkey.T
        v_raw = emb @ e.wvalue.T
        # Causal depthwise conv over v' at dilation: v_t = sum_m taps[m] * v'_{t - dil*m}.
        dil, taps = g.engram_conv_dilation, g.engram_conv_taps
        past = st.conv.get(li, np.zeros((0, d), np.float32))
        seq = np.concatenate([past, v_raw])  # rows for positions pos[0]-len(past) .. pos[-1]
        base = len(past)
        v = np.zeros_like(v_raw)
        for m in range(taps):
            for t in range(T):
                r = base + t - dil * m
                if r >= 0 and pos[t] - dil * m >= 0:
                    v[t] += e.taps[m] * seq[r]
        st.conv[li] = seq[-dil * (taps - 1) :] if dil * (taps - 1) else seq[:0]
        gate = sigmoid(np.sum(rms_unit(u) * rms_unit(k), -1, keepdims=True) / np.sqrt(d))
        return u + gate.astype(np.float32) * v

    def _evict(self, st: State, last: int) -> None:
        """Drop cached keys no future query can see (outside the window and not a sink)."""
        if st.window is None:
            return
        keep = (st.kpos < st.sinks) | (st.kpos > last - st.window)
        if keep.all():
            return
        st.kpos = st.kpos[keep]
        st.k = [k[keep] for k in st.k]
        st.v = [v[keep] for v in st.v]

    # ------------------------------------------------------------------------------------
    def head(self, name: str, cells: np.ndarray) -> np.ndarray:
        """A probe head over `cells` `[L + 1, T, d]`: pooled over every (position, cell)."""
        h = self.heads[name]
        pooled = probe_pool(cells.reshape(-1, cells.shape[-1]), h.probes)
        return h.proj @ pooled + h.bias

    def embed(self, ids: Sequence[int]) -> np.ndarray:
        """Contrastive (retrieval) embedding of a token sequence, L2-normalised."""
        z = self.head("contrastive_head", self.forward(ids).cells)
        return z / np.linalg.norm(z)

    def confidence_logit(self, ids: Sequence[int]) -> float:
        return float(self.head("confidence_head", self.forward(ids).cells)[0])
