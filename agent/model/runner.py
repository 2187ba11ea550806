"""Backend-independent logits runs: the validation entry point behind `needled logits`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agent.model.cact import CactFile


def run_logits(
    cf: CactFile,
    ids: Sequence[int],
    backend: str = "reference",
    mode: str = "fp32",
    window: int | None = None,
    sinks: int = 0,
    prompt_len: int | None = None,
) -> np.ndarray:
    """One row of logits per id.

    Without `prompt_len`: a single batched forward over all ids (windowed if `window` is set).
    With it: rows `0..P-1` from a batched prefill of the first `P` ids, each later row from
    feeding the next id alone through the KV cache.
    """
    ids = [int(i) for i in ids]
    vocab = cf.geometry.vocab
    bad = [i for i in ids if not 0 <= i < vocab]
    if bad:
        raise ValueError(f"token ids out of range [0, {vocab}): {bad[:5]}")
    P = len(ids) if prompt_len is None else prompt_len
    if not 1 <= P <= len(ids):
        raise ValueError(f"--prompt-len {P} must be between 1 and the number of ids ({len(ids)})")
    if window is not None and window < 1:
        raise ValueError("--window must be >= 1")
    if sinks < 0:
        raise ValueError("--sinks must be >= 0")
    if backend == "reference":
        if mode != "fp32":
            raise ValueError("the reference backend computes in FP32 only")
        from agent.model.reference import ReferenceModel

        m = ReferenceModel(cf)
        st = m.new_state(window, sinks)
        rows = [m.forward(ids[:P], st).logits]
        rows += [m.forward([t], st).logits for t in ids[P:]]
        return np.concatenate(rows)
    if backend == "native":
        from agent.model.engine import NativeEngine

        eng = NativeEngine(cf, mode=mode, window=window, sinks=sinks)
        rows = [eng.prefill(ids[:P])]
        rows += [eng.step(t)[None, :] for t in ids[P:]]
        return np.concatenate(rows)
    raise ValueError(f"unknown backend {backend!r}")
