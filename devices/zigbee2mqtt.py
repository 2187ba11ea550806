"""Zigbee lights through zigbee2mqtt: JSON to ``<base>/<friendly_name>/set``, state read from
``<base>/<friendly_name>``."""

from __future__ import annotations

import json
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

# zigbee2mqtt takes colour as {"hex": "#RRGGBB"}; named colours keep the tool schema small.
COLORS = {
    "white": "#FFFFFF",
    "warm white": "#FFD8A8",
    "red": "#FF0000",
    "orange": "#FF8000",
    "yellow": "#FFFF00",
    "green": "#00FF00",
    "blue": "#0000FF",
    "purple": "#8000FF",
    "pink": "#FF60C0",
}


class Zigbee2MqttLights(MqttStateHandler):
    what = "zigbee2mqtt devices"

    def __init__(self, key: str, table: Mapping[str, Any], mqtt: MqttLink | None = None) -> None:
        o = Options(key, table, {"devices", "base_topic", "confirm_timeout"})
        self.key = key
        self.devices: dict[str, str] = o.mapping("devices")
        self.base = o.string("base_topic", "zigbee2mqtt").rstrip("/")
        if why := topic_problem(self.base):
            raise DeviceConfigError(f"{key}.base_topic", why)
        for label, name in self.devices.items():
            why = topic_problem(f"{self.base}/{name}/set")
            if why or name.endswith("/set"):
                detail = f" ({why})" if why else ""
                raise DeviceConfigError(
                    f"{key}.devices.{label}", f"is not a valid friendly name{detail}"
                )
        self.confirm_timeout = float(o.number("confirm_timeout", 2.0))
        self.mqtt = mqtt
        self.schema = tool_schema(
            o.tool("set_light"),
            o.description("Switch a room's light on or off, and set its brightness or colour."),
            {
                "room": {"type": "string", "enum": list(self.devices)},
                "on": {"type": "boolean"},
                "brightness": {"type": "integer", "minimum": 0, "maximum": 100},
                "color": {"type": "string", "enum": list(COLORS)},
            },
            ["room"],
        )
        self.state_topics = {label: f"{self.base}/{n}" for label, n in self.devices.items()}
        self._states = {label: TopicState() for label in self.devices}

    @staticmethod
    def payload(arguments: JsonDict) -> JsonDict:
        """The zigbee2mqtt ``/set`` message for one call."""
        out: JsonDict = {}
        if "brightness" in arguments:
            # zigbee2mqtt brightness is 0..254
            out["brightness"] = round(arguments["brightness"] * 254 / 100)
            out["state"] = "ON" if arguments["brightness"] > 0 else "OFF"
        if "color" in arguments:
            out["color"] = {"hex": COLORS[arguments["color"]]}
            out.setdefault("state", "ON")
        if "on" in arguments:
            out["state"] = "ON" if arguments["on"] else "OFF"
        if not out:
            out["state"] = "TOGGLE"
        return out

    def call(self, arguments: JsonDict) -> JsonDict:
        label = arguments["room"]
        message = self.payload(arguments)
        topic = f"{self.base}/{self.devices[label]}/set"
        want = message["state"]

        def shows_it(state: Any) -> bool:
            return isinstance(state, dict) and state.get("state") == want

        # a toggle's outcome depends on the state before it: any report confirms it
        expect = None if want == "TOGGLE" else shows_it
        st, confirmed = self.send(label, topic, json.dumps(message), expect)
        return {"room": label, "sent": message, "state": st.payload, "confirmed": confirmed}

    def state(self) -> JsonDict:
        return {label: st.payload for label, st in self._states.items()}
