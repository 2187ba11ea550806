"""The voice path's parts: audio conversion, the tools grammar, pronunciations, recognition and
rejection, endpointing, the transcribe command. Speech is synthesised with espeak-ng."""

from __future__ import annotations

import io
import json
import logging
import math
import os
import re
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from agent.service.config import ConfigError, load_config
from agent.service.voice.audio import AudioError, read_wav, wav_bytes
from agent.service.voice.grammar import build_grammar, normalize_words
from devices import build_registry
from tests.daemon_fixtures import config_dict, to_toml
from tests.voice_testset import speak

ROOT = Path(__file__).resolve().parents[1]
HOME2 = ROOT / "tests" / "data" / "voice_home2.toml"


def tools_of(path: Path | None = None) -> list[dict]:
    return build_registry(load_config(path).devices).tools()


@pytest.fixture(scope="module", name="demo_rec")
def demo_rec_fixture():
    from agent.service.voice.sphinx import SphinxRecognizer

    return SphinxRecognizer(tools_of())


def said(tmp_path: Path, text: str, voice: str = "en-us+f2", speed: int = 150) -> bytes:
    out = tmp_path / f"{abs(hash((text, voice, speed)))}.wav"
    speak(text, voice, speed, out)
    return out.read_bytes()


def _wav(samples: np.ndarray, rate: int, channels: int, width: int) -> bytes:
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(samples.tobytes())
    return buf.getvalue()


def _peak_hz(pcm: bytes) -> float:
    x = np.frombuffer(pcm, "<i2").astype(np.float64)
    spec = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    return float(np.argmax(spec) * 16000 / len(x))


# --- audio ----------------------------------------------------------------------------------------


def test_stereo_44k_wav_becomes_16k_mono_with_the_same_pitch() -> None:
    t = np.arange(44100) / 44100
    tone = (8000 * np.sin(2 * math.pi * 440 * t)).astype("<i2")
    stereo = np.stack([tone, tone], axis=1)
    pcm = read_wav(_wav(stereo, 44100, 2, 2))
    assert len(pcm) == 16000 * 2  # one second of 16-bit mono at 16 kHz
    assert abs(_peak_hz(pcm) - 440) < 3
    level = np.abs(np.frombuffer(pcm, "<i2")).max()
    assert 7000 < level < 9000  # averaging two equal channels keeps the level


def test_8bit_8k_wav_is_converted() -> None:
    t = np.arange(8000) / 8000
    tone = (128 + 100 * np.sin(2 * math.pi * 300 * t)).astype(np.uint8)
    pcm = read_wav(_wav(tone, 8000, 1, 1))
    assert len(pcm) == 16000 * 2
    assert abs(_peak_hz(pcm) - 300) < 3


def test_malformed_audio_is_refused_with_a_reason() -> None:
    good = wav_bytes(b"\0\0" * 1600)
    cases = {
        b"turn on the light": "not a WAV",
        good[:40]: "not a WAV",
        good[:12] + b"fmt " + b"\xff" * 40: "malformed WAV",
        wav_bytes(b""): "no audio",
        b"RIFF....WAVEjunk" * 4: "malformed WAV",  # a chunk length past the end
    }
    for data, words in cases.items():
        with pytest.raises(AudioError, match=words):
            read_wav(data)
    # IEEE float WAV (format 3) is not PCM
    floaty = bytearray(good)
    floaty[20:22] = (3).to_bytes(2, "little")
    with pytest.raises(AudioError, match="malformed WAV"):
        read_wav(bytes(floaty))


# --- grammar --------------------------------------------------------------------------------------


def test_grammar_takes_names_and_ranges_from_the_config() -> None:
    g = build_grammar(tools_of(HOME2))
    assert {"nursery", "conservatory", "study", "hallway"} <= g.words
    assert "kitchen" not in g.words  # a demo-home room this home does not have
    rules = dict(re.findall(r"^<(\w+)> = (.*);$", g.jsgf, re.M))
    thermostat = [v for k, v in rules.items() if k.startswith("n_10_25")]
    assert len(thermostat) == 1
    spoken = [s.strip() for s in thermostat[0].split("|")]
    assert spoken[0] == "ten" and spoken[-1] == "twenty five"
    assert "twenty four point five" in spoken and "twenty six" not in spoken
    blinds = rules["slot_set_blinds_room"].split(" | ")
    assert blinds == ["study", "conservatory"]


def test_grammar_leaves_out_refusal_lines() -> None:
    # "(set | change) the thermostat" binds nothing: it is not a command
    g = build_grammar(tools_of())
    thermostat = re.search(r"^<tool_set_thermostat> = (.*);$", g.jsgf, re.M).group(1)
    assert "(set | change) the (thermostat | temperature) |" not in thermostat + " |"
    assert "adjust" not in thermostat


