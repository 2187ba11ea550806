"""The NumPy reference forward against the vendor's golden vectors.

Tolerance (golden README): an FP32 engine differs from the reference only by summation order,
so every array must agree within 1e-4 of its maximum magnitude, with the same argmax at every
position. Measured here: about 1e-6.
"""

from __future__ import annotations

import numpy as np
import pytest

from agent.model.reference import ReferenceModel
from tests.conftest import RELEASE, golden_npz

REL_TOL = 1e-4


def assert_close(got: np.ndarray, want: np.ndarray, argmax: bool = True) -> None:
    assert got.shape == want.shape
    err = np.abs(got - want).max() / np.abs(want).max()
    assert err <= REL_TOL, f"max relative error {err:.2e}"
    if argmax:
        assert np.array_equal(got.argmax(-1), want.argmax(-1))


@pytest.fixture(scope="module")
def case(tiny_cact):
    return ReferenceModel(tiny_cact), golden_npz("tiny")


def test_release_geometry_hidden_states(release_cact):
    # The release geometry (d 512, 8/4 heads, Hadamard 512, vocab 8192, engram at layer 2 with
    # 4 tables of 8192 slots): the vendor's hidden states after each of the first three layers.
    g = golden_npz(RELEASE)
    P = int(g["prompt_len"])
    out = ReferenceModel(release_cact).forward(g["tokens"][:P])
    assert out.hidden.shape == g["hidden"].shape == (3, P, 512)
    assert_close(out.hidden, g["hidden"], argmax=False)


def test_full_forward_logits_hidden_and_heads(case):
    m, g = case
    P = int(g["prompt_len"])
    out = m.forward(g["tokens"][:P])
    assert_close(out.logits, g["logits"])
    assert_close(out.hidden, g["hidden"], argmax=False)
    z = m.head("contrastive_head", out.cells)
    assert_close(z / np.linalg.norm(z), g["contrastive"], argmax=False)
    conf = m.head("confidence_head", out.cells)[0]
    assert abs(conf - g["confidence"]) <= REL_TOL * abs(g["confidence"])


def test_cached_forward_over_all_tokens(case):
    m, g = case
    assert_close(m.forward(g["tokens"]).logits, g["causal_logits"])


def test_chunked_causal_decode_equals_one_pass(case):
    m, g = case
    toks = g["tokens"]
    st = m.new_state()
    rows = [m.forward(toks[:30], st).logits, m.forward(toks[30:31], st).logits]
    rows.append(m.forward(toks[31:], st).logits)
    assert_close(np.concatenate(rows), g["causal_logits"])


def test_windowed_prefill_and_every_decode_step(case):
    m, g = case
    toks, P = g["tokens"], int(g["prompt_len"])
    W, S = int(g["window"]), int(g["sinks"])
    st = m.new_state(window=W, sinks=S)
    pre = m.forward(toks[:P], st).logits
    assert_close(pre, g["window_prefill_logits"])
    steps = [pre[-1]] + [m.forward([t], st).logits[0] for t in toks[P:-1]]
    assert_close(np.array(steps), g["window_step_logits"])
    # The cache holds only the sinks and the window: memory does not grow with the sequence.
    assert st.kpos.size == S + W


def test_window_changes_the_result(case):
    m, g = case
    toks, P = g["tokens"], int(g["prompt_len"])
    plain = m.forward(toks).logits[P:]
    st = m.new_state(window=int(g["window"]), sinks=int(g["sinks"]))
    windowed = m.forward(toks, st).logits[P:]
    assert np.abs(plain - windowed).max() > 1e-3 * np.abs(plain).max()


def test_rejects_bad_ids(tiny_cact):
    m = ReferenceModel(tiny_cact)
    with pytest.raises(ValueError):
        m.forward([2, 1024])
    with pytest.raises(ValueError):
        m.forward([])


def test_random_release_model_stays_finite(release_model):
    from agent.model.cact import read_cact

    m = ReferenceModel(read_cact(release_model))
    out = m.forward([2, 4, 100, 200, 300, 5, 7])
    assert np.isfinite(out.logits).all() and np.isfinite(out.hidden).all()
    assert out.logits.std() > 0
