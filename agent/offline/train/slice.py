"""A smaller model made of the first N layers of a `.cact`: `needled slice --layers N IN OUT`.

What is kept: the embedding, layers `0..N-1`, the first N rows of every mHC scalar/bias table
and the first `N * lanes` (`N * lanes * lanes` for `phi_res`) rows of the mHC projections, the
engram sites below N (sites at N or beyond are dropped, and the header's site list shrinks with
them), `final_norm`, and the tokenizer. The header geometry says `num_layers = N`.

Nothing is re-quantized: CQ rows are independent (each row's packed codes and its group norms),
so a row slice of a CQ tensor is a slice of its bytes, and every kept tensor keeps its exact
stored values. The contrastive head is kept (tool retrieval still needs an embedding); the
confidence head is dropped because it was calibrated on the full depth, so a sliced file reports
`confidence: None` (pass `keep_confidence=True` to keep it anyway). No PyTorch needed.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

import numpy as np

from agent.model.cact import (
    CQ,
    RAW,
    Blob,
    CactFile,
    base_layout,
    fp16_blob,
    head_layout,
    read_cact,
    serialize,
    write_file,
)


def _rows(cf: CactFile, name: str, n_rows: int) -> Blob:
    """The first `n_rows` rows of a tensor, bytes copied (CQ: codes rows, then norms rows)."""
    t = cf.info(name)
    if t.dtype == CQ:
        v = cf.cq(name)
        data = v.codes[:n_rows].tobytes() + v.norms[:n_rows].tobytes()
        return Blob(CQ, (n_rows, t.shape[1]), data, t.group, t.bits)
    a = cf.array(name)[:n_rows]
    return Blob(t.dtype, tuple(a.shape), a.tobytes())


def copy_blob(cf: CactFile, name: str) -> Blob:
    """A tensor's stored bytes as they are (no re-quantization)."""
    t = cf.info(name)
    return Blob(t.dtype, t.shape, bytes(cf.blob(name)), t.group, t.bits)


def slice_layers(cf: CactFile, layers: int, keep_confidence: bool = False) -> bytes:
    """File image of the first `layers` layers of `cf`."""
    g = cf.geometry
    if not 1 <= layers <= g.num_layers:
        raise ValueError(f"--layers must be between 1 and {g.num_layers}, got {layers}")
    sites = tuple(s for s in g.engram_sites if s < layers)
    # The other engram fields stay as they are, even with no site left: they describe nothing
    # then, and readers need no special case.
    ng = dataclasses.replace(g, num_layers=layers, engram_sites=sites)
    lanes = g.mhc_lanes
    mhc_rows = {
        "mhc_a_pre": layers,
        "mhc_a_post": layers,
        "mhc_a_res": layers,
        "mhc_b_pre": layers,
        "mhc_b_post": layers,
        "mhc_b_res": layers,
        "mhc_phi_pre": layers * lanes,
        "mhc_phi_post": layers * lanes,
        "mhc_phi_res": layers * lanes * lanes,
    }
    blobs: list[Blob] = []
    for spec in base_layout(ng):
        if spec.name in mhc_rows:
            blobs.append(_rows(cf, spec.name, mhc_rows[spec.name]))
        else:
            blobs.append(copy_blob(cf, spec.name))  # engram{s} keeps its index: sites are a prefix
    codes = [c for c in cf.head_codes if c != 2 or keep_confidence]
    if codes:
        blobs.append(fp16_blob(np.asarray(codes, np.float32)))
        for spec in head_layout(ng, codes)[1:]:
            blobs.append(copy_blob(cf, spec.name))
    blobs.append(Blob(RAW, (), bytes(cf.tokenizer_blob)))
    return serialize(ng, blobs, cf.codebook_values)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of `needled slice`."""
    p.add_argument("--layers", type=int, required=True, help="keep the first N layers")
    p.add_argument("input", help="source .cact")
    p.add_argument("output", help="sliced .cact")
    p.add_argument(
        "--keep-confidence",
        action="store_true",
        help="keep the confidence head (not calibrated for the sliced depth)",
    )


def slice_main(args: argparse.Namespace) -> int:
    cf = read_cact(args.input)
    data = slice_layers(cf, args.layers, args.keep_confidence)
    write_file(args.output, data)
    out = read_cact(args.output)  # validate what was written
    g = out.geometry
    print(
        f"{Path(args.output).name}: {g.num_layers} layers, engram sites {list(g.engram_sites)}, "
        f"{len(data):,} bytes (from {len(bytes(cf.buffer)):,})"
    )
    return 0


def drop_heads(cf: CactFile, drop: set[int]) -> bytes:
    """The same file without the probe heads whose codes are in `drop` (1 contrastive,
    2 confidence); every other tensor keeps its bytes."""
    codes = [c for c in cf.head_codes if c not in drop]
    blobs = [copy_blob(cf, s.name) for s in base_layout(cf.geometry)]
    if codes:
        blobs.append(fp16_blob(np.asarray(codes, np.float32)))
        blobs += [copy_blob(cf, s.name) for s in head_layout(cf.geometry, codes)[1:]]
    blobs.append(Blob(RAW, (), bytes(cf.tokenizer_blob)))
    return serialize(cf.geometry, blobs, cf.codebook_values)
