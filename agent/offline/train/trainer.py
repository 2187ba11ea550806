"""Train a small Needle 2 geometry from scratch on synthetic data, then quantization-aware, export.

    needled train --homes 3000 --out M.cact                   the general model (any home)
    needled train --config HOME.toml --out M.cact             adapt the bundled model (.adapt)
    needled train --from-scratch --config F.toml --sentences S.ini --out M.cact   one home only

Pipeline: synthesize examples (:mod:`.synth`), train a SentencePiece BPE tokenizer on them (the
10 chat markers at ids 4-13), train the model in FP32, continue with CQ/A8 fake quantization
(:mod:`.qat`) at the bits map that ships, export the `.cact`, write a loss curve PNG and a JSON
report beside it. Deterministic for a seed (single process, fixed thread count, every random
draw seeded; the batch order is a function of seed and step, so a resumed run continues the same
sequence). A checkpoint (`M.cact.ckpt`, or `--checkpoint`) is written every
`--checkpoint-every` steps and at the end of each phase; `--resume` continues from it; it is
removed once the model is exported (`--keep-checkpoint` keeps it).

Training cost is dominated by the tools prefix (hundreds of tokens, identical in every example):
each batch runs it once with batch size 1 and attends every example to its cached keys (the
gradient still flows through it), so a step costs prefix + B x suffix tokens, not B x both.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import shlex
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from agent.model.cact import Geometry, read_cact, write_file
from agent.model.makemodel import TINY
from agent.model.tokenizer import Tokenizer, tokenizer_blob_from_sentencepiece, train_tokenizer
from agent.offline.train import plot
from agent.offline.train.data import Encoded, corpus_lines, encode_example
from agent.offline.train.homes import synthesize_homes
from agent.offline.train.qat import disable_qat, enable_qat
from agent.offline.train.synth import read_jsonl, synthesize, tools_from_args, write_jsonl
from agent.offline.train.torch_model import Needle, set_threads

# The tiny golden geometry with the release's position range: small enough to train here.
DEMO = dataclasses.replace(TINY, max_seq_len=2048)
GEOMETRIES = {"demo": DEMO}
DEMO_BITS = "embedding=4,mhc=4,default=4"


@dataclass
class TrainConfig:
    geometry: str | dict = "demo"
    # Defaults are the bundled demo model's recipe (agent/models/demo.cact.report.json).
    examples: int = 24000
    seed: int = 0
    steps: int = 1100
    qat_steps: int = 150
    batch: int = 32
    lr: float = 2e-3
    qat_lr: float = 3e-4
    warmup: int = 100
    weight_decay: float = 0.01
    bits: str = DEMO_BITS
    # One thread: on a shared 2-core machine a second OpenMP thread waits on the first more
    # than it helps, and results are bit-identical only for the same thread count.
    threads: int = 1
    checkpoint_every: int = 100
    reasoning: bool = False
    system: str | None = None
    # > 0: train a general model on this many generated homes (agent/offline/train/homes.py) instead
    # of one tool list; `examples` is then ignored and each home gets `per_home` examples.
    homes: int = 0
    per_home: int = 32
    # with homes: which generated data (homes.synthesize_homes; 1 is the bundled model's)
    data_version: int = 1
    # hand-written cases (vendor JSONL, tools on each) added to the generated rows, each
    # `cases_repeat` times, read as the session reads a request (grammar/remarks.py)
    cases: str | None = None
    cases_repeat: int = 1
    # "cpu", or a PyTorch device such as "cuda": the same arithmetic, not bit-identical to CPU
    device: str = "cpu"
    # seconds for the whole run (data included): the FP32 step count is cut, once the first
    # steps have been timed, so that the run and its QAT phase end inside it (`steps` is the cap)
    time_budget: float | None = None
    extra: dict = field(default_factory=dict)

    def geometry_obj(self) -> Geometry:
        if isinstance(self.geometry, dict):
            d = dict(self.geometry)
            d["engram_orders"] = tuple(d["engram_orders"])
            d["engram_sites"] = tuple(d["engram_sites"])
            return Geometry(**d)
        return GEOMETRIES[self.geometry]


class Batches:
    """Encoded examples grouped by their tools prefix; batch `i` is a function of (seed, i)."""

    def __init__(self, encoded: Sequence[Encoded], batch: int, seed: int) -> None:
        groups: dict[tuple[int, ...], list[Encoded]] = {}
        for e in encoded:
            groups.setdefault(e.prefix, []).append(e)
        self.groups = list(groups.items())
        self.weights = np.array([len(g) for _, g in self.groups], np.float64)
        self.weights /= self.weights.sum()
        self.batch = batch
        self.seed = seed

    def get(self, step: int) -> tuple[tuple[int, ...], list[Encoded]]:
        rng = np.random.default_rng([self.seed, step])
        gi = int(rng.choice(len(self.groups), p=self.weights))
        prefix, items = self.groups[gi]
        idx = rng.choice(len(items), size=min(self.batch, len(items)), replace=False)
        return prefix, [items[i] for i in idx]


def batch_loss(model: Needle, prefix: Sequence[int], items: Sequence[Encoded]) -> torch.Tensor:
    """Mean next-token cross-entropy over the target tokens of a batch sharing one prefix."""
    dev = model.params["embedding"].device
    pre = model(torch.tensor([list(prefix)], device=dev), keep_past=True, skip_logits=True).past
    T = max(len(e.suffix) for e in items) - 1
    ids = torch.zeros(len(items), T, dtype=torch.long)
    labels = torch.full((len(items), T), -100, dtype=torch.long)
    for b, e in enumerate(items):
        n = len(e.suffix) - 1
        ids[b, :n] = torch.tensor(e.suffix[:-1])
        tgt = torch.tensor(e.suffix[1:])
        # Position p predicts suffix[p + 1]: targets start at target_start, so inputs at - 1.
        labels[b, e.target_start - 1 : n] = tgt[e.target_start - 1 :]
    ids, labels = ids.to(dev), labels.to(dev)
    select = labels >= 0
    out = model(ids, past=pre, select=select)
    return F.cross_entropy(out.logits, labels[select])


def _lr_at(step: int, total: int, base: float, warmup: int) -> float:
    if step < warmup:
        return base * (step + 1) / warmup
    p = (step - warmup) / max(1, total - warmup)
    return base * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, p))))


def _optimizer(model: Needle, lr: float, wd: float) -> torch.optim.Optimizer:
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    rest = [p for n, p in model.named_parameters() if p.dim() < 2]
    return torch.optim.AdamW(
        [{"params": decay, "weight_decay": wd}, {"params": rest, "weight_decay": 0.0}],
        lr=lr,
        betas=(0.9, 0.98),
    )


class Progress:
    """A one-line progress bar on stderr (rate, loss, ETA); silent when `quiet`."""

    def __init__(self, total: int, label: str, quiet: bool = False) -> None:
        self.total, self.label, self.quiet = total, label, quiet
        self.t0 = time.perf_counter()
        self.start_step: int | None = None

    def update(self, step: int, loss: float) -> None:
        if self.quiet:
            return
        if self.start_step is None:
            self.start_step = step
        done = step + 1
        el = time.perf_counter() - self.t0
        rate = (done - self.start_step) / el if el > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else 0.0
        w = 30
        fill = int(w * done / self.total)
        sys.stderr.write(
            f"\r{self.label} [{'#' * fill}{'.' * (w - fill)}] {done}/{self.total} "
            f"loss {loss:.4f} {rate:.2f} it/s ETA {eta / 60:.1f} min "
        )
        sys.stderr.flush()
        if done == self.total:
            sys.stderr.write("\n")


def train(
    tools: Sequence[Mapping[str, Any]],
    sentences: str | Path | None,
    out: str | Path,
    cfg: TrainConfig | None = None,
    resume: bool = False,
    quiet: bool = False,
    data_out: str | Path | None = None,
    checkpoint: str | Path | None = None,
    stop_after: int | None = None,
    keep_checkpoint: bool = False,
    command: str | None = None,
    init: str | Path | None = None,
) -> dict[str, Any] | None:
    """Run the whole pipeline; returns the report (also written to `<out>.report.json`).

    `init`: a checkpoint of an earlier run (same geometry) to start from: its weights and
    tokenizer, with a new optimizer and schedule (a warm start on new data, unlike `resume`).

    `stop_after`: stop once that many steps are done, leaving a checkpoint and no model (for
    time-boxed sessions; `resume=True` continues). Returns None then.
    """
    cfg = cfg or TrainConfig()
    set_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    out = Path(out)
    ckpt_path = Path(checkpoint) if checkpoint else out.with_name(out.name + ".ckpt")
    t_start = time.perf_counter()
    g = cfg.geometry_obj()

    trained_on: dict[str, Any] | None = None
    if cfg.homes > 0:
        rows, trained_on = synthesize_homes(
            cfg.homes, cfg.per_home, cfg.seed, data_version=cfg.data_version
        )
    else:
        rows = synthesize(
            tools, sentences, cfg.examples, cfg.seed, reasoning=cfg.reasoning, system=cfg.system
        )
    if cfg.cases:
        added = hand_written_rows(cfg.cases)
        rows = rows + added * cfg.cases_repeat
        if trained_on is not None:
            trained_on["hand_written"] = {
                "file": cfg.cases,
                "cases": len(added),
                "repeat": cfg.cases_repeat,
            }
    if data_out:
        write_jsonl(rows, data_out)
    state: dict[str, Any] | None = None
    init_state: dict[str, Any] | None = None
    # The tokenizer travels as a SentencePiece model when this pipeline trained it, or as the
    # file's own blob when a run starts from a shipped `.cact` (no SentencePiece model there).
    sp_model: bytes | None = None
    blob: bytes | None = None
    if resume and ckpt_path.exists():
        state = torch.load(ckpt_path, weights_only=False, map_location="cpu")
        sp_model, blob = state["tokenizer"], state.get("tokenizer_blob")
    elif init is not None:
        init_state = _load_init(Path(init), g)
        sp_model, blob = init_state["tokenizer"], init_state.get("tokenizer_blob")
    else:
        sp_model = train_tokenizer(corpus_lines(rows), g.vocab, seed=cfg.seed)
    if blob is None:
        blob = tokenizer_blob_from_sentencepiece(sp_model)
    tok = Tokenizer(blob)  # exactly what the session will rebuild from the file
    encoded = [e for e in (encode_example(tok, r, cfg.reasoning) for r in rows) if e is not None]
    batches = Batches(encoded, cfg.batch, cfg.seed)
    t_data = time.perf_counter() - t_start

    device = torch.device(cfg.device)
    model = Needle(g)
    model.init_weights(cfg.seed)  # on the CPU generator, so every device starts alike
    model.to(device)
    total = cfg.steps + cfg.qat_steps
    opt = _optimizer(model, cfg.lr, cfg.weight_decay)
    losses: list[float] = []
    step = 0
    train_seconds = 0.0
    step_times: list[float] = []
    tokens = 0  # tokens through the model: each batch's shared prefix once, plus its suffixes
    init_record: dict[str, Any] | None = None
    if init_state is not None:
        model.load_state_dict(init_state["model"])
        init_record = {
            "checkpoint": str(init),
            "steps": init_state["step"],
            "train_seconds": round(init_state.get("train_seconds", 0.0), 1),
            "config": init_state.get("config"),
        }
        del init_state
    if state is not None:
        init_record = state.get("init")
        model.load_state_dict(state["model"])
        step = state["step"]
        losses = state["losses"]
        train_seconds = state.get("train_seconds", 0.0)
        tokens = state.get("tokens", 0)
        saved = state.get("config") or {}
        if saved.get("time_budget"):
            # the cut made by the first invocation's budget holds for the whole run
            cfg.steps, cfg.qat_steps = saved["steps"], saved["qat_steps"]
            cfg.time_budget = None
            total = cfg.steps + cfg.qat_steps
        if step > cfg.steps:
            enable_qat(model, cfg.bits)
            opt = _optimizer(model, cfg.qat_lr, 0.0)
        opt.load_state_dict(state["opt"])

    def save() -> None:
        tmp = ckpt_path.with_name(ckpt_path.name + ".tmp")
        torch.save(
            {
                "model": model.state_dict(),
                "opt": opt.state_dict(),
                "step": step,
                "losses": losses,
                "tokenizer": sp_model,
                "tokenizer_blob": None if sp_model is not None else blob,
                "config": asdict(cfg),
                "train_seconds": train_seconds,
                "tokens": tokens,
                "init": init_record,
            },
            tmp,
        )
        os.replace(tmp, ckpt_path)

    bar = Progress(total, "train", quiet)
    model.train()
    budget_probe = step + 20 if cfg.time_budget and step < cfg.steps else None
    while step < total:
        if step == cfg.steps:
            # Phase 2: the forward now sees the shipped weights and int8 activations.
            save()
            enable_qat(model, cfg.bits)
            opt = _optimizer(model, cfg.qat_lr, 0.0)
        t0 = time.perf_counter()
        qat = step >= cfg.steps
        lr = (
            _lr_at(step - cfg.steps, cfg.qat_steps, cfg.qat_lr, 20)
            if qat
            else _lr_at(step, cfg.steps, cfg.lr, cfg.warmup)
        )
        for grp in opt.param_groups:
            grp["lr"] = lr
        prefix, items = batches.get(step)
        tokens += len(prefix) + sum(len(e.suffix) for e in items)
        loss = batch_loss(model, prefix, items)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        lv = loss.item()
        losses.append(lv)
        step_times.append(time.perf_counter() - t0)
        train_seconds += step_times[-1]
        bar.update(step, lv)
        step += 1
        if step == budget_probe:
            # Seconds per step from the last 15 (the first ones pay for start-up); a QAT step
            # is counted as two, and a minute is kept for the checkpoints and the export.
            per = float(np.mean(step_times[-15:]))
            left = cfg.time_budget - (time.perf_counter() - t_start) - 60.0
            fit = step + max(0, int((left - 2 * per * cfg.qat_steps) / per))
            if fit < cfg.steps:
                cfg.steps = fit
                # a budget too small even for the QAT phase shortens that too
                cfg.qat_steps = min(cfg.qat_steps, max(1, int(left / (2 * per))))
                total = cfg.steps + cfg.qat_steps
                bar.total = total
        if step % cfg.checkpoint_every == 0 or step == total or step == stop_after:
            save()
        if stop_after is not None and step >= stop_after and step < total:
            return None

    disable_qat(model)
    data = model.to_cact(blob, cfg.bits)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_file(out, data)
    png = out.with_suffix(".loss.png")
    plot.loss_curve_png(losses, png, phase_split=cfg.steps)
    report = {
        "model": str(out),
        "bytes": len(data),
        "geometry": asdict(g),
        "config": asdict(cfg),
        "examples": len(rows),
        "encoded": len(encoded),
        "prefix_tokens": [len(p) for p, _ in batches.groups],
        "loss_first": losses[0] if losses else None,
        "loss_fp32_end": float(np.mean(losses[max(0, cfg.steps - 50) : cfg.steps]))
        if losses
        else None,
        "loss_final": float(np.mean(losses[-50:])) if losses else None,
        "train_seconds": round(train_seconds, 1),
        "steps": total,
        "tokens": tokens,
        "tokens_per_second": round(tokens / train_seconds, 1) if train_seconds else None,
        "data_seconds": round(t_data, 1),
        "wall_seconds": round(time.perf_counter() - t_start, 1),
        "torch": torch.__version__,
        "threads": cfg.threads,
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu",
        "loss_curve": str(png),
    }
    if command is not None:
        report["command"] = command
    if init_record is not None:
        # the earlier run's cost counts too: this model is both runs
        report["init"] = init_record
    if trained_on is None and tools is not None:
        # one home only: its exact tools are what the model knows (agent/model/coverage.py)
        trained_on = {"only_tools": [dict(t) for t in tools], "max_tools": len(tools)}
    if trained_on is not None:
        report["trained_on"] = trained_on
    Path(str(out) + ".report.json").write_text(json.dumps(report, indent=2) + "\n")
    if not keep_checkpoint:
        # The model is out; a finished run's checkpoint is only dead weight beside it.
        ckpt_path.unlink(missing_ok=True)
    return report


def hand_written_rows(path: str | Path) -> list[dict[str, Any]]:
    """The cases of a JSONL file as training rows, each request read as the session reads it
    (courtesies and remarks dropped), so the model learns what it will be shown."""
    from agent.calling.grammar.remarks import PlainReader

    readers: dict[str, PlainReader] = {}
    rows = []
    for case in read_jsonl(path):
        key = json.dumps(case["tools"], sort_keys=True)
        reader = readers.get(key) or readers.setdefault(key, PlainReader(case["tools"]))
        rows.append(
            {
                "query": reader.read(case["query"]),
                "tools": case["tools"],
                "answers": case.get("answers") or [],
            }
        )
    return rows


def _load_init(path: Path, g: Geometry) -> dict[str, Any]:
    """A warm start's weights and tokenizer, from a checkpoint or from a `.cact` file.

    A `.cact` gives its weights dequantized to FP32 (on the codebook grid the file shipped),
    so a run can continue from a bundled model whose checkpoint is gone. Its confidence head,
    if any, is not part of the language model and is left out: it is fitted again afterwards.
    """
    if path.suffix != ".cact":
        return torch.load(path, weights_only=False, map_location="cpu")
    cf = read_cact(path)
    try:
        if cf.geometry != g:
            raise ValueError(f"{path}: its geometry differs from the one being trained")
        src = Needle.from_cact(cf)
        blob = bytes(cf.tokenizer_blob)
    finally:
        cf.close()
    keys = Needle(g).state_dict().keys()
    weights = {k: v for k, v in src.state_dict().items() if k in keys}
    # The file's own training report (written beside it) says what it cost to get here.
    report_path = path.with_name(path.name + ".report.json")
    made: dict[str, Any] = json.loads(report_path.read_text()) if report_path.exists() else {}
    return {
        "model": weights,
        "tokenizer": None,
        "tokenizer_blob": blob,
        "step": made.get("steps", 0),
        "train_seconds": made.get("train_seconds", 0.0),
        "config": made.get("config"),
    }


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of `needled train`."""
    src = p.add_mutually_exclusive_group()
    src.add_argument("--tools", help="tool schemas (JSON list)")
    src.add_argument("--config", help="needled TOML config whose [devices] give the tools")
    p.add_argument("--sentences", help="sentences file (templates); omitted: schemas alone")
    p.add_argument("--out", required=True, help="output .cact")
    p.add_argument("--geometry", default="demo", help="demo, or a JSON file of Geometry fields")
    p.add_argument("--examples", type=int, default=TrainConfig.examples)
    p.add_argument(
        "--homes",
        type=int,
        default=0,
        help="train a general model on this many generated homes (ignores --tools/--config)",
    )
    p.add_argument("--per-home", type=int, default=TrainConfig.per_home)
    p.add_argument(
        "--data-version",
        type=int,
        choices=(1, 2, 3, 4, 5, 6, 7),
        default=1,
        help="with --homes: 2 redraws the demo home's unsupported rooms and invents names; 3 "
        "invents more of them, in three homes of four, with colours, speeds and tool names, and "
        "adds short phrasings; 4 is version 2 with those phrasings; 5 is version 2 with look-alike "
        "tools (two lights, covers, plugs or relays in one home); 6 is version 2 with more "
        "multi-action requests, lists of three and four among them; 7 adds lists over shared "
        "names and remarks that ask nothing",
    )
    p.add_argument(
        "--from-scratch",
        action="store_true",
        help="with --config/--tools: train a new model on that home alone instead of adapting "
        "the bundled general model",
    )
    p.add_argument("--base", help="model to adapt (default: the bundled model)")
    p.add_argument("--steps", type=int, default=TrainConfig.steps, help="FP32 steps")
    p.add_argument("--qat-steps", type=int, default=TrainConfig.qat_steps)
    p.add_argument("--batch", type=int, default=TrainConfig.batch)
    p.add_argument("--lr", type=float, default=TrainConfig.lr)
    p.add_argument("--qat-lr", type=float, default=TrainConfig.qat_lr)
    p.add_argument("--warmup", type=int, default=TrainConfig.warmup)
    p.add_argument("--bits", default=DEMO_BITS, help="CQ bits map of the exported file")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=TrainConfig.threads)
    p.add_argument(
        "--device", default="cpu", help="PyTorch device to train on (cpu, cuda; default cpu)"
    )
    p.add_argument(
        "--time-budget",
        type=float,
        help="seconds for the whole run: fewer FP32 steps than --steps if the first ones show "
        "that --steps would not fit",
    )
    p.add_argument("--checkpoint-every", type=int, default=100)
    p.add_argument("--checkpoint", help="checkpoint file (default OUT.ckpt)")
    p.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    p.add_argument(
        "--init",
        help="start from an earlier run's checkpoint or .cact (weights and tokenizer, new "
        "schedule)",
    )
    p.add_argument("--keep-checkpoint", action="store_true", help="keep it after a finished run")
    p.add_argument(
        "--adapt-steps",
        type=_positive_int,
        help="with --config or --tools (adapting the general model): LoRA steps "
        "(default 360; more takes longer, fits the home better and forgets a little more)",
    )
    p.add_argument(
        "--cases",
        help="with --homes: hand-written cases (JSONL, tools on each) added to the generated ones",
    )
    p.add_argument(
        "--cases-repeat", type=_positive_int, default=1, help="how many times each case is added"
    )
    p.add_argument("--data-out", help="also write the synthetic JSONL here")
    p.add_argument("--eval", dest="eval_cases", help="evaluate the result on this JSONL")
    p.add_argument("--quiet", action="store_true")


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def train_main(args: argparse.Namespace) -> int:
    if (args.config or args.tools) and not args.from_scratch and not args.homes:
        from agent.offline.train.adapt import adapt

        report = adapt(
            args.out,
            config=args.config,
            tools_path=args.tools,
            sentences=args.sentences,
            base=args.base,
            seed=args.seed,
            threads=args.threads,
            quiet=args.quiet,
            **({"steps": args.adapt_steps} if args.adapt_steps else {}),
        )
        if args.eval_cases:
            from agent.offline.train.evaluate import evaluate_file

            ev = evaluate_file(args.out, args.eval_cases, tools_from_args(args))
            report["eval"] = ev["summary"]
            Path(str(args.out) + ".report.json").write_text(json.dumps(report, indent=2) + "\n")
        print(json.dumps(report, indent=2))
        return 0
    geometry: str | dict = args.geometry
    if args.geometry not in GEOMETRIES:
        geometry = json.loads(Path(args.geometry).read_text())
    cfg = TrainConfig(
        geometry=geometry,
        examples=args.examples,
        seed=args.seed,
        steps=args.steps,
        qat_steps=args.qat_steps,
        batch=args.batch,
        lr=args.lr,
        bits=args.bits,
        threads=args.threads,
        checkpoint_every=args.checkpoint_every,
        qat_lr=args.qat_lr,
        warmup=args.warmup,
        homes=args.homes,
        per_home=args.per_home,
        data_version=args.data_version,
        cases=args.cases,
        cases_repeat=args.cases_repeat,
        device=args.device,
        time_budget=args.time_budget,
    )
    tools = tools_from_args(args)
    report = train(
        tools,
        args.sentences,
        args.out,
        cfg,
        args.resume,
        args.quiet,
        args.data_out,
        args.checkpoint,
        keep_checkpoint=args.keep_checkpoint,
        init=args.init,
        command="needled " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
    )
    if args.eval_cases:
        from agent.offline.train.evaluate import evaluate_file

        ev = evaluate_file(args.out, args.eval_cases, tools)
        report["eval"] = ev["summary"]
        Path(str(args.out) + ".report.json").write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    return 0
