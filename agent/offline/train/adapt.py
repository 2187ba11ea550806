"""Adapt the bundled general model to one home: `needled train --config FILE`.

The general model reads the tools in its prompt, so a home built from needled's device kinds
needs no training at all. A home whose tools go further (renamed tools, custom descriptions, a
kind the model never saw, the owner's own phrasings) is adapted here instead of training from
scratch: LoRA on the attention projections of the bundled model (:mod:`.finetune`), on examples
generated for this home's tools from each kind's sentence templates (or from the schema alone
for a tool without any), plus the user's sentences file when given. A share of the batches
replays generated homes so the model keeps reading other tool sets (forgetting is measured on
the general held-out suite). The confidence head is then refitted and calibrated for the new
weights (:mod:`.confidence`).
"""

from __future__ import annotations

import json
import random
import time
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agent.offline.train.homes import (
    HOME_MIX,
    home_sentences,
    home_tools,
    name_split,
    synthesize_homes,
)
from agent.offline.train.synth import Generator, JsonDict, load_tools_json, parse_sentences


def home_rows(
    devices: Mapping[str, Mapping[str, Any]] | None,
    tools: list[JsonDict],
    n: int,
    seed: int,
    sentences: str | Path | None = None,
) -> list[JsonDict]:
    """`n` examples for one home: kind templates for its devices, the user's sentences."""
    rng = random.Random(seed)
    pools = {k: v["train"] for k, v in name_split().items()}
    text = home_sentences(devices, tools, rng, pools, more_phrasings=True) if devices else ""
    if sentences is not None:
        text += "\n" + Path(sentences).read_text(encoding="utf-8")
    sf = parse_sentences(text, str(sentences or "<home>"))
    return Generator(tools, sf, seed=seed, mix=HOME_MIX).generate(n)


def adapt(
    out: str | Path,
    *,
    config: str | Path | None = None,
    tools_path: str | Path | None = None,
    sentences: str | Path | None = None,
    base: str | Path | None = None,
    examples: int = 1600,
    replay: float = 0.35,
    steps: int = 360,
    batch: int = 16,
    lr: float = 1e-3,
    seed: int = 0,
    threads: int = 1,
    head: bool = True,
    head_homes: int = 24,
    quiet: bool = False,
) -> dict[str, Any]:
    """Fine-tune `base` (default: the bundled model) for the tools of `config` (or a tools
    file); writes `out` and `<out>.report.json`, returns the report."""
    from agent.cli import default_model
    from agent.offline.train.confidence import train_head
    from agent.offline.train.finetune import finetune

    t0 = time.perf_counter()
    base = Path(base or default_model(None))
    devices: dict[str, Any] | None = None
    if config is not None:
        with open(config, "rb") as f:
            devices = tomllib.load(f).get("devices", {})
        tools = home_tools(devices)
    elif tools_path is not None:
        tools = load_tools_json(tools_path)
    else:
        raise ValueError("give a config or a tools file")
    own = home_rows(devices, tools, examples, seed, sentences)
    n_replay = int(len(own) * replay / max(1e-9, 1 - replay))
    per_home = 16
    replay_rows, _ = synthesize_homes(max(1, n_replay // per_home), per_home, seed + 1)
    rows = own + replay_rows
    tmp = Path(str(out) + ".lora.cact")
    ft = finetune(
        base, rows, tmp, steps=steps, batch=batch, lr=lr, seed=seed, threads=threads, quiet=quiet
    )
    head_report = None
    if head:
        head_report = train_head(tmp, out, homes=head_homes, per_home=10, epochs=3, threads=threads)
        tmp.unlink(missing_ok=True)
        Path(str(tmp) + ".report.json").unlink(missing_ok=True)
    else:
        tmp.replace(out)
    report = {
        "model": str(out),
        "base": str(base),
        "config": str(config) if config else None,
        "tools": [t["name"] for t in tools],
        "examples_home": len(own),
        "examples_replay": len(replay_rows),
        "steps": ft["steps"],
        "batch": batch,
        "lr": lr,
        "loss_first": ft["loss_first"],
        "loss_final": ft["loss_final"],
        "confidence": head_report,
        "seconds": round(time.perf_counter() - t0, 1),
    }
    base_report = Path(str(base) + ".report.json")
    if base_report.exists():
        # The adapted model read the base's training plus this home: keep the record the
        # start-up check reads, and add this home's tools and kinds to it.
        trained_on = json.loads(base_report.read_text()).get("trained_on")
        if trained_on and "only_tools" in trained_on:
            # a single-home base now knows this home's tools as well
            report["trained_on"] = {
                **trained_on,
                "only_tools": trained_on["only_tools"] + tools,
                "max_tools": max(trained_on.get("max_tools", 0), len(tools)),
            }
        elif trained_on:
            kinds = set(trained_on.get("kinds", []))
            kinds |= {d.get("kind") for d in (devices or {}).values() if d.get("kind")}
            report["trained_on"] = {**trained_on, "kinds": sorted(kinds), "adapted_to": tools}
    Path(str(out) + ".report.json").write_text(json.dumps(report, indent=2) + "\n")
    return report
