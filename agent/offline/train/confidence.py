"""Give a trained `.cact` a calibrated confidence head: `needled confidence-head M --out M2`.

The envelope's `confidence` is what Home Assistant's Confidence sensor and Hermes'
`confidenceScore` show, and automations act on it only above a threshold, so it must mean "the
chance that this call list is right". The head is fitted to exactly that: the model (frozen)
answers fresh generated commands through the daemon's own path (`Session.complete()` on the
native engine, grammar and all), each answer is labelled right or wrong against the expected
calls, and the head learns to predict the label from the prompt plus the model's own answer.
Contrastive pairs (the prompt followed by another example's calls, label 0) are added so the
head sees enough wrong answers when the model is rarely wrong. Because those pairs over-weight
mistakes, a final Platt step refits the head's scale and bias on the natural answers alone, so
that its probabilities match the observed accuracy.

Every base tensor keeps its exact bytes; the head (FP16 probes, projection, bias) is appended
after `final_norm` as the format's optional heads section.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from agent.model.cact import (
    RAW,
    Blob,
    CactFile,
    base_layout,
    fp16_blob,
    read_cact,
    serialize,
    write_file,
)
from agent.model.tokenizer import Tokenizer
from agent.offline.train.data import encode_example
from agent.offline.train.evaluate import calls_match
from agent.offline.train.homes import synthesize_homes
from agent.offline.train.slice import copy_blob
from agent.offline.train.torch_model import Needle, pname, set_threads

CONFIDENCE = 2


def with_confidence_head(
    cf: CactFile, probes: np.ndarray, proj: np.ndarray, bias: np.ndarray
) -> bytes:
    """The file image of `cf` plus (or with a replaced) confidence head; all else byte-exact."""
    from agent.model.cact import head_layout

    codes = sorted(set(cf.head_codes) | {CONFIDENCE})
    blobs = [copy_blob(cf, s.name) for s in base_layout(cf.geometry)]
    blobs.append(fp16_blob(np.asarray(codes, np.float32)))
    new = {
        "confidence_head.probes": probes,
        "confidence_head.proj": proj,
        "confidence_head.bias": bias,
    }
    for s in head_layout(cf.geometry, codes)[1:]:
        if s.name in new:
            blobs.append(fp16_blob(np.asarray(new[s.name], np.float32).reshape(s.shape)))
        else:
            blobs.append(copy_blob(cf, s.name))
    blobs.append(Blob(RAW, (), bytes(cf.tokenizer_blob)))
    return serialize(cf.geometry, blobs, cf.codebook_values)


def labelled_answers(
    cf: CactFile, homes: int, per_home: int, seed: int, threads: int = 1, data_version: int = 1
) -> tuple[list[tuple[list[int], int]], float]:
    """(ids of prompt + the model's own answer, 1 if right) for fresh generated commands, and
    the model's accuracy on them."""
    from agent.calling.session import Session

    tok = Tokenizer(bytes(cf.tokenizer_blob))
    rows, _ = synthesize_homes(homes, per_home, seed, data_version=data_version)
    out: list[tuple[list[int], int]] = []
    by_tools: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_tools.setdefault(json.dumps(r["tools"], sort_keys=True), []).append(r)
    for group in by_tools.values():
        sess = Session(cf, group[0]["tools"], threads=threads)
        for r in group:
            env = sess.complete(r["query"])
            if not env.get("success"):
                continue
            got = env.get("function_calls") or []
            e = encode_example(tok, {**r, "answers": got})
            if e is None:
                continue
            ok = int(calls_match(got, r["answers"]))
            out.append((list(e.prefix) + e.suffix, ok))
    acc = sum(lab for _, lab in out) / max(1, len(out))
    return out, acc


def _contrastive(
    cf: CactFile, homes: int, seed: int, data_version: int = 1
) -> list[tuple[list[int], int]]:
    """Prompts followed by another example's calls from the same home (label 0)."""
    tok = Tokenizer(bytes(cf.tokenizer_blob))
    rows, _ = synthesize_homes(homes, 8, seed + 1, data_version=data_version)
    out = []
    rng = np.random.default_rng(seed)
    for i in range(0, len(rows) - 1, 2):
        a, b = rows[i], rows[i + 1]
        if a["tools"] != b["tools"] or calls_match(a["answers"], b["answers"]):
            continue
        e = encode_example(tok, {**a, "answers": b["answers"]})
        if e is not None and rng.random() < 0.9:
            out.append((list(e.prefix) + e.suffix, 0))
    return out


def train_head(
    model: str | Path,
    out: str | Path,
    *,
    homes: int = 60,
    per_home: int = 12,
    epochs: int = 4,
    lr: float = 2e-3,
    seed: int = 7,
    threads: int = 1,
    data_version: int = 1,
) -> dict[str, Any]:
    """Fit and attach the head; returns a report (also written to `<out>.confidence.json`)."""
    set_threads(threads)
    torch.manual_seed(seed)
    t0 = time.perf_counter()
    cf = read_cact(model)
    natural, acc = labelled_answers(cf, homes, per_home, seed, threads, data_version)
    contrast = _contrastive(cf, homes, seed, data_version)
    net = Needle(cf.geometry, head_codes=(CONFIDENCE,))
    with torch.no_grad():
        for s in base_layout(cf.geometry):
            net.params[pname(s.name)].copy_(
                torch.from_numpy(np.array(cf.dense(s.name), np.float32))
            )
        gen = torch.Generator().manual_seed(seed)
        for leaf in ("probes", "proj"):
            p = net.params[pname(f"confidence_head.{leaf}")]
            p.copy_(torch.randn(p.shape, generator=gen) * 0.02)
        net.params[pname("confidence_head.bias")].zero_()
    for p in net.parameters():
        p.requires_grad_(False)
    head = [net.params[pname(f"confidence_head.{n}")] for n in ("probes", "proj", "bias")]
    for p in head:
        p.requires_grad_(True)
    data = natural + contrast
    cells: list[torch.Tensor] = []
    net.eval()
    with torch.no_grad():
        for ids, _ in data:
            o = net(torch.tensor([ids]), skip_logits=True)
            cells.append(net.cells(o).to(torch.float16))
    labels = [lab for _, lab in data]
    opt = torch.optim.Adam(head, lr=lr)
    rng = np.random.default_rng(seed)
    losses = []
    for _ in range(epochs):
        for i in rng.permutation(len(data)):
            logit = net.head("confidence_head", cells[i].float())[0, 0]
            loss = F.binary_cross_entropy_with_logits(logit, torch.tensor(float(labels[i])))
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
    # Platt step on the natural answers only: confidence = sigmoid(a * logit + b).
    with torch.no_grad():
        z = torch.stack(
            [net.head("confidence_head", cells[i].float())[0, 0] for i in range(len(natural))]
        )
    y = torch.tensor([float(lab) for _, lab in natural])
    ab = torch.tensor([1.0, 0.0], requires_grad=True)
    popt = torch.optim.LBFGS([ab], max_iter=200)

    def closure() -> torch.Tensor:
        popt.zero_grad()
        lo = F.binary_cross_entropy_with_logits(ab[0] * z + ab[1], y)
        lo.backward()
        return lo

    popt.step(closure)
    a, b = float(ab[0].detach()), float(ab[1].detach())
    proj = head[1].detach().numpy() * a
    bias = head[2].detach().numpy() * a + b
    image = with_confidence_head(cf, head[0].detach().numpy(), proj, bias)
    write_file(out, image)
    p_nat = torch.sigmoid(a * z + b).numpy()
    report = {
        "model": str(out),
        "base": str(model),
        "natural_answers": len(natural),
        "natural_accuracy": round(acc, 4),
        "contrastive_pairs": len(contrast),
        "epochs": epochs,
        "loss_final": round(float(np.mean(losses[-100:])), 4) if losses else None,
        "platt": {"a": round(a, 4), "b": round(b, 4)},
        "train_mean_confidence": round(float(p_nat.mean()), 4),
        "seconds": round(time.perf_counter() - t0, 1),
        "seed": seed,
        "homes": homes,
        "per_home": per_home,
        "data_version": data_version,
    }
    if math.isfinite(a):
        Path(str(out) + ".confidence.json").write_text(json.dumps(report, indent=2) + "\n")
    return report


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of `needled confidence-head`."""
    p.add_argument("model", help="trained .cact (its head, if any, is replaced)")
    p.add_argument("--out", required=True, help="output .cact with the confidence head")
    p.add_argument("--homes", type=int, default=60, help="generated homes to answer")
    p.add_argument("--per-home", type=int, default=12)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument(
        "--data-version",
        type=int,
        choices=(1, 2, 3, 4, 5, 6, 7),
        default=1,
        help="generated homes as `needled train --data-version` draws them",
    )


def confidence_main(args: argparse.Namespace) -> int:
    report = train_head(
        args.model,
        args.out,
        homes=args.homes,
        per_home=args.per_home,
        epochs=args.epochs,
        seed=args.seed,
        threads=args.threads,
        data_version=args.data_version,
    )
    print(json.dumps(report, indent=2))
    return 0
