"""The spoken test set: commands and non-commands synthesised with espeak-ng, noise added by sox.

Demo home: the first 40 single-call commands of ``tests/data/heldout.jsonl`` whose words are
all real words (the held-out file also tests typos, which nobody speaks). Second home: the 20
commands of ``tests/data/voice_home2.jsonl`` for ``tests/data/voice_home2.toml`` (other rooms,
other names). Non-commands: ``tests/data/voice_noncommands.txt``. Each text is spoken by every
voice of :data:`VOICES` at every speed of :data:`SPEEDS`; each clean file also gets a copy with
pink noise mixed in at :data:`SNR_DB`.
"""

from __future__ import annotations

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
# the klatt synthesiser); espeak's plain en-us voice is recognised far worse by it
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


def demo_commands(dictionary: set[str]) -> list[tuple[str, list[dict[str, Any]]]]:
    rows = [json.loads(line) for line in (DATA / "heldout.jsonl").read_text().splitlines()]
    out = []
    for r in rows:
        if r.get("category") != "positive" or len(r["answers"]) != 1:
            continue
        if _words_known(r["query"], dictionary):
            out.append((r["query"], r["answers"]))
    return out[:DEMO_COUNT]


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


def build(out_dir: Path, dictionary: set[str]) -> list[Utterance]:
    """Synthesise the whole set into ``out_dir``; returns one :class:`Utterance` per file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    items: list[tuple[str, list[dict[str, Any]], str]] = []
    items += [(t, a, "demo") for t, a in demo_commands(dictionary)]
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
