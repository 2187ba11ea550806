"""Quantization-aware training: what is trained is what ships.

- :func:`cq_fake_quant`: the CQ quantizer of spec section 3 (Hadamard rotation per group, FP32
  norm rounded to FP16 as stored, nearest codebook centre with ties to the lower index) applied
  in the forward pass, with a straight-through estimator: the forward sees exactly the weights
  the `.cact` will hold, the backward passes the gradient to the FP32 master weights unchanged.
- :func:`a8_fake_quant`: per-vector int8 activation fake quant (`scale = absmax / 127`, round,
  clamp to [-128, 127]) with a straight-through estimator, at the four points of the spec (the
  model applies it through its `act_fn` hook).
- :func:`enable_qat` / :func:`disable_qat` attach both to a :class:`~.torch_model.Needle` for a
  bits map (`embedding=4,mhc=4,default=2`) or for the widths recorded in a source `.cact`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import torch

from agent.model.cact import CQ, CactFile, bits_for, parse_bits_map
from agent.offline.train.torch_model import Needle
from kernels import cq


def _ste(x: torch.Tensor, q: torch.Tensor) -> torch.Tensor:
    return x + (q - x).detach()


@functools.lru_cache(maxsize=32)
def _grid(bits: int, group: int, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """The rotation and codebook of a width, made once per device (a copy to a GPU per matrix
    per step would cost more than the quantization itself)."""
    hg = torch.from_numpy(cq.hadamard(group).copy()).to(device)
    cb = torch.from_numpy(cq.codebook(bits, group).copy()).to(device)
    return hg, cb


def cq_quant_dequant(w: torch.Tensor, bits: int, group: int = 128) -> torch.Tensor:
    """`dequantize(quantize(w))` of an `[out, in]` matrix in torch (no gradient semantics)."""
    rows, cols = w.shape
    in_pad = cq.padded(cols, group)
    x = w.detach().float()
    if in_pad != cols:
        x = torch.nn.functional.pad(x, (0, in_pad - cols))
    hg, cb = _grid(bits, group, x.device)
    rot = x.view(rows, in_pad // group, group) @ hg
    norm = rot.pow(2).sum(-1, keepdim=True).sqrt()
    unit = rot / norm.clamp_min(1e-12)
    # Nearest centre exactly as the NumPy quantizer decides it (ties go to the lower index).
    pos = torch.searchsorted(cb, unit.contiguous()).clamp(1, cb.numel() - 1)
    left, right = cb[pos - 1], cb[pos]
    idx = torch.where((unit - left).abs() <= (unit - right).abs(), pos - 1, pos)
    stored = norm.half().float()  # the file keeps FP16 norms
    deq = (cb[idx] * stored) @ hg
    return deq.reshape(rows, in_pad)[:, :cols].to(w.dtype)


def cq_fake_quant(w: torch.Tensor, bits: int, group: int = 128) -> torch.Tensor:
    """CQ fake quant with a straight-through estimator (identity gradient)."""
    return _ste(w, cq_quant_dequant(w, bits, group))


def a8_fake_quant(x: torch.Tensor) -> torch.Tensor:
    """Per-vector symmetric int8 fake quant over the last axis, straight-through."""
    with torch.no_grad():
        scale = x.abs().amax(-1, keepdim=True) / 127.0
        q = torch.clamp(torch.round(x / scale.clamp_min(1e-30)), -128, 127) * scale
    return _ste(x, q)


def bits_of_model(model: Needle, bits_map: str) -> dict[str, int]:
    """Width of every CQ matrix of `model` under a bits map string."""
    bm = parse_bits_map(bits_map)
    return {n: bits_for(n, bm) for n, q in model.quantized.items() if q}


def bits_of_file(cf: CactFile) -> dict[str, tuple[int, int]]:
    """(bits, group) of every CQ tensor as recorded in a file."""
    return {t.name: (t.bits, t.group) for t in cf.tensors if t.dtype == CQ}


def enable_qat(
    model: Needle,
    bits: str | Mapping[str, int | tuple[int, int]],
    group: int = 128,
    activations: bool = True,
) -> None:
    """Fake-quantize every CQ matrix at its width (and activations at the A8 points)."""
    table = bits_of_model(model, bits) if isinstance(bits, str) else dict(bits)
    widths: dict[str, tuple[int, int]] = {
        n: (b if isinstance(b, tuple) else (int(b), group)) for n, b in table.items()
    }

    def weight_fn(name: str, w: torch.Tensor) -> torch.Tensor:
        b, gsz = widths[name]
        return cq_fake_quant(w, b, gsz)

    model.weight_fn = weight_fn
    model.act_fn = a8_fake_quant if activations else None


def disable_qat(model: Needle) -> None:
    model.weight_fn = None
    model.act_fn = None
