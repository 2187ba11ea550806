"""`needled` command line: one subcommand per job; heavy modules are imported only when used."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

# The native engine owns the CPU cores; NumPy only does small bookkeeping here, and a threaded
# BLAS spinning beside the engine's threads slows both. Must be set before NumPy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from agent.model.errors import CactError  # noqa: E402
from agent.service.logsetup import LEVELS as LOG_LEVELS  # noqa: E402
from agent.service.logsetup import parse_level, setup_logging  # noqa: E402

Handler = Callable[[argparse.Namespace], int]
_COMMANDS: dict[str, Handler] = {}


def _command(name: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        _COMMANDS[name] = fn
        return fn

    return deco


def default_model(path: str | None, tools: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The model to run: the given path, else the bundled model for `tools`
    (:func:`agent.model.bundled.bundled_model`: the demo home's own model on its tools, the general
    model otherwise)."""
    if path:
        return path
    from agent.model.bundled import bundled_model

    bundled = bundled_model(tools)
    if not bundled.exists():
        raise FileNotFoundError(f"no --model given and no bundled model at {bundled}")
    return str(bundled)


def _parse_ids(text: str) -> list[int]:
    try:
        return [int(t) for t in text.replace(" ", "").split(",") if t]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--ids must be comma-separated integers: {text!r}"
        ) from None


# ------------------------------------------------------------------------------------------
@_command("inspect")
def _inspect(a: argparse.Namespace) -> int:
    from agent.model.cact import read_cact
    from agent.model.modelinfo import format_table, summarize

    with read_cact(a.model) as cf:
        s = summarize(cf)
    print(json.dumps(s, indent=1) if a.json else format_table(s))
    return 0


@_command("make-model")
def _make_model(a: argparse.Namespace) -> int:
    from agent.model.cact import write_file
    from agent.model.makemodel import make_model

    data = make_model(a.geometry, seed=a.seed, kv_window=a.kv_window)
    write_file(a.out, data)
    print(f"wrote {a.out} ({len(data):,} bytes, {a.geometry} geometry, seed {a.seed})")
    return 0


@_command("logits")
def _logits(a: argparse.Namespace) -> int:
    from agent.model.cact import read_cact
    from agent.model.runner import run_logits

    ids = a.ids
    if not ids:
        raise SystemExit("needled logits: --ids is empty")
    cf = read_cact(a.model)
    rows = run_logits(
        cf,
        ids,
        backend=a.backend,
        mode=a.mode,
        window=a.window,
        sinks=a.sinks,
        prompt_len=a.prompt_len,
    )
    np.save(a.out, rows.astype(np.float32))
    print(f"wrote {a.out}: {rows.shape[0]} rows x {rows.shape[1]} logits ({a.backend})")
    return 0


def session_factory(
    backend: str = "auto", mode: str = "int8", config_path: str | None = None
) -> Callable[..., object]:
    """The daemon's completer factory: a warm model session over the configured tools (it
    first warns about tools whose shape the model's training did not cover)."""

    def factory(cfg, tool_schemas):  # noqa: ANN001 - signature fixed by agent.service.daemon
        from agent.calling.session import Session, SessionCompleter
        from agent.model.coverage import coverage_warnings

        model = default_model(cfg.model.path or None, tool_schemas)
        logging.getLogger("needled").info("model %s", model)
        for warning in coverage_warnings(model, cfg.devices, tool_schemas, config_path=config_path):
            logging.getLogger("needled").warning("%s", warning)
        session = Session(
            model,
            tool_schemas,
            system=cfg.model.system or None,
            backend=backend,
            mode=mode,
            threads=cfg.model.threads,
            max_new_tokens=cfg.model.max_new_tokens,
            mention_weight=cfg.model.mention_prior,
            second_look=cfg.model.second_look,
            # systemd's CacheDirectory= (the unit exports it): a restart skips the prefill
            cache_dir=os.environ.get("NEEDLED_CACHE_DIR") or None,
        )
        return SessionCompleter(session)

    return factory


def _config_errors(e: Exception) -> int:
    """Print every config problem, one per line; the exit status for a config error."""
    from agent.service.config import EX_CONFIG

    for p in getattr(e, "problems", [e]):
        print(f"config error: {p}", file=sys.stderr)
    return EX_CONFIG


