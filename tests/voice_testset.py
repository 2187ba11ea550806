"""The spoken test set: commands and non-commands synthesised with espeak-ng, noise added by sox.

Demo home: the first 40 single-call commands of ``tests/data/heldout.jsonl`` whose words are
all real words (the held-out file also tests typos, which nobody speaks) and whose wording the
demo home's grammar covers (a grammar-constrained recognizer cannot hear a phrasing its
templates lack; how many held-out commands the templates cover is measured separately, by
:func:`demo_coverage`). Second home: the 20
commands of ``tests/data/voice_home2.jsonl`` for ``tests/data/voice_home2.toml`` (other rooms,
other names). Non-commands: ``tests/data/voice_noncommands.txt``. Each text is spoken by every
voice of :data:`VOICES` at every speed of :data:`SPEEDS`; each clean file also gets a copy with
pink noise mixed in at :data:`SNR_DB`.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent / "data"
# three espeak-ng voices the bundled US-English acoustic model recognises (a male, a female, and
# the klatt synthesiser); espeak's plain en-us voice got 1 of 3 commands right in a first trial
VOICES = ("en-us+m3", "en-us+f2", "en-us+klatt")
SPEEDS = (140, 175)  # words per minute
SNR_DB = 15.0
DEMO_COUNT = 40


@dataclass(frozen=True)
class Utterance:
    text: str
    expected: list[dict[str, Any]]  # [] for a non-command
    home: str  # "demo", "home2" or "none"
    voice: str
    speed: int
    noisy: bool
    path: Path


def _words_known(text: str, dictionary: set[str]) -> bool:
    words = re.findall(r"[a-z']+", text.lower().replace("%", " percent"))
    return all(w.strip("'") in dictionary for w in words)


def spoken_form(text: str) -> str:
    """What a speaker says for ``text``: digits as words, the recognizer's word forms."""
    from agent.offline.train.synth import number_words
    from agent.service.voice.grammar import normalize_words

    text = re.sub(r"\d+(?:\.\d+)?", lambda m: number_words(float(m.group())), text)
    return " ".join(normalize_words(text))


