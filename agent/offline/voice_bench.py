"""`needled bench --voice`: audio-to-reply latency, ASR real-time factor, daemon RSS with voice.

Latency: the bundled 2-second command (``agent/data/voice_command.wav``) through the daemon's
own parts, in process: WAV decoding, recognition (grammar and phone loop), the model's
grammar-checked call and the simulated device's handler, until the reply callback runs. The
real-time factor is recognition time over audio time. Memory: a real ``needled run`` with
``[voice]`` on and a Wyoming port, asked to transcribe and carry out the command over Wyoming,
then its VmRSS (and peak VmHWM) read from /proc.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import platform
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from agent import DATA_DIR
from agent.service.voice.audio import RATE, read_wav

BENCH_WAV = DATA_DIR / "voice_command.wav"
LATENCY_TARGET_MS = 400.0
RSS_TARGET_MB = 96.0


def _status_mb(pid: int, key: str) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def measure_latency(model: str | None, repeats: int, warmups: int, threads: int) -> dict[str, Any]:
    """Audio-to-reply latency and real-time factor, in process."""
    from agent.cli import session_factory
    from agent.service.config import LimitsConfig, SecurityConfig, load_config
    from agent.service.pipeline import Pipeline
    from agent.service.voice.service import Utterance, VoiceService
    from agent.service.voice.sphinx import SphinxRecognizer
    from devices import build_registry

    cfg = load_config(None)
    m = dataclasses.replace(cfg.model, path=model or cfg.model.path, threads=threads)
    cfg = dataclasses.replace(cfg, model=m)
    registry = build_registry(cfg.devices)
    registry.open()
    t0 = time.perf_counter()
    completer = session_factory()(cfg, registry.tools())
    model_ms = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    recognizer = SphinxRecognizer(registry.tools())
    grammar_ms = (time.perf_counter() - t0) * 1000
    pipeline = Pipeline(registry, completer, LimitsConfig(), SecurityConfig())
    pipeline.start()
    voice = VoiceService(recognizer, pipeline.submit)
    wav = BENCH_WAV.read_bytes()
    seconds = len(read_wav(wav)) / (2 * RATE)
    latencies, cpu, asr, replies = [], [], [], []
    try:
        for i in range(warmups + repeats):
            done = threading.Event()
            got: dict[str, Any] = {}

            def reply(payload: dict[str, Any], got: dict[str, Any] = got, done=done) -> None:
                got.update(payload)
                done.set()

            t, c = time.perf_counter(), time.process_time()
            voice.handle(Utterance(reply=reply, source="bench", wav=wav))
            if not done.wait(60):
                raise RuntimeError("no reply within 60 s")
            elapsed = (time.perf_counter() - t) * 1000
            if i >= warmups:
                latencies.append(elapsed)
                cpu.append((time.process_time() - c) * 1000)
                timings = got.get("transcript", {}).get("timings", {})
                asr.append(sum(timings.values()))
                replies.append(got)
    finally:
        pipeline.shutdown(5)
        registry.close()
    last = replies[-1]
    return {
        "audio_seconds": round(seconds, 3),
        "transcript": last.get("transcript", {}).get("text"),
        "function_calls": last.get("envelope", {}).get("function_calls"),
        "latency_ms_median": round(statistics.median(latencies), 1),
        "latency_ms_all": [round(x, 1) for x in latencies],
        # CPU time of the whole process (all threads) per command: on a machine shared with other
        # jobs, wall-clock latency includes waiting for a core; this does not
        "cpu_ms_median": round(statistics.median(cpu), 1),
        "asr_ms_median": round(statistics.median(asr), 1),
        "real_time_factor": round(statistics.median(asr) / 1000 / seconds, 3),
        "model_load_ms": round(model_ms, 1),
        "grammar_build_ms": round(grammar_ms, 1),
        "latency_target_ms": LATENCY_TARGET_MS,
        "latency_within_target": statistics.median(latencies) <= LATENCY_TARGET_MS,
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _wyoming_round_trip(port: int, pcm: bytes) -> tuple[str, str]:
    from wyoming.asr import Transcribe, Transcript
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.client import AsyncTcpClient

    async with AsyncTcpClient("127.0.0.1", port) as c:
        await c.write_event(Transcribe(language="en").event())
        await c.write_event(AudioStart(rate=RATE, width=2, channels=1).event())
        for i in range(0, len(pcm), 3200):
            await c.write_event(
                AudioChunk(rate=RATE, width=2, channels=1, audio=pcm[i : i + 3200]).event()
            )
        await c.write_event(AudioStop().event())
        text = ""
        while True:
            ev = await asyncio.wait_for(c.read_event(), 60)
            if ev is None:
                raise RuntimeError("Wyoming closed the connection")
            if Transcript.is_type(ev.type):
                text = Transcript.from_event(ev).text
                break
        await c.write_event(Transcript(text=text).event())
        ev = await asyncio.wait_for(c.read_event(), 60)
        return text, ev.type if ev is not None else ""


def measure_daemon_rss(model: str | None, rounds: int) -> dict[str, Any]:
    """RSS of a real `needled run` with voice and Wyoming on, after serving spoken commands."""
    port = _free_port()
    lines = [
        "[mqtt]\nenabled = false",
        "[console]\nenabled = false",
        "[voice]\nenabled = true",
        f"[wyoming]\nport = {port}",
    ]
    if model:
        lines.insert(0, f"[model]\npath = {json.dumps(str(Path(model).resolve()))}")
    default = (DATA_DIR / "default.toml").read_text()
    # the first device table (a comment above the tables also mentions "[devices.NAME]")
    devices = default[re.search(r"^\[devices\.", default, re.M).start() :]
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "voice.toml"
        cfg.write_text("\n\n".join(lines) + "\n\n" + devices)
        env = dict(os.environ)
        for k in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM"):
            env.pop(k, None)
        proc = subprocess.Popen(
            [sys.executable, "-m", "agent.cli", "run", "--config", str(cfg)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 180
            while time.monotonic() < deadline:
                if proc.poll() is not None:
                    raise RuntimeError(f"needled run exited with status {proc.returncode}")
                try:
                    socket.create_connection(("127.0.0.1", port), 0.5).close()
                    break
                except OSError:
                    time.sleep(0.2)
            else:
                raise RuntimeError("the Wyoming port never opened")
            ready_mb = _status_mb(proc.pid, "VmRSS")
            pcm = read_wav(BENCH_WAV.read_bytes())
            answers = [asyncio.run(_wyoming_round_trip(port, pcm)) for _ in range(rounds)]
            rss = _status_mb(proc.pid, "VmRSS")
            hwm = _status_mb(proc.pid, "VmHWM")
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
    return {
        "rss_mb_ready": round(ready_mb or 0.0, 1),
        "rss_mb_after": round(rss or 0.0, 1),
        "peak_rss_mb": round(hwm or 0.0, 1),
        "wyoming_answers": sorted({f"{t!r} -> {kind}" for t, kind in answers}),
        "rss_target_mb": RSS_TARGET_MB,
        "rss_within_target": (rss or 1e9) <= RSS_TARGET_MB,
    }


def run_voice_bench(
    model: str | None = None,
    repeats: int = 10,
    warmups: int = 2,
    threads: int = 2,
    rss_rounds: int = 5,
) -> dict[str, Any]:
    """The whole report (JSON-serialisable)."""
    latency = measure_latency(model, repeats, warmups, threads)
    memory = measure_daemon_rss(model, rss_rounds)
    return {
        "kind": "voice",
        "machine": platform.machine(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "model": model or "bundled demo.cact",
        "threads": threads,
        "repeats": repeats,
        "warmups": warmups,
        "wav": BENCH_WAV.name,
        "latency": latency,
        "memory": memory,
    }


def table(r: dict[str, Any]) -> str:
    lat, mem = r["latency"], r["memory"]
    rows = [
        ("audio", f"{lat['audio_seconds']} s: {lat['transcript']!r}"),
        (
            "audio-to-reply (median)",
            f"{lat['latency_ms_median']} ms (target {lat['latency_target_ms']:g} ms: "
            f"{'met' if lat['latency_within_target'] else 'NOT met'})",
        ),
        ("CPU time per command (median)", f"{lat['cpu_ms_median']} ms"),
        ("ASR (median)", f"{lat['asr_ms_median']} ms"),
        ("real-time factor", f"{lat['real_time_factor']}"),
        (
            "daemon RSS with voice",
            f"{mem['rss_mb_after']} MB (peak {mem['peak_rss_mb']} MB; target "
            f"{mem['rss_target_mb']:g} MB: {'met' if mem['rss_within_target'] else 'NOT met'})",
        ),
        ("load average", ", ".join(str(x) for x in r["load_average"])),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)
