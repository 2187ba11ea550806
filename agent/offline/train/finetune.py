"""LoRA fine-tuning of an existing `.cact`: `needled finetune DATA.jsonl --model BASE --out M`.

The base weights are the file's tensors dequantized and frozen. Adapters (`scale * B @ A`, B
starting at zero, rank 16 / alpha 32 by default, as the vendor's recipe) sit on the five
attention projections of every layer (`q_proj`, `k_proj`, `v_proj`, `gate_proj`, `out_proj`).
Training is quantization-aware for what changes: each adapted matrix is seen in the forward as
`CQ(W + B A)` at the width the file records for it (straight-through), with A8 activation fake
quant at the four points, so the merged, re-quantized matrices behave as trained. The untouched
tensors keep their exact bytes in the output (`rewrite_cact`), so the forward uses their stored
values without fake quant.

Confidence: the confidence head was calibrated for the base weights. A fine-tuned file therefore
drops it, and the session reports `confidence: None` (the vendor's package does the same for
tuned weights). `--retrain-head` keeps the head and retrains it after the merge on the fine-tune
data: the head learns to tell the prompt followed by its right call list (label 1) from the same
prompt followed by another example's call list (label 0), with the model frozen. The contrastive
(retrieval) head is kept either way.

Data: vendor JSONL (`query`, `tools`, `answers`, optional `reasoning`, `system`); rows without
`tools` take `--tools`/`--config`. The loss covers the assistant turn only.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from agent.model.cact import CactFile, parse, read_cact, write_file
from agent.model.tokenizer import Tokenizer
from agent.offline.train.data import Encoded, encode_example
from agent.offline.train.qat import a8_fake_quant, bits_of_file, cq_fake_quant
from agent.offline.train.slice import drop_heads
from agent.offline.train.synth import read_jsonl, tools_from_args
from agent.offline.train.torch_model import ATTN_PROJ, Needle, pname, set_threads
from agent.offline.train.trainer import Batches, Progress, batch_loss


def _encode_rows(
    tok: Tokenizer, rows: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]] | None
) -> list[Encoded]:
    out = []
    for r in rows:
        if not r.get("tools"):
            if tools is None:
                raise ValueError("a data row has no tools; pass --tools or --config")
            r = {**r, "tools": list(tools)}
        e = encode_example(tok, r, use_reasoning=bool(r.get("reasoning")))
        if e is not None:
            out.append(e)
    return out


def _enable_lora_qat(model: Needle, cf: CactFile, targets: Sequence[str]) -> None:
    widths = bits_of_file(cf)
    adapted = set(targets)

    def weight_fn(name: str, w: torch.Tensor) -> torch.Tensor:
        if name not in adapted:
            return w  # kept byte for byte: its stored value is already what ships
        bits, group = widths[name]
        return cq_fake_quant(w, bits, group)

    model.weight_fn = weight_fn
    model.act_fn = a8_fake_quant


def _head_examples(items: Sequence[Encoded], rng: np.random.Generator) -> list[tuple[list, int]]:
    """(ids, label): each prompt with its own target (1) and with another example's (0)."""
    out = []
    for i, e in enumerate(items):
        prompt = list(e.prefix) + e.suffix[: e.target_start]
        out.append((prompt + e.suffix[e.target_start :], 1))
        j = int(rng.integers(len(items) - 1))
        j = j + 1 if j >= i else j
        other = items[j]
        wrong = other.suffix[other.target_start :]
        if wrong != e.suffix[e.target_start :]:
            out.append((prompt + wrong, 0))
    return out


