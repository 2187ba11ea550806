"""Tasmota switches over MQTT: ``cmnd/<topic>/POWER`` with ON/OFF/TOGGLE, state from
``stat/<topic>/RESULT``.

Commands are never retained: a retained POWER command would switch the plug again every time it
reconnects to the broker.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agent.topics import topic_problem
from devices.registry import (
    DeviceConfigError,
    JsonDict,
    MqttLink,
    MqttStateHandler,
    Options,
    TopicState,
    tool_schema,
)


class TasmotaSwitches(MqttStateHandler):
    what = "Tasmota switches"

    def __init__(self, key: str, table: Mapping[str, Any], mqtt: MqttLink | None = None) -> None:
        o = Options(key, table, {"switches", "confirm_timeout"})
        self.key = key
        self.switches: dict[str, str] = o.mapping("switches")
        for label, topic in self.switches.items():
            if "/" in topic or not topic.strip() or topic_problem(f"cmnd/{topic}/POWER"):
                raise DeviceConfigError(f"{key}.switches.{label}", "must be a plain Tasmota topic")
        self.confirm_timeout = float(o.number("confirm_timeout", 2.0))
        self.mqtt = mqtt
        self.schema = tool_schema(
            o.tool("set_switch"),
            o.description("Switch a smart plug on or off, or toggle it."),
            {
                "device": {"type": "string", "enum": list(self.switches)},
                "action": {"type": "string", "enum": ["ON", "OFF", "TOGGLE"]},
            },
            ["device", "action"],
        )
        self.state_topics = {label: f"stat/{t}/RESULT" for label, t in self.switches.items()}
        self._states = {label: TopicState() for label in self.switches}

    def state_value(self, data: Any) -> Any | None:
        return data["POWER"] if isinstance(data, dict) and "POWER" in data else None

    def call(self, arguments: JsonDict) -> JsonDict:
        label, action = arguments["device"], arguments["action"]
        expect = None if action == "TOGGLE" else (lambda power: power == action)
        st, confirmed = self.send(label, f"cmnd/{self.switches[label]}/POWER", action, expect)
        return {"device": label, "sent": action, "power": st.payload, "confirmed": confirmed}

    def state(self) -> JsonDict:
        return {label: {"power": st.payload} for label, st in self._states.items()}