def speakable_demo_commands(dictionary: set[str]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Held-out single-call commands made of real words."""
    rows = [json.loads(line) for line in (DATA / "heldout.jsonl").read_text().splitlines()]
    return [
        (r["query"], r["answers"])
        for r in rows
        if r.get("category") == "positive"
        and len(r["answers"]) == 1
        and _words_known(r["query"], dictionary)
    ]


def demo_coverage(dictionary: set[str], in_grammar: Any) -> tuple[int, int]:
    """(covered, all) speakable held-out commands that ``in_grammar(text)`` accepts."""
    cmds = speakable_demo_commands(dictionary)
    return sum(bool(in_grammar(spoken_form(t))) for t, _ in cmds), len(cmds)


def demo_commands(dictionary: set[str], in_grammar: Any) -> list[tuple[str, list[dict[str, Any]]]]:
    cmds = speakable_demo_commands(dictionary)
    return [(t, a) for t, a in cmds if in_grammar(spoken_form(t))][:DEMO_COUNT]


def home2_commands() -> list[tuple[str, list[dict[str, Any]]]]:
    rows = [json.loads(line) for line in (DATA / "voice_home2.jsonl").read_text().splitlines()]
    return [(r["query"], r["answers"]) for r in rows]


def non_commands() -> list[str]:
    lines = (DATA / "voice_noncommands.txt").read_text().splitlines()
    return [s.strip() for s in lines if s.strip() and not s.startswith("#")]


def cmu_words(path: Path) -> set[str]:
    with path.open(encoding="utf-8", errors="replace") as f:
        return {line.split(" ", 1)[0].split("(", 1)[0] for line in f}


def _rms(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        x = np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.float64)
    return float(np.sqrt(np.mean(x**2))) if len(x) else 0.0


def speak(text: str, voice: str, speed: int, out: Path) -> None:
    subprocess.run(
        ["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(out), text],
        check=True,
        capture_output=True,
    )


def add_noise(clean: Path, out: Path, snr_db: float) -> None:
    """Mix pink noise (sox synth) into ``clean`` at ``snr_db`` relative to the speech's RMS."""
    with wave.open(str(clean), "rb") as w:
        rate, n = w.getframerate(), w.getnframes()
    noise = out.with_suffix(".noise.wav")
    subprocess.run(
        ["sox", "-R", "-n", "-r", str(rate), "-c", "1", "-b", "16", str(noise)]
        + ["synth", f"{n}s", "pinknoise", "vol", "0.5"],
        check=True,
        capture_output=True,
    )
    gain = _rms(clean) / max(_rms(noise), 1e-9) / 10 ** (snr_db / 20)
    subprocess.run(
        ["sox", "-m", "-v", "1", str(clean), "-v", f"{gain:.6f}", str(noise), str(out)],
        check=True,
        capture_output=True,
    )
    noise.unlink()


def build(out_dir: Path, dictionary: set[str], in_grammar: Any) -> list[Utterance]:
    """Synthesise the whole set into ``out_dir``; returns one :class:`Utterance` per file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    items: list[tuple[str, list[dict[str, Any]], str]] = []
    items += [(t, a, "demo") for t, a in demo_commands(dictionary, in_grammar)]
    items += [(t, a, "home2") for t, a in home2_commands()]
    items += [(t, [], "none") for t in non_commands()]
    utts: list[Utterance] = []
    for i, (text, answers, home) in enumerate(items):
        for voice in VOICES:
            for speed in SPEEDS:
                stem = f"{i:03d}_{voice.replace('+', '_')}_{speed}"
                clean = out_dir / f"{stem}.wav"
                noisy = out_dir / f"{stem}_noisy.wav"
                speak(text, voice, speed, clean)
                add_noise(clean, noisy, SNR_DB)
                utts.append(Utterance(text, answers, home, voice, speed, False, clean))
                utts.append(Utterance(text, answers, home, voice, speed, True, noisy))
    return utts


def _same_words(a: str, b: str) -> bool:
    return a.replace("lights", "light") == b.replace("lights", "light")


def same_calls(got: list[dict[str, Any]], expected: list[dict[str, Any]]) -> bool:
    """Exactly the expected calls (numbers compared by value: 20 == 20.0)."""

    def norm(calls: list[dict[str, Any]]) -> list[tuple[str, str]]:
        return sorted(
            (
                c.get("name"),
                json.dumps(
                    {
                        k: float(v) if isinstance(v, int | float) and not isinstance(v, bool) else v
                        for k, v in (c.get("arguments") or {}).items()
                    },
                    sort_keys=True,
                ),
            )
            for c in calls
        )

    return norm(got) == norm(expected)


# --- evaluation -----------------------------------------------------------------------------------

HOME2_CONFIG = DATA / "voice_home2.toml"
# The second home's own model, trained for it from its config the way README "Your own home"
# tells a user to (test data, not part of the package):
#   needled train --from-scratch --config tests/data/voice_home2.toml \
#       --sentences agent/data/demo_sentences.ini --out tests/data/voice_home2.cact \
#       --seed 1 --steps 1500 --qat-steps 150 --examples 30000
HOME2_MODEL = DATA / "voice_home2.cact"


def _config_path(home: str) -> Path | None:
    return HOME2_CONFIG if home == "home2" else None


def _transcribe_all(jobs: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """(home, wav path) -> transcript dicts, in a worker process with its own recognizers."""
    from agent.service.config import load_config
    from agent.service.voice.audio import read_wav
    from agent.service.voice.sphinx import SphinxRecognizer
    from devices import build_registry

    recs: dict[str, Any] = {}
    out = []
    for home, path in jobs:
        if home not in recs:
            tools = build_registry(load_config(_config_path(home)).devices).tools()
            recs[home] = SphinxRecognizer(tools)
        out.append(recs[home].transcribe(read_wav(Path(path).read_bytes())).to_dict())
    return out


def transcribe(utts: list[Utterance], workers: int = 2) -> list[dict[str, Any]]:
    """Every utterance's transcript (non-commands under the demo home's grammar)."""
    from concurrent.futures import ProcessPoolExecutor

    jobs = [("home2" if u.home == "home2" else "demo", str(u.path)) for u in utts]
    parts = [jobs[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(_transcribe_all, parts))
    out: list[dict[str, Any]] = [{}] * len(jobs)
    for w, res in enumerate(results):
        for j, r in enumerate(res):
            out[w + j * workers] = r
    return out


def evaluate(utts: list[Utterance], transcripts: list[dict[str, Any]]) -> dict[str, Any]:
    """Run each accepted transcript through the bundled model (the daemon's completer) and score:
    a command is right when its calls are exactly the expected ones; a non-command is rejected
    when it leads to no call (refused by the recognizer or answered without a call)."""
    from agent.cli import session_factory
    from agent.service.config import load_config
    from devices import build_registry

    completers: dict[str, Any] = {}
    memo: dict[tuple[str, str], list[dict[str, Any]]] = {}
    tally: dict[str, list[int]] = {}
    misses: list[dict[str, Any]] = []
    for u, t in zip(utts, transcripts, strict=True):
        home = "home2" if u.home == "home2" else "demo"
        calls: list[dict[str, Any]] = []
        if not t["rejected"]:
            key = (home, t["text"])
            if key not in memo:
                if home not in completers:
                    cfg = load_config(_config_path(home))
                    if home == "home2":
                        model = dataclasses.replace(cfg.model, path=str(HOME2_MODEL))
                        cfg = dataclasses.replace(cfg, model=model)
                    tools = build_registry(cfg.devices).tools()
                    completers[home] = session_factory()(cfg, tools)
                env = completers[home].complete(t["text"])
                memo[key] = list(env.get("function_calls") or [])
            calls = memo[key]
        noise = "noisy" if u.noisy else "clean"
        if u.home == "none":
            ok = not calls
            bucket = f"noncommand_{noise}"
        else:
            ok = same_calls(calls, u.expected)
            bucket = f"command_{noise}"
        buckets = [bucket, f"{bucket}_{u.home}", f"voice_{u.voice}_{u.home != 'none'}"]
        if u.home != "none":
            # the recognizer alone: it heard the words said ("light" and "lights" are one)
            heard = not t["rejected"] and _same_words(t["text"], spoken_form(u.text))
            tally.setdefault(f"heard_{noise}_{u.home}", [0, 0])
            tally[f"heard_{noise}_{u.home}"][0] += heard
            tally[f"heard_{noise}_{u.home}"][1] += 1
        for b in buckets:
            tally.setdefault(b, [0, 0])
            tally[b][0] += ok
            tally[b][1] += 1
        if not ok:
            misses.append(
                {
                    "said": u.text,
                    "heard": t["text"],
                    "rejected": t["rejected"],
                    "calls": calls,
                    "voice": u.voice,
                    "speed": u.speed,
                    "noisy": u.noisy,
                }  # fmt: skip
            )
    rates = {k: round(v[0] / v[1], 4) for k, v in sorted(tally.items())}
    counts = {k: v[1] for k, v in sorted(tally.items())}
    return {"rates": rates, "counts": counts, "misses": misses}


def run(out_dir: Path) -> dict[str, Any]:
    """Build the set under `out_dir`, recognise and answer it; the whole report: rates, counts,
    misses, the set's make-up, the models and recognizer used, and each stage's seconds."""
    import hashlib
    import os
    import platform
    import time

    from agent.model.bundled import DEMO
    from agent.service.config import load_config
    from agent.service.voice.sphinx import SphinxRecognizer, model_path
    from devices import build_registry

    t0 = time.perf_counter()
    demo = SphinxRecognizer(build_registry(load_config().devices).tools())
    words = cmu_words(model_path() / "cmudict-en-us.dict")
    covered, speakable = demo_coverage(words, demo.in_grammar)
    utts = build(out_dir, words, demo.in_grammar)
    t1 = time.perf_counter()
    transcripts = transcribe(utts)
    t2 = time.perf_counter()
    report = evaluate(utts, transcripts)
    t3 = time.perf_counter()
    rates, counts = report["rates"], report["counts"]
    none = sum(u.home == "none" for u in utts)
    rejected = sum(
        rates[f"noncommand_{n}"] * counts[f"noncommand_{n}"] for n in ("clean", "noisy")
    ) / max(1, none)
    rates["noncommand_rejected"] = round(rejected, 4)
    audio_s = 0.0
    for u in utts:
        with wave.open(str(u.path)) as w:
            audio_s += w.getnframes() / w.getframerate()
    return {
        "kind": "voice_accuracy",
        "machine": platform.machine(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "load_average": list(os.getloadavg()),
        "models": {
            name: {"path": str(p), "sha256": hashlib.sha256(p.read_bytes()).hexdigest()}
            for name, p in (("demo", DEMO), ("home2", HOME2_MODEL))
        },
        "recognizer": "pocketsphinx, grammar from each home's config",
        "voices": list(VOICES),
        "speeds_wpm": list(SPEEDS),
        "noise_snr_db": SNR_DB,
        "texts": {h: len({u.text for u in utts if u.home == h}) for h in ("demo", "home2", "none")},
        "utterances": len(utts),
        "audio_seconds": round(audio_s, 1),
        "demo_grammar_coverage": {"covered": covered, "speakable": speakable},
        "seconds": {
            "synthesis": round(t1 - t0, 1),
            "recognition": round(t2 - t1, 1),
            "answers": round(t3 - t2, 1),
        },
        "rates": rates,
        "counts": counts,
        "misses": report["misses"],
    }
