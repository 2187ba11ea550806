"""Geometry sweep for the general model: size and speed against accuracy at an equal budget.

    python bench/geometry_sweep.py --work /tmp/sweep --out bench/geometry_sweep.json

Each geometry is trained from scratch on the same generated homes (same seed, same steps, same
batch), quantization-aware at the shipped bits, exported, then run through `needled eval`'s own
path on the hand-written held-out homes and the demo home. The report gives, per geometry, the
file size, the parameter count, training seconds and tokens/s, eval decode tokens/s and the
per-category exact match. A short budget ranks geometries by how fast they learn to read a
home's tools; it is not the accuracy of a full run. Resumable: a geometry already in the report
is skipped, and a killed run continues from its checkpoint.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.offline.train.evaluate import evaluate_file  # noqa: E402
from agent.offline.train.synth import tools_from_config  # noqa: E402
from agent.offline.train.torch_model import Needle  # noqa: E402
from agent.offline.train.trainer import DEMO, TrainConfig, train  # noqa: E402

# Candidates around the demo geometry: half the width, the demo, and wider and deeper.
CANDIDATES: dict[str, dict[str, Any]] = {
    "d128-L4": dict(d_model=128, num_heads=2, num_kv_heads=1, hada_n=128, engram_sub_dim=64),
    "d256-L4 (demo)": {},
    "d384-L6": dict(
        d_model=384,
        num_heads=6,
        num_kv_heads=2,
        num_layers=6,
        hada_n=512,
        engram_sites=(1, 4),
    ),
}


def geometry(name: str) -> dict[str, Any]:
    g = dataclasses.replace(DEMO, **CANDIDATES[name])
    problems = g.problems()
    if problems:
        raise ValueError(f"{name}: {problems}")
    d = dataclasses.asdict(g)
    d["engram_orders"] = list(d["engram_orders"])
    d["engram_sites"] = list(d["engram_sites"])
    return d


def run_one(name: str, args: argparse.Namespace) -> dict[str, Any]:
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    slug = name.split()[0]
    out = work / f"{slug}.cact"
    cfg = TrainConfig(
        geometry=geometry(name),
        seed=args.seed,
        steps=args.steps,
        qat_steps=args.qat_steps,
        batch=args.batch,
        lr=2e-3,
        warmup=100,
        homes=args.homes,
        per_home=args.batch,
        threads=args.threads,
    )
    if not out.exists():
        train(None, None, out, cfg, resume=True, quiet=args.quiet)
    report = json.loads(Path(str(out) + ".report.json").read_text())
    homes = evaluate_file(out, ROOT / "tests/data/heldout_homes.jsonl")
    demo = evaluate_file(
        out, ROOT / "tests/data/heldout.jsonl", tools_from_config(ROOT / "agent/data/default.toml")
    )
    params = sum(p.numel() for p in Needle(cfg.geometry_obj()).parameters())
    return {
        "geometry": report["geometry"],
        "bytes": report["bytes"],
        "parameters": params,
        "train_seconds": report["train_seconds"],
        "tokens": report["tokens"],
        "tokens_per_second": report["tokens_per_second"],
        "loss_fp32_end": report["loss_fp32_end"],
        "loss_final": report["loss_final"],
        "heldout_homes": {"summary": homes["summary"], "categories": homes["categories"]},
        "demo_home": {"summary": demo["summary"], "categories": demo["categories"]},
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--work", required=True, help="folder for the models and checkpoints")
    p.add_argument("--out", default=str(ROOT / "bench/geometry_sweep.json"))
    p.add_argument("--only", action="append", help="geometry name (repeatable)")
    p.add_argument("--steps", type=int, default=1200)
    p.add_argument("--qat-steps", type=int, default=100)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--homes", type=int, default=1400)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args()
    out = Path(args.out)
    report: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    report.update(
        {
            "command": "python bench/geometry_sweep.py " + " ".join(sys.argv[1:]),
            "machine": {
                "platform": platform.platform(),
                "processor": platform.processor() or platform.machine(),
                "threads": args.threads,
            },
            "budget": {
                "steps": args.steps,
                "qat_steps": args.qat_steps,
                "batch": args.batch,
                "homes": args.homes,
                "seed": args.seed,
            },
        }
    )
    rows = report.setdefault("geometries", {})
    for name in args.only or list(CANDIDATES):
        if name in rows:
            continue
        t0 = time.perf_counter()
        rows[name] = run_one(name, args)
        rows[name]["wall_seconds"] = round(time.perf_counter() - t0, 1)
        report["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        out.write_text(json.dumps(report, indent=2) + "\n")
        h = rows[name]["heldout_homes"]["summary"]
        print(f"{name}: {rows[name]['bytes']} bytes, {h}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
