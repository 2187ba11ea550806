"""Home Assistant MQTT discovery for one needled node: the device config and its sensor state.

The MQTT connection stays in :mod:`agent.transports.mqtt`; this module decides what Home
Assistant is told (the retained device-based discovery message and the sensors' state topic).
"""

from __future__ import annotations

import json
from typing import Protocol

from agent.config import MqttConfig
from agent.pipeline import Command, JsonDict

VERSION = "0.1.0"


class Publisher(Protocol):
    def publish(
        self, topic: str, payload: bytes | str, *, qos: int = 1, retain: bool = False
    ) -> None: ...


class HomeAssistant:
    """Discovery config and sensor state of one node; publishes through ``link``."""

    def __init__(self, cfg: MqttConfig, link: Publisher, *, line_length: int = 1024) -> None:
        self.cfg = cfg
        self.link = link
        self.line_length = line_length
        n = cfg.node_id
        self.base = f"needled/{n}"
        self.command_topic = f"{self.base}/command"
        self.status_topic = f"{self.base}/status"
        self.state_topic = f"{self.base}/state"
        self.discovery_topic = f"{cfg.discovery_prefix}/device/needled_{n}/config"
        self.ha_status_topic = f"{cfg.discovery_prefix}/status"
        self._state: JsonDict = {"last_command": None, "last_call": None, "confidence": None}

    def discovery_payload(self) -> JsonDict:
        """Device-based discovery: one message for the device and all its entities."""
        n = self.cfg.node_id
        uid = f"needled_{n}"
        sensor_common = {"state_topic": self.state_topic, "entity_category": "diagnostic"}
        return {
            "dev": {
                "ids": [uid],
                "name": f"needled {n}",
                "mf": "needled",
                "mdl": "Needle 2 agent daemon",
                "sw": VERSION,
            },
            "o": {"name": "needled", "sw": VERSION},
            "availability_topic": self.status_topic,
            "payload_available": "online",
            "payload_not_available": "offline",
            "qos": 1,
            "cmps": {
                f"{uid}_command": {
                    "p": "text",
                    "name": "Command",
                    "unique_id": f"{uid}_command",
                    "command_topic": self.command_topic,
                    "min": 1,
                    "max": min(255, self.line_length),
                    "mode": "text",
                    "icon": "mdi:console-line",
                },
                f"{uid}_last_command": {
                    "p": "sensor",
                    "name": "Last command",
                    "unique_id": f"{uid}_last_command",
                    "value_template": "{{ value_json.last_command }}",
                    **sensor_common,
                },
                f"{uid}_last_call": {
                    "p": "sensor",
                    "name": "Last call",
                    "unique_id": f"{uid}_last_call",
                    "value_template": "{{ value_json.last_call }}",
                    **sensor_common,
                },
                f"{uid}_confidence": {
                    "p": "sensor",
                    "name": "Confidence",
                    "unique_id": f"{uid}_confidence",
                    "value_template": "{{ value_json.confidence }}",
                    "unit_of_measurement": "%",
                    "state_class": "measurement",
                    **sensor_common,
                },
            },
        }

    def publish_discovery(self) -> None:
        self.link.publish(self.discovery_topic, json.dumps(self.discovery_payload()), retain=True)

    def on_connect(self) -> None:
        if self.cfg.discovery:
            self.publish_discovery()

    def on_ha_status(self, payload: bytes) -> None:
        if payload.strip() == b"online":
            # HA restarted and lost its entities: announce again
            self.publish_discovery()
            self.link.publish(self.state_topic, json.dumps(self._state), retain=True)

    def on_reply(self, cmd: Command, reply: JsonDict) -> None:
        """Pipeline listener: keep the HA sensor state topic current."""
        env = reply.get("envelope") or {}
        calls = env.get("function_calls") or []
        last_call = (
            ", ".join(
                f"{c.get('name')}({json.dumps(c.get('arguments'), ensure_ascii=False)})"
                for c in calls
            )
            if calls
            else "none"
        )
        conf = env.get("confidence")
        self._state = {
            "last_command": cmd.text[:255],
            "last_call": last_call[:255],
            "confidence": round(conf * 100, 1) if isinstance(conf, int | float) else None,
            "source": cmd.source,
        }
        if self.cfg.discovery:
            self.link.publish(self.state_topic, json.dumps(self._state), retain=True)
