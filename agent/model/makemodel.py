"""Random-weight models in the tiny or release geometry, for tests and benchmarks (no download).

The weights are random but shaped like a trained model's (unit-variance rows, small norm gains,
a few-percent Hadamard residual), so the forward pass stays finite at every depth and the
kernels see realistic value ranges. The tokenizer is trained here by SentencePiece on a
synthetic corpus, with the fixed ids of the release tokenizer.
"""

from __future__ import annotations

import numpy as np

from agent.model.cact import Geometry, base_layout, build_cact, head_layout
from agent.model.tokenizer import (
    synthetic_corpus,
    tokenizer_blob_from_sentencepiece,
    train_tokenizer,
)

RELEASE = Geometry(
    vocab=8192,
    d_model=512,
    num_heads=8,
    num_kv_heads=4,
    num_layers=27,
    head_dim=64,
    max_seq_len=2048,
    hada_n=512,
    mhc_lanes=4,
    engram_slots=8192,
    engram_sub_dim=128,
    num_engram_tables=4,
    engram_conv_taps=4,
    engram_conv_dilation=3,
    engram_orders=(2, 3),
    engram_sites=(2, 15),
    rope_theta=100000.0,
    kv_window=256,
    kv_bits=8,
)
TINY = Geometry(
    vocab=1024,
    d_model=256,
    num_heads=4,
    num_kv_heads=2,
    num_layers=4,
    head_dim=64,
    max_seq_len=512,
    hada_n=256,
    mhc_lanes=4,
    engram_slots=1024,
    engram_sub_dim=128,
    num_engram_tables=2,
    engram_conv_taps=4,
    engram_conv_dilation=3,
    engram_orders=(2, 3),
    engram_sites=(1, 3),
    rope_theta=100000.0,
    kv_window=256,
    kv_bits=8,
)
GEOMETRIES = {"tiny": TINY, "release": RELEASE}
SCHEME = "embedding=4,mhc=4,default=2"
CORPUS_SENTENCES = 2000


def random_tensors(g: Geometry, seed: int, heads: bool = True) -> dict[str, np.ndarray]:
    """Float tensors for every position of the layout, drawn from `seed`."""
    rng = np.random.default_rng(seed)
    specs = base_layout(g) + (head_layout(g, [1, 2]) if heads else [])
    out: dict[str, np.ndarray] = {}
    for s in specs:
        leaf = s.name.split(".")[-1]
        if s.name == "heads.manifest":
            continue  # written from the heads present
        if s.quantized:
            a = rng.standard_normal(s.shape) / np.sqrt(s.shape[1])
        elif leaf in ("d1", "d2"):
            a = 1.0 + 0.1 * rng.standard_normal(s.shape)
        elif leaf == "d3":
            a = 0.02 + 0.01 * rng.standard_normal(s.shape)
        elif leaf == "taps":
            a = 0.3 * rng.standard_normal(s.shape)
        elif leaf in ("probes",):
            a = rng.standard_normal(s.shape)
        elif leaf == "proj":
            a = rng.standard_normal(s.shape) / np.sqrt(s.shape[1])
        elif leaf == "attn_gate":
            a = rng.standard_normal(s.shape)
        else:  # norm gains, mHC scalars and biases: near their neutral values
            a = 0.1 * rng.standard_normal(s.shape)
        out[s.name] = a.astype(np.float32)
    return out


def make_model(geometry: str | Geometry, seed: int = 0, kv_window: int | None = None) -> bytes:
    """A complete `.cact` image: random weights in the release scheme plus a trained tokenizer."""
    g = GEOMETRIES[geometry] if isinstance(geometry, str) else geometry
    if kv_window is not None:
        g = Geometry(**{**g.__dict__, "kv_window": kv_window})
    model = train_tokenizer(synthetic_corpus(seed, CORPUS_SENTENCES), g.vocab, seed=seed)
    blob = tokenizer_blob_from_sentencepiece(model)
    return build_cact(g, random_tensors(g, seed), blob, SCHEME)
