"""Voice end to end: `needled run` on the bundled model with `[voice]`, a real mosquitto, the
Hermes audio stream, and the Wyoming service driven by the `wyoming` package's own client."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from daemon_fixtures import (
    MqttClient,
    config_dict,
    free_port,
    to_toml,
    wait_for,
)
from test_daemon_e2e import served
from voice_testset import speak

from agent.service.daemon import rss_mb
from agent.service.voice.audio import read_wav, wav_bytes

pytestmark = pytest.mark.mqtt

RSS_BUDGET_MB = 96.0


def spoken(tmp_path: Path, text: str, voice: str = "en-us+f2") -> bytes:
    out = tmp_path / (text.replace(" ", "_") + ".wav")
    speak(text, voice, 150, out)
    return out.read_bytes()


def test_wav_and_hermes_stream_over_mqtt(tmp_path, broker) -> None:
    node = "voice"
    data = config_dict(
        mqtt={"enabled": True, "port": broker.port, "node_id": node, "hermes": False},
        voice={"enabled": True, "hermes_audio": True},
    )
    result = f"needled/{node}/result"
    with served(tmp_path, data) as proc:
        client = MqttClient(broker.port)
        client.subscribe(result)
        client.subscribe(f"needled/{node}/status")
        client.subscribe("hermes/asr/textCaptured")
        client.subscribe("hermes/error/asr")
        online = f"needled/{node}/status"
        assert wait_for(lambda: any(m.payload == b"online" for m in client.on(online)), 30)

        # one WAV (espeak's 22.05 kHz, converted by the daemon) is one command
        client.publish(f"needled/{node}/audio", spoken(tmp_path, "turn on the kitchen light"))
        (reply,) = client.wait_json(result, 1, timeout=60)
        assert reply["transcript"]["text"].replace("lights", "light") == (
            "turn on the kitchen light"
        )
        assert reply["transcript"]["rejected"] is False
        assert 0.5 <= reply["transcript"]["confidence"] <= 1
        assert reply["envelope"]["function_calls"] == [
            {"name": "set_light", "arguments": {"room": "kitchen", "on": True}}
        ]
        assert reply["results"][0]["ok"] and reply["results"][0]["result"]["on"] is True

        # malformed audio: an error reply naming the problem, and the daemon keeps serving
        client.publish(f"needled/{node}/audio", b"RIFF\x00\x00\x00\x00WAVEnot really audio!")
        bad = client.wait_json(result, 2, timeout=30)[1]
        assert bad["envelope"]["error_code"] == "bad_audio"
        assert "WAV" in bad["envelope"]["error"]
        # a non-command is heard as such: no call, the reason in the reply
        client.publish(f"needled/{node}/audio", spoken(tmp_path, "tell me a joke"))
        joke = client.wait_json(result, 3, timeout=60)[2]
        assert joke["envelope"]["error_code"] == "not_a_command"
        assert joke["envelope"]["function_calls"] == [] and joke["transcript"]["rejected"]

        # Hermes: startListening, 20 ms WAV frames with silence after the speech, the
        # endpointer ends the utterance, textCaptured carries the transcript
        pcm = read_wav(spoken(tmp_path, "close the bedroom blinds"))
        stream = b"\0\0" * 8000 + pcm + b"\0\0" * 24000
        session = {"siteId": "kitchen", "sessionId": "s1", "stopOnSilence": True}
        client.publish("hermes/asr/startListening", session)
        time.sleep(0.3)
        for i in range(0, len(stream), 640):
            frame = wav_bytes(stream[i : i + 640])
            client.publish("hermes/audioServer/kitchen/audioFrame", frame, qos=0)
            time.sleep(0.002)
        (captured,) = client.wait_json("hermes/asr/textCaptured", 1, timeout=60)
        assert captured["text"] == "close the bedroom blinds"
        assert captured["siteId"] == "kitchen" and captured["sessionId"] == "s1"
        assert captured["likelihood"] >= 0.5
        hermes_reply = client.wait_json(result, 4, timeout=60)[3]
        assert hermes_reply["sessionId"] == "s1"
        assert hermes_reply["transcript"]["text"] == "close the bedroom blinds"
        assert hermes_reply["envelope"]["function_calls"] == [
            {"name": "set_blinds", "arguments": {"room": "bedroom", "position": 0}}
        ]
        # frames for a site nobody listens on are ignored; stopListening with nothing heard
        client.publish("hermes/asr/startListening", {"siteId": "hall", "sessionId": "s2"})
        time.sleep(0.3)
        client.publish("hermes/audioServer/hall/audioFrame", b"not a wav", qos=0)
        (err,) = client.wait_json("hermes/error/asr", 1, timeout=30)
        assert err["sessionId"] == "s2" and "bad audio frame" in err["error"]
        assert proc.poll() is None
        client.close()


async def _wyoming_session(port: int, audio: bytes) -> dict:
    from wyoming.asr import Transcribe, Transcript
    from wyoming.audio import AudioChunk, AudioStart, AudioStop
    from wyoming.client import AsyncTcpClient
    from wyoming.handle import Handled, NotHandled
    from wyoming.info import Describe, Info

    out: dict = {}
    async with AsyncTcpClient("127.0.0.1", port) as client:
        await client.write_event(Describe().event())
        event = await asyncio.wait_for(client.read_event(), 30)
        assert event is not None and Info.is_type(event.type)
        out["info"] = Info.from_event(event)

        await client.write_event(Transcribe(language="en").event())
        await client.write_event(AudioStart(rate=16000, width=2, channels=1).event())
        for i in range(0, len(audio), 3200):
            chunk = AudioChunk(rate=16000, width=2, channels=1, audio=audio[i : i + 3200])
            await client.write_event(chunk.event())
        await client.write_event(AudioStop().event())
        while True:
            event = await asyncio.wait_for(client.read_event(), 60)
            assert event is not None
            if Transcript.is_type(event.type):
                out["transcript"] = Transcript.from_event(event)
                break

        await client.write_event(
            Transcript(text="turn on the bedroom light", context={"conversation_id": "c1"}).event()
        )
        event = await asyncio.wait_for(client.read_event(), 60)
        assert event is not None and Handled.is_type(event.type), event
        out["handled"] = Handled.from_event(event)

        await client.write_event(Transcript(text="tell me a joke").event())
        event = await asyncio.wait_for(client.read_event(), 60)
        assert event is not None and NotHandled.is_type(event.type), event
        out["not_handled"] = NotHandled.from_event(event)
    return out


def test_wyoming_service_from_needled_run(tmp_path) -> None:
    port = free_port()
    data = config_dict(voice={"enabled": True}, wyoming={"port": port})
    audio = read_wav(spoken(tmp_path, "set the thermostat to twenty one degrees"))
    with served(tmp_path, data) as proc:
        got = asyncio.run(_wyoming_session(port, audio))
        info = got["info"]
        assert info.asr and info.asr[0].models[0].languages == ["en"]
        assert info.handle and info.handle[0].supports_home_control
        assert info.handle[0].models[0].languages == ["en"]
        assert got["transcript"].text == "set the thermostat to twenty one degrees"
        assert "set light" in got["handled"].text and "bedroom" in got["handled"].text
        assert got["handled"].context == {"conversation_id": "c1"}
        assert got["not_handled"].text
        rss = rss_mb(proc.pid)
        print(f"needled run with voice and Wyoming: RSS {rss:.1f} MB")
        assert rss is not None and rss <= RSS_BUDGET_MB
        # a second connection after the first closed: the service keeps serving
        again = asyncio.run(_wyoming_session(port, audio))
        assert again["transcript"].text == got["transcript"].text


def test_reload_regenerates_the_grammar(tmp_path, broker) -> None:
    node = "reload"
    data = config_dict(
        mqtt={"enabled": True, "port": broker.port, "node_id": node, "discovery": False},
        voice={"enabled": True},
    )
    data["devices"]["lights"]["rooms"] = ["kitchen", "bedroom"]
    bathroom = spoken(tmp_path, "turn on the bathroom light")
    with served(tmp_path, data) as proc:
        client = MqttClient(broker.port)
        client.subscribe(f"needled/{node}/result")
        client.subscribe(f"needled/{node}/status")
        online = f"needled/{node}/status"
        assert wait_for(lambda: any(m.payload == b"online" for m in client.on(online)), 30)
        client.publish(f"needled/{node}/audio", bathroom)
        (before,) = client.wait_json(f"needled/{node}/result", 1, timeout=60)
        assert "bathroom" not in before["transcript"]["text"]

        data["devices"]["lights"]["rooms"] = ["kitchen", "bedroom", "bathroom"]
        (tmp_path / "needled.toml").write_text(to_toml(data))
        proc.send_signal(1)  # SIGHUP
        time.sleep(3)
        client.publish(f"needled/{node}/audio", bathroom)
        after = client.wait_json(f"needled/{node}/result", 2, timeout=60)[1]
        assert after["transcript"]["text"].replace("lights", "light") == (
            "turn on the bathroom light"
        )
        assert after["envelope"]["function_calls"] == [
            {"name": "set_light", "arguments": {"room": "bathroom", "on": True}}
        ], json.dumps(after)
        client.close()


def test_hermes_audio_with_hermes_nlu_only_captures_text(tmp_path, broker) -> None:
    """With Rhasspy's NLU round also served, the captured text comes back as nlu/query and runs
    once there; the audio path must not run it a second time."""
    from daemon_fixtures import PhraseCompleter, make_config

    from agent.service.pipeline import Pipeline
    from agent.service.transports.mqtt import MqttTransport
    from agent.service.voice.runtime import VoiceRuntime
    from devices import build_registry

    cfg = make_config(
        mqtt={"enabled": True, "port": broker.port, "node_id": "nlu", "hermes": True},
        voice={"enabled": True, "hermes_audio": True},
    )
    registry = build_registry(cfg.devices)
    pipeline = Pipeline(registry, PhraseCompleter(registry.tools()), cfg.limits, cfg.security)
    pipeline.start()
    transport = MqttTransport(cfg.mqtt)
    transport.attach(pipeline.submit)
    runtime = VoiceRuntime(cfg, registry.tools(), pipeline.submit, transport)
    transport.start()
    client = MqttClient(broker.port)
    try:
        assert wait_for(transport.connected.is_set, 30)
        client.subscribe("hermes/asr/textCaptured")
        client.subscribe(transport.result_topic)
        client.publish("hermes/asr/startListening", {"siteId": "den", "sessionId": "x"})
        time.sleep(0.3)
        pcm = read_wav(spoken(tmp_path, "turn on the kitchen light"))
        stream = pcm + b"\0\0" * 24000
        for i in range(0, len(stream), 640):
            client.publish(
                "hermes/audioServer/den/audioFrame", wav_bytes(stream[i : i + 640]), qos=0
            )
            time.sleep(0.002)
        (captured,) = client.wait_json("hermes/asr/textCaptured", 1, timeout=60)
        assert captured["text"].replace("lights", "light") == "turn on the kitchen light"
        time.sleep(1.0)
        assert pipeline.counts["accepted"] == 0 and client.on(transport.result_topic) == []
    finally:
        client.close()
        transport.stop()
        runtime.stop()
        pipeline.shutdown(5)


def test_voice_turned_on_by_a_reload(tmp_path, broker) -> None:
    node = "later"
    data = config_dict(
        mqtt={"enabled": True, "port": broker.port, "node_id": node, "discovery": False}
    )
    with served(tmp_path, data) as proc:
        client = MqttClient(broker.port)
        client.subscribe(f"needled/{node}/result")
        client.subscribe(f"needled/{node}/status")
        online = f"needled/{node}/status"
        assert wait_for(lambda: any(m.payload == b"online" for m in client.on(online)), 30)
        data["voice"] = {"enabled": True}
        (tmp_path / "needled.toml").write_text(to_toml(data))
        proc.send_signal(1)  # SIGHUP
        time.sleep(4)
        client.publish(f"needled/{node}/audio", spoken(tmp_path, "turn on the fan"))
        (reply,) = client.wait_json(f"needled/{node}/result", 1, timeout=60)
        assert reply["transcript"]["text"] == "turn on the fan"
        assert reply["envelope"]["function_calls"] == [
            {"name": "set_fan", "arguments": {"on": True}}
        ]

        # and off again: audio is no longer taken, typed commands still are
        data["voice"] = {"enabled": False}
        (tmp_path / "needled.toml").write_text(to_toml(data))
        proc.send_signal(1)
        time.sleep(4)
        for _ in range(9):  # more than the voice queue holds: a stale handler would say busy
            client.publish(f"needled/{node}/audio", wav_bytes(b"\0\0" * 3200))
        client.publish(f"needled/{node}/command", {"id": "t", "text": "fan on high"})
        client.wait_json(f"needled/{node}/result", 2, timeout=60)
        time.sleep(2)
        got = client.json_on(f"needled/{node}/result")
        assert [r["id"] for r in got] == [None, "t"]  # the typed one only, after the first
        assert "transcript" not in got[1]
        client.close()
