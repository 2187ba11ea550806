"""Grammar benchmark: compile time, mask time per step, share of forced single-token steps.

    python bench/grammar_bench.py --json out/grammar_bench.json [--tokenizer tok8192.model]

Sample calls are teacher-forced: each is spelled with the SentencePiece tokenizer (as the model
was trained), and at every step the mask of the current state is computed (cold: first time the
state is seen by a fresh masker; cached: the same states again). The decode pass then runs
``decode_call`` with a score function that prefers the teacher token, as a well-trained model
would, and counts the steps the grammar forced without scoring.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agent.grammar import TokenMasker, compile_calls, decode_call, vocab_from_sentencepiece  # noqa: E402
from agent.tools import load_tools  # noqa: E402

WORDS = ["light", "weather", "timer", "alarm", "music", "door", "fan", "heater", "camera", "note"]
VERBS = ["set", "get", "start", "stop", "toggle", "add", "remove", "list", "play", "lock"]
CITIES = ["Paris", "Oslo", "Zürich", "New York", "Tokyo", "Lagos"]


def make_tools(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """n realistic tool schemas (strings, enums, ranges, numbers, booleans, optional fields)."""
    rng = random.Random(seed)
    tools = []
    for i in range(n):
        name = f"{VERBS[i % len(VERBS)]}_{WORDS[(i // len(VERBS) + i) % len(WORDS)]}"
        if i >= len(VERBS) * len(WORDS) // 2:
            name += f"_{i}"
        props: dict[str, Any] = {
            "target": {"type": "string", "description": "what to act on", "maxLength": 40},
            "mode": {"type": "string", "enum": rng.sample(["auto", "on", "off", "eco", "max"], 3)},
            "level": {"type": "integer", "minimum": 0, "maximum": 100},
            "duration": {"type": "number", "minimum": 0, "maximum": 3600},
            "confirm": {"type": "boolean"},
        }
        if i % 3 == 0:
            props["when"] = {"type": "string", "format": "date"}
        if i % 4 == 0:
            props["code"] = {"type": "string", "pattern": "^[A-Z]{2}[0-9]{2,4}$"}
        if i % 5 == 0:
            props["tags"] = {"type": "array", "items": {"type": "string"}, "maxItems": 3}
        required = ["target"] + (["level"] if i % 2 else [])
        tools.append(
            {
                "name": name,
                "description": f"{name.replace('_', ' ')} on a device",
                "parameters": {"type": "object", "properties": props, "required": required},
            }
        )
    return tools


def sample_calls(tools: list[dict[str, Any]], n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        calls = []
        for _ in range(rng.choice([1, 1, 1, 2])):
            t = rng.choice(tools)
            props = t["parameters"]["properties"]
            args: dict[str, Any] = {"target": rng.choice(CITIES + WORDS)}
            if "mode" in props and rng.random() < 0.5:
                args["mode"] = rng.choice(props["mode"]["enum"])
            if "level" in t["parameters"]["required"] or rng.random() < 0.4:
                args["level"] = rng.randint(0, 100)
            if rng.random() < 0.3:
                args["duration"] = rng.choice([30, 90.5, 600])
            if rng.random() < 0.3:
                args["confirm"] = rng.random() < 0.5
            ordered = {k: args[k] for k in props if k in args}
            calls.append({"name": t["name"], "arguments": ordered})
        if rng.random() < 0.1:
            calls = []
        out.append(json.dumps(calls, separators=(",", ":"), ensure_ascii=False))
    return out


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q))


def bench(args: argparse.Namespace) -> dict[str, Any]:
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_file=str(args.tokenizer))
    token_bytes, special = vocab_from_sentencepiece(sp)
    report: dict[str, Any] = {
        "machine": {
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
        },
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "tokenizer": str(args.tokenizer),
        "vocab_size": len(token_bytes),
    }

    compile_times: dict[str, Any] = {}
    for n in (5, 50):
        tools = load_tools(make_tools(n))
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            aut = compile_calls(tools)
            times.append(time.perf_counter() - t)
        t = time.perf_counter()
        masker = TokenMasker(aut, token_bytes, special)
        trie_s = time.perf_counter() - t
        compile_times[f"{n}_tools"] = {
            "compile_ms_median": 1e3 * statistics.median(times),
            "nfa_states": len(aut.nfa),
            "masker_build_ms": 1e3 * trie_s,
        }
    report["compile"] = compile_times

    tools5 = make_tools(5)
    aut = compile_calls(load_tools(tools5))
    calls = sample_calls(tools5, args.samples)
    teacher: list[list[int]] = []
    for text in calls:
        ids = sp.encode("<tool_call>" + text)
        teacher.append(ids[ids.index(10) + 1 :])

    masker = TokenMasker(aut, token_bytes, special)
    cold: list[float] = []
    cached: list[float] = []
    forced = steps = not_allowed = 0
    visited: list[int] = []
    for ids in teacher:
        state = aut.start
        for tid in [*ids, 11]:
            t = time.perf_counter()
            allowed = masker.allowed(state)
            dt = time.perf_counter() - t
            (cached if state in visited else cold).append(dt)
            visited.append(state)
            steps += 1
            forced += masker.forced(state) is not None
            if tid not in set(allowed.tolist()):
                not_allowed += 1
                break
            state = masker.advance_token(state, tid)
    for _ in range(3):
        for state in visited:
            t = time.perf_counter()
            masker.allowed(state)
            cached.append(time.perf_counter() - t)
    report["mask_teacher_forced"] = {
        "sample_calls": len(calls),
        "steps": steps,
        "cold_us_median": 1e6 * statistics.median(cold),
        "cold_us_p90": 1e6 * pct(cold, 90),
        "cold_steps": len(cold),
        "cached_us_median": 1e6 * statistics.median(cached),
        "cached_us_p90": 1e6 * pct(cached, 90),
        "forced_share": forced / steps,
        "teacher_tokens_refused": not_allowed,
        "dfa_states": aut.num_states,
    }

    # Decode with a score function that prefers the teacher token (a confident model).
    forced_steps = scored = 0
    grammar_s = 0.0
    total_tokens = 0
    ok = 0
    for ids in teacher:
        queue = [*ids, 11]
        pos = [0]

        def on_token(tid: int, queue: list[int] = queue, pos: list[int] = pos) -> None:
            if tid not in (10, 5) and pos[0] < len(queue) and tid == queue[pos[0]]:
                pos[0] += 1

        def score(cands: np.ndarray, queue: list[int] = queue, pos: list[int] = pos) -> np.ndarray:
            want = queue[pos[0]] if pos[0] < len(queue) else -1
            return (cands == want).astype(np.float32)

        res = decode_call(masker, aut.start, score, max_tokens=256, on_token=on_token)
        ok += res.ok and res.call_text == calls[teacher.index(ids)]
        forced_steps += res.forced_steps
        scored += res.scored_steps
        grammar_s += res.grammar_seconds
        total_tokens += res.forced_steps + res.scored_steps
    report["decode"] = {
        "calls_reproduced": ok,
        "sample_calls": len(teacher),
        "forced_share": forced_steps / max(total_tokens, 1),
        "grammar_us_per_token": 1e6 * grammar_s / max(total_tokens, 1),
        "tokens_per_call_mean": total_tokens / max(len(teacher), 1),
    }
    return report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", required=True, help="where to write the report")
    ap.add_argument(
        "--tokenizer",
        type=Path,
        default=Path(os.environ.get("NEEDLED_GOLDEN", ROOT.parent / "shared" / "golden"))
        / "tok8192.model",
    )
    ap.add_argument("--samples", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    report = bench(args)
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
