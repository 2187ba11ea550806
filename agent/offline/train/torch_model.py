"""Needle 2 in PyTorch, for any geometry: load from a `.cact`, train, export back.

Parameters live in one flat `ParameterDict` under the `.cact` tensor names (`layer03.q_proj` is
stored as `layer03__q_proj`) and in the `.cact` layout (matrices `[out, in]`, `y = x W^T`), so
conversion in either direction is a rename, never a transpose. The forward pass is spec section
2 statement for statement; it is tested against the NumPy reference and the golden vectors.

Two hooks make the same module serve quantization-aware training and fine-tuning:

- `weight_fn(name, w)`: applied to every CQ matrix once per forward (QAT sets it to the CQ
  straight-through fake quantizer, see :mod:`.qat`);
- `act_fn(x)`: applied at the four A8 points of the spec (input of Q/K/V/gate, input of
  `out_proj`, the engram gather output, input of the vocabulary projection); `None` = FP32.

LoRA adapters (:meth:`Needle.add_lora`) add `scale * B @ A` to chosen matrices; :meth:`merge_lora`
folds them in. Export: :meth:`to_cact` (fresh file, every tensor quantized by the bits map) and
:meth:`rewrite` (keeps the packed bytes of every tensor whose value did not change, so
`.cact -> torch -> .cact` with nothing changed is byte-identical).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from agent.model.cact import (
    CactFile,
    Geometry,
    base_layout,
    build_cact,
    head_layout,
    rewrite_cact,
)
from kernels.cq import hadamard
from kernels.ref import engram_rows

EPS = 1e-6
ATTN_PROJ = ("q_proj", "k_proj", "v_proj", "gate_proj", "out_proj")


def pname(name: str) -> str:
    """ParameterDict key of a `.cact` tensor name (dots are not allowed in module keys)."""
    return name.replace(".", "__")


def rms_unit(x: torch.Tensor) -> torch.Tensor:
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS)


def zcn(x: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    return (1.0 + g) * rms_unit(x)


def sinkhorn(a: torch.Tensor, iters: int = 20) -> torch.Tensor:
    for _ in range(iters):
        a = a - torch.logsumexp(a, -1, keepdim=True)
        a = a - torch.logsumexp(a, -2, keepdim=True)
    return torch.exp(a)


@dataclass
class Past:
    """Cached state of a processed prefix (batch 1 or B): reused by every sequence that extends
    it, which is how training shares the fixed tools prefix across a batch."""

    k: list[torch.Tensor]  # per layer [Bp, KV, Tp, hd], after RoPE
    v: list[torch.Tensor]
    vraw: dict[int, torch.Tensor]  # engram site layer -> v' rows [Bp, Tp, d]
    tokens: torch.Tensor  # [Bp, Tp]
    cells: list[torch.Tensor] = field(default_factory=list)  # [Bp, Tp, d] each, L + 1

    @property
    def length(self) -> int:
        return int(self.tokens.shape[1])


@dataclass
class ModelOut:
    logits: torch.Tensor  # [B, T, vocab]
    hidden: list[torch.Tensor]  # L x [B, T, d] lane means
    x0: torch.Tensor  # [B, T, d]
    past: Past | None = None


class LoRA(nn.Module):
    """Low-rank delta `scale * B @ A` for one `[out, in]` matrix (B starts at zero)."""

    def __init__(self, out_dim: int, in_dim: int, rank: int, alpha: float, gen: torch.Generator):
        super().__init__()
        self.A = nn.Parameter(torch.randn(rank, in_dim, generator=gen) / math.sqrt(in_dim))
        self.B = nn.Parameter(torch.zeros(out_dim, rank))
        self.scale = alpha / rank

    def delta(self) -> torch.Tensor:
        return self.scale * (self.B @ self.A)


class Needle(nn.Module):
    """Needle 2 for a geometry; `head_codes`: probe heads (1 contrastive, 2 confidence)."""

    def __init__(self, g: Geometry, head_codes: Sequence[int] = ()) -> None:
        super().__init__()
        problems = g.problems()
        if problems:
            raise ValueError("inconsistent geometry: " + "; ".join(problems))
        self.g = g
        self.head_codes = tuple(int(c) for c in head_codes)
        specs = base_layout(g) + (head_layout(g, list(self.head_codes)) if self.head_codes else [])
        self.specs = [s for s in specs if s.name != "heads.manifest"]
        self.quantized = {s.name: s.quantized for s in self.specs}
        self.params = nn.ParameterDict(
            {pname(s.name): nn.Parameter(torch.zeros(s.shape)) for s in self.specs}
        )
        self.register_buffer("hada", torch.from_numpy(hadamard(g.hada_n).copy()), persistent=False)
        half = g.head_dim // 2
        freq = np.float32(g.rope_theta) ** (
            -np.arange(half, dtype=np.float32) * np.float32(2.0 / g.head_dim)
        )
        self.register_buffer("rope_freq", torch.from_numpy(freq), persistent=False)
        self.lora = nn.ModuleDict()
        self.weight_fn: Callable[[str, torch.Tensor], torch.Tensor] | None = None
        self.act_fn: Callable[[torch.Tensor], torch.Tensor] | None = None
        self._loaded: dict[str, np.ndarray] = {}  # values as read from a .cact (change detection)

    # ------------------------------------------------------------------------------------
    # construction and conversion
    @classmethod
    def from_cact(cls, cf: CactFile) -> Needle:
        """A model holding the file's tensors dequantized to FP32."""
        m = cls(cf.geometry, cf.head_codes)
        with torch.no_grad():
            for s in m.specs:
                a = np.array(cf.dense(s.name), dtype=np.float32)
                m._loaded[s.name] = a
                m.params[pname(s.name)].copy_(torch.from_numpy(a.copy()))
        return m

    def init_weights(self, seed: int) -> None:
        """Fresh weights for training from scratch (the vendor's initialisation scales)."""
        gen = torch.Generator().manual_seed(seed)
        L = self.g.num_layers
        with torch.no_grad():
            for s in self.specs:
                p = self.params[pname(s.name)]
                leaf = s.name.split(".")[-1]
                if s.quantized or leaf in ("probes", "proj"):
                    std = 0.02
                    if leaf in ("out_proj", "value_proj"):
                        std = 0.02 / math.sqrt(2 * L)
                    p.copy_(torch.randn(p.shape, generator=gen) * std)
                elif leaf in ("d1", "d2"):
                    p.fill_(1.0)
                elif leaf == "d3":
                    p.fill_(0.02)
                elif leaf == "taps":
                    p.zero_()
                    p[0] = 1.0
                elif s.name in ("mhc_a_pre", "mhc_a_post", "mhc_a_res"):
                    p.fill_(0.01)
                elif s.name == "mhc_b_res":
                    p.copy_(4.0 * torch.eye(self.g.mhc_lanes).expand_as(p))
                else:  # norm gains (zero-centred), attn_gate (sigmoid 0.5), mHC biases, head bias
                    p.zero_()

    def tensors(self) -> dict[str, np.ndarray]:
        """Every tensor as FP32 NumPy in `.cact` layout (LoRA deltas merged in, not QAT)."""
        out = {}
        with torch.no_grad():
            for s in self.specs:
                w = self.params[pname(s.name)]
                if pname(s.name) in self.lora:
                    w = w + self.lora[pname(s.name)].delta()
                out[s.name] = w.detach().cpu().numpy().astype(np.float32)
        return out

    def to_cact(
        self, tokenizer_blob: bytes, bits_map: str = "embedding=4,mhc=4,default=2"
    ) -> bytes:
        """A new `.cact` image: every matrix quantized by `bits_map`."""
        return build_cact(self.g, self.tensors(), tokenizer_blob, bits_map)

    def changed(self, atol: float = 0.0) -> dict[str, np.ndarray]:
        """Tensors whose value differs from what `from_cact` loaded."""
        if not self._loaded:
            raise ValueError("model was not loaded from a .cact; use to_cact")
        cur = self.tensors()
        return {
            n: a
            for n, a in cur.items()
            if not (a.shape == self._loaded[n].shape and np.allclose(a, self._loaded[n], 0, atol))
        }

    def rewrite(self, cf: CactFile) -> bytes:
        """Re-emit the source file: unchanged tensors keep their bytes, changed ones are
        re-quantized at their recorded widths."""
        if cf.geometry != self.g:
            raise ValueError("geometry differs from the source file")
        return rewrite_cact(cf, self.changed())

    # ------------------------------------------------------------------------------------
    # LoRA
    def add_lora(
        self,
        targets: Iterable[str] = ATTN_PROJ,
        rank: int = 8,
        alpha: float = 16.0,
        seed: int = 0,
        layers: Iterable[int] | None = None,
    ) -> list[str]:
        """Attach adapters to `layerNN.<target>` matrices; returns the tensor names adapted."""
        gen = torch.Generator().manual_seed(seed)
        names = []
        for li in range(self.g.num_layers) if layers is None else layers:
            for t in targets:
                name = f"layer{li:02d}.{t}"
                out_dim, in_dim = self.params[pname(name)].shape
                self.lora[pname(name)] = LoRA(out_dim, in_dim, rank, alpha, gen)
                names.append(name)
        return names

    def merge_lora(self) -> None:
        with torch.no_grad():
            for key, mod in self.lora.items():
                self.params[key].add_(mod.delta())
        self.lora = nn.ModuleDict()

    # ------------------------------------------------------------------------------------
    # forward
    def weight(self, name: str) -> torch.Tensor:
        w = self.params[pname(name)]
        key = pname(name)
        if key in self.lora:
            w = w + self.lora[key].delta()
        if self.weight_fn is not None and self.quantized[name]:
            w = self.weight_fn(name, w)
        return w

    def _act(self, x: torch.Tensor) -> torch.Tensor:
        return x if self.act_fn is None else self.act_fn(x)

    def forward(
        self,
        ids: torch.Tensor,
        past: Past | None = None,
        *,
        window: int | None = None,
        sinks: int = 0,
        keep_past: bool = False,
        skip_logits: bool = False,
        select: torch.Tensor | None = None,
    ) -> ModelOut:
        """Run `ids` `[B, T]` (or `[T]`) after an optional cached prefix `past`.

        `past` may have batch 1 (shared by every row) or B. `keep_past=True` returns the state
        extended by `ids`. `window`/`sinks` restrict attention as in spec section 6 (positions
        are absolute over prefix + ids). `select` (bool `[B, T]`): project only those positions
        to the vocabulary (logits `[N, vocab]`), as training needs them for target tokens only.
        """
        g = self.g
        if ids.dim() == 1:
            ids = ids[None]
        B, T = ids.shape
        d, lanes, L = g.d_model, g.mhc_lanes, g.num_layers
        off = past.length if past is not None else 0
        pos = torch.arange(off, off + T, dtype=torch.float32, device=ids.device)
        W = {s.name: self.weight(s.name) for s in self.specs if s.quantized}

        x0 = math.sqrt(d) * F.embedding(ids, W["embedding"])  # [B, T, d]
        X = x0[:, :, None, :].expand(B, T, lanes, d)
        rows = valid = None
        if g.engram_sites:
            rows, valid = self._engram_rows(ids, past)
        phi_pre = W["mhc_phi_pre"].view(L, lanes, lanes * d)
        phi_post = W["mhc_phi_post"].view(L, lanes, lanes * d)
        phi_res = W["mhc_phi_res"].view(L, lanes * lanes, lanes * d)
        P = self.params
        a_pre, a_post, a_res = P["mhc_a_pre"], P["mhc_a_post"], P["mhc_a_res"]
        b_pre, b_post, b_res = P["mhc_b_pre"], P["mhc_b_post"], P["mhc_b_res"]
        new_k: list[torch.Tensor] = []
        new_v: list[torch.Tensor] = []
        new_vraw: dict[int, torch.Tensor] = {}
        hidden = []
        mask = self._mask(T, off, window, sinks).to(ids.device)
        for li in range(L):
            sel = li % lanes
            on = torch.arange(lanes, device=ids.device) == sel
            pre_off = torch.where(on, 4.0, -4.0)
            post_off = torch.where(on, 0.0, -4.0)
            nx = rms_unit(X.reshape(B, T, lanes * d))
            h_pre = torch.sigmoid(a_pre[li] * (nx @ phi_pre[li].T) + b_pre[li] + pre_off)
            u = torch.einsum("btl,btld->btd", h_pre, X)
            if li in g.engram_sites:
                s = g.engram_sites.index(li)
                bx, vraw = self._engram(s, li, u, rows, valid, past, W)
                new_vraw[li] = vraw
            else:
                bx = u
            blk, k, v = self._block(li, bx, pos, past, mask, W)
            new_k.append(k)
            new_v.append(v)
            delta = blk - u
            h_post = 2 * torch.sigmoid(a_post[li] * (nx @ phi_post[li].T) + b_post[li] + post_off)
            A = a_res[li] * (nx @ phi_res[li].T).view(B, T, lanes, lanes) + b_res[li]
            Pm = sinkhorn(A, 20)
            X = torch.einsum("btij,btjd->btid", Pm, X) + h_post[..., None] * delta[:, :, None, :]
            hidden.append(X.mean(2))
        logits = None
        if not skip_logits:
            xm = X.mean(2) if select is None else X.mean(2)[select]
            x = zcn(xm, P["final_norm"])
            logits = F.linear(self._act(x), W["embedding"])
        out_past = None
        if keep_past:
            toks = ids if past is None else torch.cat([past.tokens.expand(B, -1), ids], 1)
            out_past = Past(new_k, new_v, new_vraw, toks)
        return ModelOut(logits, hidden, x0, out_past)

    def _mask(self, T: int, off: int, window: int | None, sinks: int) -> torch.Tensor:
        q = torch.arange(off, off + T)[:, None]
        k = torch.arange(0, off + T)[None, :]
        allowed = k <= q
        if window is not None:
            allowed &= ((q - k) < window) | (k < sinks)
        return allowed

    def _block(
        self,
        li: int,
        x: torch.Tensor,
        pos: torch.Tensor,
        past: Past | None,
        mask: torch.Tensor,
        W: dict[str, torch.Tensor],
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        g, P = self.g, self.params
        B, T, _ = x.shape
        H, KV, hd = g.num_heads, g.num_kv_heads, g.head_dim
        pre = f"layer{li:02d}__"
        h = zcn(x, P[pre + "norm_in"])
        ha = self._act(h)
        q = F.linear(ha, W[f"layer{li:02d}.q_proj"]).view(B, T, H, hd)
        k = F.linear(ha, W[f"layer{li:02d}.k_proj"]).view(B, T, KV, hd)
        v = F.linear(ha, W[f"layer{li:02d}.v_proj"]).view(B, T, KV, hd)
        gate = F.linear(ha, W[f"layer{li:02d}.gate_proj"])
        q = self._rope(zcn(q, P[pre + "q_norm"]), pos).transpose(1, 2)  # [B, H, T, hd]
        k = self._rope(zcn(k, P[pre + "k_norm"]), pos).transpose(1, 2)  # [B, KV, T, hd]
        v = v.transpose(1, 2)
        if past is not None:
            k = torch.cat([past.k[li].expand(B, -1, -1, -1), k], 2)
            v = torch.cat([past.v[li].expand(B, -1, -1, -1), v], 2)
        rep = H // KV
        kk = k.repeat_interleave(rep, 1) if rep > 1 else k
        vv = v.repeat_interleave(rep, 1) if rep > 1 else v
        o = F.scaled_dot_product_attention(q, kk, vv, attn_mask=mask)
        o = o.transpose(1, 2).reshape(B, T, H * hd)
        o = o * torch.sigmoid(gate)
        a = F.linear(self._act(o), W[f"layer{li:02d}.out_proj"])
        x = x + torch.sigmoid(P[pre + "attn_gate"]) * zcn(a, P[pre + "post_norm"])
        # Hadamard MLP: diagonal scalings around two orthonormal transforms.
        n = g.hada_n
        z = zcn(x, P[pre + "pre_hada"])
        if n > g.d_model:
            z = F.pad(z, (0, n - g.d_model))
        z = (P[pre + "d1"] * z) @ self.hada
        z = F.silu(P[pre + "d2"] * z) @ self.hada
        x = x + (P[pre + "d3"] * z)[..., : g.d_model]
        return x, k, v

    def _rope(self, x: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        half = x.shape[-1] // 2
        ang = pos[:, None] * self.rope_freq[None, :]  # [T, half]
        cos = torch.cos(ang)[:, None, :]
        sin = torch.sin(ang)[:, None, :]
        a, b = x[..., :half], x[..., half:]
        return torch.cat([a * cos - b * sin, b * cos + a * sin], -1)

    def _engram_rows(
        self, ids: torch.Tensor, past: Past | None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Table rows `[B, T, tables]` and validity for the new positions (hashing in NumPy: it
        is integer work on the token history, not part of the differentiable graph)."""
        g = self.g
        B, T = ids.shape
        hist = ids.cpu().numpy()
        off = 0
        if past is not None:
            off = past.length
            hist = np.concatenate([np.broadcast_to(past.tokens.cpu().numpy(), (B, off)), hist], 1)
        pos = np.arange(off, off + T)
        rows = np.empty((B, T, g.num_engram_tables), np.int64)
        valid = np.empty((B, T, g.num_engram_tables), bool)
        for b in range(B):
            rows[b], valid[b] = engram_rows(
                hist[b], pos, g.engram_orders, g.engram_heads, g.engram_slots
            )
        return torch.from_numpy(rows).to(ids.device), torch.from_numpy(valid).to(ids.device)

    def _engram(
        self,
        s: int,
        li: int,
        u: torch.Tensor,
        rows: torch.Tensor,
        valid: torch.Tensor,
        past: Past | None,
        W: dict[str, torch.Tensor],
    ) -> tuple[torch.Tensor, torch.Tensor]:
        g = self.g
        B, T, d = u.shape
        tables = W[f"engram{s}.tables"]
        # F.embedding: its backward accumulates repeated rows in a fixed order (advanced
        # indexing's index_put does not under several threads, which breaks determinism).
        e = F.embedding(rows, tables) * valid[..., None].to(u.dtype)  # [B, T, tables, sub]
        e = self._act(e.reshape(B, T, g.engram_dim))
        k = F.linear(e, W[f"engram{s}.key_proj"])
        vraw = F.linear(e, W[f"engram{s}.value_proj"])
        seq = vraw if past is None else torch.cat([past.vraw[li].expand(B, -1, -1), vraw], 1)
        taps = self.params[pname(f"engram{s}.taps")]
        dil = g.engram_conv_dilation
        Ts = seq.shape[1]
        v = torch.zeros_like(vraw)
        for m in range(g.engram_conv_taps):
            sh = dil * m
            if sh >= Ts:
                break
            shifted = F.pad(seq, (0, 0, sh, 0))[:, :Ts]  # row t holds v'_{t - sh}, zero before 0
            v = v + taps[m] * shifted[:, Ts - T :]
        gate = torch.sigmoid((rms_unit(u) * rms_unit(k)).sum(-1, keepdim=True) / math.sqrt(d))
        return u + gate * v, seq

    # ------------------------------------------------------------------------------------
    # heads
    def cells(self, out: ModelOut) -> torch.Tensor:
        """`[B, (L + 1) * T, d]`: x0 and every layer's lane mean, for the probe heads."""
        return torch.cat([out.x0, *out.hidden], 1)

    def head(self, name: str, cells: torch.Tensor) -> torch.Tensor:
        """Probe head over `cells` `[B, N, d]` -> `[B, out]` (contrastive not yet normalised)."""
        P = self.params
        probes = P[pname(f"{name}.probes")]
        scores = torch.einsum("pd,bnd->bpn", probes, cells) / math.sqrt(self.g.d_model)
        w = torch.softmax(scores, -1)
        pooled = torch.einsum("bpn,bnd->bpd", w, cells).reshape(cells.shape[0], -1)
        return F.linear(pooled, P[pname(f"{name}.proj")], P[pname(f"{name}.bias")])


def set_threads(n: int = 2) -> None:
    """Keep PyTorch to `n` threads: the machine is shared and small."""
    torch.set_num_threads(max(1, n))
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass  # already set once the interop pool started; harmless
