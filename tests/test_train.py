"""The training toolkit: PyTorch model vs golden vectors, round trips, QAT, LoRA, finetune,
slice, trainer determinism/resume, evaluation, the held-out set and the bundled demo model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import GOLDEN as CONF_GOLDEN
from conftest import RELEASE

from agent.model.cact import CQ, Geometry, parse, read_cact
from agent.model.reference import ReferenceModel

try:  # PyTorch is the optional `.[train]` extra: without it only the torch-free tests run
    import torch

    from agent.offline.train.qat import (
        a8_fake_quant,
        cq_fake_quant,
        cq_quant_dequant,
        disable_qat,
        enable_qat,
    )
    from agent.offline.train.torch_model import Needle, set_threads
except ImportError:  # pragma: no cover - depends on the environment
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch (the .[train] extra) missing")

GOLDEN = CONF_GOLDEN
ROOT = Path(__file__).resolve().parents[1]
HELDOUT = ROOT / "tests" / "data" / "heldout.jsonl"
DEMO_MODEL = ROOT / "agent" / "models" / "demo.cact"

if torch is not None:
    set_threads(2)


def _rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a - b).max() / np.abs(b).max())


def _golden(name: str):
    path = GOLDEN / f"{name}.cact"
    return read_cact(path), np.load(GOLDEN / f"{name}.npz")


def _check_golden(name: str) -> None:
    cf, z = _golden(name)
    m = Needle.from_cact(cf)
    P = int(z["prompt_len"])
    ids = torch.from_numpy(z["tokens"].astype(np.int64))
    with torch.no_grad():
        out = m(ids[:P])
        logits = out.logits[0].numpy()
        assert _rel(logits, z["logits"]) <= 1e-4
        assert (logits.argmax(-1) == z["logits"].argmax(-1)).all()
        hidden = torch.stack(out.hidden)[:, 0].numpy()
        assert _rel(hidden, z["hidden"]) <= 1e-4
        full = m(ids).logits[0].numpy()
        assert _rel(full, z["causal_logits"]) <= 1e-4
        assert (full.argmax(-1) == z["causal_logits"].argmax(-1)).all()
        W, S = int(z["window"]), int(z["sinks"])
        win = m(ids[:P], window=W, sinks=S).logits[0].numpy()
        assert _rel(win, z["window_prefill_logits"]) <= 1e-4
        # A cached prefix continued by the rest equals the full forward.
        pre = m(ids[:P], keep_past=True).past
        rest = m(ids[P:], past=pre).logits[0].numpy()
        assert _rel(rest, z["causal_logits"][P:]) <= 1e-4
        cells = m.cells(out)
        e = m.head("contrastive_head", cells)[0]
        e = (e / e.norm()).numpy()
        assert np.abs(e - z["contrastive"]).max() <= 1e-4
        c = float(m.head("confidence_head", cells)[0, 0])
        assert abs(c - float(z["confidence"])) <= 1e-4 * max(1.0, abs(float(z["confidence"])))
    # Nothing changed: the export is the file, byte for byte.
    assert m.rewrite(cf) == bytes(cf.buffer)


@needs_torch
def test_torch_matches_golden_tiny() -> None:
    _check_golden("tiny")


@needs_torch
def test_torch_matches_golden_release_geometry() -> None:
    # the release geometry's first three layers (engram site 2 included): the vendor's hidden
    # states after each layer, and the export is the file byte for byte
    cf, z = _golden(RELEASE)
    m = Needle.from_cact(cf)
    P = int(z["prompt_len"])
    ids = torch.from_numpy(z["tokens"][:P].astype(np.int64))
    with torch.no_grad():
        hidden = torch.stack(m(ids).hidden)[:, 0].numpy()
    assert hidden.shape == z["hidden"].shape
    assert _rel(hidden, z["hidden"]) <= 1e-4
    assert m.rewrite(cf) == bytes(cf.buffer)


@needs_torch
def test_changed_tensor_alone_is_requantized() -> None:
    cf, _ = _golden("tiny")
    m = Needle.from_cact(cf)
    with torch.no_grad():
        m.params["layer01__q_proj"].mul_(1.5)
        m.params["layer02__post_norm"].add_(0.25)
    assert set(m.changed()) == {"layer01.q_proj", "layer02.post_norm"}
    new = parse(m.rewrite(cf))
    for t in cf.tensors:
        same = bytes(new.blob(t.name)) == bytes(cf.blob(t.name))
        assert same == (t.name not in ("layer01.q_proj", "layer02.post_norm")), t.name
    q = new.dense("layer01.q_proj")
    assert np.abs(q - 1.5 * cf.dense("layer01.q_proj")).max() < 0.5 * np.abs(q).max()


# ----------------------------------------------------------------------------------------------
# QAT


@needs_torch
@pytest.mark.parametrize("bits", [2, 3, 4, 5])
def test_cq_fake_quant_is_the_shipped_quantizer(bits: int) -> None:
    from kernels import cq

    rng = np.random.default_rng(bits)
    w = rng.standard_normal((40, 200)).astype(np.float32)  # 200: padded to 256
    packed, norms = cq.quantize(w, bits, 128)
    want = cq.dequantize(packed, norms, 200, bits, 128)
    got = cq_quant_dequant(torch.from_numpy(w), bits).numpy()
    assert np.array_equal(got, want)
    # Straight-through: the gradient reaches the master weights unchanged.
    wt = torch.from_numpy(w).requires_grad_(True)
    g = torch.from_numpy(rng.standard_normal(w.shape).astype(np.float32))
    (cq_fake_quant(wt, bits) * g).sum().backward()
    assert torch.equal(wt.grad, g)


@needs_torch
def test_a8_fake_quant() -> None:
    x = torch.randn(5, 64, requires_grad=True)
    y = a8_fake_quant(x)
    scale = x.detach().abs().amax(-1, keepdim=True) / 127
    q = y.detach() / scale
    assert torch.allclose(q, q.round(), atol=1e-3)
    assert q.abs().max() <= 127.001
    assert (y.detach() - x.detach()).abs().max() <= scale.max() / 2 + 1e-6
    y.sum().backward()
    assert torch.equal(x.grad, torch.ones_like(x))
    assert torch.equal(a8_fake_quant(torch.zeros(3, 8)), torch.zeros(3, 8))


MICRO = Geometry(
    vocab=400,
    d_model=64,
    num_heads=2,
    num_kv_heads=1,
    num_layers=2,
    head_dim=32,
    max_seq_len=2048,
    hada_n=64,
    mhc_lanes=4,
    engram_slots=64,
    engram_sub_dim=32,
    num_engram_tables=2,
    engram_conv_taps=4,
    engram_conv_dilation=3,
    engram_orders=(2, 3),
    engram_sites=(1,),
    rope_theta=10000.0,
)


def _tok_blob(vocab: int) -> bytes:
    from agent.model.tokenizer import (
        synthetic_corpus,
        tokenizer_blob_from_sentencepiece,
        train_tokenizer,
    )

    return tokenizer_blob_from_sentencepiece(train_tokenizer(synthetic_corpus(0, 400), vocab))


@needs_torch
def test_qat_forward_is_what_ships() -> None:
    """With weight fake quant on (FP32 activations), the training forward equals the reference
    forward of the exported file: the trained network is the shipped one."""
    m = Needle(MICRO)
    m.init_weights(3)
    with torch.no_grad():  # non-trivial vectors so every path matters
        for s in m.specs:
            if not s.quantized:
                m.params[s.name.replace(".", "__")].add_(0.05 * torch.randn(s.shape))
    bits = "embedding=4,mhc=3,default=2"
    cf = parse(m.to_cact(_tok_blob(MICRO.vocab), bits))
    ids = np.random.default_rng(0).integers(0, MICRO.vocab, 30)
    enable_qat(m, bits, activations=False)
    with torch.no_grad():
        got = m(torch.from_numpy(ids)).logits[0].numpy()
    want = ReferenceModel(cf).forward(ids).logits
    assert _rel(got, want) <= 1e-4
    # FP16 vectors are rounded on export; the CQ matrices themselves are equal to the file's.
    for name in ("layer00.q_proj", "embedding", "mhc_phi_res", "engram0.tables"):
        w = m.weight(name).detach().numpy()
        assert np.allclose(w, cf.dense(name), atol=1e-6), name
    disable_qat(m)
    assert m.weight_fn is None and m.act_fn is None


@needs_torch
def test_lora_merge_preserves_forward() -> None:
    m = Needle(MICRO)
    m.init_weights(1)
    names = m.add_lora(rank=4, alpha=8)
    assert len(names) == 5 * MICRO.num_layers
    with torch.no_grad():
        for mod in m.lora.values():
            mod.B.normal_()
    ids = torch.arange(20) % MICRO.vocab
    with torch.no_grad():
        before = m(ids).logits
        m.merge_lora()
        after = m(ids).logits
    assert not m.lora
    assert torch.allclose(before, after, atol=1e-4 * before.abs().max())


# ----------------------------------------------------------------------------------------------
# slice


@pytest.mark.parametrize("layers", [1, 2, 4])
def test_slice_keeps_the_first_layers(layers: int) -> None:
    from agent.offline.train.slice import slice_layers

    cf, z = _golden("tiny")
    sc = parse(slice_layers(cf, layers))
    g = sc.geometry
    assert g.num_layers == layers
    assert g.engram_sites == tuple(s for s in cf.geometry.engram_sites if s < layers)
    assert sc.head_codes == (1,)  # confidence head dropped, contrastive kept
    for t in sc.tensors:
        if t.name.startswith(("layer", "engram", "embedding", "final_norm", "contrastive")):
            assert bytes(sc.blob(t.name)) == bytes(cf.blob(t.name)), t.name
    ids = z["tokens"][:32]
    hidden = ReferenceModel(sc).forward(ids).hidden
    assert _rel(hidden, z["hidden"][:layers, :32]) <= 1e-5
    with pytest.raises(ValueError):
        slice_layers(cf, 0)
    with pytest.raises(ValueError):
        slice_layers(cf, cf.geometry.num_layers + 1)


def test_slice_cli(tmp_path: Path) -> None:
    import argparse

    from agent.offline.train.slice import add_arguments, slice_main

    _golden("tiny")
    p = argparse.ArgumentParser()
    add_arguments(p)
    out = tmp_path / "s.cact"
    assert slice_main(p.parse_args(["--layers", "2", str(GOLDEN / "tiny.cact"), str(out)])) == 0
    assert read_cact(out).geometry.num_layers == 2


# ----------------------------------------------------------------------------------------------
# finetune


def _demo_tools() -> list[dict]:
    from agent.offline.train.synth import tools_from_config

    return tools_from_config()


@needs_torch
@pytest.mark.slow
def test_finetune_lora_tiny(tmp_path: Path) -> None:
    from agent.offline.train.finetune import finetune

    cf, _ = _golden("tiny")
    rows = [
        {
            "query": "turn on the kitchen light",
            "answers": [{"name": "set_light", "arguments": {"room": "kitchen", "on": True}}],
        },
        {"query": "what's the weather", "answers": []},
        {"query": "fan off", "answers": [{"name": "set_fan", "arguments": {"on": False}}]},
    ]
    out = tmp_path / "ft.cact"
    # Two short tools keep the prompt inside the tiny file's 512 positions, and the test fast.
    light_fan = [t for t in _demo_tools() if t["name"] in ("set_light", "set_fan")]
    rep = finetune(
        GOLDEN / "tiny.cact",
        rows,
        out,
        tools=light_fan,
        rank=4,
        steps=2,
        batch=2,
        lr=1e-2,
        quiet=True,
    )
    assert rep["steps"] == 2
    ft = read_cact(out)
    assert ft.head_codes == (1,)  # confidence head dropped: the session reports None
    adapted = {
        f"layer{i:02d}.{n}"
        for i in range(4)
        for n in ("q_proj", "k_proj", "v_proj", "gate_proj", "out_proj")
    }
    changed = set()
    for t in ft.tensors:
        if bytes(ft.blob(t.name)) != bytes(cf.blob(t.name)):
            changed.add(t.name)
    assert changed <= adapted | {"heads.manifest"}
    assert changed & adapted
    for name in changed & adapted:
        assert ft.info(name).bits == cf.info(name).bits and ft.info(name).dtype == CQ


# ----------------------------------------------------------------------------------------------
# trainer


def _micro_train(tmp_path: Path, name: str, steps: int = 3, budget: float | None = None, **kw):
    from agent.offline.train.trainer import TrainConfig, train

    geo = {k: getattr(MICRO, k) for k in MICRO.__dataclass_fields__}
    cfg = TrainConfig(
        geometry=geo,
        examples=150,
        steps=steps,
        qat_steps=2,
        batch=4,
        checkpoint_every=100,
        bits="embedding=4,mhc=4,default=2",
        warmup=2,
        time_budget=budget,
    )
    out = tmp_path / f"{name}.cact"
    rep = train(
        _demo_tools(), ROOT / "agent" / "data" / "demo_sentences.ini", out, cfg, quiet=True, **kw
    )
    return out, rep


@needs_torch
@pytest.mark.slow
def test_trainer_deterministic_and_resumable(tmp_path: Path) -> None:
    a, rep = _micro_train(tmp_path, "a")
    assert rep is not None and rep["bytes"] == a.stat().st_size
    cf = read_cact(a)
    assert cf.geometry.num_layers == MICRO.num_layers
    png = a.with_suffix(".loss.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    report = json.loads(Path(str(a) + ".report.json").read_text())
    assert report["loss_final"] < report["loss_first"]
    b, _ = _micro_train(tmp_path, "b")
    assert a.read_bytes() == b.read_bytes()  # same seed, same file
    # Interrupted after 4 of 5 steps (inside QAT), then resumed: the same file again.
    ck = tmp_path / "c.ckpt"
    c, rep_c = _micro_train(tmp_path, "c", checkpoint=ck, stop_after=4)
    assert rep_c is None and not c.exists() and ck.exists()
    c, _ = _micro_train(tmp_path, "c", checkpoint=ck, resume=True)
    assert c.read_bytes() == a.read_bytes()
    assert not ck.exists()  # a finished run removes its checkpoint


@needs_torch
@pytest.mark.slow
def test_trainer_warm_start_keeps_tokenizer_and_records_the_first_run(tmp_path: Path) -> None:
    ck = tmp_path / "a.ckpt"
    a, _ = _micro_train(tmp_path, "a", checkpoint=ck, keep_checkpoint=True)
    b, rep = _micro_train(tmp_path, "b", init=ck)
    assert rep is not None and rep["init"]["checkpoint"] == str(ck)
    assert rep["init"]["steps"] == 5
    # same tokenizer (read from the checkpoint, not retrained), different weights
    assert bytes(read_cact(b).tokenizer_blob) == bytes(read_cact(a).tokenizer_blob)
    assert a.read_bytes() != b.read_bytes()
    fresh = json.loads(Path(str(a) + ".report.json").read_text())
    # it starts where the first run ended, not from random weights
    assert rep["loss_first"] < fresh["loss_first"]


@needs_torch
@pytest.mark.slow
def test_time_budget_cuts_the_run_once_and_a_resume_keeps_the_cut(tmp_path: Path) -> None:
    # A budget already spent by the data: the run stops its FP32 phase at the 20 steps it times
    # and keeps one QAT step, instead of the 40 + 2 asked for.
    a, rep = _micro_train(tmp_path, "a", steps=40, budget=1.0)
    assert rep is not None and rep["steps"] == 21
    assert (rep["config"]["steps"], rep["config"]["qat_steps"]) == (20, 1)
    # Paused after the cut, resumed with no budget: the cut holds, and the file is the same.
    ck = tmp_path / "b.ckpt"
    assert _micro_train(tmp_path, "b", steps=40, budget=1.0, checkpoint=ck, stop_after=20) == (
        tmp_path / "b.cact",
        None,
    )
    b, rep_b = _micro_train(tmp_path, "b", steps=40, checkpoint=ck, resume=True)
    assert rep_b is not None and rep_b["steps"] == 21
    assert b.read_bytes() == a.read_bytes()


@needs_torch
def test_trainer_warm_starts_from_a_shipped_model_file(tmp_path: Path) -> None:
    # a bundled model whose checkpoint is gone: its dequantized weights and its tokenizer
    a, _ = _micro_train(tmp_path, "a")
    fresh = json.loads(Path(str(a) + ".report.json").read_text())
    assert _micro_train(tmp_path, "b", init=a, stop_after=2)[1] is None  # time-boxed: paused
    b, rep = _micro_train(tmp_path, "b", init=a, resume=True)
    assert rep is not None and rep["init"]["checkpoint"] == str(a)
    assert rep["init"]["steps"] == fresh["steps"]
    assert bytes(read_cact(b).tokenizer_blob) == bytes(read_cact(a).tokenizer_blob)
    assert rep["loss_first"] < fresh["loss_first"]


def test_png_encoder(tmp_path: Path) -> None:
    import zlib

    from agent.offline.train.plot import _raster

    data = _raster([3.0, 2.0, 1.5, 1.0, 0.5, 0.4], phase_split=4, w=64, h=48)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # IHDR says 64 x 48 RGB; IDAT inflates to 48 rows of 1 + 64*3 bytes.
    assert int.from_bytes(data[16:20], "big") == 64 and int.from_bytes(data[20:24], "big") == 48
    i = data.index(b"IDAT")
    n = int.from_bytes(data[i - 4 : i], "big")
    assert len(zlib.decompress(data[i + 4 : i + 4 + n])) == 48 * (1 + 64 * 3)


# ----------------------------------------------------------------------------------------------
# evaluation


def test_calls_match_semantics() -> None:
    from agent.offline.train.evaluate import calls_match, score

    a = {"name": "set_light", "arguments": {"room": "kitchen", "on": True}}
    b = {"name": "set_light", "arguments": {"on": True, "room": "kitchen"}}
    t = {"name": "set_thermostat", "arguments": {"temperature": 21}}
    assert calls_match([a], [b])
    assert calls_match([a, t], [t, b])
    assert calls_match([{"name": "set_thermostat", "arguments": {"temperature": 21.0}}], [t])
    assert not calls_match([a], [])
    assert not calls_match([a], [a, t])
    assert not calls_match([{"name": "set_light", "arguments": {"room": "kitchen"}}], [a])
    res = [
        {"category": "positive", "expected": [a], "got": [a], "ok": True, "ms": 1.0},
        {"category": "negated", "expected": [], "got": [], "ok": True, "ms": 2.0},
        {"category": "off_topic", "expected": [], "got": [a], "ok": False, "ms": 3.0},
        {"category": "positive", "expected": [a], "got": [], "ok": False, "ms": 4.0},
    ]
    s = score(res)
    assert s["summary"]["positive_exact"] == 0.5
    assert s["summary"]["refusal_precision"] == 0.5
    assert s["summary"]["refusal_recall"] == 0.5
    assert s["summary"]["refusal_correct"] == 0.5


def test_evaluate_end_to_end_tiny() -> None:
    from agent.offline.train.evaluate import evaluate, table

    _golden("tiny")
    cases = [
        {
            "query": "turn on the fan",
            "category": "positive",
            "answers": [{"name": "set_fan", "arguments": {"on": True}}],
        },
        {"query": "tell me a joke", "category": "off_topic", "answers": []},
    ]
    # One short tool: the tiny file's 512-position limit must hold the whole prompt.
    fan = [t for t in _demo_tools() if t["name"] == "set_fan"]
    rep = evaluate(GOLDEN / "tiny.cact", cases, fan, backend="reference", mode="fp32")
    assert rep["summary"]["cases"] == 2 and rep["summary"]["errors"] == 0
    for r in rep["results"]:
        assert isinstance(r["got"], list)  # random weights, but always a well-formed list
    assert "overall exact match" in table(rep)


def test_heldout_set_is_valid() -> None:
    from agent.offline.train.synth import read_jsonl
    from devices.registry import validate

    rows = read_jsonl(HELDOUT)
    assert len(rows) >= 120
    cats = {r["category"] for r in rows}
    assert {"positive", "negated", "off_topic", "missing", "two_actions"} <= cats
    tools = {t["name"]: t for t in _demo_tools()}
    for r in rows:
        assert r["query"].strip()
        if r["category"] in ("negated", "off_topic", "missing"):
            assert r["answers"] == []
        if r["category"] == "two_actions":
            assert len(r["answers"]) == 2
        if r["category"] == "positive":
            assert len(r["answers"]) == 1
        for c in r["answers"]:
            assert validate(c["arguments"], tools[c["name"]]["parameters"]) == [], r
    assert len({r["query"].lower() for r in rows}) == len(rows)


def test_demo_model_meets_targets() -> None:
    """The bundled demo model on the held-out set, through the daemon path."""
    from agent.offline.train.evaluate import evaluate_file

    assert DEMO_MODEL.exists(), "the bundled demo model is part of the package"
    cf = read_cact(DEMO_MODEL)
    assert DEMO_MODEL.stat().st_size <= 4 * 1024 * 1024
    assert cf.geometry.vocab <= 2048
    rep = evaluate_file(DEMO_MODEL, HELDOUT, _demo_tools())
    s = rep["summary"]
    assert s["errors"] == 0
    assert s["positive_exact"] >= 0.95, s
    assert s["refusal_correct"] >= 0.90, s
    assert s["two_actions_exact"] >= 0.80, s


def test_evaluate_scores_the_daemons_range_refusal() -> None:
    """The grammar fits "99 degrees" to the range (9); the daemon refuses that call before it
    runs, so the evaluation counts what the daemon answers: a refusal."""
    from agent.offline.train.evaluate import evaluate

    cases = [
        {"query": "set the thermostat to 99 degrees", "category": "invalid", "answers": []},
        {"query": "dim the kitchen light to 250 percent", "category": "invalid", "answers": []},
    ]
    rep = evaluate(DEMO_MODEL, cases, _demo_tools())
    for r in rep["results"]:
        assert r["ok"] and r["got"] == [], r
        (call,) = r["out_of_range"]  # the call the model made, kept for the report
        assert call["name"] in ("set_thermostat", "set_light")
    assert rep["summary"]["refusal_correct"] == 1.0


def test_eval_cli_scores_the_daemons_min_confidence_unless_told(tmp_path: Path) -> None:
    """`needled eval` scores what the daemon answers: with no flag, a call below the daemon's
    `limits.min_confidence` (the config's when given, else the default 0.5) is a refusal;
    `--min-confidence 0` scores the bare model."""
    import subprocess
    import sys

    from agent.model.bundled import GENERAL

    cases = tmp_path / "cases.jsonl"
    home = tmp_path / "home.toml"
    home.write_text(
        '[devices.plugs]\nkind = "tasmota"\nswitches = { kettle = "k", "fairy lights" = "f" }\n'
    )
    # "turn it on" names nothing: the model guesses a plug at a confidence of 0.1 or less
    cases.write_text(json.dumps({"query": "turn it on", "category": "missing", "answers": []}))

    def run(*extra: str) -> dict:
        out = tmp_path / "r.json"
        args = ["eval", "--model", str(GENERAL), "--cases", str(cases), "--json", str(out)]
        subprocess.run(
            [sys.executable, "-m", "agent.cli", *args, *extra], check=True, capture_output=True
        )
        return json.loads(out.read_text())

    default = run("--config", str(home))
    (r,) = default["results"]
    assert default["min_confidence"] == 0.5 and r["ok"] and r["got"] == [] and r["unsure"]
    bare = run("--config", str(home), "--min-confidence", "0")
    assert bare["min_confidence"] == 0 and not bare["results"][0]["ok"]
    home.write_text(home.read_text() + "[limits]\nmin_confidence = 0\n")
    assert not run("--config", str(home))["results"][0]["ok"]


@needs_torch
@pytest.mark.slow
def test_finetune_retrain_head_keeps_confidence(tmp_path: Path) -> None:
    from agent.offline.train.finetune import finetune

    _golden("tiny")
    fan = [t for t in _demo_tools() if t["name"] == "set_fan"]
    rows = [
        {"query": "fan on", "answers": [{"name": "set_fan", "arguments": {"on": True}}]},
        {"query": "fan off", "answers": [{"name": "set_fan", "arguments": {"on": False}}]},
        {"query": "tell me a joke", "answers": []},
    ]
    out = tmp_path / "ft.cact"
    rep = finetune(
        GOLDEN / "tiny.cact",
        rows,
        out,
        tools=fan,
        rank=2,
        steps=1,
        batch=2,
        retrain_head=True,
        head_steps=6,
        quiet=True,
    )
    assert rep["confidence_head"] == "retrained"
    ft = read_cact(out)
    assert ft.head_codes == (1, 2)
    cf = read_cact(GOLDEN / "tiny.cact")
    assert bytes(ft.blob("confidence_head.proj")) != bytes(cf.blob("confidence_head.proj"))
    assert bytes(ft.blob("contrastive_head.proj")) == bytes(cf.blob("contrastive_head.proj"))


def test_training_ids_are_the_session_prompt() -> None:
    """The prompt part of a training example is token for token what `Session.complete()`
    feeds the engine, and the target starts with `<tool_call>` as the decode driver emits."""
    from agent.calling import prompt as P
    from agent.calling.tools import render_tools_json
    from agent.model.tokenizer import Tokenizer
    from agent.offline.train.data import encode_example

    cf, _ = _golden("tiny")
    tok = Tokenizer(bytes(cf.tokenizer_blob))
    tools = _demo_tools()
    for system in (None, "location: Lisbon"):
        row = {
            "query": "Turn on the kitchen light, please",
            "tools": tools,
            "answers": [{"name": "set_light", "arguments": {"room": "kitchen", "on": True}}],
            "system": system,
        }
        e = encode_example(tok, row)
        pre_text = P.tools_prefix(render_tools_json(tools), system)
        session_prefix = [P.BOS_ID] + tok.encode(pre_text)
        session_full = [P.BOS_ID] + tok.encode(pre_text + P.query_suffix(row["query"]))
        assert list(e.prefix) == session_prefix
        assert list(e.prefix) + e.suffix[: e.target_start] == session_full
        target = e.suffix[e.target_start :]
        assert target[0] == 10 and target[-1] == 1  # <tool_call> ... EOS
        assert 11 in target and 5 in target  # </tool_call>, <|im_end|>
        call = tok.decode([t for t in target if t > 13])
        assert '"room":"kitchen"' in call


@pytest.mark.slow
def test_train_config_adapts_the_bundled_model(tmp_path: Path) -> None:
    """`needled train --config` fine-tunes a base model for that home (here the demo model, a
    few steps): renamed tools and a kind the base never saw get examples from their
    templates, a calibrated confidence head is fitted, and the training record gains the
    home's kinds."""
    from agent.offline.train.adapt import adapt, home_rows

    home = ROOT / "tests" / "data" / "custom_homes" / "lake_lodge.toml"
    base = tmp_path / "base.cact"
    base.write_bytes(DEMO_MODEL.read_bytes())
    (tmp_path / "base.cact.report.json").write_text(
        json.dumps({"trained_on": {"kinds": ["simulated_lights"], "max_tools": 8}})
    )
    out = tmp_path / "home.cact"
    rep = adapt(out, config=home, base=base, examples=60, steps=3, head_homes=2, quiet=True)
    assert out.exists() and rep["steps"] == 3
    assert "jot_down" in rep["tools"] and "log" in rep["trained_on"]["kinds"]
    assert 2 in read_cact(out).head_codes
    import tomllib

    devices = tomllib.loads(home.read_text())["devices"]
    rows = home_rows(devices, rep["trained_on"]["adapted_to"], 80, 0)
    notes = [r for r in rows if r["answers"] and r["answers"][0]["name"] == "jot_down"]
    # The log kind's templates: the note is the user's own words, copied into the call.
    assert notes and all(r["answers"][0]["arguments"]["message"] in r["query"] for r in notes)


@needs_torch
@pytest.mark.slow
def test_train_config_takes_its_steps_from_adapt_steps(tmp_path: Path) -> None:
    """`needled train --config F --adapt-steps N` adapts for N steps (the FP32 `--steps` of a
    training from scratch is another schedule); N must be positive."""
    import subprocess
    import sys

    home = ROOT / "tests" / "data" / "custom_homes" / "lake_lodge.toml"
    base = tmp_path / "base.cact"
    base.write_bytes(DEMO_MODEL.read_bytes())
    out = tmp_path / "home.cact"
    cmd = [sys.executable, "-m", "agent.cli", "train", "--config", str(home), "--base", str(base)]
    bad = subprocess.run([*cmd, "--adapt-steps", "0", "--out", str(out)], capture_output=True)
    assert bad.returncode == 2 and b"must be 1 or more" in bad.stderr
    subprocess.run(
        [*cmd, "--adapt-steps", "2", "--out", str(out), "--quiet"], check=True, capture_output=True
    )
    assert json.loads(Path(f"{out}.report.json").read_text())["steps"] == 2


def test_hand_written_cases_are_read_as_the_session_reads_them(tmp_path: Path) -> None:
    from agent.offline.train.homes import home_tools
    from agent.offline.train.trainer import hand_written_rows

    tools = home_tools({"lights": {"kind": "simulated_lights", "rooms": ["attic", "den"]}})
    cases = [
        {
            "query": "Please switch the attic light off, it is late.",
            "tools": tools,
            "answers": [{"name": "set_light", "arguments": {"room": "attic", "on": False}}],
            "category": "positive",
        },
        {"query": "play jazz in the den", "tools": tools, "category": "off_topic"},
    ]
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))
    rows = hand_written_rows(path)
    assert [r["query"] for r in rows] == [
        "Please switch the attic light off.",
        "play jazz in the den",
    ]
    assert rows[0]["answers"] == cases[0]["answers"] and rows[1]["answers"] == []
    assert all(r["tools"] == tools for r in rows)