def retrain_confidence_head(
    model: Needle, items: Sequence[Encoded], steps: int, lr: float = 1e-3, seed: int = 0
) -> list[float]:
    """Fit the confidence head (probes, proj, bias) with the rest of the model frozen."""
    if 2 not in model.head_codes:
        raise ValueError("the model has no confidence head to retrain")
    rng = np.random.default_rng(seed)
    pairs = _head_examples(items, rng)
    params = [model.params[pname(f"confidence_head.{n}")] for n in ("probes", "proj", "bias")]
    for p in model.parameters():
        p.requires_grad_(False)
    for p in params:
        p.requires_grad_(True)
    opt = torch.optim.Adam(params, lr=lr)
    losses = []
    cache: dict[int, torch.Tensor] = {}
    for _ in range(steps):
        i = int(rng.integers(len(pairs)))
        ids, label = pairs[i]
        if i not in cache:  # cells do not depend on the head: compute each sequence once
            with torch.no_grad():
                out = model(torch.tensor([ids]), skip_logits=True)
                cache[i] = model.cells(out)
        logit = model.head("confidence_head", cache[i])[0, 0]
        loss = F.binary_cross_entropy_with_logits(logit, torch.tensor(float(label)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def finetune(
    base: str | Path,
    data: str | Path | Sequence[Mapping[str, Any]],
    out: str | Path,
    *,
    tools: Sequence[Mapping[str, Any]] | None = None,
    rank: int = 16,
    alpha: float = 32.0,
    epochs: float = 3.0,
    steps: int | None = None,
    batch: int = 16,
    lr: float = 1e-3,
    seed: int = 0,
    threads: int = 2,
    retrain_head: bool = False,
    head_steps: int = 300,
    quiet: bool = False,
) -> dict[str, Any]:
    """Fine-tune `base` on `data`, write `out`; returns a report."""
    set_threads(threads)
    torch.manual_seed(seed)
    t0 = time.perf_counter()
    cf = read_cact(base)
    rows = read_jsonl(data) if isinstance(data, str | Path) else list(data)
    tok = Tokenizer(bytes(cf.tokenizer_blob))
    items = _encode_rows(tok, rows, tools)
    if not items:
        raise ValueError("no usable examples")
    model = Needle.from_cact(cf)
    for p in model.parameters():
        p.requires_grad_(False)
    targets = model.add_lora(ATTN_PROJ, rank=rank, alpha=alpha, seed=seed)
    _enable_lora_qat(model, cf, targets)
    total = steps if steps is not None else max(1, math.ceil(epochs * len(items) / batch))
    params = [p for p in model.lora.parameters()]
    opt = torch.optim.AdamW(params, lr=lr, weight_decay=0.0)
    batches = Batches(items, batch, seed)
    bar = Progress(total, "finetune", quiet)
    losses = []
    for step in range(total):
        warm = min(1.0, (step + 1) / max(1, total // 10))
        cos = 0.5 * (1 + math.cos(math.pi * step / max(1, total)))
        for g in opt.param_groups:
            g["lr"] = lr * warm * (0.1 + 0.9 * cos)
        prefix, chunk = batches.get(step)
        loss = batch_loss(model, prefix, chunk)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        losses.append(loss.item())
        bar.update(step, losses[-1])
    model.weight_fn = None
    model.act_fn = None
    model.merge_lora()
    head_losses: list[float] = []
    if retrain_head and 2 in model.head_codes:
        head_losses = retrain_confidence_head(model, items, head_steps, seed=seed)
    image = model.rewrite(cf)
    if not (retrain_head and head_losses):
        image = drop_heads(parse(image), {2})
    write_file(out, image)
    report = {
        "model": str(out),
        "base": str(base),
        "examples": len(items),
        "steps": total,
        "rank": rank,
        "alpha": alpha,
        "loss_first": losses[0],
        "loss_final": float(np.mean(losses[-10:])),
        "changed_tensors": len(targets),
        "confidence_head": "retrained" if head_losses else "dropped (confidence: None)",
        "head_loss_final": float(np.mean(head_losses[-20:])) if head_losses else None,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    Path(str(out) + ".report.json").write_text(json.dumps(report, indent=2) + "\n")
    return report


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of `needled finetune`."""
    p.add_argument("data", help="training JSONL (vendor format)")
    p.add_argument("--model", required=True, help="base .cact")
    p.add_argument("--out", required=True, help="fine-tuned .cact")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--tools", help="tool schemas for rows without `tools`")
    src.add_argument("--config", help="needled TOML config whose [devices] give the tools")
    p.add_argument("--rank", type=int, default=16)
    p.add_argument("--alpha", type=float, default=32.0)
    p.add_argument("--epochs", type=float, default=3.0)
    p.add_argument("--steps", type=int, help="overrides --epochs")
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument(
        "--retrain-head",
        action="store_true",
        help="retrain the confidence head instead of dropping it",
    )
    p.add_argument("--quiet", action="store_true")


def finetune_main(args: argparse.Namespace) -> int:
    tools = tools_from_args(args, default=False)
    report = finetune(
        args.model,
        args.data,
        args.out,
        tools=tools,
        rank=args.rank,
        alpha=args.alpha,
        epochs=args.epochs,
        steps=args.steps,
        batch=args.batch,
        lr=args.lr,
        seed=args.seed,
        threads=args.threads,
        retrain_head=args.retrain_head,
        quiet=args.quiet,
    )
    print(json.dumps(report, indent=2))
    return 0