@_command("run")
def _run(a: argparse.Namespace) -> int:
    from agent.service.config import ConfigError, load_run_config
    from agent.service.daemon import run_daemon

    try:
        # the daemon validates the model as it maps it, and exits EX_CONFIG if it does not read
        cfg = load_run_config(
            a.config,
            mqtt=a.mqtt,
            node_id=a.node_id,
            model=a.model,
            log_level=a.log_level,
            check_model=False,
        )
    except ConfigError as e:
        return _config_errors(e)
    logging.getLogger().setLevel(parse_level(cfg.log.level))
    return run_daemon(cfg, session_factory(a.backend, a.mode, a.config), config_path=a.config)


@_command("transcribe")
def _transcribe(a: argparse.Namespace) -> int:
    from agent.service.config import load_config
    from agent.service.voice.audio import AudioError, read_wav
    from agent.service.voice.grammar import load_sentences
    from agent.service.voice.sphinx import SphinxRecognizer
    from devices import build_registry

    cfg = load_config(a.config)
    try:
        pcm = read_wav(Path(a.wav).read_bytes())
    except AudioError as e:
        print(json.dumps({"error": str(e), "error_code": "bad_audio"}))
        return 1
    rec = SphinxRecognizer(
        build_registry(cfg.devices).tools(),
        load_sentences(cfg.voice.sentences or None),
        threshold=cfg.voice.threshold,
        two_requests=cfg.voice.two_requests,
    )
    print(json.dumps(rec.transcribe(pcm).to_dict(), ensure_ascii=False))
    return 0


@_command("check-config")
def _check_config(a: argparse.Namespace) -> int:
    from agent.service.config import ConfigError, load_run_config

    try:
        load_run_config(a.file)
    except ConfigError as e:
        return _config_errors(e)
    print(f"{a.file}: ok")
    return 0


@_command("info")
def _info(a: argparse.Namespace) -> int:
    import platform

    from agent.model.engine import default_threads, native_available

    info: dict[str, object] = {
        "machine": platform.machine(),
        "python": platform.python_version(),
        "native": native_available(),
        "default_threads": default_threads(),
    }
    if native_available():
        from kernels import _native

        info["isa"] = _native.isa_name()
        info["isa_paths"] = list(_native.isa_paths())
    print(json.dumps(info))
    return 0


@_command("selftest")
def _selftest(a: argparse.Namespace) -> int:
    from agent.offline.selftest import format_table, run_checks

    checks = run_checks(a.config, a.model, a.pid or None)
    print(format_table(checks))
    return 1 if any(c.status == "fail" for c in checks) else 0


@_command("tokenize")
def _tokenize(a: argparse.Namespace) -> int:
    from agent.model.cact import read_cact
    from agent.model.tokenizer import Tokenizer

    with read_cact(a.model) as cf:
        tok = Tokenizer(bytes(cf.tokenizer_blob))
    ids = tok.encode(a.text)
    print(json.dumps({"ids": ids, "pieces": [tok.piece(i) for i in ids]}, ensure_ascii=False))
    return 0


@_command("ask")
def _ask(a: argparse.Namespace) -> int:
    from agent.calling.session import Session
    from agent.calling.tools import load_tools

    tools = load_tools(a.tools)
    s = Session(
        default_model(a.model, [t.to_schema() for t in tools]),
        tools,
        system=a.system,
        backend=a.backend,
        mode=a.mode,
        max_new_tokens=a.max_new_tokens,
        think_budget=a.think_budget,
        cache_dir=a.cache_dir,
    )
    env = s.complete(a.text, require_call=a.require_call)
    print(json.dumps(env, ensure_ascii=False))
    return 0


# The model toolkit (agent/offline/train) is loaded only when one of its commands runs: some of it
# needs PyTorch, which the daemon must never import.
_TOOLKIT = {
    "train": ("trainer", "train_main", "train a small model from tool schemas and sentences"),
    "finetune": ("finetune", "finetune_main", "LoRA fine-tune an existing .cact"),
    "slice": ("slice", "slice_main", "keep the first N layers of a .cact"),
    "confidence-head": (
        "confidence",
        "confidence_main",
        "fit a calibrated confidence head to a trained .cact",
    ),
    "eval": ("evaluate", "eval_main", "accuracy of a model on held-out cases (JSON + table)"),
    "synth": ("synth", "synth_main", "generate training examples from templates (JSONL)"),
}


def _toolkit(name: str, argv: list[str]) -> int:
    import importlib

    module, fn, text = _TOOLKIT[name]
    mod = importlib.import_module(f"agent.offline.train.{module}")
    p = argparse.ArgumentParser(prog=f"needled {name}", description=text)
    mod.add_arguments(p)
    setup_logging(logging.INFO)
    return getattr(mod, fn)(p.parse_args(argv))


