"""Tasmota switches over MQTT: ``cmnd/<topic>/POWER`` with ON/OFF/TOGGLE, state from
``stat/<topic>/RESULT``.

Commands are never retained: a retained POWER command would switch the plug again every time it
reconnects to the broker.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from devices.registry import (
    BaseHandler,
    DeviceConfigError,
    JsonDict,
    MqttLink,
    Options,
    TopicState,
    tool_schema,
)


class TasmotaSwitches(BaseHandler):
    def __init__(self, key: str, table: Mapping[str, Any], mqtt: MqttLink | None = None) -> None:
        o = Options(key, table, {"switches", "confirm_timeout"})
        self.key = key
        self.switches: dict[str, str] = o.mapping("switches")
        for label, topic in self.switches.items():
            if any(c in topic for c in "+#/") or not topic.strip():
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
        self._states = {label: TopicState() for label in self.switches}

    def open(self) -> None:
        if self.mqtt is None:
            raise DeviceConfigError(self.key, "Tasmota switches need the MQTT transport enabled")
        for label, topic in self.switches.items():
            self.mqtt.subscribe(f"stat/{topic}/RESULT", self._on_result(label))

    def _on_result(self, label: str) -> Any:
        def handle(_topic: str, payload: bytes) -> None:
            try:
                data = json.loads(payload)
            except ValueError:
                return
            if isinstance(data, dict) and "POWER" in data:
                self._states[label].update(data["POWER"])

        return handle

    def call(self, arguments: JsonDict) -> JsonDict:
        if self.mqtt is None:
            raise RuntimeError("MQTT is not available")
        label, action = arguments["device"], arguments["action"]
        st = self._states[label]
        before = st.version()
        self.mqtt.publish(f"cmnd/{self.switches[label]}/POWER", action, qos=1, retain=False)
        confirmed = st.wait_newer(before, self.confirm_timeout)
        return {"device": label, "sent": action, "power": st.payload, "confirmed": confirmed}

    def state(self) -> JsonDict:
        return {label: {"power": st.payload} for label, st in self._states.items()}
