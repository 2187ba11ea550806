"""The confidence head fitted to a trained model: base bytes untouched, the envelope carries a
probability, and the Platt step makes the mean confidence match the observed accuracy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from agent.calling.session import Session  # noqa: E402
from agent.model.cact import base_layout, read_cact  # noqa: E402
from agent.offline.train.confidence import train_head, with_confidence_head  # noqa: E402
from agent.offline.train.synth import tools_from_config  # noqa: E402

DEMO = Path(__file__).resolve().parents[1] / "agent" / "models" / "demo.cact"


def test_head_is_appended_and_base_tensors_keep_their_bytes(tmp_path: Path) -> None:
    cf = read_cact(DEMO)
    g = cf.geometry
    rng = np.random.default_rng(0)
    probes = rng.standard_normal((8, g.d_model)).astype(np.float32) * 0.02
    proj = rng.standard_normal((1, 8 * g.d_model)).astype(np.float32) * 0.02
    out = tmp_path / "h.cact"
    out.write_bytes(with_confidence_head(cf, probes, proj, np.array([0.5], np.float32)))
    new = read_cact(out)
    assert 2 in new.head_codes
    for s in base_layout(g):
        assert bytes(new.blob(s.name)) == bytes(cf.blob(s.name)), s.name
    assert bytes(new.tokenizer_blob) == bytes(cf.tokenizer_blob)
    np.testing.assert_allclose(new.dense("confidence_head.bias"), [0.5])


@pytest.mark.slow
@pytest.mark.parametrize("data_version", [1, 2])
def test_fitted_head_is_calibrated_on_its_answers(tmp_path: Path, data_version: int) -> None:
    out = tmp_path / "c.cact"
    rep = train_head(DEMO, out, homes=4, per_home=6, epochs=2, data_version=data_version)
    assert rep["data_version"] == data_version
    # Platt scaling on the natural answers: mean confidence equals their accuracy.
    assert abs(rep["train_mean_confidence"] - rep["natural_accuracy"]) < 0.05
    s = Session(read_cact(out), tools_from_config(None))
    env = s.complete("turn on the kitchen light")
    assert env["success"] and 0.0 < env["confidence"] < 1.0
