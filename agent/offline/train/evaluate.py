"""Evaluate a `.cact` on a JSONL case file through the real daemon path.

    needled eval --model M.cact --cases CASES.jsonl [--tools T.json] [--json REPORT.json]

Each case is a vendor-format row (`query`, `answers`, optional `tools`, `system`, and our
`category`). Every query goes through `Session.complete()`: the prompt as trained, the tools
prefix cache, grammar-constrained greedy decoding, on the native engine when it is built (else
the NumPy reference). No PyTorch needed. The daemon's settings apply unless a flag says
otherwise: `limits.min_confidence` (calls below it count as refusals), `model.mention_prior`
and `model.second_look`, from `--config` when given, else their defaults.

Scoring. A case is an exact match when the produced call list equals the expected one: same
number of calls, tool names equal, argument values equal (numbers compared by value, so `21`
equals `21.0`), object key order ignored; the order of the calls is ignored too (two independent
actions may be listed either way). Refusals: the expected answer is `[]`; refusal precision is
the share of produced `[]` that were expected, recall the share of expected `[]` produced.
Reported per category (`positive`, `two_actions`, `negated`, `off_topic`, `missing`, ...),
plus latency (median and p95 of `complete()` wall time, prefill and decode tokens/s). Cases
with a `home` are also scored per home; when the model has a confidence head, the report gives
its calibration against exact match (expected calibration error, Brier score).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agent.calling.envelope import below_confidence
from agent.calling.rangecheck import find_remapped

if TYPE_CHECKING:
    from agent.service.config import Config

JsonDict = dict[str, Any]
REFUSAL_CATEGORIES = ("negated", "off_topic", "unsupported", "invalid", "missing")


def _canon(v: Any) -> Any:
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int | float):
        return int(v) if float(v) == int(v) else float(v)
    if isinstance(v, Mapping):
        return {k: _canon(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_canon(x) for x in v]
    return v


def _call_key(c: Mapping[str, Any]) -> str:
    return json.dumps(
        {"name": c.get("name"), "arguments": _canon(c.get("arguments") or {})},
        sort_keys=True,
        ensure_ascii=False,
    )


def calls_match(got: Sequence[Mapping[str, Any]], want: Sequence[Mapping[str, Any]]) -> bool:
    """Exact match: names and argument values equal; key order and call order ignored."""
    return sorted(_call_key(c) for c in got) == sorted(_call_key(c) for c in want)


def score(results: Sequence[JsonDict]) -> JsonDict:
    """Aggregate per-case results (`category`, `expected`, `got`, `ms`, ...) into metrics."""
    cats: dict[str, list[JsonDict]] = {}
    for r in results:
        cats.setdefault(r["category"], []).append(r)
    per_cat = {
        c: {"n": len(rs), "exact": round(sum(r["ok"] for r in rs) / len(rs), 4)}
        for c, rs in sorted(cats.items())
    }
    exp_ref = [r for r in results if not r["expected"]]
    got_ref = [r for r in results if r["got"] is not None and not r["got"]]
    both = [r for r in exp_ref if r["got"] is not None and not r["got"]]
    ms = [r["ms"] for r in results]
    refusal_cases = [r for r in results if r["category"] in REFUSAL_CATEGORIES]
    summary = {
        "cases": len(results),
        "exact": round(sum(r["ok"] for r in results) / max(1, len(results)), 4),
        "positive_exact": per_cat.get("positive", {}).get("exact"),
        "two_actions_exact": per_cat.get("two_actions", {}).get("exact"),
        "refusal_correct": round(sum(r["ok"] for r in refusal_cases) / len(refusal_cases), 4)
        if refusal_cases
        else None,
        "refusal_precision": round(len(both) / len(got_ref), 4) if got_ref else None,
        "refusal_recall": round(len(both) / len(exp_ref), 4) if exp_ref else None,
        "errors": sum(r["got"] is None for r in results),
        "latency_ms_median": round(statistics.median(ms), 2) if ms else None,
        "latency_ms_p95": round(sorted(ms)[int(0.95 * (len(ms) - 1))], 2) if ms else None,
        "prefill_tps_median": _median([r.get("prefill_tps") for r in results]),
        "decode_tps_median": _median([r.get("decode_tps") for r in results]),
    }
    report: JsonDict = {"summary": summary, "categories": per_cat}
    homes: dict[str, list[JsonDict]] = {}
    for r in results:
        if r.get("home"):
            homes.setdefault(r["home"], []).append(r)
    if homes:
        report["homes"] = {
            h: {
                "n": len(rs),
                "exact": round(sum(r["ok"] for r in rs) / len(rs), 4),
                "positive_exact": _share([r for r in rs if r["category"] == "positive"]),
                "refusal_correct": _share([r for r in rs if r["category"] in REFUSAL_CATEGORIES]),
            }
            for h, rs in sorted(homes.items())
        }
    cal = calibration([r for r in results if r.get("confidence") is not None])
    if cal is not None:
        summary["calibration"] = cal
    return report


def _share(rs: Sequence[JsonDict]) -> float | None:
    return round(sum(r["ok"] for r in rs) / len(rs), 4) if rs else None


def calibration(results: Sequence[JsonDict], bins: int = 10) -> JsonDict | None:
    """Expected calibration error of `confidence` against exact match: the case-weighted mean
    gap between the mean confidence and the accuracy inside equal-width confidence bins (what
    a Home Assistant automation that acts above a threshold relies on), plus the Brier score."""
    if not results:
        return None
    buckets: list[list[JsonDict]] = [[] for _ in range(bins)]
    for r in results:
        c = float(r["confidence"])
        buckets[min(bins - 1, int(c * bins))].append(r)
    ece = 0.0
    table = []
    for i, b in enumerate(buckets):
        if not b:
            continue
        conf = sum(float(r["confidence"]) for r in b) / len(b)
        acc = sum(r["ok"] for r in b) / len(b)
        ece += len(b) / len(results) * abs(conf - acc)
        table.append(
            {"bin": i, "n": len(b), "confidence": round(conf, 4), "accuracy": round(acc, 4)}
        )
    brier = sum((float(r["confidence"]) - float(r["ok"])) ** 2 for r in results) / len(results)
    return {"ece": round(ece, 4), "brier": round(brier, 4), "n": len(results), "bins": table}


def _median(v: list[Any]) -> float | None:
    xs = [x for x in v if x]
    return round(statistics.median(xs), 1) if xs else None


def evaluate(
    model: str | Path,
    cases: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None = None,
    backend: str = "auto",
    mode: str = "int8",
    threads: int | None = 1,
    progress: bool = False,
    forced_spans: bool = False,
    min_confidence: float = 0.0,
    mention_weight: float | None = None,
    second_look: bool = True,
) -> JsonDict:
    """Run every case through `Session.complete()`; returns the report (summary, categories,
    per-case results).

    `min_confidence` applies the daemon's `limits.min_confidence`: calls the head is less sure
    of count as a refusal (what the daemon would answer), the proposed calls kept as `unsure`.
    The daemon's range check always applies: a call whose number was fitted to a parameter's
    range while the request asked for one outside it is refused (`out_of_range` keeps it).

    `forced_spans` is the session option of the same name (spell grammar-forced byte runs
    with the tokenizer instead of forcing only single allowed tokens); the daemon's default
    is off. `mention_weight` is the decoding prior's weight (`model.mention_prior`); None
    keeps the session's default, as the daemon does. `second_look` is `model.second_look`.
    """
    from agent.calling.session import Session
    from agent.model.cact import read_cact

    cf = read_cact(model)
    sessions: dict[tuple[str, str], Session] = {}
    results = []
    for i, case in enumerate(cases):
        case_tools = case.get("tools") or tools
        if not case_tools:
            raise ValueError(f"case {i} has no tools and none were given")
        system = case.get("system") or None
        key = (json.dumps(case_tools, sort_keys=True), system or "")
        sess = sessions.get(key)
        if sess is None:
            sess = Session(
                cf,
                case_tools,
                system=system,
                backend=backend,
                mode=mode,
                threads=threads,
                forced_spans=forced_spans,
                **({} if mention_weight is None else {"mention_weight": mention_weight}),
                second_look=second_look,
            )
            sessions[key] = sess
        t0 = time.perf_counter()
        env = sess.complete(case["query"])
        ms = (time.perf_counter() - t0) * 1e3
        got = env.get("function_calls") if env.get("success") else None
        unsure = remapped = None
        if got:
            # the daemon refuses a call whose number was fitted to the range ("150 percent"
            # decoded as 15) before anything runs: score what it would answer
            by_name = {t.name: t.to_schema() for t in sess.tools}
            hit = find_remapped(case["query"], got, by_name)
            if hit is not None:
                remapped, got = got, []
        if got and below_confidence(env.get("confidence"), min_confidence):
            unsure, got = got, []
        want = case.get("answers") or []
        results.append(
            {
                "query": case["query"],
                "category": case.get("category", "positive" if want else "refusal"),
                "expected": want,
                "got": got,
                "ok": got is not None and calls_match(got, want),
                "ms": round(ms, 3),
                "prefill_tps": env.get("prefill_tps"),
                "decode_tps": env.get("decode_tps"),
                "error": env.get("error"),
                "confidence": env.get("confidence"),
                **({"home": case["home"]} if case.get("home") else {}),
                **({"unsure": unsure} if unsure is not None else {}),
                **({"out_of_range": remapped} if remapped is not None else {}),
            }
        )
        if progress and (i + 1) % 20 == 0:
            print(f"  {i + 1}/{len(cases)}", flush=True)
    report = score(results)
    engine = next(iter(sessions.values())).engine if sessions else None
    report["backend"] = type(engine).__name__ if engine is not None else None
    report["model"] = str(model)
    report["min_confidence"] = min_confidence
    report["mention_weight"] = (
        next(iter(sessions.values())).mention_weight if sessions else mention_weight
    )
    report["second_look"] = second_look
    report["results"] = results
    return report


def evaluate_file(
    model: str | Path,
    cases_path: str | Path,
    tools: Sequence[Mapping[str, Any]] | None = None,
    **kw: Any,
) -> JsonDict:
    from agent.offline.train.synth import read_jsonl

    return evaluate(model, read_jsonl(cases_path), tools, **kw)


def table(report: Mapping[str, Any]) -> str:
    """A plain-text table of the per-category results and the summary."""
    lines = [f"{'category':<14}{'n':>5}{'exact':>9}"]
    for c, v in report["categories"].items():
        lines.append(f"{c:<14}{v['n']:>5}{v['exact'] * 100:>8.1f}%")
    s = report["summary"]

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{x * 100:.1f}%"

    lines += [
        "",
        f"overall exact match   {pct(s['exact'])} of {s['cases']}",
        f"refusals correct      {pct(s['refusal_correct'])}",
        f"refusal precision     {pct(s['refusal_precision'])}",
        f"refusal recall        {pct(s['refusal_recall'])}",
        f"latency median / p95  {s['latency_ms_median']} / {s['latency_ms_p95']} ms",
        f"decode tokens/s       {s['decode_tps_median']}",
        f"backend               {report.get('backend')}",
    ]
    if report.get("min_confidence"):
        lines.append(f"{'min confidence':<22}{report['min_confidence']:g} (calls below: refused)")
    if s.get("calibration"):
        c = s["calibration"]
        lines.append(f"confidence ECE        {c['ece']:.3f} (Brier {c['brier']:.3f}, n {c['n']})")
    for h, v in (report.get("homes") or {}).items():
        lines.append(f"  home {h:<22}{v['n']:>4}{v['exact'] * 100:>8.1f}%")
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments of `needled eval`."""
    p.add_argument("--model", required=True, help=".cact model")
    p.add_argument("--cases", required=True, help="JSONL cases (query, answers, category)")
    p.add_argument("--tools", help="tool schemas for cases that carry none (JSON list)")
    p.add_argument("--config", help="needled TOML config whose [devices] give the tools")
    p.add_argument("--backend", default="auto", choices=("auto", "native", "reference"))
    p.add_argument("--mode", default="int8", help="native engine mode (int8 or fp32)")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--json", help="write the full report here")
    p.add_argument("--failures", type=int, default=10, help="list this many failed cases")
    p.add_argument(
        "--forced-spans",
        action="store_true",
        help="spell grammar-forced byte runs with the tokenizer (session option)",
    )
    p.add_argument(
        "--min-confidence",
        type=float,
        default=None,
        help="count calls below this confidence as refusals, as limits.min_confidence does "
        "(default: the daemon's, from --config when given; 0 scores every call)",
    )
    p.add_argument(
        "--mention-weight",
        type=float,
        default=None,
        help="weight of the prior for names the request says (default: the daemon's)",
    )
    p.add_argument(
        "--no-second-look",
        dest="second_look",
        action="store_const",
        const=False,
        default=None,
        help="let refusals stand (the daemon's model.second_look = false)",
    )


