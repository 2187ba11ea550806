"""Rhasspy / Hermes NLU over the daemon's MQTT connection: ``hermes/nlu/query`` in, intents out.

The MQTT connection (sessions, acks, publishing) stays in :mod:`agent.transports.mqtt`; this
module only speaks the Hermes protocol. Each topic it serves maps to one handler method in
:attr:`HermesService.handlers`, so further Hermes services (audio, ASR) add a topic and a method.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.subscribeoptions import SubscribeOptions

from agent import wirejson
from agent.config import MqttConfig
from agent.pipeline import Command, JsonDict, Submit

log = logging.getLogger("needled.hermes")

QUERY = "hermes/nlu/query"


class HermesLink(Protocol):
    """What the Hermes service needs from the MQTT transport."""

    def publish(
        self, topic: str, payload: bytes | str, *, qos: int = 1, retain: bool = False
    ) -> None: ...

    def acker(self, msg: mqtt.MQTTMessage) -> Callable[[], None]:
        """A callable that acknowledges ``msg`` on the connection it arrived on."""
        ...

    def submit_command(self, cmd: Command) -> Submit | None:
        """Hand ``cmd`` to the pipeline; None while the daemon has no pipeline yet."""
        ...


class HermesService:
    """The Hermes NLU service: recognise (and, with ``hermes_execute``, run) voice queries."""

    def __init__(self, cfg: MqttConfig, link: HermesLink) -> None:
        self.cfg = cfg
        self.link = link
        self.handlers: dict[str, Callable[[mqtt.MQTTMessage], None]] = {QUERY: self.on_query}

    def subscriptions(self) -> list[tuple[str, SubscribeOptions]]:
        return [(t, SubscribeOptions(qos=1)) for t in self.handlers]

    def handler(self, topic: str) -> Callable[[mqtt.MQTTMessage], None] | None:
        for pattern, fn in self.handlers.items():
            if mqtt.topic_matches_sub(pattern, topic):
                return fn
        return None

    def on_query(self, msg: mqtt.MQTTMessage) -> None:
        ack = self.link.acker(msg)
        try:
            query = wirejson.loads(msg.payload)
            if not isinstance(query, dict) or not isinstance(query.get("input"), str):
                raise ValueError("no 'input'")
        except ValueError:
            log.warning("ignoring malformed hermes/nlu/query")
            ack()
            return
        common = {
            "input": query["input"],
            "id": query.get("id"),
            "siteId": query.get("siteId", "default"),
            "sessionId": query.get("sessionId"),
            "customData": None,
        }

        def reply(payload: JsonDict) -> None:
            env = payload.get("envelope") or {}
            calls = env.get("function_calls") or []
            if env.get("type") == "call" and calls:
                call = calls[0]
                conf = env.get("confidence")
                intent = {
                    **common,
                    "intent": {
                        "intentName": call["name"],
                        "confidenceScore": float(conf) if conf is not None else 1.0,
                    },
                    "slots": [
                        {
                            "entity": k,
                            "slotName": k,
                            "rawValue": v if isinstance(v, str) else json.dumps(v),
                            "value": {"kind": "Unknown", "value": v},
                            "confidence": 1.0,
                            "range": None,
                        }
                        for k, v in (call.get("arguments") or {}).items()
                    ],
                    "rawInput": query["input"],
                    "asrTokens": [],
                    "asrConfidence": None,
                    "wakewordId": query.get("wakewordId"),
                    "lang": query.get("lang"),
                }
                self.link.publish(f"hermes/intent/{call['name']}", json.dumps(intent))
            else:
                self.link.publish("hermes/nlu/intentNotRecognized", json.dumps(common))
            ack()

        cmd = Command(
            text=query["input"],
            source="hermes",
            reply=reply,
            id=query.get("id"),
            execute=self.cfg.hermes_execute,
        )
        status = self.link.submit_command(cmd)
        if status is None:
            cmd.answer_error("not_ready", "daemon is starting")
        elif status is Submit.DUPLICATE:
            ack()
