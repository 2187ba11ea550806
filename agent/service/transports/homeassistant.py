"""Home Assistant MQTT discovery for one needled node: the device config and its sensor state.

The MQTT connection stays in :mod:`agent.service.transports.mqtt`; this module decides what Home
Assistant is told: the retained device-based discovery message, the sensors' state topic, the
last envelope (the sensors' attributes), and the removal of configs this installation published
before under another node id or discovery prefix, or before discovery was turned off.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Protocol

from agent.service.config import MqttConfig
from agent.service.pipeline import Command, JsonDict

log = logging.getLogger("needled.homeassistant")

VERSION = "0.1.0"

# Why a command ended as it did: the daemon declined it on policy (refused), or something failed
# (error). Refusal codes are the pipeline's; any other failure is an error.
REFUSED = frozenset({"not_allowed", "filtered", "too_many_calls", "out_of_range", "low_confidence"})
OUTCOMES = ["call", "respond", "refused", "error"]

# What this installation last published retained for HA, kept in the state directory so a new
# node id or discovery prefix (or discovery turned off) can remove the old device from HA.
RECORD = "ha_discovery.json"


def state_dir() -> Path | None:
    """systemd's StateDirectory= (the unit exports NEEDLED_STATE_DIR); None when not set."""
    d = os.environ.get("NEEDLED_STATE_DIR")
    return Path(d) if d else None


def _ours(topic: str) -> bool:
    # only ever clear topics of the shapes needled publishes: a damaged record must not make it
    # send empty messages to someone else's topics
    if set(topic) & {"+", "#", "\0"}:
        return False
    parts = topic.split("/")
    if len(parts) == 3 and parts[0] == "needled":
        return parts[2] in ("state", "envelope")
    return (
        len(parts) >= 4
        and parts[-3] == "device"
        and parts[-2].startswith("needled_")
        and (parts[-1] == "config")
    )


