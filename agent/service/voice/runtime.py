"""The daemon's voice side: recognizer, service and audio transports, built from the config."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agent.service.config import Config
from agent.service.pipeline import Command, JsonDict, Submit
from agent.service.voice.grammar import load_sentences
from agent.service.voice.service import Utterance, VoiceService

log = logging.getLogger("needled.voice")


class VoiceRuntime:
    """Everything ``[voice]`` and ``[wyoming]`` start; :meth:`stop` ends it all."""

    def __init__(
        self,
        cfg: Config,
        tools: Sequence[Mapping[str, Any]],
        submit: Callable[[Command], Submit],
        mqtt: Any = None,
    ) -> None:
        from agent.service.voice.sphinx import SphinxEndpointer, SphinxRecognizer

        self.cfg = cfg
        sentences = load_sentences(cfg.voice.sentences or None)
        recognizer = SphinxRecognizer(
            tools,
            sentences,
            threshold=cfg.voice.threshold,
            two_requests=cfg.voice.two_requests,
        )
        self.service = VoiceService(recognizer, submit)
        self.service.start()
        self.hermes: Any = None
        self.wyoming: Any = None
        self.mqtt = mqtt
        if mqtt is not None and cfg.voice.audio_topic:
            mqtt.attach_audio(self.on_mqtt_audio)
        if mqtt is not None and cfg.voice.hermes_audio:
            from agent.service.voice.hermes_audio import HermesAudio

            self.hermes = HermesAudio(
                mqtt,
                self.service,
                endpointer=SphinxEndpointer,
                reply_topic=mqtt.result_topic,
                execute=cfg.mqtt.hermes_execute,
                # with Hermes NLU on, Rhasspy's dialogue manager sends the captured text back as
                # hermes/nlu/query; running it here too would run the command twice
                run_commands=not cfg.mqtt.hermes,
            )
            self.hermes.subscribe()
        if cfg.wyoming.port:
            from agent.service.voice.wyoming_server import WyomingServer

            self.wyoming = WyomingServer(
                cfg.wyoming.host,
                cfg.wyoming.port,
                self.service,
                submit,
                timeout=cfg.limits.stall_timeout,
            )
            try:
                self.wyoming.start()
            except OSError:
                self.service.stop()
                raise

    def on_mqtt_audio(self, wav: bytes, reply: Callable[[JsonDict], None], meta: JsonDict) -> None:
        self.service.submit(
            Utterance(
                reply=reply,
                source="mqtt",
                wav=wav,
                dedup=meta.get("dedup"),
                meta={k: v for k, v in meta.items() if k != "ack"},
                on_duplicate=meta.get("ack"),
            )
        )

    def set_tools(self, tools: Sequence[Mapping[str, Any]]) -> None:
        self.service.set_tools(tools)

    def resubscribe(self) -> None:
        """After the MQTT link dropped its subscriptions (a reload rebuilding the devices)."""
        if self.hermes is not None:
            self.hermes.subscribe()

    def stop(self) -> None:
        if self.mqtt is not None and self.cfg.voice.audio_topic:
            self.mqtt.attach_audio(None)
        if self.wyoming is not None:
            self.wyoming.stop()
        self.service.stop()