def test_tools_without_templates_get_phrasings_from_their_schema() -> None:
    from agent.service.voice.grammar import load_sentences

    tool = {
        "name": "set_garden_pump",
        "description": "pump",
        "parameters": {"type": "object", "properties": {"on": {"type": "boolean"}}},
    }
    g = build_grammar([tool], load_sentences())
    assert "<tool_set_garden_pump>" in g.jsgf
    assert {"garden", "pump", "on", "off"} <= g.words


def test_normalize_words() -> None:
    assert normalize_words("Set it to 40% - living-room, OK?") == [
        "set", "it", "to", "40", "percent", "living", "room", "ok",
    ]  # fmt: skip


def test_missing_words_get_a_pronunciation_and_are_logged(caplog, tmp_path) -> None:
    from agent.service.voice.sphinx import SphinxRecognizer

    tools = tools_of(HOME2)
    tools[0]["parameters"]["properties"]["room"]["enum"] = ["study", "zorblatt", "playroom"]
    with caplog.at_level(logging.WARNING, logger="needled.voice.sphinx"):
        rec = SphinxRecognizer(tools)
    logged = caplog.text
    assert "'zorblatt' is not in the bundled dictionary" in logged
    assert set(rec.guessed) >= {"zorblatt"}
    # a compound of dictionary words is pronounced as its parts
    from agent.service.voice.g2p import Lexicon
    from agent.service.voice.sphinx import model_path

    prons, guessed = Lexicon(model_path() / "cmudict-en-us.dict").pronounce(["snugroom", "play"])
    assert guessed == {"snugroom"}
    assert prons["snugroom"][0].endswith("R UW M")
    t = rec.transcribe(read_wav(said(tmp_path, "turn on the zorblatt light")))
    assert not t.rejected and t.text in (
        "turn on the zorblatt light",
        "turn on the zorblatt lights",
    )


# --- recognition ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "turn on the kitchen light",
        "set the thermostat to twenty one degrees",
        "close the bedroom blinds",
    ],
)
def test_commands_are_recognised(demo_rec, tmp_path, text) -> None:
    t = demo_rec.transcribe(read_wav(said(tmp_path, text)))
    assert not t.rejected, t
    # "light" and "lights" are one command; everything else must be exact
    assert t.text.replace("lights", "light") == text
    assert 0.5 <= t.confidence <= 1.0


@pytest.mark.parametrize(
    "text", ["tell me a joke", "what's the weather like today", "lock the front door"]
)
def test_non_commands_are_rejected(demo_rec, tmp_path, text) -> None:
    t = demo_rec.transcribe(read_wav(said(tmp_path, text)))
    assert t.rejected, t
    assert t.reason


def test_silence_and_noise_are_rejected(demo_rec) -> None:
    assert demo_rec.transcribe(b"\0\0" * 16000).rejected
    rng = np.random.default_rng(0)
    noise = (rng.normal(0, 2000, 32000)).astype("<i2").tobytes()
    assert demo_rec.transcribe(noise).rejected
    assert demo_rec.transcribe(b"\0\0" * 100).reason == "audio shorter than 0.1 s"


def test_grammar_is_regenerated_for_new_tools(tmp_path) -> None:
    from agent.service.voice.sphinx import SphinxRecognizer

    audio = read_wav(said(tmp_path, "turn on the nursery light"))
    rec = SphinxRecognizer(tools_of())
    before = rec.transcribe(audio)
    assert "nursery" not in before.text
    rec.set_tools(tools_of(HOME2))
    after = rec.transcribe(audio)
    assert not after.rejected and after.text.replace("lights", "light") == (
        "turn on the nursery light"
    )


def test_endpointer_cuts_one_utterance_from_a_stream(tmp_path) -> None:
    from agent.service.voice.sphinx import SphinxEndpointer

    speech = read_wav(said(tmp_path, "turn on the kitchen light"))
    silence = b"\0\0" * 16000
    stream = silence + speech + silence
    ep = SphinxEndpointer()
    utterances = []
    for i in range(0, len(stream), 1000):  # odd-sized chunks, as a network delivers them
        utterances += ep.feed(stream[i : i + 1000])
    assert len(utterances) == 1
    seconds = len(utterances[0]) / 32000
    assert 0.8 * len(speech) / 32000 < seconds < len(speech) / 32000 + 0.8
    assert ep.flush() == b""


# --- command line and config ----------------------------------------------------------------------