def outcome(reply: JsonDict) -> str:
    """``call``, ``respond`` (the model answered without a call), ``refused`` or ``error``."""
    env = reply.get("envelope") or {}
    if env.get("type") == "error":
        return "refused" if env.get("error_code") in REFUSED else "error"
    failed = [r for r in reply.get("results") or [] if isinstance(r, dict) and not r.get("ok")]
    if any(r.get("error_code") in REFUSED for r in failed):
        return "refused"
    if failed:
        return "error"
    return "call" if env.get("type") == "call" and env.get("function_calls") else "respond"


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
        # a Confidence sensor for a model without a confidence head would only ever be unknown
        self.has_confidence = False
        n = cfg.node_id
        self.base = cfg.node_base
        self.command_topic = f"{self.base}/command"
        self.status_topic = f"{self.base}/status"
        self.state_topic = f"{self.base}/state"
        self.attributes_topic = f"{self.base}/envelope"
        self.discovery_topic = f"{cfg.discovery_prefix}/device/needled_{n}/config"
        self.ha_status_topic = f"{cfg.discovery_prefix}/status"
        self._state: JsonDict = {
            "last_command": None,
            "last_call": None,
            "confidence": None,
            "outcome": None,
        }
        self._attributes: JsonDict | None = None

    def adopt(self, previous: HomeAssistant) -> None:
        """Keep what the instance for the previous config knew (a reload): whether the model
        has a confidence head, and the last state, published again under the new topics."""
        self.has_confidence = previous.has_confidence
        self._state = previous._state
        self._attributes = previous._attributes

    def discovery_payload(self) -> JsonDict:
        """Device-based discovery: one message for the device and all its entities."""
        n = self.cfg.node_id
        uid = f"needled_{n}"
        # every sensor shows the last envelope as its attributes
        sensor_common = {
            "state_topic": self.state_topic,
            "entity_category": "diagnostic",
            "json_attributes_topic": self.attributes_topic,
        }

        def sensor(key: str, name: str, **extra: Any) -> JsonDict:
            return {
                "p": "sensor",
                "name": name,
                "unique_id": f"{uid}_{key}",
                "value_template": f"{{{{ value_json.{key} }}}}",
                **sensor_common,
                **extra,
            }

        cmps: JsonDict = {
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
            f"{uid}_last_command": sensor("last_command", "Last command"),
            f"{uid}_last_call": sensor("last_call", "Last call"),
            f"{uid}_outcome": sensor("outcome", "Outcome", device_class="enum", options=OUTCOMES),
        }
        if self.has_confidence:
            cmps[f"{uid}_confidence"] = sensor(
                "confidence", "Confidence", unit_of_measurement="%", state_class="measurement"
            )
        else:
            # a component given with its platform only is removed by HA: a model without a
            # confidence head takes away the sensor an earlier model may have put there
            cmps[f"{uid}_confidence"] = {"p": "sensor"}
        origin = {"name": "needled", "sw": VERSION}
        if self.cfg.discovery_url:
            origin["url"] = self.cfg.discovery_url
        return {
            "dev": {
                "ids": [uid],
                "name": f"needled {n}",
                "mf": "needled",
                "mdl": "Needle 2 agent daemon",
                "sw": VERSION,
            },
            "o": origin,
            "availability_topic": self.status_topic,
            "payload_available": "online",
            "payload_not_available": "offline",
            "qos": 1,
            "cmps": cmps,
        }

    def publish_discovery(self) -> None:
        self.link.publish(self.discovery_topic, json.dumps(self.discovery_payload()), retain=True)

    def set_confidence_head(self, present: bool, *, connected: bool) -> None:
        """The model (re)loaded: add or drop the Confidence sensor."""
        if present == self.has_confidence:
            return
        self.has_confidence = present
        if connected and self.cfg.discovery:
            self.publish_discovery()

    def retained_topics(self) -> list[str]:
        """Everything retained this node publishes for HA (removed when discovery goes)."""
        return [self.discovery_topic, self.state_topic, self.attributes_topic]

    def on_connect(self) -> None:
        """Publish (or, with discovery off, remove) the device, and remove any device this
        installation published before under another node id or prefix."""
        wanted = self.retained_topics() if self.cfg.discovery else []
        stale = [t for t in self._recorded() if t not in wanted]
        if not self.cfg.discovery:
            # no record needed to undo this node's own discovery: its topic is known
            stale += [t for t in self.retained_topics() if t not in stale]
        for topic in stale:
            # an empty retained message deletes the retained one; HA removes the device
            self.link.publish(topic, b"", retain=True)
        if stale:
            log.info("removed Home Assistant discovery left on %s", ", ".join(stale))
        self._record(wanted)
        if self.cfg.discovery:
            self.publish_discovery()
            if self._attributes is not None:
                self._publish_state()

    def _recorded(self) -> list[str]:
        d = state_dir()
        if d is None:
            return []
        try:
            data = json.loads((d / RECORD).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            log.warning("ignoring unreadable %s: %s", d / RECORD, exc)
            return []
        topics = data.get("retained") if isinstance(data, dict) else None
        if not isinstance(topics, list):
            return []
        return [t for t in topics if isinstance(t, str) and _ours(t)]

    def _record(self, topics: list[str]) -> None:
        d = state_dir()
        if d is None or self._recorded() == topics:
            return
        path = d / RECORD
        try:
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"retained": topics}), encoding="utf-8")
            tmp.replace(path)  # atomic: a crash leaves the old record or the new, never half
        except OSError as exc:
            log.warning("cannot record the Home Assistant discovery in %s: %s", d, exc)

    def on_ha_status(self, payload: bytes) -> None:
        if payload.strip() == b"online":
            # HA restarted and lost its entities: announce again
            self.publish_discovery()
            self._publish_state()

    def on_reply(self, cmd: Command, reply: JsonDict) -> None:
        """Pipeline listener: keep the HA sensor state and attributes current."""
        env = reply.get("envelope") or {}
        calls = env.get("function_calls") or []
        last_call = (
            ", ".join(
                f"{c.get('name')}({json.dumps(c.get('arguments'), ensure_ascii=False)})"
                for c in calls
                if isinstance(c, dict)
            )
            if calls
            else "none"
        )
        conf = env.get("confidence")
        self._state = {
            "last_command": cmd.text[:255],
            "last_call": last_call[:255],
            "confidence": round(conf * 100, 1) if isinstance(conf, int | float) else None,
            "outcome": outcome(reply),
            "source": cmd.source,
        }
        self._attributes = dict(env)
        if self.cfg.discovery:
            self._publish_state()

    def _publish_state(self) -> None:
        self.link.publish(self.state_topic, json.dumps(self._state), retain=True)
        if self._attributes is not None:
            self.link.publish(self.attributes_topic, json.dumps(self._attributes), retain=True)
