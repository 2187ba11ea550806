"""Summaries of a `.cact` file for `needled inspect`: tensors, category totals, bits per weight."""

from __future__ import annotations

import os
from typing import Any

from agent.model.cact import CQ, RAW, CactFile


def summarize(cf: CactFile) -> dict[str, Any]:
    """Geometry, every tensor, per-category totals and bits-per-weight figures, JSON-ready."""
    tensors = []
    cats: dict[str, dict[str, int]] = {}
    params = 0
    code_bits = 0
    quantized = 0
    numeric_bytes = 0
    for t in cf.tensors:
        cat = t.dtype_name
        c = cats.setdefault(cat, {"tensors": 0, "elements": 0, "bytes": 0})
        c["tensors"] += 1
        c["bytes"] += t.nbytes
        if t.dtype != RAW:
            c["elements"] += t.elements
            params += t.elements
            numeric_bytes += t.nbytes
        if t.dtype == CQ:
            quantized += t.elements
            code_bits += t.elements * (2 if t.bits == 5 else t.bits)
        tensors.append(
            {
                "index": t.index,
                "name": t.name,
                "dtype": t.dtype_name,
                "shape": list(t.shape),
                "bits": t.bits,
                "group": t.group,
                "offset": t.offset,
                "bytes": t.nbytes,
            }
        )
    size = len(cf.buffer)
    g = cf.geometry
    geometry = {k: getattr(g, k) for k in g.__dataclass_fields__}
    geometry["engram_orders"] = list(g.engram_orders)
    geometry["engram_sites"] = list(g.engram_sites)
    return {
        "file": os.path.abspath(cf.path),
        "file_bytes": size,
        "sha256": cf.sha256(),
        "geometry": geometry,
        "heads": [{1: "contrastive", 2: "confidence"}[c] for c in cf.head_codes],
        "tensors": tensors,
        "categories": dict(sorted(cats.items())),
        "parameters": params,
        # Code bits per quantized weight (norms excluded): the figure the scheme's name implies.
        "quantized_bits_per_weight": code_bits / quantized if quantized else 0.0,
        # Everything numeric (codes, CQ norms, FP16 tensors) per parameter.
        "payload_bits_per_weight": numeric_bytes * 8 / params if params else 0.0,
        # The whole file, tokenizer, directory and padding included, per parameter.
        "file_bits_per_weight": size * 8 / params if params else 0.0,
    }


def format_table(s: dict[str, Any]) -> str:
    g = s["geometry"]
    lines = [
        f"file      {s['file']} ({s['file_bytes']:,} bytes)",
        f"sha256    {s['sha256']}",
        (
            f"geometry  vocab {g['vocab']}  d {g['d_model']}  layers {g['num_layers']}  "
            f"heads {g['num_heads']}/{g['num_kv_heads']}x{g['head_dim']}  hada {g['hada_n']}  "
            f"lanes {g['mhc_lanes']}"
        ),
        (
            f"engram    sites {g['engram_sites']}  orders {g['engram_orders']}  "
            f"tables {g['num_engram_tables']}x{g['engram_slots']}x{g['engram_sub_dim']}  "
            f"conv {g['engram_conv_taps']} taps / dilation {g['engram_conv_dilation']}"
        ),
        (
            f"runtime   kv_window {g['kv_window']}  kv_bits {g['kv_bits']}  "
            f"max_seq {g['max_seq_len']}  rope_theta {g['rope_theta']:g}"
        ),
        f"heads     {', '.join(s['heads']) or 'none'}",
        "",
        f"{'idx':>4}  {'name':<28} {'dtype':<6} {'shape':<16} {'bits':>4} {'group':>5} "
        f"{'bytes':>10}",
    ]
    for t in s["tensors"]:
        shape = "x".join(map(str, t["shape"])) or "-"
        lines.append(
            f"{t['index']:>4}  {t['name']:<28} {t['dtype']:<6} {shape:<16} {t['bits']:>4} "
            f"{t['group']:>5} {t['bytes']:>10,}"
        )
    lines += ["", f"{'category':<8} {'tensors':>8} {'elements':>14} {'bytes':>14}"]
    for cat, c in s["categories"].items():
        lines.append(f"{cat:<8} {c['tensors']:>8,} {c['elements']:>14,} {c['bytes']:>14,}")
    lines += [
        "",
        f"parameters                 {s['parameters']:,}",
        f"quantized bits/weight      {s['quantized_bits_per_weight']:.6f}",
        f"payload bits/weight        {s['payload_bits_per_weight']:.6f}",
        f"whole-file bits/weight     {s['file_bits_per_weight']:.6f}",
    ]
    return "\n".join(lines)
