"""Assemble bench/train_report.json for the general model from the run's own reports.

    python bench/train_report.py --model agent/models/general.cact \
        [--earlier STAGE1_REPORT.json ...] \
        --eval homes=R1.json --eval demo=R2.json [--eval NAME=R.json ...] \
        [--adapt NAME=ADAPT_REPORT.json,EVAL.json,FORGET.json] --out bench/train_report.json

Every number comes from a report a command wrote (training: `<model>.report.json`; head:
`<model>.confidence.json`; `needled eval --json`), so the file can be checked against them.
The section of the previous (demo-only) model is kept under `demo_model`.
"""

from __future__ import annotations

import argparse
import json
import platform
from pathlib import Path
from typing import Any

TARGETS = {
    "positive_exact": 0.95,
    "two_actions_exact": 0.85,
    "each_refusal_category": 0.90,
    "demo_home_positive_exact": 0.95,
}


def _eval_summary(path: str) -> dict[str, Any]:
    r = json.loads(Path(path).read_text())
    return {
        "report": path,
        "summary": r["summary"],
        "categories": r["categories"],
        **({"homes": r["homes"]} if "homes" in r else {}),
    }


def _earlier_stage(train: dict[str, Any], command: str | None) -> dict[str, Any] | None:
    """The run this one was warm-started from (`needled train --init`): its cost counts too."""
    init = train.get("init")
    if not init:
        return None
    cfg = init.get("config") or {}
    return {
        "command": command,
        "steps": init["steps"],
        "train_seconds": init["train_seconds"],
        "homes": cfg.get("homes"),
        "per_home": cfg.get("per_home"),
        "batch": cfg.get("batch"),
        "lr": cfg.get("lr"),
    }


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--model", required=True)
    p.add_argument("--eval", action="append", default=[], help="NAME=needled eval --json report")
    p.add_argument("--adapt", action="append", default=[], help="NAME=adapt,eval,forget reports")
    p.add_argument("--notes", action="append", default=[])
    p.add_argument("--command", help="the training command, when its report lacks it")
    p.add_argument(
        "--init-command", help="the command of the run it was warm-started from (--init)"
    )
    p.add_argument(
        "--earlier",
        action="append",
        default=[],
        help="the report (this script's) of each earlier stage, first stage first",
    )
    p.add_argument("--out", required=True)
    a = p.parse_args()
    model = Path(a.model)
    train = json.loads(Path(str(model) + ".report.json").read_text())
    head_path = Path(str(model) + ".confidence.json")
    head = json.loads(head_path.read_text()) if head_path.exists() else train.get("confidence_head")
    out_path = Path(a.out)
    old = json.loads(out_path.read_text()) if out_path.exists() else {}
    report: dict[str, Any] = {
        "description": (
            "The bundled general model: trained on generated homes (agent/offline/train/homes.py), "
            "evaluated through needled eval (Session.complete(), grammar-constrained, native "
            "int8 engine, 1 thread) on hand-written cases the templates did not produce."
        ),
        "machine": f"{platform.machine()} {platform.processor() or ''}".strip()
        + f", {train.get('threads')} training thread(s), PyTorch {train.get('torch')}",
        "targets": TARGETS,
        "model": {
            "file": str(model),
            "bytes": model.stat().st_size,
            "geometry": train["geometry"],
            "bits": train["config"]["bits"],
        },
        "training": {
            "command": train.get("command") or a.command,
            "homes": train["config"].get("homes"),
            "per_home": train["config"].get("per_home"),
            "examples": train["examples"],
            "steps": train.get("steps", train["config"]["steps"] + train["config"]["qat_steps"]),
            "tokens": train.get("tokens"),
            "tokens_per_second": train.get("tokens_per_second"),
            "train_seconds": train["train_seconds"],
            "wall_seconds": train["wall_seconds"],
            "loss_first": train["loss_first"],
            "loss_fp32_end": train["loss_fp32_end"],
            "loss_final": train["loss_final"],
            "loss_curve": train["loss_curve"],
            "trained_on": {
                k: v for k, v in train.get("trained_on", {}).items() if k != "name_split"
            },
            "name_split": {
                k: {"train": v["train"], "eval": v["eval"]}
                for k, v in train.get("trained_on", {}).get("name_split", {}).items()
            },
        },
        "confidence_head": head,
        "earlier_stages": [],
        "eval": {},
        "adapt": {},
        "notes": a.notes,
    }
    # the runs this one was warm-started from: their reports, else its own --init record
    stages = report["earlier_stages"]
    for path in a.earlier:
        t = json.loads(Path(path).read_text())["training"]
        stages.append(
            {
                "report": path,
                "command": t["command"],
                "steps": t["steps"],
                "train_seconds": t["train_seconds"],
                "homes": t.get("homes"),
                "per_home": t.get("per_home"),
            }
        )
    if not stages and (first := _earlier_stage(train, a.init_command)):
        stages.append(first)
    if stages:
        report["training"]["train_seconds_all_stages"] = round(
            sum(st["train_seconds"] for st in stages) + train["train_seconds"], 1
        )
        report["training"]["steps_all_stages"] = (
            sum(st["steps"] for st in stages) + report["training"]["steps"]
        )
    for item in a.eval:
        name, path = item.split("=", 1)
        report["eval"][name] = _eval_summary(path)
    for item in a.adapt:
        name, paths = item.split("=", 1)
        ad, ev, forget = paths.split(",")
        report["adapt"][name] = {
            "adapt": json.loads(Path(ad).read_text()),
            "eval": _eval_summary(ev),
            "general_after": _eval_summary(forget),
        }
    # the demo model's own sections, written when it was trained, are kept
    for key in ("demo_model", "slice", "demo_first_run", "demo_notes"):
        if key in old:
            report[key] = old[key]
    out_path.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