def test_transcribe_command_prints_the_transcript_json(tmp_path) -> None:
    wav = tmp_path / "cmd.wav"
    wav.write_bytes(said(tmp_path, "open the study blinds"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "agent.cli", "transcribe", str(wav), "--config", str(HOME2)]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["text"] == "open the study blinds"
    assert data["rejected"] is False and 0.5 <= data["confidence"] <= 1
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF....WAVEjunk" * 4)
    out = subprocess.run(cmd[:4] + [str(bad)], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 1
    assert json.loads(out.stdout)["error_code"] == "bad_audio"


def test_voice_config_is_validated(tmp_path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(to_toml(config_dict(wyoming={"port": 10300})))
    with pytest.raises(ConfigError, match="wyoming.port: needs voice.enabled"):
        load_config(path)
    path.write_text(to_toml(config_dict(voice={"enabled": True, "threshold": 2.0})))
    with pytest.raises(ConfigError, match="voice.threshold"):
        load_config(path)
    path.write_text(to_toml(config_dict(voice={"enabled": True, "sentences": "/nonexistent"})))
    with pytest.raises(ConfigError, match="voice.sentences"):
        load_config(path)


def test_daemon_without_voice_never_loads_pocketsphinx() -> None:
    code = (
        "import sys; import agent.cli, agent.service.daemon, agent.service.transports.mqtt;"
        "import agent.service.config;"
        "agent.service.config.load_config();"
        "assert 'pocketsphinx' not in sys.modules and 'wyoming' not in sys.modules"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr


def test_selftest_holds_a_voice_daemon_to_the_voice_budget(tmp_path) -> None:
    from agent.offline.selftest import run_checks

    path = tmp_path / "c.toml"
    path.write_text(to_toml(config_dict(voice={"enabled": True})))
    rows = [c for c in run_checks(str(path), pids=[os.getpid()]) if c.name.startswith("daemon")]
    assert rows and rows[0].detail.endswith("96 MB budget)")
    path.write_text(to_toml(config_dict()))
    rows = [c for c in run_checks(str(path), pids=[os.getpid()]) if c.name.startswith("daemon")]
    assert rows and rows[0].detail.endswith("64 MB budget)")


def test_overlong_audio_is_refused() -> None:
    with pytest.raises(AudioError, match="longer than 30 s"):
        read_wav(wav_bytes(b"\0\0" * 16000 * 31))


def test_two_requests_are_heard_only_when_asked_for() -> None:
    from agent.service.voice.sphinx import SphinxRecognizer

    both = "turn on the kitchen light and turn on the fan"
    one = SphinxRecognizer(tools_of())
    two = SphinxRecognizer(tools_of(), two_requests=True)
    assert one.in_grammar("turn on the kitchen light") and not one.in_grammar(both)
    assert two.in_grammar(both) and two.in_grammar("turn on the kitchen light")
    assert not two.in_grammar("turn on the kitchen light and")  # incomplete


def test_wyoming_survives_bad_audio_and_empty_transcripts(demo_rec, tmp_path) -> None:
    import asyncio

    from wyoming.asr import Transcribe, Transcript
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.client import AsyncTcpClient
    from wyoming.handle import NotHandled
    from wyoming.info import Describe, Info

    from agent.service.config import LimitsConfig, SecurityConfig
    from agent.service.pipeline import Pipeline
    from agent.service.voice.service import VoiceService
    from agent.service.voice.wyoming_server import WyomingServer
    from tests.daemon_fixtures import PhraseCompleter, free_port

    registry = build_registry(load_config().devices)
    pipeline = Pipeline(
        registry, PhraseCompleter(registry.tools()), LimitsConfig(), SecurityConfig()
    )
    pipeline.start()
    port = free_port()
    server = WyomingServer(
        "127.0.0.1", port, VoiceService(demo_rec, pipeline.submit), pipeline.submit
    )
    server.start()

    async def session() -> tuple[str, str, bool]:
        async with AsyncTcpClient("127.0.0.1", port) as c:
            # a sample rate nobody can use: an empty transcript, not a dropped connection
            await c.write_event(Transcribe().event())
            await c.write_event(AudioStart(rate=1, width=2, channels=1).event())
            await c.write_event(AudioChunk(rate=1, width=2, channels=1, audio=b"\1\2" * 50).event())
            await c.write_event(AudioStop().event())
            first = Transcript.from_event(await asyncio.wait_for(c.read_event(), 30)).text
            await c.write_event(Transcript(text="   ").event())
            ev = await asyncio.wait_for(c.read_event(), 30)
            assert NotHandled.is_type(ev.type)
            why = NotHandled.from_event(ev).text or ""
            await c.write_event(Describe().event())
            ev = await asyncio.wait_for(c.read_event(), 30)
            return first, why, Info.is_type(ev.type)

    try:
        first, why, described = asyncio.run(session())
    finally:
        server.stop()
        pipeline.shutdown(5)
    assert first == "" and why and described
    # the port is taken: starting a second server says so instead of failing silently
    busy = WyomingServer(
        "127.0.0.1", port, VoiceService(demo_rec, pipeline.submit), pipeline.submit
    )
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", port))
        s.listen()
        with pytest.raises(OSError, match="Wyoming cannot listen"):
            busy.start()