# ------------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    from agent import __version__

    p = argparse.ArgumentParser(
        prog="needled", description="Needle 2 tool-calling agent daemon and model tools"
    )
    p.add_argument("--version", action="version", version=f"needled {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("inspect", help="show a .cact file's geometry, tensors and sizes")
    s.add_argument("model")
    s.add_argument("--json", action="store_true", help="machine-readable output")

    s = sub.add_parser("make-model", help="write a random-weight model (tests, benchmarks)")
    s.add_argument("out")
    s.add_argument("--geometry", choices=("tiny", "release"), default="release")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--kv-window", type=int, default=None, help="header kv_window (default 256)")

    s = sub.add_parser("logits", help="write one row of logits per input position (.npy)")
    s.add_argument("model")
    s.add_argument("--ids", type=_parse_ids, required=True, help="comma-separated token ids")
    s.add_argument("--window", type=int, default=None, help="sliding KV window W")
    s.add_argument("--sinks", type=int, default=0, help="pinned sink positions S")
    s.add_argument(
        "--prompt-len",
        type=int,
        default=None,
        help="prefill this many ids as a batch, then feed the rest one at a time",
    )
    s.add_argument("--backend", choices=("reference", "native"), default="reference")
    s.add_argument("--mode", choices=("fp32", "int8"), default="fp32")
    s.add_argument("--out", required=True)

    s = sub.add_parser("ask", help="answer one command with a grammar-checked call (envelope)")
    s.add_argument("text")
    s.add_argument("--model", default=None, help="a .cact (default: the bundled demo model)")
    s.add_argument("--tools", required=True, help="JSON file of tool schemas")
    s.add_argument("--system", default=None, help="system facts, 'key: value; ...'")
    s.add_argument("--max-new-tokens", type=int, default=128)
    s.add_argument("--think-budget", type=int, default=0, help="tokens of <think> reasoning")
    s.add_argument("--require-call", action="store_true", help="never answer the empty list")
    s.add_argument("--backend", choices=("auto", "native", "reference"), default="auto")
    s.add_argument("--mode", choices=("fp32", "int8"), default="int8")
    s.add_argument("--cache-dir", default=None, help="where tool embeddings are persisted")

    s = sub.add_parser("run", help="run the daemon (default: the bundled demo home)")
    s.add_argument("--config", default=None, help="TOML config (default: the bundled demo home)")
    s.add_argument("--mqtt", default=None, metavar="HOST:PORT", help="override [mqtt] host/port")
    s.add_argument("--node-id", default=None, help="override [mqtt] node_id")
    s.add_argument("--model", default=None, help="override [model] path")
    s.add_argument(
        "--log-level", default=None, choices=tuple(LOG_LEVELS), help="override [log] level"
    )
    s.add_argument("--backend", choices=("auto", "native", "reference"), default="auto")
    s.add_argument("--mode", choices=("fp32", "int8"), default="int8")

    s = sub.add_parser("transcribe", help="speech to text for one WAV file (transcript JSON)")
    s.add_argument("wav")
    s.add_argument("--config", default=None, help="TOML config whose tools make the grammar")

    s = sub.add_parser("check-config", help="validate a config file without starting anything")
    s.add_argument("file")

    sub.add_parser("info", help="show the kernel path (ISA) chosen for this CPU")

    sub.add_parser("bench", help="benchmark the engine (see `needled bench --help`)")

    s = sub.add_parser("selftest", help="on-device checks: ISA, kernels, model, ports, notify")
    s.add_argument("--config", default=None)
    s.add_argument("--model", default=None)
    s.add_argument(
        "--pid",
        type=int,
        action="append",
        help="the running daemon to check (repeatable; default: every `needled run` found)",
    )

    for name, (_, _, text) in _TOOLKIT.items():
        sub.add_parser(name, help=text)

    s = sub.add_parser("tokenize", help="encode text with a model's tokenizer")
    s.add_argument("model")
    s.add_argument("text")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["bench"]:  # the benchmark parses its own options
        from agent.offline.bench import main as bench_main

        return bench_main(argv[1:])
    if argv[:1] and argv[0] in _TOOLKIT:
        return _toolkit(argv[0], argv[1:])
    args = build_parser().parse_args(argv)
    # stdout carries results (JSON envelopes, tables); log lines go to stderr, or to the journal
    # (with their priorities) when systemd captured stderr. This is the one logging setup: the
    # daemon keeps it, and `run` applies the configured level once the config is read.
    setup_logging(logging.INFO)
    try:
        return _COMMANDS[args.command](args)
    except CactError as e:
        print(f"needled: invalid model: {e}", file=sys.stderr)
        return 2
    except (OSError, ValueError, MemoryError) as e:
        print(f"needled {args.command}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