def daemon_settings(config: str | None) -> Config:
    """The settings the daemon would run with: `config`'s, or the defaults. `needled eval`
    scores what the daemon answers, so its low-confidence refusals count too unless
    `--min-confidence 0` asks for the bare model."""
    from agent.service.config import Config, load_config

    return load_config(config) if config else Config()


def eval_main(args: argparse.Namespace) -> int:
    from agent.offline.train.synth import tools_from_args

    tools = tools_from_args(args, default=False)
    cfg = daemon_settings(args.config)
    report = evaluate_file(
        args.model,
        args.cases,
        tools,
        backend=args.backend,
        mode=args.mode,
        threads=args.threads,
        forced_spans=args.forced_spans,
        min_confidence=cfg.limits.min_confidence
        if args.min_confidence is None
        else args.min_confidence,
        mention_weight=cfg.model.mention_prior
        if args.mention_weight is None
        else args.mention_weight,
        second_look=cfg.model.second_look if args.second_look is None else args.second_look,
    )
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(table(report))
    bad = [r for r in report["results"] if not r["ok"]][: args.failures]
    for r in bad:
        print(
            f"  FAIL [{r['category']}] {r['query']!r}: got {json.dumps(r['got'])} "
            f"want {json.dumps(r['expected'])}"
        )
    return 0
